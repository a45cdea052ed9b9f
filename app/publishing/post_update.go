package publishing

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/app"
	"github.com/crier/crier/store"
)

// UpdatePost changes a DRAFT, REVIEW or SCHEDULED post. A new date or status reschedules: every
// target gets a new version (jobs already queued become no-ops) and a SCHEDULED post new jobs.
//
// Optimistic, in two round trips for a draft: the post and what the edit is checked against are
// read without a lock (store.ReadPostEdit), then the post, its targets, upload links and audit row
// are written in one batch, atomic on its own, that begins by checking that neither the post nor
// its targets changed meanwhile (store.ErrPostChanged: nothing was written, the edit starts over).
// So no lock is held while the edit is checked. The last try locks the post as it reads, as every
// edit once did, and cannot lose that race. The answer is built from what was written and read.
//
// A post this process read or wrote lately is first edited against what it kept of those reads
// (writeCache): one round trip, the write guarded by the versions of all the checks used; if
// anything of it changed, or the edit fails, it is made again as above, from the database.
func (s *Service) UpdatePost(ctx context.Context, id string, p app.PostParams) (*app.Post, error) {
	return s.updatePostTries(ctx, id, p, false)
}

// UpdatePostStored is UpdatePost answering the post's data as stored (StoredData, Data empty),
// for a reader that renders it from there (the API, as GetPostStored): the record is not decoded.
func (s *Service) UpdatePostStored(ctx context.Context, id string, p app.PostParams) (*app.Post, error) {
	return s.updatePostTries(ctx, id, p, true)
}

func (s *Service) updatePostTries(ctx context.Context, id string, p app.PostParams, stored bool) (*app.Post, error) {
	pr, err := app.Authorize(app.PrincipalFrom(ctx), app.ActContent)
	if err != nil {
		return nil, err
	}
	if e := s.writes.edit(pr.OrganizationID, id, s.now()); e != nil {
		post, err := s.updatePost(ctx, pr, id, p, false, stored, e)
		if err == nil || !errors.Is(err, errNotCached) && !errors.Is(err, store.ErrPostChanged) {
			return post, err
		}
		s.writes.forgetEdit(pr.OrganizationID, id)
	}
	for try := 1; ; try++ {
		post, err := s.updatePost(ctx, pr, id, p, try == editTries, stored, nil)
		if try < editTries && errors.Is(err, store.ErrPostChanged) {
			continue
		}
		return post, err
	}
}

// editTries is how many times an edit is tried, the last one with the post locked.
const editTries = 3

// updatePost edits the post from the database, or from what the cache kept (e): then whatever
// fails before the write is errNotCached (the kept reads may be stale: the database answers).
func (s *Service) updatePost(ctx context.Context, pr *app.Principal, id string, p app.PostParams, lock, stored bool, e *editEntry) (*app.Post, error) {
	post, written, err := s.editPost(ctx, pr, id, p, lock, stored, e)
	if err != nil {
		if e != nil && !written {
			return nil, errNotCached
		}
		return nil, err
	}
	return post, nil
}

// editPost is updatePost; written says whether err is the write's own.
func (s *Service) editPost(ctx context.Context, pr *app.Principal, id string, p app.PostParams, lock, stored bool, e *editEntry) (_ *app.Post, atWrite bool, _ error) {
	orgID := pr.OrganizationID
	var asked []string // the uploads of new content; those of the post's own are read by its links
	if p.Data != nil {
		asked = app.RuleUploadIDs(p.Data)
	}
	var key *string // a kept key is the post's own (a live key is unique): nothing to check
	if p.ReferenceKey != nil && !p.ClearReferenceKey {
		key = p.ReferenceKey
	}
	var tx pgx.Tx
	var r store.PostEditReads
	var err error
	if e != nil {
		r = e.reads // read-only: shared with other calls
	} else if tx, r, err = store.ReadPostEdit(ctx, s.db, orgID, id, lowerUUIDs(asked), key, lock); err != nil {
		return nil, false, app.NotFoundOr(err, "Post", "app: update post") // not a uuid: 404
	}
	if tx != nil {
		defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // after commit it is a no-op
	}
	if len(r.Post) == 0 {
		return nil, false, app.NotFound("Post")
	}
	row := r.Post[0]
	switch st := app.PostStatus(row.Status); {
	case st.Editable():
	case st == app.PostDeleted:
		return nil, false, app.NotFound("Post")
	default:
		return nil, false, app.Invalid("Validation failed: status: A "+row.Status+" post cannot be edited",
			app.Issue{Code: app.IssueCustom, Message: "A " + row.Status + " post cannot be edited", Path: []any{"status"}})
	}
	cur := postFromRow(row)
	in, err := s.postInput(&cur, p)
	if err != nil {
		return nil, false, err
	}
	in.keepDate = p.PostDate == nil && in.status == app.PostStatus(row.Status)
	if e != nil && !e.serves(in) {
		return nil, false, errNotCached
	}
	accounts, _ := accountsByNetwork(r.Accounts)
	q := s.q
	if tx != nil {
		q = s.q.WithTx(tx) // not a second connection while this one is held
	}
	uploads, uploadRows, err := s.ruleUploads(ctx, q, orgID, in, r.Uploads, asked)
	if err != nil {
		return nil, false, err
	}
	if issues := s.ruleIssuesOf(in, accounts, uploads); len(issues) > 0 {
		return nil, false, issuesError(issues)
	}
	if keyTaken(r.KeyOwner, row.ID) {
		return nil, false, errReferenceKeyTaken()
	}
	data, _ := json.Marshal(in.data)
	w := store.PostWrite{
		Update: &store.UpdatePostParams{ID: row.ID, Title: in.title, ReferenceKey: in.referenceKey, PostDate: in.postDate,
			Status: string(in.status), SocialAccountTypes: networkStrings(in.types), Data: data, FirstComment: firstCommentJSON(in.firstComment),
			CountedAt: row.CountedAt, ReviewNote: row.ReviewNote},
		Targets: changedTargets(planTargets(row.OrganizationID, row.ID, r.Targets, in, accounts), r.Targets),
		Uploads: &store.ReplacePostUploadLinksParams{PostID: row.ID, UploadIds: postUploadIDs(in)},
		Audit: auditRow(app.AuditBy(pr, app.AuditItem{Action: "post.updated", TargetType: "post", TargetID: row.ID,
			Metadata: map[string]any{"status": in.status}})),
	}
	if in.status == app.PostScheduled && tx == nil {
		// The quota lock and the jobs need a transaction: it begins with the optimistic check.
		if tx, err = store.BeginPostWrite(ctx, s.db, r.Seen); err != nil {
			return nil, false, err
		}
		defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // after commit it is a no-op
	} else if tx == nil {
		w.Seen = &r.Seen
		if e != nil {
			w.Guard = writeGuard(orgID, row.TeamID, "", r.AccountVersions, r.Uploads, r.UploadVersions)
			if e.keepsLinks(w.Uploads.UploadIds) {
				w.Uploads = nil // answered as kept: two statements' CTEs fewer
			}
		}
	}
	if in.status == app.PostScheduled {
		q := s.q.WithTx(tx)
		if err := q.LockOrganizationQuota(ctx, orgID); err != nil {
			return nil, false, fmt.Errorf("app: update post: %w", err)
		}
		if err := s.checkQuotas(ctx, q, orgID, row.CountedAt == nil, &row.ID, in.postDate, in.types, accounts); err != nil {
			return nil, false, err
		}
		if row.CountedAt == nil {
			now := s.now().UTC()
			w.Update.CountedAt = &now
		}
	}
	var db store.Batcher = s.db
	if tx != nil {
		db = tx
	}
	written, err := store.WritePost(ctx, db, w)
	if err != nil {
		return nil, true, s.referenceKeyConflict(err, "app: update post")
	}
	if w.Uploads == nil {
		written.Links = e.links
	}
	if tx != nil {
		if err := s.enqueueTargets(ctx, tx, written.Targets, in); err != nil {
			return nil, true, err
		}
		if err := tx.Commit(ctx); err != nil {
			return nil, true, fmt.Errorf("app: update post: commit: %w", err)
		}
	}
	if k := editAfter(r, written, uploadRows, s.now()); k != nil {
		s.writes.keepEdit(orgID, row.ID, k)
	} else {
		s.writes.forgetEdit(orgID, row.ID)
	}
	return s.writtenRecord(ctx, written, r.Targets, r.Accounts, uploadRows, written.ShowVerboseErrors, stored), false, nil
}

// changedTargets drops the reschedules that would leave a target as it was read (a title's edit),
// so that the write statement carries only the targets' changes; the statement's own comparison
// (store.writePostOne) stays the rule, this spares it the rows and their arguments. The optimistic
// check (or the lock) makes the targets read the targets written.
func changedTargets(writes []store.TargetWrite, read []store.PublishTarget) []store.TargetWrite {
	byID := make(map[string]*store.PublishTarget, len(read))
	for i := range read {
		byID[read[i].ID] = &read[i]
	}
	out := writes[:0]
	for _, w := range writes {
		if r := w.Reschedule; r != nil {
			if t := byID[r.ID]; t != nil && t.Status == r.Status && equalTime(t.DueAt, r.DueAt) && equalString(t.SocialAccountID, r.SocialAccountID) &&
				t.Error == nil && t.ErrorVerbose == nil && t.NextAttemptAt == nil && sameJSON(t.Payload, r.Payload) {
				continue
			}
		}
		out = append(out, w)
	}
	return out
}

func equalTime(a, b *time.Time) bool {
	return a == nil && b == nil || a != nil && b != nil && a.Equal(*b)
}

func equalString(a, b *string) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}
