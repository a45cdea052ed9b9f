package web_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/sandbox"
	"github.com/crier/crier/network/sandbox/sandboxtest"
	"github.com/crier/crier/server"
	"github.com/crier/crier/web"
)

// withSandbox gives the dashboard the sandbox networks, as the server does with SANDBOX=1.
func withSandbox(sb *sandbox.Sandbox) func(*web.Deps) {
	return func(d *web.Deps) { d.Sandbox = server.SandboxInspector(sb) }
}

// setupSandbox serves the sandbox over HTTP (so the real adapters can connect to it) and mounts
// the dashboard with it.
func setupSandbox(t *testing.T) (*testBundle, *sandboxtest.Networks) {
	t.Helper()
	nets := sandboxtest.Start(t)
	return setup(t, withSandbox(nets.Sandbox)), nets
}

func TestSandboxInspectorIsNotFoundWithoutSandbox(t *testing.T) {
	t.Parallel()
	b := setup(t)

	for _, p := range []string{"/sandbox-inspector", "/sandbox-inspector/twitter", "/sandbox-inspector/twitter/live"} {
		require.Equal(t, http.StatusNotFound, b.get(t, p).Code, p)
	}
	require.Equal(t, http.StatusNotFound, b.post(t, "/sandbox-inspector/twitter/knobs", url.Values{"latencyMs": {"5"}}).Code)
	require.Equal(t, 0, parse(t, b.get(t, "/")).Find(`[data-testid="nav-sandbox"]`).Length())
}

func TestSandboxInspectorShowsAccountsCallsTokensAndHoldings(t *testing.T) {
	t.Parallel()
	b, nets := setupSandbox(t)
	nets.Connect(t, app.Twitter, "ada_l")
	_, err := nets.Sandbox.Hold(app.Twitter, sandbox.Held{Kind: sandbox.KindPost, ID: "1790000000000000001", User: "ada_l",
		Text: "Hello from Crier", Media: []string{"media-42"}, URL: "https://x.com/ada_l/status/1790000000000000001"})
	require.NoError(t, err)
	deleted, err := nets.Sandbox.Hold(app.Twitter, sandbox.Held{Kind: sandbox.KindComment, ID: "c-1", User: "ada_l", Parent: "1790000000000000001",
		Text: "A reply", URL: "javascript:alert(1)"})
	require.NoError(t, err)
	require.NotEmpty(t, deleted.ID)

	// Signed out: to the sign-in page.
	req, _ := http.NewRequest(http.MethodGet, "/sandbox-inspector/twitter", nil)
	rec := serve(b, req)
	require.Equal(t, http.StatusSeeOther, rec.Code)

	// The index opens the network called last.
	doc := parse(t, b.get(t, "/sandbox-inspector"))
	require.Equal(t, "X", doc.Find(`[data-testid="sandbox-net-name"]`).Text())
	require.Equal(t, "page", doc.Find(`[data-testid="nav-sandbox"]`).AttrOr("aria-current", ""))

	rec = b.get(t, "/sandbox-inspector/twitter")
	require.Equal(t, http.StatusOK, rec.Code)
	doc = parse(t, rec)
	require.Equal(t, "Sandbox · X · Crier", doc.Find("title").Text())
	links := doc.Find(`[data-testid="sandbox-nets"] a`)
	require.Equal(t, 15, links.Length())
	require.Equal(t, "sandbox-net-TIKTOK", links.First().AttrOr("data-testid", ""))
	x := doc.Find(`[data-testid="sandbox-net-TWITTER"]`)
	require.Equal(t, "page", x.AttrOr("aria-current", ""))
	require.Contains(t, x.Text(), "1 account")
	require.Contains(t, doc.Find(`[data-testid="sandbox-net-REDDIT"]`).Text(), "Untouched")

	require.Equal(t, "@ada_l", doc.Find(`[data-testid="sandbox-user"] [data-testid="user-login"]`).Text())
	require.Equal(t, "1", doc.Find(`[data-testid="stat-tokens"] .sbx-stat__num`).Text())
	require.Equal(t, 1, doc.Find(`[data-testid="sandbox-token"]`).Length())
	require.NotContains(t, rec.Body.String(), "x-at-", "a whole token is never shown")
	paths := doc.Find(`[data-testid="call-path"]`).Map(func(_ int, s *goquery.Selection) string { return s.Text() })
	require.Contains(t, paths, "/2/oauth2/token")
	require.Equal(t, "200", doc.Find(`[data-testid="call-status"]`).First().Text())

	items := doc.Find(`[data-testid="held-item"]`)
	require.Equal(t, 2, items.Length())
	require.Equal(t, "comment", items.First().AttrOr("data-kind", ""), "newest first")
	require.Equal(t, 0, items.First().Find(`a[data-testid="held-url"]`).Length(), "only http(s) permalinks are links")
	post := items.Last()
	require.Equal(t, "Hello from Crier", post.Find(`[data-testid="held-text"]`).Text())
	require.Equal(t, "https://x.com/ada_l/status/1790000000000000001", post.Find(`[data-testid="held-url"]`).AttrOr("href", ""))
	require.Contains(t, post.Text(), "media-42")
	require.Equal(t, "1", doc.Find(`[data-testid="stat-posts"] .sbx-stat__num`).Text())
	require.Equal(t, "/sandbox/x/_sandbox", doc.Find(`[data-testid="sandbox-json"]`).AttrOr("href", ""))

	// Forms carry the CSRF token (without JavaScript too); no inline styles or scripts.
	for _, f := range []string{"sandbox-fail-form", "sandbox-knobs-form"} {
		require.NotEmpty(t, doc.Find(`[data-testid="`+f+`"] input[name="_csrf"]`).AttrOr("value", ""), f)
	}
	require.Equal(t, 0, doc.Find("style, [style]").Length())

	// An untouched network explains how to fill it.
	doc = parse(t, b.get(t, "/sandbox-inspector/reddit"))
	require.Contains(t, doc.Find(`[data-testid="sandbox-users"]`).Text(), "Open a team")
	require.Equal(t, "/teams", doc.Find(`[data-testid="sandbox-users"] [data-testid="empty-state-action"]`).AttrOr("href", ""))
	require.Contains(t, doc.Find(`[data-testid="sandbox-held"]`).Text(), "Nothing published on Reddit yet")
	require.Contains(t, doc.Find(`[data-testid="sandbox-calls"]`).Text(), "No calls yet")

	require.Equal(t, http.StatusNotFound, b.get(t, "/sandbox-inspector/myspace").Code)
}

func TestSandboxInspectorFormsAct(t *testing.T) {
	t.Parallel()
	b, nets := setupSandbox(t)
	sb := nets.Sandbox
	nets.Connect(t, app.Twitter, "grace")

	// Knobs (htmx): the form again, saved, and the live regions told to refresh.
	rec := b.post(t, "/sandbox-inspector/twitter/knobs", url.Values{"latencyMs": {"250"}, "tokenTtlSeconds": {"60"}}, htmx...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, parse(t, rec).Find(`[data-testid="form-saved"]`).Text(), "Knobs saved: 250 ms latency")
	require.Equal(t, true, hxTrigger(t, rec)["sandboxChanged"])
	st, err := sb.Inspect(app.Twitter, 0)
	require.NoError(t, err)
	require.Equal(t, sandbox.Knobs{LatencyMs: 250, TokenTTLSeconds: 60}, st.Knobs)
	require.Equal(t, "In force: 250 ms added to each call · tokens live 1 min.",
		squash(parse(t, b.get(t, "/sandbox-inspector/twitter")).Find(`[data-testid="sandbox-knobs-now"]`).Text()))

	// A refused value: the error beside the field, the knobs unchanged; without htmx, 422.
	rec = b.post(t, "/sandbox-inspector/twitter/knobs", url.Values{"latencyMs": {"-5"}, "tokenTtlSeconds": {"60"}})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	doc := parse(t, rec)
	require.Contains(t, doc.Find(`[data-testid="field-latencyMs"]`).Text(), "whole number from 0 to 60000")
	require.Equal(t, "-5", doc.Find(`input[name="latencyMs"]`).AttrOr("value", ""))
	st, _ = sb.Inspect(app.Twitter, 0)
	require.Equal(t, 250, st.Knobs.LatencyMs)
	require.NoError(t, sb.SetKnobs(app.Twitter, sandbox.Knobs{}))

	// Inject a failure (without htmx: back to the page, which lists it).
	rec = b.post(t, "/sandbox-inspector/twitter/fail", url.Values{"status": {"503"}, "code": {"over_capacity"}, "message": {"Over capacity"},
		"times": {"2"}, "path": {"/2/users/me"}, "resetInSeconds": {"0"}})
	require.Equal(t, http.StatusSeeOther, rec.Code)
	require.Equal(t, "/sandbox-inspector/twitter", rec.Header().Get("Location"))
	doc = parse(t, b.get(t, "/sandbox-inspector/twitter"))
	f := doc.Find(`[data-testid="sandbox-failure"]`)
	require.Equal(t, 1, f.Length())
	require.Equal(t, "503", f.Find(`[data-testid="failure-status"]`).Text())
	require.Equal(t, "over_capacity", f.Find(`[data-testid="failure-code"]`).Text())
	require.Contains(t, squash(f.Text()), "next 2 calls matching /2/users/me")
	require.Contains(t, doc.Find(`[data-testid="sandbox-net-TWITTER"] [data-testid="net-failures"]`).Text(), "1")

	// The sandbox answers it: the adapter's profile call fails with the network's error.
	st, _ = sb.Inspect(app.Twitter, 0)
	require.Equal(t, []sandbox.Failure{{Status: 503, Code: "over_capacity", Message: "Over capacity", Times: 2, Path: "/2/users/me"}}, st.Failures)

	// A refused failure (htmx): the form with its errors, nothing queued.
	rec = b.post(t, "/sandbox-inspector/twitter/fail", url.Values{"status": {"200"}, "times": {"0"}}, htmx...)
	require.Equal(t, http.StatusOK, rec.Code)
	doc = parse(t, rec)
	require.Contains(t, doc.Find(`[data-testid="form-error"]`).Text(), "not injected")
	require.Contains(t, doc.Find(`[data-testid="field-times"]`).Text(), "from 1 to 1000")
	require.Nil(t, hxTrigger(t, rec)["sandboxChanged"])
	st, _ = sb.Inspect(app.Twitter, 0)
	require.Len(t, st.Failures, 1)

	// Clear, expire, revoke, reset (htmx): a flash and a refresh.
	rec = b.post(t, "/sandbox-inspector/twitter/clear-failures", nil, htmx...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Equal(t, true, hxTrigger(t, rec)["sandboxChanged"])
	st, _ = sb.Inspect(app.Twitter, 0)
	require.Empty(t, st.Failures)

	require.Len(t, st.Tokens, 1)
	require.Contains(t, b.post(t, "/sandbox-inspector/twitter/expire-tokens", nil, htmx...).Body.String(), "access token expired")
	st, _ = sb.Inspect(app.Twitter, 0)
	require.Empty(t, st.Tokens)
	require.Equal(t, 1, st.RefreshTokens, "refresh still works after an expiry")
	b.post(t, "/sandbox-inspector/twitter/revoke-tokens", nil, htmx...)
	st, _ = sb.Inspect(app.Twitter, 0)
	require.Equal(t, 0, st.RefreshTokens)

	rec = b.post(t, "/sandbox-inspector/twitter/reset", nil)
	require.Equal(t, http.StatusSeeOther, rec.Code)
	st, _ = sb.Inspect(app.Twitter, 0)
	require.Empty(t, st.Users)
	require.Zero(t, st.KeptCalls)
}

func TestSandboxInspectorLivePollAnswers204UntilSomethingLands(t *testing.T) {
	t.Parallel()
	sb := sandbox.New()
	b := setup(t, withSandbox(sb))

	doc := parse(t, b.get(t, "/sandbox-inspector/bluesky"))
	poll := doc.Find(`[data-testid="sandbox-live"]`).AttrOr("hx-get", "")
	require.True(t, strings.HasPrefix(poll, "/sandbox-inspector/bluesky/live?v="), poll)
	require.Contains(t, doc.Find(`[data-testid="sandbox-live"]`).AttrOr("hx-trigger", ""), "every 3s")

	rec := b.get(t, poll, htmx...)
	require.Equal(t, http.StatusNoContent, rec.Code, "nothing changed")

	_, err := sb.Hold(app.Bluesky, sandbox.Held{Kind: sandbox.KindPost, ID: "at://did:plc:x/app.bsky.feed.post/3k", User: "crier_sandbox",
		Text: "Landed while you watched", At: time.Now().Add(-time.Minute)})
	require.NoError(t, err)
	rec = b.get(t, poll, htmx...)
	require.Equal(t, http.StatusOK, rec.Code)
	live := parse(t, rec)
	require.Equal(t, "Landed while you watched", live.Find(`#sandbox-held [data-testid="held-text"]`).Text())
	require.Equal(t, "true", live.Find("#sandbox-held").AttrOr("hx-swap-oob", ""))
	require.Equal(t, "true", live.Find("#sandbox-nets").AttrOr("hx-swap-oob", ""))
	require.Equal(t, 0, live.Find("form").Length(), "the poller never replaces a form being filled")
	next := live.Find(`[data-testid="sandbox-live"]`).AttrOr("hx-get", "")
	require.NotEqual(t, poll, next)
	require.Equal(t, http.StatusNoContent, b.get(t, next, htmx...).Code)
}

// A network answers by the name people know it by too (/sandbox-inspector/x as /twitter,
// google-business as google_business), its sub-pages included; the page's own links keep the id.
func TestSandboxInspectorAnswersNetworksByTheirCommonName(t *testing.T) {
	t.Parallel()
	sb := sandbox.New()
	b := setup(t, withSandbox(sb))

	for seg, want := range map[string]struct{ name, code string }{
		"x": {"X", "TWITTER"}, "X": {"X", "TWITTER"}, "twitter": {"X", "TWITTER"},
		"google-business": {"Google Business", "GOOGLE_BUSINESS"}, "googlebusiness": {"Google Business", "GOOGLE_BUSINESS"},
		"google_business": {"Google Business", "GOOGLE_BUSINESS"}, "tiktok": {"TikTok", "TIKTOK"},
	} {
		rec := b.get(t, "/sandbox-inspector/"+seg)
		require.Equal(t, http.StatusOK, rec.Code, seg)
		doc := parse(t, rec)
		require.Equal(t, want.name, doc.Find(`[data-testid="sandbox-net-name"]`).Text(), seg)
		require.Equal(t, "page", doc.Find(`[data-testid="sandbox-net-`+want.code+`"]`).AttrOr("aria-current", ""), seg)
	}

	// The links the dashboard generates are unchanged: by id.
	doc := parse(t, b.get(t, "/sandbox-inspector/x"))
	require.Equal(t, "/sandbox-inspector/twitter", doc.Find(`[data-testid="sandbox-net-TWITTER"]`).AttrOr("href", ""))
	require.Equal(t, "/sandbox-inspector/google_business", doc.Find(`[data-testid="sandbox-net-GOOGLE_BUSINESS"]`).AttrOr("href", ""))
	poll := doc.Find(`[data-testid="sandbox-live"]`).AttrOr("hx-get", "")
	require.True(t, strings.HasPrefix(poll, "/sandbox-inspector/twitter/live?v="), poll)

	// Sub-pages and forms too.
	require.Equal(t, http.StatusNoContent, b.get(t, strings.Replace(poll, "/twitter/", "/x/", 1), htmx...).Code)
	rec := b.post(t, "/sandbox-inspector/x/knobs", url.Values{"latencyMs": {"25"}, "tokenTtlSeconds": {"0"}})
	require.Less(t, rec.Code, 400, rec.Body.String())
	st, err := sb.Inspect(app.Twitter, 0)
	require.NoError(t, err)
	require.Equal(t, 25, st.Knobs.LatencyMs)

	for _, seg := range []string{"myspace", "xx", "google"} {
		require.Equal(t, http.StatusNotFound, b.get(t, "/sandbox-inspector/"+seg).Code, seg)
	}
}

func serve(b *testBundle, req *http.Request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	b.e.ServeHTTP(rec, req)
	return rec
}

// squash collapses the whitespace of rendered text.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }
