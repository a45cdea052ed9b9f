package publishing

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/app"
	"github.com/crier/crier/store"
)

// verboseOf is the errorsVerbose entry of a failure.
func verboseOf(err error, class app.ErrorClass) *app.ErrorVerbose {
	v := &app.ErrorVerbose{}
	msg := err.Error()
	transient := class == app.ErrTransient || class == app.ErrRateLimited
	retry := "non_retryable"
	if transient {
		retry = "retryable"
	}
	v.IsTransient, v.Retryability = &transient, &retry
	var ne *app.NetworkError
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

func userFacing(err error, class app.ErrorClass) string {
	var ne *app.NetworkError
	name := "The network"
	msg := err.Error()
	if errors.As(err, &ne) {
		name, msg = ne.Network.DisplayName(), ne.Message
	}
	switch class {
	case app.ErrRateLimited:
		return name + " is rate limiting the account; Crier retries after the limit resets"
	case app.ErrTransient:
		return name + " failed temporarily (" + msg + "); Crier retries automatically"
	case app.ErrAuthExpired:
		return name + " refused the account's credentials; reconnect the account and retry the post"
	}
	return name + " refused the post: " + msg
}

// recordPostPosted is tx2 for a post's target published: one round trip locks the post, records the
// target POSTED and reads the post's targets, then the first comments and the post move along. The
// job is left to River's batch completer (PublishTarget says why).
func (s *Service) recordPostPosted(ctx context.Context, tx pgx.Tx, t0 store.PublishTarget, pub *app.Published, cp *store.SaveCheckpointsParams, orphan **store.PublishTarget) error {
	now := s.now().UTC()
	var extra []byte
	if len(pub.Extra) > 0 {
		extra, _ = json.Marshal(pub.Extra)
	}
	post, txNow, rows, err := s.q.PostTargetPostedLocked(ctx, tx, store.PostTargetPostedParams{PostID: *t0.PostID, ID: t0.ID, ExternalID: &pub.ExternalID,
		Permalink: nonEmpty(pub.Permalink), Extra: extra, PostedAt: &now}, cp)
	if err != nil {
		return fmt.Errorf("app: publish outcome: %w", err)
	}
	var t *store.PublishTarget
	targets := make([]store.PublishTarget, len(rows))
	for i, r := range rows {
		if targets[i] = r.Target(); r.This {
			t = &targets[i]
		}
	}
	if t == nil {
		return fmt.Errorf("app: publish outcome: target %s of post %s: %w", t0.ID, *t0.PostID, pgx.ErrNoRows) // removed meanwhile: River's retry decides
	}
	r := rows[0]
	if post == nil {
		return fmt.Errorf("app: publish outcome: post %s: %w", *t0.PostID, pgx.ErrNoRows)
	}
	// The post as locked, whole: settleOwner writes its status and event in one round trip.
	owner := lockedOwner{deleted: post.DeletedAt != nil, post: post, verbose: r.ShowVerboseErrors, txNow: &txNow}
	posted := *t
	if owner.deleted {
		*orphan = &posted
		return nil
	}
	if posted.Kind != app.TargetPost {
		return nil // first comments do not move their post
	}
	if targets, err = s.releaseFirstComments(ctx, tx, posted, targets, now); err != nil {
		return err
	}
	return s.settleOwner(ctx, tx, posted, owner, targets)
}

// recordOutcome is tx2. It sets *orphan to the target when it was POSTED for an owner deleted
// meanwhile (to be deleted on the network once committed).
func (s *Service) recordOutcome(ctx context.Context, tx pgx.Tx, at *attempt, pub *app.Published, callErr error, complete app.CompleteFunc, orphan **store.PublishTarget) error {
	q := s.q.WithTx(tx)
	t0 := at.target
	owner, err := s.lockOwner(ctx, q, t0) // the outcome's UPDATE then locks the target
	if err != nil {
		return err
	}
	if cp := at.pending.params(); cp != nil { // the checkpoints no network call followed
		if _, err := q.SaveCheckpoints(ctx, *cp); err != nil {
			return fmt.Errorf("app: publish outcome: checkpoint: %w", err)
		}
	}
	n := app.Network(t0.Network)
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
		} else if t.Kind == app.TargetPost {
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
			callErr = &app.NetworkError{Network: n, Class: app.ErrTransient, Message: "the network answered without an id"}
		}
		class := app.ClassOf(callErr)
		if class == app.ErrProcessing {
			class = app.ErrTransient // processing for longer than maxProcessingWait: retried (and counted) as a failure
		}
		var ae *app.Error
		if errors.As(callErr, &ae) {
			class = app.ErrPermanent // Crier's own refusal (an account to reconnect …)
		}
		if errors.Is(callErr, app.ErrNotSupported) {
			class = app.ErrPermanent
		}
		unknown := false
		var ne *app.NetworkError
		if class == app.ErrTransient {
			// A failure without a clear answer may have reached the network: reconcile before retrying.
			unknown = !errors.As(callErr, &ne) || ne.Status == 0 || ne.Status >= 500
		}
		status := app.PostError
		var next *time.Time
		if (class == app.ErrTransient || class == app.ErrRateLimited) && int(t0.Attempts) < maxPublishAttempts {
			status = app.PostRetrying
			at := app.PublishRetryAt(int(t0.Attempts), now)
			if errors.As(callErr, &ne) && class == app.ErrRateLimited && !ne.ResetAt.IsZero() && ne.ResetAt.After(now) {
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
		if status == app.PostRetrying {
			if err := s.enqueueTarget(ctx, tx, t, *next); err != nil {
				return err
			}
		}
	}
	if err := s.settleOwner(ctx, tx, t, owner, targets); err != nil {
		return err
	}
	at.settled = app.PostStatus(t.Status)
	return complete(ctx, tx)
}

// releaseFirstComments schedules the first comments waiting for posted target t (when it has any)
// and answers targets with their new rows.
func (s *Service) releaseFirstComments(ctx context.Context, tx pgx.Tx, t store.PublishTarget, targets []store.PublishTarget, now time.Time) ([]store.PublishTarget, error) {
	waiting := false
	for _, x := range targets {
		waiting = waiting || (x.Kind == app.TargetFirstComment && x.Network == t.Network && app.PostStatus(x.Status) == app.TargetWaiting)
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
	var ne *app.NetworkError
	if !errors.As(callErr, &ne) || ne.Class != app.ErrProcessing {
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
	if t.Kind != app.TargetPost {
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
	status, errText, postedAt := settle(targets, app.TargetPost)
	if status == app.PostStatus(post.Status) {
		return nil // no change (a final post's event went out when it became final)
	}
	st := store.SetPostStatusParams{ID: post.ID, Status: string(status), Error: errText, PostedDate: postedAt}
	if owner.txNow != nil && (status == app.PostPosted || status == app.PostError) {
		// The post is locked and whole, so the row SetPostStatus writes is known (updated_at is the
		// transaction's now()): the event's payload is built from it, and both go in one round trip.
		row := *post
		row.Status, row.Error, row.PostedDate, row.UpdatedAt = st.Status, st.Error, st.PostedDate, *owner.txNow
		views, err := s.postViewsWith(ctx, q, []store.Post{row}, targets, &owner.verbose, false)
		if err != nil {
			return err
		}
		return s.accounts.EmitWithPostStatus(ctx, tx, st, row.OrganizationID, app.EventPostPublished, views[0])
	}
	row, err := q.SetPostStatus(ctx, st)
	if err != nil {
		return fmt.Errorf("app: settle post: %w", err)
	}
	if status != app.PostPosted && status != app.PostError {
		return nil
	}
	views, err := s.postViewsWith(ctx, q, []store.Post{row}, targets, &owner.verbose, false)
	if err != nil {
		return err
	}
	return s.accounts.Emit(ctx, tx, row.OrganizationID, app.EventPostPublished, views[0])
}

// settle answers an owner's status from its targets of a kind, with the error summary and the
// posted date (the last target's) once final.
func settle(targets []store.PublishTarget, kind string) (app.PostStatus, *string, *time.Time) {
	var errs []string
	final, posted, retrying := true, true, false
	var last *time.Time
	for _, t := range targets {
		if t.Kind != kind {
			continue
		}
		st := app.PostStatus(t.Status)
		switch st {
		case app.PostPosted:
			if t.PostedAt != nil && (last == nil || t.PostedAt.After(*last)) {
				last = t.PostedAt
			}
		case app.PostError:
			posted = false
			if t.Error != nil {
				errs = append(errs, app.Network(t.Network).DisplayName()+": "+*t.Error)
			}
		case app.PostDeleted:
		case app.PostRetrying:
			final, retrying = false, true
		default:
			final = false
		}
	}
	sort.Strings(errs)
	switch {
	case final && posted:
		return app.PostPosted, nil, last
	case final:
		msg := "Failed to publish on " + strings.Join(errs, "; ")
		return app.PostError, &msg, last
	case retrying:
		return app.PostRetrying, nil, nil
	}
	return app.PostProcessing, nil, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
