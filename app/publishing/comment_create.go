package publishing

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/app"
	"github.com/crier/crier/store"
)

// CreateComment creates a comment under a Crier post or comment; SCHEDULED (the default) publishes
// at postDate (default now).
func (s *Service) CreateComment(ctx context.Context, p app.CommentParams) (*app.Comment, error) {
	pr, err := app.Authorize(app.PrincipalFrom(ctx), app.ActContent)
	if err != nil {
		return nil, err
	}
	in, err := s.commentInput(nil, p)
	if err != nil {
		return nil, err
	}
	var id string
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		if _, err := q.GetTeam(ctx, store.GetTeamParams{ID: p.TeamID, OrganizationID: pr.OrganizationID}); err != nil {
			return app.NotFoundOr(err, "Team", "app: create comment")
		}
		if err := s.resolveCommentParent(ctx, q, pr.OrganizationID, p.TeamID, in); err != nil {
			return err
		}
		accounts, _, err := s.teamAccounts(ctx, q, pr.OrganizationID, p.TeamID)
		if err != nil {
			return err
		}
		counted, err := s.commentQuota(ctx, q, pr.OrganizationID, nil, in, accounts)
		if err != nil {
			return err
		}
		row, err := q.InsertComment(ctx, store.InsertCommentParams{OrganizationID: pr.OrganizationID, TeamID: p.TeamID, CreatedByID: nonEmpty(pr.UserID),
			InternalPostID: in.postID, ImportedPostID: in.importedID, InternalParentCommentID: in.parentID, FetchedParentCommentID: in.fetchedID,
			Title: in.title, PostDate: in.postDate, Status: string(in.status), SocialAccountTypes: networkStrings(in.types), Data: in.dataJSON(), CountedAt: counted})
		if err != nil {
			return fmt.Errorf("app: create comment: %w", err)
		}
		id = row.ID
		if err := s.syncCommentTargets(ctx, tx, row, in, accounts); err != nil {
			return err
		}
		return s.accounts.Audit(ctx, tx, app.AuditBy(pr, app.AuditItem{Action: "comment.created", TargetType: "comment", TargetID: row.ID}))
	})
	if err != nil {
		return nil, err
	}
	return s.getComment(ctx, pr.OrganizationID, id)
}

// commentQuota checks the monthly comments and the accounts' daily comment caps of a scheduled
// comment (under the organization's quota lock) and answers its counted_at.
func (s *Service) commentQuota(ctx context.Context, q *store.Queries, orgID string, cur *store.Comment, in *commentInput, accounts map[app.Network]*app.SocialAccount) (*time.Time, error) {
	var counted *time.Time
	if cur != nil {
		counted = cur.CountedAt
	}
	if in.status != app.PostScheduled {
		return counted, nil
	}
	if err := q.LockOrganizationQuota(ctx, orgID); err != nil {
		return nil, fmt.Errorf("app: comment quota: %w", err)
	}
	if counted == nil {
		org, err := q.GetOrganization(ctx, orgID)
		if err != nil {
			return nil, app.NotFoundOr(err, "Organization", "app: comment quota")
		}
		limit := app.LimitsOf(app.Plan(org.Plan)).MonthlyComments
		now := s.now().UTC()
		month := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
		used, err := q.CountCommentsSince(ctx, store.CountCommentsSinceParams{OrganizationID: orgID, Since: &month})
		if err != nil {
			return nil, fmt.Errorf("app: comment quota: %w", err)
		}
		if int(used) >= limit {
			return nil, app.Errorf(app.EForbidden, "Monthly comment limit reached: the %s plan allows %d comments a month", org.Plan, limit)
		}
		counted = &now
	}
	day := in.postDate.UTC()
	from := time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, time.UTC)
	to := from.AddDate(0, 0, 1)
	var except *string
	if cur != nil {
		except = &cur.ID
	}
	for _, n := range in.types {
		a := accounts[n]
		if a == nil {
			return nil, issuesError([]app.Issue{{Code: app.IssueCustom, Message: "No " + n.DisplayName() + " account is connected to this team", Path: []any{"socialAccountTypes"}}})
		}
		used, err := q.CountAccountTargetsOnDay(ctx, store.CountAccountTargetsOnDayParams{SocialAccountID: &a.ID, Kinds: []string{app.TargetComment, app.TargetFirstComment},
			DayFrom: &from, DayTo: &to, ExceptComment: except})
		if err != nil {
			return nil, fmt.Errorf("app: daily comment limit: %w", err)
		}
		if limit := app.DailyCapsOf(n).Comments; int(used) >= limit {
			return nil, app.Errorf(app.EForbidden, "Daily comment limit reached for the %s account on %s: %d comments a day (dailyCommentLimit)",
				n.DisplayName(), from.Format("2006-01-02"), limit)
		}
	}
	return counted, nil
}

func (s *Service) syncCommentTargets(ctx context.Context, tx pgx.Tx, c store.Comment, in *commentInput, accounts map[app.Network]*app.SocialAccount) error {
	q := s.q.WithTx(tx)
	existing, err := q.ListCommentTargets(ctx, []string{c.ID})
	if err != nil {
		return fmt.Errorf("app: comment targets: %w", err)
	}
	have := map[app.Network]store.PublishTarget{}
	for _, t := range existing {
		have[app.Network(t.Network)] = t
	}
	for _, n := range in.types {
		var acct *string
		if a := accounts[n]; a != nil {
			acct = &a.ID
		}
		payload, _ := json.Marshal(map[string]string{"text": in.textOf(n)})
		due := in.postDate
		var row store.PublishTarget
		if t, ok := have[n]; ok {
			row, err = q.RescheduleTarget(ctx, store.RescheduleTargetParams{ID: t.ID, Status: string(in.status), DueAt: &due, Payload: payload, SocialAccountID: acct})
			delete(have, n)
		} else {
			row, err = q.InsertTarget(ctx, store.InsertTargetParams{OrganizationID: c.OrganizationID, Kind: app.TargetComment, CommentID: &c.ID, Network: string(n),
				SocialAccountID: acct, Status: string(in.status), Payload: payload, AttemptKey: c.ID + ":" + strings.ToLower(string(n)), DueAt: &due})
		}
		if err != nil {
			return fmt.Errorf("app: comment target: %w", err)
		}
		if in.status == app.PostScheduled {
			if err := s.enqueueTarget(ctx, tx, row, in.postDate); err != nil {
				return err
			}
		}
	}
	for _, t := range have {
		if err := q.DeleteTarget(ctx, t.ID); err != nil {
			return fmt.Errorf("app: comment target: %w", err)
		}
	}
	return nil
}

// UpdateComment changes a DRAFT or SCHEDULED comment (rescheduling its targets).
func (s *Service) UpdateComment(ctx context.Context, id string, p app.CommentParams) (*app.Comment, error) {
	pr, err := app.Authorize(app.PrincipalFrom(ctx), app.ActContent)
	if err != nil {
		return nil, err
	}
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		row, err := q.GetCommentForUpdate(ctx, store.GetCommentForUpdateParams{ID: id, OrganizationID: pr.OrganizationID})
		if err != nil || row.DeletedAt != nil {
			return app.NotFoundOr(errOr(err, pgx.ErrNoRows), "Comment", "app: update comment")
		}
		if row.Status != string(app.PostDraft) && row.Status != string(app.PostScheduled) {
			return app.Invalid("Validation failed: status: A "+row.Status+" comment cannot be edited",
				app.Issue{Code: app.IssueCustom, Message: "A " + row.Status + " comment cannot be edited", Path: []any{"status"}})
		}
		in, err := s.commentInput(&row, p)
		if err != nil {
			return err
		}
		if err := s.resolveCommentParent(ctx, q, pr.OrganizationID, row.TeamID, in); err != nil {
			return err
		}
		accounts, _, err := s.teamAccounts(ctx, q, pr.OrganizationID, row.TeamID)
		if err != nil {
			return err
		}
		counted, err := s.commentQuota(ctx, q, pr.OrganizationID, &row, in, accounts)
		if err != nil {
			return err
		}
		updated, err := q.UpdateComment(ctx, store.UpdateCommentParams{ID: row.ID, Title: in.title, PostDate: in.postDate, Status: string(in.status),
			SocialAccountTypes: networkStrings(in.types), Data: in.dataJSON(), CountedAt: counted, InternalPostID: in.postID, InternalParentCommentID: in.parentID})
		if err != nil {
			return fmt.Errorf("app: update comment: %w", err)
		}
		if err := s.syncCommentTargets(ctx, tx, updated, in, accounts); err != nil {
			return err
		}
		return s.accounts.Audit(ctx, tx, app.AuditBy(pr, app.AuditItem{Action: "comment.updated", TargetType: "comment", TargetID: row.ID}))
	})
	if err != nil {
		return nil, err
	}
	return s.getComment(ctx, pr.OrganizationID, id)
}
