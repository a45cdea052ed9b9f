// Package pubutil holds what the publishing code of several adapters shares: polling an async
// media flow within ctx, the attempt marker Find relies on, refusals as permanent network errors,
// and reading an upload's bytes; and the chat networks' (Discord, Slack) shared payload and rules.
package pubutil

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/crier/crier/app"
)

// AttemptKey is the checkpoint saved right before a network's final publish call: Find only looks
// for posts when it is set (a target whose attempt never reached the network has nothing to find),
// and only among posts created after it (less Skew).
const AttemptKey = "attempt.at"

// Skew is the clock difference allowed between Crier and the network when matching by time.
const Skew = 2 * time.Minute

// MarkAttempt records the first attempt's time (kept across retries) before the final call.
func MarkAttempt(ctx context.Context, req *app.PublishRequest) error {
	if req.Checkpointed(AttemptKey) != "" {
		return nil
	}
	return req.Save(ctx, AttemptKey, time.Now().UTC().Format(time.RFC3339Nano))
}

// AttemptAt is when the first attempt reached the final call (false when none did).
func AttemptAt(req *app.PublishRequest) (time.Time, bool) {
	t, err := time.Parse(time.RFC3339Nano, req.Checkpointed(AttemptKey))
	if err != nil {
		return time.Time{}, false
	}
	return t, true
}

// After says whether a network's creation time is at or after the attempt (less Skew).
func After(created, attempt time.Time) bool {
	return !created.Before(attempt.Add(-Skew))
}

// SameText compares texts as networks echo them (trimmed, CRLF as LF).
func SameText(a, b string) bool {
	norm := func(s string) string { return strings.TrimSpace(strings.ReplaceAll(s, "\r\n", "\n")) }
	return norm(a) == norm(b)
}

// Refused is a permanent error of ours about a request the network would refuse (no media, no
// channel …), so the pipeline shows the message instead of retrying.
func Refused(n app.Network, format string, args ...any) *app.NetworkError {
	return &app.NetworkError{Network: n, Class: app.ErrPermanent, Code: "crier_refused", Message: fmt.Sprintf(format, args...)}
}

// Chat answers a Discord or Slack post's payload and its channel: the payload's channelId, else
// the account's chosen channel.
func Chat(n app.Network, req *app.PublishRequest) (*ChatPayload, string, error) {
	p, ok := req.Payload.(*ChatPayload)
	if !ok || p == nil {
		return nil, "", Refused(n, "the post has no %s payload", n)
	}
	channel := p.ChannelID
	if channel == "" && req.Channel != nil {
		channel = req.Channel.ID
	}
	if channel == "" {
		return nil, "", Refused(n, "no channelId")
	}
	return p, channel, nil
}

// Poller waits between polls of an async flow: Every at first, growing by half up to Max.
type Poller struct {
	Every, Max time.Duration
}

// InlineWait is the longest pause a Poller sleeps inside an attempt. A longer one ends the attempt
// with *Yield instead: a worker does not sit idle for seconds while a network processes media;
// the pipeline runs the target again when the pause is over and the adapter resumes from its
// checkpoints (every flow that polls has checkpointed what it made before it polls).
var InlineWait = time.Second

// Yield ends an attempt that would wait longer than InlineWait: look again at Until.
type Yield struct{ Until time.Time }

func (y *Yield) Error() string {
	return "still processing; look again at " + y.Until.Format(time.RFC3339)
}

// Wait sleeps before poll i (0-based), answers *Yield when the pause is longer than InlineWait,
// or ctx's error.
func (p Poller) Wait(ctx context.Context, i int) error {
	d := p.Every
	if d <= 0 {
		d = time.Second
	}
	for ; i > 0; i-- {
		d += d / 2
		if p.Max > 0 && d >= p.Max {
			d = p.Max
			break
		}
	}
	if d > InlineWait {
		return &Yield{Until: time.Now().Add(d)}
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// StillProcessing ends an attempt whose flow has not finished: after a Poller's Yield it is
// app.ErrProcessing (look again at the Yield's time), otherwise (the attempt's context ended) a
// transient error. Either way the next attempt resumes from the checkpoints.
func StillProcessing(n app.Network, what string, err error) *app.NetworkError {
	ne := &app.NetworkError{Network: n, Class: app.ErrTransient, Code: "crier_processing", Message: what + " is still processing", Err: err}
	var y *Yield
	if errors.As(err, &y) {
		ne.Class, ne.ResetAt = app.ErrProcessing, y.Until
	}
	return ne
}

// Bytes reads an upload.
func Bytes(ctx context.Context, m app.MediaFile) ([]byte, error) {
	if m.Open == nil {
		return nil, fmt.Errorf("upload %s cannot be read", m.UploadID)
	}
	rc, err := m.Open(ctx)
	if err != nil {
		return nil, fmt.Errorf("upload %s: %w", m.UploadID, err)
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

// Kinds counts the images and videos among media.
func Kinds(media []app.MediaFile) (images, videos int) {
	for _, m := range media {
		switch {
		case m.Type == "video" || strings.HasPrefix(m.Mime, "video/"):
			videos++
		default:
			images++
		}
	}
	return images, videos
}

// IsVideo says whether an upload is a video.
func IsVideo(m app.MediaFile) bool { return m.Type == "video" || strings.HasPrefix(m.Mime, "video/") }

// Nearest picks, among candidates matching a target, the one created nearest the attempt (within
// Skew before it, or any time after): when several targets post the same text to one account, each
// finds the post its own attempt made rather than the first one listed.
type Nearest struct {
	At    time.Time
	Index int // -1 until a candidate is offered
	dist  time.Duration
}

// NewNearest starts a search around the attempt's time.
func NewNearest(at time.Time) *Nearest { return &Nearest{At: at, Index: -1} }

// Offer considers candidate i created at created.
func (n *Nearest) Offer(i int, created time.Time) {
	if !After(created, n.At) {
		return
	}
	d := created.Sub(n.At)
	if d < 0 {
		d = -d
	}
	if n.Index < 0 || d < n.dist {
		n.Index, n.dist = i, d
	}
}
