package store

import (
	"github.com/jackc/pgx/v5"
)

// A write checked against reads kept in memory (issue 15: the reads of a POST or PATCH were a
// round trip and three statements before the write's) carries a WriteGuard: the versions (xmin,
// which every update of a row changes) of every row its checks used that the post's own check
// (PostWrite.Seen: the post locked as read, its targets) does not cover. The write statement fails
// (post_unchanged: CR409, ErrPostChanged) unless they are all still live and as read, in the
// statement's snapshot, so a stale copy costs a retry, never a wrong write or answer. It is as
// strict as reading them before the write: nothing of them is locked, as it never was. (A row's
// soft delete is an update, so a new version: a row named by its version needs no deleted_at.)
type WriteGuard struct {
	OrganizationID string
	TeamID         string
	TeamVersion    string   // the team's xmin: live and unchanged ("": not checked)
	Accounts       []string // "id@xmin" of every live account of the team: exactly these (nil: not checked)
	UploadIDs      []string // uploads live and at these versions ("id@xmin", UploadVersions)
	UploadVersions []string
}

// guardSQL answers the guard's condition (true when all holds), its arguments added to q.
func (q *writeSQL) guardSQL(g *WriteGuard) string {
	org, team := q.arg(g.OrganizationID), q.arg(g.TeamID)
	var s string
	and := func(c string) {
		if s != "" {
			s += " AND "
		}
		s += c
	}
	if g.TeamVersion != "" {
		and("EXISTS (SELECT FROM teams g WHERE g.id = " + team + " AND g.organization_id = " + org + " AND g.xmin::text = " +
			q.arg(g.TeamVersion) + "::text)")
	}
	if g.Accounts != nil {
		and("(SELECT coalesce(array_agg(v ORDER BY v), '{}') FROM (SELECT a.id::text || '@' || a.xmin::text AS v FROM social_accounts a WHERE a.organization_id = " +
			org + " AND a.team_id = " + team + " AND a.deleted_at IS NULL) cur) = (SELECT coalesce(array_agg(v ORDER BY v), '{}') FROM unnest(" +
			q.arg(g.Accounts) + "::text[]) v)")
	}
	if len(g.UploadIDs) > 0 {
		vers := q.arg(g.UploadVersions)
		and("(SELECT count(*) FROM uploads u WHERE u.id = ANY(" + q.arg(uuidArray(g.UploadIDs)) + "::uuid[]) AND u.organization_id = " + org +
			" AND u.id::text || '@' || u.xmin::text = ANY(" + vers + "::text[])) = cardinality(" + vers + "::text[])")
	}
	if s == "" {
		return "true"
	}
	return s
}

// guardShape says which parts a guard has (for writeShape).
func guardShape(g *WriteGuard) (team, accounts, uploads bool) {
	if g == nil {
		return false, false, false
	}
	return g.TeamVersion != "", g.Accounts != nil, len(g.UploadIDs) > 0
}

// Version is a row's "id@xmin", as a guard and PostSeen hold them.
func Version(id, xmin string) string { return id + "@" + xmin }

// The uploads an edit or a creation checks (ReadPostEditUploads, UploadsOf: the same filters), with
// their versions for a later guard (xmin last: sqlc knows no system columns).
var (
	readPostEditUploadsVersioned = byOneID(readPostEditUploads, " name FROM uploads u WHERE", " name, u.xmin::text FROM uploads u WHERE")
	uploadsOfVersioned           = byOneID(uploadsOf, " name FROM uploads WHERE", " name, xmin::text FROM uploads WHERE")
)

// collectUploadVersions scans uploads rows (SELECT *, then xmin) with their versions ("id@xmin").
func collectUploadVersions(into *[]Upload, vers *[]string) func(pgx.Rows) error {
	return func(rows pgx.Rows) error {
		r := newRawRow(rows)
		for r.next() {
			var u Upload
			var x string
			r.upload(&u)
			r.str(&x)
			*into, *vers = append(*into, u), append(*vers, Version(u.ID, x))
		}
		return r.Err()
	}
}

// writeAccountVersion decodes writeAccountColumns and the account's xmin (both null on the outer
// join's side without an account), appending them when the row has one.
func (r *rawRow) writeAccountVersion(into []SocialAccount, vers []string) ([]SocialAccount, []string) {
	a, ok := r.writeAccount()
	var x string
	if !ok {
		r.skip()
		return into, vers
	}
	r.str(&x)
	return append(into, a), append(vers, Version(a.ID, x))
}
