package store

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"strings"
)

// A team's version, for the API's cache of GET team's records (api/post_cache.go), as a post's is
// for its record (post_version.go): a hash of the xmin of every row the record shows — the team's,
// its organization's, the organization's creator's while not deleted, and each live account's of
// the team with its id (an account that comes or goes changes the sum). The version statement is
// the record's own statement (team_read.sql) selecting only those xmins, under the very same
// joins and filters (cut from its text), and the record's read selects them too, so a cold read
// computes its own version.
var (
	// readTeamRecordX is ReadTeamRecord with the rows' xmins last (sqlc knows no system columns).
	readTeamRecordX = byOneID(readTeamRecord, "AS account_updated_at\n", "AS account_updated_at, t.xmin, o.xmin, u.xmin, sa.xmin\n")
	readTeamVersion = "-- name: ReadTeamVersion\nSELECT t.xmin, o.xmin, u.xmin, sa.id, sa.xmin\n" + teamRecordFrom()
)

// teamRecordFrom is ReadTeamRecord's FROM and WHERE, without its order (the version's sum has none).
func teamRecordFrom() string {
	from, order := strings.Index(readTeamRecord, "FROM teams t"), strings.Index(readTeamRecord, "ORDER BY")
	if from < 0 || order < from {
		panic("store: ReadTeamRecord has no FROM teams t ... ORDER BY")
	}
	return readTeamRecord[from:order]
}

// TeamReads is what GET team's record is built from; a slice is empty when its row is absent.
type TeamReads struct {
	Team         []Team
	Organization []Organization
	Creator      []User
	Accounts     []SocialAccount
	Version      int64 // the rows' version (ReadTeamVersion's), when Team is there
}

// ReadTeam reads a team of the organization, the organization while live, its creator while not
// deleted and the team's live accounts (team_read.sql) in one statement, scanned by hand, with
// their version.
func ReadTeam(ctx context.Context, db DBTX, orgID, teamID string) (TeamReads, error) {
	var out TeamReads
	rows, err := db.Query(ctx, readTeamRecordX, teamID, orgID)
	if err != nil {
		return TeamReads{}, fmt.Errorf("store: read team: %w", err)
	}
	defer rows.Close()
	var v teamVersioner
	r := newRawRow(rows)
	const accountAt = 8 + 20 + 11 // the account's id: after the team's, organization's and creator's columns
	for r.next() {
		n := len(r.fds)
		v.row(r.raw(n-4), r.raw(n-3), r.raw(n-2), r.raw(accountAt), r.raw(n-1))
		var t Team
		r.str(&t.ID)
		r.str(&t.OrganizationID)
		r.str(&t.CreatedByID)
		r.str(&t.Name)
		r.strPtr(&t.AvatarUrl)
		r.time(&t.CreatedAt)
		r.time(&t.UpdatedAt)
		r.timePtr(&t.DeletedAt)
		if out.Team == nil { // the team, organization and creator repeat on every row
			out.Team = []Team{t}
			var o Organization
			r.str(&o.ID)
			r.str(&o.CreatedByID)
			r.str(&o.Name)
			r.strPtr(&o.AvatarUrl)
			r.strPtr(&o.Ref)
			r.str(&o.Plan)
			r.boolean(&o.ApiAccess)
			r.boolean(&o.Suspended)
			r.boolean(&o.AnalyticsDisabled)
			r.boolean(&o.AnalyticsPostsDisabled)
			r.boolean(&o.UploadsCompressionEnabled)
			r.boolean(&o.ShowVerboseErrors)
			r.boolean(&o.DisconnectCheckEnabled)
			r.int32(&o.DeleteAccountAfter)
			r.strPtr(&o.PortalBrandName)
			r.strPtr(&o.PortalLogoUrl)
			r.strPtr(&o.PortalAccentColor)
			r.time(&o.CreatedAt)
			r.time(&o.UpdatedAt)
			r.timePtr(&o.DeletedAt)
			if o.DeletedAt == nil {
				out.Organization = []Organization{o}
			}
			if r.raw(r.col) != nil { // the creator, while not deleted
				var u User
				r.str(&u.ID)
				r.str(&u.Email)
				r.strPtr(&u.FirstName)
				r.strPtr(&u.LastName)
				r.strPtr(&u.AvatarUrl)
				r.strPtr(&u.Timezone)
				r.timePtr(&u.EmailVerifiedAt)
				r.timePtr(&u.OnboardedAt)
				r.time(&u.CreatedAt)
				r.time(&u.UpdatedAt)
				r.timePtr(&u.DeletedAt)
				out.Creator = []User{u}
			} else {
				r.skipN(11)
			}
		} else {
			r.skipN(20 + 11)
		}
		if r.raw(r.col) == nil { // no account
			r.skipN(2 + accountColumns + 4)
			continue
		}
		a := SocialAccount{OrganizationID: t.OrganizationID, TeamID: t.ID}
		r.str(&a.ID)
		r.str(&a.Type)
		r.account(&a)
		r.skipN(4) // the xmins
		out.Accounts = append(out.Accounts, a)
	}
	if err := r.Err(); err != nil {
		return TeamReads{}, fmt.Errorf("store: read team: %w", err)
	}
	out.Version, _ = v.version()
	return out, nil
}

// ReadTeamVersion answers the version of the organization's team id as ReadTeam would read it;
// ok is false when there is no such live team (or id is not a uuid: the caller's full read
// answers why).
func ReadTeamVersion(ctx context.Context, db DBTX, orgID, id string) (v int64, ok bool, err error) {
	u, valid := pgUUID(id)
	if !valid {
		return 0, false, nil
	}
	rows, err := db.Query(ctx, readTeamVersion, u, orgID)
	if err != nil {
		return 0, false, fmt.Errorf("store: read team version: %w", err)
	}
	defer rows.Close()
	var tv teamVersioner
	for rows.Next() {
		c := rows.RawValues()
		if len(c) != 5 {
			return 0, false, fmt.Errorf("store: read team version: %d columns", len(c))
		}
		tv.row(c[0], c[1], c[2], c[3], c[4])
	}
	if err := rows.Err(); err != nil {
		return 0, false, fmt.Errorf("store: read team version: %w", err)
	}
	v, ok = tv.version()
	return v, ok, nil
}

// teamVersioner hashes a team read's rows (each the team's, organization's and creator's xmins,
// repeated, and an account's id and xmin, or NULLs) into its version: both statements pass it the
// same bytes (binary xids and uuids) of the same rows.
type teamVersioner struct {
	h         maphash.Hash
	head      uint64 // the team's, organization's and creator's xmins
	sum, rows uint64 // the accounts'
	seen      bool
}

func (v *teamVersioner) row(team, org, creator, accountID, account []byte) {
	h := &v.h
	if !v.seen {
		h.SetSeed(versionSeed)
		writeColumn(h, team)
		writeColumn(h, org)
		writeColumn(h, creator)
		v.head, v.seen = h.Sum64(), true
	}
	if accountID == nil { // the team has no live account
		return
	}
	h.Reset()
	writeColumn(h, accountID)
	writeColumn(h, account)
	v.sum += h.Sum64()
	v.rows++
}

// version answers the version; false when no row came (no such team).
func (v *teamVersioner) version() (int64, bool) {
	if !v.seen {
		return 0, false
	}
	var b [24]byte
	binary.LittleEndian.PutUint64(b[:], v.head)
	binary.LittleEndian.PutUint64(b[8:], v.sum)
	binary.LittleEndian.PutUint64(b[16:], v.rows)
	return int64(maphash.Bytes(versionSeed, b[:])), true
}
