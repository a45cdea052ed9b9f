package publishing

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/app"
	"github.com/crier/crier/store"
)

// CreatePost creates a post (DRAFT, REVIEW or SCHEDULED). A scheduled post counts in the monthly
// quota and gets one River job per network at postDate, in the same transaction.
//
// Two round trips for a draft: what the post is checked against (store.ReadPostCreate; none of it
// is locked, as it never was), then the post, its targets, upload links and audit row in one
// batch, atomic on its own (store.WritePost). A scheduled post takes the quota lock first, in a
// transaction. The answer is built from what was written and read, not read back.
//
// A draft in a team this process created a post in lately is checked against what it kept of
// those reads (writeCache): one round trip, the write guarded by the versions of the team, its
// accounts and the uploads used (the reference key by its unique index); if any changed, or
// the call fails before its write, it is made again as above, from the database.
func (s *Service) CreatePost(ctx context.Context, p app.PostParams) (*app.Post, error) {
	pr, err := app.Authorize(app.PrincipalFrom(ctx), app.ActContent)
	if err != nil {
		return nil, err
	}
	if e := s.writes.create(pr.OrganizationID, p.TeamID, s.now()); e != nil {
		post, err := s.createPost(ctx, pr, p, e)
		if err == nil || !errors.Is(err, errNotCached) && !errors.Is(err, store.ErrPostChanged) {
			return post, err
		}
		s.writes.forgetCreate(pr.OrganizationID, p.TeamID)
	}
	return s.createPost(ctx, pr, p, nil)
}

// createPost creates the post from the database's reads, or from what the cache kept (e): then
// whatever fails before the write is errNotCached (the kept reads may be stale).
func (s *Service) createPost(ctx context.Context, pr *app.Principal, p app.PostParams, e *createEntry) (*app.Post, error) {
	in, err := s.postInput(nil, p)
	if err != nil {
		return nil, notCached(e, err)
	}
	orgID := pr.OrganizationID
	asked := app.RuleUploadIDs(&in.data)
	var r store.PostCreateReads
	if e != nil {
		var ok bool
		if r, ok = e.reads(in, asked); !ok {
			return nil, errNotCached
		}
	} else if r, err = store.ReadPostCreate(ctx, s.db, orgID, p.TeamID, asked, in.referenceKey); err != nil {
		return nil, app.NotFoundOr(err, "Team", "app: create post") // not a uuid: 404
	} else {
		s.writes.keepCreate(orgID, p.TeamID, r, s.now())
	}
	if !r.TeamLive {
		return nil, app.NotFound("Team")
	}
	accounts, _ := accountsByNetwork(r.Accounts)
	uploads, uploadRows, err := s.ruleUploads(ctx, s.q, orgID, in, r.Uploads, asked)
	if err != nil {
		return nil, notCached(e, err)
	}
	if issues := s.ruleIssuesOf(in, accounts, uploads); len(issues) > 0 {
		return nil, notCached(e, issuesError(issues))
	}
	if keyTaken(r.KeyOwner, "") {
		return nil, errReferenceKeyTaken()
	}
	id := uuid.NewString() // chosen here so that the targets and links go in the post's batch
	data, _ := json.Marshal(in.data)
	w := store.PostWrite{
		Create: &store.CreatePostParams{ID: id, OrganizationID: orgID, TeamID: p.TeamID, CreatedByID: nonEmpty(pr.UserID),
			Title: in.title, ReferenceKey: in.referenceKey, PostDate: in.postDate, Status: string(in.status),
			SocialAccountTypes: networkStrings(in.types), Data: data, FirstComment: firstCommentJSON(in.firstComment)},
		Targets: planTargets(orgID, id, nil, in, accounts),
		Uploads: &store.ReplacePostUploadLinksParams{PostID: id, UploadIds: postUploadIDs(in)},
		Audit: auditRow(app.AuditBy(pr, app.AuditItem{Action: "post.created", TargetType: "post", TargetID: id,
			Metadata: map[string]any{"status": in.status, "networks": in.types}})),
	}
	if e != nil {
		w.Guard = writeGuard(orgID, p.TeamID, r.TeamVersion, r.AccountVersions, r.Uploads, r.UploadVersions)
	}
	var written store.PostWritten
	if in.status != app.PostScheduled {
		if written, err = store.WritePost(ctx, s.db, w); err != nil {
			return nil, s.referenceKeyConflict(err, "app: create post")
		}
	} else {
		err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
			q := s.q.WithTx(tx)
			if err := q.LockOrganizationQuota(ctx, orgID); err != nil {
				return fmt.Errorf("app: create post: %w", err)
			}
			if err := s.checkQuotas(ctx, q, orgID, true, nil, in.postDate, in.types, accounts); err != nil {
				return err
			}
			now := s.now().UTC()
			w.Create.CountedAt = &now
			if written, err = store.WritePost(ctx, tx, w); err != nil {
				return s.referenceKeyConflict(err, "app: create post")
			}
			return s.enqueueTargets(ctx, tx, written.Targets, in)
		})
		if err != nil {
			return nil, err
		}
	}
	return s.writtenRecord(ctx, written, nil, r.Accounts, uploadRows, written.ShowVerboseErrors, false), nil
}
