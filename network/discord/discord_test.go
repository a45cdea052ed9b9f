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

	ne := discord.Classify(429, http.Header{}, []byte(`{"message":"You are being rate limited.","retry_after":64.57,"global":false}`))
	require.Equal(t, app.ErrRateLimited, ne.Class)
	require.WithinDuration(t, time.Now().Add(64570*time.Millisecond), ne.ResetAt, 2*time.Second)
	ne = discord.Classify(400, nil, []byte(`{"code":50035,"errors":{},"message":"Invalid Form Body"}`))
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.Equal(t, "50035", ne.Code)
}
