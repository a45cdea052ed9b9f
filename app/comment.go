package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/store"
)

// Comments Crier publishes: replies under one of its posts (internalPostId) or one of its comments
// (internalParentCommentId), one publish target per network (kind COMMENT) through the same
// pipeline as posts, with the adapters' Replier. A comment is final when every target is; then
// comment.published goes into the outbox. Replies to imported posts and fetched comments need the
// imports capability (501 until then).

// DefaultCommentListLimit is GET /comment's default page size.
const DefaultCommentListLimit = 10

// CommentText is one network's comment payload.
type CommentText struct {
	Text *string `json:"text"`
}

// Comment is the spec's Comment record (what the API answers and comment.published carries).
type Comment struct {
	ID                      string                    `json:"id"`
	TeamID                  string                    `json:"teamId"`
	OrganizationID          *string                   `json:"organizationId"`
	InternalPostID          *string                   `json:"internalPostId"`
	ImportedPostID          *string                   `json:"importedPostId"`
	InternalParentCommentID *string                   `json:"internalParentCommentId"`
	FetchedParentCommentID  *string                   `json:"fetchedParentCommentId"`
	Title                   *string                   `json:"title"`
	PostDate                *time.Time                `json:"postDate"`
	PostedDate              *time.Time                `json:"postedDate"`
	Status                  PostStatus                `json:"status"`
	Data                    map[Network]CommentText   `json:"data"`
	Error                   *string                   `json:"error"`
	Errors                  map[Network]*string       `json:"errors"`
	ErrorsVerbose           map[Network]*ErrorVerbose `json:"errorsVerbose,omitempty"`
	ExternalData            map[Network]*ExternalRef  `json:"externalData"`
	CreatedAt               time.Time                 `json:"createdAt"`
	UpdatedAt               time.Time                 `json:"updatedAt"`
	DeletedAt               *time.Time                `json:"deletedAt"`

	Targets []PostTarget `json:"-"`
}

// CommentParams is the body of POST /comment and PATCH /comment/{id}; nil fields are kept on update.
type CommentParams struct {
	TeamID                  string // create only
	Title                   *string
	InternalPostID          *string
	ImportedPostID          *string
	InternalParentCommentID *string
	FetchedParentCommentID  *string
	PostDate                *string
	Status                  *PostStatus
	SocialAccountTypes      []Network
	Data                    map[Network]CommentText
	// Text is used for every network without its own data entry.
	Text *string
}

// CommentFilter is GET /comment's query.
type CommentFilter struct {
	TeamID         string
	PostID         *string
	ImportedPostID *string
	Status         *PostStatus
	OrderBy        string // createdAt (default) | updatedAt | deletedAt
	Order          string // ASC | DESC (default)
	Q              *string
	Platforms      []Network
}

func init() {
	usageCounters[UsageComments] = func(ctx context.Context, q *store.Queries, orgID string, since time.Time) (int, error) {
		n, err := q.CountCommentsSince(ctx, store.CountCommentsSinceParams{OrganizationID: orgID, Since: &since})
		return int(n), err
	}
	dailyUsageCounters[UsageComments] = func(ctx context.Context, q *store.Queries, accountID string, from, to time.Time) (int, error) {
		n, err := q.CountAccountTargetsOnDay(ctx, store.CountAccountTargetsOnDayParams{SocialAccountID: &accountID,
			Kinds: []string{targetComment, targetFirstComment}, DayFrom: &from, DayTo: &to})
		return int(n), err
	}
}

type commentInput struct {
	title                  *string
	postID, parentID       *string
	postDate               time.Time
	status                 PostStatus
	types                  []Network
	texts                  map[Network]string
	importedID, fetchedID  *string
	explicitTypes, anyText bool
}

// commentInput merges p over an existing comment (nil on create).
func (s *Service) commentInput(cur *store.Comment, p CommentParams) (*commentInput, error) {
	in := &commentInput{postDate: s.now().UTC(), status: PostScheduled, texts: map[Network]string{}}
	if cur != nil {
		in.title, in.postID, in.parentID, in.postDate, in.status = cur.Title, cur.InternalPostID, cur.InternalParentCommentID, cur.PostDate, PostStatus(cur.Status)
		in.importedID, in.fetchedID = cur.ImportedPostID, cur.FetchedParentCommentID
		for _, n := range cur.SocialAccountTypes {
			in.types = append(in.types, Network(n))
		}
		var data map[Network]CommentText
		_ = json.Unmarshal(cur.Data, &data)
		for n, t := range data {
			if t.Text != nil {
				in.texts[n] = *t.Text
			}
		}
	}
	if p.Title != nil {
		in.title = p.Title
	}
	if p.InternalPostID != nil {
		in.postID = p.InternalPostID
	}
	if p.InternalParentCommentID != nil {
		in.parentID = p.InternalParentCommentID
	}
	if p.ImportedPostID != nil {
		in.importedID = p.ImportedPostID
	}
	if p.FetchedParentCommentID != nil {
		in.fetchedID = p.FetchedParentCommentID
	}
	if p.PostDate != nil {
		t, err := parsePostDate(*p.PostDate, "postDate")
		if err != nil {
			return nil, err
		}
		in.postDate = t
	}
	if p.Status != nil {
		in.status = *p.Status
	}
	if p.SocialAccountTypes != nil {
		in.types, in.explicitTypes = uniqueNetworks(p.SocialAccountTypes), true
	}
	for n, t := range p.Data {
		if t.Text != nil {
			in.texts[n] = *t.Text
		}
		if !in.explicitTypes && !containsNetwork(in.types, n) {
			in.types = append(in.types, n)
		}
	}
	if p.Text != nil {
		in.texts[Network("*")] = *p.Text
	}
	if (in.importedID != nil || in.fetchedID != nil) && in.postID == nil && in.parentID == nil {
		return nil, Errorf(ENotImplemented, "Replying to imported posts and fetched comments needs the imports capability, which has not landed")
	}
	if in.postID == nil && in.parentID == nil {
		return nil, Invalid("Validation failed: internalPostId: Required",
			Issue{Code: IssueInvalidType, Message: "internalPostId or internalParentCommentId is required", Path: []any{"internalPostId"}})
	}
	if in.status != PostDraft && in.status != PostScheduled {
		return nil, Invalid("Validation failed: status: Invalid enum value",
			Issue{Code: IssueInvalidEnumValue, Message: "Invalid enum value. Expected 'DRAFT' | 'SCHEDULED', received '" + string(in.status) + "'", Path: []any{"status"}})
	}
	return in, nil
}

func (in *commentInput) textOf(n Network) string {
	if t, ok := in.texts[n]; ok {
		return t
	}
	return in.texts[Network("*")]
}

// resolveParent checks the post or comment replied to (same team) and defaults the networks to its.
func (s *Service) resolveCommentParent(ctx context.Context, q *store.Queries, orgID, teamID string, in *commentInput) error {
	var parentTypes []string
	if in.parentID != nil {
		c, err := q.GetComment(ctx, store.GetCommentParams{ID: *in.parentID, OrganizationID: orgID})
		if err != nil || c.DeletedAt != nil || c.TeamID != teamID {
			return notFoundOr(errOr(err, pgx.ErrNoRows), "Comment", "app: comment parent")
		}
		parentTypes = c.SocialAccountTypes
		if in.postID == nil {
			in.postID = c.InternalPostID
		}
	} else {
		p, err := q.GetPost(ctx, store.GetPostParams{ID: *in.postID, OrganizationID: orgID})
		if err != nil || p.DeletedAt != nil || p.TeamID != teamID {
			return notFoundOr(errOr(err, pgx.ErrNoRows), "Post", "app: comment parent")
		}
		parentTypes = p.SocialAccountTypes
	}
	if len(in.types) == 0 {
		for _, n := range parentTypes {
			if commentNetwork(Network(n)) {
				in.types = append(in.types, Network(n))
			}
		}
	}
	var issues []Issue
	if len(in.types) == 0 {
		issues = append(issues, Issue{Code: IssueTooSmall, Message: "Array must contain at least 1 element(s)", Path: []any{"socialAccountTypes"}})
	}
	for i, n := range in.types {
		if !commentNetwork(n) {
			issues = append(issues, Issue{Code: IssueInvalidEnumValue, Message: "Invalid enum value '" + string(n) + "'", Path: []any{"socialAccountTypes", i}})
			continue
		}
		found := false
		for _, pn := range parentTypes {
			found = found || pn == string(n)
		}
		if !found {
			issues = append(issues, Issue{Code: IssueCustom, Message: "The post or comment replied to does not publish to " + n.DisplayName(), Path: []any{"socialAccountTypes", i}})
		}
		if strings.TrimSpace(in.textOf(n)) == "" {
			issues = append(issues, Issue{Code: IssueTooSmall, Message: "String must contain at least 1 character(s)", Path: []any{"data", string(n), "text"}})
		}
	}
	if len(issues) > 0 {
		return issuesError(issues)
	}
	return nil
}

// commentNetwork reports whether posts on n can be commented on through Crier.
func commentNetwork(n Network) bool {
	s := SpecOf(n)
	return s != nil && s.Comments
}

func (in *commentInput) dataJSON() []byte {
	out := map[Network]CommentText{}
	for _, n := range in.types {
		t := in.textOf(n)
		out[n] = CommentText{Text: &t}
	}
	b, _ := json.Marshal(out)
	return b
}

// CreateComment creates a comment under a Crier post or comment; SCHEDULED (the default) publishes
// at postDate (default now).
func (s *Service) CreateComment(ctx context.Context, p CommentParams) (*Comment, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActContent)
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
			return notFoundOr(err, "Team", "app: create comment")
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
		return s.audit(ctx, tx, auditBy(pr, auditItem{Action: "comment.created", TargetType: "comment", TargetID: row.ID}))
	})
	if err != nil {
		return nil, err
	}
	return s.getComment(ctx, pr.OrganizationID, id)
}

// commentQuota checks the monthly comments and the accounts' daily comment caps of a scheduled
// comment (under the organization's quota lock) and answers its counted_at.
func (s *Service) commentQuota(ctx context.Context, q *store.Queries, orgID string, cur *store.Comment, in *commentInput, accounts map[Network]*SocialAccount) (*time.Time, error) {
	var counted *time.Time
	if cur != nil {
		counted = cur.CountedAt
	}
	if in.status != PostScheduled {
		return counted, nil
	}
	if err := q.LockOrganizationQuota(ctx, orgID); err != nil {
		return nil, fmt.Errorf("app: comment quota: %w", err)
	}
	if counted == nil {
		org, err := q.GetOrganization(ctx, orgID)
		if err != nil {
			return nil, notFoundOr(err, "Organization", "app: comment quota")
		}
		limit := LimitsOf(Plan(org.Plan)).MonthlyComments
		now := s.now().UTC()
		month := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
		used, err := q.CountCommentsSince(ctx, store.CountCommentsSinceParams{OrganizationID: orgID, Since: &month})
		if err != nil {
			return nil, fmt.Errorf("app: comment quota: %w", err)
		}
		if int(used) >= limit {
			return nil, Errorf(EForbidden, "Monthly comment limit reached: the %s plan allows %d comments a month", org.Plan, limit)
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
			return nil, issuesError([]Issue{{Code: IssueCustom, Message: "No " + n.DisplayName() + " account is connected to this team", Path: []any{"socialAccountTypes"}}})
		}
		used, err := q.CountAccountTargetsOnDay(ctx, store.CountAccountTargetsOnDayParams{SocialAccountID: &a.ID, Kinds: []string{targetComment, targetFirstComment},
			DayFrom: &from, DayTo: &to, ExceptComment: except})
		if err != nil {
			return nil, fmt.Errorf("app: daily comment limit: %w", err)
		}
		if limit := DailyCapsOf(n).Comments; int(used) >= limit {
			return nil, Errorf(EForbidden, "Daily comment limit reached for the %s account on %s: %d comments a day (dailyCommentLimit)",
				n.DisplayName(), from.Format("2006-01-02"), limit)
		}
	}
	return counted, nil
}

func (s *Service) syncCommentTargets(ctx context.Context, tx pgx.Tx, c store.Comment, in *commentInput, accounts map[Network]*SocialAccount) error {
	q := s.q.WithTx(tx)
	existing, err := q.ListCommentTargets(ctx, []string{c.ID})
	if err != nil {
		return fmt.Errorf("app: comment targets: %w", err)
	}
	have := map[Network]store.PublishTarget{}
	for _, t := range existing {
		have[Network(t.Network)] = t
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
			row, err = q.InsertTarget(ctx, store.InsertTargetParams{OrganizationID: c.OrganizationID, Kind: targetComment, CommentID: &c.ID, Network: string(n),
				SocialAccountID: acct, Status: string(in.status), Payload: payload, AttemptKey: c.ID + ":" + strings.ToLower(string(n)), DueAt: &due})
		}
		if err != nil {
			return fmt.Errorf("app: comment target: %w", err)
		}
		if in.status == PostScheduled {
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

// GetComment answers a comment of the caller's organization.
func (s *Service) GetComment(ctx context.Context, id string) (*Comment, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, err
	}
	return s.getComment(ctx, pr.OrganizationID, id)
}

func (s *Service) getComment(ctx context.Context, orgID, id string) (*Comment, error) {
	row, err := s.q.GetComment(ctx, store.GetCommentParams{ID: id, OrganizationID: orgID})
	if err != nil {
		return nil, notFoundOr(err, "Comment", "app: get comment")
	}
	out, err := s.commentViews(ctx, s.q, []store.Comment{row})
	if err != nil {
		return nil, err
	}
	return &out[0], nil
}

func (s *Service) commentViews(ctx context.Context, q *store.Queries, rows []store.Comment) ([]Comment, error) {
	if len(rows) == 0 {
		return []Comment{}, nil
	}
	org, err := q.GetOrganization(ctx, rows[0].OrganizationID)
	if err != nil {
		return nil, notFoundOr(err, "Organization", "app: comment view")
	}
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	targets, err := q.ListCommentTargets(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("app: comment targets: %w", err)
	}
	by := map[string][]store.PublishTarget{}
	for _, t := range targets {
		by[*t.CommentID] = append(by[*t.CommentID], t)
	}
	out := make([]Comment, len(rows))
	for i, r := range rows {
		d := r.PostDate
		c := Comment{ID: r.ID, TeamID: r.TeamID, OrganizationID: &r.OrganizationID, InternalPostID: r.InternalPostID, ImportedPostID: r.ImportedPostID,
			InternalParentCommentID: r.InternalParentCommentID, FetchedParentCommentID: r.FetchedParentCommentID, Title: r.Title, PostDate: &d,
			PostedDate: r.PostedDate, Status: PostStatus(r.Status), Error: r.Error, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, DeletedAt: r.DeletedAt}
		_ = json.Unmarshal(r.Data, &c.Data)
		c.Targets, c.ExternalData, c.Errors, c.ErrorsVerbose = targetFields(by[r.ID], targetComment, org.ShowVerboseErrors)
		out[i] = c
	}
	return out, nil
}

// ListComments answers a page of a team's comments matching f, with the total.
func (s *Service) ListComments(ctx context.Context, f CommentFilter, page Page) ([]Comment, int, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, 0, err
	}
	if err := page.validate(); err != nil {
		return nil, 0, err
	}
	if _, err := s.q.GetTeam(ctx, store.GetTeamParams{ID: f.TeamID, OrganizationID: pr.OrganizationID}); err != nil {
		return nil, 0, notFoundOr(err, "Team", "app: list comments")
	}
	if f.PostID != nil && !isUUID(*f.PostID) {
		return []Comment{}, 0, nil
	}
	var status *string
	if f.Status != nil {
		st := string(*f.Status)
		status = &st
	}
	var platforms []string
	if len(f.Platforms) > 0 {
		platforms = networkStrings(f.Platforms)
	}
	orderBy := f.OrderBy
	if orderBy == "" {
		orderBy = "createdAt"
	}
	rows, err := s.q.ListComments(ctx, store.ListCommentsParams{OrganizationID: pr.OrganizationID, TeamID: f.TeamID, PostID: f.PostID,
		ImportedPostID: f.ImportedPostID, Status: status, Q: f.Q, Platforms: platforms, OrderBy: orderBy, Descending: f.Order != "ASC",
		Lim: int32(page.Limit), Off: int32(page.Offset)})
	if err != nil {
		return nil, 0, fmt.Errorf("app: list comments: %w", err)
	}
	total := 0
	comments := make([]store.Comment, len(rows))
	for i, r := range rows {
		total = int(r.Total)
		comments[i] = r.Comment
	}
	if len(rows) == 0 && page.Offset > 0 {
		all, err := s.q.ListComments(ctx, store.ListCommentsParams{OrganizationID: pr.OrganizationID, TeamID: f.TeamID, PostID: f.PostID,
			ImportedPostID: f.ImportedPostID, Status: status, Q: f.Q, Platforms: platforms, OrderBy: orderBy, Lim: 1})
		if err == nil && len(all) > 0 {
			total = int(all[0].Total)
		}
	}
	out, err := s.commentViews(ctx, s.q, comments)
	return out, total, err
}

// UpdateComment changes a DRAFT or SCHEDULED comment (rescheduling its targets).
func (s *Service) UpdateComment(ctx context.Context, id string, p CommentParams) (*Comment, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, err
	}
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		row, err := q.GetCommentForUpdate(ctx, store.GetCommentForUpdateParams{ID: id, OrganizationID: pr.OrganizationID})
		if err != nil || row.DeletedAt != nil {
			return notFoundOr(errOr(err, pgx.ErrNoRows), "Comment", "app: update comment")
		}
		if row.Status != string(PostDraft) && row.Status != string(PostScheduled) {
			return Invalid("Validation failed: status: A "+row.Status+" comment cannot be edited",
				Issue{Code: IssueCustom, Message: "A " + row.Status + " comment cannot be edited", Path: []any{"status"}})
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
		return s.audit(ctx, tx, auditBy(pr, auditItem{Action: "comment.updated", TargetType: "comment", TargetID: row.ID}))
	})
	if err != nil {
		return nil, err
	}
	return s.getComment(ctx, pr.OrganizationID, id)
}

// DeleteComment deletes a comment; its queued jobs become no-ops, and where it was POSTED it is
// removed from the network when the adapter can (a reply is deleted like a post).
func (s *Service) DeleteComment(ctx context.Context, id string) (*Comment, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, err
	}
	var posted []store.PublishTarget
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		row, err := q.GetCommentForUpdate(ctx, store.GetCommentForUpdateParams{ID: id, OrganizationID: pr.OrganizationID})
		if err != nil || row.DeletedAt != nil {
			return notFoundOr(errOr(err, pgx.ErrNoRows), "Comment", "app: delete comment")
		}
		targets, err := q.ListCommentTargets(ctx, []string{row.ID})
		if err != nil {
			return fmt.Errorf("app: delete comment: %w", err)
		}
		for _, t := range targets {
			switch PostStatus(t.Status) {
			case PostPosted:
				posted = append(posted, t)
			case PostProcessing:
			default:
				if _, err := q.SetTargetStatus(ctx, store.SetTargetStatusParams{ID: t.ID, Status: string(PostDeleted)}); err != nil {
					return fmt.Errorf("app: delete comment: %w", err)
				}
			}
		}
		if _, err := q.DeleteComment(ctx, row.ID); err != nil {
			return fmt.Errorf("app: delete comment: %w", err)
		}
		return s.audit(ctx, tx, auditBy(pr, auditItem{Action: "comment.deleted", TargetType: "comment", TargetID: row.ID}))
	})
	if err != nil {
		return nil, err
	}
	for _, t := range posted {
		s.deleteOnNetwork(ctx, t)
	}
	return s.getComment(ctx, pr.OrganizationID, id)
}

// RetryComment re-runs the failed networks of a comment, now.
func (s *Service) RetryComment(ctx context.Context, id string) (*Comment, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, err
	}
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		row, err := q.GetCommentForUpdate(ctx, store.GetCommentForUpdateParams{ID: id, OrganizationID: pr.OrganizationID})
		if err != nil || row.DeletedAt != nil {
			return notFoundOr(errOr(err, pgx.ErrNoRows), "Comment", "app: retry comment")
		}
		targets, err := q.ListCommentTargets(ctx, []string{row.ID})
		if err != nil {
			return fmt.Errorf("app: retry comment: %w", err)
		}
		now := s.now().UTC()
		n := 0
		for _, t := range targets {
			if t.Status != string(PostError) {
				continue
			}
			nt, err := q.RescheduleTarget(ctx, store.RescheduleTargetParams{ID: t.ID, Status: string(PostScheduled), DueAt: &now, Payload: t.Payload, SocialAccountID: t.SocialAccountID})
			if err != nil {
				return fmt.Errorf("app: retry comment: %w", err)
			}
			if err := s.enqueueTarget(ctx, tx, nt, now); err != nil {
				return err
			}
			n++
		}
		if n == 0 {
			return Invalid("Validation failed: status: Only a comment with failed networks can be retried",
				Issue{Code: IssueCustom, Message: "Only a comment with failed networks can be retried (status " + row.Status + ")", Path: []any{"status"}})
		}
		if _, err := q.SetCommentStatus(ctx, store.SetCommentStatusParams{ID: row.ID, Status: string(PostScheduled)}); err != nil {
			return fmt.Errorf("app: retry comment: %w", err)
		}
		return s.audit(ctx, tx, auditBy(pr, auditItem{Action: "comment.retried", TargetType: "comment", TargetID: row.ID}))
	})
	if err != nil {
		return nil, err
	}
	return s.getComment(ctx, pr.OrganizationID, id)
}

// settleComment moves a comment along with its targets; comment.published when final.
func (s *Service) settleComment(ctx context.Context, tx pgx.Tx, id string) error {
	q := s.q.WithTx(tx)
	c, err := q.GetCommentByID(ctx, id)
	if err != nil {
		return fmt.Errorf("app: settle comment: %w", err)
	}
	if c.DeletedAt != nil {
		return nil
	}
	targets, err := q.ListCommentTargets(ctx, []string{id})
	if err != nil {
		return fmt.Errorf("app: settle comment: %w", err)
	}
	status, errText, postedAt := settle(targets, targetComment)
	if status == PostStatus(c.Status) {
		return nil
	}
	row, err := q.SetCommentStatus(ctx, store.SetCommentStatusParams{ID: id, Status: string(status), Error: errText, PostedDate: postedAt})
	if err != nil {
		return fmt.Errorf("app: settle comment: %w", err)
	}
	if status != PostPosted && status != PostError {
		return nil
	}
	views, err := s.commentViews(ctx, q, []store.Comment{row})
	if err != nil {
		return err
	}
	return s.Emit(ctx, tx, row.OrganizationID, EventCommentPublished, views[0])
}
