package server_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server/servertest"
)

// saAccount is the part of a SocialAccount the tests read.
type saAccount struct {
	ID              string  `json:"id"`
	Type            string  `json:"type"`
	TeamID          string  `json:"teamId"`
	Username        *string `json:"username"`
	DisplayName     *string `json:"displayName"`
	AvatarURL       *string `json:"avatarUrl"`
	ExternalID      *string `json:"externalId"`
	ProviderPageID  *string `json:"providerPageId"`
	UserID          *string `json:"userId"`
	UserDisplayName *string `json:"userDisplayName"`
	TwitterSubType  *string `json:"twitterSubType"`
	DeleteOn        *string `json:"deleteOn"`
	MessagingStatus string  `json:"messagingStatus"`
	Channels        []struct {
		ID      string  `json:"id"`
		Name    *string `json:"name"`
		Webhook *struct {
			ID, Name, Avatar, URL *string
		} `json:"webhook"`
	} `json:"channels"`
	InstagramConnectionMethod *string `json:"instagramConnectionMethod"`
	IsTiktokBusinessAccount   *bool   `json:"isTiktokBusinessAccount"`
}

type sandboxState struct {
	Calls []struct {
		Method, Path, Query string
		Status              int
	} `json:"calls"`
	LiveAccessTokens int `json:"liveAccessTokens"`
}

func sandboxOf(t *testing.T, srv *servertest.Server, seg string) sandboxState {
	t.Helper()
	res, b := do(t, http.MethodGet, srv.URL+"/sandbox/"+seg+"/_sandbox", "")
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var st sandboxState
	require.NoError(t, json.Unmarshal(b, &st))
	return st
}

func (st sandboxState) count(method, path string) int {
	n := 0
	for _, c := range st.Calls {
		if c.Method == method && c.Path == path {
			n++
		}
	}
	return n
}

func newTeam(t testing.TB, srv *servertest.Server, key, name string) string {
	t.Helper()
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/team", `{"name":"`+name+`"}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var team struct{ ID string }
	require.NoError(t, json.Unmarshal(b, &team))
	return team.ID
}

// approve opens a consent URL of the sandbox with approve=1 and follows the redirects through
// Crier's callback; it answers where Crier finally sends the user.
func approve(t testing.TB, authorizeURL string) *url.URL {
	t.Helper()
	return approveAs(t, authorizeURL, "")
}

// approveAs is approve by the sandbox user login (a user of its own: its own accounts and limits).
func approveAs(t testing.TB, authorizeURL, login string) *url.URL {
	t.Helper()
	if login != "" {
		authorizeURL += "&login=" + url.QueryEscape(login)
	}
	res, b := do(t, http.MethodGet, authorizeURL+"&approve=1", "")
	require.Equal(t, http.StatusFound, res.StatusCode, string(b))
	callback := res.Header.Get("Location")
	require.Contains(t, callback, "/oauth/callback/")
	res, b = do(t, http.MethodGet, callback, "")
	require.Equal(t, http.StatusFound, res.StatusCode, string(b))
	u, err := url.Parse(res.Header.Get("Location"))
	require.NoError(t, err)
	return u
}

func connectURL(t testing.TB, srv *servertest.Server, key, network, teamID string) string {
	t.Helper()
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/social-account/connect",
		`{"type":"`+network+`","teamId":"`+teamID+`","redirectUrl":"https://app.example/done?from=crier"}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var out struct{ URL string }
	require.NoError(t, json.Unmarshal(b, &out))
	return out.URL
}

func byType(t testing.TB, srv *servertest.Server, key, network, teamID string) (int, saAccount) {
	t.Helper()
	res, b := do(t, http.MethodGet, srv.URL+"/api/v1/social-account/by-type?type="+network+"&teamId="+teamID, "", "x-api-key", key)
	var a saAccount
	if res.StatusCode == http.StatusOK {
		require.NoError(t, json.Unmarshal(b, &a))
	}
	return res.StatusCode, a
}

// X: connect through the sandbox (PKCE), the profile stored, the token refreshed when expired,
// injected 429 and revocation classified, reconnect keeps the id, disconnect soft-deletes.
func TestConnectXThroughSandbox(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "X team")

	authURL := connectURL(t, srv, key, "TWITTER", team)
	require.True(t, strings.HasPrefix(authURL, srv.URL+"/sandbox/x/i/oauth2/authorize?"), authURL)
	q := mustQuery(t, authURL)
	require.Equal(t, "S256", q.Get("code_challenge_method"))
	require.NotEmpty(t, q.Get("code_challenge"))
	require.Equal(t, srv.URL+"/oauth/callback/twitter", q.Get("redirect_uri"))
	require.Contains(t, q.Get("scope"), "offline.access")

	// The consent page is a form; approve=1 approves at once.
	res, b := do(t, http.MethodGet, authURL, "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, string(b), `name="approve"`)

	done := approve(t, authURL)
	require.Equal(t, "app.example", done.Host)
	require.Equal(t, "true", done.Query().Get("success"), done.String())
	require.Equal(t, "crier", done.Query().Get("from"))
	id := done.Query().Get("socialAccountId")
	require.NotEmpty(t, id)

	status, a := byType(t, srv, key, "TWITTER", team)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, id, a.ID)
	require.Equal(t, "crier_sandbox", *a.Username)
	require.Contains(t, *a.DisplayName, "Sandbox")
	require.Equal(t, "none", *a.TwitterSubType)
	require.NotEmpty(t, *a.ExternalID)
	require.Equal(t, "DISABLED", a.MessagingStatus)

	// The team detail embeds the account.
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/team/"+team, "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, string(b), `"socialAccounts":[{`)
	require.Contains(t, string(b), id)

	// An expired access token is refreshed (rotating refresh token) before the call.
	res, _ = do(t, http.MethodPost, srv.URL+"/sandbox/x/_sandbox/expire-tokens", "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	body := `{"type":"TWITTER","teamId":"` + team + `"}`
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/profile-refresh", body, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Contains(t, string(b), `"success":true`)
	require.Contains(t, string(b), `"limit":10`)
	st := sandboxOf(t, srv, "x")
	require.Equal(t, 2, st.count(http.MethodPost, "/2/oauth2/token"), "code exchange, then one refresh")

	// A 401 from the network triggers one refresh and a retry.
	res, _ = do(t, http.MethodPost, srv.URL+"/sandbox/x/_sandbox/fail", `{"status":401,"path":"/2/users/me"}`)
	require.Equal(t, http.StatusOK, res.StatusCode)
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/connection-check", body, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Contains(t, string(b), `"success":true`)
	require.Equal(t, 3, sandboxOf(t, srv, "x").count(http.MethodPost, "/2/oauth2/token"))

	// X's 429 is a 429 with X's own message.
	res, _ = do(t, http.MethodPost, srv.URL+"/sandbox/x/_sandbox/fail", `{"status":429,"message":"Too Many Requests","resetInSeconds":900,"path":"/2/users/me"}`)
	require.Equal(t, http.StatusOK, res.StatusCode)
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/profile-refresh", body, "x-api-key", key)
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode, string(b))
	require.Contains(t, decodeError(t, b).Message, "Too Many Requests")

	// Revoked at the network: one refresh attempt fails, the account needs reconnecting — no loop.
	res, _ = do(t, http.MethodPost, srv.URL+"/sandbox/x/_sandbox/revoke-tokens", "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	before := sandboxOf(t, srv, "x").count(http.MethodPost, "/2/oauth2/token")
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/connection-check", body, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Contains(t, string(b), `"success":false`)
	require.Equal(t, before+1, sandboxOf(t, srv, "x").count(http.MethodPost, "/2/oauth2/token"))
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/profile-refresh", body, "x-api-key", key)
	require.Equal(t, http.StatusForbidden, res.StatusCode, string(b))
	require.Contains(t, decodeError(t, b).Message, "connected again")
	require.Equal(t, before+1, sandboxOf(t, srv, "x").count(http.MethodPost, "/2/oauth2/token"), "no call once marked")

	// Reconnecting keeps the id and clears the mark.
	done = approve(t, connectURL(t, srv, key, "TWITTER", team))
	require.Equal(t, id, done.Query().Get("socialAccountId"))
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/profile-refresh", body, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))

	// A denied consent comes back as success=false.
	authURL = connectURL(t, srv, key, "TWITTER", team)
	res, _ = do(t, http.MethodGet, authURL+"&deny=1", "")
	require.Equal(t, http.StatusFound, res.StatusCode)
	res, _ = do(t, http.MethodGet, res.Header.Get("Location"), "")
	require.Equal(t, http.StatusFound, res.StatusCode)
	denied, _ := url.Parse(res.Header.Get("Location"))
	require.Equal(t, "false", denied.Query().Get("success"))
	require.Equal(t, "access_denied", denied.Query().Get("error"))

	// A forged state is refused.
	res, _ = do(t, http.MethodGet, srv.URL+"/oauth/callback/twitter?code=x&state=forged", "")
	require.Equal(t, http.StatusBadRequest, res.StatusCode)

	// Disconnect: soft delete with deleteOn (the organization's 72 hours), listed to delete; gone by type.
	res, b = do(t, http.MethodDelete, srv.URL+"/api/v1/social-account/disconnect", body, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var gone saAccount
	require.NoError(t, json.Unmarshal(b, &gone))
	require.NotNil(t, gone.DeleteOn)
	status, _ = byType(t, srv, key, "TWITTER", team)
	require.Equal(t, http.StatusNotFound, status)
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/social-account/to-delete", "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Contains(t, string(b), id)
	require.Contains(t, string(b), `"total":1`)

	// Events: created, updated (reconnect mark, checks, reconnect), deleted — in the outbox.
	var kinds []string
	rows, err := srv.Pool.Query(t.Context(), `SELECT kind FROM events WHERE payload->>'id' = $1 ORDER BY created_at`, id)
	require.NoError(t, err)
	for rows.Next() {
		var k string
		require.NoError(t, rows.Scan(&k))
		kinds = append(kinds, k)
	}
	require.NoError(t, rows.Err())
	require.Equal(t, "social-account.created", kinds[0])
	require.Contains(t, kinds, "social-account.updated")
	require.Equal(t, "social-account.deleted", kinds[len(kinds)-1])

	// Tokens are stored encrypted.
	var access []byte
	require.NoError(t, srv.Pool.QueryRow(t.Context(), `SELECT access_token_enc FROM social_accounts WHERE id = $1`, id).Scan(&access))
	require.NotContains(t, string(access), "x-at-")
}

// Facebook: connect, pages listed with their tokens, set-channel / unset-channel / refresh-channels.
func TestConnectFacebookPagesThroughSandbox(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Pages")
	// Tokens of 5 minutes: every use finds them within the refresh margin.
	res, _ := do(t, http.MethodPost, srv.URL+"/sandbox/facebook/_sandbox/knobs", `{"tokenTtlSeconds":300}`)
	require.Equal(t, http.StatusOK, res.StatusCode)

	authURL := connectURL(t, srv, key, "FACEBOOK", team)
	require.True(t, strings.HasPrefix(authURL, srv.URL+"/sandbox/facebook/v21.0/dialog/oauth?"), authURL)
	require.Contains(t, mustQuery(t, authURL).Get("scope"), "pages_manage_posts")
	done := approve(t, authURL)
	require.Equal(t, "true", done.Query().Get("success"), done.String())

	_, a := byType(t, srv, key, "FACEBOOK", team)
	require.Len(t, a.Channels, 2)
	require.Nil(t, a.ProviderPageID)
	require.NotNil(t, a.UserID)
	st := sandboxOf(t, srv, "facebook")
	require.Equal(t, 1, st.count(http.MethodPost, "/v21.0/oauth/access_token"), "code exchange")
	require.Equal(t, 1, st.count(http.MethodGet, "/v21.0/oauth/access_token"), "long-lived exchange")
	var b []byte
	require.Equal(t, 1, st.count(http.MethodGet, "/v21.0/me/accounts"))

	page := a.Channels[1]
	body := `{"type":"FACEBOOK","teamId":"` + team + `","channelId":"` + page.ID + `"}`
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/set-channel", body, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.NoError(t, json.Unmarshal(b, &a))
	require.Equal(t, page.ID, *a.ProviderPageID)
	require.Equal(t, *page.Name, *a.DisplayName)

	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/set-channel", strings.Replace(body, page.ID, "999", 1), "x-api-key", key)
	require.Equal(t, http.StatusBadRequest, res.StatusCode, string(b))
	require.Equal(t, []any{"channelId"}, decodeError(t, b).Issues[0].Path)

	tb := `{"type":"FACEBOOK","teamId":"` + team + `"}`
	// Graph's throttling (code 32 with X-Business-Use-Case-Usage) is a 429.
	res, _ = do(t, http.MethodPost, srv.URL+"/sandbox/facebook/_sandbox/fail", `{"status":400,"code":"32","message":"Page request limit reached","resetInSeconds":600,"path":"/me/accounts"}`)
	require.Equal(t, http.StatusOK, res.StatusCode)
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/refresh-channels", tb, "x-api-key", key)
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode, string(b))
	require.Contains(t, decodeError(t, b).Message, "Page request limit reached")

	// A user token about to expire is re-exchanged (Facebook's refresh) before listing the pages again.
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/refresh-channels", tb, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.NoError(t, json.Unmarshal(b, &a))
	require.Len(t, a.Channels, 2)
	require.Equal(t, page.ID, *a.ProviderPageID, "the selection survives a refresh")
	require.GreaterOrEqual(t, sandboxOf(t, srv, "facebook").count(http.MethodGet, "/v21.0/oauth/access_token"), 2)

	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/unset-channel", tb, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	a = saAccount{}
	require.NoError(t, json.Unmarshal(b, &a))
	require.Nil(t, a.ProviderPageID)

	// Messaging: DISABLED → ENABLED → DISABLE_PENDING.
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/messaging/enable", tb, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Contains(t, string(b), `"messagingStatus":"ENABLED"`)
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/messaging/disable", tb, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Contains(t, string(b), `"messagingStatus":"DISABLE_PENDING"`)

	// A network the team has not connected answers 404.
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/refresh-channels", `{"type":"PINTEREST","teamId":"`+team+`"}`, "x-api-key", key)
	require.Equal(t, http.StatusNotFound, res.StatusCode, string(b))

	// Copy to another team keeps the credentials working there.
	other := newTeam(t, srv, key, "Other")
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/copy", `{"fromTeamId":"`+team+`","toTeamId":"`+other+`","socialAccountTypes":["FACEBOOK","TWITTER"]}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var copies []saAccount
	require.NoError(t, json.Unmarshal(b, &copies))
	require.Len(t, copies, 1)
	require.Equal(t, other, copies[0].TeamID)
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/refresh-channels", `{"type":"FACEBOOK","teamId":"`+other+`"}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))

	res, b = do(t, http.MethodDelete, srv.URL+"/api/v1/social-account/disconnect", tb, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
}

// The hosted portal: a link for one team and two networks, connected without a Crier login.
func TestPortalConnectsWithoutLogin(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Client")

	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/social-account/create-portal-link",
		`{"teamId":"`+team+`","socialAccountTypes":["TWITTER","FACEBOOK"],"expiresIn":60}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var link struct{ URL string }
	require.NoError(t, json.Unmarshal(b, &link))
	require.True(t, strings.HasPrefix(link.URL, srv.URL+"/portal/"), link.URL)
	token := strings.TrimPrefix(link.URL, srv.URL+"/portal/")

	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/portal/"+token, "")
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Contains(t, string(b), `"teamName":"Client"`)
	require.Contains(t, string(b), `"allowedTypes":["TWITTER","FACEBOOK"]`)

	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/portal/"+token+"/connect", `{"type":"LINKEDIN"}`)
	require.Equal(t, http.StatusBadRequest, res.StatusCode, string(b))
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/portal/"+token+"/connect", `{"type":"TWITTER"}`)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var c struct{ URL string }
	require.NoError(t, json.Unmarshal(b, &c))
	done := approve(t, c.URL)
	require.Equal(t, "/portal/"+token, done.Path)
	require.Equal(t, "true", done.Query().Get("success"))

	// The page shows what is connected.
	res, b = do(t, http.MethodGet, done.String(), "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, string(b), `data-outcome="connected"`)
	require.Contains(t, string(b), "Disconnect")

	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/portal/"+token, "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, string(b), `"username":"crier_sandbox"`)
	status, _ := byType(t, srv, key, "TWITTER", team)
	require.Equal(t, http.StatusOK, status)

	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/portal/"+token+"/disconnect", `{"type":"TWITTER"}`)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.JSONEq(t, `{"success":true}`, string(b))
	status, _ = byType(t, srv, key, "TWITTER", team)
	require.Equal(t, http.StatusNotFound, status)

	for _, bad := range []string{"nope", token + "x"} {
		res, _ = do(t, http.MethodGet, srv.URL+"/api/v1/portal/"+bad, "")
		require.Equal(t, http.StatusNotFound, res.StatusCode)
		res, b = do(t, http.MethodGet, srv.URL+"/portal/"+bad, "")
		require.Equal(t, http.StatusNotFound, res.StatusCode)
		require.Contains(t, string(b), "Link not available")
	}
}

func mustQuery(t testing.TB, raw string) url.Values {
	t.Helper()
	u, err := url.Parse(raw)
	require.NoError(t, err)
	return u.Query()
}

// create-portal-link's display options reach the page; a negative cap is a 400.
func TestPortalLinkDisplayOptions(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Client")
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/social-account/create-portal-link",
		`{"teamId":"`+team+`","socialAccountTypes":["TWITTER"],"maxSocialAccountsConnected":-1}`, "x-api-key", key)
	require.Equal(t, http.StatusBadRequest, res.StatusCode, string(b))
	require.Equal(t, []any{"maxSocialAccountsConnected"}, decodeError(t, b).Issues[0].Path)
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/social-account/create-portal-link",
		`{"teamId":"`+team+`","socialAccountTypes":["TWITTER"],"redirectUrl":"https://app.example/back","userName":"Jo","hidePoweredBy":true,"goBackButtonText":"Return to Acme","maxSocialAccountsConnected":1}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var link struct{ URL string }
	require.NoError(t, json.Unmarshal(b, &link))
	res, b = do(t, http.MethodGet, link.URL, "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	page := string(b)
	require.Contains(t, page, "Prepared for <strong>Jo</strong>")
	require.Contains(t, page, "Return to Acme")
	require.NotContains(t, page, "Secure connection by Crier")
}
