package app

import (
	"context"
	"time"

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
			Kinds: []string{TargetComment, TargetFirstComment}, DayFrom: &from, DayTo: &to})
		return int(n), err
	}
}
