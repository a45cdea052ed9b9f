package slack_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/slack"
)

// Documented shapes: oauth.v2.access, team.info, conversations.list with cursors, ok:false errors.
func TestAdapterAgainstDocumentedShapes(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api/oauth.v2.access":
			require.NoError(t, r.ParseForm())
			if r.PostForm.Get("code") == "used" {
				_, _ = w.Write([]byte(`{"ok":false,"error":"invalid_code"}`))
				return
			}
			_, _ = w.Write([]byte(`{"ok":true,"access_token":"xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy","token_type":"bot","scope":"commands,incoming-webhook","bot_user_id":"U0KRQLJ9H","app_id":"A0KRD7HC3","team":{"name":"Slack Softball Team","id":"T9TK3CUKW"},"enterprise":{"name":"slack-sports","id":"E12345678"},"authed_user":{"id":"U1234","scope":"chat:write","access_token":"xoxp-1234","token_type":"user"},"incoming_webhook":{"channel":"#random","channel_id":"C061EG9T2","configuration_url":"https://teamname.slack.com/services/B0123ABC","url":"https://hooks.slack.com/services/T9TK3CUKW/B0123ABC/1234567890abcdef"}}`))
		case "/api/team.info":
			_, _ = w.Write([]byte(`{"ok":true,"team":{"id":"T12345","name":"My Team","domain":"example","email_domain":"example.com","icon":{"image_34":"https://a/34.png","image_132":"https://a/132.png","image_default":true}}}`))
		case "/api/conversations.list":
			if r.URL.Query().Get("cursor") == "" {
				_, _ = w.Write([]byte(`{"ok":true,"channels":[{"id":"C012AB3CD","name":"general","is_channel":true,"is_private":false}],"response_metadata":{"next_cursor":"dGVhbTpDMDYxRkE1UEI="}}`))
				return
			}
			_, _ = w.Write([]byte(`{"ok":true,"channels":[{"id":"C061EG9T2","name":"random","is_channel":true}],"response_metadata":{"next_cursor":""}}`))
		}
	}))
	defer srv.Close()
	a := slack.New(core.Endpoints{Auth: srv.URL, API: srv.URL}, core.Credentials{ClientID: "c", ClientSecret: "s"})
	tok, err := a.Exchange(context.Background(), app.ExchangeRequest{Code: "ok", RedirectURI: "https://c/cb"})
	require.NoError(t, err)
	require.Equal(t, "xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy", tok.AccessToken)
	require.True(t, tok.Expiry.IsZero(), "bot tokens without rotation do not expire")
	_, err = a.Exchange(context.Background(), app.ExchangeRequest{Code: "used"})
	require.Equal(t, app.ErrPermanent, app.ClassOf(err))
	p, err := a.Profile(context.Background(), tok)
	require.NoError(t, err)
	require.Equal(t, "My Team", p.DisplayName)
	require.Equal(t, "U1234", p.UserID)
	cs, err := a.Channels(context.Background(), tok)
	require.NoError(t, err)
	require.Len(t, cs, 2)
	require.Nil(t, cs[0].Webhook)
	require.NotNil(t, cs[1].Webhook, "the install's incoming webhook posts to #random")
	require.Equal(t, "https://hooks.slack.com/services/T9TK3CUKW/B0123ABC/1234567890abcdef", *cs[1].Webhook.URL)
	require.Equal(t, "#random", *cs[1].Webhook.Name)
	require.Equal(t, "B0123ABC", *cs[1].Webhook.ID)

	h := http.Header{}
	h.Set("Retry-After", "30")
	ne := slack.Classify(429, h, []byte(`{"ok":false,"error":"ratelimited"}`))
	require.Equal(t, app.ErrRateLimited, ne.Class)
	require.WithinDuration(t, time.Now().Add(30*time.Second), ne.ResetAt, 3*time.Second)
	require.Equal(t, app.ErrAuthExpired, slack.Classify(200, nil, []byte(`{"ok":false,"error":"token_revoked"}`)).Class)
	require.Equal(t, app.ErrPermanent, slack.Classify(200, nil, []byte(`{"ok":false,"error":"channel_not_found"}`)).Class)
}
