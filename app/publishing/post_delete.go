package publishing

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/app"
	"github.com/crier/crier/store"
)

// DeletePost deletes a post: queued jobs become no-ops (their targets get a new version), its
// uploads are released, and where it was POSTED it is deleted on the network when the network
// allows it (a refusal or ErrNotSupported leaves the network's copy, recorded on the target).
func (s *Service) DeletePost(ctx context.Context, id string) (*app.Post, error) {
	pr, err := app.Authorize(app.PrincipalFrom(ctx), app.ActContent)
	if err != nil {
		return nil, err
	}
	var posted []store.PublishTarget
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		row, err := q.GetPostForUpdate(ctx, store.GetPostForUpdateParams{ID: id, OrganizationID: pr.OrganizationID})
		if err != nil {
			return app.NotFoundOr(err, "Post", "app: delete post")
		}
		if row.DeletedAt != nil {
			return app.NotFound("Post")
		}
		targets, err := q.ListPostTargets(ctx, []string{row.ID})
		if err != nil {
			return fmt.Errorf("app: delete post: %w", err)
		}
		for _, t := range targets {
			switch app.PostStatus(t.Status) {
			case app.PostPosted:
				if t.Kind == app.TargetPost {
					posted = append(posted, t)
				}
			case app.PostProcessing:
				// In flight: its outcome is still recorded when it comes back (never lost).
			default:
				if _, err := q.SetTargetStatus(ctx, store.SetTargetStatusParams{ID: t.ID, Status: string(app.PostDeleted)}); err != nil {
					return fmt.Errorf("app: delete post: %w", err)
				}
			}
		}
		if _, err := q.DeletePost(ctx, row.ID); err != nil {
			return fmt.Errorf("app: delete post: %w", err)
		}
		if err := q.ReleasePostUploads(ctx, row.ID); err != nil {
			return fmt.Errorf("app: delete post: %w", err)
		}
		return s.accounts.Audit(ctx, tx, app.AuditBy(pr, app.AuditItem{Action: "post.deleted", TargetType: "post", TargetID: row.ID}))
	})
	if err != nil {
		return nil, err
	}
	for _, t := range posted {
		s.deleteOnNetwork(ctx, t)
	}
	return s.getPost(ctx, pr.OrganizationID, id)
}

// deleteOnNetwork removes a published target from its network (best effort) and records it.
func (s *Service) deleteOnNetwork(ctx context.Context, t store.PublishTarget) {
	n := app.Network(t.Network)
	fail := func(msg string) {
		_, _ = s.q.TargetFailed(ctx, store.TargetFailedParams{ID: t.ID, Status: string(app.PostPosted), Error: &msg})
	}
	if t.SocialAccountID == nil || t.ExternalID == nil {
		return
	}
	a, err := s.accounts.Adapter(n)
	if err != nil {
		return
	}
	pub, ok := a.(app.Publisher)
	if !ok {
		fail("Deleting on " + n.DisplayName() + " is not available")
		return
	}
	row, err := s.q.GetSocialAccountAny(ctx, store.GetSocialAccountAnyParams{ID: *t.SocialAccountID, OrganizationID: t.OrganizationID})
	if err != nil {
		fail("The " + n.DisplayName() + " account is gone; the post stays on the network")
		return
	}
	acct := app.SocialAccountFromRow(row)
	var extra map[string]string
	_ = json.Unmarshal(t.Extra, &extra)
	_, err = s.accounts.WithToken(ctx, row, func(tok *app.Token) error {
		return pub.Delete(ctx, tok, &app.DeleteRequest{Network: n, Account: &acct, Channel: app.SelectedChannel(&acct, nil), ExternalID: *t.ExternalID, Extra: extra})
	})
	if err != nil {
		msg := "Not deleted on " + n.DisplayName() + ": " + err.Error()
		if errors.Is(err, app.ErrNotSupported) {
			msg = n.DisplayName() + " does not allow deleting posts through its API; the post stays on the network"
		}
		fail(msg)
		return
	}
	_, _ = s.q.SetTargetStatus(ctx, store.SetTargetStatusParams{ID: t.ID, Status: string(app.PostDeleted)})
}
