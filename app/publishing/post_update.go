package publishing

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/crier/crier/app"
	"github.com/crier/crier/store"
)

// UpdatePost changes a DRAFT, REVIEW or SCHEDULED post. A new date or status reschedules: every
// target gets a new version (jobs already queued become no-ops) and a SCHEDULED post new jobs.
//
// Three round trips for a draft: the transaction begins with the post locked and what the edit
// is checked against (store.BeginPostEdit), then the post, its targets, upload links and audit
// row in one batch, then the commit. The answer is built from what was written and read.
func (s *Service) UpdatePost(ctx context.Context, id string, p app.PostParams) (*app.Post, error) {
	pr, err := app.Authorize(app.PrincipalFrom(ctx), app.ActContent)
	if err != nil {
		return nil, err
	}
	orgID := pr.OrganizationID
	var asked []string // the uploads of new content; those of the post's own are read by its links
	if p.Data != nil {
		asked = app.RuleUploadIDs(p.Data)
	}
	var key *string // a kept key is the post's own (a live key is unique): nothing to check
	if p.ReferenceKey != nil && !p.ClearReferenceKey {
		key = p.ReferenceKey
	}
	tx, r, err := store.BeginPostEdit(ctx, s.db, orgID, id, lowerUUIDs(asked), key)
	if err != nil {
		return nil, app.NotFoundOr(err, "Post", "app: update post") // not a uuid: 404
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // after commit it is a no-op
	if len(r.Post) == 0 {
		return nil, app.NotFound("Post")
	}
	row := r.Post[0]
	switch st := app.PostStatus(row.Status); {
	case st.Editable():
	case st == app.PostDeleted:
		return nil, app.NotFound("Post")
	default:
		return nil, app.Invalid("Validation failed: status: A "+row.Status+" post cannot be edited",
			app.Issue{Code: app.IssueCustom, Message: "A " + row.Status + " post cannot be edited", Path: []any{"status"}})
	}
	cur := postFromRow(row)
	in, err := s.postInput(&cur, p)
	if err != nil {
		return nil, err
	}
	in.keepDate = p.PostDate == nil && in.status == app.PostStatus(row.Status)
	accounts, _ := accountsByNetwork(r.Accounts)
	q := s.q.WithTx(tx)
	uploads, uploadRows, err := s.ruleUploads(ctx, q, orgID, in, r.Uploads, asked)
	if err != nil {
		return nil, err
	}
	if issues := s.ruleIssuesOf(in, accounts, uploads); len(issues) > 0 {
		return nil, issuesError(issues)
	}
	if keyTaken(r.KeyOwner, row.ID) {
		return nil, errReferenceKeyTaken()
	}
	counted := row.CountedAt
	if in.status == app.PostScheduled {
		if err := q.LockOrganizationQuota(ctx, orgID); err != nil {
			return nil, fmt.Errorf("app: update post: %w", err)
		}
		if err := s.checkQuotas(ctx, q, orgID, counted == nil, &row.ID, in.postDate, in.types, accounts); err != nil {
			return nil, err
		}
		if counted == nil {
			now := s.now().UTC()
			counted = &now
		}
	}
	data, _ := json.Marshal(in.data)
	written, err := store.WritePost(ctx, tx, store.PostWrite{
		Update: &store.UpdatePostParams{ID: row.ID, Title: in.title, ReferenceKey: in.referenceKey, PostDate: in.postDate,
			Status: string(in.status), SocialAccountTypes: networkStrings(in.types), Data: data, FirstComment: firstCommentJSON(in.firstComment),
			CountedAt: counted, ReviewNote: row.ReviewNote},
		Targets: planTargets(row.OrganizationID, row.ID, r.Targets, in, accounts),
		Uploads: &store.ReplacePostUploadLinksParams{PostID: row.ID, UploadIds: postUploadIDs(in)},
		Audit: auditRow(app.AuditBy(pr, app.AuditItem{Action: "post.updated", TargetType: "post", TargetID: row.ID,
			Metadata: map[string]any{"status": in.status}})),
	})
	if err != nil {
		return nil, s.referenceKeyConflict(err, "app: update post")
	}
	if err := s.enqueueTargets(ctx, tx, written.Targets, in); err != nil {
		return nil, err
	}
	if err := tx.Commit(ctx); err != nil {
		return nil, fmt.Errorf("app: update post: commit: %w", err)
	}
	return s.writtenRecord(ctx, written, r.Targets, r.Accounts, uploadRows, r.ShowVerboseErrors), nil
}
