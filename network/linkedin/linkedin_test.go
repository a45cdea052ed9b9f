package linkedin_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/linkedin"
)

// Documented shapes: OAuth 2 3-legged flow, OpenID userinfo, organizationAcls and organizations
// (Community Management API), the error body with serviceErrorCode.
func TestAdapterAgainstDocumentedShapes(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path != "/oauth/v2/accessToken" && r.URL.Path != "/v2/userinfo" {
			require.Equal(t, linkedin.Version, r.Header.Get("LinkedIn-Version"))
			require.Equal(t, "2.0.0", r.Header.Get("X-Restli-Protocol-Version"))
		}
		switch r.URL.Path {
		case "/oauth/v2/accessToken":
			require.NoError(t, r.ParseForm())
			require.Equal(t, "sec", r.PostForm.Get("client_secret"))
			_, _ = w.Write([]byte(`{"access_token":"AQUvlL_DYEzvT2wz1QJiEPeLioeA","expires_in":5184000,"scope":"r_basicprofile"}`))
		case "/v2/userinfo":
			_, _ = w.Write([]byte(`{"sub":"782bbtaQ","name":"John Doe","given_name":"John","family_name":"Doe","picture":"https://media.licdn-ei.com/dms/image/C5F03AQHqK8v7tB1HCQ/profile-displayphoto-shrink_100_100/0/","locale":"en-US","email":"doe@email.com","email_verified":true}`))
		case "/rest/organizationAcls":
			require.Equal(t, "roleAssignee", r.URL.Query().Get("q"))
			_, _ = w.Write([]byte(`{"paging":{"start":0,"count":10,"links":[]},"elements":[{"roleAssignee":"urn:li:person:782bbtaQ","state":"APPROVED","role":"ADMINISTRATOR","organization":"urn:li:organization:2414183"}]}`))
		case "/rest/organizations/2414183":
			_, _ = w.Write([]byte(`{"vanityName":"linkedin","localizedName":"LinkedIn","id":2414183,"name":{"localized":{"en_US":"LinkedIn"}}}`))
		}
	}))
	defer srv.Close()
	a := linkedin.New(core.Endpoints{Auth: srv.URL, API: srv.URL}, core.Credentials{ClientID: "cid", ClientSecret: "sec"})
	raw, _ := a.AuthorizeURL(context.Background(), app.AuthorizeRequest{RedirectURI: "https://c.example/cb", State: "s"})
	u, _ := url.Parse(raw)
	require.Equal(t, "/oauth/v2/authorization", u.Path)
	require.Contains(t, u.Query().Get("scope"), "openid profile email w_member_social")

	tok, err := a.Exchange(context.Background(), app.ExchangeRequest{Code: "c", RedirectURI: "https://c.example/cb"})
	require.NoError(t, err)
	require.Empty(t, tok.RefreshToken, "only partner apps get refresh tokens")
	_, err = a.Refresh(context.Background(), tok)
	require.ErrorIs(t, err, app.ErrNoRefresh)

	p, err := a.Profile(context.Background(), tok)
	require.NoError(t, err)
	require.Equal(t, "782bbtaQ", p.UserID)
	require.Equal(t, "doe@email.com", p.UserEmail)
	cs, err := a.Channels(context.Background(), tok)
	require.NoError(t, err)
	require.Len(t, cs, 1)
	require.Equal(t, "2414183", cs[0].ID)
	require.Equal(t, "LinkedIn", *cs[0].Name)
}

func TestClassify(t *testing.T) {
	t.Parallel()
	ne := linkedin.Classify(401, nil, []byte(`{"serviceErrorCode":65601,"message":"The token used in the request has been revoked by the user","status":401}`))
	require.Equal(t, app.ErrAuthExpired, ne.Class)
	require.Equal(t, "65601", ne.Code)
	require.Equal(t, "The token used in the request has been revoked by the user", ne.Message)
	ne = linkedin.Classify(403, nil, []byte(`{"status":403,"serviceErrorCode":100,"code":"ACCESS_DENIED","message":"Not enough permissions to access: partnerApiPostsExternal.CREATE.20240101"}`))
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.Equal(t, app.ErrRateLimited, linkedin.Classify(429, nil, []byte(`{"message":"Resource level throttle APPLICATION DAY limit for calls to this resource is reached.","status":429}`)).Class)
	require.Equal(t, app.ErrTransient, linkedin.Classify(500, nil, []byte(`{"message":"Unable to obtain activity","status":500}`)).Class)
}
