package sandbox

import (
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// TikTok Content Posting API (direct post): creator_info/query, video/init (FILE_UPLOAD with its
// chunk rules, or PULL_FROM_URL recorded and never fetched), inbox/video/init (drafts),
// content/init for photos (PULL_FROM_URL photo_images), the upload URL taking Content-Range chunks
// in order (206 until the last, 201), status/fetch (PROCESSING_UPLOAD/DOWNLOAD, then
// PUBLISH_COMPLETE with publicaly_available_post_id on the next read, or SEND_TO_USER_INBOX for
// drafts), and /v2/video/list for Find. A post is held once its publish is complete on TikTok's
// side (upload finished, or the pull accepted). Errors in TikTok's envelope.
func tiktokPublish(d *dialect) {
	d.routes["POST /v2/post/publish/creator_info/query"] = tiktokCreatorInfo
	d.routes["POST /v2/post/publish/video/init"] = func(q *req) { tiktokVideoInit(q, false) }
	d.routes["POST /v2/post/publish/inbox/video/init"] = func(q *req) { tiktokVideoInit(q, true) }
	d.routes["POST /v2/post/publish/content/init"] = tiktokPhotoInit
	d.routes["POST /v2/post/publish/status/fetch"] = tiktokStatus
	d.routes["POST /v2/video/list"] = tiktokList
	if d.unauthenticated == nil {
		d.unauthenticated = map[string]func(q *req){}
	}
	d.unauthenticated["PUT /upload/video"] = tiktokUpload
}

func tiktokCreatorInfo(q *req) {
	u := q.user
	tiktokEnvelope(q, http.StatusOK, map[string]any{"creator_avatar_url": u.Avatar, "creator_username": u.Login, "creator_nickname": u.Name,
		"privacy_level_options": tiktokPrivacy, "comment_disabled": false, "duet_disabled": false, "stitch_disabled": true,
		"max_video_post_duration_sec": 600}, "ok", "")
}

var tiktokPrivacy = []string{"PUBLIC_TO_EVERYONE", "MUTUAL_FOLLOW_FRIENDS", "FOLLOWER_OF_CREATOR", "SELF_ONLY"}

const tiktokPublishJob = "tiktok-publish"

func tiktokInvalid(q *req, code, msg string) {
	tiktokEnvelope(q, http.StatusBadRequest, map[string]any{}, code, msg)
}

type tiktokPostInfo struct {
	Title          string `json:"title"`
	Description    string `json:"description"`
	PrivacyLevel   string `json:"privacy_level"`
	DisableComment bool   `json:"disable_comment"`
	DisableDuet    bool   `json:"disable_duet"`
	DisableStitch  bool   `json:"disable_stitch"`
	CoverMs        int64  `json:"video_cover_timestamp_ms"`
	BrandContent   bool   `json:"brand_content_toggle"`
	BrandOrganic   bool   `json:"brand_organic_toggle"`
	AutoAddMusic   bool   `json:"auto_add_music"`
	IsAIGC         bool   `json:"is_aigc"`
}

func tiktokCheckInfo(q *req, p *tiktokPostInfo, titleMax int) bool {
	if !slices.Contains(tiktokPrivacy, p.PrivacyLevel) {
		tiktokInvalid(q, "privacy_level_option_mismatch", "privacy_level is not one of the creator's privacy_level_options")
		return false
	}
	if utf8.RuneCountInString(p.Title) > titleMax {
		tiktokInvalid(q, "invalid_params", fmt.Sprintf("The title is longer than %d characters.", titleMax))
		return false
	}
	if p.BrandContent && p.PrivacyLevel == "SELF_ONLY" {
		tiktokInvalid(q, "invalid_params", "Branded content cannot be private (SELF_ONLY).")
		return false
	}
	return true
}

func tiktokVideoInit(q *req, draft bool) {
	var body struct {
		PostInfo   *tiktokPostInfo `json:"post_info"`
		SourceInfo struct {
			Source     string `json:"source"`
			VideoSize  int64  `json:"video_size"`
			ChunkSize  int64  `json:"chunk_size"`
			ChunkCount int64  `json:"total_chunk_count"`
			VideoURL   string `json:"video_url"`
		} `json:"source_info"`
	}
	if !decodeJSON(q.r, &body) {
		tiktokInvalid(q, "invalid_params", "The request body is not valid JSON.")
		return
	}
	if !draft {
		if body.PostInfo == nil {
			tiktokInvalid(q, "invalid_params", "post_info is required.")
			return
		}
		if !tiktokCheckInfo(q, body.PostInfo, 2200) {
			return
		}
	}
	s := body.SourceInfo
	data := map[string]any{"type": tiktokPublishJob, "draft": draft, "kind": "video", "post_info": body.PostInfo, "polls": 0}
	id := "v_pub_file~v2-1." + randomDigits(19)
	out := map[string]any{"publish_id": id}
	switch s.Source {
	case "FILE_UPLOAD":
		ok := s.VideoSize > 0 && s.ChunkCount >= 1 && s.ChunkCount <= 1000
		if ok && s.VideoSize < 5<<20 {
			ok = s.ChunkSize == s.VideoSize && s.ChunkCount == 1
		} else if ok {
			ok = s.ChunkSize >= 5<<20 && s.ChunkSize <= 64<<20 && s.ChunkCount == s.VideoSize/s.ChunkSize
		}
		if !ok {
			tiktokInvalid(q, "invalid_params", "The chunk size or total_chunk_count is invalid for the video_size.")
			return
		}
		token := randID("")
		data["status"], data["size"], data["chunk"], data["received"], data["token"] = "PROCESSING_UPLOAD", s.VideoSize, s.ChunkSize, int64(0), token
		out["upload_url"] = baseURL(q) + "/upload/video?upload_id=" + id + "&upload_token=" + token
	case "PULL_FROM_URL":
		if !isFetchableURL(s.VideoURL) {
			tiktokInvalid(q, "invalid_params", "video_url is not a valid URL.")
			return
		}
		id = "v_pub_url~v2-1." + randomDigits(19)
		out["publish_id"] = id
		data["status"], data["url"] = "PROCESSING_DOWNLOAD", s.VideoURL
	default:
		tiktokInvalid(q, "invalid_params", "source_info.source must be FILE_UPLOAD or PULL_FROM_URL.")
		return
	}
	h := q.net.keep(Held{Kind: KindMedia, ID: id, User: q.user.Login, Data: data})
	if s.Source == "PULL_FROM_URL" {
		tiktokMakePost(q, h, []string{s.VideoURL})
	}
	tiktokEnvelope(q, http.StatusOK, out, "ok", "")
}

func tiktokPhotoInit(q *req) {
	var body struct {
		PostInfo   *tiktokPostInfo `json:"post_info"`
		PostMode   string          `json:"post_mode"`
		MediaType  string          `json:"media_type"`
		SourceInfo struct {
			Source      string   `json:"source"`
			PhotoImages []string `json:"photo_images"`
			CoverIndex  int      `json:"photo_cover_index"`
		} `json:"source_info"`
	}
	if !decodeJSON(q.r, &body) || body.PostInfo == nil {
		tiktokInvalid(q, "invalid_params", "post_info is required.")
		return
	}
	if body.MediaType != "PHOTO" || (body.PostMode != "DIRECT_POST" && body.PostMode != "MEDIA_UPLOAD") || body.SourceInfo.Source != "PULL_FROM_URL" {
		tiktokInvalid(q, "invalid_params", "media_type must be PHOTO, post_mode DIRECT_POST or MEDIA_UPLOAD, source PULL_FROM_URL.")
		return
	}
	if !tiktokCheckInfo(q, body.PostInfo, 90) {
		return
	}
	if utf8.RuneCountInString(body.PostInfo.Description) > 4000 {
		tiktokInvalid(q, "invalid_params", "The description is longer than 4000 characters.")
		return
	}
	imgs := body.SourceInfo.PhotoImages
	if len(imgs) < 1 || len(imgs) > 35 || body.SourceInfo.CoverIndex < 0 || body.SourceInfo.CoverIndex >= len(imgs) {
		tiktokInvalid(q, "invalid_params", "photo_images must hold 1 to 35 URLs and photo_cover_index one of them.")
		return
	}
	for _, u := range imgs {
		if !isFetchableURL(u) {
			tiktokInvalid(q, "invalid_params", "photo_images holds an invalid URL.")
			return
		}
	}
	id := "p_pub_url~v2." + randomDigits(19)
	h := q.net.keep(Held{Kind: KindMedia, ID: id, User: q.user.Login, Data: map[string]any{"type": tiktokPublishJob, "kind": "photo",
		"draft": body.PostMode == "MEDIA_UPLOAD", "post_info": body.PostInfo, "status": "PROCESSING_DOWNLOAD", "polls": 0}})
	tiktokMakePost(q, h, imgs)
	tiktokEnvelope(q, http.StatusOK, map[string]any{"publish_id": id}, "ok", "")
}

// tiktokMakePost holds the post of a publish whose media TikTok has.
func tiktokMakePost(q *req, h *Held, media []string) {
	info, _ := h.Data["post_info"].(*tiktokPostInfo)
	text := ""
	if info != nil {
		text = info.Title
		if h.Data["kind"] == "photo" && info.Description != "" {
			text = info.Description
		}
	}
	postID := "7" + randomDigits(18)
	h.Data["post_id"], h.Data["ready"] = postID, true
	kind := h.Data["kind"].(string)
	q.net.keep(Held{Kind: KindPost, ID: postID, User: h.User, Text: text, Media: media, Parent: h.ID,
		URL: "https://www.tiktok.com/@" + h.User + "/" + kind + "/" + postID, Data: map[string]any{"publish_id": h.ID, "draft": h.Data["draft"],
			"post_info": info, "title": func() string {
				if info != nil {
					return info.Title
				}
				return ""
			}()}})
}

// tiktokUpload takes FILE_UPLOAD chunks in order.
func tiktokUpload(q *req) {
	v := q.r.URL.Query()
	h := q.net.live(v.Get("upload_id"), KindMedia)
	if h == nil || h.Data["token"] != v.Get("upload_token") || h.Data["ready"] == true {
		tiktokInvalid(q, "invalid_params", "The upload URL is invalid or expired.")
		return
	}
	switch ct := q.r.Header.Get("Content-Type"); ct {
	case "video/mp4", "video/quicktime", "video/webm":
	default:
		tiktokInvalid(q, "file_format_check_failed", "Content-Type must be video/mp4, video/quicktime or video/webm, not "+ct)
		return
	}
	size, cs, received := h.Data["size"].(int64), h.Data["chunk"].(int64), h.Data["received"].(int64)
	span, total, _ := strings.Cut(strings.TrimPrefix(q.r.Header.Get("Content-Range"), "bytes "), "/")
	a, b, _ := strings.Cut(span, "-")
	first, e1 := strconv.ParseInt(a, 10, 64)
	last, e2 := strconv.ParseInt(b, 10, 64)
	body, _ := io.ReadAll(io.LimitReader(q.r.Body, 130<<20))
	if e1 != nil || e2 != nil || total != strconv.FormatInt(size, 10) || first != received || int64(len(body)) != last-first+1 {
		tiktokEnvelope(q, http.StatusRequestedRangeNotSatisfiable, map[string]any{}, "invalid_params", "Content-Range does not continue the upload")
		return
	}
	if last != size-1 && int64(len(body)) != cs {
		tiktokInvalid(q, "invalid_params", "Every chunk but the last must be chunk_size bytes.")
		return
	}
	received += int64(len(body))
	h.Data["received"] = received
	if received < size {
		q.w.WriteHeader(http.StatusPartialContent)
		return
	}
	tiktokMakePost(q, h, []string{fmt.Sprintf("bytes:%d", size)})
	q.w.WriteHeader(http.StatusCreated)
}

func tiktokStatus(q *req) {
	var body struct {
		PublishID string `json:"publish_id"`
	}
	_ = decodeJSON(q.r, &body)
	h := q.net.live(body.PublishID, KindMedia)
	if h == nil || h.User != q.user.Login || h.Data["type"] != tiktokPublishJob {
		tiktokInvalid(q, "invalid_publish_id", "The publish_id does not exist.")
		return
	}
	st := h.Data["status"].(string)
	if h.Data["ready"] == true && strings.HasPrefix(st, "PROCESSING") && countPoll(h) >= 1 {
		st = "PUBLISH_COMPLETE"
		if h.Data["draft"] == true {
			st = "SEND_TO_USER_INBOX"
		}
		h.Data["status"] = st
	}
	data := map[string]any{"status": st, "uploaded_bytes": h.Data["received"]}
	if st == "PUBLISH_COMPLETE" {
		id, _ := strconv.ParseInt(h.Data["post_id"].(string), 10, 64)
		data["publicaly_available_post_id"] = []int64{id}
	}
	tiktokEnvelope(q, http.StatusOK, data, "ok", "")
}

func tiktokList(q *req) {
	if !strings.Contains(q.r.URL.Query().Get("fields"), "id") {
		tiktokInvalid(q, "invalid_params", "fields is required.")
		return
	}
	videos := []map[string]any{}
	held := q.net.heldBy(KindPost, q.user.Login)
	for i := len(held) - 1; i >= 0; i-- {
		h := held[i]
		if h.Data["draft"] == true {
			continue
		}
		videos = append(videos, map[string]any{"id": h.ID, "create_time": h.At.Unix(), "title": h.Data["title"], "video_description": h.Text, "share_url": h.URL})
	}
	tiktokEnvelope(q, http.StatusOK, map[string]any{"videos": videos, "cursor": 0, "has_more": false}, "ok", "")
}
