package publishing

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/crier/crier/app"
	"github.com/crier/crier/store"
)

// parsePostDate reads an ISO 8601 date-time (with or without fractional seconds, Z or an offset).
func parsePostDate(raw, field string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999Z0700", "2006-01-02T15:04Z07:00", "2006-01-02T15:04:05"} {
		if t, err := time.Parse(layout, raw); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, app.Invalid("Validation failed: "+field+": Invalid date", app.Issue{Code: app.IssueInvalidDate, Message: "Invalid date", Path: []any{field}})
}

// applyPostDefaults writes each payload's defaults into it.
func applyPostDefaults(d *app.PostData) {
	for _, n := range d.Networks() {
		if p, ok := d.Of(n).(app.Defaulter); ok {
			p.SetDefaults()
		}
	}
}

// payloadOf decodes a target's stored payload into its network's type.
func payloadOf(n app.Network, raw []byte) (app.Payload, error) {
	b, err := json.Marshal(map[app.Network]json.RawMessage{n: raw})
	if err != nil {
		return nil, err
	}
	var d app.PostData
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, err
	}
	p := d.Of(n)
	if p == nil {
		return nil, fmt.Errorf("app: no payload for %s", n)
	}
	return p, nil
}

func uniqueNetworks(in []app.Network) []app.Network {
	seen := map[app.Network]bool{}
	var out []app.Network
	for _, n := range in {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

func networkStrings(in []app.Network) []string {
	out := make([]string, len(in))
	for i, n := range in {
		out[i] = string(n)
	}
	return out
}

func issuesError(issues []app.Issue) error {
	first := issues[0]
	parts := make([]string, len(first.Path))
	for i, p := range first.Path {
		parts[i] = fmt.Sprint(p)
	}
	return app.Invalid("Validation failed: "+strings.Join(parts, ".")+": "+first.Message, issues...)
}

// postInput is a create or update resolved and checked.
type postInput struct {
	// keepDate: an update that changes neither the date nor the status keeps a scheduled post's
	// date even once it has passed (the post is due and publishes now).
	keepDate     bool
	title        string
	referenceKey *string
	postDate     time.Time
	status       app.PostStatus
	types        []app.Network
	data         app.PostData
	firstComment map[app.Network]string
}

// checkPost validates a post's content against the team with the per-network rules
// (post_rules.go and each network's rules.go): accounts, channels, uploads, text limits, dates.
func (s *Service) checkPost(ctx context.Context, q *store.Queries, orgID, teamID string, in *postInput, accounts map[app.Network]*app.SocialAccount) error {
	issues, err := s.ruleIssues(ctx, q, orgID, in, accounts)
	if err != nil {
		return err
	}
	if len(issues) > 0 {
		return issuesError(issues)
	}
	return nil
}

// ruleIssues are the issues of the per-network rules for a post (none: nil).
func (s *Service) ruleIssues(ctx context.Context, q *store.Queries, orgID string, in *postInput, accounts map[app.Network]*app.SocialAccount) ([]app.Issue, error) {
	uploads, _, err := s.ruleUploads(ctx, q, orgID, in, nil, nil)
	if err != nil {
		return nil, err
	}
	return s.ruleIssuesOf(in, accounts, uploads), nil
}

// ruleIssuesOf are the issues of the per-network rules for a post with its uploads read.
func (s *Service) ruleIssuesOf(in *postInput, accounts map[app.Network]*app.SocialAccount, uploads map[string]*app.Upload) []app.Issue {
	postDate := in.postDate
	if in.keepDate {
		postDate = s.now() // an edit that keeps a due post's date is not refused for that date
	}
	return app.CheckPostRules(app.PostRuleInput{Data: &in.data, SocialAccountTypes: in.types, Status: string(in.status),
		PostDate: postDate, Now: s.now(), Accounts: accounts, Uploads: uploads, FirstComment: in.firstComment})
}

// teamAccounts answers the team's live accounts by network.
func (s *Service) teamAccounts(ctx context.Context, q *store.Queries, orgID, teamID string) (map[app.Network]*app.SocialAccount, map[app.Network]store.SocialAccount, error) {
	rows, err := q.ListTeamSocialAccounts(ctx, store.ListTeamSocialAccountsParams{OrganizationID: orgID, TeamIds: []string{teamID}})
	if err != nil {
		return nil, nil, fmt.Errorf("app: team accounts: %w", err)
	}
	out, raw := accountsByNetwork(rows)
	return out, raw, nil
}

// accountsByNetwork indexes a team's live accounts (at most one per network) by network.
func accountsByNetwork(rows []store.SocialAccount) (map[app.Network]*app.SocialAccount, map[app.Network]store.SocialAccount) {
	out, raw := map[app.Network]*app.SocialAccount{}, map[app.Network]store.SocialAccount{}
	for _, r := range rows {
		a := app.SocialAccountFromRow(r)
		out[a.Type], raw[a.Type] = &a, r
	}
	return out, raw
}

// checkQuotas refuses (403) a post that would pass the plan's monthly posts or an account's daily
// cap on the post's UTC day. Call with the organization's quota lock held.
func (s *Service) checkQuotas(ctx context.Context, q *store.Queries, orgID string, counting bool, postID *string, postDate time.Time,
	types []app.Network, accounts map[app.Network]*app.SocialAccount) error {
	if counting {
		org, err := q.GetOrganization(ctx, orgID)
		if err != nil {
			return app.NotFoundOr(err, "Organization", "app: post quota")
		}
		limit := app.LimitsOf(app.Plan(org.Plan)).MonthlyPosts
		now := s.now().UTC()
		month := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
		used, err := q.CountPostsSince(ctx, store.CountPostsSinceParams{OrganizationID: orgID, Since: &month})
		if err != nil {
			return fmt.Errorf("app: post quota: %w", err)
		}
		if int(used) >= limit {
			return app.Errorf(app.EForbidden, "Monthly post limit reached: the %s plan allows %d posts a month (%d used); more can be scheduled from the first of next month (UTC)",
				org.Plan, limit, used)
		}
	}
	day := postDate.UTC()
	from := time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, time.UTC)
	to := from.AddDate(0, 0, 1)
	for _, n := range types {
		a := accounts[n]
		if a == nil {
			continue
		}
		limit := app.DailyCapsOf(n).Posts
		used, err := q.CountAccountTargetsOnDay(ctx, store.CountAccountTargetsOnDayParams{SocialAccountID: &a.ID, Kinds: []string{app.TargetPost},
			DayFrom: &from, DayTo: &to, ExceptPost: postID})
		if err != nil {
			return fmt.Errorf("app: daily limit: %w", err)
		}
		if int(used) >= limit {
			return app.Errorf(app.EForbidden, "Daily post limit reached for the %s account on %s: %d posts a day (dailyPostLimit)",
				n.DisplayName(), from.Format("2006-01-02"), limit)
		}
	}
	return nil
}

// postInput merges p over an existing post (nil for a create) and checks the fields the
// contract cannot.
func (s *Service) postInput(cur *app.Post, p app.PostParams) (*postInput, error) {
	in := &postInput{}
	if cur != nil {
		in.title, in.referenceKey, in.status, in.types, in.data, in.firstComment = cur.Title, cur.ReferenceKey, cur.Status, cur.SocialAccountTypes, cur.Data, cur.FirstComment
		if cur.PostDate != nil {
			in.postDate = *cur.PostDate
		}
	}
	if p.Title != nil {
		in.title = *p.Title
	}
	if p.ReferenceKey != nil {
		in.referenceKey = p.ReferenceKey
	}
	if p.ClearReferenceKey {
		in.referenceKey = nil
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
		in.types = uniqueNetworks(p.SocialAccountTypes)
	}
	if p.Data != nil {
		in.data = *p.Data
	}
	if p.FirstCommentSet {
		in.firstComment = p.FirstComment
	}
	var issues []app.Issue
	if strings.TrimSpace(in.title) == "" {
		issues = append(issues, app.StringMin(1, "title"))
	}
	issues = app.CheckMax(issues, in.title, app.MaxPostTitle, "title")
	switch in.status {
	case app.PostDraft, app.PostScheduled, app.PostReview:
	default:
		issues = append(issues, app.Issue{Code: app.IssueInvalidEnumValue, Path: []any{"status"},
			Message: fmt.Sprintf("Invalid enum value. Expected 'DRAFT' | 'SCHEDULED' | 'REVIEW', received '%s'", in.status)})
	}
	if len(in.types) == 0 {
		issues = append(issues, app.Issue{Code: app.IssueTooSmall, Message: "Array must contain at least 1 element(s)", Path: []any{"socialAccountTypes"}})
	}
	for i, n := range in.types {
		if !n.Valid() {
			issues = append(issues, app.Issue{Code: app.IssueInvalidEnumValue, Message: "Invalid enum value '" + string(n) + "'", Path: []any{"socialAccountTypes", i}})
		}
	}
	for n := range in.firstComment {
		if !containsNetwork(in.types, n) {
			issues = append(issues, app.Issue{Code: app.IssueCustom, Message: "firstComment names a network the post does not publish to", Path: []any{"firstComment", string(n)}})
		}
	}
	if len(issues) > 0 {
		sort.SliceStable(issues, func(i, j int) bool { return fmt.Sprint(issues[i].Path) < fmt.Sprint(issues[j].Path) })
		return nil, issuesError(issues)
	}
	for _, n := range in.types {
		in.data.EnsurePayload(n)
	}
	applyPostDefaults(&in.data)
	return in, nil
}

func containsNetwork(ns []app.Network, n app.Network) bool {
	for _, x := range ns {
		if x == n {
			return true
		}
	}
	return false
}

func firstCommentJSON(fc map[app.Network]string) []byte {
	clean := map[app.Network]string{}
	for n, t := range fc {
		if strings.TrimSpace(t) != "" {
			clean[n] = t
		}
	}
	if len(clean) == 0 {
		return nil
	}
	b, _ := json.Marshal(clean)
	return b
}

func (s *Service) referenceKeyConflict(err error, op string) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" && strings.Contains(pgErr.ConstraintName, "reference_key") {
		return errReferenceKeyTaken()
	}
	return fmt.Errorf("%s: %w", op, err)
}
