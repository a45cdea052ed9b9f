package publishing

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/app"
	"github.com/crier/crier/store"
)

// CreatePost creates a post (DRAFT, REVIEW or SCHEDULED). A scheduled post counts in the monthly
// quota and gets one River job per network at postDate, in the same transaction.
func (s *Service) CreatePost(ctx context.Context, p app.PostParams) (*app.Post, error) {
	pr, err := app.Authorize(app.PrincipalFrom(ctx), app.ActContent)
	if err != nil {
		return nil, err
	}
	in, err := s.postInput(nil, p)
	if err != nil {
		return nil, err
	}
	var postID string
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		live, rows, err := store.ReadTeamAccounts(ctx, tx, pr.OrganizationID, p.TeamID) // one round trip for both
		if err != nil {
			return app.NotFoundOr(err, "Team", "app: create post") // not a uuid: 404
		}
		if !live {
			return app.NotFound("Team")
		}
		accounts, _ := accountsByNetwork(rows)
		if err := s.checkPost(ctx, q, pr.OrganizationID, p.TeamID, in, accounts); err != nil {
			return err
		}
		if err := s.checkReferenceKey(ctx, q, pr.OrganizationID, in.referenceKey, ""); err != nil {
			return err
		}
		var counted *time.Time
		if in.status == app.PostScheduled {
			if err := q.LockOrganizationQuota(ctx, pr.OrganizationID); err != nil {
				return fmt.Errorf("app: create post: %w", err)
			}
			if err := s.checkQuotas(ctx, q, pr.OrganizationID, true, nil, in.postDate, in.types, accounts); err != nil {
				return err
			}
			now := s.now().UTC()
			counted = &now
		}
		data, _ := json.Marshal(in.data)
		row, err := q.InsertPost(ctx, store.InsertPostParams{OrganizationID: pr.OrganizationID, TeamID: p.TeamID, CreatedByID: nonEmpty(pr.UserID),
			Title: in.title, ReferenceKey: in.referenceKey, PostDate: in.postDate, Status: string(in.status),
			SocialAccountTypes: networkStrings(in.types), Data: data, FirstComment: firstCommentJSON(in.firstComment), CountedAt: counted})
		if err != nil {
			return s.referenceKeyConflict(err, "app: create post")
		}
		postID = row.ID
		in.created = true // syncTargets need not read the targets of a post just inserted
		if err := s.syncTargets(ctx, tx, row, in, accounts); err != nil {
			return err
		}
		if err := s.syncPostUploads(ctx, q, row.ID, in); err != nil {
			return err
		}
		return s.accounts.Audit(ctx, tx, app.AuditBy(pr, app.AuditItem{Action: "post.created", TargetType: "post", TargetID: row.ID,
			Metadata: map[string]any{"status": in.status, "networks": in.types}}))
	})
	if err != nil {
		return nil, err
	}
	return s.getPost(ctx, pr.OrganizationID, postID)
}
