package instagram_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/instagram"
	"github.com/crier/crier/network/pubutil"
	"github.com/crier/crier/network/sandbox/sandboxtest"
)

var loginOpts = app.ConnectOptions{InstagramConnectionMethod: "INSTAGRAM"}

// Documented shapes of Instagram Login ("Business Login for Instagram"): the consent on
// www.instagram.com, POST api.instagram.com/oauth/access_token ({"data":[…]} and the older flat
// shape), graph.instagram.com's ig_exchange_token / ig_refresh_token and /me.
func TestInstagramLoginAgainstDocumentedShapes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	flat := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/oauth/access_token":
			require.Equal(t, http.MethodPost, r.Method)
			require.NoError(t, r.ParseForm())
			require.Equal(t, "authorization_code", r.PostForm.Get("grant_type"))
			require.Equal(t, "s", r.PostForm.Get("client_secret"))
			require.Equal(t, "https://c/cb", r.PostForm.Get("redirect_uri"))
			if r.PostForm.Get("code") == "used" {
				w.WriteHeader(http.StatusBadRequest)
				_, _ = w.Write([]byte(`{"error_type":"OAuthException","code":400,"error_message":"This authorization code has been used"}`))
				return
			}
			if flat {
				_, _ = w.Write([]byte(`{"access_token":"IGQVJshort","user_id":17841405793187218,"permissions":["instagram_business_basic","instagram_business_content_publish"]}`))
				return
			}
			_, _ = w.Write([]byte(`{"data":[{"access_token":"IGAAshort","user_id":"9876543210","permissions":"instagram_business_basic,instagram_business_content_publish"}]}`))
		case "/access_token":
			require.Equal(t, "ig_exchange_token", r.URL.Query().Get("grant_type"))
			require.Equal(t, "s", r.URL.Query().Get("client_secret"))
			require.True(t, strings.HasSuffix(r.URL.Query().Get("access_token"), "short"))
			_, _ = w.Write([]byte(`{"access_token":"IGAAlong","token_type":"bearer","expires_in":5183944}`))
		case "/refresh_access_token":
			require.Equal(t, "ig_refresh_token", r.URL.Query().Get("grant_type"))
			if r.URL.Query().Get("access_token") == "dead" {
				w.WriteHeader(http.StatusBadRequest)
				_, _ = w.Write([]byte(`{"error":{"message":"Error validating access token: Session has expired","type":"OAuthException","code":190,"fbtrace_id":"A"}}`))
				return
			}
			_, _ = w.Write([]byte(`{"access_token":"IGAArenewed","token_type":"bearer","expires_in":5183944}`))
		case "/v21.0/me":
			require.Contains(t, r.URL.Query().Get("fields"), "user_id,username")
			require.Equal(t, "Bearer IGAAlong", r.Header.Get("Authorization"))
			_, _ = w.Write([]byte(`{"id":"9876543210","user_id":"17841405822304914","username":"metricsaurus","name":"Metricsaurus","profile_picture_url":"https://scontent.cdninstagram.com/p.jpg","account_type":"BUSINESS"}`))
		default:
			t.Errorf("unexpected %s %s", r.Method, r.URL.Path)
		}
	}))
	defer srv.Close()
	a := instagram.New(core.Endpoints{Auth: srv.URL, API: srv.URL}, core.Credentials{ClientID: "c", ClientSecret: "s"})
	require.Equal(t, instagram.LoginReal, instagram.New(instagram.Real, core.Credentials{}).Login, "the real Graph means Instagram's real hosts")

	raw, err := a.AuthorizeURL(ctx, app.AuthorizeRequest{RedirectURI: "https://c/cb", State: "st", Options: app.ConnectOptions{InstagramConnectionMethod: "INSTAGRAM", WithMessagingScope: true, DisableAutoLogin: true}})
	require.NoError(t, err)
	u, _ := url.Parse(raw)
	require.Equal(t, "/oauth/authorize", u.Path)
	require.Equal(t, "c", u.Query().Get("client_id"))
	require.Equal(t, "code", u.Query().Get("response_type"))
	require.Equal(t, "st", u.Query().Get("state"))
	require.Equal(t, "true", u.Query().Get("force_reauth"))
	require.Equal(t, "instagram_business_basic,instagram_business_content_publish,instagram_business_manage_comments,instagram_business_manage_insights,instagram_business_manage_messages", u.Query().Get("scope"))

	tok, err := a.Exchange(ctx, app.ExchangeRequest{Code: "c0de", RedirectURI: "https://c/cb", Options: loginOpts})
	require.NoError(t, err)
	require.Equal(t, "IGAAlong", tok.AccessToken)
	require.True(t, instagram.IsLogin(tok))
	require.Equal(t, "17841405822304914", tok.Secrets[instagram.SecretUserID], "the professional account id from /me")
	require.Equal(t, "instagram_business_basic,instagram_business_content_publish", tok.Scope)
	require.WithinDuration(t, time.Now().Add(5183944*time.Second), tok.Expiry, time.Minute)
	flat = true
	tok2, err := a.Exchange(ctx, app.ExchangeRequest{Code: "c0de", RedirectURI: "https://c/cb", Options: loginOpts})
	require.NoError(t, err)
	require.Equal(t, "IGAAlong", tok2.AccessToken)

	_, err = a.Exchange(ctx, app.ExchangeRequest{Code: "used", RedirectURI: "https://c/cb", Options: loginOpts})
	require.Equal(t, app.ErrPermanent, app.ClassOf(err))
	require.Contains(t, err.Error(), "This authorization code has been used")

	p, err := a.Profile(ctx, tok)
	require.NoError(t, err)
	require.Equal(t, "17841405822304914", p.ExternalID)
	require.Equal(t, "metricsaurus", p.Username)
	require.Equal(t, "Metricsaurus", p.DisplayName)
	require.Equal(t, "https://scontent.cdninstagram.com/p.jpg", p.AvatarURL)
	cs, err := a.Channels(ctx, tok)
	require.NoError(t, err)
	require.Empty(t, cs, "the account is its own destination")

	nt, err := a.Refresh(ctx, tok)
	require.NoError(t, err)
	require.Equal(t, "IGAArenewed", nt.AccessToken)
	require.True(t, instagram.IsLogin(nt))
	require.Equal(t, "17841405822304914", nt.Secrets[instagram.SecretUserID])
	dead := &app.Token{AccessToken: "dead", Secrets: map[string]string{instagram.SecretMethod: "INSTAGRAM"}}
	_, err = a.Refresh(ctx, dead)
	require.Equal(t, app.ErrAuthExpired, app.ClassOf(err))
}

// Instagram Login through the twin: connect, profile, refresh, and a publish (container, status,
// media_publish) on graph.instagram.com to the account itself, with Find and Reply.
func TestInstagramLoginThroughSandbox(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nets := sandboxtest.Start(t)
	a := nets.Adapters[app.Instagram].(*instagram.Adapter)
	a.Poll = pubutil.Poller{Every: 5 * time.Millisecond}

	raw, err := a.AuthorizeURL(ctx, app.AuthorizeRequest{RedirectURI: "http://127.0.0.1:1/cb", State: "s", Options: loginOpts})
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(raw, nets.Base(app.Instagram)+"/oauth/authorize?"), raw)

	tok := nets.ConnectWith(t, app.Instagram, "alice", loginOpts)
	require.True(t, instagram.IsLogin(tok))
	require.True(t, strings.HasPrefix(tok.AccessToken, "IGAA"))
	p, err := a.Profile(ctx, tok)
	require.NoError(t, err)
	require.Equal(t, "sandbox_bakery", p.Username, "the professional account of alice's first page")
	require.Equal(t, tok.Secrets[instagram.SecretUserID], p.ExternalID)
	require.NoError(t, a.Check(ctx, tok))

	nt, err := a.Refresh(ctx, tok)
	require.NoError(t, err)
	require.NotEqual(t, tok.AccessToken, nt.AccessToken)
	require.NoError(t, a.Check(ctx, nt))

	// A Facebook Login code cannot be redeemed at Instagram Login's token endpoint.
	fbTok := nets.Connect(t, app.Instagram, "bob")
	require.False(t, instagram.IsLogin(fbTok))
	_, err = a.Refresh(ctx, &app.Token{AccessToken: fbTok.AccessToken, Secrets: map[string]string{instagram.SecretMethod: "INSTAGRAM"}})
	require.Equal(t, app.ErrAuthExpired, app.ClassOf(err), "a Facebook token is not an Instagram Login token")

	method := "INSTAGRAM"
	acct := &app.SocialAccount{Type: app.Instagram, ExternalID: &p.ExternalID, InstagramConnectionMethod: &method}
	cp := sandboxtest.Checkpoints{}
	pl := &instagram.Payload{Text: "Straight from Instagram Login"}
	req := func() *app.PublishRequest {
		return cp.Wire(&app.PublishRequest{AttemptKey: "k", Network: app.Instagram, Account: acct, Payload: pl, Media: []app.MediaFile{sandboxtest.Image("i1")}})
	}
	pub, err := a.Publish(ctx, nt, req())
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(pub.Permalink, "https://www.instagram.com/p/"), pub.Permalink)
	posts := nets.Posts(app.Instagram, "alice")
	require.Len(t, posts, 1)
	require.Equal(t, pub.ExternalID, posts[0].ID)
	require.Equal(t, p.ExternalID, posts[0].Channel)
	again, err := a.Publish(ctx, nt, req())
	require.NoError(t, err)
	require.Equal(t, pub.ExternalID, again.ExternalID, "a retry publishes nothing new")
	found, err := a.Find(ctx, nt, req())
	require.NoError(t, err)
	require.Equal(t, pub.ExternalID, found.ExternalID)
	c, err := a.Reply(ctx, nt, &app.ReplyRequest{Account: acct, ParentExternalID: pub.ExternalID, ParentExtra: pub.Extra, Text: "First!"})
	require.NoError(t, err)
	require.NotEmpty(t, c.ExternalID)
	require.NoError(t, a.Delete(ctx, nt, &app.DeleteRequest{Network: app.Instagram, Account: acct, ExternalID: pub.ExternalID}))
	require.Empty(t, nets.Posts(app.Instagram, "alice"))

	// The Instagram Login token reaches its own account only.
	other := *acct
	otherID := "17840000000000000"
	other.ExternalID = &otherID
	_, err = a.Publish(ctx, &app.Token{AccessToken: nt.AccessToken, Secrets: map[string]string{instagram.SecretMethod: "INSTAGRAM"}},
		(&sandboxtest.Checkpoints{}).Wire(&app.PublishRequest{AttemptKey: "k2", Network: app.Instagram, Account: &other, Payload: pl, Media: []app.MediaFile{sandboxtest.Image("i2")}}))
	require.Equal(t, app.ErrPermanent, app.ClassOf(err))
}
