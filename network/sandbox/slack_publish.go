package sandbox

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Slack publishing (bot token): chat.postMessage (channel, text, thread_ts, username, icon_url),
// chat.getPermalink, chat.delete, conversations.history (latest/oldest/inclusive/limit, newest
// first), and the upload v2 flow — files.getUploadURLExternal (filename, length) → POST the bytes to
// the upload_url (unauthenticated, length checked) → files.completeUploadExternal (files JSON,
// channel_id, initial_comment, thread_ts), which shares the files as one message (listed by
// conversations.history from its next read on, as Slack shares asynchronously) — files.info with
// shares, files.delete. Errors are 200 {"ok":false,"error"} as the real API answers them.
func slackPublish(d *dialect) {
	d.routes["POST /api/chat.postMessage"] = slackPostMessage
	d.routes["GET /api/chat.getPermalink"], d.routes["POST /api/chat.getPermalink"] = slackPermalink, slackPermalink
	d.routes["POST /api/chat.delete"] = slackChatDelete
	d.routes["GET /api/conversations.history"], d.routes["POST /api/conversations.history"] = slackHistory, slackHistory
	d.routes["POST /api/files.getUploadURLExternal"] = slackGetUploadURLExternal
	if d.patterns == nil {
		d.patterns = map[string]func(q *req){}
	}
	d.patterns["POST /upload/v1/{id}"] = slackUploadFile
	d.routes["POST /api/files.completeUploadExternal"] = slackCompleteUploadExternal
	d.routes["GET /api/files.info"], d.routes["POST /api/files.info"] = slackFileInfo, slackFileInfo
	d.routes["POST /api/files.delete"] = slackFilesDelete
}

// slackError answers Slack's {"ok":false,"error":code} (with 200).
func slackError(q *req, code string) { q.fail(apiError{Status: http.StatusOK, Code: code}) }

// slackChannelOf finds a channel of the caller's workspace.
func slackChannelOf(q *req, id string) (Channel, bool) {
	for _, c := range q.user.Channels {
		if c.ID == id {
			return c, true
		}
	}
	return Channel{}, false
}

// slackNewTS is a message timestamp (seconds.micros, unique per message).
func slackNewTS(q *req) string {
	now := q.net.sb.Now()
	return fmt.Sprintf("%d.%06d", now.Unix(), (now.Nanosecond()/1000+len(q.net.held))%1000000)
}

// slackMessageJSON is a message as chat and history methods answer it.
func slackMessageJSON(q *req, h *Held) map[string]any {
	m := map[string]any{"type": "message", "text": h.Text, "ts": h.ID, "user": "U0BOT" + q.user.ID[:4], "bot_id": "B0SANDBOX", "app_id": "A0SANDBOX"}
	if h.Parent != "" {
		m["thread_ts"] = h.Parent
	}
	if len(h.Media) > 0 {
		fs := []map[string]any{}
		for _, id := range h.Media {
			fs = append(fs, map[string]any{"id": id})
		}
		m["files"], m["upload"] = fs, true
	}
	return m
}

// slackNewMessage keeps a message (a reply when thread is set).
func slackNewMessage(q *req, channel, text, thread string, files []string, data map[string]any) *Held {
	kind := KindPost
	if thread != "" {
		kind = KindComment
	}
	ts := slackNewTS(q)
	return q.net.keep(Held{Kind: kind, ID: ts, User: q.user.Login, Channel: channel, Text: text, Media: files, Parent: thread,
		URL: "https://" + q.user.Login + ".slack.com/archives/" + channel + "/p" + strings.ReplaceAll(ts, ".", ""), Data: data})
}

// slackThreadOK says whether thread is empty or a live message of channel.
func slackThreadOK(q *req, channel, thread string) bool {
	if thread == "" {
		return true
	}
	h := q.net.find(KindPost, thread)
	return h != nil && h.DeletedAt == nil && h.Channel == channel
}

func slackPostMessage(q *req) {
	a := methodArgs(q.r)
	if a["channel"] == "" {
		slackError(q, "channel_not_found")
		return
	}
	if _, ok := slackChannelOf(q, a["channel"]); !ok {
		slackError(q, "channel_not_found")
		return
	}
	if strings.TrimSpace(a["text"]) == "" && a["blocks"] == "" && a["attachments"] == "" {
		slackError(q, "no_text")
		return
	}
	if utf8.RuneCountInString(a["text"]) > 40000 {
		slackError(q, "msg_too_long")
		return
	}
	if !slackThreadOK(q, a["channel"], a["thread_ts"]) {
		slackError(q, "thread_not_found")
		return
	}
	h := slackNewMessage(q, a["channel"], a["text"], a["thread_ts"], nil, map[string]any{"username": a["username"], "iconUrl": a["icon_url"]})
	q.json(http.StatusOK, map[string]any{"ok": true, "channel": h.Channel, "ts": h.ID, "message": slackMessageJSON(q, h)})
}

func slackPermalink(q *req) {
	a := methodArgs(q.r)
	h := q.net.live(a["message_ts"], KindPost, KindComment)
	if _, ok := slackChannelOf(q, a["channel"]); !ok {
		slackError(q, "channel_not_found")
		return
	}
	if h == nil || h.Channel != a["channel"] {
		slackError(q, "message_not_found")
		return
	}
	q.json(http.StatusOK, map[string]any{"ok": true, "channel": h.Channel, "permalink": h.URL})
}

func slackChatDelete(q *req) {
	a := methodArgs(q.r)
	if _, ok := slackChannelOf(q, a["channel"]); !ok {
		slackError(q, "channel_not_found")
		return
	}
	h := q.net.live(a["ts"], KindPost, KindComment)
	if h == nil || h.Channel != a["channel"] {
		slackError(q, "message_not_found")
		return
	}
	q.net.remove(h)
	q.json(http.StatusOK, map[string]any{"ok": true, "channel": h.Channel, "ts": h.ID})
}

func slackHistory(q *req) {
	a := methodArgs(q.r)
	if _, ok := slackChannelOf(q, a["channel"]); !ok {
		slackError(q, "channel_not_found")
		return
	}
	limit, err := strconv.Atoi(a["limit"])
	if err != nil || limit <= 0 {
		limit = 100
	}
	num := func(s string) float64 { f, _ := strconv.ParseFloat(s, 64); return f }
	latest, oldest, incl := num(a["latest"]), num(a["oldest"]), a["inclusive"] == "true" || a["inclusive"] == "1"
	out := []map[string]any{}
	posts := q.net.heldIn(KindPost, a["channel"])
	for i := len(posts) - 1; i >= 0 && len(out) < limit; i-- {
		ts := num(posts[i].ID)
		if (latest > 0 && (ts > latest || (!incl && ts == latest))) || (oldest > 0 && (ts < oldest || (!incl && ts == oldest))) {
			continue
		}
		if posts[i].Data["sharing"] == true {
			posts[i].Data["sharing"] = false // shared by the next read
			continue
		}
		out = append(out, slackMessageJSON(q, posts[i]))
	}
	q.json(http.StatusOK, map[string]any{"ok": true, "messages": out, "has_more": false, "pin_count": 0})
}

func slackGetUploadURLExternal(q *req) {
	a := methodArgs(q.r)
	n, err := strconv.Atoi(a["length"])
	if a["filename"] == "" || err != nil || n <= 0 {
		slackError(q, "invalid_arguments")
		return
	}
	if n > 1<<30 {
		slackError(q, "file_too_large")
		return
	}
	id := "F" + strings.ToUpper(randID("")[:10])
	q.net.keep(Held{Kind: KindMedia, ID: id, User: q.user.Login, Text: a["filename"], Data: map[string]any{"length": n, "uploaded": false, "altText": a["alt_txt"]}})
	q.json(http.StatusOK, map[string]any{"ok": true, "upload_url": baseURL(q) + "/upload/v1/" + id, "file_id": id})
}

func slackUploadFile(q *req) {
	h := q.net.find(KindMedia, strings.TrimPrefix(q.path, "/upload/v1/"))
	b, _ := io.ReadAll(io.LimitReader(q.r.Body, 1<<30+1))
	if h == nil {
		q.w.WriteHeader(http.StatusNotFound)
		return
	}
	if _, files, ok := readMultipart(q.r); ok && len(files) > 0 {
		b = files[0].Data
	}
	if len(b) != h.Data["length"].(int) {
		q.w.Header().Set("Content-Type", "text/plain")
		q.w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(q.w, "length mismatch: expected %d bytes, got %d", h.Data["length"], len(b))
		return
	}
	h.Data["uploaded"], h.Data["kind"] = true, sniffMedia(b)
	q.w.Header().Set("Content-Type", "text/plain")
	fmt.Fprintf(q.w, "OK - %d", len(b))
}

func slackCompleteUploadExternal(q *req) {
	a := methodArgs(q.r)
	var files []struct {
		ID    string `json:"id"`
		Title string `json:"title"`
	}
	if json.Unmarshal([]byte(a["files"]), &files) != nil || len(files) == 0 || len(files) > 100 {
		slackError(q, "invalid_arguments")
		return
	}
	var ids []string
	for _, f := range files {
		h := q.net.find(KindMedia, f.ID)
		if h == nil || h.User != q.user.Login {
			slackError(q, "file_not_found")
			return
		}
		if h.Data["uploaded"] != true {
			slackError(q, "file_upload_not_complete") // (U) the real code for bytes never sent
			return
		}
		if h.Data["shared"] == true {
			slackError(q, "file_already_completed") // (U)
			return
		}
		ids = append(ids, f.ID)
	}
	out := []map[string]any{}
	if ch := a["channel_id"]; ch != "" {
		if _, ok := slackChannelOf(q, ch); !ok {
			slackError(q, "channel_not_found")
			return
		}
		if !slackThreadOK(q, ch, a["thread_ts"]) {
			slackError(q, "thread_not_found")
			return
		}
		// Slack shares asynchronously: the message shows in conversations.history from its next read on.
		msg := slackNewMessage(q, ch, a["initial_comment"], a["thread_ts"], ids, map[string]any{"sharing": true})
		for _, id := range ids {
			q.net.find(KindMedia, id).Data["share"] = map[string]any{"channel": ch, "ts": msg.ID}
		}
	}
	for i, id := range ids {
		h := q.net.find(KindMedia, id)
		h.Data["shared"] = true
		out = append(out, map[string]any{"id": id, "title": files[i].Title, "name": h.Text})
	}
	q.json(http.StatusOK, map[string]any{"ok": true, "files": out})
}

func slackFileInfo(q *req) {
	h := q.net.find(KindMedia, methodArgs(q.r)["file"])
	if h == nil || h.DeletedAt != nil || h.User != q.user.Login {
		slackError(q, "file_not_found")
		return
	}
	f := map[string]any{"id": h.ID, "name": h.Text, "size": h.Data["length"], "shares": map[string]any{}}
	if s, ok := h.Data["share"].(map[string]any); ok {
		f["shares"] = map[string]any{"public": map[string]any{s["channel"].(string): []map[string]any{{"ts": s["ts"], "reply_count": 0}}}}
		f["channels"] = []string{s["channel"].(string)}
	}
	q.json(http.StatusOK, map[string]any{"ok": true, "file": f})
}

func slackFilesDelete(q *req) {
	h := q.net.find(KindMedia, methodArgs(q.r)["file"])
	if h == nil || h.DeletedAt != nil || h.User != q.user.Login {
		slackError(q, "file_not_found")
		return
	}
	q.net.remove(h)
	q.json(http.StatusOK, map[string]any{"ok": true})
}
