package store

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// PostPage is a page of posts (GET post list) with what their records are built from.
type PostPage struct {
	PostReads
	Total int // the posts matching the filter, on every page
}

// ReadPostPage reads one page of the posts matching f, in order, with the total, their targets
// with the accounts they name, their upload links with the uploads, and whether f.TeamID is a live
// team of the organization: one round trip. Each statement selects by a join against the page's
// own subquery rather than by `= ANY(ids)` (two round trips: the ids, then the posts), so PostgreSQL
// keeps their generic plans instead of planning the arrays anew at every call; the page's LIMIT is
// written in the statement (a handful of texts, 1 to 100), so each plan knows it reads a few posts
// however the tables grow (TestPostPagePlans). The statements run in one REPEATABLE READ READ ONLY
// transaction, in the batch: under READ COMMITTED each would take its own snapshot and see its own
// page when a post is written in between (TestPostPageIsOneSnapshot). db must not be in a
// transaction; a statement that fails leaves the connection in a failed one, which the pool
// closes, so ids are checked before (ErrNotUUID).
func ReadPostPage(ctx context.Context, db DB, f PostListFilter) (PostPage, error) {
	org, okOrg := pgUUID(f.OrganizationID)
	team, okTeam := pgUUID(f.TeamID)
	if !okOrg || !okTeam {
		return PostPage{}, ErrNotUUID
	}
	where, args := postListWhere(f, org, team)
	col, dir := postListOrder(f)
	args = append(args, f.Offset)
	page := fmt.Sprintf("SELECT id%%s FROM posts WHERE %s ORDER BY %s %s, id LIMIT %d OFFSET $%d", where, col, dir, f.Limit, len(args))
	var out PostPage
	o := &out.PostReads
	b := &pgx.Batch{}
	b.Queue("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
	b.Queue(fmt.Sprintf(`-- name: ReadPostPage
SELECT p.id, p.organization_id, p.team_id, p.title, p.reference_key, p.post_date, p.posted_date, p.status,
  p.social_account_types, p.data, p.first_comment, p.error, p.review_note, p.retry_count, p.created_at, p.updated_at,
  p.deleted_at, o.show_verbose_errors, pg.total
FROM (%s) pg JOIN posts p ON p.id = pg.id JOIN organizations o ON o.id = p.organization_id
ORDER BY p.%s %s, p.id`, fmt.Sprintf(page, ", count(*) OVER () AS total"), col, dir), args...).Query(func(rows pgx.Rows) error {
		o.Posts = make([]Post, 0, f.Limit)
		r := newRawRow(rows)
		for r.next() {
			var p Post
			var total int64
			r.str(&p.ID)
			r.str(&p.OrganizationID)
			r.str(&p.TeamID)
			r.str(&p.Title)
			r.strPtr(&p.ReferenceKey)
			r.time(&p.PostDate)
			r.timePtr(&p.PostedDate)
			r.str(&p.Status)
			r.strs(&p.SocialAccountTypes)
			r.json(&p.Data)
			r.json(&p.FirstComment)
			r.strPtr(&p.Error)
			r.strPtr(&p.ReviewNote)
			r.int32(&p.RetryCount)
			r.time(&p.CreatedAt)
			r.time(&p.UpdatedAt)
			r.timePtr(&p.DeletedAt)
			r.boolean(&o.ShowVerboseErrors)
			r.int64(&total)
			o.Posts, out.Total = append(o.Posts, p), int(total)
		}
		return r.Err()
	})
	b.Queue(readTeamLive, team, org).QueryRow(func(r pgx.Row) error { return r.Scan(&o.TeamLive) })
	ids := fmt.Sprintf(page, "")
	b.Queue(byOneID(readPostTargetsOfOrg, "t.post_id = ANY($2::uuid[])", "t.post_id IN ("+ids+")"), args...).Query(func(rows pgx.Rows) error {
		return scanPageTargets(rows, o, f.OrganizationID)
	})
	b.Queue(fmt.Sprintf(readPageUploadLinks, ids), args...).Query(func(rows pgx.Rows) error {
		return scanPageUploadLinks(rows, o, f.Limit)
	})
	b.Queue("COMMIT")
	if err := db.SendBatch(ctx, b).Close(); err != nil {
		return PostPage{}, fmt.Errorf("store: read post page: %w", err)
	}
	if len(o.Posts) == 0 && f.Offset > 0 { // the page is past the end: count on its own
		var n int64
		if err := db.QueryRow(ctx, "SELECT count(*) FROM posts WHERE "+where, args[:len(args)-1]...).Scan(&n); err != nil {
			return PostPage{}, fmt.Errorf("store: count posts: %w", err)
		}
		out.Total = int(n)
	}
	return out, nil
}

// readPageUploadLinks is ReadPostUploadLinks for a page (%s: the page's ids): each post's links by
// post_uploads' key, then each link's upload by its key, in subqueries that OFFSET 0 keeps from
// being flattened, with every other condition outside them (OFFSET 0 keeps those out too) — so the
// plan reads by these keys whatever the tables' sizes were when it was made. (Planned on a few
// uploads, the join started from all the organization's uploads, then from all the live links by
// their partial indexes: TestPostPagePlans.)
const readPageUploadLinks = `-- name: ReadPageUploadLinks
SELECT pu.post_id, pu.upload_id, pu.created_at, pu.updated_at, pu.deleted_at,
  u.organization_id, u.team_id, u.type, u.name, u.mime, u.ext, u.path, u.thumbnail_path, u.icon_path, u.external_link,
  u.width, u.height, u.file_size, u.video_length, u.created_at, u.updated_at
FROM (%s) pg
CROSS JOIN LATERAL (SELECT * FROM post_uploads WHERE post_id = pg.id OFFSET 0) pu
CROSS JOIN LATERAL (SELECT * FROM uploads WHERE id = pu.upload_id OFFSET 0) u
WHERE pu.deleted_at IS NULL AND u.organization_id = $1 AND u.deleted_at IS NULL
ORDER BY pu.created_at, pu.upload_id`

// scanPageTargets is ReadPosts' reading of the targets (with links), for a page.
func scanPageTargets(rows pgx.Rows, o *PostReads, orgID string) error {
	o.Targets = make([]PublishTarget, 0, 2*len(o.Posts))
	const accountAt = 15 // the account's first column, its team the next
	seen := map[string]bool{}
	teamOf := make(map[string]string, len(o.Posts)) // read by the batch's posts statement, whose callback ran
	for _, p := range o.Posts {
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
		o.Targets = append(o.Targets, t)
		raw := r.raw(accountAt)
		if raw == nil || seen[string(raw)] || t.PostID == nil || !r.isString(accountAt+1, teamOf[*t.PostID]) {
			r.skipN(3 + accountColumns)
			continue
		}
		seen[string(raw)] = true
		a := SocialAccount{OrganizationID: orgID}
		r.str(&a.ID)
		r.str(&a.TeamID)
		r.str(&a.Type)
		r.account(&a)
		o.Accounts = append(o.Accounts, a)
	}
	return r.Err()
}

// scanPageUploadLinks is ReadPosts' reading of the upload links, for a page.
func scanPageUploadLinks(rows pgx.Rows, o *PostReads, n int) error {
	o.UploadLinks, o.Uploads = make([]PostUpload, 0, n), make([]Upload, 0, n)
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
		r.str(&u.Mime)
		r.str(&u.Ext)
		r.str(&u.Path)
		r.strPtr(&u.ThumbnailPath)
		r.strPtr(&u.IconPath)
		r.strPtr(&u.ExternalLink)
		r.pgInt4(&u.Width)
		r.pgInt4(&u.Height)
		r.int64(&u.FileSize)
		r.pgFloat8(&u.VideoLength)
		r.time(&u.CreatedAt)
		r.time(&u.UpdatedAt)
		u.ID = l.UploadID // live uploads only: DeletedAt stays nil
		o.UploadLinks, o.Uploads = append(o.UploadLinks, l), append(o.Uploads, u)
	}
	return r.Err()
}

// ErrNotUUID is ReadPostPage's answer for an organization or team id that PostgreSQL would
// refuse as a uuid (22P02): checked before the batch's transaction, which an error would leave
// failed.
var ErrNotUUID = errors.New("store: not a uuid")

// pgUUID parses s as PostgreSQL's uuid_in does (string_to_uuid: an optional pair of braces, 32
// hex digits in either case, a hyphen allowed after each group of four), for a binary parameter
// that PostgreSQL reads as it would have read s.
func pgUUID(s string) (u pgtype.UUID, ok bool) {
	braces := strings.HasPrefix(s, "{")
	if braces {
		s = s[1:]
	}
	for i := 0; i < 16; i++ {
		if len(s) < 2 {
			return u, false
		}
		hi, ok1 := unhex(s[0])
		lo, ok2 := unhex(s[1])
		if !ok1 || !ok2 {
			return u, false
		}
		u.Bytes[i] = hi<<4 | lo
		s = s[2:]
		if len(s) > 0 && s[0] == '-' && i%2 == 1 && i < 15 {
			s = s[1:]
		}
	}
	if braces {
		if !strings.HasPrefix(s, "}") {
			return u, false
		}
		s = s[1:]
	}
	u.Valid = s == ""
	return u, u.Valid
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
