package instagram_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/instagram"
)

// Documented shape of GET /me/accounts with instagram_business_account (Instagram Graph API,
// "Get started": find the IG user id through the page).
func TestChannelsAreLinkedBusinessAccounts(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		require.Equal(t, "/v21.0/me/accounts", r.URL.Path)
		require.Contains(t, r.URL.Query().Get("fields"), "instagram_business_account{id,username")
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"data":[{"id":"134895793791914","name":"Metricsaurus","access_token":"EAAPage","instagram_business_account":{"id":"17841405822304914","username":"metricsaurus","name":"Metricsaurus","profile_picture_url":"https://scontent.xx.fbcdn.net/p.jpg"}},{"id":"2","name":"No IG","access_token":"EAAOther"}],"paging":{"cursors":{"before":"a","after":"b"}}}`))
	}))
	defer srv.Close()
	a := instagram.New(core.Endpoints{Auth: srv.URL, API: srv.URL}, core.Credentials{ClientID: "c", ClientSecret: "s"})
	require.Equal(t, app.Instagram, a.Network())
	cs, err := a.Channels(context.Background(), &app.Token{AccessToken: "t"})
	require.NoError(t, err)
	require.Len(t, cs, 1)
	require.Equal(t, "17841405822304914", cs[0].ID)
	require.Equal(t, "metricsaurus", *cs[0].Username)
	require.Equal(t, "134895793791914", *cs[0].Metadata.FacebookPageID)
	require.Equal(t, "EAAPage", cs[0].Token)

}
