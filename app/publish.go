package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/storage"
	"github.com/crier/crier/store"
)

// The publishing pipeline: one River job per target version (PublishTargetArgs), run by
// jobs.publishWorker through PublishTarget. README "Posts" describes the protocol.
//
// Never twice:
//
//	tx1  lock the owner (post or comment) then the target; a stale version or a final target
//	     completes the job and stops. attempt_started_at still set (a worker died mid-call) or
//	     outcome_unknown (a failure that may have reached the network) → this attempt reconciles:
//	     Publisher.Find runs before anything is published. Record attempt_started_at, attempts,
//	     PROCESSING; commit.
//	call the adapter outside any transaction; Checkpoint persists each durable step in its own
//	     statement. A cancelled context (shutdown, kill) writes nothing: the attempt stays open and
//	     River's retry (or its rescue of a stuck job) reconciles it.
//	tx2  lock owner and target; write the outcome (POSTED / RETRYING / ERROR, attempt_started_at
//	     cleared); release first comments; finalise the owner when every target is final
//	     (post.published / comment.published in the same transaction); complete the River job in
//	     the same transaction (river.JobCompleteTx, through complete).

// maxPublishAttempts is how many attempts a network's transient failures get (each a new job,
// RETRYING in between); River's own retries of one job are publishJobMaxAttempts (jobs.go).
const maxPublishAttempts = 8

func publishArgs(t store.PublishTarget) PublishTargetArgs {
	return PublishTargetArgs{TargetID: t.ID, Version: int(t.Version), PostID: deref(t.PostID), CommentID: deref(t.CommentID)}
}

// PublishRetryAt is when the next attempt after a transient failure runs: 30 s doubling per
// attempt, at most 30 min (30 s, 1 min, 2 min, 4 min, 8 min, 16 min, 30 min).
func PublishRetryAt(attempts int, now time.Time) time.Time {
	d := 30 * time.Second
	for i := 1; i < attempts && d < 30*time.Minute; i++ {
		d *= 2
	}
	return now.Add(min(d, 30*time.Minute))
}

// ReplyFinder is implemented by Repliers that can look up a reply an earlier attempt made (so a
// reply whose outcome is unknown is reconciled rather than given up on).
type ReplyFinder interface {
	FindReply(ctx context.Context, t *Token, req *ReplyRequest) (*Published, error)
}

// ErrAttemptInFlight: another worker may still be making this target's attempt (started less than
// the lease ago); the job waits (snoozes) until Until rather than risk a second publish.
type ErrAttemptInFlight struct{ Until time.Time }

func (e *ErrAttemptInFlight) Error() string {
	return "app: an attempt of this target may still be in flight until " + e.Until.Format(time.RFC3339)
}

// DefaultPublishLease is how long an attempt is presumed alive: longer than the worker's timeout
// (jobs.publishWorker), so only a dead worker's attempt is ever reconciled.
const DefaultPublishLease = 16 * time.Minute

// CompleteFunc completes the running River job inside tx (river.JobCompleteTx).
type CompleteFunc func(ctx context.Context, tx pgx.Tx) error

// attempt is what tx1 hands to the network call.
type attempt struct {
	target    store.PublishTarget
	reconcile bool
	startedAt time.Time
}

var finalTargetStatuses = map[PostStatus]bool{PostPosted: true, PostError: true, PostDeleted: true}

// PublishTarget runs one job of the pipeline for a target version. complete is called in the
// transaction that writes the job's outcome (or finds nothing to do).
func (s *Service) PublishTarget(ctx context.Context, args PublishTargetArgs, complete CompleteFunc) error {
	targetID, version := args.TargetID, args.Version
	var at *attempt
	err := store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		owner := store.PublishTarget{ID: targetID, PostID: nonEmpty(args.PostID), CommentID: nonEmpty(args.CommentID)}
		if owner.PostID == nil && owner.CommentID == nil {
			t0, err := q.GetTarget(ctx, targetID)
			if errors.Is(err, pgx.ErrNoRows) {
				return complete(ctx, tx) // the target was removed (network dropped from the post)
			}
			if err != nil {
				return fmt.Errorf("app: publish: %w", err)
			}
			owner = t0
		}
		locked, err := s.lockOwner(ctx, q, owner)
		if errors.Is(err, pgx.ErrNoRows) {
			return complete(ctx, tx) // the owner is gone, and its targets with it
		}
		if err != nil {
			return err
		}
		t, err := q.GetTargetForUpdate(ctx, targetID)
		if errors.Is(err, pgx.ErrNoRows) {
			return complete(ctx, tx) // the target was removed (network dropped from the post)
		}
		if err != nil {
			return fmt.Errorf("app: publish: %w", err)
		}
		st := PostStatus(t.Status)
		if int(t.Version) != version || locked.deleted || (st != PostScheduled && st != PostRetrying && st != PostProcessing) {
			return complete(ctx, tx) // stale job (rescheduled, retried, deleted) or nothing left to do
		}
		now := s.now().UTC().Truncate(time.Microsecond) // as PostgreSQL stores it (AbandonAttempt compares)
		if t.AttemptStartedAt != nil && now.Before(t.AttemptStartedAt.Add(s.publishLease)) {
			return &ErrAttemptInFlight{Until: t.AttemptStartedAt.Add(s.publishLease)}
		}
		a := &attempt{reconcile: t.AttemptStartedAt != nil || t.OutcomeUnknown, startedAt: now}
		started, err := q.StartAttempt(ctx, store.StartAttemptParams{ID: t.ID, StartedAt: &now}) // and the owner PROCESSING
		if err != nil {
			return fmt.Errorf("app: publish: %w", err)
		}
		a.target = store.PublishTarget(started)
		at = a
		return nil
	})
	if err != nil || at == nil {
		return err
	}

	pub, callErr := s.callNetwork(ctx, at)
	if ctx.Err() != nil {
		// Cancelled mid-call (shutdown, kill): the outcome is unknown. Close the attempt as
		// outcome_unknown (no worker runs it now) so River's retry reconciles it at once; if even
		// that fails, attempt_started_at stays and the lease decides.
		s.abandonAttempt(ctx, targetID, at.startedAt)
		return fmt.Errorf("app: publish %s interrupted: %w", targetID, ctx.Err())
	}
	var orphan *store.PublishTarget
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		return s.recordOutcome(ctx, tx, at, pub, callErr, complete, &orphan)
	})
	if err != nil {
		// The outcome could not be written (database trouble): no worker runs this attempt any
		// more, so close it as unknown and let River's retry reconcile it rather than wait out the lease.
		s.abandonAttempt(ctx, targetID, at.startedAt)
		return err
	}
	if orphan != nil {
		// The post (or comment) was deleted while this target was being published: now that the
		// network's copy is recorded, delete it there too.
		s.deleteOnNetwork(ctx, *orphan)
	}
	return nil
}

// abandonAttempt closes an attempt whose outcome is unknown (no worker runs it any more), even when
// ctx is already cancelled; if that fails too, attempt_started_at stays and the lease decides.
func (s *Service) abandonAttempt(ctx context.Context, targetID string, startedAt time.Time) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	_, _ = s.q.AbandonAttempt(cctx, store.AbandonAttemptParams{ID: targetID, StartedAt: &startedAt})
}

// lockedOwner is a target's owner as tx1 and tx2 lock it.
type lockedOwner struct {
	deleted bool
	post    *store.Post // nil for a comment's target
	verbose bool        // the organization's showVerboseErrors (a post's event view)
}

// lockOwner locks the post or comment of a target (always before the target: one lock order) and
// answers it, so the outcome's transaction settles the post without reading it again.
func (s *Service) lockOwner(ctx context.Context, q *store.Queries, t store.PublishTarget) (lockedOwner, error) {
	if t.PostID != nil {
		p, err := q.LockPostByID(ctx, *t.PostID)
		if err != nil {
			return lockedOwner{}, fmt.Errorf("app: publish: lock post: %w", err)
		}
		return lockedOwner{deleted: p.Post.DeletedAt != nil, post: &p.Post, verbose: p.ShowVerboseErrors}, nil
	}
	c, err := q.LockCommentByID(ctx, *t.CommentID)
	if err != nil {
		return lockedOwner{}, fmt.Errorf("app: publish: lock comment: %w", err)
	}
	return lockedOwner{deleted: c.DeletedAt != nil}, nil
}

// permanent builds a refusal that is Crier's own (no network answer).
func permanent(n Network, msg string) error {
	return &NetworkError{Network: n, Class: ErrPermanent, Message: msg}
}

// callNetwork makes the attempt: Find first when reconciling, then Publish (or Reply).
func (s *Service) callNetwork(ctx context.Context, at *attempt) (*Published, error) {
	t := at.target
	n := Network(t.Network)
	if t.SocialAccountID == nil {
		return nil, permanent(n, "No "+n.DisplayName()+" account is connected to the team")
	}
	row, err := s.q.GetSocialAccount(ctx, store.GetSocialAccountParams{ID: *t.SocialAccountID, OrganizationID: t.OrganizationID})
	if err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return nil, permanent(n, "The "+n.DisplayName()+" account was disconnected; connect it again and retry")
		}
		return nil, err
	}
	a, err := s.adapter(n)
	if err != nil {
		return nil, permanent(n, "Publishing to "+n.DisplayName()+" is not available")
	}
	acct := socialAccountFromRow(row)
	checkpoint := func(ctx context.Context, key, value string) error {
		if _, err := s.q.SaveCheckpoint(ctx, store.SaveCheckpointParams{ID: t.ID, Key: key, Value: value}); err != nil {
			return fmt.Errorf("app: checkpoint %s: %w", key, err)
		}
		return nil
	}
	resume := map[string]string{}
	_ = json.Unmarshal(t.Checkpoints, &resume)

	if t.Kind != targetPost {
		rep, ok := a.(Replier)
		if !ok {
			return nil, permanent(n, "Replying on "+n.DisplayName()+" is not available yet")
		}
		req, err := s.replyRequest(ctx, t, &acct)
		if err != nil {
			return nil, err
		}
		req.Resume, req.Checkpoint = resume, checkpoint
		var out *Published
		_, err = s.withToken(ctx, row, func(tok *Token) error {
			if at.reconcile {
				f, ok := a.(ReplyFinder)
				if !ok {
					return permanent(n, "An earlier attempt's outcome is unknown and "+n.DisplayName()+" cannot be searched for it; not replying again to avoid a duplicate")
				}
				found, err := f.FindReply(ctx, tok, req)
				if err != nil || found != nil {
					out = found
					return err
				}
			}
			var err error
			out, err = rep.Reply(ctx, tok, req)
			return err
		})
		return out, err
	}

	pub, ok := a.(Publisher)
	if !ok {
		return nil, permanent(n, "Publishing to "+n.DisplayName()+" is not available yet")
	}
	req, err := s.publishRequest(ctx, t, &acct)
	if err != nil {
		return nil, err
	}
	req.Resume, req.Checkpoint = resume, checkpoint
	var out *Published
	_, err = s.withToken(ctx, row, func(tok *Token) error {
		if at.reconcile {
			found, err := pub.Find(ctx, tok, req)
			if err != nil || found != nil {
				out = found
				return err
			}
		}
		var err error
		out, err = pub.Publish(ctx, tok, req)
		return err
	})
	return out, err
}

// SelectedChannel answers the account's chosen channel (set-channel), or a named one.
func SelectedChannel(acct *SocialAccount, match func(Channel) bool) *Channel {
	for i := range acct.Channels {
		c := acct.Channels[i]
		if match != nil && match(c) {
			return &c
		}
		if match == nil && acct.ProviderPageID != nil && c.ID == *acct.ProviderPageID {
			return &c
		}
	}
	return nil
}

func (s *Service) publishRequest(ctx context.Context, t store.PublishTarget, acct *SocialAccount) (*PublishRequest, error) {
	n := Network(t.Network)
	payload, err := payloadOf(n, t.Payload)
	if err != nil {
		return nil, permanent(n, "The stored payload cannot be read: "+err.Error())
	}
	req := &PublishRequest{AttemptKey: t.AttemptKey, PostID: deref(t.PostID), Network: n, Account: acct, Payload: payload}
	if cp, ok := payload.(ChannelPicker); ok {
		if req.Channel, err = cp.PublishChannel(n, acct); err != nil {
			return nil, err
		}
	} else {
		req.Channel = SelectedChannel(acct, nil)
	}
	ids := payload.Uploads()
	thumb := thumbnailOf(payload)
	if thumb != "" && isUUID(thumb) {
		ids = append(ids, thumb)
	}
	var more []string
	if mm, ok := payload.(MoreMedia); ok {
		more = mm.MoreUploads()
		ids = append(ids, more...)
	}
	files, err := s.mediaFiles(ctx, t.OrganizationID, ids)
	if err != nil {
		return nil, err
	}
	for _, id := range payload.Uploads() {
		f, ok := files[id]
		if !ok {
			return nil, permanent(n, "Upload "+id+" no longer exists")
		}
		req.Media = append(req.Media, f)
	}
	if f, ok := files[thumb]; ok && thumb != "" {
		req.Thumbnail = &f
	}
	for _, id := range more {
		f, ok := files[id]
		if !ok {
			return nil, permanent(n, "Upload "+id+" no longer exists")
		}
		if req.More == nil {
			req.More = map[string]MediaFile{}
		}
		req.More[id] = f
	}
	applyAltTexts(payload, req.Media)
	return req, nil
}

func thumbnailOf(p Payload) string {
	if t, ok := p.(Thumbnailed); ok {
		return t.ThumbnailRef()
	}
	return ""
}

func applyAltTexts(p Payload, media []MediaFile) {
	if a, ok := p.(AltTexter); ok {
		a.ApplyAltTexts(media)
	}
}

// mediaFiles resolves uploads for networks: a signed URL (networks that pull) and a reader.
func (s *Service) mediaFiles(ctx context.Context, orgID string, ids []string) (map[string]MediaFile, error) {
	out := map[string]MediaFile{}
	if len(ids) == 0 {
		return out, nil
	}
	d := s.uploads
	rows, err := s.q.UploadsOf(ctx, store.UploadsOfParams{OrganizationID: orgID, Ids: ids})
	if err != nil {
		return nil, fmt.Errorf("app: publish media: %w", err)
	}
	for _, r := range rows {
		url, err := d.st.PresignGet(ctx, r.Path, storage.MaxPresignTTL)
		if err != nil {
			return nil, fmt.Errorf("app: publish media: %w", err)
		}
		path := r.Path
		f := MediaFile{UploadID: r.ID, Type: r.Type, Mime: r.Mime, Ext: r.Ext, Size: r.FileSize, URL: url,
			Open: func(ctx context.Context) (io.ReadCloser, error) { return d.st.GetRange(ctx, path, 0, -1) }}
		if r.Width.Valid {
			f.Width, f.Height = int(r.Width.Int32), int(r.Height.Int32)
		}
		if r.VideoLength.Valid {
			f.Duration = time.Duration(r.VideoLength.Float64 * float64(time.Second))
		}
		out[r.ID] = f
	}
	return out, nil
}

// replyRequest resolves a comment or first comment: its text and the parent it replies under.
func (s *Service) replyRequest(ctx context.Context, t store.PublishTarget, acct *SocialAccount) (*ReplyRequest, error) {
	n := Network(t.Network)
	var body struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(t.Payload, &body)
	var parent *store.PublishTarget
	switch {
	case t.Kind == targetFirstComment:
		ts, err := s.q.ListPostTargets(ctx, []string{*t.PostID})
		if err != nil {
			return nil, err
		}
		for i := range ts {
			if ts[i].Kind == targetPost && ts[i].Network == t.Network {
				parent = &ts[i]
			}
		}
	default:
		c, err := s.q.GetCommentByID(ctx, *t.CommentID)
		if err != nil {
			return nil, err
		}
		var ts []store.PublishTarget
		kind := targetPost
		if c.InternalParentCommentID != nil {
			ts, err = s.q.ListCommentTargets(ctx, []string{*c.InternalParentCommentID})
			kind = targetComment
		} else if c.InternalPostID != nil {
			ts, err = s.q.ListPostTargets(ctx, []string{*c.InternalPostID})
		}
		if err != nil {
			return nil, err
		}
		for i := range ts {
			if ts[i].Kind == kind && ts[i].Network == t.Network {
				parent = &ts[i]
			}
		}
	}
	if parent == nil {
		return nil, permanent(n, "The post or comment replied to is not published on "+n.DisplayName())
	}
	if parent.Status != string(PostPosted) || parent.ExternalID == nil {
		if finalTargetStatuses[PostStatus(parent.Status)] {
			return nil, permanent(n, "The post or comment replied to was not published on "+n.DisplayName()+" ("+parent.Status+")")
		}
		return nil, &NetworkError{Network: n, Class: ErrRateLimited, Message: "waiting for the post or comment replied to to be published",
			ResetAt: s.now().Add(30 * time.Second)}
	}
	var extra map[string]string
	_ = json.Unmarshal(parent.Extra, &extra)
	return &ReplyRequest{AttemptKey: t.AttemptKey, Account: acct, Channel: SelectedChannel(acct, nil), ParentExternalID: *parent.ExternalID,
		ParentExtra: extra, Text: body.Text}, nil
}

// verboseOf is the errorsVerbose entry of a failure.
func verboseOf(err error, class ErrorClass) *ErrorVerbose {
	v := &ErrorVerbose{}
	msg := err.Error()
	transient := class == ErrTransient || class == ErrRateLimited
	retry := "non_retryable"
	if transient {
		retry = "retryable"
	}
	v.IsTransient, v.Retryability = &transient, &retry
	var ne *NetworkError
	if errors.As(err, &ne) {
		msg = ne.Message
		if ne.Code != "" {
			v.Code = &ne.Code
		}
		if ne.Status != 0 {
			st := ne.Status
			v.HTTPStatus = &st
		}
		meta := map[string]any{"class": string(ne.Class)}
		if !ne.ResetAt.IsZero() {
			meta["resetAt"] = ne.ResetAt.UTC().Format(time.RFC3339)
		}
		if ne.Err != nil {
			meta["cause"] = ne.Err.Error()
		}
		v.Meta = meta
	}
	v.ErrorMessage = &msg
	user := userFacing(err, class)
	v.UserFacingMessage = &user
	return v
}

func userFacing(err error, class ErrorClass) string {
	var ne *NetworkError
	name := "The network"
	msg := err.Error()
	if errors.As(err, &ne) {
		name, msg = ne.Network.DisplayName(), ne.Message
	}
	switch class {
	case ErrRateLimited:
		return name + " is rate limiting the account; Crier retries after the limit resets"
	case ErrTransient:
		return name + " failed temporarily (" + msg + "); Crier retries automatically"
	case ErrAuthExpired:
		return name + " refused the account's credentials; reconnect the account and retry the post"
	}
	return name + " refused the post: " + msg
}

// recordOutcome is tx2. It sets *orphan to the target when it was POSTED for an owner deleted
// meanwhile (to be deleted on the network once committed).
func (s *Service) recordOutcome(ctx context.Context, tx pgx.Tx, at *attempt, pub *Published, callErr error, complete CompleteFunc, orphan **store.PublishTarget) error {
	q := s.q.WithTx(tx)
	t0 := at.target
	owner, err := s.lockOwner(ctx, q, t0) // the outcome's UPDATE then locks the target
	if err != nil {
		return err
	}
	n := Network(t0.Network)
	now := s.now().UTC()
	var t store.PublishTarget
	var targets []store.PublishTarget // the post's targets once read (settling reads them otherwise)
	if callErr == nil && pub != nil && pub.ExternalID != "" {
		var extra []byte
		if len(pub.Extra) > 0 {
			extra, _ = json.Marshal(pub.Extra)
		}
		t, err = q.TargetPosted(ctx, store.TargetPostedParams{ID: t0.ID, ExternalID: &pub.ExternalID, Permalink: nonEmpty(pub.Permalink), Extra: extra, PostedAt: &now})
		if err != nil {
			return fmt.Errorf("app: publish outcome: %w", err)
		}
		if owner.deleted {
			*orphan = &t
		} else if t.Kind == targetPost {
			if targets, err = q.ListPostTargets(ctx, []string{*t.PostID}); err != nil {
				return fmt.Errorf("app: publish outcome: %w", err)
			}
			if targets, err = s.releaseFirstComments(ctx, tx, t, targets, now); err != nil {
				return err
			}
		}
	} else if until, ok := s.stillProcessing(t0, callErr, now); ok {
		// Not a failure: free the worker and look again when the network should be done.
		t, err = q.TargetWaiting(ctx, store.TargetWaitingParams{ID: t0.ID, NextAttemptAt: &until, Since: now.Format(time.RFC3339)})
		if err != nil {
			return fmt.Errorf("app: publish outcome: %w", err)
		}
		if err := s.enqueueTarget(ctx, tx, t, until); err != nil {
			return err
		}
	} else {
		if callErr == nil {
			callErr = &NetworkError{Network: n, Class: ErrTransient, Message: "the network answered without an id"}
		}
		class := ClassOf(callErr)
		if class == ErrProcessing {
			class = ErrTransient // processing for longer than maxProcessingWait: retried (and counted) as a failure
		}
		var ae *Error
		if errors.As(callErr, &ae) {
			class = ErrPermanent // Crier's own refusal (an account to reconnect …)
		}
		if errors.Is(callErr, ErrNotSupported) {
			class = ErrPermanent
		}
		unknown := false
		var ne *NetworkError
		if class == ErrTransient {
			// A failure without a clear answer may have reached the network: reconcile before retrying.
			unknown = !errors.As(callErr, &ne) || ne.Status == 0 || ne.Status >= 500
		}
		status := PostError
		var next *time.Time
		if (class == ErrTransient || class == ErrRateLimited) && int(t0.Attempts) < maxPublishAttempts {
			status = PostRetrying
			at := PublishRetryAt(int(t0.Attempts), now)
			if errors.As(callErr, &ne) && class == ErrRateLimited && !ne.ResetAt.IsZero() && ne.ResetAt.After(now) {
				at = ne.ResetAt
			}
			next = &at
		}
		msg := callErr.Error()
		if errors.As(callErr, &ne) {
			msg = ne.Message
			if ne.Code != "" {
				msg = ne.Code + ": " + msg
			}
		} else if ae != nil {
			msg = ae.Message
		}
		vb, _ := json.Marshal(verboseOf(callErr, class))
		t, err = q.TargetFailed(ctx, store.TargetFailedParams{ID: t0.ID, Status: string(status), OutcomeUnknown: unknown, Error: &msg,
			ErrorVerbose: vb, NextAttemptAt: next})
		if err != nil {
			return fmt.Errorf("app: publish outcome: %w", err)
		}
		if status == PostRetrying {
			if err := s.enqueueTarget(ctx, tx, t, *next); err != nil {
				return err
			}
		}
	}
	if err := s.settleOwner(ctx, tx, t, owner, targets); err != nil {
		return err
	}
	return complete(ctx, tx)
}

// releaseFirstComments schedules the first comments waiting for posted target t (when it has any)
// and answers targets with their new rows.
func (s *Service) releaseFirstComments(ctx context.Context, tx pgx.Tx, t store.PublishTarget, targets []store.PublishTarget, now time.Time) ([]store.PublishTarget, error) {
	waiting := false
	for _, x := range targets {
		waiting = waiting || (x.Kind == targetFirstComment && x.Network == t.Network && PostStatus(x.Status) == targetWaiting)
	}
	if !waiting {
		return targets, nil
	}
	released, err := s.q.WithTx(tx).ReleaseFirstComments(ctx, store.ReleaseFirstCommentsParams{PostID: t.PostID, Network: t.Network})
	if err != nil {
		return nil, fmt.Errorf("app: first comment: %w", err)
	}
	for _, fc := range released {
		if err := s.enqueueTarget(ctx, tx, fc, now); err != nil {
			return nil, err
		}
		for i := range targets {
			if targets[i].ID == fc.ID {
				targets[i] = fc
			}
		}
	}
	return targets, nil
}

// maxProcessingWait bounds how long a target waits for a network's async processing
// (ErrProcessing) before the wait counts as a transient failure.
const maxProcessingWait = time.Hour

// stillProcessing answers when to look again at a target whose network is still processing,
// unless it has waited longer than maxProcessingWait.
func (s *Service) stillProcessing(t store.PublishTarget, callErr error, now time.Time) (time.Time, bool) {
	var ne *NetworkError
	if !errors.As(callErr, &ne) || ne.Class != ErrProcessing {
		return time.Time{}, false
	}
	var cp map[string]string
	_ = json.Unmarshal(t.Checkpoints, &cp)
	// Each attempt polls afresh, so the adapter's pause does not grow across attempts: the
	// pipeline spaces them by a quarter of the time waited so far (at most 5 minutes).
	pause := time.Second
	if since, err := time.Parse(time.RFC3339, cp["crier.processingSince"]); err == nil {
		if now.Sub(since) > maxProcessingWait {
			return time.Time{}, false
		}
		pause = max(pause, min(now.Sub(since)/4, 5*time.Minute))
	}
	if next := now.Add(pause); ne.ResetAt.Before(next) {
		return next, true
	}
	return ne.ResetAt, true
}

// settleOwner moves the post (or comment) along with its targets; when every target is final it
// becomes POSTED (all posted) or ERROR (any failed: retry re-runs only those) and the event goes
// into the outbox in this transaction.
func (s *Service) settleOwner(ctx context.Context, tx pgx.Tx, t store.PublishTarget, owner lockedOwner, targets []store.PublishTarget) error {
	q := s.q.WithTx(tx)
	if t.PostID == nil {
		return s.settleComment(ctx, tx, *t.CommentID)
	}
	if t.Kind != targetPost {
		return nil // first comments do not move their post
	}
	post := owner.post
	if post.DeletedAt != nil {
		return nil
	}
	if targets == nil {
		var err error
		if targets, err = q.ListPostTargets(ctx, []string{post.ID}); err != nil {
			return fmt.Errorf("app: settle post: %w", err)
		}
	}
	status, errText, postedAt := settle(targets, targetPost)
	if status == PostStatus(post.Status) {
		return nil // no change (a final post's event went out when it became final)
	}
	row, err := q.SetPostStatus(ctx, store.SetPostStatusParams{ID: post.ID, Status: string(status), Error: errText, PostedDate: postedAt})
	if err != nil {
		return fmt.Errorf("app: settle post: %w", err)
	}
	if status != PostPosted && status != PostError {
		return nil
	}
	views, err := s.postViewsWith(ctx, q, []store.Post{row}, targets, &owner.verbose, false)
	if err != nil {
		return err
	}
	return s.Emit(ctx, tx, row.OrganizationID, EventPostPublished, views[0])
}

// settle answers an owner's status from its targets of a kind, with the error summary and the
// posted date (the last target's) once final.
func settle(targets []store.PublishTarget, kind string) (PostStatus, *string, *time.Time) {
	var errs []string
	final, posted, retrying := true, true, false
	var last *time.Time
	for _, t := range targets {
		if t.Kind != kind {
			continue
		}
		st := PostStatus(t.Status)
		switch st {
		case PostPosted:
			if t.PostedAt != nil && (last == nil || t.PostedAt.After(*last)) {
				last = t.PostedAt
			}
		case PostError:
			posted = false
			if t.Error != nil {
				errs = append(errs, Network(t.Network).DisplayName()+": "+*t.Error)
			}
		case PostDeleted:
		case PostRetrying:
			final, retrying = false, true
		default:
			final = false
		}
	}
	sort.Strings(errs)
	switch {
	case final && posted:
		return PostPosted, nil, last
	case final:
		msg := "Failed to publish on " + strings.Join(errs, "; ")
		return PostError, &msg, last
	case retrying:
		return PostRetrying, nil, nil
	}
	return PostProcessing, nil, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
