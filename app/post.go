package app

import (
	"context"
	"encoding/json"
	"time"

	"github.com/crier/crier/store"
)

// Posts: the types of the nine /post operations, which package publishing runs. A post has one
// publish target per network (publish_targets, kind POST), each with its own status, attempt
// record, outcome and error; the pipeline (publishing.Service.PublishTarget) publishes targets,
// and the post's status follows its targets.
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
	// TargetWaiting is a first comment's target before its post target is POSTED.
	TargetWaiting PostStatus = "WAITING"
)

// PostStatuses are the spec's eight post statuses.
var PostStatuses = []PostStatus{PostDraft, PostScheduled, PostPosted, PostError, PostDeleted, PostProcessing, PostReview, PostRetrying}

// Target kinds.
const (
	TargetPost         = "POST"
	TargetComment      = "COMMENT"
	TargetFirstComment = "FIRST_COMMENT"
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
	// StoredData is data as stored, set instead of Data for a reader that renders it from there
	// (the API's GET post and post list: publishing's GetPostStored and ListPostsStored), or
	// besides it (a post just created or edited: the API answers from it, the dashboard reads Data).
	StoredData json.RawMessage `json:"-"`
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
			Kinds: []string{TargetPost}, DayFrom: &from, DayTo: &to})
		return int(n), err
	}
}

// EnsurePayload gives data an empty payload for n when it has none (a network named only in
// socialAccountTypes publishes with the defaults).
func (d *PostData) EnsurePayload(n Network) {
	if s := SpecOf(n); s != nil && s.NewPayload != nil && d.Of(n) == nil {
		d.Set(n, s.NewPayload())
	}
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
