package publishing

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/crier/crier/app"
	"github.com/crier/crier/store"
)

// syncTargets makes the post's targets match in (planTargets) in tx, reading them first, and
// enqueues the jobs of the scheduled ones.
func (s *Service) syncTargets(ctx context.Context, tx pgx.Tx, post store.Post, in *postInput, accounts map[app.Network]*app.SocialAccount) error {
	existing, err := s.q.WithTx(tx).ListPostTargets(ctx, []string{post.ID})
	if err != nil {
		return fmt.Errorf("app: post targets: %w", err)
	}
	w, err := store.WritePost(ctx, tx, store.PostWrite{Targets: planTargets(post.OrganizationID, post.ID, existing, in, accounts)})
	if err != nil {
		return fmt.Errorf("app: post target: %w", err)
	}
	return s.enqueueTargets(ctx, tx, w.Targets, in)
}

// planTargets says how the post's targets change to match in: one POST target per network (and
// a WAITING FIRST_COMMENT target per first comment), each rescheduled (new version) with the
// post's status and date; targets no longer wanted (a network no longer named, a first comment
// removed) are removed unless they reached the network.
func planTargets(orgID, postID string, existing []store.PublishTarget, in *postInput, accounts map[app.Network]*app.SocialAccount) []store.TargetWrite {
	type key struct {
		kind string
		n    app.Network
	}
	have := map[key]store.PublishTarget{}
	for _, t := range existing {
		have[key{t.Kind, app.Network(t.Network)}] = t
	}
	want := map[key]bool{}
	var out []store.TargetWrite
	for _, n := range in.types {
		var acct *string
		if a := accounts[n]; a != nil {
			acct = &a.ID
		}
		due := in.postDate
		targets := []struct {
			kind    string
			status  app.PostStatus
			payload []byte
		}{{app.TargetPost, in.status, in.data.Raw(n)}}
		if text := in.firstComment[n]; strings.TrimSpace(text) != "" {
			b, _ := json.Marshal(map[string]string{"text": text})
			st := app.TargetWaiting
			if in.status != app.PostScheduled {
				st = in.status
			}
			targets = append(targets, struct {
				kind    string
				status  app.PostStatus
				payload []byte
			}{app.TargetFirstComment, st, b})
		}
		for _, tg := range targets {
			want[key{tg.kind, n}] = true
			if t, ok := have[key{tg.kind, n}]; ok && reachedNetwork(t) {
				// Published (or maybe): what is on the network stays as it is; an edit of a partly
				// published post (one network failed and was reconnected) applies to the others.
				continue
			} else if ok {
				out = append(out, store.TargetWrite{Reschedule: &store.RescheduleTargetParams{ID: t.ID, Status: string(tg.status), DueAt: &due,
					Payload: tg.payload, SocialAccountID: acct}})
			} else {
				attemptKey := postID + ":" + strings.ToLower(string(n))
				if tg.kind == app.TargetFirstComment {
					attemptKey += ":first-comment"
				}
				out = append(out, store.TargetWrite{Insert: &store.InsertTargetParams{OrganizationID: orgID, Kind: tg.kind, PostID: &postID,
					Network: string(n), SocialAccountID: acct, Status: string(tg.status), Payload: tg.payload, AttemptKey: attemptKey, DueAt: &due}})
			}
		}
	}
	for k, t := range have {
		if !want[k] && !reachedNetwork(t) {
			out = append(out, store.TargetWrite{Delete: t.ID})
		}
	}
	return out
}

// enqueueTargets inserts the publish job of each scheduled POST target just written.
func (s *Service) enqueueTargets(ctx context.Context, tx pgx.Tx, written []store.PublishTarget, in *postInput) error {
	for _, t := range written {
		if t.ID != "" && t.Kind == app.TargetPost && t.Status == string(app.PostScheduled) {
			if err := s.enqueueTarget(ctx, tx, t, in.postDate); err != nil {
				return err
			}
		}
	}
	return nil
}

// reachedNetwork says a target was published, or may have been (an attempt in flight or of
// unknown outcome): its row is the record of what is on the network, so it is never deleted.
func reachedNetwork(t store.PublishTarget) bool {
	return t.Status == string(app.PostPosted) || t.Status == string(app.PostProcessing) || t.ExternalID != nil ||
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

// postUploadIDs are the uploads the post links (post_uploads): those of the networks it goes to.
func postUploadIDs(in *postInput) []string {
	ids := []string{}
	seen := map[string]bool{}
	for _, n := range in.types {
		if p := in.data.Of(n); p != nil {
			for _, id := range p.Uploads() {
				if !seen[id] && app.IsUUID(id) {
					seen[id] = true
					ids = append(ids, id)
				}
			}
		}
	}
	return ids
}
