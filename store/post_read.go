package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// One post's read (GET post) selects by `= $2`, not `= ANY($2)`: for an array PostgreSQL prices
// its generic plan (an array of unknown length) above a custom plan of this one, so once an
// organization had a few thousand posts it planned them anew at every call — about
// half of its CPU per GET post (TestOnePostReadReusesItsPlans). By equality the prepared plan is
// used, and it reads by the primary key (or the targets' post key) however the table has grown
// since it was made. (Forcing generic plans for the arrays was tried: a plan made while a table
// was small stayed a sequential scan after it grew, 4.6 ms a call.) A page of posts keeps the
// arrays and their custom plans.
var (
	readOnePostOfOrg        = byOneID(readPostsOfOrgX, "p.id = ANY($2::uuid[])", "p.id = $2::uuid")
	readOnePostTargetsOfOrg = byOneID(readPostTargetsOfOrg, "t.post_id = ANY($2::uuid[])", "t.post_id = $2::uuid")
	readOnePostUploadLinks  = byOneID(readPostUploadLinksX, "pu.post_id = ANY($2::uuid[])", "pu.post_id = $2::uuid")
)

// The posts' and the links' reads with their rows' xmins last, whence a read's own version
// (post_version.go): sqlc knows no system columns, so they are added here.
var (
	readPostsOfOrgX      = byOneID(readPostsOfOrg, "AS org_show_verbose_errors", "AS org_show_verbose_errors, p.xmin")
	readPostUploadLinksX = byOneID(readPostUploadLinks, "AS upload_updated_at", "AS upload_updated_at, pu.xmin, u.xmin")
)

func byOneID(sql, anyOf, one string) string {
	if strings.Count(sql, anyOf) != 1 {
		panic("store: " + anyOf + " is not once in " + sql)
	}
	return strings.Replace(sql, anyOf, one, 1)
}

// Batcher sends several statements in one round trip (a pool, a connection or a transaction).
type Batcher interface {
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// PostReads is what posts' records are built from. Its rows hold the columns a record shows (the
// queries of post_read.sql name them): a target has no payload, checkpoints or lease, an account no
// tokens, a post no created_by_id or counted_at, an upload no created_by_id or purged_at.
type PostReads struct {
	Posts             []Post // in no particular order; absent ids are not there
	ShowVerboseErrors bool
	TeamLive          bool // TeamID of the call is a live team of the organization (when asked)
	Targets           []PublishTarget
	UploadLinks       []PostUpload    // links to live uploads only, in order
	Uploads           []Upload        // those uploads
	Accounts          []SocialAccount // with links: the live accounts of the posts' teams that targets name
	Version           int64           // ReadPostVersioned: the post's version (post_version.go), when Versioned, hashed from these rows
	Versioned         bool
	Versions          []PostVersion // ReadPostsVersioned: each post's version, hashed from these rows
}

// ReadPosts reads the organization's posts among ids with their targets and, with links, their
// upload links, uploads and the live accounts of their teams that their targets name (read with
// the targets) — the queries of post_read.sql, pipelined in one batch: one round trip and three
// statements instead of six round trips. teamID, when set, is
// checked to be a live team of the organization (TeamLive). Rows are scanned by hand, column by
// column: pgx's struct scanning reflected over every row (issue 15).
func ReadPosts(ctx context.Context, db Batcher, orgID string, ids []string, links bool, teamID string) (PostReads, error) {
	return readPosts(ctx, db, orgID, ids, links, teamID, false)
}

// ReadPostVersioned is ReadPosts of one post with its links and its version, hashed from the
// rows read (their xmins) as ReadPostVersion hashes them: no statement more. The statements of the
// batch may see different commits, but the version is of exactly the rows the record is built
// from, so one that equals a later ReadPostVersion's says these rows are still the current ones.
func ReadPostVersioned(ctx context.Context, db Batcher, orgID, id string) (PostReads, error) {
	return readPosts(ctx, db, orgID, []string{id}, true, "", true)
}

// ReadPostsVersioned is ReadPosts with links and each post's version (Versions), hashed from the
// rows read as ReadPostVersioned's: a page read whole keeps its records without a version statement.
func ReadPostsVersioned(ctx context.Context, db Batcher, orgID string, ids []string, teamID string) (PostReads, error) {
	return readPosts(ctx, db, orgID, ids, true, teamID, true)
}

func readPosts(ctx context.Context, db Batcher, orgID string, ids []string, links bool, teamID string, version bool) (PostReads, error) {
	var out PostReads
	// The ids go four times to PostgreSQL: encoded once as binary uuids, not parsed from text each
	// time (one that does not parse is sent as text, for PostgreSQL's own answer to it).
	var idArg any = ids // the array, or its one id
	postsSQL, targetsSQL, linksSQL := readPostsOfOrgX, readPostTargetsOfOrg, readPostUploadLinksX
	if u, ok := uuids(ids); ok {
		idArg = u
		if len(ids) == 1 {
			postsSQL, targetsSQL, linksSQL, idArg = readOnePostOfOrg, readOnePostTargetsOfOrg, readOnePostUploadLinks, u[0]
		}
	}
	b := &pgx.Batch{}
	var v *versioner
	if version {
		v = newVersioner(len(ids))
	}
	// Slices are sized for what a page usually holds (a post and two targets per id), not grown.
	b.Queue(postsSQL, orgID, idArg).Query(func(rows pgx.Rows) error {
		out.Posts = make([]Post, 0, len(ids))
		r := newRawRow(rows)
		for r.next() {
			var p Post
			r.str(&p.ID)
			r.str(&p.OrganizationID)
			r.str(&p.TeamID)
			r.postContent(&p)
			r.time(&p.CreatedAt)
			r.time(&p.UpdatedAt)
			r.timePtr(&p.DeletedAt)
			r.boolean(&out.ShowVerboseErrors)
			if v != nil {
				v.post(r.raw(0), p.ID, int64(len(out.Posts)), 0, r.raw(r.col), out.ShowVerboseErrors)
			}
			r.skip() // the xmin
			out.Posts = append(out.Posts, p)
		}
		return r.Err()
	})
	if len(ids) == 0 {
		b.Queue(readOrgShowVerboseErrors, orgID).QueryRow(func(r pgx.Row) error { return r.Scan(&out.ShowVerboseErrors) })
	}
	if teamID != "" {
		b.Queue(readTeamLive, teamID, orgID).QueryRow(func(r pgx.Row) error { return r.Scan(&out.TeamLive) })
	}
	b.Queue(targetsSQL, orgID, idArg).Query(func(rows pgx.Rows) error {
		out.Targets = make([]PublishTarget, 0, 2*len(ids))
		const accountAt = 15                          // the account's first column, its team the next
		const xminAt = accountAt + 3 + accountColumns // the target's xmin, its account's the next
		seen := map[string]bool{}
		teamOf := make(map[string]string, len(out.Posts)) // read by the first statement, whose callback ran
		for _, p := range out.Posts {
			teamOf[p.ID] = p.TeamID
		}
		r := newRawRow(rows)
		for r.next() {
			t := PublishTarget{OrganizationID: orgID}
			r.str(&t.ID)
			r.str(&t.Kind)
			r.strPtr(&t.PostID)
			r.str(&t.Network)
			r.strPtr(&t.SocialAccountID)
			r.str(&t.Status)
			r.int32(&t.Attempts)
			r.timePtr(&t.NextAttemptAt)
			r.strPtr(&t.ExternalID)
			r.strPtr(&t.Permalink)
			r.strPtr(&t.Error)
			r.json(&t.ErrorVerbose)
			r.timePtr(&t.PostedAt)
			r.time(&t.CreatedAt)
			r.time(&t.UpdatedAt)
			out.Targets = append(out.Targets, t)
			if v != nil {
				v.row(1, r.raw(2), r.raw(0), r.raw(xminAt), r.raw(xminAt+1))
			}
			// The account (the outer join's side) is a record's while of the post's team, and is
			// decoded the first time it comes only: a page's targets name the same few.
			raw := r.raw(accountAt)
			if !links || raw == nil || seen[string(raw)] || t.PostID == nil || !r.isString(accountAt+1, teamOf[*t.PostID]) {
				r.skipN(3 + accountColumns + 2)
				continue
			}
			seen[string(raw)] = true
			a := SocialAccount{OrganizationID: orgID}
			r.str(&a.ID)
			r.str(&a.TeamID)
			r.str(&a.Type)
			r.account(&a)
			r.skipN(2)
			out.Accounts = append(out.Accounts, a)
		}
		return r.Err()
	})
	if links {
		b.Queue(linksSQL, orgID, idArg).Query(func(rows pgx.Rows) error {
			out.UploadLinks, out.Uploads = make([]PostUpload, 0, len(ids)), make([]Upload, 0, len(ids))
			r := newRawRow(rows)
			for r.next() {
				var l PostUpload
				var u Upload
				r.str(&l.PostID)
				r.str(&l.UploadID)
				r.time(&l.CreatedAt)
				r.time(&l.UpdatedAt)
				r.timePtr(&l.DeletedAt)
				r.str(&u.OrganizationID)
				r.strPtr(&u.TeamID)
				r.str(&u.Type)
				r.strPtr(&u.Name)
				r.uploadFile(&u)
				if v != nil {
					v.row(2, r.raw(0), r.raw(1), r.raw(r.col), r.raw(r.col+1))
				}
				r.skipN(2)        // the link's and the upload's xmins
				u.ID = l.UploadID // live uploads only: DeletedAt stays nil
				out.UploadLinks, out.Uploads = append(out.UploadLinks, l), append(out.Uploads, u)
			}
			return r.Err()
		})
	}
	if err := db.SendBatch(ctx, b).Close(); err != nil {
		return PostReads{}, fmt.Errorf("store: read posts: %w", err)
	}
	if v != nil {
		page, _ := v.versions()
		if len(page) == 1 && len(ids) == 1 {
			out.Version, out.Versioned = page[0].Version, true
		}
		out.Versions = page
	}
	return out, nil
}

// uuids parses ids as uuids, for binary parameters; false when one is not a uuid.
func uuids(ids []string) (pgtype.FlatArray[pgtype.UUID], bool) {
	out := make(pgtype.FlatArray[pgtype.UUID], len(ids))
	for i, id := range ids {
		var ok bool
		if out[i], ok = pgUUID(id); !ok {
			return nil, false
		}
	}
	return out, true
}

// collect scans every row into a model by column position: the queries select * of the model's
// table(s), whose columns sqlc's models follow in order (embedded models are flattened).
func collect[T any](into *[]T) func(pgx.Rows) error {
	return func(rows pgx.Rows) error {
		got, err := pgx.CollectRows(rows, pgx.RowToStructByPos[T])
		if err != nil {
			return err
		}
		*into = got
		return nil
	}
}

// ReadTeamAccounts answers, in one round trip, whether teamID is a live team of the organization
// and the team's live accounts (what creating a post checks first).
func ReadTeamAccounts(ctx context.Context, db Batcher, orgID, teamID string) (live bool, accounts []SocialAccount, err error) {
	b := &pgx.Batch{}
	b.Queue(readTeamLive, teamID, orgID).QueryRow(func(r pgx.Row) error { return r.Scan(&live) })
	b.Queue(readTeamAccounts, orgID, teamID).Query(collect(&accounts))
	if err := db.SendBatch(ctx, b).Close(); err != nil {
		return false, nil, fmt.Errorf("store: read team accounts: %w", err)
	}
	return live, accounts, nil
}

// ReadPostForUpdate locks the organization's post id (none: post is empty) and reads its team's
// live accounts, in one round trip (what editing a post reads first).
func ReadPostForUpdate(ctx context.Context, db Batcher, orgID, id string) (post []Post, accounts []SocialAccount, err error) {
	b := &pgx.Batch{}
	b.Queue(readPostForUpdate, id, orgID).Query(collect(&post))
	b.Queue(readPostTeamAccounts, orgID, id).Query(collect(&accounts))
	if err := db.SendBatch(ctx, b).Close(); err != nil {
		return nil, nil, fmt.Errorf("store: read post for update: %w", err)
	}
	return post, accounts, nil
}
