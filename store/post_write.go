package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// PostCreateReads is what creating a post checks, read in one round trip by ReadPostCreate.
type PostCreateReads struct {
	TeamLive          bool
	Accounts          []SocialAccount // the team's live accounts (no tokens: writeAccountColumns)
	Uploads           []Upload        // the live uploads among the ids asked
	KeyOwner          []Post          // the live post holding the reference key asked (none: empty)
	ShowVerboseErrors bool
	// the versions read ("id@xmin"; the team's xmin), for a later write's WriteGuard
	TeamVersion     string
	AccountVersions []string // of Accounts, in order
	UploadVersions  []string // of Uploads, in order
}

// readTeamForPostWithAccounts answers, for an organization ($1), its showVerboseErrors, whether
// $2 is a live team of it (with its xmin), and that team's live accounts (writeAccountColumns, in
// the order of ReadTeamAccounts, then each one's xmin), one row per account, or one row without
// when it has none (no row: no such organization).
var readTeamForPostWithAccounts = `SELECT o.show_verbose_errors, t.id IS NOT NULL AS team_live, t.xmin::text, ` + writeAccountColumns + `, sa.xmin::text
FROM organizations o
LEFT JOIN teams t ON t.id = $2 AND t.organization_id = o.id AND t.deleted_at IS NULL
LEFT JOIN social_accounts sa ON sa.organization_id = o.id AND sa.team_id = t.id AND sa.deleted_at IS NULL
WHERE o.id = $1
ORDER BY sa.created_at, sa.id`

// ReadPostCreate reads, in one round trip and outside any transaction (none of it is locked, as
// it never was), whether teamID is a live team of the organization with the organization's
// showVerboseErrors, the team's live accounts (without their tokens: writeAccountColumns), the
// live uploads among uploadIDs and the post holding refKey (when set). The team, the organization
// and the accounts are one statement.
func ReadPostCreate(ctx context.Context, db Batcher, orgID, teamID string, uploadIDs []string, refKey *string) (PostCreateReads, error) {
	var out PostCreateReads
	b := &pgx.Batch{}
	b.Queue(readTeamForPostWithAccounts, orgID, teamID).Query(func(rows pgx.Rows) error {
		r := newRawRow(rows)
		for r.next() {
			var team *string
			r.boolean(&out.ShowVerboseErrors)
			r.boolean(&out.TeamLive)
			r.strPtr(&team)
			if team != nil {
				out.TeamVersion = *team
			}
			out.Accounts, out.AccountVersions = r.writeAccountVersion(out.Accounts, out.AccountVersions)
		}
		return r.Err()
	})
	if len(uploadIDs) > 0 {
		b.Queue(uploadsOfVersioned, orgID, uploadIDs).Query(collectUploadVersions(&out.Uploads, &out.UploadVersions))
	}
	if refKey != nil {
		b.Queue(getPostByReferenceKey, orgID, refKey).Query(collectPosts(&out.KeyOwner))
	}
	if err := db.SendBatch(ctx, b).Close(); err != nil {
		return PostCreateReads{}, fmt.Errorf("store: read post create: %w", err)
	}
	return out, nil
}

// PostEditReads is what editing a post checks, read by ReadPostEdit.
type PostEditReads struct {
	Post              []Post          // the post (none: empty)
	Accounts          []SocialAccount // the team's live accounts (no tokens: writeAccountColumns)
	Targets           []PublishTarget // ordered by kind, network
	Uploads           []Upload        // the live uploads among the ids asked or linked to the post
	KeyOwner          []Post
	ShowVerboseErrors bool
	Seen              PostSeen // the versions read, for PostWrite.Seen
	AccountVersions   []string // "id@xmin" of Accounts, in order, for a later write's WriteGuard
	UploadVersions    []string // of Uploads
}

// PostSeen is the post and its targets as an edit read them (their row versions).
type PostSeen struct {
	ID      string
	Version string
	Targets []string // "id@version" of each target
}

// ErrPostChanged: the post or its targets changed since they were read (PostWrite.Seen), and
// nothing was written.
var ErrPostChanged = errors.New("store: the post changed since it was read")

type postVersion struct {
	Post
	RowVersion        string
	ShowVerboseErrors bool
}

type targetVersion struct {
	PublishTarget
	RowVersion string
}

// readPostToEditWithAccounts reads the organization's ($2) post $1 with its row version and the
// organization's showVerboseErrors, one row per live account of the post's team
// (writeAccountColumns, in the order of ReadPostTeamAccounts, then each one's xmin), or one row
// without when it has none (no row: no such post). A post never changes team.
var readPostToEditWithAccounts = `SELECT p.id, p.organization_id, p.team_id, p.created_by_id, p.title, p.reference_key, p.post_date, p.posted_date,
    p.status, p.social_account_types, p.data, p.first_comment, p.error, p.review_note, p.retry_count, p.counted_at, p.created_at,
    p.updated_at, p.deleted_at, p.xmin::text AS row_version, o.show_verbose_errors, ` + writeAccountColumns + `, sa.xmin::text
FROM posts p JOIN organizations o ON o.id = p.organization_id
LEFT JOIN social_accounts sa ON sa.organization_id = p.organization_id AND sa.team_id = p.team_id AND sa.deleted_at IS NULL
WHERE p.id = $1 AND p.organization_id = $2
ORDER BY sa.created_at, sa.id`

// ReadPostEdit reads, in one round trip, the organization's post id with its team's live
// accounts (with the post, without their tokens), its targets, the live uploads among uploadIDs or
// linked to it, the post holding refKey (when set), the organization's showVerboseErrors, and the
// versions of the post and its targets.
// With lock, it begins a transaction with the post locked, which the caller owns (commit or roll
// back) whenever err is nil; without, tx is nil and nothing is locked.
func ReadPostEdit(ctx context.Context, db Batcher, orgID, id string, uploadIDs []string, refKey *string, lock bool) (pgx.Tx, PostEditReads, error) {
	var out PostEditReads
	var post []postVersion
	var targets []targetVersion
	scanPost := func(rows pgx.Rows) error { // the post on every row, with one of its team's accounts
		r := newRawRow(rows)
		for n := 0; r.next(); n++ {
			if n == 0 { // the post is decoded once
				var p postVersion
				r.post(&p.Post)
				r.str(&p.RowVersion)
				r.boolean(&p.ShowVerboseErrors)
				post = append(post, p)
			} else {
				r.skipN(postColumns + 2)
			}
			out.Accounts, out.AccountVersions = r.writeAccountVersion(out.Accounts, out.AccountVersions)
		}
		return r.Err()
	}
	b := &pgx.Batch{}
	if lock {
		b.BeginTx(pgx.TxOptions{})
		b.Queue(readPostToEditWithAccounts+" FOR UPDATE OF p", id, orgID).Query(scanPost)
	} else {
		b.Queue(readPostToEditWithAccounts, id, orgID).Query(scanPost)
	}
	b.Queue(readPostEditTargets, orgID, id).Query(func(rows pgx.Rows) error {
		targets = make([]targetVersion, 0, 4)
		r := newRawRow(rows)
		for r.next() {
			var t targetVersion
			r.target(&t.PublishTarget)
			r.str(&t.RowVersion)
			targets = append(targets, t)
		}
		return r.Err()
	})
	b.Queue(readPostEditUploadsVersioned, orgID, uuidArray(uploadIDs), id).Query(collectUploadVersions(&out.Uploads, &out.UploadVersions))
	if refKey != nil {
		b.Queue(getPostByReferenceKey, orgID, refKey).Query(collectPosts(&out.KeyOwner))
	}
	br := db.SendBatch(ctx, b)
	tx := br.Tx()
	if err := br.Close(); err != nil {
		if tx != nil {
			_ = tx.Rollback(context.WithoutCancel(ctx))
		}
		return nil, PostEditReads{}, fmt.Errorf("store: read post edit: %w", err)
	}
	out.Seen.Targets = make([]string, 0, len(targets))
	for _, p := range post {
		out.Post, out.Seen.ID, out.Seen.Version, out.ShowVerboseErrors = append(out.Post, p.Post), p.ID, p.RowVersion, p.ShowVerboseErrors
	}
	for _, t := range targets {
		out.Targets, out.Seen.Targets = append(out.Targets, t.PublishTarget), append(out.Seen.Targets, t.ID+"@"+t.RowVersion)
	}
	return tx, out, nil
}

// BeginPostWrite begins a transaction with the post locked as seen (else ErrPostChanged).
func BeginPostWrite(ctx context.Context, db Batcher, seen PostSeen) (pgx.Tx, error) {
	b := &pgx.Batch{}
	b.BeginTx(pgx.TxOptions{})
	queueSeen(b, seen)
	br := db.SendBatch(ctx, b)
	tx := br.Tx()
	if err := br.Close(); err != nil {
		_ = tx.Rollback(context.WithoutCancel(ctx))
		return nil, changed(fmt.Errorf("store: begin post write: %w", err))
	}
	return tx, nil
}

// queueSeen queues the optimistic check of an edit: the post locked, then its targets compared
// (in a snapshot taken once the lock is held).
func queueSeen(b *pgx.Batch, seen PostSeen) {
	b.Queue(lockPostAsRead, seen.ID, seen.Version)
	b.Queue(checkPostTargetsAsRead, seen.ID, seen.Targets)
}

// changed is ErrPostChanged for the failure of the optimistic check (post_unchanged's SQLSTATE,
// migration 014), err otherwise.
func changed(err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "CR409" {
		return ErrPostChanged
	}
	return err
}

// TargetWrite is one change to a post's targets: an insert, a reschedule or (Delete) a removal.
type TargetWrite struct {
	Insert     *InsertTargetParams
	Reschedule *RescheduleTargetParams
	Delete     string
}

// PostWrite is what creating or editing a post writes; a nil part is not written. With Seen,
// nothing is written unless the post and its targets are still as seen (else ErrPostChanged).
type PostWrite struct {
	Seen    *PostSeen
	Create  *CreatePostParams
	Update  *UpdatePostParams
	Targets []TargetWrite
	Uploads *ReplacePostUploadLinksParams
	Audit   *InsertAuditItemParams
	Guard   *WriteGuard // with Create or Update: nothing is written unless it holds (ErrPostChanged)
}

// PostWritten is what WritePost wrote: the post, the targets inserted or rescheduled (in no
// particular order), the ids of the targets removed and the post's live upload links.
type PostWritten struct {
	Post    Post
	Targets []PublishTarget
	Removed []string
	Links   []PostUpload
	// With Create or Update: the post's version (xmin) and each target's ("id@xmin", in the
	// order of Targets) as written, and the organization's showVerboseErrors as the write saw it.
	Version           string
	TargetVersions    []string
	ShowVerboseErrors bool
}

// WritePost sends w's statements in one batch, in order. On tx they are part of it; on the pool
// they are a transaction of their own: PostgreSQL runs the statements of a pipeline up to its Sync
// (pgx sends one at the end of a batch) as one implicit transaction, so a failing statement rolls
// back those before it and the rest are not run — nothing is half-written.
//
// A post's write (Create or Update) is one statement (writePostOne), two for a checked edit;
// without a post (a schedule's targets alone), its statements go one by one.
func WritePost(ctx context.Context, db Batcher, w PostWrite) (PostWritten, error) {
	if w.Create != nil || w.Update != nil {
		return writePostOne(ctx, db, w)
	}
	var out PostWritten
	b := &pgx.Batch{}
	if w.Seen != nil {
		queueSeen(b, *w.Seen)
	}
	out.Targets = make([]PublishTarget, len(w.Targets))
	for i, t := range w.Targets {
		scan := func(r pgx.Rows) error {
			row, err := pgx.CollectExactlyOneRow(r, pgx.RowToStructByPos[PublishTarget])
			out.Targets[i] = row
			return err
		}
		switch {
		case t.Insert != nil:
			a := t.Insert
			b.Queue(insertTarget, a.OrganizationID, a.Kind, a.PostID, a.CommentID, a.Network, a.SocialAccountID, a.Status,
				a.Payload, a.AttemptKey, a.DueAt).Query(scan)
		case t.Reschedule != nil:
			a := t.Reschedule
			b.Queue(rescheduleTarget, a.Status, a.DueAt, a.Payload, a.SocialAccountID, a.ID).Query(scan)
		default:
			b.Queue(deleteTarget, t.Delete)
			out.Removed = append(out.Removed, t.Delete)
		}
	}
	if u := w.Uploads; u != nil {
		b.Queue(replacePostUploadLinks, u.PostID, u.UploadIds).Query(collect(&out.Links))
	}
	if a := w.Audit; a != nil {
		b.Queue(insertAuditItem, a.OrganizationID, a.ActorType, a.ActorID, a.ActorName, a.Action, a.TargetType, a.TargetID, a.Metadata)
	}
	if err := db.SendBatch(ctx, b).Close(); err != nil {
		return PostWritten{}, changed(fmt.Errorf("store: write post: %w", err))
	}
	written := out.Targets[:0]
	for _, t := range out.Targets {
		if t.ID != "" {
			written = append(written, t)
		}
	}
	out.Targets = written
	return out, nil
}
