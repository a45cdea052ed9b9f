package server_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/api"
	"github.com/crier/crier/media/mediatest"
	"github.com/crier/crier/server/servertest"
)

// tenant is one organization's credentials and the ids of what it owns.
type tenant struct {
	cookie string
	key    string
	ids    map[string]string // "team", "apiKey", "member", "invitation", "webhook", "notification" … → id
}

func newTenant(t *testing.T, srv *servertest.Server) tenant {
	t.Helper()
	tn := tenant{cookie: signupCookie(t, srv), ids: map[string]string{}}
	_, b := do(t, http.MethodPost, srv.URL+"/api/v1/api-key", `{"name":"iso"}`, "Cookie", tn.cookie, "Sec-Fetch-Site", "same-origin")
	var k keyAnswer
	require.NoError(t, json.Unmarshal(b, &k))
	tn.key, tn.ids["apiKey"] = k.Key, k.ID
	_, b = do(t, http.MethodPost, srv.URL+"/api/v1/team", `{"name":"Isolated"}`, "x-api-key", tn.key)
	var team struct{ ID string }
	require.NoError(t, json.Unmarshal(b, &team))
	tn.ids["team"] = team.ID
	_, b = do(t, http.MethodGet, srv.URL+"/api/v1/user/members", "", "x-api-key", tn.key)
	var members struct{ Items []struct{ ID string } }
	require.NoError(t, json.Unmarshal(b, &members))
	tn.ids["member"] = members.Items[0].ID
	_, b = do(t, http.MethodPost, srv.URL+"/api/v1/user/invitations", `{"email":"`+newEmail()+`","role":"MEMBER"}`, "x-api-key", tn.key)
	var inv struct{ ID string }
	require.NoError(t, json.Unmarshal(b, &inv))
	require.NotEmpty(t, inv.ID)
	tn.ids["invitation"] = inv.ID
	addWebhookTenantIDs(t, srv, &tn)
	return tn
}

// withUploads gives a tenant an upload, a signed-URL upload in progress and a multipart upload in progress.
func withUploads(t *testing.T, srv *servertest.Server, tn tenant) {
	t.Helper()
	res, b := postFile(t, srv, tn.key, "", "", mediatest.PNG(4, 4))
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	tn.ids["upload"] = decodeUpload(t, b).ID
	_, b = do(t, http.MethodPost, srv.URL+"/api/v1/upload/init", `{"fileName":"a.png","mimeType":"image/png"}`, "x-api-key", tn.key)
	var in struct{ Path string }
	require.NoError(t, json.Unmarshal(b, &in))
	tn.ids["uploadPath"] = in.Path
	_, b = do(t, http.MethodPost, srv.URL+"/api/v1/upload/multipart/init", `{"fileName":"a.mp4","mimeType":"video/mp4","fileSize":10}`, "x-api-key", tn.key)
	var mp struct {
		Path     string `json:"path"`
		UploadID string `json:"uploadId"`
	}
	require.NoError(t, json.Unmarshal(b, &mp))
	tn.ids["multipart"], tn.ids["multipartId"] = mp.Path, mp.UploadID
}

// isolationCases are the operations that take another resource's id; each later capability adds its
// own. {id} is replaced by the victim's id of the kind named.
var isolationCases = []struct {
	method, path, kind, body string
}{
	{http.MethodGet, "/api/v1/team/{id}", "team", ""},
	{http.MethodPatch, "/api/v1/team/{id}", "team", `{"name":"Hijacked"}`},
	{http.MethodDelete, "/api/v1/team/{id}", "team", ""},
	{http.MethodPost, "/api/v1/team", "team", `{"name":"Copy","copyTeamId":"{id}"}`},
	{http.MethodPost, "/api/v1/api-key/{id}/roll", "apiKey", ""},
	{http.MethodDelete, "/api/v1/api-key/{id}", "apiKey", ""},
	{http.MethodPatch, "/api/v1/user/members/{id}", "member", `{"role":"MEMBER"}`},
	{http.MethodDelete, "/api/v1/user/members/{id}", "member", ""},
	{http.MethodDelete, "/api/v1/user/invitations/{id}", "invitation", ""},
	{http.MethodGet, "/api/v1/organization/usage/imports?teamId={id}", "team", ""},
	{http.MethodGet, "/api/v1/webhook/{id}", "webhook", ""},
	{http.MethodPatch, "/api/v1/webhook/{id}", "webhook", `{"active":false}`},
	{http.MethodDelete, "/api/v1/webhook/{id}", "webhook", ""},
	{http.MethodPost, "/api/v1/webhook/{id}/rotate-secret", "webhook", ""},
	{http.MethodPost, "/api/v1/webhook/{id}/test", "webhook", ""},
	{http.MethodGet, "/api/v1/webhook/{id}/deliveries", "webhook", ""},
	{http.MethodPost, "/api/v1/webhook/{id}/resend", "webhookDelivery", ""}, // {id} = WEBHOOK/deliveries/DELIVERY
	{http.MethodPost, "/api/v1/notification/{id}/read", "notification", ""},
	{http.MethodPost, "/api/v1/social-account/connect", "team", `{"type":"TWITTER","teamId":"{id}","redirectUrl":"https://app.example/"}`},
	{http.MethodGet, "/api/v1/social-account/by-type?type=TWITTER&teamId={id}", "team", ""},
	{http.MethodDelete, "/api/v1/social-account/disconnect", "team", `{"type":"TWITTER","teamId":"{id}"}`},
	{http.MethodPost, "/api/v1/social-account/set-channel", "team", `{"type":"FACEBOOK","teamId":"{id}","channelId":"1"}`},
	{http.MethodPost, "/api/v1/social-account/unset-channel", "team", `{"type":"FACEBOOK","teamId":"{id}"}`},
	{http.MethodPost, "/api/v1/social-account/refresh-channels", "team", `{"type":"FACEBOOK","teamId":"{id}"}`},
	{http.MethodPost, "/api/v1/social-account/connection-check", "team", `{"type":"TWITTER","teamId":"{id}"}`},
	{http.MethodPost, "/api/v1/social-account/profile-refresh", "team", `{"type":"TWITTER","teamId":"{id}"}`},
	{http.MethodPost, "/api/v1/social-account/messaging/enable", "team", `{"type":"FACEBOOK","teamId":"{id}"}`},
	{http.MethodPost, "/api/v1/social-account/copy", "team", `{"fromTeamId":"{id}","toTeamId":"{id}","socialAccountTypes":["TWITTER"]}`},
	{http.MethodPost, "/api/v1/social-account/create-portal-link", "team", `{"teamId":"{id}","socialAccountTypes":["TWITTER"]}`},
	{http.MethodGet, "/api/v1/upload/{id}", "upload", ""},
	{http.MethodDelete, "/api/v1/upload/{id}", "upload", ""},
	{http.MethodDelete, "/api/v1/upload", "upload", `{"ids":["{id}"]}`},
	{http.MethodPost, "/api/v1/upload/finalize", "uploadPath", `{"path":"{id}"}`},
	{http.MethodPost, "/api/v1/upload/multipart/sign", "multipart", `{"path":"{id}","uploadId":"{uploadId}","partNumbers":[1]}`},
	{http.MethodPost, "/api/v1/upload/multipart/complete", "multipart", `{"path":"{id}","uploadId":"{uploadId}","parts":[{"partNumber":1,"etag":"x"}]}`},
	{http.MethodPost, "/api/v1/upload/multipart/abort", "multipart", `{"path":"{id}","uploadId":"{uploadId}"}`},
	{http.MethodPost, "/api/v1/upload/from-url", "team", `{"teamId":"{id}","url":"http://127.0.0.1:1/a.png"}`},
	{http.MethodPost, "/api/v1/upload/init", "team", `{"teamId":"{id}","fileName":"a.png","mimeType":"image/png"}`},
	{http.MethodGet, "/api/v1/upload?teamId={id}", "team", ""},
	{http.MethodGet, "/api/v1/post/{id}", "post", ""},
	{http.MethodPatch, "/api/v1/post/{id}", "post", `{"title":"Hijacked"}`},
	{http.MethodDelete, "/api/v1/post/{id}", "post", ""},
	{http.MethodPost, "/api/v1/post/{id}/retry", "post", ""},
	{http.MethodGet, "/api/v1/post/reference-key/{id}", "postRef", ""},
	{http.MethodGet, "/api/v1/post?teamId={id}", "team", ""},
	{http.MethodPost, "/api/v1/post", "team", `{"teamId":"{id}","title":"T","postDate":"2030-01-01T00:00:00Z","status":"DRAFT","socialAccountTypes":["MASTODON"],"data":{}}`},
	{http.MethodGet, "/api/v1/post/reconnect-social-account/candidates?teamId={id}&type=MASTODON", "team", ""},
	{http.MethodPost, "/api/v1/post/reconnect-social-account", "team", `{"teamId":"{id}","type":"MASTODON"}`},
	{http.MethodGet, "/api/v1/comment/{id}", "comment", ""},
	{http.MethodPatch, "/api/v1/comment/{id}", "comment", `{"text":"Hijacked"}`},
	{http.MethodDelete, "/api/v1/comment/{id}", "comment", ""},
	{http.MethodPost, "/api/v1/comment/{id}/retry", "comment", ""},
	{http.MethodGet, "/api/v1/comment?teamId={id}", "team", ""},
	{http.MethodPost, "/api/v1/comment", "team", `{"teamId":"{id}","text":"x","internalPostId":"00000000-0000-4000-8000-000000000000"}`},
}

// withPosts gives a tenant a draft post (with a reference key) and a draft comment under it.
func withPosts(t *testing.T, srv *servertest.Server, tn tenant) {
	t.Helper()
	ref := "ref-" + tn.ids["team"][:8]
	connectNetwork(t, srv, tn.key, tn.ids["team"], "MASTODON")
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/post", `{"teamId":"`+tn.ids["team"]+`","title":"Secret plan","referenceKey":"`+ref+`",
		"postDate":"2030-01-01T00:00:00Z","status":"DRAFT","socialAccountTypes":["MASTODON"],"data":{"MASTODON":{"text":"secret"}}}`, "x-api-key", tn.key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var p struct{ ID string }
	require.NoError(t, json.Unmarshal(b, &p))
	tn.ids["post"], tn.ids["postRef"] = p.ID, ref
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/comment", `{"teamId":"`+tn.ids["team"]+`","internalPostId":"`+p.ID+`","text":"secret reply","status":"DRAFT"}`, "x-api-key", tn.key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var c struct{ ID string }
	require.NoError(t, json.Unmarshal(b, &c))
	tn.ids["comment"] = c.ID
}

// Another organization's ids answer 404 — never 403, never data — through a key and a cookie.
func TestTenantIsolation(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	attacker, victim := newTenant(t, srv), newTenant(t, srv)
	withUploads(t, srv, victim)
	withPosts(t, srv, victim)
	creds := map[string][]string{
		"key":    {"x-api-key", attacker.key},
		"cookie": {"Cookie", attacker.cookie, "Sec-Fetch-Site", "same-origin"},
	}
	for via, header := range creds {
		for _, tc := range isolationCases {
			id := victim.ids[tc.kind]
			body := strings.ReplaceAll(strings.ReplaceAll(tc.body, "{id}", id), "{uploadId}", victim.ids["multipartId"])
			res, b := do(t, tc.method, srv.URL+strings.ReplaceAll(tc.path, "{id}", id), body, header...)
			require.Equal(t, http.StatusNotFound, res.StatusCode, "%s %s via %s: %s", tc.method, tc.path, via, b)
			require.NotContains(t, string(b), id)
		}
	}
	// Lists never show the victim's things.
	for _, path := range []string{"/api/v1/team", "/api/v1/api-key", "/api/v1/user/members", "/api/v1/user/invitations", "/api/v1/organization", "/api/v1/organization/audit-log",
		"/api/v1/webhook", "/api/v1/notification", "/api/v1/upload"} {
		res, b := do(t, http.MethodGet, srv.URL+path, "", "x-api-key", attacker.key)
		require.Equal(t, http.StatusOK, res.StatusCode, path)
		for _, id := range victim.ids {
			require.NotContains(t, string(b), id, path)
		}
	}
	// And the victim still has everything.
	res, _ := do(t, http.MethodGet, srv.URL+"/api/v1/team/"+victim.ids["team"], "", "x-api-key", victim.key)
	require.Equal(t, http.StatusOK, res.StatusCode)
}

// identityOperations are the 40 operations of the identity capability and how tenant isolation
// applies to each: "id" operations are walked by TestTenantIsolation with the victim's ids, "list"
// ones are read there too; "self" ones act on the caller's own user or organization (no id to
// swap), so here they must answer without any of the victim's ids; "public" ones take no
// credentials (tokens and passwords prove who calls). The table must name every operation of the
// capability in the contract, so a new operation cannot skip the question.
var identityOperations = map[string]string{
	"POST /api/v1/auth/signup": "public", "POST /api/v1/auth/login": "public", "POST /api/v1/auth/logout": "public",
	"GET /api/v1/auth/me": "self", "POST /api/v1/auth/verify-email": "public", "POST /api/v1/auth/resend-verification": "self",
	"POST /api/v1/auth/forgot-password": "public", "POST /api/v1/auth/reset-password": "public",
	"POST /api/v1/auth/switch-organization": "id",
	"GET /api/v1/api-key":                   "list", "POST /api/v1/api-key": "self", "DELETE /api/v1/api-key/{id}": "id", "POST /api/v1/api-key/{id}/roll": "id",
	"GET /api/v1/user/me": "self", "PATCH /api/v1/user/me": "self", "POST /api/v1/user/me/onboarding": "self", "POST /api/v1/user/me/password": "self",
	"GET /api/v1/user/members": "list", "PATCH /api/v1/user/members/{id}": "id", "DELETE /api/v1/user/members/{id}": "id",
	"GET /api/v1/user/invitations": "list", "POST /api/v1/user/invitations": "self", "DELETE /api/v1/user/invitations/{id}": "id",
	"POST /api/v1/user/invitations/accept": "public",
	"GET /api/v1/organization":             "list", "GET /api/v1/organization/usage/posts": "self", "GET /api/v1/organization/usage/comments": "self",
	"GET /api/v1/organization/usage/uploads": "self", "GET /api/v1/organization/usage/daily-limits": "id", "GET /api/v1/organization/usage/imports": "id",
	"POST /api/v1/organization/create": "self", "PATCH /api/v1/organization/settings": "self", "POST /api/v1/organization/delete": "self",
	"GET /api/v1/organization/audit-log": "list",
	"GET /api/v1/team":                   "list", "POST /api/v1/team": "id", "GET /api/v1/team/{id}": "id", "PATCH /api/v1/team/{id}": "id", "DELETE /api/v1/team/{id}": "id",
}

func TestIdentityIsolationCoversEveryOperation(t *testing.T) {
	t.Parallel()
	doc, err := api.LoadContract()
	require.NoError(t, err)
	capability := regexp.MustCompile(`^/api/v1/(auth|api-key|user|organization|team)(/|$)`)
	n := 0
	for path, item := range doc.Paths.Map() {
		if !capability.MatchString(path) {
			continue
		}
		for method := range item.Operations() {
			n++
			_, ok := identityOperations[method+" "+path]
			require.True(t, ok, "%s %s has no isolation class", method, path)
		}
	}
	require.Equal(t, len(identityOperations), n)

	srv := servertest.Start(t)
	attacker, victim := newTenant(t, srv), newTenant(t, srv)
	res, b := do(t, http.MethodPatch, srv.URL+"/api/v1/organization/settings", `{"name":"Victim Holdings"}`, "x-api-key", victim.key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var org struct{ ID, Name string }
	_, b = do(t, http.MethodGet, srv.URL+"/api/v1/organization", "", "x-api-key", victim.key)
	require.NoError(t, json.Unmarshal(b, &org))
	require.Equal(t, "Victim Holdings", org.Name)

	// Switching into the victim's organization: 404.
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/auth/switch-organization", `{"organizationId":"`+org.ID+`"}`, "Cookie", attacker.cookie, "Sec-Fetch-Site", "same-origin")
	require.Equal(t, http.StatusNotFound, res.StatusCode, string(b))

	// Operations on the caller's own things answer without a trace of the victim.
	self := []struct{ method, path, body string }{
		{http.MethodGet, "/api/v1/auth/me", ""},
		{http.MethodGet, "/api/v1/user/me", ""},
		{http.MethodPatch, "/api/v1/user/me", `{"firstName":"Mallory"}`},
		{http.MethodPost, "/api/v1/user/me/onboarding", ""},
		{http.MethodPost, "/api/v1/api-key", `{"name":"second"}`},
		{http.MethodPost, "/api/v1/user/invitations", `{"email":"` + newEmail() + `","role":"MEMBER"}`},
		{http.MethodGet, "/api/v1/organization/usage/posts", ""},
		{http.MethodGet, "/api/v1/organization/usage/comments", ""},
		{http.MethodGet, "/api/v1/organization/usage/uploads", ""},
		{http.MethodGet, "/api/v1/organization/usage/imports", ""},
		{http.MethodPatch, "/api/v1/organization/settings", `{"deleteDisconnectedAfterHours":24}`},
		{http.MethodPost, "/api/v1/organization/create", `{"name":"Side project"}`},
	}
	for _, op := range self {
		res, b := do(t, op.method, srv.URL+op.path, op.body, "x-api-key", attacker.key)
		require.Less(t, res.StatusCode, 300, "%s %s: %s", op.method, op.path, b)
		require.NotContains(t, string(b), org.ID, op.path)
		for _, id := range victim.ids {
			require.NotContains(t, string(b), id, op.path)
		}
	}
	// Deleting "the organization" names the caller's own: the victim's name is refused, theirs stays.
	res, b = do(t, http.MethodPost, srv.URL+"/api/v1/organization/delete", `{"confirmName":"`+org.Name+`"}`, "x-api-key", attacker.key)
	require.Equal(t, http.StatusBadRequest, res.StatusCode, string(b))
	res, _ = do(t, http.MethodGet, srv.URL+"/api/v1/organization", "", "x-api-key", victim.key)
	require.Equal(t, http.StatusOK, res.StatusCode)
}
