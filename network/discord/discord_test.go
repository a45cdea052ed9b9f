package discord_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/discord"
)

// Documented shapes: guild channels (types), the bot Authorization header, error bodies and 429s.
func TestAdapterAgainstDocumentedShapes(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		require.Equal(t, "Bot b0t", r.Header.Get("Authorization"))
		switch r.URL.Path {
		case "/api/v10/guilds/41771983423143937/channels":
			_, _ = w.Write([]byte(`[{"id":"41771983423143937","type":0,"name":"general","position":6},{"id":"155101607195836416","type":2,"name":"ROCKET CHEESE","bitrate":64000},{"id":"399942396007890945","type":5,"name":"news"},{"id":"2","type":4,"name":"Category"}]`))
		case "/api/v10/guilds/gone":
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(`{"message":"Missing Access","code":50001}`))
		}
	}))
	defer srv.Close()
	a := discord.New(core.Endpoints{Auth: srv.URL, API: srv.URL}, core.Credentials{ClientID: "c", ClientSecret: "s", BotToken: "b0t"})
	cs, err := a.Channels(context.Background(), &app.Token{Secrets: map[string]string{"guildId": "41771983423143937"}})
	require.NoError(t, err)
	require.Len(t, cs, 2)
	require.Equal(t, "news", *cs[1].Name)
	err = a.Check(context.Background(), &app.Token{Secrets: map[string]string{"guildId": "gone"}})
	require.Equal(t, app.ErrAuthExpired, app.ClassOf(err), "the bot was removed: install again")

	// The webhook.incoming scope: the token answer's webhook lands on its channel.
	tsrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"token_type":"Bearer","access_token":"GNaVzEtATqdh173tNHEXY9ZYAuhiYxvy","scope":"webhook.incoming","expires_in":604800,"refresh_token":"PvPL7ELyMDc1836457XCDh1Y8jPbRm","webhook":{"application_id":"310954232226357250","name":"testwebhook","url":"https://discord.com/api/webhooks/347114750880120863/kKDdjXa1g9tKNs0-_yOwLyALC9gydEWP6gr9sHabuK1vuofjhQDDnlOclJeRIvYK-pj_","channel_id":"399942396007890945","token":"kKDdjXa1g9tKNs0-_yOwLyALC9gydEWP6gr9sHabuK1vuofjhQDDnlOclJeRIvYK-pj_","avatar":null,"guild_id":"41771983423143937","id":"347114750880120863"}}`))
	}))
	defer tsrv.Close()
	wa := discord.New(core.Endpoints{Auth: tsrv.URL, API: tsrv.URL}, core.Credentials{ClientID: "c", ClientSecret: "s", BotToken: "b0t"})
	tok, err := wa.Exchange(context.Background(), app.ExchangeRequest{Code: "c", RedirectURI: "https://c/cb", Query: map[string]string{"guild_id": "41771983423143937"}})
	require.NoError(t, err)
	tok.Secrets["guildId"] = "41771983423143937"
	cs, err = a.Channels(context.Background(), tok)
	require.NoError(t, err)
	require.Nil(t, cs[0].Webhook)
	require.NotNil(t, cs[1].Webhook, "the webhook posts to #news")
	require.Equal(t, "347114750880120863", *cs[1].Webhook.ID)
	require.Equal(t, "testwebhook", *cs[1].Webhook.Name)
	require.Contains(t, *cs[1].Webhook.URL, "/api/webhooks/347114750880120863/")
	require.Nil(t, cs[1].Webhook.Avatar)

	ne := discord.Classify(429, http.Header{}, []byte(`{"message":"You are being rate limited.","retry_after":64.57,"global":false}`))
	require.Equal(t, app.ErrRateLimited, ne.Class)
	require.WithinDuration(t, time.Now().Add(64570*time.Millisecond), ne.ResetAt, 2*time.Second)
	ne = discord.Classify(400, nil, []byte(`{"code":50035,"errors":{},"message":"Invalid Form Body"}`))
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.Equal(t, "50035", ne.Code)
}
