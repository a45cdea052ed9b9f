package app

import (
	"context"
	"errors"
	"io"
	"time"
)

// Publishing through the adapters. An adapter that can publish implements Publisher beside
// Adapter (checked with a type assertion); one that can reply to its posts (first comments and
// Crier's comments) implements Replier.
//
// Never twice: the pipeline records an attempt (with AttemptKey) before calling Publish, and after
// a crash it calls Find before publishing again. Adapters help in three ways: they send AttemptKey as
// the network's idempotency key where one exists (Mastodon's Idempotency-Key); they report each
// durable step of a multi-step publish through Checkpoint (a created media container, the first
// tweet of a thread) so a second attempt resumes from Resume instead of repeating the step; and
// Find looks the post up on the network (by the checkpointed id, else by recent posts of the
// account matching the text) so an attempt whose answer was lost is reconciled, not re-posted.

// Publisher publishes posts to a network.
type Publisher interface {
	// Publish creates the post. Async media flows (containers, processing) are polled inside,
	// bounded by ctx. An error is a *NetworkError (classified) or a plain error (treated as
	// transient).
	Publish(ctx context.Context, t *Token, req *PublishRequest) (*Published, error)
	// Find answers the post an earlier attempt of req made, or nil (no error) when the network
	// holds none. It is called only for a target whose previous attempt's outcome is unknown.
	Find(ctx context.Context, t *Token, req *PublishRequest) (*Published, error)
	// Delete removes a published post; ErrNotSupported when the network does not allow it.
	Delete(ctx context.Context, t *Token, req *DeleteRequest) error
}

// Replier publishes replies under a post or a comment (first comments, Crier's comments).
type Replier interface {
	Reply(ctx context.Context, t *Token, req *ReplyRequest) (*Published, error)
}

// ErrNotSupported: the network does not offer the operation (deleting a TikTok video, replying on
// Pinterest). The pipeline records it as a permanent refusal with the adapter's message.
var ErrNotSupported = errors.New("not supported by the network")

// PublishRequest is one target of a post, resolved for its network.
type PublishRequest struct {
	// AttemptKey is unique per (post, network) and stable across retries of the same target.
	AttemptKey string
	PostID     string
	Network    Network
	// Account is the connected account (ExternalID, Username; Channels with the chosen one).
	Account *SocialAccount
	// Channel is the destination inside the account: the selected page/location/channel (set-channel),
	// or for Discord/Slack the payload's channelId, for Reddit the subreddit, for Pinterest the board
	// found by name. Nil when the account itself is the destination.
	Channel *Channel
	// Payload is this network's payload (*x.Payload, *reddit.Payload …) with defaults applied.
	Payload Payload
	// Media are the payload's uploads in order, resolved.
	Media []MediaFile
	// Thumbnail is the payload's thumbnail upload when it names one.
	Thumbnail *MediaFile
	// More are uploads the payload names outside its main media (X thread tweets), by upload id.
	More map[string]MediaFile
	// Resume holds what Checkpoint recorded in earlier attempts of this target.
	Resume map[string]string
	// Checkpoint durably records a step (key → value) before the adapter goes on; the value is in
	// Resume on the next attempt. An error from Checkpoint must abort the publish.
	Checkpoint func(ctx context.Context, key, value string) error
}

// Checkpointed reports a recorded step (nil-safe helper for adapters).
func (r *PublishRequest) Checkpointed(key string) string {
	if r == nil || r.Resume == nil {
		return ""
	}
	return r.Resume[key]
}

// Save records a step through Checkpoint (and in Resume, so a later step in the same attempt sees it).
func (r *PublishRequest) Save(ctx context.Context, key, value string) error {
	if r.Resume == nil {
		r.Resume = map[string]string{}
	}
	r.Resume[key] = value
	if r.Checkpoint == nil {
		return nil
	}
	return r.Checkpoint(ctx, key, value)
}

// MediaFile is an upload ready to send: networks that pull media fetch URL (public, signed, valid
// for hours); networks that take bytes read Open.
type MediaFile struct {
	UploadID string
	Type     string // image | video | document
	Mime     string
	Ext      string
	Size     int64
	Width    int
	Height   int
	Duration time.Duration // videos
	AltText  string
	URL      string
	Open     func(ctx context.Context) (io.ReadCloser, error)
}

// Published is where the post landed.
type Published struct {
	ExternalID string
	Permalink  string
	// Extra keeps further ids (thread tweets, a media container) for delete and analytics.
	Extra map[string]string
}

// DeleteRequest names a published post.
type DeleteRequest struct {
	Network    Network
	Account    *SocialAccount
	Channel    *Channel
	ExternalID string
	Extra      map[string]string
}

// ReplyRequest is a reply under a published post or comment.
type ReplyRequest struct {
	AttemptKey string
	Account    *SocialAccount
	Channel    *Channel
	// ParentExternalID is the post or comment replied to.
	ParentExternalID string
	// ParentExtra is the parent's Published.Extra (a Bluesky cid, a Reddit fullname …).
	ParentExtra map[string]string
	Text        string
	Resume      map[string]string
	Checkpoint  func(ctx context.Context, key, value string) error
}
