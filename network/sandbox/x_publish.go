package sandbox

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// X publishing: the v2 media upload (POST /2/media/upload/initialize {media_type, total_bytes,
// media_category} → POST …/{id}/append multipart media + segment_index → POST …/{id}/finalize,
// videos processing (pending → succeeded on the first STATUS poll) read with GET
// /2/media/upload?command=STATUS&media_id=; POST /2/media/metadata for alt text), POST /2/tweets
// (text, media.media_ids, poll, reply_settings, quote_tweet_id, reply.in_reply_to_tweet_id), GET
// /2/tweets/{id} (200 with a Not Found error for missing ones), DELETE /2/tweets/{id}, GET
// /2/users/{id}/tweets (start_time, max_results, pagination_token; newest first). Validates the weighted 280
// characters, ≤ 4 media never mixing video and images, processed media of the caller, polls
// (2–4 options of ≤ 25, 5–10080 minutes, not with media), duplicate content, sizes per category.
// A reply to one of the account's own tweets (a thread's next tweet, a first comment) is held as a
// comment under it; anything else is a post.
func xPublish(d *dialect) {
	d.routes["POST /2/media/upload/initialize"] = xMediaInitialize
	d.routes["POST /2/media/upload/{id}/append"] = xMediaAppend
	d.routes["POST /2/media/upload/{id}/finalize"] = xMediaFinalize
	d.routes["GET /2/media/upload"] = xMediaStatus
	d.routes["POST /2/media/metadata"] = xMediaMetadata
	d.routes["POST /2/tweets"] = xCreateTweet
	d.routes["GET /2/tweets/{id}"] = xGetTweet
	d.routes["DELETE /2/tweets/{id}"] = xDeleteTweet
	d.routes["GET /2/users/{id}/tweets"] = xUserTweets
}

// xProblem answers in X's problem shape (title and detail).
func xProblem(q *req, status int, title, detail string) {
	q.fail(apiError{Status: status, Code: title, Message: detail})
}

// xInvalid answers X's invalid-request problem with one error message.
func xInvalid(q *req, msg string) {
	q.w.Header().Set("Content-Type", "application/problem+json")
	q.json(http.StatusBadRequest, map[string]any{"errors": []map[string]string{{"message": msg}}, "title": "Invalid Request",
		"detail": "One or more parameters to your request was invalid.", "type": "https://api.twitter.com/2/problems/invalid-request"})
}

// xMediaID is a snowflake-like media id (X's epoch, a counter in the low bits).
func xMediaID(q *req) string {
	return strconv.FormatInt((q.net.sb.Now().UnixMilli()-1288834974657)<<22|int64(len(q.net.held)%(1<<22)), 10)
}

// xTweetJSON is a tweet as GET /2/tweets answers it.
func xTweetJSON(h *Held) map[string]any {
	t := map[string]any{"id": h.ID, "text": h.Text, "author_id": h.Data["authorId"], "created_at": h.At.Format("2006-01-02T15:04:05.000Z"),
		"conversation_id": h.Data["conversationId"], "edit_history_tweet_ids": []string{h.ID}}
	refs := []map[string]string{}
	if p, _ := h.Data["replyTo"].(string); p != "" {
		refs = append(refs, map[string]string{"type": "replied_to", "id": p})
	}
	if p, _ := h.Data["quote"].(string); p != "" {
		refs = append(refs, map[string]string{"type": "quoted", "id": p})
	}
	if len(refs) > 0 {
		t["referenced_tweets"] = refs
	}
	return t
}

var xLimits = map[string]int{"tweet_image": 5 << 20, "tweet_gif": 15 << 20, "tweet_video": 512 << 20, "amplify_video": 512 << 20, "dm_image": 5 << 20}

func xMediaInitialize(q *req) {
	var in struct {
		MediaType     string `json:"media_type"`
		TotalBytes    int    `json:"total_bytes"`
		MediaCategory string `json:"media_category"`
	}
	if !decodeJSON(q.r, &in) {
		xInvalid(q, "Request body is not valid JSON")
		return
	}
	limit, ok := xLimits[in.MediaCategory]
	switch {
	case !ok:
		xInvalid(q, "media_category must be one of [amplify_video, tweet_gif, tweet_image, tweet_video, dm_image]")
		return
	case !strings.HasPrefix(in.MediaType, "image/") && !strings.HasPrefix(in.MediaType, "video/"):
		xInvalid(q, "media_type "+in.MediaType+" is not supported")
		return
	case in.TotalBytes <= 0:
		xInvalid(q, "total_bytes must be positive")
		return
	case in.TotalBytes > limit:
		xInvalid(q, fmt.Sprintf("File size exceeds %d bytes.", limit))
		return
	}
	id := xMediaID(q)
	prefix := "3_"
	if strings.HasPrefix(in.MediaType, "video/") {
		prefix = "7_"
	}
	q.net.keep(Held{Kind: KindMedia, ID: id, User: q.user.Login, Data: map[string]any{"mediaType": in.MediaType, "total": in.TotalBytes,
		"category": in.MediaCategory, "key": prefix + id, "chunks": map[int]int{}, "state": "initialized"}})
	q.json(http.StatusOK, map[string]any{"data": map[string]any{"id": id, "media_key": prefix + id, "expires_after_secs": 86400}})
}

// xMediaByID finds the caller's upload of the path or ?media_id (an invalid-request answer
// otherwise).
func xMediaByID(q *req) *Held {
	parts := strings.Split(q.path, "/")
	id := q.r.URL.Query().Get("media_id")
	if len(parts) > 4 && parts[4] != "" {
		id = parts[4]
	}
	h := q.net.find(KindMedia, id)
	if h == nil || h.User != q.user.Login {
		xInvalid(q, "The media_id "+id+" is invalid.")
		return nil
	}
	return h
}

func xMediaAppend(q *req) {
	h := xMediaByID(q)
	if h == nil {
		return
	}
	fields, files, ok := readMultipart(q.r)
	seg, err := strconv.Atoi(fields["segment_index"])
	if !ok || len(files) != 1 || files[0].Field != "media" || err != nil || seg < 0 || seg > 999 {
		xInvalid(q, "append needs multipart media and segment_index (0-999)")
		return
	}
	if h.Data["state"] != "initialized" {
		xInvalid(q, "The media "+h.ID+" was already finalized.")
		return
	}
	h.Data["chunks"].(map[int]int)[seg] = len(files[0].Data)
	if seg == 0 {
		h.Data["sniffed"] = sniffMedia(files[0].Data)
	}
	q.json(http.StatusOK, map[string]any{"data": map[string]any{"expires_at": q.net.sb.Now().Add(24 * time.Hour).Unix()}})
}

// xMediaInfo is an upload's state as the media endpoints answer it (processing_info while pending).
func xMediaInfo(h *Held) map[string]any {
	out := map[string]any{"id": h.ID, "media_key": h.Data["key"], "size": h.Data["total"], "expires_after_secs": 86400}
	switch h.Data["state"] {
	case "pending":
		out["processing_info"] = map[string]any{"state": "pending", "check_after_secs": 1}
	case "succeeded":
		if h.Data["category"] == "tweet_video" || h.Data["category"] == "amplify_video" || h.Data["category"] == "tweet_gif" {
			out["processing_info"] = map[string]any{"state": "succeeded", "progress_percent": 100}
		}
	}
	return map[string]any{"data": out}
}

func xMediaFinalize(q *req) {
	h := xMediaByID(q)
	if h == nil {
		return
	}
	chunks := h.Data["chunks"].(map[int]int)
	sum := 0
	for i := 0; i < len(chunks); i++ {
		n, ok := chunks[i]
		if !ok {
			xInvalid(q, "Segments are missing.")
			return
		}
		sum += n
	}
	if sum != h.Data["total"].(int) {
		xInvalid(q, "Segments do not add up to provided total file size.")
		return
	}
	if h.Data["state"] == "initialized" {
		h.Data["state"] = "succeeded"
		if strings.HasPrefix(h.Data["mediaType"].(string), "video/") || h.Data["category"] == "tweet_gif" {
			h.Data["state"] = "pending"
		}
	}
	q.json(http.StatusOK, xMediaInfo(h))
}

func xMediaStatus(q *req) {
	if q.r.URL.Query().Get("command") != "STATUS" {
		xInvalid(q, "command must be STATUS")
		return
	}
	h := xMediaByID(q)
	if h == nil {
		return
	}
	if h.Data["state"] == "initialized" {
		xInvalid(q, "The media "+h.ID+" was not finalized.")
		return
	}
	if h.Data["state"] == "pending" {
		h.Data["state"] = "succeeded"
	}
	q.json(http.StatusOK, xMediaInfo(h))
}

func xMediaMetadata(q *req) {
	var in struct {
		ID       string `json:"id"`
		Metadata struct {
			AltText struct {
				Text string `json:"text"`
			} `json:"alt_text"`
		} `json:"metadata"`
	}
	if !decodeJSON(q.r, &in) {
		xInvalid(q, "Request body is not valid JSON")
		return
	}
	h := q.net.find(KindMedia, in.ID)
	if h == nil || h.User != q.user.Login {
		xInvalid(q, "The media_id "+in.ID+" is invalid.")
		return
	}
	if len([]rune(in.Metadata.AltText.Text)) > 1000 {
		xInvalid(q, "alt_text.text must be at most 1000 characters")
		return
	}
	h.Data["altText"] = in.Metadata.AltText.Text
	q.json(http.StatusOK, map[string]any{"data": map[string]any{"id": in.ID, "associated_metadata": map[string]any{"alt_text": map[string]any{"text": in.Metadata.AltText.Text}}}})
}

func xCreateTweet(q *req) {
	var in struct {
		Text  string `json:"text"`
		Media *struct {
			MediaIDs []string `json:"media_ids"`
		} `json:"media"`
		Poll *struct {
			Options         []string `json:"options"`
			DurationMinutes int      `json:"duration_minutes"`
		} `json:"poll"`
		ReplySettings string `json:"reply_settings"`
		QuoteTweetID  string `json:"quote_tweet_id"`
		Reply         *struct {
			InReplyToTweetID string `json:"in_reply_to_tweet_id"`
		} `json:"reply"`
	}
	if !decodeJSON(q.r, &in) {
		xInvalid(q, "Request body is not valid JSON")
		return
	}
	var ids []string
	if in.Media != nil {
		ids = in.Media.MediaIDs
	}
	if strings.TrimSpace(in.Text) == "" && len(ids) == 0 {
		xInvalid(q, "Tweet text or media is required")
		return
	}
	if xWeighted(in.Text) > 280 {
		xProblem(q, http.StatusForbidden, "Forbidden", "You are not permitted to perform this action.")
		return
	}
	if len(ids) > 4 {
		xInvalid(q, "Your media IDs are invalid: you can attach a maximum of 4 items")
		return
	}
	videos := 0
	for _, id := range ids {
		h := q.net.find(KindMedia, id)
		if h == nil || h.User != q.user.Login || h.Data["state"] != "succeeded" {
			xInvalid(q, "Your media IDs are invalid.")
			return
		}
		if h.Data["category"] != "tweet_image" {
			videos++
		}
	}
	if videos > 0 && len(ids) > 1 {
		xInvalid(q, "Your media IDs are invalid: a video or GIF cannot be combined with other media")
		return
	}
	if in.Poll != nil {
		if len(ids) > 0 || in.QuoteTweetID != "" {
			xInvalid(q, "A poll cannot be combined with media or a quote")
			return
		}
		if len(in.Poll.Options) < 2 || len(in.Poll.Options) > 4 || in.Poll.DurationMinutes < 5 || in.Poll.DurationMinutes > 10080 {
			xInvalid(q, "poll needs 2 to 4 options and a duration_minutes of 5 to 10080")
			return
		}
		for _, o := range in.Poll.Options {
			if o == "" || len([]rune(o)) > 25 {
				xInvalid(q, "poll options are 1 to 25 characters")
				return
			}
		}
	}
	switch in.ReplySettings {
	case "", "following", "mentionedUsers", "subscribers", "verified":
	default:
		xInvalid(q, "reply_settings must be one of [following, mentionedUsers, subscribers, verified]")
		return
	}
	parent, conversation := "", ""
	if in.Reply != nil {
		parent = in.Reply.InReplyToTweetID
		if p := q.net.live(parent, KindPost, KindComment); p != nil {
			conversation, _ = p.Data["conversationId"].(string)
		} else if q.net.find(KindPost, parent) != nil || q.net.find(KindComment, parent) != nil {
			xProblem(q, http.StatusForbidden, "Forbidden", "You attempted to reply to a Tweet that is deleted or not visible to you.")
			return
		}
	}
	for _, h := range q.net.heldBy(KindPost, q.user.Login) {
		if h.Text == in.Text && in.Text != "" {
			xProblem(q, http.StatusForbidden, "Forbidden", "You are not allowed to create a Tweet with duplicate content.")
			return
		}
	}
	id := xMediaID(q)
	if conversation == "" {
		conversation = id
	}
	kind := KindPost
	if p := q.net.live(parent, KindPost, KindComment); p != nil && p.User == q.user.Login {
		kind = KindComment
	}
	media := append([]string(nil), ids...)
	q.net.keep(Held{Kind: kind, ID: id, User: q.user.Login, Text: in.Text, Media: media, Parent: parent,
		URL: "https://x.com/" + q.user.Login + "/status/" + id,
		Data: map[string]any{"authorId": q.user.ID, "conversationId": conversation, "replyTo": parent, "quote": in.QuoteTweetID,
			"poll": in.Poll, "replySettings": in.ReplySettings}})
	h := q.w.Header()
	h.Set("x-rate-limit-limit", "100")
	h.Set("x-rate-limit-remaining", "99")
	h.Set("x-rate-limit-reset", fmt.Sprint(q.net.sb.Now().Add(15*time.Minute).Unix()))
	q.json(http.StatusCreated, map[string]any{"data": map[string]any{"id": id, "text": in.Text, "edit_history_tweet_ids": []string{id}}})
}

// xNotFound answers X's not-found problem for a tweet id (200 with errors, as X does).
func xNotFound(q *req, id string) {
	q.json(http.StatusOK, map[string]any{"errors": []map[string]string{{"value": id, "detail": "Could not find tweet with id: [" + id + "].",
		"title": "Not Found Error", "resource_type": "tweet", "parameter": "id", "resource_id": id, "type": "https://api.twitter.com/2/problems/resource-not-found"}}})
}

func xGetTweet(q *req) {
	id := strings.TrimPrefix(q.path, "/2/tweets/")
	h := q.net.live(id, KindPost, KindComment)
	if h == nil {
		xNotFound(q, id)
		return
	}
	q.json(http.StatusOK, map[string]any{"data": xTweetJSON(h)})
}

func xDeleteTweet(q *req) {
	id := strings.TrimPrefix(q.path, "/2/tweets/")
	h := q.net.live(id, KindPost, KindComment)
	if h == nil {
		xProblem(q, http.StatusNotFound, "Not Found Error", "Could not find tweet with id: ["+id+"].")
		return
	}
	if h.User != q.user.Login {
		xProblem(q, http.StatusForbidden, "Forbidden", "You are not authorized to delete this Tweet.")
		return
	}
	q.net.remove(h)
	q.json(http.StatusOK, map[string]any{"data": map[string]any{"deleted": true}})
}

func xUserTweets(q *req) {
	id := strings.Split(q.path, "/")[3]
	if id != q.user.ID {
		xProblem(q, http.StatusForbidden, "Forbidden", "Sandbox X only lists the authenticated user's tweets")
		return
	}
	v := q.r.URL.Query()
	max, err := strconv.Atoi(v.Get("max_results"))
	if v.Get("max_results") == "" {
		max, err = 10, nil
	}
	if err != nil || max < 5 || max > 100 {
		xInvalid(q, "The `max_results` query parameter value ["+v.Get("max_results")+"] is not between 5 and 100")
		return
	}
	var since time.Time
	if s := v.Get("start_time"); s != "" {
		if since, err = time.Parse(time.RFC3339, s); err != nil {
			xInvalid(q, "Invalid start_time")
			return
		}
	}
	var all []*Held
	for _, h := range q.net.held {
		if (h.Kind == KindPost || h.Kind == KindComment) && h.User == q.user.Login && h.DeletedAt == nil && !h.At.Before(since) {
			all = append(all, h)
		}
	}
	// Newest first, a page at a time: pagination_token is where the previous page stopped.
	skip := 0
	if tok := v.Get("pagination_token"); tok != "" {
		if skip, err = strconv.Atoi(strings.TrimPrefix(tok, "page-")); err != nil || skip < 0 {
			xInvalid(q, "The `pagination_token` query parameter value ["+tok+"] is not valid")
			return
		}
	}
	data := []map[string]any{}
	i := len(all) - 1 - skip
	for ; i >= 0 && len(data) < max; i-- {
		data = append(data, xTweetJSON(all[i]))
	}
	meta := map[string]any{"result_count": len(data)}
	if i >= 0 {
		meta["next_token"] = "page-" + strconv.Itoa(skip+len(data))
	}
	out := map[string]any{"meta": meta}
	if len(data) > 0 {
		meta["newest_id"], meta["oldest_id"] = data[0]["id"], data[len(data)-1]["id"]
		out["data"] = data
	}
	q.json(http.StatusOK, out)
}

var xURL = regexp.MustCompile(`https?://[^\s]+`)

// xWeighted is X's weighted length (URLs 23, light ranges 1, everything else 2).
func xWeighted(s string) int {
	n := 0
	s = xURL.ReplaceAllStringFunc(s, func(string) string { n += 23; return "" })
	for _, r := range s {
		if r <= 0x10FF || (r >= 0x2000 && r <= 0x200D) || (r >= 0x2010 && r <= 0x201F) || (r >= 0x2032 && r <= 0x2037) {
			n++
		} else {
			n += 2
		}
	}
	return n
}
