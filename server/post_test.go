package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/media/mediatest"
	"github.com/crier/crier/network/sandbox"
	"github.com/crier/crier/server/servertest"
)

type postAnswer struct {
	ID             string                     `json:"id"`
	TeamID         string                     `json:"teamId"`
	OrganizationID string                     `json:"organizationId"`
	Title          string                     `json:"title"`
	ReferenceKey   *string                    `json:"referenceKey"`
	PostDate       string                     `json:"postDate"`
	PostedDate     *string                    `json:"postedDate"`
	Status         string                     `json:"status"`
	Data           map[string]json.RawMessage `json:"data"`
	Error          *string                    `json:"error"`
	Errors         map[string]*string         `json:"errors"`
	ErrorsVerbose  map[string]map[string]any  `json:"errorsVerbose"`
	ExternalData   map[string]struct {
		ID        string `json:"id"`
		Permalink string `json:"permalink"`
	} `json:"externalData"`
	RetryCount         int      `json:"retryCount"`
	SocialAccountTypes []string `json:"socialAccountTypes"`
	Uploads            []struct {
		UploadID string `json:"uploadId"`
	} `json:"uploads"`
	SocialAccounts []struct {
		SocialAccountID string `json:"socialAccountId"`
	} `json:"socialAccounts"`
	DeletedAt *string `json:"deletedAt"`
}

// connectNetwork connects the sandbox account login of a network to a team through Crier.
func connectNetwork(t *testing.T, srv *servertest.Server, key, teamID, network string) string {
	t.Helper()
	body := `{"type":"` + network + `","teamId":"` + teamID + `","redirectUrl":"https://app.example/"`
	if network == "MASTODON" {
		body += `,"serverUrl":"` + srv.URL + `/sandbox/mastodon"`
	}
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/social-account/connect", body+"}", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var out struct{ URL string }
	require.NoError(t, json.Unmarshal(b, &out))
	done := approve(t, out.URL)
	require.Equal(t, "true", done.Query().Get("success"), done.String())
	return done.Query().Get("socialAccountId")
}

func postJSON(t *testing.T, srv *servertest.Server, method, path, key, body string) (int, postAnswer, []byte) {
	t.Helper()
	res, b := do(t, method, srv.URL+path, body, "x-api-key", key)
	var p postAnswer
	if res.StatusCode == http.StatusOK {
		require.NoError(t, json.Unmarshal(b, &p), string(b))
	}
	return res.StatusCode, p, b
}

func getPost(t *testing.T, srv *servertest.Server, key, id string) postAnswer {
	t.Helper()
	st, p, b := postJSON(t, srv, http.MethodGet, "/api/v1/post/"+id, key, "")
	require.Equal(t, http.StatusOK, st, string(b))
	return p
}

func waitPost(t *testing.T, srv *servertest.Server, key, id, status string) postAnswer {
	t.Helper()
	var p postAnswer
	eventually(t, "post "+id+" "+status, func() bool {
		p = getPost(t, srv, key, id)
		return p.Status == status
	})
	return p
}

func soon(d time.Duration) string { return time.Now().Add(d).UTC().Format(time.RFC3339Nano) }

// A scheduled post with an image and a first comment publishes to Mastodon through the sandbox at
// its date: POSTED with externalData and postedDate, exactly one status held with its media, the
// first comment replied under it, post.published in the outbox; get, list and reference key agree.
func TestPostPublishesToMastodon(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Fedi")
	account := connectNetwork(t, srv, key, team, "MASTODON")
	upload := uploadPhoto(t, srv, key, team)

	st, p, b := postJSON(t, srv, http.MethodPost, "/api/v1/post", key, `{"teamId":"`+team+`","title":"Launch","referenceKey":"launch-1",
		"postDate":"`+soon(time.Second)+`","status":"SCHEDULED","socialAccountTypes":["MASTODON"],
		"data":{"MASTODON":{"text":"We launched!","uploadIds":["`+upload+`"],"privacy":"UNLISTED"}},"firstComment":{"MASTODON":"Details below"}}`)
	require.Equal(t, http.StatusOK, st, string(b))
	require.Equal(t, "SCHEDULED", p.Status)
	require.Equal(t, []string{"MASTODON"}, p.SocialAccountTypes)
	require.Len(t, p.Uploads, 1)
	require.Equal(t, account, p.SocialAccounts[0].SocialAccountID)

	// The upload is used by a scheduled post: it cannot be deleted.
	res, b := do(t, http.MethodDelete, srv.URL+"/api/v1/upload/"+upload, "", "x-api-key", key)
	require.Equal(t, http.StatusBadRequest, res.StatusCode, string(b))

	p = waitPost(t, srv, key, p.ID, "POSTED")
	require.NotNil(t, p.PostedDate)
	require.Nil(t, p.Error)
	ext := p.ExternalData["MASTODON"]
	require.NotEmpty(t, ext.ID)
	require.Contains(t, ext.Permalink, ext.ID)
	held := srv.Sandbox.Held(app.Mastodon, sandbox.KindPost)
	require.Len(t, held, 1)
	require.Equal(t, "We launched!", held[0].Text)
	require.Len(t, held[0].Media, 1)
	eventually(t, "first comment", func() bool { return len(srv.Sandbox.Held(app.Mastodon, sandbox.KindComment)) == 1 })
	require.Equal(t, ext.ID, srv.Sandbox.Held(app.Mastodon, sandbox.KindComment)[0].Parent)

	var kind string
	var payload []byte
	require.NoError(t, srv.Pool.QueryRow(context.Background(), `SELECT kind, payload FROM events WHERE kind = 'post.published'`).Scan(&kind, &payload))
	var ev postAnswer
	require.NoError(t, json.Unmarshal(payload, &ev))
	require.Equal(t, p.ID, ev.ID)
	require.Equal(t, "POSTED", ev.Status)

	st, byKey, _ := postJSON(t, srv, http.MethodGet, "/api/v1/post/reference-key/launch-1", key, "")
	require.Equal(t, http.StatusOK, st)
	require.Equal(t, p.ID, byKey.ID)
	st, _, _ = postJSON(t, srv, http.MethodGet, "/api/v1/post/reference-key/nope", key, "")
	require.Equal(t, http.StatusNotFound, st)

	// Usage counts the post; the account's day counts it too.
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/organization/usage/posts", "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.JSONEq(t, `{"used":1,"limit":20,"remaining":19}`, string(b))
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/organization/usage/daily-limits?socialAccountId="+account, "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Contains(t, string(b), `"posts":{"limit":300,"remaining":299,"used":1}`)
	require.Contains(t, string(b), `"comments":{"limit":300,"remaining":299,"used":1}`)

	// Deleting a posted post deletes it on Mastodon.
	st, del, b := postJSON(t, srv, http.MethodDelete, "/api/v1/post/"+p.ID, key, "")
	require.Equal(t, http.StatusOK, st, string(b))
	require.Equal(t, "DELETED", del.Status)
	require.NotNil(t, del.DeletedAt)
	require.NotNil(t, srv.Sandbox.Held(app.Mastodon, sandbox.KindPost)[0].DeletedAt)
	require.Equal(t, "DELETED", getPost(t, srv, key, p.ID).Status)
	res, _ = do(t, http.MethodGet, srv.URL+"/api/v1/organization/usage/posts", "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode)
}

// Validation: the contract's issues with full paths, the service's own, and 404 for a team of
// another organization.
func TestPostValidation(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Checks")
	other := newTeam(t, srv, apiKeyFor(t, srv), "Theirs")
	cases := []struct {
		body  string
		path  string
		code  string
		scode int
	}{
		{`{"teamId":"` + team + `","title":"T","postDate":"` + soon(time.Hour) + `","status":"SCHEDULED","socialAccountTypes":["TWITTER"],"data":{"TWITTER":{"text":"x","poll":{"options":["only one"],"durationMinutes":60}}}}`,
			`["data","TWITTER","poll","options"]`, "too_small", 400},
		{`{"teamId":"` + team + `","title":"T","postDate":"not a date","status":"DRAFT","socialAccountTypes":["MASTODON"],"data":{}}`,
			`["postDate"]`, "invalid_date", 400},
		{`{"teamId":"` + team + `","title":"T","postDate":"` + soon(time.Hour) + `","status":"SCHEDULED","socialAccountTypes":["MASTODON"],"data":{"MASTODON":{"text":"x"}}}`,
			`["socialAccountTypes",0]`, "custom", 400},
		{`{"teamId":"` + team + `","title":"T","postDate":"` + soon(time.Hour) + `","status":"POSTED","socialAccountTypes":["MASTODON"],"data":{}}`,
			`["status"]`, "invalid_enum_value", 400},
		{`{"teamId":"` + other + `","title":"T","postDate":"` + soon(time.Hour) + `","status":"DRAFT","socialAccountTypes":["MASTODON"],"data":{}}`,
			``, "", 404},
	}
	for _, tc := range cases {
		st, _, b := postJSON(t, srv, http.MethodPost, "/api/v1/post", key, tc.body)
		require.Equal(t, tc.scode, st, string(b))
		if tc.path == "" {
			continue
		}
		e := decodeError(t, b)
		found := false
		for _, is := range e.Issues {
			p, _ := json.Marshal(is.Path)
			found = found || (string(p) == tc.path && is.Code == tc.code)
		}
		require.True(t, found, "want %s %s in %s", tc.path, tc.code, string(b))
	}
	connectNetwork(t, srv, key, team, "MASTODON")
	st, _, b := postJSON(t, srv, http.MethodPost, "/api/v1/post", key, `{"teamId":"`+team+`","title":"T","postDate":"2020-01-01T00:00:00Z","status":"SCHEDULED","socialAccountTypes":["MASTODON"],"data":{"MASTODON":{"text":"x"}}}`)
	require.Equal(t, http.StatusBadRequest, st, string(b))
	require.Equal(t, []any{"postDate"}, decodeError(t, b).Issues[0].Path)
}

// Drafts, review, list filters and pagination, update moving the schedule, the FREE plan's 20
// posts a month (drafts do not count, deleted ones do).
func TestPostLifecycleListAndQuota(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Plan")
	connectNetwork(t, srv, key, team, "MASTODON")
	create := func(title, status string, at time.Duration) (int, postAnswer, []byte) {
		return postJSON(t, srv, http.MethodPost, "/api/v1/post", key, `{"teamId":"`+team+`","title":"`+title+`","postDate":"`+soon(at)+`","status":"`+status+`",
			"socialAccountTypes":["MASTODON"],"data":{"MASTODON":{"text":"`+title+` text"}}}`)
	}
	st, draft, b := create("Draft one", "DRAFT", time.Hour)
	require.Equal(t, http.StatusOK, st, string(b))
	require.Equal(t, "DRAFT", draft.Status)
	st, review, b := create("Needs review", "REVIEW", time.Hour)
	require.Equal(t, http.StatusOK, st, string(b))
	require.Equal(t, "REVIEW", review.Status)

	ids := []string{}
	for i := 0; i < 20; i++ {
		st, p, b := create(fmt.Sprintf("Scheduled %02d", i), "SCHEDULED", time.Duration(24+i)*time.Hour)
		require.Equal(t, http.StatusOK, st, string(b))
		ids = append(ids, p.ID)
	}
	st, _, b = create("One too many", "SCHEDULED", 48*time.Hour)
	require.Equal(t, http.StatusForbidden, st, string(b))
	require.Contains(t, decodeError(t, b).Message, "Monthly post limit reached")
	st, _, b = create("Drafts still work", "DRAFT", 48*time.Hour)
	require.Equal(t, http.StatusOK, st, string(b))
	// A deleted scheduled post still counts.
	st, _, _ = postJSON(t, srv, http.MethodDelete, "/api/v1/post/"+ids[19], key, "")
	require.Equal(t, http.StatusOK, st)
	st, _, b = create("Still too many", "SCHEDULED", 48*time.Hour)
	require.Equal(t, http.StatusForbidden, st, string(b))

	var list struct {
		Items []postAnswer `json:"items"`
		Total int          `json:"total"`
	}
	res, b := do(t, http.MethodGet, srv.URL+"/api/v1/post?teamId="+team+"&status=SCHEDULED&orderBy=postDate&order=ASC&limit=5&offset=5", "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.NoError(t, json.Unmarshal(b, &list))
	require.Equal(t, 19, list.Total)
	require.Len(t, list.Items, 5)
	require.Equal(t, "Scheduled 05", list.Items[0].Title)
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/post?teamId="+team+"&q=review", "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.NoError(t, json.Unmarshal(b, &list))
	require.Equal(t, 1, list.Total)
	require.Equal(t, review.ID, list.Items[0].ID)
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/post?teamId="+team+"&platforms=TWITTER", "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.NoError(t, json.Unmarshal(b, &list))
	require.Equal(t, 0, list.Total)
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/post?teamId="+team+"&status=DELETED", "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.NoError(t, json.Unmarshal(b, &list))
	require.Equal(t, 1, list.Total)
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/post?teamId="+team+"&postDateFrom="+soon(47*time.Hour)+"&postDateTo="+soon(100*time.Hour), "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.NoError(t, json.Unmarshal(b, &list))
	require.Equal(t, 1, list.Total, "only the draft at +48h")

	// Update moves the schedule: the target's version changes, the old job becomes a no-op.
	var version int
	st, moved, b := postJSON(t, srv, http.MethodPatch, "/api/v1/post/"+ids[0], key, `{"postDate":"`+soon(2*time.Second)+`","title":"Moved"}`)
	require.Equal(t, http.StatusOK, st, string(b))
	require.Equal(t, "Moved", moved.Title)
	require.NoError(t, srv.Pool.QueryRow(context.Background(), `SELECT version FROM publish_targets WHERE post_id = $1`, ids[0]).Scan(&version))
	require.Equal(t, 2, version)
	waitPost(t, srv, key, ids[0], "POSTED")
	require.Len(t, srv.Sandbox.Held(app.Mastodon, sandbox.KindPost), 1)
	st, _, b = postJSON(t, srv, http.MethodPatch, "/api/v1/post/"+ids[0], key, `{"title":"Too late"}`)
	require.Equal(t, http.StatusBadRequest, st, string(b))

	// Review: a MEMBER cannot approve, an OWNER can (through the Service the dashboard uses).
	ctx := app.WithPrincipal(context.Background(), ownerPrincipal(t, srv, key))
	approved, err := srv.Publishing.ApprovePost(ctx, review.ID)
	require.Error(t, err, "the monthly quota is used up")
	require.Equal(t, app.EForbidden, app.ErrorCode(err))
	sent, err := srv.Publishing.RejectPost(ctx, review.ID, "Fix the tone")
	require.NoError(t, err)
	require.Equal(t, app.PostDraft, sent.Status)
	require.Equal(t, "Fix the tone", *sent.ReviewNote)
	_ = approved
}

// ownerPrincipal resolves the API key's principal (an OWNER).
func ownerPrincipal(t *testing.T, srv *servertest.Server, key string) *app.Principal {
	t.Helper()
	p, err := srv.Service.AuthenticateAPIKey(context.Background(), key)
	require.NoError(t, err)
	return p
}

// Network refusals are stored verbatim (errorsVerbose only with showVerboseErrors); retry re-runs
// the failed networks only; a transient failure is RETRYING with its next attempt.
func TestPostErrorsAndRetry(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Errors")
	connectNetwork(t, srv, key, team, "MASTODON")
	res, b := do(t, http.MethodPost, srv.URL+"/sandbox/mastodon/_sandbox/fail", `{"status":422,"message":"Validation failed: Text character limit of 500 exceeded","path":"/api/v1/statuses","times":1}`)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	st, p, b := postJSON(t, srv, http.MethodPost, "/api/v1/post", key, `{"teamId":"`+team+`","title":"Fails","postDate":"`+soon(0)+`","status":"SCHEDULED",
		"socialAccountTypes":["MASTODON"],"data":{"MASTODON":{"text":"hello"}}}`)
	require.Equal(t, http.StatusOK, st, string(b))
	p = waitPost(t, srv, key, p.ID, "ERROR")
	require.Equal(t, "Validation failed: Text character limit of 500 exceeded", *p.Errors["MASTODON"])
	require.Contains(t, *p.Error, "Mastodon: Validation failed")
	require.Nil(t, p.ErrorsVerbose, "verbose errors are off by default")

	res, b = do(t, http.MethodPatch, srv.URL+"/api/v1/organization/settings", `{"verboseErrors":true}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	p = getPost(t, srv, key, p.ID)
	v := p.ErrorsVerbose["MASTODON"]
	require.Equal(t, float64(422), v["httpStatus"])
	require.Equal(t, false, v["isTransient"])
	require.Equal(t, "non_retryable", v["retryability"])
	require.NotEmpty(t, v["userFacingMessage"])

	st, p, b = postJSON(t, srv, http.MethodPost, "/api/v1/post/"+p.ID+"/retry", key, "")
	require.Equal(t, http.StatusOK, st, string(b))
	require.Equal(t, 1, p.RetryCount)
	p = waitPost(t, srv, key, p.ID, "POSTED")
	require.Nil(t, p.Errors)
	require.Len(t, srv.Sandbox.Held(app.Mastodon, sandbox.KindPost), 1)
	st, _, b = postJSON(t, srv, http.MethodPost, "/api/v1/post/"+p.ID+"/retry", key, "")
	require.Equal(t, http.StatusBadRequest, st, string(b))

	// 503: transient, RETRYING with the next attempt recorded, reconciled before retrying.
	res, _ = do(t, http.MethodPost, srv.URL+"/sandbox/mastodon/_sandbox/fail", `{"status":503,"message":"down","path":"/api/v1/statuses","times":1}`)
	require.Equal(t, http.StatusOK, res.StatusCode)
	_, p, _ = postJSON(t, srv, http.MethodPost, "/api/v1/post", key, `{"teamId":"`+team+`","title":"Flaky","postDate":"`+soon(0)+`","status":"SCHEDULED",
		"socialAccountTypes":["MASTODON"],"data":{"MASTODON":{"text":"flaky"}}}`)
	p = waitPost(t, srv, key, p.ID, "RETRYING")
	require.Equal(t, true, p.ErrorsVerbose["MASTODON"]["isTransient"])
	var next time.Time
	var unknown bool
	require.NoError(t, srv.Pool.QueryRow(context.Background(), `SELECT next_attempt_at, outcome_unknown FROM publish_targets WHERE post_id = $1`, p.ID).Scan(&next, &unknown))
	require.WithinDuration(t, time.Now().Add(30*time.Second), next, 5*time.Second)
	require.True(t, unknown, "a 5xx may have landed: the next attempt reconciles first")

	// 429: RETRYING at the network's own reset time, nothing to reconcile.
	res, _ = do(t, http.MethodPost, srv.URL+"/sandbox/mastodon/_sandbox/fail", `{"status":429,"message":"Too many requests","path":"/api/v1/statuses","times":1,"resetInSeconds":300}`)
	require.Equal(t, http.StatusOK, res.StatusCode)
	_, p, _ = postJSON(t, srv, http.MethodPost, "/api/v1/post", key, `{"teamId":"`+team+`","title":"Throttled","postDate":"`+soon(0)+`","status":"SCHEDULED",
		"socialAccountTypes":["MASTODON"],"data":{"MASTODON":{"text":"throttled"}}}`)
	p = waitPost(t, srv, key, p.ID, "RETRYING")
	require.Equal(t, "retryable", p.ErrorsVerbose["MASTODON"]["retryability"])
	require.NoError(t, srv.Pool.QueryRow(context.Background(), `SELECT next_attempt_at, outcome_unknown FROM publish_targets WHERE post_id = $1`, p.ID).Scan(&next, &unknown))
	require.WithinDuration(t, time.Now().Add(300*time.Second), next, 5*time.Second)
	require.False(t, unknown)
}

// uploadPhoto uploads an 8×8 PNG to the team's library and answers its id.
func uploadPhoto(t *testing.T, srv *servertest.Server, key, team string) string {
	t.Helper()
	res, b := postFile(t, srv, key, team, "", mediatest.PNG(8, 8))
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	return decodeUpload(t, b).ID
}
