package publishing

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/app"
	"github.com/crier/crier/store"
)

// UpdatePost changes a DRAFT, REVIEW or SCHEDULED post. A new date or status reschedules: every
// target gets a new version (jobs already queued become no-ops) and a SCHEDULED post new jobs.
func (s *Service) UpdatePost(ctx context.Context, id string, p app.PostParams) (*app.Post, error) {
	pr, err := app.Authorize(app.PrincipalFrom(ctx), app.ActContent)
	if err != nil {
		return nil, err
	}
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		// The post, locked, and its team's accounts in one round trip.
		locked, teamRows, err := store.ReadPostForUpdate(ctx, tx, pr.OrganizationID, id)
		if err != nil {
			return app.NotFoundOr(err, "Post", "app: update post") // not a uuid: 404
		}
		if len(locked) == 0 {
			return app.NotFound("Post")
		}
		row := locked[0]
		switch st := app.PostStatus(row.Status); {
		case st.Editable():
		case st == app.PostDeleted:
			return app.NotFound("Post")
		default:
			return app.Invalid("Validation failed: status: A "+row.Status+" post cannot be edited",
				app.Issue{Code: app.IssueCustom, Message: "A " + row.Status + " post cannot be edited", Path: []any{"status"}})
		}
		cur := postFromRow(row)
		in, err := s.postInput(&cur, p)
		if err != nil {
			return err
		}
		in.keepDate = p.PostDate == nil && in.status == app.PostStatus(row.Status)
		accounts, _ := accountsByNetwork(teamRows)
		if err := s.checkPost(ctx, q, pr.OrganizationID, row.TeamID, in, accounts); err != nil {
			return err
		}
		if err := s.checkReferenceKey(ctx, q, pr.OrganizationID, in.referenceKey, row.ID); err != nil {
			return err
		}
		counted := row.CountedAt
		if in.status == app.PostScheduled {
			if err := q.LockOrganizationQuota(ctx, pr.OrganizationID); err != nil {
				return fmt.Errorf("app: update post: %w", err)
			}
			if err := s.checkQuotas(ctx, q, pr.OrganizationID, counted == nil, &row.ID, in.postDate, in.types, accounts); err != nil {
				return err
			}
			if counted == nil {
				now := s.now().UTC()
				counted = &now
			}
		}
		data, _ := json.Marshal(in.data)
		updated, err := q.UpdatePost(ctx, store.UpdatePostParams{ID: row.ID, Title: in.title, ReferenceKey: in.referenceKey, PostDate: in.postDate,
			Status: string(in.status), SocialAccountTypes: networkStrings(in.types), Data: data, FirstComment: firstCommentJSON(in.firstComment),
			CountedAt: counted, ReviewNote: row.ReviewNote})
		if err != nil {
			return s.referenceKeyConflict(err, "app: update post")
		}
		if err := s.syncTargets(ctx, tx, updated, in, accounts); err != nil {
			return err
		}
		if err := s.syncPostUploads(ctx, q, row.ID, in); err != nil {
			return err
		}
		return s.accounts.Audit(ctx, tx, app.AuditBy(pr, app.AuditItem{Action: "post.updated", TargetType: "post", TargetID: row.ID,
			Metadata: map[string]any{"status": in.status}}))
	})
	if err != nil {
		return nil, err
	}
	return s.getPost(ctx, pr.OrganizationID, id)
}
