package tiktok

// Publishing with the Content Posting API (direct post): POST /v2/post/publish/creator_info/query/
// first (privacy options, disabled interactions, the longest video allowed), then
//   - a video: POST /v2/post/publish/video/init/ with post_info (title, privacy_level,
//     disable_comment/duet/stitch, video_cover_timestamp_ms, brand_content_toggle,
//     brand_organic_toggle, is_aigc) and source_info FILE_UPLOAD (chunks PUT to upload_url with
//     Content-Range: one chunk under 5 MB, else 10 MB chunks, the last taking the remainder) or
//     PULL_FROM_URL; uploadToDraft uses /v2/post/publish/inbox/video/init/;
//   - photos: POST /v2/post/publish/content/init/ (media_type PHOTO, PULL_FROM_URL photo_images,
//     photo_cover_index, post_mode DIRECT_POST or MEDIA_UPLOAD for drafts, title ≤ 90 + description);
// then POST /v2/post/publish/status/fetch/ until PUBLISH_COMPLETE (or SEND_TO_USER_INBOX), reading
// the public id from publicaly_available_post_id. The publish_id is checkpointed, so a retry polls
// the same publish instead of posting again; Find polls it, else lists the user's videos
// (/v2/video/list/) made after the attempt with the same title. TikTok offers no delete and no
// comment creation: Delete and Reply answer ErrNotSupported.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/pubutil"
)

const (
	checkpointPublish   = "tiktok.publish_id"
	checkpointUploadURL = "tiktok.upload_url"
	checkpointUploaded  = "tiktok.uploaded"
)

// chunk sizes of FILE_UPLOAD.
const (
	minChunk = 5 << 20
	chunk    = 10 << 20
)

func (a *Adapter) poller() pubutil.Poller {
	if a.Poll.Every > 0 {
		return a.Poll
	}
	return pubutil.Poller{Every: 3 * time.Second, Max: 15 * time.Second} // status fetch: 30/min
}

type creatorInfo struct {
	Username         string   `json:"creator_username"`
	PrivacyOptions   []string `json:"privacy_level_options"`
	CommentDisabled  bool     `json:"comment_disabled"`
	DuetDisabled     bool     `json:"duet_disabled"`
	StitchDisabled   bool     `json:"stitch_disabled"`
	MaxVideoDuration int      `json:"max_video_post_duration_sec"`
}

func (a *Adapter) post(ctx context.Context, t *app.Token, path string, body, out any) error {
	return a.api.Do(ctx, a.request(t, path, body), out)
}

func (a *Adapter) request(t *app.Token, path string, body any) core.Request {
	return core.Request{Method: http.MethodPost, URL: a.base + path, Bearer: t.AccessToken, JSON: body,
		Header: map[string]string{"Content-Type": "application/json; charset=UTF-8"}}
}

// read is post for the queries that change nothing on TikTok (core.Request.Read).
func (a *Adapter) read(ctx context.Context, t *app.Token, path string, body, out any) error {
	r := a.request(t, path, body)
	r.Read = true
	return a.api.Do(ctx, r, out)
}

func (a *Adapter) creator(ctx context.Context, t *app.Token) (*creatorInfo, error) {
	var out struct {
		Data creatorInfo `json:"data"`
	}
	if err := a.read(ctx, t, "/v2/post/publish/creator_info/query/", map[string]any{}, &out); err != nil {
		return nil, err
	}
	return &out.Data, nil
}

// Publish posts the video or photos and waits until TikTok has published them.
func (a *Adapter) Publish(ctx context.Context, t *app.Token, req *app.PublishRequest) (*app.Published, error) {
	pl, _ := req.Payload.(*Payload)
	if pl == nil {
		return nil, pubutil.Refused(app.TikTok, "the post has no TIKTOK payload")
	}
	images, videos := pubutil.Kinds(req.Media)
	photo := pl.Type == "IMAGE" || (videos == 0 && images > 0)
	switch {
	case len(req.Media) == 0:
		return nil, pubutil.Refused(app.TikTok, "a TikTok post needs a video or 1 to 35 photos")
	case photo && (videos > 0 || images > 35):
		return nil, pubutil.Refused(app.TikTok, "a photo post takes 1 to 35 photos and no video")
	case !photo && (videos != 1 || images > 0):
		return nil, pubutil.Refused(app.TikTok, "a video post takes exactly one video")
	}
	if !photo && req.Media[0].Size <= 0 { // FILE_UPLOAD declares the size up front
		b, err := pubutil.Bytes(ctx, req.Media[0])
		if err != nil {
			return nil, err
		}
		req.Media[0].Size = int64(len(b))
	}
	username := accountUsername(req.Account)
	publishID := req.Checkpointed(checkpointPublish)
	fileUpload := !photo && req.Checkpointed(checkpointUploadURL) != "" || (!photo && !a.PullFromURL && publishID == "")
	if publishID == "" || (fileUpload && req.Checkpointed(checkpointUploaded) == "") {
		info, err := a.creator(ctx, t)
		if err != nil {
			return nil, err
		}
		if info.Username != "" {
			username = info.Username
		}
		from := int64(0)
		if publishID != "" {
			// An upload an earlier attempt left unfinished: go on from the bytes TikTok has, or
			// start a new publish when that one failed (nothing was posted from it).
			st, err := a.fetch(ctx, t, publishID)
			if err != nil {
				return nil, err
			}
			if st.Status == "FAILED" {
				publishID, fileUpload = "", !photo && !a.PullFromURL
			} else {
				from = st.UploadedBytes
			}
		}
		if publishID == "" {
			if publishID, err = a.init(ctx, t, pl, photo, info, req); err != nil {
				return nil, err
			}
		}
		if fileUpload {
			if err := a.upload(ctx, publishID, from, req); err != nil {
				return nil, err
			}
		}
	}
	return a.wait(ctx, t, publishID, username, photo)
}

func privacy(pl *Payload, info *creatorInfo) (string, error) {
	p := pl.Privacy
	if p == "" {
		p = "PUBLIC_TO_EVERYONE"
		if !slices.Contains(info.PrivacyOptions, p) && len(info.PrivacyOptions) > 0 {
			p = info.PrivacyOptions[0]
		}
	}
	if len(info.PrivacyOptions) > 0 && !slices.Contains(info.PrivacyOptions, p) {
		return "", pubutil.Refused(app.TikTok, "this creator cannot post with privacy %s (allowed: %s)", p, strings.Join(info.PrivacyOptions, ", "))
	}
	return p, nil
}

// init starts the publish and checkpoints its publish_id (and upload URL).
func (a *Adapter) init(ctx context.Context, t *app.Token, pl *Payload, photo bool, info *creatorInfo, req *app.PublishRequest) (string, error) {
	level, err := privacy(pl, info)
	if err != nil {
		return "", err
	}
	postInfo := map[string]any{"privacy_level": level, "disable_comment": pl.DisableComments || info.CommentDisabled,
		"brand_content_toggle": pl.IsBrandContent, "brand_organic_toggle": pl.IsOrganicBrandContent}
	if pl.IsAIGenerated {
		postInfo["is_aigc"] = true
	}
	var path string
	var body map[string]any
	if photo {
		title := pl.Text
		if utf8.RuneCountInString(title) > 90 {
			title = string([]rune(title)[:90])
		}
		postInfo["title"], postInfo["description"] = title, pl.Text
		postInfo["auto_add_music"] = pl.AutoAddMusic
		var urls []string
		for _, m := range req.Media {
			if m.URL == "" {
				return "", pubutil.Refused(app.TikTok, "upload %s has no public URL for TikTok to fetch", m.UploadID)
			}
			urls = append(urls, m.URL)
		}
		mode := "DIRECT_POST"
		if pl.UploadToDraft {
			mode = "MEDIA_UPLOAD"
		}
		path = "/v2/post/publish/content/init/"
		body = map[string]any{"post_info": postInfo, "post_mode": mode, "media_type": "PHOTO",
			"source_info": map[string]any{"source": "PULL_FROM_URL", "photo_images": urls, "photo_cover_index": pl.PhotoCoverIndex}}
	} else {
		m := req.Media[0]
		if info.MaxVideoDuration > 0 && m.Duration > time.Duration(info.MaxVideoDuration)*time.Second {
			return "", pubutil.Refused(app.TikTok, "the video lasts %s; this creator may post up to %d s", m.Duration.Round(time.Second), info.MaxVideoDuration)
		}
		postInfo["title"] = pl.Text
		postInfo["disable_duet"] = pl.DisableDuet || info.DuetDisabled
		postInfo["disable_stitch"] = pl.DisableStitch || info.StitchDisabled
		if pl.ThumbnailOffset > 0 {
			postInfo["video_cover_timestamp_ms"] = int64(pl.ThumbnailOffset)
		}
		var source map[string]any
		if a.PullFromURL {
			if m.URL == "" {
				return "", pubutil.Refused(app.TikTok, "upload %s has no public URL for TikTok to fetch", m.UploadID)
			}
			source = map[string]any{"source": "PULL_FROM_URL", "video_url": m.URL}
		} else {
			size, cs, n := chunking(m.Size)
			source = map[string]any{"source": "FILE_UPLOAD", "video_size": size, "chunk_size": cs, "total_chunk_count": n}
		}
		path, body = "/v2/post/publish/video/init/", map[string]any{"post_info": postInfo, "source_info": source}
		if pl.UploadToDraft {
			path, body = "/v2/post/publish/inbox/video/init/", map[string]any{"source_info": source}
		}
	}
	if err := pubutil.MarkAttempt(ctx, req); err != nil {
		return "", err
	}
	var out struct {
		Data struct {
			PublishID string `json:"publish_id"`
			UploadURL string `json:"upload_url"`
		} `json:"data"`
	}
	if err := a.post(ctx, t, path, body, &out); err != nil {
		return "", err
	}
	if err := req.Save(ctx, checkpointPublish, out.Data.PublishID); err != nil {
		return "", err
	}
	if out.Data.UploadURL != "" {
		if err := req.Save(ctx, checkpointUploadURL, out.Data.UploadURL); err != nil {
			return "", err
		}
	}
	return out.Data.PublishID, nil
}

// chunking answers (video_size, chunk_size, total_chunk_count) as TikTok wants them.
func chunking(size int64) (int64, int64, int64) {
	if size < minChunk {
		return size, size, 1
	}
	return size, chunk, max(size/chunk, 1)
}

// upload PUTs the file's chunks in order to the checkpointed upload URL, from the chunk holding
// byte from (what TikTok already has), reading the upload as a stream.
func (a *Adapter) upload(ctx context.Context, publishID string, from int64, req *app.PublishRequest) error {
	to := req.Checkpointed(checkpointUploadURL)
	if to == "" {
		return &app.NetworkError{Network: app.TikTok, Class: app.ErrPermanent, Code: "crier_upload_url", Message: "the upload URL of publish " + publishID + " was lost"}
	}
	m := req.Media[0]
	size, cs, n := chunking(m.Size)
	rc, err := m.Open(ctx)
	if err != nil {
		return fmt.Errorf("upload %s: %w", m.UploadID, err)
	}
	defer rc.Close()
	start := min(from/cs, n-1)
	if _, err := io.CopyN(io.Discard, rc, start*cs); err != nil {
		return fmt.Errorf("upload %s: %w", m.UploadID, err)
	}
	mime := m.Mime
	if mime == "" {
		mime = "video/mp4"
	}
	for i := start; i < n; i++ {
		first, last := i*cs, (i+1)*cs-1
		if i == n-1 {
			last = size - 1
		}
		part := make([]byte, last-first+1)
		if _, err := io.ReadFull(rc, part); err != nil {
			return fmt.Errorf("upload %s: %w", m.UploadID, err)
		}
		if err := a.api.Do(ctx, core.Request{Method: http.MethodPut, URL: to, Body: bytes.NewReader(part), ContentType: mime,
			Header: map[string]string{"Content-Range": fmt.Sprintf("bytes %d-%d/%d", first, last, size)}}, nil); err != nil {
			return err
		}
	}
	return req.Save(ctx, checkpointUploaded, "1")
}

type status struct {
	Status        string  `json:"status"`
	FailReason    string  `json:"fail_reason"`
	PostIDs       []int64 `json:"publicaly_available_post_id"` // sic
	UploadedBytes int64   `json:"uploaded_bytes"`
}

func (a *Adapter) fetch(ctx context.Context, t *app.Token, publishID string) (*status, error) {
	var out struct {
		Data status `json:"data"`
	}
	if err := a.read(ctx, t, "/v2/post/publish/status/fetch/", map[string]string{"publish_id": publishID}, &out); err != nil {
		return nil, err
	}
	return &out.Data, nil
}

// wait polls the publish until it is public (or in the creator's inbox), or fails.
func (a *Adapter) wait(ctx context.Context, t *app.Token, publishID, username string, photo bool) (*app.Published, error) {
	for i := 0; ; i++ {
		st, err := a.fetch(ctx, t, publishID)
		if err != nil {
			return nil, err
		}
		if p := published(st, publishID, username, photo); p != nil {
			return p, nil
		}
		if st.Status == "FAILED" {
			return nil, &app.NetworkError{Network: app.TikTok, Class: failClass(st.FailReason), Status: http.StatusOK, Code: st.FailReason,
				Message: "TikTok could not publish the post: " + st.FailReason}
		}
		if err := a.poller().Wait(ctx, i); err != nil {
			return nil, pubutil.StillProcessing(app.TikTok, "the post", err)
		}
	}
}

func failClass(reason string) app.ErrorClass {
	switch reason {
	case "internal", "frame_rate_check_failed_transient":
		return app.ErrTransient
	case "spam_risk_too_many_posts", "spam_risk_too_many_pending_share":
		return app.ErrRateLimited
	}
	return app.ErrPermanent
}

// published answers the post of a finished publish (nil while it is processing).
func published(st *status, publishID, username string, photo bool) *app.Published {
	switch st.Status {
	case "SEND_TO_USER_INBOX":
		return &app.Published{ExternalID: publishID, Permalink: "https://www.tiktok.com/@" + username,
			Extra: map[string]string{"publishId": publishID, "state": "inbox"}}
	case "PUBLISH_COMPLETE":
		p := &app.Published{ExternalID: publishID, Permalink: "https://www.tiktok.com/@" + username, Extra: map[string]string{"publishId": publishID}}
		if len(st.PostIDs) > 0 {
			id := strconv.FormatInt(st.PostIDs[0], 10)
			kind := "video"
			if photo {
				kind = "photo"
			}
			p.ExternalID, p.Permalink = id, "https://www.tiktok.com/@"+username+"/"+kind+"/"+id
		} else {
			p.Extra["state"] = "moderation" // public id appears after moderation
		}
		return p
	}
	return nil
}

// Find answers the checkpointed publish once done, else a video listed after the attempt.
func (a *Adapter) Find(ctx context.Context, t *app.Token, req *app.PublishRequest) (*app.Published, error) {
	pl, _ := req.Payload.(*Payload)
	_, videos := pubutil.Kinds(req.Media)
	photo := pl != nil && (pl.Type == "IMAGE" || videos == 0)
	username := accountUsername(req.Account)
	if id := req.Checkpointed(checkpointPublish); id != "" {
		st, err := a.fetch(ctx, t, id)
		if err != nil {
			return nil, err
		}
		if p := published(st, id, username, photo); p != nil {
			return p, nil
		}
		if st.Status == "FAILED" || (st.Status == "PROCESSING_UPLOAD" && req.Checkpointed(checkpointUploaded) == "") {
			return nil, nil // nothing will be posted from this publish
		}
		return nil, pubutil.StillProcessing(app.TikTok, "the post", nil)
	}
	at, ok := pubutil.AttemptAt(req)
	if !ok || pl == nil {
		return nil, nil
	}
	var out struct {
		Data struct {
			Videos []struct {
				ID          string `json:"id"`
				CreateTime  int64  `json:"create_time"`
				Title       string `json:"title"`
				Description string `json:"video_description"`
				ShareURL    string `json:"share_url"`
			} `json:"videos"`
		} `json:"data"`
	}
	if err := a.read(ctx, t, "/v2/video/list/?fields=id,create_time,title,video_description,share_url", map[string]int{"max_count": 20}, &out); err != nil {
		return nil, err
	}
	near := pubutil.NewNearest(at)
	for i, v := range out.Data.Videos {
		if pubutil.SameText(v.Title, pl.Text) || pubutil.SameText(v.Description, pl.Text) {
			near.Offer(i, time.Unix(v.CreateTime, 0))
		}
	}
	if near.Index < 0 {
		return nil, nil
	}
	v := out.Data.Videos[near.Index]
	link := v.ShareURL
	if link == "" {
		link = "https://www.tiktok.com/@" + username + "/video/" + v.ID
	}
	return &app.Published{ExternalID: v.ID, Permalink: link}, nil
}

// Delete: the Content Posting API cannot delete posts.
func (a *Adapter) Delete(context.Context, *app.Token, *app.DeleteRequest) error {
	return app.ErrNotSupported
}

// Reply: the Content Posting API has no comment creation.
func (a *Adapter) Reply(context.Context, *app.Token, *app.ReplyRequest) (*app.Published, error) {
	return nil, app.ErrNotSupported
}

var (
	_ app.Publisher = (*Adapter)(nil)
	_ app.Replier   = (*Adapter)(nil)
)

func accountUsername(acc *app.SocialAccount) string {
	if acc == nil || acc.Username == nil {
		return ""
	}
	return *acc.Username
}
