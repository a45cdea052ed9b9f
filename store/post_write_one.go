package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// A post's write (PostWrite with Create or Update) is one statement: the post, its targets
// (inserted, rescheduled and removed: one CTE each, over arrays), its upload links and its audit
// row are data-modifying CTEs of it (issue 15: PostgreSQL's CPU per statement counted as much as
// Crier's). Sibling CTEs all see the snapshot the statement began with and run to completion; a
// failing one fails the statement, which writes nothing. The targets' foreign key to a post
// inserted by a sibling is checked at the statement's end. Only the CTEs a write needs are in its
// statement (each one opens its table and indexes on every run, rows or not), so a few shapes of
// it are prepared, each numbered the same way every time.
//
// It answers one row per target written (inserted or rescheduled), each with the post and the
// post's live links (parallel arrays), or one row of the post alone (target columns null) when
// no target was written. Arrays go as text[] (a nullable uuid as the empty string), timestamptz[]
// and bool[]: pgx encodes []string, []time.Time and []bool without reflection.
type writeSQL struct {
	strings.Builder
	args []any
	done bool // the statement's text is known (writeShapes): only the arguments are collected
}

// writeShapes keeps each shape's statement text (by writeShape), so that a write collects its
// arguments without building the text again.
var writeShapes sync.Map

// writeShape says which parts a write's statement has.
func writeShape(w PostWrite, ins, re, del bool) uint16 {
	var k uint16
	team, accounts, uploads := guardShape(w.Guard)
	for i, b := range []bool{w.Create != nil, w.Seen != nil, ins, re, del, w.Uploads != nil, w.Audit != nil, team, accounts, uploads} {
		if b {
			k |= 1 << i
		}
	}
	return k
}

// sql writes parts of the statement's text (nothing once it is known).
func (q *writeSQL) sql(parts ...string) {
	if q.done {
		return
	}
	for _, p := range parts {
		q.WriteString(p)
	}
}

// arg adds an argument and answers its placeholder.
func (q *writeSQL) arg(v any) string {
	q.args = append(q.args, v)
	return "$" + strconv.Itoa(len(q.args))
}

// writePostOne writes w (Create or Update set) in one statement, after the optimistic check of
// the post (LockPostAsRead) when w.Seen is set: in one batch, so one implicit transaction.
func writePostOne(ctx context.Context, db Batcher, w PostWrite) (PostWritten, error) {
	var out PostWritten
	q := &writeSQL{args: make([]any, 0, 40)}
	var postID string
	if w.Create != nil {
		postID = w.Create.ID
	} else {
		postID = w.Update.ID
	}
	id := q.arg(postID)
	var ins struct {
		org, kind, post, comment, network, account, status, payload, attemptKey []string
		due                                                                     []time.Time
		hasDue                                                                  []bool
	}
	var re struct {
		id, status, payload, account []string
		due                          []time.Time
		hasDue                       []bool
	}
	var nIns, nRe int
	for _, t := range w.Targets {
		if t.Insert != nil {
			nIns++
		} else if t.Reschedule != nil {
			nRe++
		}
	}
	if nIns > 0 { // sized once; a statement has only the CTEs of the changes it makes
		n := nIns
		ins.org, ins.kind, ins.post, ins.comment = make([]string, 0, n), make([]string, 0, n), make([]string, 0, n), make([]string, 0, n)
		ins.network, ins.account, ins.status = make([]string, 0, n), make([]string, 0, n), make([]string, 0, n)
		ins.payload, ins.attemptKey, ins.due, ins.hasDue = make([]string, 0, n), make([]string, 0, n), make([]time.Time, 0, n), make([]bool, 0, n)
	}
	if nRe > 0 {
		n := nRe
		re.id, re.status, re.payload, re.account = make([]string, 0, n), make([]string, 0, n), make([]string, 0, n), make([]string, 0, n)
		re.due, re.hasDue = make([]time.Time, 0, n), make([]bool, 0, n)
	}
	var del []string
	for _, t := range w.Targets {
		switch {
		case t.Insert != nil:
			a := t.Insert
			ins.org, ins.kind, ins.network = append(ins.org, a.OrganizationID), append(ins.kind, a.Kind), append(ins.network, a.Network)
			ins.post, ins.comment, ins.account = append(ins.post, orEmpty(a.PostID)), append(ins.comment, orEmpty(a.CommentID)), append(ins.account, orEmpty(a.SocialAccountID))
			ins.status, ins.attemptKey, ins.payload = append(ins.status, a.Status), append(ins.attemptKey, a.AttemptKey), append(ins.payload, string(a.Payload))
			ins.due, ins.hasDue = append(ins.due, orZero(a.DueAt)), append(ins.hasDue, a.DueAt != nil)
		case t.Reschedule != nil:
			a := t.Reschedule
			re.id, re.status, re.account, re.payload = append(re.id, a.ID), append(re.status, a.Status), append(re.account, orEmpty(a.SocialAccountID)), append(re.payload, string(a.Payload))
			re.due, re.hasDue = append(re.due, orZero(a.DueAt)), append(re.hasDue, a.DueAt != nil)
		default:
			del = append(del, t.Delete)
			out.Removed = append(out.Removed, t.Delete)
		}
	}
	key := writeShape(w, len(ins.kind) > 0, len(re.id) > 0, len(del) > 0)
	known, _ := writeShapes.Load(key)
	q.done = known != nil
	q.sql("WITH ")
	switch {
	case w.Create != nil:
		c := w.Create
		q.sql("p AS (INSERT INTO posts (id, organization_id, team_id, created_by_id, title, reference_key, post_date, status, social_account_types, data, first_comment, counted_at) VALUES (", id)
		for _, v := range []any{c.OrganizationID, c.TeamID, c.CreatedByID, c.Title, c.ReferenceKey, c.PostDate, c.Status, c.SocialAccountTypes, c.Data, c.FirstComment, c.CountedAt} {
			q.sql(", ", q.arg(v))
		}
		q.sql(") RETURNING *, xmin::text)")
		if w.Guard != nil { // evaluated by the answer's WHERE, below
			q.sql(", chk AS (SELECT post_unchanged(", q.guardSQL(w.Guard), ") AS ok)")
		}
	default:
		u := w.Update
		if w.Seen != nil || w.Guard != nil {
			// After LockPostAsRead (the post locked as read, in the statement before this one, so
			// this one's snapshot is taken with the lock held): fails (post_unchanged, CR409) unless
			// the post's targets are exactly the versions read ("id@xmin"). It is an InitPlan of the
			// post's update, which every run evaluates; sibling CTEs see the targets as they were
			// before this statement's own writes.
			// With a guard, the rows its checks used besides are compared too (WriteGuard).
			q.sql("chk AS (SELECT post_unchanged(")
			if w.Seen != nil {
				q.sql("(SELECT coalesce(array_agg(v ORDER BY v), '{}') FROM (SELECT t.id::text || '@' || t.xmin::text AS v FROM publish_targets t WHERE t.post_id = ",
					id, ") cur) = (SELECT coalesce(array_agg(v ORDER BY v), '{}') FROM unnest(", q.arg(w.Seen.Targets), "::text[]) v)")
			} else {
				q.sql("true")
			}
			if w.Guard != nil {
				q.sql(" AND ", q.guardSQL(w.Guard))
			}
			q.sql(") AS ok), ")
		}
		q.sql("p AS (UPDATE posts SET title = ", q.arg(u.Title), ", reference_key = ", q.arg(u.ReferenceKey), ", post_date = ", q.arg(u.PostDate),
			", status = ", q.arg(u.Status), ", social_account_types = ", q.arg(u.SocialAccountTypes), ", data = ", q.arg(u.Data),
			", first_comment = ", q.arg(u.FirstComment), ", counted_at = ", q.arg(u.CountedAt), ", review_note = ", q.arg(u.ReviewNote),
			", error = ", q.arg(u.Error), ", updated_at = now() WHERE id = ", id)
		if w.Seen != nil || w.Guard != nil {
			q.sql(" AND (SELECT ok FROM chk)")
		}
		q.sql(" RETURNING *, xmin::text)")
	}
	if len(ins.kind) > 0 {
		q.sql(`, ins AS (INSERT INTO publish_targets (organization_id, kind, post_id, comment_id, network, social_account_id, status, payload, attempt_key, due_at)
    SELECT x.org, x.kind, nullif(x.post, '')::uuid, nullif(x.comment, '')::uuid, x.network, nullif(x.account, '')::uuid, x.status, x.payload,
        x.attempt_key, CASE WHEN x.has_due THEN x.due_at END
    FROM unnest(`, q.arg(uuidArray(ins.org)), "::uuid[], ", q.arg(ins.kind), "::text[], ", q.arg(ins.post), "::text[], ", q.arg(ins.comment), "::text[], ",
			q.arg(ins.network), "::text[], ", q.arg(ins.account), "::text[], ", q.arg(ins.status), "::text[], ", q.arg(ins.payload), "::jsonb[], ",
			q.arg(ins.attemptKey), "::text[], ", q.arg(ins.due), "::timestamptz[], ", q.arg(ins.hasDue), `::bool[])
        AS x(org, kind, post, comment, network, account, status, payload, attempt_key, due_at, has_due)
    RETURNING *, xmin::text)`)
	}
	if len(re.id) > 0 {
		ids := q.arg(uuidArray(re.id))
		q.sql(`, upd AS (UPDATE publish_targets t SET status = x.status, version = t.version + 1, due_at = CASE WHEN x.has_due THEN x.due_at END,
        payload = x.payload, social_account_id = nullif(x.account, '')::uuid, error = NULL, error_verbose = NULL, next_attempt_at = NULL, updated_at = now()
    FROM unnest(`, ids, "::uuid[], ", q.arg(re.status), "::text[], ", q.arg(re.due), "::timestamptz[], ", q.arg(re.payload), "::jsonb[], ",
			q.arg(re.account), "::text[], ", q.arg(re.hasDue), `::bool[]) AS x(id, status, due_at, payload, account, has_due)
    WHERE t.id = ANY(`, ids, `::uuid[]) AND t.id = x.id -- the primary key's index, whatever a generic plan guesses of unnest
      -- a target the edit leaves as it is keeps its row, version and job (a title's edit rewrote them all)
      AND ((t.status, t.due_at, t.payload, t.social_account_id) IS DISTINCT FROM
          (x.status, CASE WHEN x.has_due THEN x.due_at END, x.payload, nullif(x.account, '')::uuid)
        OR t.error IS NOT NULL OR t.error_verbose IS NOT NULL OR t.next_attempt_at IS NOT NULL)
    RETURNING t.*, t.xmin::text)`)
	}
	if len(del) > 0 {
		q.sql(", del AS (DELETE FROM publish_targets WHERE id = ANY(", q.arg(uuidArray(del)), "::uuid[]))")
	}
	links := "SELECT NULL::uuid[] AS ids, NULL::timestamptz[] AS created, NULL::timestamptz[] AS updated"
	if w.Uploads != nil {
		ids := w.Uploads.UploadIds
		if ids == nil {
			ids = []string{}
		}
		up := q.arg(uuidArray(ids))
		if w.Create != nil {
			q.sql(", links AS (INSERT INTO post_uploads (post_id, upload_id) SELECT ", id, ", u FROM unnest(", up, `::uuid[]) AS u
    ON CONFLICT (post_id, upload_id) DO UPDATE SET deleted_at = NULL, updated_at = now() RETURNING upload_id, created_at, updated_at)`)
			links = "SELECT array_agg(upload_id) AS ids, array_agg(created_at) AS created, array_agg(updated_at) AS updated FROM links"
		} else {
			// A link the edit keeps is left as it is (a title's edit rewrote every link's row): only
			// links new or revived are written; those kept are read from the statement's snapshot,
			// taken with the post locked (an edit writes links only with its post locked).
			q.sql(", gone AS (UPDATE post_uploads SET deleted_at = now(), updated_at = now() WHERE post_id = ", id,
				" AND deleted_at IS NULL AND NOT (upload_id = ANY(", up, "::uuid[])))")
			q.sql(", links AS (INSERT INTO post_uploads (post_id, upload_id) SELECT ", id, ", u FROM unnest(", up, `::uuid[]) AS u
    WHERE NOT EXISTS (SELECT FROM post_uploads k WHERE k.post_id = `, id, ` AND k.upload_id = u AND k.deleted_at IS NULL)
    ON CONFLICT (post_id, upload_id) DO UPDATE SET deleted_at = NULL, updated_at = now() RETURNING upload_id, created_at, updated_at)`)
			links = "SELECT array_agg(upload_id) AS ids, array_agg(created_at) AS created, array_agg(updated_at) AS updated FROM (SELECT * FROM links UNION ALL " +
				"SELECT upload_id, created_at, updated_at FROM post_uploads WHERE post_id = " + id + " AND deleted_at IS NULL AND upload_id = ANY(" + up + "::uuid[])) l"
		}
	}
	if a := w.Audit; a != nil {
		q.sql(", audit AS (INSERT INTO audit_log (organization_id, actor_type, actor_id, actor_name, action, target_type, target_id, metadata) VALUES (")
		for i, v := range []any{a.OrganizationID, a.ActorType, a.ActorID, a.ActorName, a.Action, a.TargetType, a.TargetID, a.Metadata} {
			if i > 0 {
				q.sql(", ")
			}
			q.sql(q.arg(v))
		}
		q.sql("))")
	}
	// Each row's xmin follows its columns (a later write's PostSeen), and the organization's
	// showVerboseErrors closes the row (for the answer, as the reads had it). (A join: as a
	// subquery of p's row, PostgreSQL planned the statement anew at every call.)
	q.sql("\nSELECT p.*, t.*, l.ids, l.created, l.updated, o.show_verbose_errors FROM p JOIN organizations o ON o.id = p.organization_id CROSS JOIN (",
		links, ") l LEFT JOIN (")
	switch {
	case len(ins.kind) > 0 && len(re.id) > 0:
		q.sql("SELECT * FROM ins UNION ALL SELECT * FROM upd")
	case len(ins.kind) > 0:
		q.sql("SELECT * FROM ins")
	case len(re.id) > 0:
		q.sql("SELECT * FROM upd")
	default:
		q.sql("SELECT *, xmin::text FROM publish_targets WHERE false")
	}
	q.sql(") t ON true")
	if w.Create != nil && w.Guard != nil {
		q.sql(" WHERE (SELECT ok FROM chk)")
	}
	text, _ := known.(string)
	if !q.done {
		text = q.String()
		writeShapes.Store(key, text)
	}

	b := &pgx.Batch{}
	if w.Seen != nil {
		b.Queue(lockPostAsRead, w.Seen.ID, w.Seen.Version)
	}
	b.Queue(text, q.args...).Query(func(rows pgx.Rows) error {
		out.Targets = make([]PublishTarget, 0, len(w.Targets))
		r := newRawRow(rows)
		n := 0
		for r.next() {
			if n++; n == 1 {
				r.post(&out.Post)
				r.str(&out.Version)
			} else { // the post and its links are the same on every row: decoded once
				r.skipN(postColumns + 1)
			}
			if r.raw(r.col) == nil { // the post alone: no target written (a target's id is never NULL)
				r.skipN(targetColumns + 1)
			} else {
				var t PublishTarget
				var x string
				r.target(&t)
				r.str(&x)
				out.Targets, out.TargetVersions = append(out.Targets, t), append(out.TargetVersions, Version(t.ID, x))
			}
			if n > 1 {
				r.skipN(4)
				continue
			}
			var linkIDs []string
			var linkCreated, linkUpdated []time.Time
			r.uuids(&linkIDs)
			r.times(&linkCreated)
			r.times(&linkUpdated)
			r.boolean(&out.ShowVerboseErrors)
			out.Links = make([]PostUpload, len(linkIDs))
			for i, u := range linkIDs {
				if i < len(linkCreated) && i < len(linkUpdated) {
					out.Links[i] = PostUpload{PostID: out.Post.ID, UploadID: u, CreatedAt: linkCreated[i], UpdatedAt: linkUpdated[i]}
				}
			}
		}
		if err := r.Err(); err != nil {
			return err
		}
		if n == 0 {
			return pgx.ErrNoRows
		}
		return nil
	})
	if err := db.SendBatch(ctx, b).Close(); err != nil {
		return PostWritten{}, changed(fmt.Errorf("store: write post: %w", err))
	}
	return out, nil
}

func orEmpty(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func orZero(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return *t
}
