package sandbox

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Threads publishing: POST /v1.0/{user-id}/threads creates a container (TEXT, IMAGE, VIDEO,
// CAROUSEL; text, image_url/video_url recorded, never fetched, alt_text, reply_control, topic_tag,
// link_attachment, poll_attachment, gif_attachment, is_carousel_item, children, reply_to_id), GET
// /v1.0/{id} reads a container (status IN_PROGRESS → FINISHED on the next read for videos,
// PUBLISHED once used) or a post (id, text, permalink, timestamp, shortcode), POST
// /v1.0/{user-id}/threads_publish?creation_id= publishes a FINISHED container once, GET
// /v1.0/{user-id}/threads lists the profile's posts (newest first, since), GET
// /v1.0/{id}/replies, DELETE /v1.0/{id}. Graph errors with codes and subcodes.
func threadsPublish(d *dialect) {
	d.routes["POST /v1.0/{id}/threads"] = threadsCreateContainer
	d.routes["POST /v1.0/{id}/threads_publish"] = threadsPublishContainer
	d.routes["GET /v1.0/{id}"] = threadsGetObject
	d.routes["GET /v1.0/{id}/threads"] = threadsUserThreads
	d.routes["GET /v1.0/{id}/replies"] = threadsReplies
	d.routes["DELETE /v1.0/{id}"] = threadsDeletePost
}

// threadsError answers Graph's error shape with a code and subcode.
func threadsError(q *req, status, code, sub int, msg string) {
	e := map[string]any{"message": msg, "type": "OAuthException", "code": code, "fbtrace_id": randID("A")[:12]}
	if sub != 0 {
		e["error_subcode"] = sub
	}
	q.json(status, map[string]any{"error": e})
}

// threadsParam answers Graph's invalid parameter (#100).
func threadsParam(q *req, msg string) { threadsError(q, http.StatusBadRequest, 100, 0, msg) }

// threadsMissing answers Graph's unknown-object error for id.
func threadsMissing(q *req, id string) {
	threadsError(q, http.StatusBadRequest, 100, 33, "Unsupported get request. Object with ID '"+id+"' does not exist, cannot be loaded due to missing permissions, or does not support this operation")
}

// threadsPathID answers the i-th segment of the request path.
func threadsPathID(q *req, i int) string { return strings.Split(q.path, "/")[i] }

// threadsNewID is a Threads media id.
func threadsNewID(q *req) string {
	return strconv.FormatInt(17800000000000000+q.net.sb.Now().UnixMicro()%1000000000*10+int64(len(q.net.held)), 10)
}

// threadsOwner says whether the path's user is the caller ("me" or its id), answering an error
// otherwise.
func threadsOwner(q *req) bool {
	if threadsPathID(q, 2) != q.user.ID && threadsPathID(q, 2) != "me" {
		threadsMissing(q, threadsPathID(q, 2))
		return false
	}
	return true
}

// threadsContainer finds a media container of the caller.
func threadsContainer(q *req, id string) *Held {
	h := q.net.find(KindMedia, id)
	if h == nil || h.User != q.user.Login || h.Data["container"] != true {
		return nil
	}
	return h
}

// threadsPostJSON is a post as the Threads API answers it.
func threadsPostJSON(h *Held) map[string]any {
	return map[string]any{"id": h.ID, "text": h.Text, "permalink": h.URL, "timestamp": h.At.Format("2006-01-02T15:04:05+0000"),
		"media_type": h.Data["mediaType"], "shortcode": h.Data["shortcode"], "is_reply": h.Parent != "", "username": h.User}
}

func threadsCreateContainer(q *req) {
	if !threadsOwner(q) {
		return
	}
	a := methodArgs(q.r)
	mt := a["media_type"]
	text := a["text"]
	validURL := func(s string) bool {
		u, err := url.Parse(s)
		return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != ""
	}
	switch {
	case mt != "TEXT" && mt != "IMAGE" && mt != "VIDEO" && mt != "CAROUSEL":
		threadsParam(q, "Param media_type must be one of {TEXT, IMAGE, VIDEO, CAROUSEL}")
		return
	case utf8.RuneCountInString(text) > 500:
		threadsError(q, http.StatusBadRequest, 100, 4279009, "The text is too long. The maximum length is 500 characters.") // (U) subcode
		return
	case mt == "TEXT" && strings.TrimSpace(text) == "" && a["poll_attachment"] == "" && a["gif_attachment"] == "":
		threadsParam(q, "Param text is required for TEXT posts")
		return
	case mt == "IMAGE" && !validURL(a["image_url"]):
		threadsParam(q, "Param image_url must be a valid URL")
		return
	case mt == "VIDEO" && !validURL(a["video_url"]):
		threadsParam(q, "Param video_url must be a valid URL")
		return
	case a["link_attachment"] != "" && (mt != "TEXT" || !validURL(a["link_attachment"])):
		threadsParam(q, "Param link_attachment is only for TEXT posts and must be a valid URL")
		return
	case a["poll_attachment"] != "" && mt != "TEXT":
		threadsParam(q, "Param poll_attachment is only for TEXT posts")
		return
	case a["is_carousel_item"] == "true" && mt != "IMAGE" && mt != "VIDEO":
		threadsParam(q, "Carousel items must be IMAGE or VIDEO")
		return
	}
	if rc := a["reply_control"]; rc != "" {
		switch rc {
		case "everyone", "accounts_you_follow", "mentioned_only", "parent_post_author_only", "followers_only":
		default:
			threadsParam(q, "Param reply_control must be one of {everyone, accounts_you_follow, mentioned_only, parent_post_author_only, followers_only}")
			return
		}
	}
	if tag := a["topic_tag"]; tag != "" && (utf8.RuneCountInString(tag) > 50 || strings.ContainsAny(tag, ".&")) {
		threadsParam(q, "Param topic_tag must be 1 to 50 characters without periods or ampersands")
		return
	}
	if pa := a["poll_attachment"]; pa != "" {
		var poll map[string]string
		if json.Unmarshal([]byte(pa), &poll) != nil || poll["option_a"] == "" || poll["option_b"] == "" {
			threadsParam(q, "Param poll_attachment needs option_a and option_b")
			return
		}
		for _, o := range poll {
			if utf8.RuneCountInString(o) > 25 {
				threadsParam(q, "Poll options are at most 25 characters")
				return
			}
		}
	}
	var children []string
	if mt == "CAROUSEL" {
		children = strings.Split(a["children"], ",")
		if a["children"] == "" || len(children) < 2 || len(children) > 20 {
			threadsParam(q, "Param children must list 2 to 20 carousel item containers")
			return
		}
		for _, c := range children {
			h := threadsContainer(q, c)
			if h == nil || h.Data["carouselItem"] != true {
				threadsParam(q, "Param children: "+c+" is not a carousel item container of this user")
				return
			}
			if h.Data["status"] != "FINISHED" {
				threadsError(q, http.StatusBadRequest, 9007, 2207027, "Media ID is not available") // (U) codes, from Instagram's
				return
			}
		}
	}
	if r := a["reply_to_id"]; r != "" && q.net.live(r, KindPost, KindComment) == nil {
		threadsMissing(q, r)
		return
	}
	status := "FINISHED"
	if mt == "VIDEO" {
		status = "IN_PROGRESS"
	}
	media := []string{}
	for _, k := range []string{"image_url", "video_url"} {
		if a[k] != "" {
			media = append(media, a[k])
		}
	}
	for _, c := range children {
		media = append(media, threadsContainer(q, c).Media...)
	}
	id := threadsNewID(q)
	q.net.keep(Held{Kind: KindMedia, ID: id, User: q.user.Login, Text: text, Media: media, Data: map[string]any{"container": true,
		"mediaType": mt, "status": status, "carouselItem": a["is_carousel_item"] == "true", "replyTo": a["reply_to_id"],
		"replyControl": a["reply_control"], "topicTag": a["topic_tag"], "link": a["link_attachment"], "poll": a["poll_attachment"],
		"gif": a["gif_attachment"], "altText": a["alt_text"], "children": children}})
	q.json(http.StatusOK, map[string]any{"id": id})
}

func threadsPublishContainer(q *req) {
	if !threadsOwner(q) {
		return
	}
	a := methodArgs(q.r)
	h := threadsContainer(q, a["creation_id"])
	switch {
	case a["creation_id"] == "":
		threadsParam(q, "The parameter creation_id is required")
		return
	case h == nil || h.Data["carouselItem"] == true:
		threadsMissing(q, a["creation_id"])
		return
	case h.Data["status"] != "FINISHED":
		threadsError(q, http.StatusBadRequest, 9007, 2207027, "Media ID is not available") // (U) codes, from Instagram's
		return
	}
	h.Data["status"] = "PUBLISHED"
	id := threadsNewID(q)
	short := strings.ToUpper(randID("")[:11])
	kind, parent := KindPost, ""
	if r, _ := h.Data["replyTo"].(string); r != "" {
		kind, parent = KindComment, r
	}
	q.net.keep(Held{Kind: kind, ID: id, User: q.user.Login, Text: h.Text, Media: h.Media, Parent: parent,
		URL: "https://www.threads.com/@" + q.user.Login + "/post/" + short,
		Data: map[string]any{"container": h.ID, "mediaType": h.Data["mediaType"], "shortcode": short, "replyControl": h.Data["replyControl"],
			"topicTag": h.Data["topicTag"], "link": h.Data["link"], "poll": h.Data["poll"]}})
	q.json(http.StatusOK, map[string]any{"id": id})
}

func threadsGetObject(q *req) {
	id := threadsPathID(q, 2)
	if h := threadsContainer(q, id); h != nil {
		out := map[string]any{"id": h.ID, "status": h.Data["status"]}
		if h.Data["status"] == "IN_PROGRESS" {
			h.Data["status"] = "FINISHED" // processed by the next read
		}
		q.json(http.StatusOK, out)
		return
	}
	h := q.net.live(id, KindPost, KindComment)
	if h == nil {
		threadsMissing(q, id)
		return
	}
	q.json(http.StatusOK, threadsPostJSON(h))
}

// threadsList answers the live posts and replies matching match, newest first (limit, since, after).
func threadsList(q *req, match func(h *Held) bool) {
	v := q.r.URL.Query()
	limit, err := strconv.Atoi(v.Get("limit"))
	if err != nil || limit <= 0 {
		limit = 25
	}
	var since time.Time
	if s, err := strconv.ParseInt(v.Get("since"), 10, 64); err == nil {
		since = time.Unix(s, 0)
	}
	// Newest first; the after cursor is how many matching items earlier pages held.
	skip := 0
	if after := v.Get("after"); after != "" {
		if skip, err = strconv.Atoi(strings.TrimPrefix(after, "cursor-")); err != nil || skip < 0 {
			q.fail(apiError{Status: http.StatusBadRequest, Code: "100", Message: "Invalid parameter: after"})
			return
		}
	}
	var matching []*Held
	for i := len(q.net.held) - 1; i >= 0; i-- {
		h := q.net.held[i]
		if (h.Kind == KindPost || h.Kind == KindComment) && h.DeletedAt == nil && match(h) && !h.At.Before(since) {
			matching = append(matching, h)
		}
	}
	data := []map[string]any{}
	for i := skip; i < len(matching) && len(data) < limit; i++ {
		data = append(data, threadsPostJSON(matching[i]))
	}
	paging := map[string]any{"cursors": map[string]string{"before": "cursor-" + strconv.Itoa(skip), "after": "cursor-" + strconv.Itoa(skip+len(data))}}
	if skip+len(data) < len(matching) {
		paging["next"] = "http://" + q.r.Host + q.r.URL.Path + "?after=cursor-" + strconv.Itoa(skip+len(data))
	}
	q.json(http.StatusOK, map[string]any{"data": data, "paging": paging})
}

func threadsUserThreads(q *req) {
	if !threadsOwner(q) {
		return
	}
	threadsList(q, func(h *Held) bool { return h.Kind == KindPost && h.User == q.user.Login })
}

func threadsReplies(q *req) {
	id := threadsPathID(q, 2)
	if q.net.live(id, KindPost, KindComment) == nil {
		threadsMissing(q, id)
		return
	}
	threadsList(q, func(h *Held) bool { return h.Parent == id })
}

func threadsDeletePost(q *req) {
	id := threadsPathID(q, 2)
	h := q.net.live(id, KindPost, KindComment)
	if h == nil || h.User != q.user.Login {
		threadsMissing(q, id)
		return
	}
	q.net.remove(h)
	q.json(http.StatusOK, map[string]any{"success": true, "deleted_id": id})
}
