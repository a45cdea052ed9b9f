package sandbox

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// YouTube uploads (Data API v3): the resumable protocol — POST /upload/youtube/v3/videos
// ?uploadType=resumable (metadata validated as YouTube does: title 1–100 without < or >,
// description ≤ 5,000 bytes, privacyStatus; X-Upload-Content-Length required) answers the session
// URI in Location; PUT to it with Content-Range bytes a-b/total appends (308 Resume Incomplete with
// Range until complete; the Video with 200 at the end), bytes */total asks how far it got; an
// unknown session is 404. Then GET/DELETE /youtube/v3/videos, POST
// /upload/youtube/v3/thumbnails/set, POST /youtube/v3/commentThreads and /youtube/v3/comments.
// Errors are Google's.
func youtubePublish(d *dialect) {
	d.routes["POST /upload/youtube/v3/videos"] = youtubeStart
	d.routes["PUT /upload/youtube/v3/videos"] = youtubePut
	d.routes["GET /youtube/v3/videos"] = youtubeList
	d.routes["DELETE /youtube/v3/videos"] = youtubeDelete
	d.routes["POST /upload/youtube/v3/thumbnails/set"] = youtubeThumbnail
	d.routes["POST /youtube/v3/commentThreads"] = youtubeThread
	d.routes["POST /youtube/v3/comments"] = youtubeReply
}

const youtubeSession = "yt-session"

func youtubeBad(q *req, reason, msg string) {
	googleError(q, apiError{Status: http.StatusBadRequest, Code: reason, Message: msg})
}

func youtubeStart(q *req) {
	v := q.r.URL.Query()
	if v.Get("uploadType") != "resumable" {
		youtubeBad(q, "badRequest", "Sandbox YouTube implements uploadType=resumable only")
		return
	}
	if !strings.Contains(v.Get("part"), "snippet") {
		youtubeBad(q, "unexpectedPart", "The part parameter must name snippet")
		return
	}
	total, err := strconv.ParseInt(q.r.Header.Get("X-Upload-Content-Length"), 10, 64)
	if err != nil || total <= 0 {
		youtubeBad(q, "badContent", "X-Upload-Content-Length is required")
		return
	}
	if ct := q.r.Header.Get("X-Upload-Content-Type"); ct != "" && !strings.HasPrefix(ct, "video/") && ct != "application/octet-stream" {
		youtubeBad(q, "badContent", "Media type '"+ct+"' is not supported. Valid media types: [video/*, application/octet-stream]")
		return
	}
	var meta struct {
		Snippet struct {
			Title       string `json:"title"`
			Description string `json:"description"`
		} `json:"snippet"`
		Status struct {
			PrivacyStatus string `json:"privacyStatus"`
		} `json:"status"`
	}
	raw, _ := io.ReadAll(io.LimitReader(q.r.Body, 1<<20))
	if json.Unmarshal(raw, &meta) != nil {
		youtubeBad(q, "parseError", "Parse Error")
		return
	}
	switch t := meta.Snippet.Title; {
	case strings.TrimSpace(t) == "":
		youtubeBad(q, "invalidTitle", "The request metadata specifies an invalid or empty video title.")
		return
	case len([]rune(t)) > 100 || strings.ContainsAny(t, "<>"):
		youtubeBad(q, "invalidTitle", "The request metadata specifies an invalid video title.")
		return
	}
	if len(meta.Snippet.Description) > 5000 || strings.ContainsAny(meta.Snippet.Description, "<>") {
		youtubeBad(q, "invalidDescription", "The request metadata specifies an invalid video description.")
		return
	}
	switch meta.Status.PrivacyStatus {
	case "", "public", "private", "unlisted":
	default:
		youtubeBad(q, "invalidVideoMetadata", "The request metadata is invalid.")
		return
	}
	id := randID("")
	var body map[string]any
	_ = json.Unmarshal(raw, &body)
	q.net.keep(Held{Kind: KindMedia, ID: id, User: q.user.Login, Data: map[string]any{"type": youtubeSession, "total": total, "received": int64(0), "meta": body}})
	q.w.Header().Set("Location", baseURL(q)+"/upload/youtube/v3/videos?uploadType=resumable&upload_id="+id)
	q.w.Header().Set("X-GUploader-UploadID", id)
	q.w.WriteHeader(http.StatusOK)
}

func youtubePut(q *req) {
	s := q.net.live(q.r.URL.Query().Get("upload_id"), KindMedia)
	if s == nil || s.Data["type"] != youtubeSession || s.User != q.user.Login {
		googleError(q, apiError{Status: http.StatusNotFound, Code: "notFound", Message: "The upload session was not found or has expired."})
		return
	}
	total, received := s.Data["total"].(int64), s.Data["received"].(int64)
	video := func() {
		h := q.net.find(KindPost, s.Data["video"].(string))
		q.json(http.StatusOK, youtubeView(h))
	}
	rng := strings.TrimPrefix(q.r.Header.Get("Content-Range"), "bytes ")
	span, totalStr, _ := strings.Cut(rng, "/")
	if t, err := strconv.ParseInt(totalStr, 10, 64); err != nil || t != total {
		youtubeBad(q, "badContent", "Content-Range total does not match X-Upload-Content-Length")
		return
	}
	incomplete := func() {
		if received > 0 {
			q.w.Header().Set("Range", fmt.Sprintf("bytes=0-%d", received-1))
		}
		q.w.WriteHeader(http.StatusPermanentRedirect)
	}
	if s.Data["video"] != nil {
		video()
		return
	}
	if span == "*" {
		incomplete()
		return
	}
	a, b, _ := strings.Cut(span, "-")
	first, err1 := strconv.ParseInt(a, 10, 64)
	last, err2 := strconv.ParseInt(b, 10, 64)
	chunk, _ := io.ReadAll(io.LimitReader(q.r.Body, 64<<20))
	if err1 != nil || err2 != nil || last < first || int64(len(chunk)) != last-first+1 {
		youtubeBad(q, "badContent", "Content-Range does not match the request body")
		return
	}
	if first != received { // YouTube keeps what it has and says so
		incomplete()
		return
	}
	received += int64(len(chunk))
	s.Data["received"] = received
	if received < total {
		incomplete()
		return
	}
	meta, _ := s.Data["meta"].(map[string]any)
	snippet, _ := meta["snippet"].(map[string]any)
	title, _ := snippet["title"].(string)
	id := youtubeVideoID()
	s.Data["video"] = id
	q.net.keep(Held{Kind: KindPost, ID: id, User: q.user.Login, Channel: q.user.Channels[0].ID, Text: title,
		Media: []string{fmt.Sprintf("bytes:%d", total)}, URL: "https://www.youtube.com/watch?v=" + id, Data: meta})
	video()
}

// youtubeVideoID is an 11-character video id.
func youtubeVideoID() string {
	const abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	r := randID("")
	out := make([]byte, 11)
	for i := range out {
		out[i] = abc[(int(r[i*2])*7+int(r[i*2+1]))%64]
	}
	return string(out)
}

func youtubeView(h *Held) map[string]any {
	snippet := map[string]any{"publishedAt": h.At.Format(time.RFC3339), "channelId": h.Channel, "title": h.Text, "categoryId": "22"}
	status := map[string]any{"uploadStatus": "uploaded", "privacyStatus": "public"}
	if s, ok := h.Data["snippet"].(map[string]any); ok {
		for k, v := range s {
			snippet[k] = v
		}
	}
	if s, ok := h.Data["status"].(map[string]any); ok {
		for k, v := range s {
			if k == "privacyStatus" && v == "" {
				continue
			}
			status[k] = v
		}
	}
	return map[string]any{"kind": "youtube#video", "etag": "sb", "id": h.ID, "snippet": snippet, "status": status}
}

func youtubeList(q *req) {
	items := []map[string]any{}
	for _, id := range strings.Split(q.r.URL.Query().Get("id"), ",") {
		if h := q.net.live(id, KindPost); h != nil && h.User == q.user.Login {
			items = append(items, youtubeView(h))
		}
	}
	q.json(http.StatusOK, map[string]any{"kind": "youtube#videoListResponse", "etag": "sb", "items": items,
		"pageInfo": map[string]int{"totalResults": len(items), "resultsPerPage": len(items)}})
}

func youtubeVideo(q *req, id string) *Held {
	h := q.net.live(id, KindPost)
	if h == nil || h.User != q.user.Login {
		googleError(q, apiError{Status: http.StatusNotFound, Code: "videoNotFound", Message: "The video identified by the <code><a href=\"/youtube/v3/docs/videos/delete#id\">id</a></code> parameter could not be found."})
		return nil
	}
	return h
}

func youtubeDelete(q *req) {
	if h := youtubeVideo(q, q.r.URL.Query().Get("id")); h != nil {
		q.net.remove(h)
		q.w.WriteHeader(http.StatusNoContent)
	}
}

func youtubeThumbnail(q *req) {
	h := youtubeVideo(q, q.r.URL.Query().Get("videoId"))
	if h == nil {
		return
	}
	ct := q.r.Header.Get("Content-Type")
	b, _ := io.ReadAll(io.LimitReader(q.r.Body, 3<<20))
	switch {
	case ct != "image/jpeg" && ct != "image/png" && ct != "application/octet-stream":
		youtubeBad(q, "mediaBodyRequired", "The request does not include the image content.")
		return
	case len(b) == 0:
		youtubeBad(q, "mediaBodyRequired", "The request does not include the image content.")
		return
	case len(b) > 2<<20:
		youtubeBad(q, "imageTooLarge", "The image that you provided is too large.")
		return
	}
	h.Data["thumbnail"] = fmt.Sprintf("%s:%d bytes", ct, len(b))
	url := "https://i.ytimg.com/vi/" + h.ID + "/default.jpg"
	q.json(http.StatusOK, map[string]any{"kind": "youtube#thumbnailSetResponse", "etag": "sb",
		"items": []map[string]any{{"default": map[string]any{"url": url, "width": 120, "height": 90}}}})
}

func youtubeThread(q *req) {
	var body struct {
		Snippet struct {
			VideoID         string `json:"videoId"`
			TopLevelComment struct {
				Snippet struct {
					TextOriginal string `json:"textOriginal"`
				} `json:"snippet"`
			} `json:"topLevelComment"`
		} `json:"snippet"`
	}
	if !decodeJSON(q.r, &body) || body.Snippet.TopLevelComment.Snippet.TextOriginal == "" {
		youtubeBad(q, "commentTextRequired", "The comment resource must contain the snippet.topLevelComment.snippet.textOriginal property.")
		return
	}
	v := q.net.live(body.Snippet.VideoID, KindPost)
	if v == nil {
		googleError(q, apiError{Status: http.StatusNotFound, Code: "videoNotFound", Message: "The video identified by the videoId parameter could not be found."})
		return
	}
	id := "Ug" + randID("")[:24]
	text := body.Snippet.TopLevelComment.Snippet.TextOriginal
	q.net.keep(Held{Kind: KindComment, ID: id, User: q.user.Login, Channel: v.Channel, Text: text, Parent: v.ID})
	q.json(http.StatusOK, map[string]any{"kind": "youtube#commentThread", "etag": "sb", "id": id, "snippet": map[string]any{
		"videoId": v.ID, "topLevelComment": map[string]any{"kind": "youtube#comment", "id": id, "snippet": map[string]any{"videoId": v.ID, "textOriginal": text}}}})
}

func youtubeReply(q *req) {
	var body struct {
		Snippet struct {
			ParentID     string `json:"parentId"`
			TextOriginal string `json:"textOriginal"`
		} `json:"snippet"`
	}
	if !decodeJSON(q.r, &body) || body.Snippet.TextOriginal == "" {
		youtubeBad(q, "commentTextRequired", "The comment resource must contain the snippet.textOriginal property.")
		return
	}
	p := q.net.live(body.Snippet.ParentID, KindComment)
	if p == nil {
		googleError(q, apiError{Status: http.StatusNotFound, Code: "parentCommentNotFound", Message: "The parent comment could not be found."})
		return
	}
	id := p.ID + "." + randID("")[:22]
	q.net.keep(Held{Kind: KindComment, ID: id, User: q.user.Login, Channel: p.Channel, Text: body.Snippet.TextOriginal, Parent: p.ID})
	q.json(http.StatusOK, map[string]any{"kind": "youtube#comment", "etag": "sb", "id": id, "snippet": map[string]any{
		"parentId": p.ID, "textOriginal": body.Snippet.TextOriginal}})
}
