package sandbox

import (
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"
)

// Google Business Profile local posts (My Business API v4): create, get, list and delete under
// /v4/accounts/{a}/locations/{l}/localPosts, validating as the real API does (summary ≤ 1,500,
// topic types, a CALL action without url and the others with one, EVENT/OFFER with a titled
// schedule, photos by sourceUrl only). Photos are recorded by URL, never fetched. Posts are LIVE at
// once; searchUrl is Google's local.google.com link.
func googleBusinessPublish(d *dialect) {
	base := "/v4/accounts/{a}/locations/{l}/localPosts"
	d.routes["POST "+base] = googleBusinessCreate
	d.routes["GET "+base] = googleBusinessList
	d.routes["GET "+base+"/{id}"] = googleBusinessGet
	d.routes["DELETE "+base+"/{id}"] = googleBusinessDelete
}

// googleBusinessLocation answers the location of the path when the caller manages it.
func googleBusinessLocation(q *req) (string, bool) {
	if pathSegment(q, 3) != q.user.ID {
		googleError(q, apiError{Status: http.StatusForbidden, Message: "The caller does not have permission"})
		return "", false
	}
	for _, c := range q.user.Channels {
		if c.ID == pathSegment(q, 5) {
			return "accounts/" + q.user.ID + "/locations/" + c.ID, true
		}
	}
	googleError(q, apiError{Status: http.StatusNotFound, Message: "Requested entity was not found."})
	return "", false
}

func googleBusinessView(h *Held) map[string]any {
	out := map[string]any{}
	for k, v := range h.Data {
		if k != "polls" {
			out[k] = v
		}
	}
	out["name"], out["state"], out["searchUrl"] = h.ID, "LIVE", h.URL
	out["createTime"] = h.At.Format(time.RFC3339Nano)
	out["updateTime"] = h.At.Format(time.RFC3339Nano)
	return out
}

func googleBusinessCreate(q *req) {
	loc, ok := googleBusinessLocation(q)
	if !ok {
		return
	}
	var p map[string]any
	if !decodeJSON(q.r, &p) {
		googleError(q, apiError{Status: http.StatusBadRequest, Message: "Invalid JSON payload received."})
		return
	}
	bad := func(msg string) {
		googleError(q, apiError{Status: http.StatusBadRequest, Code: "badRequest", Message: msg})
	}
	str := func(m map[string]any, k string) string { s, _ := m[k].(string); return s }
	summary, topic := str(p, "summary"), str(p, "topicType")
	if utf8.RuneCountInString(summary) > 1500 {
		bad("Request contains an invalid argument. summary is longer than 1500 characters.")
		return
	}
	switch topic {
	case "STANDARD", "EVENT", "OFFER", "ALERT":
	case "":
		bad("Request contains an invalid argument. topicType is required.")
		return
	default:
		bad(fmt.Sprintf("Invalid value at 'local_post.topic_type' (type.googleapis.com/google.mybusiness.v4.LocalPostTopicType), %q", topic))
		return
	}
	if cta, ok := p["callToAction"].(map[string]any); ok {
		switch t := str(cta, "actionType"); t {
		case "CALL":
			if str(cta, "url") != "" {
				bad("Request contains an invalid argument. callToAction.url must be empty for CALL.")
				return
			}
		case "BOOK", "ORDER", "SHOP", "LEARN_MORE", "SIGN_UP":
			if !isFetchableURL(str(cta, "url")) {
				bad("Request contains an invalid argument. callToAction.url is invalid.")
				return
			}
		default:
			bad(fmt.Sprintf("Invalid value at 'local_post.call_to_action.action_type', %q", t))
			return
		}
	}
	if topic == "EVENT" || topic == "OFFER" {
		ev, _ := p["event"].(map[string]any)
		if ev == nil || str(ev, "title") == "" || ev["schedule"] == nil {
			bad("Request contains an invalid argument. event.title and event.schedule are required for " + topic + " posts.")
			return
		}
	}
	if topic == "ALERT" && str(p, "alertType") != "COVID_19" {
		bad("Request contains an invalid argument. alertType is required for ALERT posts.")
		return
	}
	if topic == "STANDARD" && summary == "" && p["media"] == nil {
		bad("Request contains an invalid argument. A post needs a summary or media.")
		return
	}
	var urls []string
	media, _ := p["media"].([]any)
	if len(media) > 1 {
		bad("Request contains an invalid argument. At most one photo per post.")
		return
	}
	for _, m := range media {
		mm, _ := m.(map[string]any)
		if str(mm, "mediaFormat") != "PHOTO" || !isFetchableURL(str(mm, "sourceUrl")) {
			bad("Request contains an invalid argument. media[].sourceUrl must be a public photo URL (mediaFormat PHOTO).")
			return
		}
		urls = append(urls, str(mm, "sourceUrl"))
	}
	id := numericID(loc + "/post/" + randID(""))
	h := q.net.keep(Held{Kind: KindPost, ID: loc + "/localPosts/" + id, User: q.user.Login, Channel: loc, Text: summary, Media: urls,
		URL: "https://local.google.com/place?id=" + numericID(loc) + "&use=posts&lpsid=" + id, Data: p})
	q.json(http.StatusOK, googleBusinessView(h))
}

func googleBusinessList(q *req) {
	loc, ok := googleBusinessLocation(q)
	if !ok {
		return
	}
	posts := []map[string]any{}
	held := q.net.heldBy(KindPost, q.user.Login)
	for i := len(held) - 1; i >= 0; i-- { // newest first, as Google lists them
		if held[i].Channel == loc {
			posts = append(posts, googleBusinessView(held[i]))
		}
	}
	q.json(http.StatusOK, map[string]any{"localPosts": posts, "totalSize": len(posts)})
}

func googleBusinessPost(q *req) *Held {
	loc, ok := googleBusinessLocation(q)
	if !ok {
		return nil
	}
	h := q.net.live(strings.TrimPrefix(q.path, "/v4/"), KindPost)
	if h == nil || h.Channel != loc {
		googleError(q, apiError{Status: http.StatusNotFound, Message: "Requested entity was not found."})
		return nil
	}
	return h
}

func googleBusinessGet(q *req) {
	if h := googleBusinessPost(q); h != nil {
		q.json(http.StatusOK, googleBusinessView(h))
	}
}

func googleBusinessDelete(q *req) {
	if h := googleBusinessPost(q); h != nil {
		q.net.remove(h)
		q.json(http.StatusOK, map[string]any{})
	}
}
