package bluesky_test

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/bluesky"
)

// Documented shapes: createSession / refreshSession / getProfile, XRPC errors and RateLimit-Reset.
func TestAdapterAgainstDocumentedShapes(t *testing.T) {
	t.Parallel()
	exp := time.Now().Add(2 * time.Hour).Truncate(time.Second)
	jwt := "eyJhbGciOiJFUzI1NksifQ." + base64.RawURLEncoding.EncodeToString([]byte(`{"scope":"com.atproto.appPass","sub":"did:plc:z72i7hdynmk6r22z27h6tvur","exp":`+strconv.FormatInt(exp.Unix(), 10)+`}`)) + ".sig"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/xrpc/com.atproto.server.createSession":
			_, _ = w.Write([]byte(`{"did":"did:plc:z72i7hdynmk6r22z27h6tvur","handle":"bsky.app","email":"a@b.c","accessJwt":"` + jwt + `","refreshJwt":"refresh-1","active":true}`))
		case "/xrpc/com.atproto.server.refreshSession":
			require.Equal(t, "Bearer refresh-1", r.Header.Get("Authorization"))
			_, _ = w.Write([]byte(`{"did":"did:plc:z72i7hdynmk6r22z27h6tvur","handle":"bsky.app","accessJwt":"` + jwt + `","refreshJwt":"refresh-2"}`))
		case "/xrpc/app.bsky.actor.getProfile":
			require.Equal(t, "did:plc:z72i7hdynmk6r22z27h6tvur", r.URL.Query().Get("actor"))
			_, _ = w.Write([]byte(`{"did":"did:plc:z72i7hdynmk6r22z27h6tvur","handle":"bsky.app","displayName":"Bluesky","avatar":"https://cdn.bsky.app/img/avatar/plain/x@jpeg","description":"official Bluesky account"}`))
		}
	}))
	defer srv.Close()
	a := bluesky.New(srv.URL, true)
	tok, err := a.CreateSession(context.Background(), "", "@bsky.app", "abcd-efgh-ijkl-mnop")
	require.NoError(t, err)
	require.True(t, tok.Expiry.Equal(exp), "expiry from the JWT's exp")
	p, err := a.Profile(context.Background(), tok)
	require.NoError(t, err)
	require.Equal(t, "bsky.app", p.Username)
	require.Equal(t, "a@b.c", p.UserEmail)
	nt, err := a.Refresh(context.Background(), tok)
	require.NoError(t, err)
	require.Equal(t, "refresh-2", nt.RefreshToken)

	_, err = bluesky.New("", false).CreateSession(context.Background(), "http://127.0.0.1:1", "x", "y")
	require.Equal(t, app.ErrPermanent, app.ClassOf(err), "private servers are refused")

	h := http.Header{}
	h.Set("RateLimit-Reset", strconv.FormatInt(exp.Unix(), 10))
	ne := bluesky.Classify(429, h, []byte(`{"error":"RateLimitExceeded","message":"Rate Limit Exceeded"}`))
	require.Equal(t, app.ErrRateLimited, ne.Class)
	require.True(t, ne.ResetAt.Equal(exp))
	require.Equal(t, app.ErrAuthExpired, bluesky.Classify(400, nil, []byte(`{"error":"ExpiredToken","message":"Token has expired"}`)).Class)
	require.Equal(t, app.ErrAuthExpired, bluesky.Classify(401, nil, []byte(`{"error":"AuthenticationRequired","message":"Invalid identifier or password"}`)).Class)
	require.Equal(t, app.ErrPermanent, bluesky.Classify(400, nil, []byte(`{"error":"InvalidRequest","message":"Record/text must not be longer than 300 graphemes"}`)).Class)
}
