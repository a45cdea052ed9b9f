package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/media/mediatest"
	"github.com/crier/crier/network"
	"github.com/crier/crier/network/sandbox"
	"github.com/crier/crier/server/servertest"
)

// Comments under a Crier post publish through the same pipeline and emit comment.published.
func TestCommentPublishesUnderPost(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Talk")
	connectNetwork(t, srv, key, team, "MASTODON")
	_, p, _ := postJSON(t, srv, http.MethodPost, "/api/v1/post", key, `{"teamId":"`+team+`","title":"Parent","postDate":"`+soon(0)+`","status":"SCHEDULED",
		"socialAccountTypes":["MASTODON"],"data":{"MASTODON":{"text":"parent"}}}`)
	p = waitPost(t, srv, key, p.ID, "POSTED")

	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/comment", `{"teamId":"`+team+`","internalPostId":"`+p.ID+`","text":"A reply"}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var c struct {
		ID           string `json:"id"`
		Status       string `json:"status"`
		ExternalData map[string]struct {
			ID string `json:"id"`
		} `json:"externalData"`
		Data map[string]struct {
			Text string `json:"text"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal(b, &c))
	require.Equal(t, "A reply", c.Data["MASTODON"].Text)
	eventually(t, "comment posted", func() bool {
		_, b := do(t, http.MethodGet, srv.URL+"/api/v1/comment/"+c.ID, "", "x-api-key", key)
		require.NoError(t, json.Unmarshal(b, &c))
		return c.Status == "POSTED"
	})
	held := srv.Sandbox.Held(app.Mastodon, sandbox.KindComment)
	require.Len(t, held, 1)
	require.Equal(t, p.ExternalData["MASTODON"].ID, held[0].Parent)
	require.Equal(t, held[0].ID, c.ExternalData["MASTODON"].ID)
	var n int
	require.NoError(t, srv.Pool.QueryRow(context.Background(), `SELECT count(*) FROM events WHERE kind = 'comment.published'`).Scan(&n))
	require.Equal(t, 1, n)

	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/comment?teamId="+team+"&postId="+p.ID, "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Contains(t, string(b), `"total":1`)
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/organization/usage/comments", "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.JSONEq(t, `{"used":1,"limit":50,"remaining":49}`, string(b))

	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/comment", `{"teamId":"`+team+`","text":"orphan"}`, "x-api-key", key)
	require.Equal(t, http.StatusBadRequest, res.StatusCode, string(b))
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/comment/"+c.ID+"/retry", "", "x-api-key", key)
	require.Equal(t, http.StatusBadRequest, res.StatusCode, string(b))
	res, b = do(t, http.MethodDelete, srv.URL+"/api/v1/comment/"+c.ID, "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Contains(t, string(b), `"status":"DELETED"`)
	require.NotNil(t, srv.Sandbox.Held(app.Mastodon, sandbox.KindComment)[0].DeletedAt)
}

// An account whose token is revoked fails its posts (one refresh attempt, then reconnect needed);
// after reconnecting, reconnect-social-account lists and re-runs them.
func TestPostReconnectSocialAccount(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Reconnect")
	connectNetwork(t, srv, key, team, "MASTODON")
	res, _ := do(t, http.MethodPost, srv.URL+"/sandbox/mastodon/_sandbox/revoke-tokens", "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	_, p, _ := postJSON(t, srv, http.MethodPost, "/api/v1/post", key, `{"teamId":"`+team+`","title":"Orphaned","postDate":"`+soon(0)+`","status":"SCHEDULED",
		"socialAccountTypes":["MASTODON"],"data":{"MASTODON":{"text":"orphaned"}}}`)
	p = waitPost(t, srv, key, p.ID, "ERROR")
	require.NotNil(t, p.Errors["MASTODON"])

	connectNetwork(t, srv, key, team, "MASTODON")
	res, b := do(t, http.MethodGet, srv.URL+"/api/v1/post/reconnect-social-account/candidates?teamId="+team+"&type=MASTODON", "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var cands struct {
		Items []struct{ ID, Status string }
		Total int
	}
	require.NoError(t, json.Unmarshal(b, &cands))
	require.Equal(t, 1, cands.Total)
	require.Equal(t, p.ID, cands.Items[0].ID)

	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/post/reconnect-social-account", `{"teamId":"`+team+`","type":"MASTODON"}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var sum struct {
		Total, Succeeded, Failed int
		Results                  []struct {
			PostID       string `json:"postId"`
			Success      bool   `json:"success"`
			StatusBefore string `json:"statusBefore"`
			StatusAfter  string `json:"statusAfter"`
		}
	}
	require.NoError(t, json.Unmarshal(b, &sum))
	require.Equal(t, 1, sum.Succeeded)
	require.Equal(t, "ERROR", sum.Results[0].StatusBefore)
	require.Equal(t, "SCHEDULED", sum.Results[0].StatusAfter)
	waitPost(t, srv, key, p.ID, "POSTED")
	require.Len(t, srv.Sandbox.Held(app.Mastodon, sandbox.KindPost), 1)
}

// dailyPostLimit: Reddit allows 20 posts a day per account; the 21st on the same UTC day is 403.
func TestPostDailyLimit(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Daily")
	account := connectNetwork(t, srv, key, team, "REDDIT")
	_, err := srv.Pool.Exec(context.Background(), `UPDATE organizations SET plan = 'ENTERPRISE'`)
	require.NoError(t, err)
	day := time.Now().UTC().AddDate(0, 0, 2).Truncate(24 * time.Hour)
	for i := 0; i <= app.DailyCapsOf(app.Reddit).Posts; i++ {
		st, _, b := postJSON(t, srv, http.MethodPost, "/api/v1/post", key, `{"teamId":"`+team+`","title":"Snap","postDate":"`+
			day.Add(time.Duration(i)*time.Minute).Format(time.RFC3339)+`","status":"SCHEDULED","socialAccountTypes":["REDDIT"],"data":{"REDDIT":{"sr":"crier","text":"snap"}}}`)
		if i < app.DailyCapsOf(app.Reddit).Posts {
			require.Equal(t, http.StatusOK, st, string(b))
			continue
		}
		require.Equal(t, http.StatusForbidden, st, string(b))
		require.Contains(t, decodeError(t, b).Message, "Daily post limit reached for the Reddit account")
	}
	res, b := do(t, http.MethodGet, srv.URL+"/api/v1/organization/usage/daily-limits?socialAccountId="+account+"&date="+day.Format(time.RFC3339), "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Contains(t, string(b), `"posts":{"limit":20,"remaining":0,"used":20}`)
}

// The approval queue: a post sent for REVIEW publishes only once an ADMIN or OWNER approves it.
func TestPostReviewApproval(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Review")
	connectNetwork(t, srv, key, team, "MASTODON")
	st, p, b := postJSON(t, srv, http.MethodPost, "/api/v1/post", key, `{"teamId":"`+team+`","title":"Check me","postDate":"`+soon(0)+`","status":"REVIEW",
		"socialAccountTypes":["MASTODON"],"data":{"MASTODON":{"text":"reviewed"}}}`)
	require.Equal(t, http.StatusOK, st, string(b))
	require.Equal(t, "REVIEW", p.Status)
	res, b := do(t, http.MethodGet, srv.URL+"/api/v1/organization/usage/posts", "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, string(b), `"used":0`, "a post in review does not count yet")

	owner := ownerPrincipal(t, srv, key)
	member := *owner
	member.Role = app.RoleMember
	_, err := srv.Publishing.ApprovePost(app.WithPrincipal(context.Background(), &member), p.ID)
	require.Equal(t, app.EForbidden, app.ErrorCode(err))
	approved, err := srv.Publishing.ApprovePost(app.WithPrincipal(context.Background(), owner), p.ID)
	require.NoError(t, err)
	require.Equal(t, app.PostScheduled, approved.Status)
	waitPost(t, srv, key, p.ID, "POSTED")
	require.Len(t, srv.Sandbox.Held(app.Mastodon, sandbox.KindPost), 1)
}

// A network whose adapter does not publish yet fails its target permanently with a clear message.
func TestPostToNetworkWithoutPublisher(t *testing.T) {
	t.Parallel()
	var missing app.Network
	for _, n := range []app.Network{app.Snapchat, app.GoogleBusiness, app.Slack, app.Discord, app.Twitter, app.Threads} {
		if _, ok := network.Adapters(network.Options{Sandbox: true, BaseURL: "http://127.0.0.1:1"})[n].(app.Publisher); !ok && n != app.Slack && n != app.Discord {
			missing = n
			break
		}
	}
	if missing == "" {
		t.Skip("every candidate network publishes on this branch")
	}
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Missing")
	connectNetwork(t, srv, key, team, string(missing))
	connectNetwork(t, srv, key, team, "MASTODON")
	st, p, b := postJSON(t, srv, http.MethodPost, "/api/v1/post", key, `{"teamId":"`+team+`","title":"Both","postDate":"`+soon(0)+`","status":"SCHEDULED",
		"socialAccountTypes":["MASTODON","`+string(missing)+`"],"data":{"MASTODON":{"text":"both"},"`+string(missing)+`":{"text":"both"}}}`)
	require.Equal(t, http.StatusOK, st, string(b))
	p = waitPost(t, srv, key, p.ID, "ERROR")
	require.Contains(t, *p.Errors[string(missing)], "Publishing to "+missing.DisplayName()+" is not available yet")
	require.Nil(t, p.Errors["MASTODON"])
	require.NotEmpty(t, p.ExternalData["MASTODON"].ID, "a mixed outcome keeps what was published")
}

// Deleting a post while a network call is in flight: the outcome is still recorded, and the post
// that landed is then deleted on the network.
func TestDeletePostWhilePublishing(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Race")
	connectNetwork(t, srv, key, team, "MASTODON")
	res, _ := do(t, http.MethodPost, srv.URL+"/sandbox/mastodon/_sandbox/knobs", `{"latencyMs":800}`)
	require.Equal(t, http.StatusOK, res.StatusCode)
	_, p, _ := postJSON(t, srv, http.MethodPost, "/api/v1/post", key, `{"teamId":"`+team+`","title":"Oops","postDate":"`+soon(0)+`","status":"SCHEDULED",
		"socialAccountTypes":["MASTODON"],"data":{"MASTODON":{"text":"oops"}}}`)
	waitPost(t, srv, key, p.ID, "PROCESSING")
	st, del, b := postJSON(t, srv, http.MethodDelete, "/api/v1/post/"+p.ID, key, "")
	require.Equal(t, http.StatusOK, st, string(b))
	require.Equal(t, "DELETED", del.Status)
	eventually(t, "the landed post deleted on Mastodon", func() bool {
		held := srv.Sandbox.Held(app.Mastodon, sandbox.KindPost)
		return len(held) == 1 && held[0].DeletedAt != nil
	})
	var status string
	eventually(t, "target DELETED", func() bool {
		require.NoError(t, srv.Pool.QueryRow(context.Background(), `SELECT status FROM publish_targets WHERE post_id = $1`, p.ID).Scan(&status))
		return status == "DELETED"
	})
}

// Editing a partly published post (one network failed, the post was rescheduled — e.g. by
// reconnect-social-account) re-targets only the networks not yet published: the network that
// already holds the post is not published to again.
func TestEditPartlyPublishedPostKeepsPublishedTargets(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Partly")
	connectNetwork(t, srv, key, team, "MASTODON")
	connectNetwork(t, srv, key, team, "TWITTER")
	res, b := do(t, http.MethodPost, srv.URL+"/sandbox/mastodon/_sandbox/fail", `{"status":422,"message":"Validation failed","path":"/api/v1/statuses","times":1}`)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	st, p, b := postJSON(t, srv, http.MethodPost, "/api/v1/post", key, `{"teamId":"`+team+`","title":"Partly","postDate":"`+soon(0)+`","status":"SCHEDULED",
		"socialAccountTypes":["MASTODON","TWITTER"],"data":{"MASTODON":{"text":"first"},"TWITTER":{"text":"first"}}}`)
	require.Equal(t, http.StatusOK, st, string(b))
	p = waitPost(t, srv, key, p.ID, "ERROR")
	tweet := p.ExternalData["TWITTER"].ID
	require.NotEmpty(t, tweet)

	// Back to SCHEDULED as reconnect-social-account leaves it (without racing its immediate job).
	_, err := srv.Pool.Exec(context.Background(), `UPDATE posts SET status = 'SCHEDULED' WHERE id = $1`, p.ID)
	require.NoError(t, err)
	xTarget := func() (status string, version int) {
		require.NoError(t, srv.Pool.QueryRow(context.Background(), `SELECT status, version FROM publish_targets WHERE post_id = $1 AND network = 'TWITTER' AND kind = 'POST'`, p.ID).Scan(&status, &version))
		return status, version
	}
	_, before := xTarget()
	st, _, b = postJSON(t, srv, http.MethodPatch, "/api/v1/post/"+p.ID, key, `{"postDate":"`+soon(0)+`","status":"SCHEDULED",
		"socialAccountTypes":["MASTODON","TWITTER"],"data":{"MASTODON":{"text":"second"},"TWITTER":{"text":"second"}}}`)
	require.Equal(t, http.StatusOK, st, string(b))
	status, after := xTarget()
	require.Equal(t, "POSTED", status, "the published target is not rescheduled")
	require.Equal(t, before, after, "no new version (no job) for the published target")
	p = waitPost(t, srv, key, p.ID, "POSTED")
	require.Equal(t, tweet, p.ExternalData["TWITTER"].ID, "the published tweet is the record")
	tweets := srv.Sandbox.Held(app.Twitter, sandbox.KindPost)
	require.Len(t, tweets, 1, "X is not published to twice")
	require.Equal(t, "first", tweets[0].Text)
	toots := srv.Sandbox.Held(app.Mastodon, sandbox.KindPost)
	require.Len(t, toots, 1)
	require.Equal(t, "second", toots[0].Text)
}

// Instagram processes a media container asynchronously: the attempt that finds it still
// IN_PROGRESS ends without holding a worker (the target stays PROCESSING, not counted as an
// attempt) and a later job resumes from the checkpointed container: one container, one media.
func TestPostWaitsForNetworkProcessingWithoutAWorker(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Gram")
	done := connectAny(t, srv, key, "INSTAGRAM", team)
	require.Equal(t, "true", done.Query().Get("success"), done.String())
	_, a := byType(t, srv, key, "INSTAGRAM", team)
	require.NotEmpty(t, a.Channels)
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/social-account/set-channel", `{"type":"INSTAGRAM","teamId":"`+team+`","channelId":"`+a.Channels[0].ID+`"}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	res, b = postFile(t, srv, key, team, "", mediatest.JPEG(1080, 1080))
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	upload := decodeUpload(t, b).ID

	st, p, b := postJSON(t, srv, http.MethodPost, "/api/v1/post", key, `{"teamId":"`+team+`","title":"Gram","postDate":"`+soon(0)+`","status":"SCHEDULED",
		"socialAccountTypes":["INSTAGRAM"],"data":{"INSTAGRAM":{"text":"A photo","uploadIds":["`+upload+`"]}}}`)
	require.Equal(t, http.StatusOK, st, string(b))
	p = waitPost(t, srv, key, p.ID, "POSTED")
	require.NotEmpty(t, p.ExternalData["INSTAGRAM"].ID)

	var jobs, attempts int
	var since *string
	require.NoError(t, srv.Pool.QueryRow(context.Background(), `
		SELECT (SELECT count(*) FROM river_job WHERE kind = 'publish_target' AND args->>'target_id' = t.id::text), t.attempts, t.checkpoints->>'crier.processingSince'
		FROM publish_targets t WHERE t.post_id = $1`, p.ID).Scan(&jobs, &attempts, &since))
	require.GreaterOrEqual(t, jobs, 2, "the attempt that found the container processing ended; a later job finished")
	require.Equal(t, 1, attempts, "waiting for the network is not a failed attempt")
	require.NotNil(t, since)
	require.Len(t, srv.Sandbox.Held(app.Instagram, sandbox.KindPost), 1)
}
