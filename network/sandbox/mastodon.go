package sandbox

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/crier/crier/app"
)

// Mastodon: one simulated server at /sandbox/mastodon: POST /api/v1/apps registers an app (its
// credentials are then the only ones accepted), /oauth/authorize and /oauth/token (tokens without
// expiry and without refresh), /api/v1/accounts/verify_credentials. Errors {"error": "…"}; 429 with
// X-RateLimit-Reset as an ISO time.
func mastodonDialect() *dialect {
	return &dialect{
		seg: "mastodon", title: "Mastodon", network: app.Mastodon,
		authorizePath: "/oauth/authorize", tokenPath: "/oauth/token", noRefresh: true, accessTTL: 100 * 365 * 24 * time.Hour,
		writeToken:   mastodonWriteToken,
		writeError:   mastodonWriteError,
		invalidToken: apiError{Status: http.StatusUnauthorized, Message: "The access token is invalid"},
		unauthenticated: map[string]func(q *req){
			"POST /api/v1/apps": mastodonRegisterApp,
		},
		routes: map[string]func(q *req){
			"GET /api/v1/accounts/verify_credentials": mastodonVerifyCredentials,
			"POST /api/v2/media":                      mastodonUploadMedia,
			"GET /api/v1/media/{id}":                  mastodonGetMedia,
			"POST /api/v1/statuses":                   mastodonCreateStatus,
			"GET /api/v1/statuses/{id}":               mastodonGetStatus,
			"DELETE /api/v1/statuses/{id}":            mastodonDeleteStatus,
			"GET /api/v1/accounts/{id}/statuses":      mastodonAccountStatuses,
		},
	}
}

func mastodonWriteToken(q *req, access, _ string, _ time.Duration, scope string, _ *User) {
	q.json(http.StatusOK, map[string]any{"access_token": access, "token_type": "Bearer", "scope": scope, "created_at": q.net.sb.Now().Unix()})
}

func mastodonWriteError(q *req, e apiError) {
	if !e.ResetAt.IsZero() {
		q.w.Header().Set("X-RateLimit-Limit", "300")
		q.w.Header().Set("X-RateLimit-Remaining", "0")
		q.w.Header().Set("X-RateLimit-Reset", e.ResetAt.UTC().Format(time.RFC3339))
	}
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	q.json(e.Status, map[string]any{"error": msg})
}

func mastodonRegisterApp(q *req) {
	_ = q.r.ParseForm()
	if q.r.PostForm.Get("client_name") == "" || q.r.PostForm.Get("redirect_uris") == "" {
		q.json(http.StatusUnprocessableEntity, map[string]any{"error": "Validation failed: Application name can't be blank"})
		return
	}
	id, secret := randID("mastodon-app-"), randID("mastodon-secret-")
	q.net.apps[id] = secret
	q.json(http.StatusOK, map[string]any{"id": "563419", "name": q.r.PostForm.Get("client_name"), "website": q.r.PostForm.Get("website"),
		"redirect_uri": q.r.PostForm.Get("redirect_uris"), "client_id": id, "client_secret": secret, "vapid_key": "BCk-sandbox"})
}

func mastodonVerifyCredentials(q *req) {
	u := q.user
	q.json(http.StatusOK, map[string]any{"id": u.ID, "username": u.Login, "acct": u.Login, "display_name": u.Name,
		"note": "<p>" + u.Bio + "</p>", "avatar": u.Avatar, "url": "https://sandbox.crier.invalid/@" + u.Login})
}

// Publishing on the Mastodon twin. Media: images are processed at once (200); videos answer 202
// with url null and GET /api/v1/media/:id answers 206 once before 200, as a real server does while
// it transcodes. Statuses honour Idempotency-Key like Mastodon (the same key from the same account
// answers the status already made, with no second one); replies (in_reply_to_id) are held as
// comments, the rest as posts. Validation errors are 422 {"error": "Validation failed: …"}.

func mastodonLast(q *req) string { return q.path[strings.LastIndex(q.path, "/")+1:] }

func mastodonMediaJSON(h *Held) map[string]any {
	out := map[string]any{"id": h.ID, "type": h.Data["type"], "url": nil, "preview_url": nil, "description": h.Text}
	if h.Data["ready"] == true {
		out["url"], out["preview_url"] = h.URL, h.URL
	}
	return out
}

func mastodonUploadMedia(q *req) {
	if err := q.r.ParseMultipartForm(64 << 20); err != nil {
		q.fail(apiError{Status: http.StatusUnprocessableEntity, Message: "Validation failed: File can't be blank"})
		return
	}
	f, fh, err := q.r.FormFile("file")
	if err != nil {
		q.fail(apiError{Status: http.StatusUnprocessableEntity, Message: "Validation failed: File can't be blank"})
		return
	}
	size, _ := io.Copy(io.Discard, f)
	_ = f.Close()
	ctype := fh.Header.Get("Content-Type")
	typ := "image"
	switch {
	case strings.HasPrefix(ctype, "video/"):
		typ = "video"
	case strings.HasPrefix(ctype, "image/gif"):
		typ = "gifv"
	case !strings.HasPrefix(ctype, "image/"):
		q.fail(apiError{Status: http.StatusUnprocessableEntity, Message: "Validation failed: File content type is invalid"})
		return
	}
	id := numericID(randID("media-"))
	h := q.net.keep(Held{Kind: KindMedia, ID: id, User: q.user.Login, Text: q.r.FormValue("description"),
		URL: "https://sandbox.crier.invalid/media/" + id, Data: map[string]any{"type": typ, "size": size, "ready": typ == "image"}})
	if typ == "image" {
		q.json(http.StatusOK, mastodonMediaJSON(h))
		return
	}
	q.json(http.StatusAccepted, mastodonMediaJSON(h))
}

func mastodonGetMedia(q *req) {
	h := q.net.find(KindMedia, mastodonLast(q))
	if h == nil || h.User != q.user.Login {
		q.fail(apiError{Status: http.StatusNotFound, Message: "Record not found"})
		return
	}
	if h.Data["ready"] != true {
		h.Data["ready"] = true // processing ends after one poll
		q.json(http.StatusPartialContent, map[string]any{"id": h.ID, "type": h.Data["type"], "url": nil})
		return
	}
	q.json(http.StatusOK, mastodonMediaJSON(h))
}

func (n *Net) mastodonStatus(h *Held) map[string]any {
	u := n.users[h.User]
	acct := map[string]any{"username": h.User, "acct": h.User}
	if u != nil {
		acct["id"] = u.ID
	}
	content := "<p>" + strings.ReplaceAll(html.EscapeString(h.Text), "\n", "<br />") + "</p>"
	media := []map[string]any{}
	for _, id := range h.Media {
		if m := n.find(KindMedia, id); m != nil {
			media = append(media, mastodonMediaJSON(m))
		}
	}
	var reply any
	if h.Parent != "" {
		reply = h.Parent
	}
	return map[string]any{"id": h.ID, "created_at": h.At.Format(time.RFC3339Nano), "in_reply_to_id": reply, "content": content,
		"visibility": h.Data["visibility"], "spoiler_text": h.Data["spoiler"], "url": h.URL, "uri": "https://sandbox.crier.invalid/users/" + h.User + "/statuses/" + h.ID,
		"media_attachments": media, "account": acct}
}

func mastodonCreateStatus(q *req) {
	var in struct {
		Status      string   `json:"status"`
		MediaIDs    []string `json:"media_ids"`
		Visibility  string   `json:"visibility"`
		SpoilerText string   `json:"spoiler_text"`
		InReplyToID string   `json:"in_reply_to_id"`
	}
	if strings.HasPrefix(q.r.Header.Get("Content-Type"), "application/json") {
		if err := json.NewDecoder(q.r.Body).Decode(&in); err != nil {
			q.fail(apiError{Status: http.StatusUnprocessableEntity, Message: "Validation failed: the body is not JSON"})
			return
		}
	} else {
		_ = q.r.ParseForm()
		in.Status, in.Visibility, in.SpoilerText, in.InReplyToID = q.r.PostForm.Get("status"), q.r.PostForm.Get("visibility"),
			q.r.PostForm.Get("spoiler_text"), q.r.PostForm.Get("in_reply_to_id")
		in.MediaIDs = q.r.PostForm["media_ids[]"]
	}
	key := q.r.Header.Get("Idempotency-Key")
	if key != "" {
		for _, h := range q.net.byUser[q.user.Login] {
			if (h.Kind == KindPost || h.Kind == KindComment) && h.Data["idempotencyKey"] == key {
				q.json(http.StatusOK, q.net.mastodonStatus(h))
				return
			}
		}
	}
	if strings.TrimSpace(in.Status) == "" && len(in.MediaIDs) == 0 {
		q.fail(apiError{Status: http.StatusUnprocessableEntity, Message: "Validation failed: Text can't be blank"})
		return
	}
	if len([]rune(in.Status)) > 500 {
		q.fail(apiError{Status: http.StatusUnprocessableEntity, Message: "Validation failed: Text character limit of 500 exceeded"})
		return
	}
	if len(in.MediaIDs) > 4 {
		q.fail(apiError{Status: http.StatusUnprocessableEntity, Message: "Validation failed: You can't attach more than 4 files"})
		return
	}
	for _, id := range in.MediaIDs {
		m := q.net.find(KindMedia, id)
		if m == nil || m.User != q.user.Login {
			q.fail(apiError{Status: http.StatusUnprocessableEntity, Message: "Validation failed: Media attachment ids are invalid"})
			return
		}
		if m.Data["ready"] != true {
			q.fail(apiError{Status: http.StatusUnprocessableEntity, Message: "Cannot attach files that have not finished processing. Try again in a moment!"})
			return
		}
	}
	kind := KindPost
	if in.InReplyToID != "" {
		parent := q.net.find(KindPost, in.InReplyToID)
		if parent == nil {
			parent = q.net.find(KindComment, in.InReplyToID)
		}
		if parent == nil || parent.DeletedAt != nil {
			q.fail(apiError{Status: http.StatusNotFound, Message: "Record not found"})
			return
		}
		kind = KindComment
	}
	vis := in.Visibility
	if vis == "" {
		vis = "public"
	}
	id := strconv.FormatInt(q.net.sb.Now().UnixNano()/1000, 10) + fmt.Sprintf("%03d", len(q.net.held)%1000)
	h := q.net.keep(Held{Kind: kind, ID: id, User: q.user.Login, Text: in.Status, Media: in.MediaIDs, Parent: in.InReplyToID,
		URL:  "https://sandbox.crier.invalid/@" + q.user.Login + "/" + id,
		Data: map[string]any{"idempotencyKey": key, "visibility": vis, "spoiler": in.SpoilerText}})
	q.json(http.StatusOK, q.net.mastodonStatus(h))
}

func (n *Net) mastodonStatusByID(id string) *Held {
	if h := n.find(KindPost, id); h != nil {
		return h
	}
	return n.find(KindComment, id)
}

func mastodonGetStatus(q *req) {
	h := q.net.mastodonStatusByID(mastodonLast(q))
	if h == nil || h.DeletedAt != nil {
		q.fail(apiError{Status: http.StatusNotFound, Message: "Record not found"})
		return
	}
	q.json(http.StatusOK, q.net.mastodonStatus(h))
}

func mastodonDeleteStatus(q *req) {
	h := q.net.mastodonStatusByID(mastodonLast(q))
	if h == nil || h.DeletedAt != nil || h.User != q.user.Login {
		q.fail(apiError{Status: http.StatusNotFound, Message: "Record not found"})
		return
	}
	q.net.remove(h)
	out := q.net.mastodonStatus(h)
	out["text"] = h.Text
	q.json(http.StatusOK, out)
}

func mastodonAccountStatuses(q *req) {
	id := strings.TrimSuffix(strings.TrimPrefix(q.path, "/api/v1/accounts/"), "/statuses")
	var owner *User
	for _, u := range q.net.users {
		if u.ID == id {
			owner = u
		}
	}
	if owner == nil {
		q.fail(apiError{Status: http.StatusNotFound, Message: "Record not found"})
		return
	}
	limit := 20
	if l, err := strconv.Atoi(q.r.URL.Query().Get("limit")); err == nil && l > 0 {
		limit = min(l, 40)
	}
	list := append(q.net.heldBy(KindPost, owner.Login), q.net.heldBy(KindComment, owner.Login)...)
	sort.SliceStable(list, func(i, j int) bool { return list[i].At.After(list[j].At) })
	out := []map[string]any{}
	for _, h := range list {
		if len(out) == limit {
			break
		}
		out = append(out, q.net.mastodonStatus(h))
	}
	q.json(http.StatusOK, out)
}
