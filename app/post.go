package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/riverqueue/river"

	"github.com/crier/crier/store"
)

// Posts: the nine /post operations. A post has one publish target per network (publish_targets,
// kind POST), each with its own status, attempt record, outcome and error; the pipeline
// (publish.go) publishes targets, and the post's status follows its targets.
//
// Statuses: DRAFT (no job) · REVIEW (awaiting an ADMIN/OWNER: ApprovePost → SCHEDULED, RejectPost →
// DRAFT with a note) · SCHEDULED (one River job per target at postDate) · PROCESSING · RETRYING ·
// POSTED (every target posted) · ERROR (every target final, at least one failed) · DELETED.

// PostStatus is a post's (or a target's) status.
type PostStatus string

const (
	PostDraft      PostStatus = "DRAFT"
	PostScheduled  PostStatus = "SCHEDULED"
	PostReview     PostStatus = "REVIEW"
	PostProcessing PostStatus = "PROCESSING"
	PostRetrying   PostStatus = "RETRYING"
	PostPosted     PostStatus = "POSTED"
	PostError      PostStatus = "ERROR"
	PostDeleted    PostStatus = "DELETED"
	// targetWaiting is a first comment's target before its post target is POSTED.
	targetWaiting PostStatus = "WAITING"
)

// PostStatuses are the spec's eight post statuses.
var PostStatuses = []PostStatus{PostDraft, PostScheduled, PostPosted, PostError, PostDeleted, PostProcessing, PostReview, PostRetrying}

// Target kinds.
const (
	targetPost         = "POST"
	targetComment      = "COMMENT"
	targetFirstComment = "FIRST_COMMENT"
)

// Defaults of GET /post.
const DefaultPostListLimit = 10

// Post is the spec's Post record. JSON is what the API answers (and what post.published carries);
// Uploads, SocialAccounts and Targets are filled on get and list for the transports.
type Post struct {
	ID                 string                    `json:"id"`
	TeamID             string                    `json:"teamId"`
	OrganizationID     *string                   `json:"organizationId"`
	Title              string                    `json:"title"`
	ReferenceKey       *string                   `json:"referenceKey"`
	PostDate           *time.Time                `json:"postDate"`
	PostedDate         *time.Time                `json:"postedDate"`
	Status             PostStatus                `json:"status"`
	Data               PostData                  `json:"data"`
	Error              *string                   `json:"error"`
	Errors             map[Network]*string       `json:"errors"`
	ErrorsVerbose      map[Network]*ErrorVerbose `json:"errorsVerbose,omitempty"`
	ExternalData       map[Network]*ExternalRef  `json:"externalData"`
	RetryCount         int                       `json:"retryCount"`
	FirstComment       map[Network]string        `json:"firstComment"`
	SocialAccountTypes []Network                 `json:"socialAccountTypes"`
	ReviewNote         *string                   `json:"reviewNote"`
	CreatedAt          time.Time                 `json:"createdAt"`
	UpdatedAt          time.Time                 `json:"updatedAt"`
	DeletedAt          *time.Time                `json:"deletedAt"`

	Uploads        []PostUploadLink        `json:"-"`
	SocialAccounts []PostSocialAccountLink `json:"-"`
	Targets        []PostTarget            `json:"-"`
}

// ErrorVerbose is a network's own error detail (errorsVerbose entries).
type ErrorVerbose struct {
	Code              *string `json:"code"`
	ErrorMessage      *string `json:"errorMessage"`
	IsTransient       *bool   `json:"isTransient"`
	Retryability      *string `json:"retryability"` // retryable | non_retryable | unknown
	HTTPStatus        *int    `json:"httpStatus"`
	Meta              any     `json:"meta"`
	UserFacingMessage *string `json:"userFacingMessage"`
}

// ExternalRef is where a target landed.
type ExternalRef struct {
	ID        *string `json:"id"`
	Permalink *string `json:"permalink"`
}

// PostUploadLink is an upload a post uses (get and list).
type PostUploadLink struct {
	PostID, UploadID     string
	CreatedAt, UpdatedAt time.Time
	DeletedAt            *time.Time
	Upload               Upload
}

// PostSocialAccountLink is an account a post publishes through (get and list).
type PostSocialAccountLink struct {
	PostID, SocialAccountID string
	CreatedAt, UpdatedAt    time.Time
	SocialAccount           SocialAccount
}

// PostTarget is one network of a post as the dashboard shows it (per-network status, permalink,
// verbose error, next attempt).
type PostTarget struct {
	ID              string
	Kind            string // POST | FIRST_COMMENT | COMMENT
	Network         Network
	SocialAccountID *string
	Status          PostStatus
	Attempts        int
	NextAttemptAt   *time.Time
	ExternalID      *string
	Permalink       *string
	Error           *string
	ErrorVerbose    *ErrorVerbose
	PostedAt        *time.Time
}

// PostParams is the body of POST /post and PATCH /post/{id}. On update nil fields are kept.
type PostParams struct {
	TeamID       string // create only
	Title        *string
	ReferenceKey *string
	// ClearReferenceKey removes the reference key (PATCH with referenceKey: null).
	ClearReferenceKey  bool
	PostDate           *string // ISO 8601
	Status             *PostStatus
	SocialAccountTypes []Network
	Data               *PostData
	// FirstComment per network; FirstCommentSet says the field was sent (null clears it).
	FirstComment    map[Network]string
	FirstCommentSet bool
}

// PostFilter is GET /post's query.
type PostFilter struct {
	TeamID       string
	Status       *PostStatus
	OrderBy      string // createdAt (default) | updatedAt | postDate | postedDate | deletedAt
	Order        string // ASC | DESC (default)
	Q            *string
	Platforms    []Network
	PostDateFrom *time.Time
	PostDateTo   *time.Time
}

func init() {
	usageCounters[UsagePosts] = func(ctx context.Context, q *store.Queries, orgID string, since time.Time) (int, error) {
		n, err := q.CountPostsSince(ctx, store.CountPostsSinceParams{OrganizationID: orgID, Since: &since})
		return int(n), err
	}
	dailyUsageCounters[UsagePosts] = func(ctx context.Context, q *store.Queries, accountID string, from, to time.Time) (int, error) {
		n, err := q.CountAccountTargetsOnDay(ctx, store.CountAccountTargetsOnDayParams{SocialAccountID: &accountID,
			Kinds: []string{targetPost}, DayFrom: &from, DayTo: &to})
		return int(n), err
	}
	scheduledPostsUsing = func(ctx context.Context, q *store.Queries, orgID string, ids []string) (map[string][]string, error) {
		rows, err := q.ScheduledPostsUsing(ctx, store.ScheduledPostsUsingParams{OrganizationID: orgID, UploadIds: ids})
		if err != nil {
			return nil, err
		}
		out := map[string][]string{}
		for _, r := range rows {
			out[r.UploadID] = append(out[r.UploadID], r.PostID)
		}
		return out, nil
	}
}

// parsePostDate reads an ISO 8601 date-time (with or without fractional seconds, Z or an offset).
func parsePostDate(raw, field string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999Z0700", "2006-01-02T15:04Z07:00", "2006-01-02T15:04:05"} {
		if t, err := time.Parse(layout, raw); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, Invalid("Validation failed: "+field+": Invalid date", Issue{Code: IssueInvalidDate, Message: "Invalid date", Path: []any{field}})
}

// ensurePayload gives data an empty payload for n when it has none (a network named only in
// socialAccountTypes publishes with the defaults).
func (d *PostData) ensurePayload(n Network) {
	if s := SpecOf(n); s != nil && s.NewPayload != nil && d.Of(n) == nil {
		d.Set(n, s.NewPayload())
	}
}

// applyPostDefaults writes each payload's defaults into it.
func applyPostDefaults(d *PostData) {
	for _, n := range d.Networks() {
		if p, ok := d.Of(n).(Defaulter); ok {
			p.SetDefaults()
		}
	}
}

// payloadOf decodes a target's stored payload into its network's type.
func payloadOf(n Network, raw []byte) (Payload, error) {
	b, err := json.Marshal(map[Network]json.RawMessage{n: raw})
	if err != nil {
		return nil, err
	}
	var d PostData
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, err
	}
	p := d.Of(n)
	if p == nil {
		return nil, fmt.Errorf("app: no payload for %s", n)
	}
	return p, nil
}

func uniqueNetworks(in []Network) []Network {
	seen := map[Network]bool{}
	var out []Network
	for _, n := range in {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

func networkStrings(in []Network) []string {
	out := make([]string, len(in))
	for i, n := range in {
		out[i] = string(n)
	}
	return out
}

func issuesError(issues []Issue) error {
	first := issues[0]
	parts := make([]string, len(first.Path))
	for i, p := range first.Path {
		parts[i] = fmt.Sprint(p)
	}
	return Invalid("Validation failed: "+strings.Join(parts, ".")+": "+first.Message, issues...)
}

// postInput is a create or update resolved and checked.
type postInput struct {
	// keepDate: an update that changes neither the date nor the status keeps a scheduled post's
	// date even once it has passed (the post is due and publishes now).
	keepDate     bool
	title        string
	referenceKey *string
	postDate     time.Time
	status       PostStatus
	types        []Network
	data         PostData
	firstComment map[Network]string
}

// checkPost validates a post's content against the team with the per-network rules
// (post_rules.go and each network's rules.go): accounts, channels, uploads, text limits, dates.
func (s *Service) checkPost(ctx context.Context, q *store.Queries, orgID, teamID string, in *postInput, accounts map[Network]*SocialAccount) error {
	ids := ruleUploadIDs(&in.data)
	uploads := map[string]*Upload{}
	if len(ids) > 0 {
		rows, err := q.UploadsOf(ctx, store.UploadsOfParams{OrganizationID: orgID, Ids: ids})
		if err != nil {
			return fmt.Errorf("app: post uploads: %w", err)
		}
		for _, r := range rows {
			uploads[r.ID] = s.uploadFromRow(ctx, r)
		}
	}
	postDate := in.postDate
	if in.keepDate {
		postDate = s.now() // an edit that keeps a due post's date is not refused for that date
	}
	issues := checkPostRules(PostRuleInput{Data: &in.data, SocialAccountTypes: in.types, Status: string(in.status),
		PostDate: postDate, Now: s.now(), Accounts: accounts, Uploads: uploads, FirstComment: in.firstComment})
	if len(issues) > 0 {
		return issuesError(issues)
	}
	return nil
}

// teamAccounts answers the team's live accounts by network.
func (s *Service) teamAccounts(ctx context.Context, q *store.Queries, orgID, teamID string) (map[Network]*SocialAccount, map[Network]store.SocialAccount, error) {
	rows, err := q.ListTeamSocialAccounts(ctx, store.ListTeamSocialAccountsParams{OrganizationID: orgID, TeamIds: []string{teamID}})
	if err != nil {
		return nil, nil, fmt.Errorf("app: team accounts: %w", err)
	}
	out, raw := map[Network]*SocialAccount{}, map[Network]store.SocialAccount{}
	for _, r := range rows {
		a := socialAccountFromRow(r)
		out[a.Type], raw[a.Type] = &a, r
	}
	return out, raw, nil
}

// checkQuotas refuses (403) a post that would pass the plan's monthly posts or an account's daily
// cap on the post's UTC day. Call with the organization's quota lock held.
func (s *Service) checkQuotas(ctx context.Context, q *store.Queries, orgID string, counting bool, postID *string, postDate time.Time,
	types []Network, accounts map[Network]*SocialAccount) error {
	if counting {
		org, err := q.GetOrganization(ctx, orgID)
		if err != nil {
			return notFoundOr(err, "Organization", "app: post quota")
		}
		limit := LimitsOf(Plan(org.Plan)).MonthlyPosts
		now := s.now().UTC()
		month := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
		used, err := q.CountPostsSince(ctx, store.CountPostsSinceParams{OrganizationID: orgID, Since: &month})
		if err != nil {
			return fmt.Errorf("app: post quota: %w", err)
		}
		if int(used) >= limit {
			return Errorf(EForbidden, "Monthly post limit reached: the %s plan allows %d posts a month (%d used); upgrade the plan or wait for next month",
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
		limit := DailyCapsOf(n).Posts
		used, err := q.CountAccountTargetsOnDay(ctx, store.CountAccountTargetsOnDayParams{SocialAccountID: &a.ID, Kinds: []string{targetPost},
			DayFrom: &from, DayTo: &to, ExceptPost: postID})
		if err != nil {
			return fmt.Errorf("app: daily limit: %w", err)
		}
		if int(used) >= limit {
			return Errorf(EForbidden, "Daily post limit reached for the %s account on %s: %d posts a day (dailyPostLimit)",
				n.DisplayName(), from.Format("2006-01-02"), limit)
		}
	}
	return nil
}

// CreatePost creates a post (DRAFT, REVIEW or SCHEDULED). A scheduled post counts in the monthly
// quota and gets one River job per network at postDate, in the same transaction.
func (s *Service) CreatePost(ctx context.Context, p PostParams) (*Post, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActContent)
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
		if _, err := q.GetTeam(ctx, store.GetTeamParams{ID: p.TeamID, OrganizationID: pr.OrganizationID}); err != nil {
			return notFoundOr(err, "Team", "app: create post")
		}
		accounts, _, err := s.teamAccounts(ctx, q, pr.OrganizationID, p.TeamID)
		if err != nil {
			return err
		}
		if err := s.checkPost(ctx, q, pr.OrganizationID, p.TeamID, in, accounts); err != nil {
			return err
		}
		if err := s.checkReferenceKey(ctx, q, pr.OrganizationID, in.referenceKey, ""); err != nil {
			return err
		}
		var counted *time.Time
		if in.status == PostScheduled {
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
		if err := s.syncTargets(ctx, tx, row, in, accounts); err != nil {
			return err
		}
		if err := s.syncPostUploads(ctx, q, row.ID, in); err != nil {
			return err
		}
		return s.audit(ctx, tx, auditBy(pr, auditItem{Action: "post.created", TargetType: "post", TargetID: row.ID,
			Metadata: map[string]any{"status": in.status, "networks": in.types}}))
	})
	if err != nil {
		return nil, err
	}
	return s.getPost(ctx, pr.OrganizationID, postID)
}

// postInput merges p over an existing post (nil for a create) and checks the fields the
// contract cannot.
func (s *Service) postInput(cur *Post, p PostParams) (*postInput, error) {
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
	var issues []Issue
	if strings.TrimSpace(in.title) == "" {
		issues = append(issues, Issue{Code: IssueTooSmall, Message: "String must contain at least 1 character(s)", Path: []any{"title"}})
	}
	switch in.status {
	case PostDraft, PostScheduled, PostReview:
	default:
		issues = append(issues, Issue{Code: IssueInvalidEnumValue, Path: []any{"status"},
			Message: fmt.Sprintf("Invalid enum value. Expected 'DRAFT' | 'SCHEDULED' | 'REVIEW', received '%s'", in.status)})
	}
	if len(in.types) == 0 {
		issues = append(issues, Issue{Code: IssueTooSmall, Message: "Array must contain at least 1 element(s)", Path: []any{"socialAccountTypes"}})
	}
	for i, n := range in.types {
		if !n.Valid() {
			issues = append(issues, Issue{Code: IssueInvalidEnumValue, Message: "Invalid enum value '" + string(n) + "'", Path: []any{"socialAccountTypes", i}})
		}
	}
	for n := range in.firstComment {
		if !containsNetwork(in.types, n) {
			issues = append(issues, Issue{Code: IssueCustom, Message: "firstComment names a network the post does not publish to", Path: []any{"firstComment", string(n)}})
		}
	}
	if len(issues) > 0 {
		sort.SliceStable(issues, func(i, j int) bool { return fmt.Sprint(issues[i].Path) < fmt.Sprint(issues[j].Path) })
		return nil, issuesError(issues)
	}
	for _, n := range in.types {
		in.data.ensurePayload(n)
	}
	applyPostDefaults(&in.data)
	return in, nil
}

func containsNetwork(ns []Network, n Network) bool {
	for _, x := range ns {
		if x == n {
			return true
		}
	}
	return false
}

func firstCommentJSON(fc map[Network]string) []byte {
	clean := map[Network]string{}
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

func (s *Service) checkReferenceKey(ctx context.Context, q *store.Queries, orgID string, key *string, self string) error {
	if key == nil {
		return nil
	}
	row, err := q.GetPostByReferenceKey(ctx, store.GetPostByReferenceKeyParams{OrganizationID: orgID, ReferenceKey: key})
	if err == nil && row.ID != self {
		return Invalid("Validation failed: referenceKey: A post with this referenceKey already exists",
			Issue{Code: IssueCustom, Message: "A post with this referenceKey already exists", Path: []any{"referenceKey"}})
	}
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("app: reference key: %w", err)
	}
	return nil
}

func (s *Service) referenceKeyConflict(err error, op string) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" && strings.Contains(pgErr.ConstraintName, "reference_key") {
		return Invalid("Validation failed: referenceKey: A post with this referenceKey already exists",
			Issue{Code: IssueCustom, Message: "A post with this referenceKey already exists", Path: []any{"referenceKey"}})
	}
	return fmt.Errorf("%s: %w", op, err)
}

// syncTargets makes the post's targets match in: one POST target per network (and a WAITING
// FIRST_COMMENT target per first comment), each rescheduled (new version) with the post's status
// and date; targets no longer wanted (a network no longer named, a first comment removed) are
// removed unless they reached the network. A SCHEDULED post gets one job per POST target at
// postDate.
func (s *Service) syncTargets(ctx context.Context, tx pgx.Tx, post store.Post, in *postInput, accounts map[Network]*SocialAccount) error {
	q := s.q.WithTx(tx)
	existing, err := q.ListPostTargets(ctx, []string{post.ID})
	if err != nil {
		return fmt.Errorf("app: post targets: %w", err)
	}
	type key struct {
		kind string
		n    Network
	}
	have := map[key]store.PublishTarget{}
	for _, t := range existing {
		have[key{t.Kind, Network(t.Network)}] = t
	}
	want := map[key]bool{}
	for _, n := range in.types {
		var acct *string
		if a := accounts[n]; a != nil {
			acct = &a.ID
		}
		due := in.postDate
		targets := []struct {
			kind    string
			status  PostStatus
			payload []byte
		}{{targetPost, in.status, in.data.Raw(n)}}
		if text := in.firstComment[n]; strings.TrimSpace(text) != "" {
			b, _ := json.Marshal(map[string]string{"text": text})
			st := targetWaiting
			if in.status != PostScheduled {
				st = in.status
			}
			targets = append(targets, struct {
				kind    string
				status  PostStatus
				payload []byte
			}{targetFirstComment, st, b})
		}
		for _, tg := range targets {
			want[key{tg.kind, n}] = true
			var row store.PublishTarget
			if t, ok := have[key{tg.kind, n}]; ok && reachedNetwork(t) {
				// Published (or maybe): what is on the network stays as it is; an edit of a partly
				// published post (one network failed and was reconnected) applies to the others.
				continue
			} else if ok {
				row, err = q.RescheduleTarget(ctx, store.RescheduleTargetParams{ID: t.ID, Status: string(tg.status), DueAt: &due,
					Payload: tg.payload, SocialAccountID: acct})
			} else {
				attemptKey := post.ID + ":" + strings.ToLower(string(n))
				if tg.kind == targetFirstComment {
					attemptKey += ":first-comment"
				}
				row, err = q.InsertTarget(ctx, store.InsertTargetParams{OrganizationID: post.OrganizationID, Kind: tg.kind, PostID: &post.ID,
					Network: string(n), SocialAccountID: acct, Status: string(tg.status), Payload: tg.payload, AttemptKey: attemptKey, DueAt: &due})
			}
			if err != nil {
				return fmt.Errorf("app: post target: %w", err)
			}
			if tg.kind == targetPost && tg.status == PostScheduled {
				if err := s.enqueueTarget(ctx, tx, row, in.postDate); err != nil {
					return err
				}
			}
		}
	}
	for k, t := range have {
		if !want[k] && !reachedNetwork(t) {
			if err := q.DeleteTarget(ctx, t.ID); err != nil {
				return fmt.Errorf("app: post target: %w", err)
			}
		}
	}
	return nil
}

// reachedNetwork says a target was published, or may have been (an attempt in flight or of
// unknown outcome): its row is the record of what is on the network, so it is never deleted.
func reachedNetwork(t store.PublishTarget) bool {
	return t.Status == string(PostPosted) || t.Status == string(PostProcessing) || t.ExternalID != nil ||
		t.AttemptStartedAt != nil || t.OutcomeUnknown
}

// enqueueTarget inserts the publish job of a target version, due at.
func (s *Service) enqueueTarget(ctx context.Context, tx pgx.Tx, t store.PublishTarget, at time.Time) error {
	opts := &river.InsertOpts{} // River takes the queue and attempts from PublishTargetArgs.InsertOpts
	if at.After(s.now()) {
		opts.ScheduledAt = at
	}
	if _, err := s.jobs.InsertTx(ctx, tx, publishArgs(t), opts); err != nil {
		return fmt.Errorf("app: enqueue publish: %w", err)
	}
	return nil
}

func (s *Service) syncPostUploads(ctx context.Context, q *store.Queries, postID string, in *postInput) error {
	ids := []string{}
	seen := map[string]bool{}
	for _, n := range in.types {
		if p := in.data.Of(n); p != nil {
			for _, id := range p.Uploads() {
				if !seen[id] && isUUID(id) {
					seen[id] = true
					ids = append(ids, id)
				}
			}
		}
	}
	if err := q.ReplacePostUploads(ctx, store.ReplacePostUploadsParams{PostID: postID, UploadIds: ids}); err != nil {
		return fmt.Errorf("app: post uploads: %w", err)
	}
	return nil
}

// GetPost answers a post of the caller's organization (deleted ones too, with status DELETED),
// with its uploads, social accounts and per-network targets.
func (s *Service) GetPost(ctx context.Context, id string) (*Post, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, err
	}
	return s.getPost(ctx, pr.OrganizationID, id)
}

func (s *Service) getPost(ctx context.Context, orgID, id string) (*Post, error) {
	row, err := s.q.GetPost(ctx, store.GetPostParams{ID: id, OrganizationID: orgID})
	if err != nil {
		return nil, notFoundOr(err, "Post", "app: get post")
	}
	out, err := s.postViews(ctx, s.q, []store.Post{row}, true)
	if err != nil {
		return nil, err
	}
	return &out[0], nil
}

// GetPostByReferenceKey answers the live post with a reference key.
func (s *Service) GetPostByReferenceKey(ctx context.Context, key string) (*Post, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, err
	}
	row, err := s.q.GetPostByReferenceKey(ctx, store.GetPostByReferenceKeyParams{OrganizationID: pr.OrganizationID, ReferenceKey: &key})
	if err != nil {
		return nil, notFoundOr(err, "Post", "app: post by reference key")
	}
	out, err := s.postViews(ctx, s.q, []store.Post{row}, true)
	if err != nil {
		return nil, err
	}
	return &out[0], nil
}

// ListPosts answers a page of a team's posts matching f, with the total.
func (s *Service) ListPosts(ctx context.Context, f PostFilter, page Page) ([]Post, int, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, 0, err
	}
	if err := page.validate(); err != nil {
		return nil, 0, err
	}
	if _, err := s.q.GetTeam(ctx, store.GetTeamParams{ID: f.TeamID, OrganizationID: pr.OrganizationID}); err != nil {
		return nil, 0, notFoundOr(err, "Team", "app: list posts")
	}
	lf := store.PostListFilter{OrganizationID: pr.OrganizationID, TeamID: f.TeamID, OrderBy: f.OrderBy, Descending: f.Order != "ASC",
		Q: f.Q, Platforms: networkStrings(f.Platforms), PostDateFrom: f.PostDateFrom, PostDateTo: f.PostDateTo, Offset: page.Offset, Limit: page.Limit}
	if f.Status != nil {
		st := string(*f.Status)
		lf.Status = &st
	}
	ids, total, err := store.ListPostIDs(ctx, s.db, lf)
	if err != nil {
		return nil, 0, err
	}
	if len(ids) == 0 {
		return []Post{}, total, nil
	}
	rows, err := s.q.GetPostsByIDs(ctx, ids)
	if err != nil {
		return nil, 0, fmt.Errorf("app: list posts: %w", err)
	}
	byID := map[string]store.Post{}
	for _, r := range rows {
		byID[r.ID] = r
	}
	ordered := make([]store.Post, 0, len(ids))
	for _, id := range ids {
		ordered = append(ordered, byID[id])
	}
	out, err := s.postViews(ctx, s.q, ordered, true)
	return out, total, err
}

// postViews builds the records of posts: targets become errors, externalData and (when the
// organization shows verbose errors) errorsVerbose; links adds uploads and social accounts.
func (s *Service) postViews(ctx context.Context, q *store.Queries, rows []store.Post, links bool) ([]Post, error) {
	return s.postViewsWith(ctx, q, rows, nil, nil, links)
}

// postViewsWith is postViews with the posts' targets and the organization's showVerboseErrors
// already read (nil: read them).
func (s *Service) postViewsWith(ctx context.Context, q *store.Queries, rows []store.Post, targets []store.PublishTarget, verbose *bool, links bool) ([]Post, error) {
	if len(rows) == 0 {
		return []Post{}, nil
	}
	var err error
	if verbose == nil {
		org, err := q.GetOrganization(ctx, rows[0].OrganizationID)
		if err != nil {
			return nil, notFoundOr(err, "Organization", "app: post view")
		}
		verbose = &org.ShowVerboseErrors
	}
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	if targets == nil {
		if targets, err = q.ListPostTargets(ctx, ids); err != nil {
			return nil, fmt.Errorf("app: post targets: %w", err)
		}
	}
	byPost := map[string][]store.PublishTarget{}
	for _, t := range targets {
		byPost[*t.PostID] = append(byPost[*t.PostID], t)
	}
	var upLinks map[string][]PostUploadLink
	var accounts map[string]SocialAccount
	if links {
		if upLinks, err = s.postUploadLinks(ctx, q, rows[0].OrganizationID, ids); err != nil {
			return nil, err
		}
		accs, err := q.ListTeamSocialAccounts(ctx, store.ListTeamSocialAccountsParams{OrganizationID: rows[0].OrganizationID, TeamIds: teamIDsOf(rows)})
		if err != nil {
			return nil, fmt.Errorf("app: post accounts: %w", err)
		}
		accounts = map[string]SocialAccount{}
		for _, a := range accs {
			accounts[a.ID] = socialAccountFromRow(a)
		}
	}
	out := make([]Post, len(rows))
	for i, r := range rows {
		p := postFromRow(r)
		p.Targets, p.ExternalData, p.Errors, p.ErrorsVerbose = targetFields(byPost[r.ID], targetPost, *verbose)
		if links {
			p.Uploads = upLinks[r.ID]
			if p.Uploads == nil {
				p.Uploads = []PostUploadLink{}
			}
			p.SocialAccounts = []PostSocialAccountLink{}
			for _, t := range byPost[r.ID] {
				if t.Kind != targetPost || t.SocialAccountID == nil {
					continue
				}
				if a, ok := accounts[*t.SocialAccountID]; ok {
					p.SocialAccounts = append(p.SocialAccounts, PostSocialAccountLink{PostID: r.ID, SocialAccountID: a.ID,
						CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt, SocialAccount: a})
				}
			}
		}
		out[i] = p
	}
	return out, nil
}

func teamIDsOf(rows []store.Post) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range rows {
		if !seen[r.TeamID] {
			seen[r.TeamID] = true
			out = append(out, r.TeamID)
		}
	}
	return out
}

func (s *Service) postUploadLinks(ctx context.Context, q *store.Queries, orgID string, postIDs []string) (map[string][]PostUploadLink, error) {
	links, err := q.ListPostUploadLinks(ctx, postIDs)
	if err != nil {
		return nil, fmt.Errorf("app: post uploads: %w", err)
	}
	if len(links) == 0 {
		return map[string][]PostUploadLink{}, nil
	}
	ids := make([]string, 0, len(links))
	for _, l := range links {
		ids = append(ids, l.UploadID)
	}
	ups, err := q.UploadsOf(ctx, store.UploadsOfParams{OrganizationID: orgID, Ids: ids})
	if err != nil {
		return nil, fmt.Errorf("app: post uploads: %w", err)
	}
	byID := map[string]*Upload{}
	for _, u := range ups {
		byID[u.ID] = s.uploadFromRow(ctx, u)
	}
	out := map[string][]PostUploadLink{}
	for _, l := range links {
		if u := byID[l.UploadID]; u != nil {
			out[l.PostID] = append(out[l.PostID], PostUploadLink{PostID: l.PostID, UploadID: l.UploadID, CreatedAt: l.CreatedAt,
				UpdatedAt: l.UpdatedAt, DeletedAt: l.DeletedAt, Upload: *u})
		}
	}
	return out, nil
}

func postFromRow(r store.Post) Post {
	p := Post{ID: r.ID, TeamID: r.TeamID, OrganizationID: &r.OrganizationID, Title: r.Title, ReferenceKey: r.ReferenceKey,
		PostedDate: r.PostedDate, Status: PostStatus(r.Status), Error: r.Error, RetryCount: int(r.RetryCount), ReviewNote: r.ReviewNote,
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, DeletedAt: r.DeletedAt}
	d := r.PostDate
	p.PostDate = &d
	_ = json.Unmarshal(r.Data, &p.Data)
	if r.FirstComment != nil {
		_ = json.Unmarshal(r.FirstComment, &p.FirstComment)
	}
	for _, n := range r.SocialAccountTypes {
		p.SocialAccountTypes = append(p.SocialAccountTypes, Network(n))
	}
	return p
}

func targetFromRow(t store.PublishTarget) PostTarget {
	out := PostTarget{ID: t.ID, Kind: t.Kind, Network: Network(t.Network), SocialAccountID: t.SocialAccountID, Status: PostStatus(t.Status),
		Attempts: int(t.Attempts), NextAttemptAt: t.NextAttemptAt, ExternalID: t.ExternalID, Permalink: t.Permalink, Error: t.Error, PostedAt: t.PostedAt}
	if t.ErrorVerbose != nil {
		var v ErrorVerbose
		if json.Unmarshal(t.ErrorVerbose, &v) == nil {
			out.ErrorVerbose = &v
		}
	}
	return out
}

// targetFields are the per-network fields of a post or comment record: all its targets, and where
// the targets of kind (POST for a post, COMMENT for a comment) landed or why they failed
// (errorsVerbose only when verbose).
func targetFields(targets []store.PublishTarget, kind string, verbose bool) (all []PostTarget, external map[Network]*ExternalRef,
	errs map[Network]*string, errsVerbose map[Network]*ErrorVerbose) {
	all = make([]PostTarget, 0, len(targets))
	var firstComments []PostTarget // a post's first comments that failed: shown under their network unless the post failed there too
	for _, t := range targets {
		pt := targetFromRow(t)
		all = append(all, pt)
		if kind == targetPost && t.Kind == targetFirstComment && t.Error != nil {
			firstComments = append(firstComments, pt)
		}
		if t.Kind != kind {
			continue
		}
		n := Network(t.Network)
		if t.ExternalID != nil || t.Permalink != nil {
			if external == nil {
				external = map[Network]*ExternalRef{}
			}
			external[n] = &ExternalRef{ID: t.ExternalID, Permalink: t.Permalink}
		}
		if t.Error != nil {
			if errs == nil {
				errs = map[Network]*string{}
			}
			errs[n] = t.Error
			if verbose && pt.ErrorVerbose != nil {
				if errsVerbose == nil {
					errsVerbose = map[Network]*ErrorVerbose{}
				}
				errsVerbose[n] = pt.ErrorVerbose
			}
		}
	}
	for _, fc := range firstComments {
		if _, failed := errs[fc.Network]; failed {
			continue
		}
		if errs == nil {
			errs = map[Network]*string{}
		}
		msg := "First comment: " + *fc.Error
		errs[fc.Network] = &msg
		if verbose && fc.ErrorVerbose != nil {
			if errsVerbose == nil {
				errsVerbose = map[Network]*ErrorVerbose{}
			}
			errsVerbose[fc.Network] = fc.ErrorVerbose
		}
	}
	return all, external, errs, errsVerbose
}

// UpdatePost changes a DRAFT, REVIEW or SCHEDULED post. A new date or status reschedules: every
// target gets a new version (jobs already queued become no-ops) and a SCHEDULED post new jobs.
func (s *Service) UpdatePost(ctx context.Context, id string, p PostParams) (*Post, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, err
	}
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		row, err := q.GetPostForUpdate(ctx, store.GetPostForUpdateParams{ID: id, OrganizationID: pr.OrganizationID})
		if err != nil {
			return notFoundOr(err, "Post", "app: update post")
		}
		switch st := PostStatus(row.Status); {
		case st.Editable():
		case st == PostDeleted:
			return NotFound("Post")
		default:
			return Invalid("Validation failed: status: A "+row.Status+" post cannot be edited",
				Issue{Code: IssueCustom, Message: "A " + row.Status + " post cannot be edited", Path: []any{"status"}})
		}
		cur := postFromRow(row)
		in, err := s.postInput(&cur, p)
		if err != nil {
			return err
		}
		in.keepDate = p.PostDate == nil && in.status == PostStatus(row.Status)
		accounts, _, err := s.teamAccounts(ctx, q, pr.OrganizationID, row.TeamID)
		if err != nil {
			return err
		}
		if err := s.checkPost(ctx, q, pr.OrganizationID, row.TeamID, in, accounts); err != nil {
			return err
		}
		if err := s.checkReferenceKey(ctx, q, pr.OrganizationID, in.referenceKey, row.ID); err != nil {
			return err
		}
		counted := row.CountedAt
		if in.status == PostScheduled {
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
		return s.audit(ctx, tx, auditBy(pr, auditItem{Action: "post.updated", TargetType: "post", TargetID: row.ID,
			Metadata: map[string]any{"status": in.status}}))
	})
	if err != nil {
		return nil, err
	}
	return s.getPost(ctx, pr.OrganizationID, id)
}

// DeletePost deletes a post: queued jobs become no-ops (their targets get a new version), its
// uploads are released, and where it was POSTED it is deleted on the network when the network
// allows it (a refusal or ErrNotSupported leaves the network's copy, recorded on the target).
func (s *Service) DeletePost(ctx context.Context, id string) (*Post, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, err
	}
	var posted []store.PublishTarget
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		row, err := q.GetPostForUpdate(ctx, store.GetPostForUpdateParams{ID: id, OrganizationID: pr.OrganizationID})
		if err != nil {
			return notFoundOr(err, "Post", "app: delete post")
		}
		if row.DeletedAt != nil {
			return NotFound("Post")
		}
		targets, err := q.ListPostTargets(ctx, []string{row.ID})
		if err != nil {
			return fmt.Errorf("app: delete post: %w", err)
		}
		for _, t := range targets {
			switch PostStatus(t.Status) {
			case PostPosted:
				if t.Kind == targetPost {
					posted = append(posted, t)
				}
			case PostProcessing:
				// In flight: its outcome is still recorded when it comes back (never lost).
			default:
				if _, err := q.SetTargetStatus(ctx, store.SetTargetStatusParams{ID: t.ID, Status: string(PostDeleted)}); err != nil {
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
		return s.audit(ctx, tx, auditBy(pr, auditItem{Action: "post.deleted", TargetType: "post", TargetID: row.ID}))
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
	n := Network(t.Network)
	fail := func(msg string) {
		_, _ = s.q.TargetFailed(ctx, store.TargetFailedParams{ID: t.ID, Status: string(PostPosted), Error: &msg})
	}
	if t.SocialAccountID == nil || t.ExternalID == nil {
		return
	}
	a, err := s.adapter(n)
	if err != nil {
		return
	}
	pub, ok := a.(Publisher)
	if !ok {
		fail("Deleting on " + n.DisplayName() + " is not available")
		return
	}
	row, err := s.q.GetSocialAccountAny(ctx, store.GetSocialAccountAnyParams{ID: *t.SocialAccountID, OrganizationID: t.OrganizationID})
	if err != nil {
		fail("The " + n.DisplayName() + " account is gone; the post stays on the network")
		return
	}
	acct := socialAccountFromRow(row)
	var extra map[string]string
	_ = json.Unmarshal(t.Extra, &extra)
	_, err = s.withToken(ctx, row, func(tok *Token) error {
		return pub.Delete(ctx, tok, &DeleteRequest{Network: n, Account: &acct, Channel: SelectedChannel(&acct, nil), ExternalID: *t.ExternalID, Extra: extra})
	})
	if err != nil {
		msg := "Not deleted on " + n.DisplayName() + ": " + err.Error()
		if errors.Is(err, ErrNotSupported) {
			msg = n.DisplayName() + " does not allow deleting posts through its API; the post stays on the network"
		}
		fail(msg)
		return
	}
	_, _ = s.q.SetTargetStatus(ctx, store.SetTargetStatusParams{ID: t.ID, Status: string(PostDeleted)})
}

// RetryPost re-runs the failed (ERROR) network targets of a post, now; POSTED ones are left alone.
func (s *Service) RetryPost(ctx context.Context, id string) (*Post, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, err
	}
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		row, err := q.GetPostForUpdate(ctx, store.GetPostForUpdateParams{ID: id, OrganizationID: pr.OrganizationID})
		if err != nil || row.DeletedAt != nil {
			return notFoundOr(errOr(err, pgx.ErrNoRows), "Post", "app: retry post")
		}
		targets, err := q.ListPostTargets(ctx, []string{row.ID})
		if err != nil {
			return fmt.Errorf("app: retry post: %w", err)
		}
		accounts, _, err := s.teamAccounts(ctx, q, pr.OrganizationID, row.TeamID)
		if err != nil {
			return err
		}
		n := 0
		now := s.now().UTC()
		for _, t := range targets {
			if t.Status != string(PostError) || t.Kind == targetComment {
				continue
			}
			acct := t.SocialAccountID
			if a := accounts[Network(t.Network)]; a != nil {
				acct = &a.ID
			}
			nt, err := q.RescheduleTarget(ctx, store.RescheduleTargetParams{ID: t.ID, Status: string(PostScheduled), DueAt: &now, Payload: t.Payload, SocialAccountID: acct})
			if err != nil {
				return fmt.Errorf("app: retry post: %w", err)
			}
			if err := s.enqueueTarget(ctx, tx, nt, now); err != nil {
				return err
			}
			n++
		}
		if n == 0 {
			return Invalid("Validation failed: status: Only a post with failed networks can be retried",
				Issue{Code: IssueCustom, Message: "Only a post with failed networks can be retried (status " + row.Status + ")", Path: []any{"status"}})
		}
		if _, err := q.BumpPostRetry(ctx, row.ID); err != nil {
			return fmt.Errorf("app: retry post: %w", err)
		}
		return s.audit(ctx, tx, auditBy(pr, auditItem{Action: "post.retried", TargetType: "post", TargetID: row.ID, Metadata: map[string]any{"targets": n}}))
	})
	if err != nil {
		return nil, err
	}
	return s.getPost(ctx, pr.OrganizationID, id)
}

func errOr(err, fallback error) error {
	if err != nil {
		return err
	}
	return fallback
}

// lockPostInReview locks a live post of the organization for a review decision (done: "approved",
// "sent back"); only a post in REVIEW can take one.
func lockPostInReview(ctx context.Context, q *store.Queries, orgID, id, done string) (store.Post, error) {
	row, err := q.GetPostForUpdate(ctx, store.GetPostForUpdateParams{ID: id, OrganizationID: orgID})
	if err != nil || row.DeletedAt != nil {
		return row, notFoundOr(errOr(err, pgx.ErrNoRows), "Post", "app: review post")
	}
	if row.Status != string(PostReview) {
		msg := "Only a post in REVIEW can be " + done
		return row, Invalid("Validation failed: status: "+msg, Issue{Code: IssueCustom, Message: msg, Path: []any{"status"}})
	}
	return row, nil
}

// ApprovePost schedules a post awaiting review (ADMIN or OWNER). A date already past publishes now.
func (s *Service) ApprovePost(ctx context.Context, id string) (*Post, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActReviewPosts)
	if err != nil {
		return nil, err
	}
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		row, err := lockPostInReview(ctx, q, pr.OrganizationID, id, "approved")
		if err != nil {
			return err
		}
		cur := postFromRow(row)
		in, err := s.postInput(&cur, PostParams{Status: ptr(PostScheduled)})
		if err != nil {
			return err
		}
		if in.postDate.Before(s.now()) {
			in.postDate = s.now().UTC()
		}
		accounts, _, err := s.teamAccounts(ctx, q, pr.OrganizationID, row.TeamID)
		if err != nil {
			return err
		}
		if err := s.checkPost(ctx, q, pr.OrganizationID, row.TeamID, in, accounts); err != nil {
			return err
		}
		if err := q.LockOrganizationQuota(ctx, pr.OrganizationID); err != nil {
			return fmt.Errorf("app: approve post: %w", err)
		}
		if err := s.checkQuotas(ctx, q, pr.OrganizationID, row.CountedAt == nil, &row.ID, in.postDate, in.types, accounts); err != nil {
			return err
		}
		now := s.now().UTC()
		counted := row.CountedAt
		if counted == nil {
			counted = &now
		}
		updated, err := q.UpdatePost(ctx, store.UpdatePostParams{ID: row.ID, Title: row.Title, ReferenceKey: row.ReferenceKey, PostDate: in.postDate,
			Status: string(PostScheduled), SocialAccountTypes: row.SocialAccountTypes, Data: row.Data, FirstComment: row.FirstComment, CountedAt: counted})
		if err != nil {
			return fmt.Errorf("app: approve post: %w", err)
		}
		if err := s.syncTargets(ctx, tx, updated, in, accounts); err != nil {
			return err
		}
		return s.audit(ctx, tx, auditBy(pr, auditItem{Action: "post.approved", TargetType: "post", TargetID: row.ID}))
	})
	if err != nil {
		return nil, err
	}
	return s.getPost(ctx, pr.OrganizationID, id)
}

// RejectPost sends a post awaiting review back to DRAFT with a note (ADMIN or OWNER).
func (s *Service) RejectPost(ctx context.Context, id, note string) (*Post, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActReviewPosts)
	if err != nil {
		return nil, err
	}
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		row, err := lockPostInReview(ctx, q, pr.OrganizationID, id, "sent back")
		if err != nil {
			return err
		}
		cur := postFromRow(row)
		in, err := s.postInput(&cur, PostParams{Status: ptr(PostDraft)})
		if err != nil {
			return err
		}
		updated, err := q.UpdatePost(ctx, store.UpdatePostParams{ID: row.ID, Title: row.Title, ReferenceKey: row.ReferenceKey, PostDate: row.PostDate,
			Status: string(PostDraft), SocialAccountTypes: row.SocialAccountTypes, Data: row.Data, FirstComment: row.FirstComment,
			CountedAt: row.CountedAt, ReviewNote: nonEmpty(note)})
		if err != nil {
			return fmt.Errorf("app: reject post: %w", err)
		}
		accounts, _, err := s.teamAccounts(ctx, q, pr.OrganizationID, row.TeamID)
		if err != nil {
			return err
		}
		if err := s.syncTargets(ctx, tx, updated, in, accounts); err != nil {
			return err
		}
		return s.audit(ctx, tx, auditBy(pr, auditItem{Action: "post.rejected", TargetType: "post", TargetID: row.ID, Metadata: map[string]any{"note": note}}))
	})
	if err != nil {
		return nil, err
	}
	return s.getPost(ctx, pr.OrganizationID, id)
}

func ptr[T any](v T) *T { return &v }

// Editable reports whether a post in this status can still be edited (PATCH, the composer).
func (s PostStatus) Editable() bool { return s == PostDraft || s == PostReview || s == PostScheduled }

// ReconnectCandidate is a post that reconnect-social-account can re-attach.
type ReconnectCandidate struct {
	ID        string
	Title     string
	PostDate  *time.Time
	Status    PostStatus
	CreatedAt time.Time
	UpdatedAt time.Time
}

// ReconnectCandidates lists a team's live posts to a network whose target is not attached to the
// team's current account of that network, or failed (e.g. while the account was disconnected).
func (s *Service) ReconnectCandidates(ctx context.Context, teamID string, n Network, page Page) ([]ReconnectCandidate, int, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, 0, err
	}
	if err := page.validate(); err != nil {
		return nil, 0, err
	}
	acct, err := s.accountByType(ctx, s.q, pr.OrganizationID, teamID, n)
	if err != nil {
		return nil, 0, err
	}
	rows, err := s.q.ReconnectCandidates(ctx, store.ReconnectCandidatesParams{OrganizationID: pr.OrganizationID, TeamID: teamID, Type: string(n),
		AccountID: acct.ID, Lim: int32(page.Limit), Off: int32(page.Offset)})
	if err != nil {
		return nil, 0, fmt.Errorf("app: reconnect candidates: %w", err)
	}
	out := make([]ReconnectCandidate, 0, len(rows))
	total := 0
	for _, r := range rows {
		d := r.PostDate
		out = append(out, ReconnectCandidate{ID: r.ID, Title: r.Title, PostDate: &d, Status: PostStatus(r.Status), CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt})
		total = int(r.Total)
	}
	if len(rows) == 0 && page.Offset > 0 {
		all, err := s.q.ReconnectCandidates(ctx, store.ReconnectCandidatesParams{OrganizationID: pr.OrganizationID, TeamID: teamID, Type: string(n),
			AccountID: acct.ID, Lim: 1, Off: 0})
		if err == nil && len(all) > 0 {
			total = int(all[0].Total)
		}
	}
	return out, total, nil
}

// ReconnectResult is one post of a reconnect-social-account.
type ReconnectResult struct {
	PostID       string
	Title        *string
	Success      bool
	StatusBefore PostStatus
	StatusAfter  PostStatus
	Message      string
}

// ReconnectSummary is the answer of reconnect-social-account.
type ReconnectSummary struct {
	Total, Succeeded, Failed int
	Results                  []ReconnectResult
}

// ReconnectSocialAccount re-attaches the team's posts to a network (postIds, or every candidate) to
// the team's current account of it; failed targets are scheduled again (now, or at postDate when it
// is still ahead).
func (s *Service) ReconnectSocialAccount(ctx context.Context, teamID string, n Network, postIDs []string) (*ReconnectSummary, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, err
	}
	acct, err := s.accountByType(ctx, s.q, pr.OrganizationID, teamID, n)
	if err != nil {
		return nil, err
	}
	if postIDs == nil {
		rows, err := s.q.ReconnectCandidates(ctx, store.ReconnectCandidatesParams{OrganizationID: pr.OrganizationID, TeamID: teamID, Type: string(n),
			AccountID: acct.ID, Lim: 1000, Off: 0})
		if err != nil {
			return nil, fmt.Errorf("app: reconnect: %w", err)
		}
		for _, r := range rows {
			postIDs = append(postIDs, r.ID)
		}
	}
	out := &ReconnectSummary{Results: []ReconnectResult{}}
	for _, id := range postIDs {
		res := ReconnectResult{PostID: id}
		err := store.InTx(ctx, s.db, func(tx pgx.Tx) error {
			q := s.q.WithTx(tx)
			row, err := q.GetPostForUpdate(ctx, store.GetPostForUpdateParams{ID: id, OrganizationID: pr.OrganizationID})
			if err != nil || row.DeletedAt != nil || row.TeamID != teamID {
				return NotFound("Post")
			}
			res.Title, res.StatusBefore, res.StatusAfter = &row.Title, PostStatus(row.Status), PostStatus(row.Status)
			targets, err := q.ListPostTargets(ctx, []string{row.ID})
			if err != nil {
				return err
			}
			found := false
			rescheduled := false
			for _, t := range targets {
				if Network(t.Network) != n || t.Kind == targetComment {
					continue
				}
				found = true
				switch PostStatus(t.Status) {
				case PostError:
					due := row.PostDate
					if due.Before(s.now()) {
						due = s.now().UTC()
					}
					nt, err := q.RescheduleTarget(ctx, store.RescheduleTargetParams{ID: t.ID, Status: string(PostScheduled), DueAt: &due, Payload: t.Payload, SocialAccountID: &acct.ID})
					if err != nil {
						return err
					}
					if t.Kind == targetPost {
						if err := s.enqueueTarget(ctx, tx, nt, due); err != nil {
							return err
						}
						rescheduled = true
					}
				case PostPosted, PostProcessing, PostDeleted:
				default:
					if _, err := q.SetTargetAccount(ctx, store.SetTargetAccountParams{ID: t.ID, SocialAccountID: &acct.ID}); err != nil {
						return err
					}
				}
			}
			if !found {
				return Invalid("The post does not publish to " + n.DisplayName())
			}
			if rescheduled {
				if _, err := q.SetPostStatus(ctx, store.SetPostStatusParams{ID: row.ID, Status: string(PostScheduled)}); err != nil {
					return err
				}
				res.StatusAfter = PostScheduled
			}
			return nil
		})
		out.Total++
		if err != nil {
			res.Message = ErrorMessage(err)
			out.Failed++
		} else {
			res.Success = true
			res.Message = "Attached to the " + n.DisplayName() + " account"
			out.Succeeded++
		}
		out.Results = append(out.Results, res)
	}
	return out, nil
}
