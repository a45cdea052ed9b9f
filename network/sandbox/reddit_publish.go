package sandbox

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Reddit publishing: POST /api/media/asset.json (filepath, mimetype) leases an S3-style form upload
// (args.action scheme-relative, args.fields), the multipart POST to it (unauthenticated, fields
// checked) answers 201 XML with <Location>; POST /api/submit (form, api_type=json; kinds self,
// link, image, video, videogif) and POST /api/submit_gallery_post.json (JSON) create t3 posts;
// image/video submits answer no id (websocket_url and user_submitted_page, as Reddit does), so the
// post is read back from GET /user/{name}/submitted, where a video post appears once processed
// (from the listing's next read on). GET /api/info?id= (deleted posts stay, with
// author "[deleted]"), POST /api/del, POST /api/comment. Validation errors are 200 with
// json.errors [[CODE, message, field]].
func redditPublish(d *dialect) {
	d.routes["POST /api/media/asset.json"] = redditMediaAsset
	if d.unauthenticated == nil {
		d.unauthenticated = map[string]func(q *req){}
	}
	d.unauthenticated["POST /media-upload"] = redditMediaUpload
	d.routes["POST /api/submit"] = redditSubmit
	d.routes["POST /api/submit_gallery_post.json"] = redditSubmitGallery
	d.routes["GET /api/info"] = redditInfo
	d.routes["GET /user/{name}/submitted"] = redditUserSubmitted
	d.routes["POST /api/del"] = redditDelete
	d.routes["POST /api/comment"] = redditComment
}

// redditJSONError answers api_type=json's error shape (200 with json.errors).
func redditJSONError(q *req, code, msg, field string) {
	q.json(http.StatusOK, map[string]any{"json": map[string]any{"errors": [][]string{{code, msg, field}}}})
}

// redditSubreddit finds a subreddit the caller subscribes to (case-insensitive).
func redditSubreddit(q *req, sr string) (Channel, bool) {
	for _, c := range q.user.Channels {
		if strings.EqualFold(c.ID, sr) {
			return c, true
		}
	}
	return Channel{}, false
}

// redditNewID is a base-36 thing id.
func redditNewID(q *req) string {
	return strconv.FormatUint(uint64(len(q.net.held))+36*36*36*36*36+uint64(q.net.sb.Now().UnixNano()%1000)*1000, 36)
}

var redditSlug = regexp.MustCompile(`[^a-z0-9]+`)

// redditThing is a submission as a t3 Listing child.
func redditThing(h *Held) map[string]any {
	author, title, self := h.User, h.Text, h.Data["selftext"]
	if h.DeletedAt != nil {
		author, self = "[deleted]", "[deleted]"
	}
	id := strings.TrimPrefix(h.ID, "t3_")
	return map[string]any{"kind": "t3", "data": map[string]any{"id": id, "name": h.ID, "title": title, "subreddit": h.Channel,
		"subreddit_name_prefixed": "r/" + h.Channel, "author": author, "selftext": self, "is_self": h.Data["kind"] == "self",
		"url": h.Data["url"], "permalink": strings.TrimPrefix(h.URL, "https://www.reddit.com"), "over_18": h.Data["nsfw"] == true,
		"link_flair_template_id": h.Data["flairId"], "created_utc": float64(h.At.Unix()), "score": 1, "num_comments": 0}}
}

// redditNewSubmission validates a submission to a subreddit and keeps it; false when it answered an
// error.
func redditNewSubmission(q *req, sr, title, kind, text, link, poster, flair string, nsfw bool, media []string) (*Held, bool) {
	c, found := redditSubreddit(q, sr)
	ok := false
	switch {
	case sr == "":
		redditJSONError(q, "SUBREDDIT_REQUIRED", "please enter a subreddit", "sr")
	case !found:
		redditJSONError(q, "SUBREDDIT_NOEXIST", "that subreddit doesn't exist", "sr")
	case strings.TrimSpace(title) == "":
		redditJSONError(q, "NO_TEXT", "we need something here", "title")
	case utf8.RuneCountInString(title) > 300:
		redditJSONError(q, "TOO_LONG", "this is too long (max: 300)", "title")
	case kind == "self" && utf8.RuneCountInString(text) > 40000:
		redditJSONError(q, "TOO_LONG", "this is too long (max: 40000)", "text")
	case kind == "link" && link == "":
		redditJSONError(q, "NO_URL", "a url is required", "url")
	case kind == "video" && c.ID == "golang":
		redditJSONError(q, "NO_VIDEOS", "This community doesn't allow videos", "sr") // (U) code
	case kind == "video" && poster == "":
		redditJSONError(q, "NO_VIDEO_POSTER", "a video_poster_url is required for video posts", "video_poster_url") // (U) code
	case c.ID == "selfhosted" && flair == "":
		redditJSONError(q, "SUBMIT_VALIDATION_FLAIR_REQUIRED", "Your post must contain post flair.", "flair")
	default:
		ok = true
	}
	if !ok {
		return nil, false
	}
	id := redditNewID(q)
	s := strings.Trim(redditSlug.ReplaceAllString(strings.ToLower(title), "_"), "_")
	if len(s) > 50 {
		s = s[:50]
	}
	return q.net.keep(Held{Kind: KindPost, ID: "t3_" + id, User: q.user.Login, Channel: c.ID, Text: title, Media: media,
		URL:  "https://www.reddit.com/r/" + c.ID + "/comments/" + id + "/" + s + "/",
		Data: map[string]any{"kind": kind, "selftext": text, "url": link, "nsfw": nsfw, "flairId": flair, "poster": poster, "processing": kind == "video"}}), true
}

// redditAsset finds the uploaded media a URL or asset id names (this user's, bytes received).
func redditAsset(q *req, ref string) *Held {
	for _, h := range q.net.held {
		if h.Kind == KindMedia && h.User == q.user.Login && (h.ID == ref || h.URL == ref) && h.Data["uploaded"] == true {
			return h
		}
	}
	return nil
}

func redditMediaAsset(q *req) {
	a := methodArgs(q.r)
	mt := a["mimetype"]
	switch mt {
	case "image/png", "image/jpeg", "image/gif", "video/mp4", "video/quicktime":
	default:
		redditJSONError(q, "INVALID_MIMETYPE", "mimetype "+mt+" is not allowed", "mimetype") // (U) code
		return
	}
	if a["filepath"] == "" {
		redditJSONError(q, "NO_TEXT", "we need something here", "filepath")
		return
	}
	id := randID("")[:12]
	key := "rte_images/" + id + "/" + url.PathEscape(a["filepath"])
	host := strings.TrimPrefix(strings.TrimPrefix(baseURL(q), "https:"), "http:")
	loc := baseURL(q) + "/media-upload/" + key
	q.net.keep(Held{Kind: KindMedia, ID: id, User: q.user.Login, Text: a["filepath"], URL: loc,
		Data: map[string]any{"mimetype": mt, "key": key, "uploaded": false}})
	fields := []map[string]string{{"name": "acl", "value": "private"}, {"name": "key", "value": key},
		{"name": "X-Amz-Credential", "value": "SANDBOX/20260101/us-east-1/s3/aws4_request"}, {"name": "X-Amz-Algorithm", "value": "AWS4-HMAC-SHA256"},
		{"name": "X-Amz-Date", "value": "20260101T000000Z"}, {"name": "success_action_status", "value": "201"},
		{"name": "content-type", "value": mt}, {"name": "policy", "value": "c2FuZGJveA=="}, {"name": "X-Amz-Signature", "value": "sandbox"}}
	q.json(http.StatusOK, map[string]any{"args": map[string]any{"action": host + "/media-upload", "fields": fields},
		"asset": map[string]any{"asset_id": id, "processing_state": "incomplete", "payload": map[string]any{"filepath": a["filepath"]},
			"websocket_url": "wss://ws-sandbox.redditmedia.invalid/rte_images/" + id}})
}

func redditMediaUpload(q *req) {
	fields, files, ok := readMultipart(q.r)
	xmlErr := func(code, msg string) {
		q.w.Header().Set("Content-Type", "application/xml")
		q.w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(q.w, "<Error><Code>%s</Code><Message>%s</Message></Error>", code, msg)
	}
	if !ok || len(files) != 1 || files[0].Field != "file" {
		xmlErr("InvalidArgument", "POST requires exactly one file upload per request.")
		return
	}
	var h *Held
	for _, x := range q.net.held {
		if x.Kind == KindMedia && x.Data["key"] == fields["key"] && fields["key"] != "" {
			h = x
		}
	}
	if h == nil || fields["X-Amz-Signature"] == "" || fields["policy"] == "" {
		q.w.Header().Set("Content-Type", "application/xml")
		q.w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(q.w, "<Error><Code>AccessDenied</Code><Message>Invalid according to Policy: Policy Condition failed</Message></Error>")
		return
	}
	limit := 20 << 20
	if strings.HasPrefix(h.Data["mimetype"].(string), "video/") {
		limit = 1 << 30
	}
	if len(files[0].Data) == 0 || len(files[0].Data) > limit {
		xmlErr("EntityTooLarge", "Your proposed upload exceeds the maximum allowed size")
		return
	}
	h.Data["uploaded"], h.Data["size"], h.Data["sniffed"] = true, len(files[0].Data), sniffMedia(files[0].Data)
	q.w.Header().Set("Content-Type", "application/xml")
	q.w.WriteHeader(http.StatusCreated)
	fmt.Fprintf(q.w, `<?xml version="1.0" encoding="UTF-8"?><PostResponse><Location>%s</Location><Bucket>reddit-uploaded-media</Bucket><Key>%s</Key><ETag>"%s"</ETag></PostResponse>`,
		strings.TrimSuffix(h.URL, h.Data["key"].(string))+strings.ReplaceAll(h.Data["key"].(string), "/", "%2F"), h.Data["key"], h.ID)
}

func redditSubmit(q *req) {
	a := methodArgs(q.r)
	if a["api_type"] != "json" {
		q.json(http.StatusOK, map[string]any{"jquery": []any{}, "success": false})
		return
	}
	kind := a["kind"]
	var media []string
	switch kind {
	case "self", "link":
	case "image", "video", "videogif":
		m := redditAsset(q, a["url"])
		if m == nil {
			redditJSONError(q, "BAD_URL", "you should check that url", "url")
			return
		}
		media = append(media, m.URL)
		if kind == "video" && a["video_poster_url"] != "" && redditAsset(q, a["video_poster_url"]) == nil {
			redditJSONError(q, "BAD_URL", "you should check that url", "video_poster_url")
			return
		}
	default:
		redditJSONError(q, "INVALID_OPTION", "that option is not valid", "kind")
		return
	}
	h, ok := redditNewSubmission(q, a["sr"], a["title"], kind, a["text"], a["url"], a["video_poster_url"], a["flair_id"], a["nsfw"] == "true", media)
	if !ok {
		return
	}
	if kind == "self" || kind == "link" {
		id := strings.TrimPrefix(h.ID, "t3_")
		q.json(http.StatusOK, map[string]any{"json": map[string]any{"errors": []any{}, "data": map[string]any{"url": h.URL, "drafts_count": 0, "id": id, "name": h.ID}}})
		return
	}
	q.json(http.StatusOK, map[string]any{"json": map[string]any{"errors": []any{}, "data": map[string]any{
		"user_submitted_page": "https://www.reddit.com/user/" + q.user.Login + "/submitted/", "websocket_url": "wss://ws-sandbox.redditmedia.invalid/" + h.ID}}})
}

func redditSubmitGallery(q *req) {
	var in struct {
		SR      string `json:"sr"`
		Title   string `json:"title"`
		Text    string `json:"text"`
		NSFW    bool   `json:"nsfw"`
		FlairID string `json:"flair_id"`
		Items   []struct {
			MediaID string `json:"media_id"`
			Caption string `json:"caption"`
		} `json:"items"`
	}
	if !decodeJSON(q.r, &in) {
		q.json(http.StatusBadRequest, map[string]any{"message": "Bad Request", "error": 400})
		return
	}
	if len(in.Items) < 2 || len(in.Items) > 20 {
		redditJSONError(q, "INVALID_OPTION", "a gallery has 2 to 20 items", "items") // (U) code
		return
	}
	var media []string
	for _, it := range in.Items {
		m := redditAsset(q, it.MediaID)
		if m == nil || !strings.HasPrefix(m.Data["mimetype"].(string), "image/") {
			redditJSONError(q, "MEDIA_UPLOAD_FAILED", "media "+it.MediaID+" was not uploaded", "items") // (U) code
			return
		}
		media = append(media, m.URL)
	}
	h, ok := redditNewSubmission(q, in.SR, in.Title, "gallery", in.Text, "", "", in.FlairID, in.NSFW, media)
	if !ok {
		return
	}
	q.json(http.StatusOK, map[string]any{"json": map[string]any{"errors": []any{}, "data": map[string]any{"url": h.URL, "id": h.ID}}})
}

func redditInfo(q *req) {
	children := []map[string]any{}
	for _, id := range strings.Split(q.r.URL.Query().Get("id"), ",") {
		if h := q.net.find(KindPost, id); h != nil {
			children = append(children, redditThing(h))
		}
	}
	q.json(http.StatusOK, map[string]any{"kind": "Listing", "data": map[string]any{"after": nil, "before": nil, "dist": len(children), "children": children}})
}

func redditUserSubmitted(q *req) {
	name := strings.Split(q.path, "/")[2]
	limit, err := strconv.Atoi(q.r.URL.Query().Get("limit"))
	if err != nil || limit <= 0 {
		limit = 25
	}
	children := []map[string]any{}
	posts := q.net.heldBy(KindPost, name)
	for i := len(posts) - 1; i >= 0 && len(children) < limit; i-- {
		if posts[i].Data["processing"] == true {
			posts[i].Data["processing"] = false // the video is processed by the next read
			continue
		}
		children = append(children, redditThing(posts[i]))
	}
	q.json(http.StatusOK, map[string]any{"kind": "Listing", "data": map[string]any{"after": nil, "before": nil, "dist": len(children), "children": children}})
}

func redditDelete(q *req) {
	id := methodArgs(q.r)["id"]
	h := q.net.live(id, KindPost, KindComment)
	if h != nil && h.User == q.user.Login {
		q.net.remove(h)
	}
	q.json(http.StatusOK, map[string]any{}) // Reddit answers {} whether or not there was something to delete
}

func redditComment(q *req) {
	a := methodArgs(q.r)
	parent := q.net.live(a["thing_id"], KindPost, KindComment)
	switch {
	case parent == nil:
		redditJSONError(q, "INVALID_THING_ID", "that thing doesn't exist", "parent") // (U) code
		return
	case strings.TrimSpace(a["text"]) == "":
		redditJSONError(q, "NO_TEXT", "we need something here", "text")
		return
	case utf8.RuneCountInString(a["text"]) > 10000:
		redditJSONError(q, "TOO_LONG", "this is too long (max: 10000)", "text")
		return
	}
	id := redditNewID(q)
	post := parent
	if parent.Kind == KindComment {
		post = q.net.find(KindPost, parent.Data["link"].(string))
	}
	base := strings.TrimSuffix(post.URL, "/")
	h := q.net.keep(Held{Kind: KindComment, ID: "t1_" + id, User: q.user.Login, Channel: post.Channel, Text: a["text"], Parent: parent.ID,
		URL: base + "/" + id + "/", Data: map[string]any{"link": post.ID}})
	q.json(http.StatusOK, map[string]any{"json": map[string]any{"errors": []any{}, "data": map[string]any{"things": []map[string]any{{"kind": "t1",
		"data": map[string]any{"id": id, "name": h.ID, "body": h.Text, "parent_id": parent.ID, "link_id": post.ID, "subreddit": post.Channel,
			"author": q.user.Login, "permalink": strings.TrimPrefix(h.URL, "https://www.reddit.com"), "created_utc": float64(h.At.Unix())}}}}}})
}
