package publishing

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/app"
	"github.com/crier/crier/store"
)

// The publishing pipeline: one River job per target version (PublishTargetArgs), run by
// jobs.publishWorker through Service.PublishTarget. README "Posts" describes the protocol.
//
// Never twice:
//
//	tx1  one statement for a post's target (StartPostAttempt: lock the post, then start the attempt
//	     when nothing below stands in the way, and read the account); otherwise, and for comments,
//	     lock the owner (post or comment) then the target; a stale version or a final target
//	     completes the job and stops. attempt_started_at still set (a worker died mid-call) or
//	     outcome_unknown (a failure that may have reached the network) → this attempt reconciles:
//	     Publisher.Find runs before anything is published. Record attempt_started_at, attempts,
//	     PROCESSING; commit (the one statement without waiting for the WAL flush: the first call
//	     that may change something on the network waits for a synchronous write, which flushes it).
//	call the adapter outside any transaction, renewing the lease (attempt_started_at) every third
//	     of it (publish_lease.go); Checkpoint keeps each durable step pending until the adapter's
//	     next network call that may change something there (not a read), which writes the pending
//	     ones in one statement first (app.BeforeCall), or until tx2, which writes those no such
//	     call followed. A
//	     cancelled context (shutdown, kill) writes nothing: the attempt stays open and River's
//	     retry (or its rescue of a stuck job) reconciles it.
//	tx2  lock owner and target; write the outcome (POSTED / RETRYING / ERROR, attempt_started_at
//	     cleared); release first comments; finalise the owner when every target is final
//	     (post.published / comment.published in the same transaction); complete the River job in
//	     the same transaction (river.JobCompleteTx, through complete) — but a post's target POSTED
//	     (one round trip locks and reads the post, records the target and reads the post's targets:
//	     PostTargetPostedLocked; a second writes the post's final status and its event:
//	     SetPostStatusThenInsertEvent) leaves its job to River's batch completer, as a re-run of it
//	     finds the target final.

// maxPublishAttempts is how many attempts a network's transient failures get (each a new job,
// RETRYING in between); River's own retries of one job are publishJobMaxAttempts (jobs.go).
const maxPublishAttempts = 8

func publishArgs(t store.PublishTarget) app.PublishTargetArgs {
	return app.PublishTargetArgs{TargetID: t.ID, Version: int(t.Version), PostID: deref(t.PostID), CommentID: deref(t.CommentID)}
}

// attempt is what tx1 hands to the network call.
type attempt struct {
	target    store.PublishTarget
	account   *store.SocialAccount // read with the target by the one-statement start; nil: callNetwork reads it
	reconcile bool
	startedAt time.Time
	settled   app.PostStatus // the target's status once the outcome is recorded (for the Observer)
	pending   pendingCheckpoints
}

// pendingCheckpoints are an attempt's checkpoints not yet written (app.BeforeCall says when they are).
type pendingCheckpoints struct {
	mu         sync.Mutex // an adapter may checkpoint and call from several goroutines
	target     string
	keys, vals []string
	// tx1Unflushed: tx1 committed without waiting for the WAL flush (store.StartPostAttemptNoFlush),
	// so the first call that may change something on the network waits for a synchronous write
	// even with no checkpoint pending: it flushes tx1's WAL with its own.
	tx1Unflushed bool
}

func (p *pendingCheckpoints) add(key, value string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, k := range p.keys {
		if k == key {
			p.vals[i] = value
			return
		}
	}
	p.keys, p.vals = append(p.keys, key), append(p.vals, value)
}

// flush writes the pending checkpoints with write and forgets them once written; the lock is held
// meanwhile, so a call from another goroutine waits for them too.
func (p *pendingCheckpoints) flush(write func(store.SaveCheckpointsParams) error) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.keys) == 0 && !p.tx1Unflushed {
		return nil
	}
	// Non-nil (an empty array, not NULL) when only tx1 needs the flush: the checkpoints stay as they are.
	keys, vals := append([]string{}, p.keys...), append([]string{}, p.vals...)
	if err := write(store.SaveCheckpointsParams{ID: p.target, Keys: keys, Vals: vals}); err != nil {
		return err
	}
	p.keys, p.vals, p.tx1Unflushed = nil, nil, false
	return nil
}

// params answers the checkpoints still pending once the call is over (nil: none), for the outcome's transaction.
func (p *pendingCheckpoints) params() *store.SaveCheckpointsParams {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.keys) == 0 {
		return nil
	}
	return &store.SaveCheckpointsParams{ID: p.target, Keys: p.keys, Vals: p.vals}
}

var finalTargetStatuses = map[app.PostStatus]bool{app.PostPosted: true, app.PostError: true, app.PostDeleted: true}

// PublishTarget runs one job of the pipeline for a target version. complete is called in the
// transaction that writes the job's outcome (or finds nothing to do), except for a post's target
// POSTED, whose job River's batch completer completes: a re-run finds the target final and stops.
func (s *Service) PublishTarget(ctx context.Context, args app.PublishTargetArgs, complete app.CompleteFunc) error {
	targetID := args.TargetID
	at, err := s.startPostAttempt(ctx, args)
	if err == nil && at == nil {
		at, err = s.startAttemptLocked(ctx, args, complete)
	}
	if err != nil || at == nil {
		return err
	}

	began := time.Now()                   // wall time for the Observer (s.now may be a test's frozen clock)
	stopHeartbeat := s.heartbeat(ctx, at) // the lease is held while the call runs (publish_lease.go)
	pub, callErr := s.callNetwork(ctx, at)
	stopHeartbeat()
	if ctx.Err() != nil {
		// Cancelled mid-call (shutdown, kill): the outcome is unknown. Close the attempt as
		// outcome_unknown (no worker runs it now) so River's retry reconciles it at once; if even
		// that fails, attempt_started_at stays and the lease decides.
		s.abandonAttempt(ctx, targetID, at.startedAt)
		return fmt.Errorf("app: publish %s interrupted: %w", targetID, ctx.Err())
	}
	var orphan *store.PublishTarget
	err = store.InOutcomeTx(ctx, s.db, func(tx pgx.Tx) error {
		if callErr == nil && pub != nil && pub.ExternalID != "" && at.target.PostID != nil {
			if err := s.recordPostPosted(ctx, tx, at.target, pub, at.pending.params(), &orphan); err != nil {
				return err
			}
			at.settled = app.PostPosted
			return nil
		}
		return s.recordOutcome(ctx, tx, at, pub, callErr, complete, &orphan)
	})
	if err != nil {
		// The outcome could not be written (database trouble): no worker runs this attempt any
		// more, so close it as unknown and let River's retry reconcile it rather than wait out the lease.
		s.abandonAttempt(ctx, targetID, at.startedAt)
		return err
	}
	s.obs.PublishSettled(app.Network(at.target.Network), at.settled, time.Since(began))
	if orphan != nil {
		// The post (or comment) was deleted while this target was being published: now that the
		// network's copy is recorded, delete it there too.
		s.deleteOnNetwork(ctx, *orphan)
	}
	return nil
}

// startPostAttempt is tx1 in one statement (StartPostAttempt) for a post's target, its account
// read with it. nil: it started nothing, and startAttemptLocked decides why.
func (s *Service) startPostAttempt(ctx context.Context, args app.PublishTargetArgs) (*attempt, error) {
	if args.PostID == "" {
		return nil, nil
	}
	now := s.now().UTC().Truncate(time.Microsecond) // as PostgreSQL stores it (AbandonAttempt compares)
	leaseBefore := now.Add(-s.publishLease)
	// Committed without waiting for the WAL flush: the attempt's first call that may change something
	// on the network waits for a synchronous write first (pendingCheckpoints.tx1Unflushed), so a
	// database crash loses tx1 only when no such call followed it.
	row, err := store.StartPostAttemptNoFlush(ctx, s.db, store.StartPostAttemptParams{PostID: args.PostID, ID: args.TargetID, Version: int32(args.Version),
		StartedAt: &now, LeaseBefore: &leaseBefore})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("app: publish: %w", err)
	}
	acct := row.SocialAccount
	t := row.Target()
	return &attempt{target: t, account: &acct, reconcile: t.OutcomeUnknown, startedAt: now, pending: pendingCheckpoints{tx1Unflushed: true}}, nil
}

// startAttemptLocked is tx1 with the owner and the target locked one statement at a time: comments'
// targets, and whatever the one-statement start did not start (it completes a stale job, answers
// ErrAttemptInFlight, or starts an attempt without an account for callNetwork to refuse).
func (s *Service) startAttemptLocked(ctx context.Context, args app.PublishTargetArgs, complete app.CompleteFunc) (*attempt, error) {
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
		st := app.PostStatus(t.Status)
		if int(t.Version) != version || locked.deleted || (st != app.PostScheduled && st != app.PostRetrying && st != app.PostProcessing) {
			return complete(ctx, tx) // stale job (rescheduled, retried, deleted) or nothing left to do
		}
		now := s.now().UTC().Truncate(time.Microsecond) // as PostgreSQL stores it (AbandonAttempt compares)
		if t.AttemptStartedAt != nil && now.Before(t.AttemptStartedAt.Add(s.publishLease)) {
			return &app.ErrAttemptInFlight{Until: t.AttemptStartedAt.Add(s.publishLease)}
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
	return at, err
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
	txNow   *time.Time  // the transaction's now(), when post is the whole row as locked (recordPostPosted)
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

func (s *Service) accountOf(ctx context.Context, at *attempt) (store.SocialAccount, error) {
	if at.account != nil {
		return *at.account, nil
	}
	t := at.target
	return s.q.GetSocialAccount(ctx, store.GetSocialAccountParams{ID: *t.SocialAccountID, OrganizationID: t.OrganizationID})
}

// permanent builds a refusal that is Crier's own (no network answer).
func permanent(n app.Network, msg string) error {
	return &app.NetworkError{Network: n, Class: app.ErrPermanent, Message: msg}
}

// callNetwork makes the attempt: Find first when reconciling, then Publish (or Reply).
func (s *Service) callNetwork(ctx context.Context, at *attempt) (*app.Published, error) {
	t := at.target
	n := app.Network(t.Network)
	if t.SocialAccountID == nil {
		return nil, permanent(n, "No "+n.DisplayName()+" account is connected to the team")
	}
	row, err := s.accountOf(ctx, at)
	if err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return nil, permanent(n, "The "+n.DisplayName()+" account was disconnected; connect it again and retry")
		}
		return nil, err
	}
	at.pending.target = t.ID
	a, err := s.accounts.Adapter(n)
	if err != nil {
		return nil, permanent(n, "Publishing to "+n.DisplayName()+" is not available")
	}
	acct := app.SocialAccountFromRow(row)
	// Checkpoints wait for the adapter's next network call that is not a read (app.BeforeCall) or
	// for the outcome's transaction (at.pending.params), whichever comes first.
	checkpoint := func(_ context.Context, key, value string) error {
		at.pending.add(key, value)
		return nil
	}
	ctx = app.WithBeforeCall(ctx, func(ctx context.Context) error {
		return at.pending.flush(func(p store.SaveCheckpointsParams) error {
			n, err := s.q.SaveCheckpoints(ctx, p) // synchronous: durable, with tx1, before the call
			if err != nil {
				return fmt.Errorf("app: checkpoint: %w", err)
			}
			if n != 1 {
				return fmt.Errorf("app: checkpoint: target %s: %w", p.ID, pgx.ErrNoRows) // nothing written, nothing flushed: no call
			}
			return nil
		})
	})
	resume := map[string]string{}
	_ = json.Unmarshal(t.Checkpoints, &resume)

	if t.Kind != app.TargetPost {
		rep, ok := a.(app.Replier)
		if !ok {
			return nil, permanent(n, "Replying on "+n.DisplayName()+" is not available yet")
		}
		req, err := s.replyRequest(ctx, t, &acct)
		if err != nil {
			return nil, err
		}
		req.Resume, req.Checkpoint = resume, checkpoint
		var out *app.Published
		_, err = s.accounts.WithToken(ctx, row, func(tok *app.Token) error {
			if at.reconcile {
				f, ok := a.(app.ReplyFinder)
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

	pub, ok := a.(app.Publisher)
	if !ok {
		return nil, permanent(n, "Publishing to "+n.DisplayName()+" is not available yet")
	}
	req, err := s.publishRequest(ctx, t, &acct)
	if err != nil {
		return nil, err
	}
	req.Resume, req.Checkpoint = resume, checkpoint
	var out *app.Published
	_, err = s.accounts.WithToken(ctx, row, func(tok *app.Token) error {
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
