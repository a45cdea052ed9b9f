package sandbox

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"
)

// Instagram content publishing (Facebook Login, Graph API): POST /{ig}/media makes a container
// (image_url / video_url recorded and never fetched; REELS, STORIES, VIDEO and image carousel
// children with is_carousel_item, CAROUSEL parents with 2–10 children), GET /{container}
// ?fields=status_code,status answers IN_PROGRESS then FINISHED (on the second read), POST
// /{ig}/media_publish publishes a FINISHED container once (the container becomes PUBLISHED),
// GET /{media} (permalink, shortcode, caption, timestamp), GET /{ig}/media and /{ig}/stories for
// Find, GET /{ig}/content_publishing_limit, DELETE /{media}, POST /{media}/comments and
// /{comment}/replies. Validation follows Meta's (caption ≤ 2,200 and ≤ 30 hashtags, user_tags
// coordinates 0..1, children 2–10 …) with its codes and messages. Facebook's page publishing routes
// are removed from this twin.
func instagramPublish(d *dialect) {
	for k := range facebookPublishRoutes() {
		delete(d.routes, k)
	}
	userHook := d.newUser
	d.newUser = func(n *Net, u *User) {
		userHook(n, u)
		for _, c := range u.Channels {
			if _, ok := n.access[c.Token]; !ok {
				n.access[c.Token] = &issued{user: u, scope: "instagram_content_publish", expires: n.sb.Now().AddDate(100, 0, 0), token: c.Token}
			}
		}
	}
	d.routes["POST "+facebookV+"/{ig}/media"] = instagramCreate
	d.routes["POST "+facebookV+"/{ig}/media_publish"] = instagramPublishContainer
	d.routes["GET "+facebookV+"/{ig}/media"] = func(q *req) { instagramList(q, false) }
	d.routes["GET "+facebookV+"/{ig}/stories"] = func(q *req) { instagramList(q, true) }
	d.routes["GET "+facebookV+"/{ig}/content_publishing_limit"] = instagramPublishingLimit
	d.routes["GET "+facebookV+"/{id}"] = instagramGet
	d.routes["DELETE "+facebookV+"/{id}"] = instagramDelete
	d.routes["POST "+facebookV+"/{id}/comments"] = func(q *req) { instagramComment(q, KindPost) }
	d.routes["POST "+facebookV+"/{id}/replies"] = func(q *req) { instagramComment(q, KindComment) }
}

func instagramPublishingLimit(q *req) {
	if c := instagramAccount(q); c != nil {
		q.json(http.StatusOK, map[string]any{"data": []map[string]any{{"quota_usage": instagramUsed(q, c.IGID),
			"config": map[string]any{"quota_total": instagramDailyCap, "quota_duration": 86400}}}})
	}
}

func instagramDelete(q *req) {
	h := q.net.live(pathSegment(q, 2), KindPost, KindComment)
	if h == nil || h.User != q.user.Login {
		facebookMissing(q, pathSegment(q, 2))
		return
	}
	q.net.remove(h)
	q.json(http.StatusOK, map[string]any{"success": true})
}

const instagramContainer = "ig-container"

// instagramDailyCap is the publishing limit per rolling 24 hours (carousels count once).
const instagramDailyCap = 100

func instagramUsed(q *req, ig string) int {
	used := 0
	for _, h := range q.net.held { // deleted posts count too
		if h.Kind == KindPost && h.Channel == ig && q.net.sb.Now().Sub(h.At) < 24*time.Hour {
			used++
		}
	}
	return used
}

// instagramAccount answers the Instagram account of the path when the token may publish for it.
func instagramAccount(q *req) *Channel {
	id := pathSegment(q, 2)
	for i, c := range q.user.Channels {
		if instagramLoginToken(q.tok) && instagramLoginAccount(q.user) != &q.user.Channels[i] {
			continue // an Instagram Login token acts for its own account only
		}
		if c.IGID == id && c.IGID != "" {
			return &q.user.Channels[i]
		}
	}
	facebookMissing(q, id)
	return nil
}

// instagramError answers an Instagram publishing error: Graph's shape with the error_subcode and
// error_user_msg Meta adds to them.
func instagramError(q *req, code, sub int, msg, user string) {
	body := map[string]any{"message": msg, "type": "OAuthException", "code": code, "error_subcode": sub, "is_transient": false,
		"fbtrace_id": randID("A")[:12]}
	if user != "" {
		body["error_user_title"], body["error_user_msg"] = msg, user
	}
	q.json(http.StatusBadRequest, map[string]any{"error": body})
}

func instagramCreate(q *req) {
	acc := instagramAccount(q)
	if acc == nil {
		return
	}
	f := formValues(q.r)
	mt, img, vid, caption := f.Get("media_type"), f.Get("image_url"), f.Get("video_url"), f.Get("caption")
	carouselItem := f.Get("is_carousel_item") == "true"
	bad := func(msg string) { facebookInvalid(q, msg) }
	if utf8.RuneCountInString(caption) > 2200 {
		instagramError(q, 100, 2207010, "The caption is too long. Please shorten it and try again.", "")
		return
	}
	if strings.Count(caption, "#") > 30 {
		bad("(#100) The caption contains more than 30 hashtags.")
		return
	}
	data := map[string]any{"type": instagramContainer, "status": "IN_PROGRESS", "polls": 0, "ig": acc.IGID, "caption": caption}
	var media []string
	switch mt {
	case "", "IMAGE":
		if !isFetchableURL(img) || vid != "" {
			bad("(#100) The parameter image_url is required.")
			return
		}
		data["media_type"], data["product"] = "IMAGE", "FEED"
		media = []string{img}
	case "VIDEO", "REELS", "STORIES":
		if mt == "VIDEO" && !carouselItem {
			bad("(#100) The VIDEO media type is only for carousel items; use REELS to publish a video.")
			return
		}
		u := vid
		if mt == "STORIES" && img != "" {
			u = img
		}
		if !isFetchableURL(u) {
			bad("(#100) The parameter video_url is required.")
			return
		}
		data["media_type"], data["product"] = "VIDEO", map[string]string{"VIDEO": "FEED", "REELS": "REELS", "STORIES": "STORY"}[mt]
		if mt == "STORIES" && img != "" {
			data["media_type"] = "IMAGE"
		}
		media = []string{u}
	case "CAROUSEL":
		ids := strings.Split(f.Get("children"), ",")
		if f.Get("children") == "" || len(ids) < 2 || len(ids) > 10 {
			bad("(#100) The carousel needs between 2 and 10 children.")
			return
		}
		for _, id := range ids {
			c := q.net.live(id, KindMedia)
			if c == nil || c.Data["ig"] != acc.IGID || c.Data["carousel_item"] != true {
				bad(fmt.Sprintf("(#100) Param children[%s] is not a valid carousel item container.", id))
				return
			}
			if c.Data["status"] != "FINISHED" {
				instagramError(q, 9007, 2207027, "Media ID is not available", "The media is not ready for publishing, please wait for a moment")
				return
			}
			media = append(media, c.Media...)
		}
		data["media_type"], data["product"], data["children"] = "CAROUSEL_ALBUM", "FEED", ids
	default:
		bad(fmt.Sprintf("(#100) Param media_type must be one of {CAROUSEL, REELS, STORIES, VIDEO} (got %s)", mt))
		return
	}
	if carouselItem {
		data["carousel_item"] = true
	}
	if raw := f.Get("user_tags"); raw != "" {
		var tags []struct {
			Username string   `json:"username"`
			X        *float64 `json:"x"`
			Y        *float64 `json:"y"`
		}
		if json.Unmarshal([]byte(raw), &tags) != nil {
			bad("(#100) Param user_tags must be a JSON array")
			return
		}
		for _, t := range tags {
			if t.Username == "" || (data["media_type"] == "IMAGE" && (t.X == nil || t.Y == nil || *t.X < 0 || *t.X > 1 || *t.Y < 0 || *t.Y > 1)) {
				bad("(#100) Param user_tags contains an invalid entry (username, and x and y between 0 and 1 for images)")
				return
			}
		}
		data["user_tags"] = raw
	}
	if raw := f.Get("collaborators"); raw != "" {
		var cs []string
		if json.Unmarshal([]byte(raw), &cs) != nil || len(cs) > 3 {
			bad("(#100) Param collaborators must be a JSON array of at most 3 usernames")
			return
		}
		data["collaborators"] = cs
	}
	if raw := f.Get("trial_params"); raw != "" {
		var tp struct {
			GraduationStrategy string `json:"graduation_strategy"`
		}
		if json.Unmarshal([]byte(raw), &tp) != nil || (tp.GraduationStrategy != "MANUAL" && tp.GraduationStrategy != "SS_PERFORMANCE") || mt != "REELS" {
			bad("(#100) Param trial_params is only for REELS, with graduation_strategy MANUAL or SS_PERFORMANCE")
			return
		}
		data["trial_params"] = raw
	}
	for _, k := range []string{"location_id", "share_to_feed", "cover_url", "thumb_offset", "alt_text"} {
		if v := f.Get(k); v != "" {
			data[k] = v
		}
	}
	id := "17" + randomDigits(15)
	q.net.keep(Held{Kind: KindMedia, ID: id, User: q.user.Login, Channel: acc.IGID, Text: caption, Media: media, Data: data})
	q.json(http.StatusOK, map[string]any{"id": id})
}

func instagramPublishContainer(q *req) {
	acc := instagramAccount(q)
	if acc == nil {
		return
	}
	c := q.net.live(formValues(q.r).Get("creation_id"), KindMedia)
	if c == nil || c.Data["type"] != instagramContainer || c.Data["ig"] != acc.IGID || c.Data["carousel_item"] == true {
		facebookInvalid(q, "(#100) Param creation_id is not a valid media container")
		return
	}
	switch c.Data["status"] {
	case "IN_PROGRESS":
		instagramError(q, 9007, 2207027, "Media ID is not available", "The media is not ready for publishing, please wait for a moment")
		return
	case "PUBLISHED":
		instagramError(q, 9007, 2207006, "The media has already been published", "")
		return
	}
	if instagramUsed(q, acc.IGID) >= instagramDailyCap {
		instagramError(q, 9, 2207042, "You have reached the maximum number of posts that can be published in 24 hours.", "")
		return
	}
	c.Data["status"] = "PUBLISHED"
	id := "18" + randomDigits(15)
	short := strings.ToUpper(randID("")[:4]) + randID("")[:7]
	path := "/p/"
	if c.Data["product"] == "REELS" {
		path = "/reel/"
	}
	permalink := "https://www.instagram.com" + path + short + "/"
	if c.Data["product"] == "STORY" {
		permalink = "https://www.instagram.com/stories/" + acc.IGUsername + "/" + id + "/"
	}
	data := map[string]any{"container": c.ID, "shortcode": short, "media_type": c.Data["media_type"], "product": c.Data["product"]}
	for _, k := range []string{"collaborators", "user_tags", "location_id", "share_to_feed", "trial_params", "cover_url", "thumb_offset", "alt_text", "children"} {
		if v, ok := c.Data[k]; ok {
			data[k] = v
		}
	}
	q.net.keep(Held{Kind: KindPost, ID: id, User: q.user.Login, Channel: acc.IGID, Text: c.Text, Media: c.Media, URL: permalink, Data: data})
	q.json(http.StatusOK, map[string]any{"id": id})
}

func instagramView(h *Held) map[string]any {
	out := map[string]any{"id": h.ID, "timestamp": h.At.Format("2006-01-02T15:04:05-0700"), "permalink": h.URL,
		"media_type": h.Data["media_type"], "media_product_type": h.Data["product"], "shortcode": h.Data["shortcode"]}
	if h.Text != "" {
		out["caption"] = h.Text
	}
	return out
}

func instagramGet(q *req) {
	id := pathSegment(q, 2)
	h := q.net.live(id, KindPost, KindMedia, KindComment)
	if h == nil || h.User != q.user.Login {
		facebookMissing(q, id)
		return
	}
	var out map[string]any
	switch h.Kind {
	case KindMedia:
		if h.Data["status"] == "IN_PROGRESS" && countPoll(h) >= 1 {
			h.Data["status"] = "FINISHED"
		}
		status := map[string]string{"IN_PROGRESS": "In Progress: Media is still being processed.", "FINISHED": "Finished: Media has been uploaded and it is ready to be published.",
			"PUBLISHED": "Published: Media has been successfully published."}[h.Data["status"].(string)]
		out = map[string]any{"id": h.ID, "status_code": h.Data["status"], "status": status}
	case KindComment:
		out = map[string]any{"id": h.ID, "text": h.Text, "timestamp": h.At.Format("2006-01-02T15:04:05-0700"), "username": h.User}
	default:
		out = instagramView(h)
	}
	if fields := q.r.URL.Query().Get("fields"); fields != "" {
		keep := map[string]any{"id": h.ID}
		for _, f := range strings.Split(fields, ",") {
			if v, ok := out[f]; ok {
				keep[f] = v
			}
		}
		out = keep
	}
	q.json(http.StatusOK, out)
}

func instagramList(q *req, stories bool) {
	acc := instagramAccount(q)
	if acc == nil {
		return
	}
	data := []map[string]any{}
	held := q.net.heldBy(KindPost, q.user.Login)
	for i := len(held) - 1; i >= 0; i-- {
		h := held[i]
		if h.Channel == acc.IGID && (h.Data["product"] == "STORY") == stories {
			data = append(data, instagramView(h))
		}
	}
	q.json(http.StatusOK, map[string]any{"data": data, "paging": map[string]any{"cursors": map[string]string{"before": "QVFIUk", "after": "QVFIUl"}}})
}

func instagramComment(q *req, parentKind string) {
	id := pathSegment(q, 2)
	p := q.net.live(id, parentKind)
	if p == nil || p.User != q.user.Login {
		facebookMissing(q, id)
		return
	}
	msg := formValues(q.r).Get("message")
	if msg == "" {
		facebookInvalid(q, "(#100) The parameter message is required")
		return
	}
	cid := "17" + randomDigits(15)
	q.net.keep(Held{Kind: KindComment, ID: cid, User: q.user.Login, Channel: p.Channel, Text: msg, Parent: p.ID})
	q.json(http.StatusOK, map[string]any{"id": cid})
}
