package googlebusiness_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/googlebusiness"
)

// Documented shapes: accounts.list and accounts.locations.list (readMask) with page tokens.
func TestChannelsAreLocations(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/v1/accounts":
			_, _ = w.Write([]byte(`{"accounts":[{"name":"accounts/1094","accountName":"Ada Bakes","type":"PERSONAL","verificationState":"UNVERIFIED"}]}`))
		case "/v1/accounts/1094/locations":
			require.Contains(t, r.URL.Query().Get("readMask"), "storefrontAddress")
			if r.URL.Query().Get("pageToken") == "" {
				_, _ = w.Write([]byte(`{"locations":[{"name":"locations/1139","title":"Ada Bakes Downtown","storefrontAddress":{"regionCode":"US","languageCode":"en","postalCode":"94043","administrativeArea":"CA","locality":"Mountain View","addressLines":["1600 Amphitheatre Pkwy"]}}],"nextPageToken":"p2"}`))
				return
			}
			_, _ = w.Write([]byte(`{"locations":[{"name":"locations/2000","title":"Ada Bakes Kiosk"}]}`))
		}
	}))
	defer srv.Close()
	a := googlebusiness.New(core.Endpoints{Auth: srv.URL, API: srv.URL, Token: srv.URL}, core.Credentials{ClientID: "c", ClientSecret: "s"})
	cs, err := a.Channels(context.Background(), &app.Token{AccessToken: "t"})
	require.NoError(t, err)
	require.Len(t, cs, 2)
	require.Equal(t, "accounts/1094/locations/1139", cs[0].ID)
	require.Equal(t, "1600 Amphitheatre Pkwy, 94043 Mountain View, US", *cs[0].Address)
	require.Nil(t, cs[1].Address)
}
