package publishing

import (
	"context"
	"encoding/json"
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
func (s *Service) CreatePost(ctx context.Context, p app.PostParams) (*app.Post, error) {
	pr, err := app.Authorize(app.PrincipalFrom(ctx), app.ActContent)
	if err != nil {
		return nil, err
	}
	in, err := s.postInput(nil, p)
	if err != nil {
		return nil, err
	}
	orgID := pr.OrganizationID
	asked := app.RuleUploadIDs(&in.data)
	r, err := store.ReadPostCreate(ctx, s.db, orgID, p.TeamID, asked, in.referenceKey)
	if err != nil {
		return nil, app.NotFoundOr(err, "Team", "app: create post") // not a uuid: 404
	}
	if !r.TeamLive {
		return nil, app.NotFound("Team")
	}
	accounts, _ := accountsByNetwork(r.Accounts)
	uploads, uploadRows, err := s.ruleUploads(ctx, s.q, orgID, in, r.Uploads, asked)
	if err != nil {
		return nil, err
	}
	if issues := s.ruleIssuesOf(in, accounts, uploads); len(issues) > 0 {
		return nil, issuesError(issues)
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
	return s.writtenRecord(ctx, written, nil, r.Accounts, uploadRows, r.ShowVerboseErrors, false), nil
}
