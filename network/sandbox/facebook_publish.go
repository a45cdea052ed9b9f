package sandbox

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Facebook Pages publishing (Graph API): POST /{page}/feed (message, link, attached_media of
// unpublished photos, scheduling), /{page}/photos (url pulled by Meta: recorded, never fetched;
// published=false for attachments and stories), /{page}/videos (file_url), /{page}/video_reels and
// /{page}/video_stories (start → rupload /video-upload/{v}/{id} with a file_url header or bytes →
// finish), /{page}/photo_stories; GET /{id} (fields permalink_url, status: video_status processing
// → ready on the second read), GET /{page}/published_posts and /scheduled_posts and /stories for Find,
// DELETE /{id}, POST /{id}/comments. Publishing needs the page's own token (the tokens of
// /me/accounts, registered as live tokens of the page's owner); a user token is refused with
// Graph's (#200). Errors are Graph's, messages as Graph words them.
func facebookPublish(d *dialect) {
	userHook := d.newUser
	d.newUser = func(n *Net, u *User) {
		userHook(n, u)
		for _, c := range u.Channels {
			n.access[c.Token] = &issued{user: u, scope: "pages_manage_posts", expires: n.sb.Now().Add(100 * 365 * 24 * time.Hour), token: c.Token}
		}
	}
	for k, h := range facebookPublishRoutes() {
		d.routes[k] = h
	}
}

const facebookV = "/" + GraphVersion

func facebookPublishRoutes() map[string]func(q *req) {
	return map[string]func(q *req){
		"POST " + facebookV + "/{page}/feed":           facebookFeed,
		"POST " + facebookV + "/{page}/photos":         facebookPhotos,
		"POST " + facebookV + "/{page}/videos":         facebookVideos,
		"POST " + facebookV + "/{page}/video_reels":    func(q *req) { facebookResumable(q, "reel") },
		"POST " + facebookV + "/{page}/video_stories":  func(q *req) { facebookResumable(q, "video_story") },
		"POST " + facebookV + "/{page}/photo_stories":  facebookPhotoStory,
		"GET " + facebookV + "/{page}/published_posts": func(q *req) { facebookList(q, false) },
		"GET " + facebookV + "/{page}/scheduled_posts": func(q *req) { facebookList(q, true) },
		"GET " + facebookV + "/{page}/stories":         facebookStories,
		"GET " + facebookV + "/{id}":                   facebookGet,
		"DELETE " + facebookV + "/{id}":                facebookDelete,
		"POST " + facebookV + "/{id}/comments":         facebookComment,
		"POST /video-upload/" + GraphVersion + "/{id}": facebookUpload,
	}
}

// facebookPage answers the page of the path when the request carries that page's token.
func facebookPage(q *req) (*Channel, bool) {
	page := pathSegment(q, 2)
	tok := q.net.bearer(q.r)
	for i, c := range q.user.Channels {
		if c.ID == page {
			if c.Token != tok {
				graphError(q, apiError{Status: http.StatusForbidden, Code: "200", Message: "(#200) If posting to a page, requires both pages_read_engagement and pages_manage_posts as an admin with sufficient administrative permission"})
				return nil, false
			}
			return &q.user.Channels[i], true
		}
	}
	facebookMissing(q, page)
	return nil, false
}

// facebookTokenPage answers the page whose token the request carries ("" for a user token).
func facebookTokenPage(q *req) string {
	tok := q.net.bearer(q.r)
	for _, c := range q.user.Channels {
		if c.Token == tok {
			return c.ID
		}
	}
	return ""
}

func facebookMissing(q *req, id string) {
	graphError(q, apiError{Status: http.StatusBadRequest, Code: "100", Message: fmt.Sprintf("Unsupported get request. Object with ID '%s' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api", id)})
}

func facebookInvalid(q *req, msg string) {
	graphError(q, apiError{Status: http.StatusBadRequest, Code: "100", Message: msg})
}

// facebookID is a Graph object id.
func facebookID() string { return "1" + randomDigits(14) }

// facebookSchedule reads published/scheduled_publish_time: (scheduled, ok).
func facebookSchedule(q *req, f map[string][]string) (bool, bool) {
	get := func(k string) string {
		if v := f[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	at := get("scheduled_publish_time")
	if at == "" {
		return false, true
	}
	s, err := strconv.ParseInt(at, 10, 64)
	now := q.net.sb.Now()
	if err != nil || get("published") != "false" || time.Unix(s, 0).Before(now.Add(10*time.Minute)) || time.Unix(s, 0).After(now.Add(30*24*time.Hour)) {
		facebookInvalid(q, "(#100) The specified scheduled publish time is invalid.")
		return false, false
	}
	return true, true
}

func facebookFeed(q *req) {
	page, ok := facebookPage(q)
	if !ok {
		return
	}
	f := formValues(q.r)
	msg, link := f.Get("message"), f.Get("link")
	if utf8.RuneCountInString(msg) > 63206 {
		facebookInvalid(q, "(#100) The message is too long.")
		return
	}
	if link != "" && !isFetchableURL(link) {
		facebookInvalid(q, "(#100) link URL is not properly formatted")
		return
	}
	var media []string
	for i := 0; ; i++ {
		raw := f.Get(fmt.Sprintf("attached_media[%d]", i))
		if raw == "" {
			break
		}
		var am struct {
			MediaFBID string `json:"media_fbid"`
		}
		_ = json.Unmarshal([]byte(raw), &am)
		ph := q.net.live(am.MediaFBID, KindMedia)
		if ph == nil || ph.Channel != page.ID || ph.Data["type"] != "photo" || ph.Data["used"] == true {
			facebookInvalid(q, fmt.Sprintf("(#100) param attached_media[%d] has invalid media_fbid %q", i, am.MediaFBID))
			return
		}
		media = append(media, am.MediaFBID)
	}
	if msg == "" && link == "" && len(media) == 0 {
		facebookInvalid(q, "(#100) Missing message or attachment.")
		return
	}
	scheduled, ok := facebookSchedule(q, f)
	if !ok {
		return
	}
	for _, id := range media {
		q.net.live(id, KindMedia).Data["used"] = true
	}
	postID := page.ID + "_" + facebookID()
	q.net.keep(Held{Kind: KindPost, ID: postID, User: q.user.Login, Channel: page.ID, Text: msg, Media: media,
		URL:  "https://www.facebook.com/" + page.ID + "/posts/" + strings.TrimPrefix(postID, page.ID+"_"),
		Data: map[string]any{"type": "feed", "link": link, "scheduled": scheduled, "text_format_preset_id": f.Get("text_format_preset_id")}})
	q.json(http.StatusOK, map[string]any{"id": postID})
}

func facebookPhotos(q *req) {
	page, ok := facebookPage(q)
	if !ok {
		return
	}
	f := formValues(q.r)
	u := f.Get("url")
	if u == "" {
		facebookInvalid(q, "(#324) Requires upload file")
		return
	}
	if !isFetchableURL(u) {
		facebookInvalid(q, "(#100) url should represent a valid URL")
		return
	}
	photoID := facebookID()
	caption := f.Get("caption")
	if caption == "" {
		caption = f.Get("message")
	}
	if f.Get("published") == "false" && f.Get("scheduled_publish_time") == "" {
		q.net.keep(Held{Kind: KindMedia, ID: photoID, User: q.user.Login, Channel: page.ID, Media: []string{u},
			Data: map[string]any{"type": "photo", "url": u, "alt": f.Get("alt_text_custom")}})
		q.json(http.StatusOK, map[string]any{"id": photoID})
		return
	}
	scheduled, ok := facebookSchedule(q, f)
	if !ok {
		return
	}
	postID := page.ID + "_" + photoID
	q.net.keep(Held{Kind: KindPost, ID: postID, User: q.user.Login, Channel: page.ID, Text: caption, Media: []string{u},
		URL: "https://www.facebook.com/photo/?fbid=" + photoID, Data: map[string]any{"type": "photo", "photo_id": photoID, "scheduled": scheduled,
			"alt": f.Get("alt_text_custom")}})
	out := map[string]any{"id": photoID}
	if !scheduled {
		out["post_id"] = postID
	}
	q.json(http.StatusOK, out)
}

func facebookVideos(q *req) {
	page, ok := facebookPage(q)
	if !ok {
		return
	}
	f := formValues(q.r)
	u := f.Get("file_url")
	if !isFetchableURL(u) {
		facebookInvalid(q, "(#100) Invalid file_url: the video file could not be retrieved")
		return
	}
	scheduled, ok := facebookSchedule(q, f)
	if !ok {
		return
	}
	id := facebookID()
	q.net.keep(Held{Kind: KindPost, ID: id, User: q.user.Login, Channel: page.ID, Text: f.Get("description"), Media: []string{u},
		URL: "https://www.facebook.com/" + page.ID + "/videos/" + id + "/", Data: map[string]any{"type": "video", "title": f.Get("title"),
			"scheduled": scheduled, "video_status": "processing", "polls": 0}})
	q.json(http.StatusOK, map[string]any{"id": id})
}

// facebookResumable is the start/finish of reels and video stories.
func facebookResumable(q *req, kind string) {
	page, ok := facebookPage(q)
	if !ok {
		return
	}
	f := formValues(q.r)
	switch f.Get("upload_phase") {
	case "start":
		id := facebookID()
		q.net.keep(Held{Kind: KindMedia, ID: id, User: q.user.Login, Channel: page.ID, Data: map[string]any{"type": kind, "phase": "started"}})
		q.json(http.StatusOK, map[string]any{"video_id": id, "upload_url": baseURL(q) + "/video-upload/" + GraphVersion + "/" + id})
	case "finish":
		v := q.net.live(f.Get("video_id"), KindMedia)
		if v == nil || v.Channel != page.ID || v.Data["type"] != kind {
			facebookInvalid(q, fmt.Sprintf("(#100) Invalid video_id %q", f.Get("video_id")))
			return
		}
		if v.Data["phase"] == "started" {
			graphError(q, apiError{Status: http.StatusBadRequest, Code: "6000", Message: "There was a problem uploading your video file. Please try again."})
			return
		}
		if v.Data["phase"] == "finished" { // a repeated finish publishes nothing more
			q.json(http.StatusOK, map[string]any{"success": true, "post_id": v.Data["post_id"]})
			return
		}
		if kind == "reel" {
			state := f.Get("video_state")
			if state != "PUBLISHED" && state != "SCHEDULED" && state != "DRAFT" {
				facebookInvalid(q, "(#100) video_state must be one of PUBLISHED, SCHEDULED, DRAFT")
				return
			}
			v.Data["phase"], v.Data["post_id"] = "finished", v.ID
			q.net.keep(Held{Kind: KindPost, ID: v.ID, User: q.user.Login, Channel: page.ID, Text: f.Get("description"), Media: []string{v.Data["file"].(string)},
				URL: "https://www.facebook.com/reel/" + v.ID, Data: map[string]any{"type": "reel", "title": f.Get("title"), "video_state": state,
					"video_status": "processing", "polls": 0}})
			q.json(http.StatusOK, map[string]any{"success": true})
			return
		}
		postID := page.ID + "_" + facebookID()
		v.Data["phase"], v.Data["post_id"] = "finished", postID
		q.net.keep(Held{Kind: KindPost, ID: postID, User: q.user.Login, Channel: page.ID, Media: []string{v.Data["file"].(string)},
			URL: "https://www.facebook.com/stories/" + page.ID + "/" + strings.TrimPrefix(postID, page.ID+"_"), Data: map[string]any{"type": "story", "video_id": v.ID}})
		q.json(http.StatusOK, map[string]any{"success": true, "post_id": postID})
	default:
		facebookInvalid(q, "(#100) upload_phase must be one of start, finish")
	}
}

// facebookUpload receives a started video at rupload: a file_url header (Meta pulls it) or the bytes.
func facebookUpload(q *req) {
	v := q.net.live(pathSegment(q, 3), KindMedia)
	if v == nil || v.User != q.user.Login || (v.Data["type"] != "reel" && v.Data["type"] != "video_story") {
		q.json(http.StatusBadRequest, map[string]any{"debug_info": map[string]any{"type": "ProcessingFailedError", "message": "Invalid video id"}})
		return
	}
	file := q.r.Header.Get("file_url")
	if file == "" {
		b, _ := io.ReadAll(io.LimitReader(q.r.Body, 64<<20))
		if len(b) == 0 {
			q.json(http.StatusBadRequest, map[string]any{"debug_info": map[string]any{"type": "PartialRequestError", "message": "Partial request (did not match length of file)"}})
			return
		}
		file = fmt.Sprintf("bytes:%d", len(b))
	} else if !isFetchableURL(file) {
		q.json(http.StatusBadRequest, map[string]any{"debug_info": map[string]any{"type": "ProcessingFailedError", "message": "Invalid file_url"}})
		return
	}
	v.Data["phase"], v.Data["file"] = "uploaded", file
	q.json(http.StatusOK, map[string]any{"success": true})
}

func facebookPhotoStory(q *req) {
	page, ok := facebookPage(q)
	if !ok {
		return
	}
	f := formValues(q.r)
	ph := q.net.live(f.Get("photo_id"), KindMedia)
	if ph == nil || ph.Channel != page.ID || ph.Data["type"] != "photo" || ph.Data["used"] == true {
		facebookInvalid(q, fmt.Sprintf("(#100) Invalid photo_id %q", f.Get("photo_id")))
		return
	}
	ph.Data["used"] = true
	postID := page.ID + "_" + facebookID()
	q.net.keep(Held{Kind: KindPost, ID: postID, User: q.user.Login, Channel: page.ID, Media: ph.Media,
		URL: "https://www.facebook.com/stories/" + page.ID + "/" + strings.TrimPrefix(postID, page.ID+"_"), Data: map[string]any{"type": "story", "photo_id": ph.ID}})
	q.json(http.StatusOK, map[string]any{"success": true, "post_id": postID})
}

// facebookObject answers a live post, photo/video or comment the token's page owns.
func facebookObject(q *req) *Held {
	id := pathSegment(q, 2)
	h := q.net.live(id, KindPost) // a finished reel is a post with its video's id
	if h == nil {
		h = q.net.live(id, KindComment, KindMedia)
	}
	if h == nil || h.User != q.user.Login || (facebookTokenPage(q) != "" && h.Channel != facebookTokenPage(q)) {
		facebookMissing(q, id)
		return nil
	}
	return h
}

func facebookView(h *Held) map[string]any {
	out := map[string]any{"id": h.ID, "created_time": h.At.Format("2006-01-02T15:04:05-0700")}
	if h.Text != "" {
		out["message"] = h.Text
	}
	if h.URL != "" {
		out["permalink_url"] = h.URL
		if h.Data["type"] == "video" {
			out["permalink_url"] = strings.TrimPrefix(h.URL, "https://www.facebook.com") // Graph answers videos' permalinks relative
		}
	}
	if s, ok := h.Data["video_status"].(string); ok {
		if s == "processing" && countPoll(h) >= 1 {
			s = "ready"
			h.Data["video_status"] = s
		}
		phase := "not_started"
		if s == "ready" {
			phase = "complete"
		}
		out["status"] = map[string]any{"video_status": s, "uploading_phase": map[string]any{"status": "complete"},
			"processing_phase": map[string]any{"status": map[bool]string{true: "complete", false: "in_progress"}[s == "ready"]},
			"publishing_phase": map[string]any{"status": phase}}
	}
	return out
}

func facebookGet(q *req) {
	for _, c := range q.user.Channels { // a page: its fields, with its token for its admin
		if c.ID == pathSegment(q, 2) {
			q.json(http.StatusOK, map[string]any{"id": c.ID, "name": c.Name, "access_token": c.Token})
			return
		}
	}
	if h := facebookObject(q); h != nil {
		view := facebookView(h)
		if fields := q.r.URL.Query().Get("fields"); fields != "" {
			keep := map[string]any{"id": view["id"]}
			for _, f := range strings.Split(fields, ",") {
				if v, ok := view[f]; ok {
					keep[f] = v
				}
			}
			view = keep
		}
		q.json(http.StatusOK, view)
	}
}

func facebookList(q *req, scheduled bool) {
	page, ok := facebookPage(q)
	if !ok {
		return
	}
	data := []map[string]any{}
	held := q.net.heldBy(KindPost, q.user.Login)
	for i := len(held) - 1; i >= 0; i-- {
		h := held[i]
		if h.Channel == page.ID && (h.Data["scheduled"] == true) == scheduled && h.Data["type"] != "story" {
			v := facebookView(h)
			delete(v, "status")
			data = append(data, v)
		}
	}
	q.json(http.StatusOK, map[string]any{"data": data, "paging": map[string]any{"cursors": map[string]string{"before": "QVFIUk", "after": "QVFIUl"}}})
}

func facebookDelete(q *req) {
	if h := facebookObject(q); h != nil {
		q.net.remove(h)
		q.json(http.StatusOK, map[string]any{"success": true})
	}
}

func facebookComment(q *req) {
	parent := facebookObject(q)
	if parent == nil {
		return
	}
	if parent.Kind == KindMedia {
		facebookMissing(q, parent.ID)
		return
	}
	msg := formValues(q.r).Get("message")
	if msg == "" {
		facebookInvalid(q, "(#100) Missing message or attachment.")
		return
	}
	id := strings.TrimPrefix(parent.ID, parent.Channel+"_") + "_" + facebookID()
	q.net.keep(Held{Kind: KindComment, ID: id, User: q.user.Login, Channel: parent.Channel, Text: msg, Parent: parent.ID})
	q.json(http.StatusOK, map[string]any{"id": id})
}

// facebookStories lists the page's stories (Page Stories API): post_id, status, creation_time,
// media_type, media_id, url.
func facebookStories(q *req) {
	page, ok := facebookPage(q)
	if !ok {
		return
	}
	data := []map[string]any{}
	held := q.net.heldBy(KindPost, q.user.Login)
	for i := len(held) - 1; i >= 0; i-- {
		h := held[i]
		if h.Channel != page.ID || h.Data["type"] != "story" {
			continue
		}
		media, typ := h.Data["photo_id"], "photo"
		if v, ok := h.Data["video_id"]; ok {
			media, typ = v, "video"
		}
		data = append(data, map[string]any{"post_id": h.ID, "status": "PUBLISHED", "creation_time": fmt.Sprint(h.At.Unix()),
			"media_type": typ, "media_id": media, "url": h.URL})
	}
	q.json(http.StatusOK, map[string]any{"data": data})
}
