package facebook

// Publishing to a Facebook Page with the page's token (the channel's Token):
//   - text/link: POST /{page}/feed (message, link, text_format_preset_id);
//   - one photo: POST /{page}/photos (url, caption) → post_id;
//   - 2+ photos: each POST /{page}/photos published=false (checkpointed), then POST /{page}/feed
//     with attached_media[i]={"media_fbid":id};
//   - video: POST graph-video…/{page}/videos (file_url, description, title);
//   - REEL: POST /{page}/video_reels upload_phase=start → rupload upload_url with the file_url
//     header → upload_phase=finish video_state=PUBLISHED, then GET /{video}?fields=status until ready;
//   - STORY: photo → unpublished photo then POST /{page}/photo_stories; video → /{page}/video_stories
//     start/upload/finish.
// nativeScheduleTime schedules feed/photo/video posts natively (published=false,
// scheduled_publish_time). Meta has no idempotency key: every durable step is checkpointed and the
// attempt marked before the final call; Find reads the checkpointed post, else the page's
// published_posts created after the attempt with the same message (stories: the page's stories
// made from the checkpointed media; reels: the checkpointed video's publishing status). Reply comments with
// POST /{id}/comments. Delete is DELETE /{id}.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/meta"
	"github.com/crier/crier/network/pubutil"
)

// Pages is the Facebook adapter: the Graph base plus page publishing.
type Pages struct {
	*Adapter
	// Poll paces the polling of video processing.
	Poll pubutil.Poller
}

const (
	checkpointPost     = "facebook.post"
	checkpointVideo    = "facebook.video"
	checkpointUploaded = "facebook.uploaded"
	checkpointComment  = "facebook.comment"
)

func checkpointPhoto(i int) string { return "facebook.photo." + strconv.Itoa(i) }

func (a *Pages) poller() pubutil.Poller {
	if a.Poll.Every > 0 {
		return a.Poll
	}
	return pubutil.Poller{Every: 3 * time.Second, Max: 20 * time.Second}
}

// videoGraph is graph-video.facebook.com for the real Graph (any other base serves both).
func (a *Pages) videoGraph() string {
	return strings.Replace(a.graph, "://graph.facebook.com", "://graph-video.facebook.com", 1)
}

// pageToken answers the page and its token (read from the Graph with the user token when the
// channel came without one).
func (a *Pages) pageToken(ctx context.Context, t *app.Token, ch *app.Channel) (string, string, error) {
	id, token := meta.ChannelToken(t, ch)
	if id == "" {
		return "", "", pubutil.Refused(app.Facebook, "no Facebook Page is selected for this account")
	}
	if token != "" {
		return id, token, nil
	}
	ch = &app.Channel{ID: id}
	var p struct {
		AccessToken string `json:"access_token"`
	}
	if err := a.api.Do(ctx, core.Request{URL: a.graph + "/" + url.PathEscape(ch.ID) + "?fields=access_token", Bearer: t.AccessToken}, &p); err != nil {
		return "", "", err
	}
	if p.AccessToken == "" {
		return "", "", pubutil.Refused(app.Facebook, "the Page gave no page token: reconnect and allow pages_manage_posts")
	}
	return ch.ID, p.AccessToken, nil
}

func (a *Pages) post(ctx context.Context, base, path, token string, form url.Values, out any) error {
	return a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: base + path, Bearer: token, Form: form}, out)
}

type created struct {
	ID      string `json:"id"`
	PostID  string `json:"post_id"`
	VideoID string `json:"video_id"`
	Success bool   `json:"success"`
}

// Publish publishes the page post.
func (a *Pages) Publish(ctx context.Context, t *app.Token, req *app.PublishRequest) (*app.Published, error) {
	page, token, err := a.pageToken(ctx, t, req.Channel)
	if err != nil {
		return nil, err
	}
	pl, _ := req.Payload.(*Payload)
	if pl == nil {
		return nil, pubutil.Refused(app.Facebook, "the post has no FACEBOOK payload")
	}
	kind := pl.Type
	if kind == "" {
		kind = "POST"
	}
	if id := req.Checkpointed(checkpointPost); id != "" {
		return a.published(ctx, token, page, kind, id, req.Checkpointed(checkpointVideo)), nil
	}
	images, videos := pubutil.Kinds(req.Media)
	if videos > 0 && (images > 0 || videos > 1) {
		return nil, pubutil.Refused(app.Facebook, "a Facebook post takes one video, or photos, not both")
	}
	var id string
	switch {
	case kind == "REEL":
		if videos != 1 {
			return nil, pubutil.Refused(app.Facebook, "a reel needs exactly one video")
		}
		id, err = a.reel(ctx, page, token, pl, req)
	case kind == "STORY":
		if len(req.Media) != 1 {
			return nil, pubutil.Refused(app.Facebook, "a story needs exactly one photo or video")
		}
		id, err = a.story(ctx, page, token, req)
	case videos == 1:
		id, err = a.video(ctx, page, token, pl, req)
	case images == 1:
		id, err = a.photo(ctx, page, token, pl, req)
	default:
		id, err = a.feed(ctx, page, token, pl, req)
	}
	if err != nil {
		return nil, err
	}
	if err := req.Save(ctx, checkpointPost, id); err != nil {
		return nil, err
	}
	return a.published(ctx, token, page, kind, id, req.Checkpointed(checkpointVideo)), nil
}

func schedule(pl *Payload, form url.Values) error {
	if pl.NativeScheduleTime == "" {
		return nil
	}
	at, err := time.Parse(time.RFC3339, pl.NativeScheduleTime)
	if err != nil {
		return pubutil.Refused(app.Facebook, "nativeScheduleTime %q is not a date-time", pl.NativeScheduleTime)
	}
	form.Set("published", "false")
	form.Set("scheduled_publish_time", strconv.FormatInt(at.Unix(), 10))
	return nil
}

// feed publishes text, a link, or several photos (uploaded unpublished first, checkpointed).
func (a *Pages) feed(ctx context.Context, page, token string, pl *Payload, req *app.PublishRequest) (string, error) {
	form := url.Values{}
	if pl.Text != "" {
		form.Set("message", pl.Text)
	}
	if pl.Link != "" {
		form.Set("link", pl.Link)
	}
	if pl.TextFormatPresetID != "" && len(req.Media) == 0 {
		form.Set("text_format_preset_id", pl.TextFormatPresetID)
	}
	for i, m := range req.Media {
		id, err := a.unpublishedPhoto(ctx, page, token, i, m, req)
		if err != nil {
			return "", err
		}
		b, _ := json.Marshal(map[string]string{"media_fbid": id})
		form.Set(fmt.Sprintf("attached_media[%d]", i), string(b))
	}
	if len(form) == 0 {
		return "", pubutil.Refused(app.Facebook, "the post has no text, link or media")
	}
	if err := schedule(pl, form); err != nil {
		return "", err
	}
	if err := pubutil.MarkAttempt(ctx, req); err != nil {
		return "", err
	}
	var out created
	if err := a.post(ctx, a.graph, "/"+page+"/feed", token, form, &out); err != nil {
		return "", err
	}
	return out.ID, nil
}

func (a *Pages) unpublishedPhoto(ctx context.Context, page, token string, i int, m app.MediaFile, req *app.PublishRequest) (string, error) {
	if id := req.Checkpointed(checkpointPhoto(i)); id != "" {
		return id, nil
	}
	if m.URL == "" {
		return "", pubutil.Refused(app.Facebook, "upload %s has no public URL", m.UploadID)
	}
	form := url.Values{"url": {m.URL}, "published": {"false"}}
	if m.AltText != "" {
		form.Set("alt_text_custom", m.AltText)
	}
	var out created
	if err := a.post(ctx, a.graph, "/"+page+"/photos", token, form, &out); err != nil {
		return "", err
	}
	return out.ID, req.Save(ctx, checkpointPhoto(i), out.ID)
}

// photo publishes a single photo post.
func (a *Pages) photo(ctx context.Context, page, token string, pl *Payload, req *app.PublishRequest) (string, error) {
	m := req.Media[0]
	if m.URL == "" {
		return "", pubutil.Refused(app.Facebook, "upload %s has no public URL", m.UploadID)
	}
	form := url.Values{"url": {m.URL}}
	if pl.Text != "" {
		form.Set("caption", pl.Text)
	}
	if m.AltText != "" {
		form.Set("alt_text_custom", m.AltText)
	}
	if err := schedule(pl, form); err != nil {
		return "", err
	}
	if err := pubutil.MarkAttempt(ctx, req); err != nil {
		return "", err
	}
	var out created
	if err := a.post(ctx, a.graph, "/"+page+"/photos", token, form, &out); err != nil {
		return "", err
	}
	if out.PostID != "" {
		return out.PostID, nil
	}
	return out.ID, nil // scheduled photos have no post yet
}

// video publishes a page video (Meta pulls file_url).
func (a *Pages) video(ctx context.Context, page, token string, pl *Payload, req *app.PublishRequest) (string, error) {
	m := req.Media[0]
	if m.URL == "" {
		return "", pubutil.Refused(app.Facebook, "upload %s has no public URL", m.UploadID)
	}
	form := url.Values{"file_url": {m.URL}}
	if pl.Text != "" {
		form.Set("description", pl.Text)
	}
	if pl.MediaTitle != "" {
		form.Set("title", pl.MediaTitle)
	}
	if err := schedule(pl, form); err != nil {
		return "", err
	}
	if err := pubutil.MarkAttempt(ctx, req); err != nil {
		return "", err
	}
	var out created
	if err := a.post(ctx, a.videoGraph(), "/"+page+"/videos", token, form, &out); err != nil {
		return "", err
	}
	if err := req.Save(ctx, checkpointVideo, out.ID); err != nil {
		return "", err
	}
	return out.ID, nil
}

// startUpload starts a reel or video story and sends the file (by URL) to its upload_url.
func (a *Pages) startUpload(ctx context.Context, page, token, edge string, m app.MediaFile, req *app.PublishRequest) (string, error) {
	videoID := req.Checkpointed(checkpointVideo)
	if videoID == "" {
		var out struct {
			VideoID   string `json:"video_id"`
			UploadURL string `json:"upload_url"`
		}
		if err := a.post(ctx, a.graph, "/"+page+"/"+edge, token, url.Values{"upload_phase": {"start"}}, &out); err != nil {
			return "", err
		}
		if err := req.Save(ctx, checkpointVideo, out.VideoID); err != nil {
			return "", err
		}
		videoID = out.VideoID
		req.Resume["facebook.upload_url"] = out.UploadURL
	}
	if req.Checkpointed(checkpointUploaded) == "" {
		up := req.Resume["facebook.upload_url"]
		if up == "" {
			up = a.ruploadURL(videoID)
		}
		if m.URL == "" {
			return "", pubutil.Refused(app.Facebook, "upload %s has no public URL", m.UploadID)
		}
		var out created
		if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: up, Header: map[string]string{"Authorization": "OAuth " + token, "file_url": m.URL}}, &out); err != nil {
			return "", err
		}
		if err := req.Save(ctx, checkpointUploaded, "1"); err != nil {
			return "", err
		}
	}
	return videoID, nil
}

// ruploadURL is the upload URL of a started video (rupload.facebook.com for the real Graph).
func (a *Pages) ruploadURL(videoID string) string {
	base := strings.TrimSuffix(a.graph, "/"+meta.Version)
	if strings.Contains(base, "://graph.facebook.com") {
		base = "https://rupload.facebook.com"
	}
	return base + "/video-upload/" + meta.Version + "/" + videoID
}

// reel publishes a reel and waits until Meta has processed it.
func (a *Pages) reel(ctx context.Context, page, token string, pl *Payload, req *app.PublishRequest) (string, error) {
	videoID, err := a.startUpload(ctx, page, token, "video_reels", req.Media[0], req)
	if err != nil {
		return "", err
	}
	form := url.Values{"upload_phase": {"finish"}, "video_id": {videoID}, "video_state": {"PUBLISHED"}}
	if pl.Text != "" {
		form.Set("description", pl.Text)
	}
	if pl.MediaTitle != "" {
		form.Set("title", pl.MediaTitle)
	}
	if pl.NativeScheduleTime != "" {
		at, err := time.Parse(time.RFC3339, pl.NativeScheduleTime)
		if err != nil {
			return "", pubutil.Refused(app.Facebook, "nativeScheduleTime %q is not a date-time", pl.NativeScheduleTime)
		}
		form.Set("video_state", "SCHEDULED")
		form.Set("scheduled_publish_time", strconv.FormatInt(at.Unix(), 10))
	}
	if err := pubutil.MarkAttempt(ctx, req); err != nil {
		return "", err
	}
	var out created
	if err := a.post(ctx, a.graph, "/"+page+"/video_reels", token, form, &out); err != nil {
		return "", err
	}
	if err := a.waitVideo(ctx, token, videoID); err != nil {
		return "", err
	}
	return videoID, nil
}

// waitVideo polls GET /{video}?fields=status until the video is ready (or fails).
func (a *Pages) waitVideo(ctx context.Context, token, videoID string) error {
	for i := 0; ; i++ {
		var v struct {
			Status struct {
				VideoStatus     string `json:"video_status"`
				ProcessingPhase struct {
					Status string `json:"status"`
					Errors []struct {
						Code    int    `json:"code"`
						Message string `json:"message"`
					} `json:"errors"`
				} `json:"processing_phase"`
			} `json:"status"`
		}
		if err := a.api.Do(ctx, core.Request{URL: a.graph + "/" + videoID + "?fields=status", Bearer: token}, &v); err != nil {
			return err
		}
		switch v.Status.VideoStatus {
		case "ready", "published", "":
			return nil
		case "error":
			msg := "Facebook could not process the video"
			if errs := v.Status.ProcessingPhase.Errors; len(errs) > 0 {
				msg = errs[0].Message
			}
			return &app.NetworkError{Network: app.Facebook, Class: app.ErrPermanent, Status: http.StatusOK, Code: "video_status_error", Message: msg}
		}
		if err := a.poller().Wait(ctx, i); err != nil {
			return pubutil.StillProcessing(app.Facebook, "the video", err)
		}
	}
}

// story publishes a photo or video story.
func (a *Pages) story(ctx context.Context, page, token string, req *app.PublishRequest) (string, error) {
	m := req.Media[0]
	var out created
	if pubutil.IsVideo(m) {
		videoID, err := a.startUpload(ctx, page, token, "video_stories", m, req)
		if err != nil {
			return "", err
		}
		if err := pubutil.MarkAttempt(ctx, req); err != nil {
			return "", err
		}
		if err := a.post(ctx, a.graph, "/"+page+"/video_stories", token, url.Values{"upload_phase": {"finish"}, "video_id": {videoID}}, &out); err != nil {
			return "", err
		}
	} else {
		photoID, err := a.unpublishedPhoto(ctx, page, token, 0, m, req)
		if err != nil {
			return "", err
		}
		if err := pubutil.MarkAttempt(ctx, req); err != nil {
			return "", err
		}
		if err := a.post(ctx, a.graph, "/"+page+"/photo_stories", token, url.Values{"photo_id": {photoID}}, &out); err != nil {
			return "", err
		}
	}
	if out.PostID == "" {
		return "", &app.NetworkError{Network: app.Facebook, Class: app.ErrTransient, Status: http.StatusOK, Message: "the story answer had no post_id"}
	}
	return out.PostID, nil
}

// published reads the permalink (a failed read falls back to the id's URL: the post exists).
func (a *Pages) published(ctx context.Context, token, page, kind, id, videoID string) *app.Published {
	p := &app.Published{ExternalID: id, Extra: map[string]string{"pageId": page, "type": kind}}
	if videoID != "" {
		p.Extra["videoId"] = videoID
	}
	if kind == "REEL" {
		p.Permalink = "https://www.facebook.com/reel/" + id
		return p
	}
	var out struct {
		PermalinkURL string `json:"permalink_url"`
	}
	if err := a.api.Do(ctx, core.Request{URL: a.graph + "/" + id + "?fields=permalink_url", Bearer: token}, &out); err == nil && out.PermalinkURL != "" {
		p.Permalink = absolute(out.PermalinkURL)
	} else {
		p.Permalink = "https://www.facebook.com/" + id
	}
	return p
}

func absolute(u string) string {
	if strings.HasPrefix(u, "/") {
		return "https://www.facebook.com" + u
	}
	return u
}

// Find reads the checkpointed post, else a page post made after the attempt with the message.
func (a *Pages) Find(ctx context.Context, t *app.Token, req *app.PublishRequest) (*app.Published, error) {
	page, token, err := a.pageToken(ctx, t, req.Channel)
	if err != nil {
		return nil, err
	}
	pl, _ := req.Payload.(*Payload)
	if pl == nil {
		return nil, nil
	}
	kind := pl.Type
	if kind == "" {
		kind = "POST"
	}
	if id := req.Checkpointed(checkpointPost); id != "" {
		var out struct {
			ID string `json:"id"`
		}
		if err := a.api.Do(ctx, core.Request{URL: a.graph + "/" + id + "?fields=id", Bearer: token}, &out); err != nil {
			if app.ClassOf(err) == app.ErrPermanent {
				return nil, nil
			}
			return nil, err
		}
		return a.published(ctx, token, page, kind, id, req.Checkpointed(checkpointVideo)), nil
	}
	at, ok := pubutil.AttemptAt(req)
	if !ok {
		return nil, nil
	}
	if videoID := req.Checkpointed(checkpointVideo); videoID != "" && kind == "REEL" {
		// A reel whose finish answer was lost: published once Meta shows it so.
		var v struct {
			Status struct {
				VideoStatus     string `json:"video_status"`
				PublishingPhase struct {
					Status string `json:"status"`
				} `json:"publishing_phase"`
			} `json:"status"`
		}
		if err := a.api.Do(ctx, core.Request{URL: a.graph + "/" + videoID + "?fields=status", Bearer: token}, &v); err != nil {
			return nil, err
		}
		if v.Status.PublishingPhase.Status == "complete" || v.Status.PublishingPhase.Status == "in_progress" {
			return a.published(ctx, token, page, kind, videoID, videoID), nil
		}
		return nil, nil
	}
	if kind == "STORY" {
		return a.findStory(ctx, token, page, req)
	}
	var list struct {
		Data []struct {
			ID           string `json:"id"`
			Message      string `json:"message"`
			CreatedTime  string `json:"created_time"`
			PermalinkURL string `json:"permalink_url"`
		} `json:"data"`
	}
	edge := "published_posts"
	if pl.NativeScheduleTime != "" {
		edge = "scheduled_posts"
	}
	if err := a.api.Do(ctx, core.Request{URL: a.graph + "/" + page + "/" + edge + "?fields=id,message,created_time,permalink_url&limit=50", Bearer: token}, &list); err != nil {
		return nil, err
	}
	near := pubutil.NewNearest(at)
	for i, p := range list.Data {
		created, err := time.Parse("2006-01-02T15:04:05-0700", p.CreatedTime)
		if err == nil && pubutil.SameText(p.Message, pl.Text) {
			near.Offer(i, created)
		}
	}
	if near.Index < 0 {
		return nil, nil
	}
	p := list.Data[near.Index]
	out := &app.Published{ExternalID: p.ID, Permalink: absolute(p.PermalinkURL), Extra: map[string]string{"pageId": page, "type": kind}}
	if out.Permalink == "" {
		out.Permalink = "https://www.facebook.com/" + p.ID
	}
	return out, nil
}

// findStory looks for the story made from the checkpointed photo or video (stories are not in
// published_posts; GET /{page}/stories lists them with their media_id).
func (a *Pages) findStory(ctx context.Context, token, page string, req *app.PublishRequest) (*app.Published, error) {
	media := req.Checkpointed(checkpointPhoto(0))
	if v := req.Checkpointed(checkpointVideo); v != "" {
		media = v
	}
	if media == "" {
		return nil, nil
	}
	var list struct {
		Data []struct {
			PostID  string `json:"post_id"`
			MediaID string `json:"media_id"`
			URL     string `json:"url"`
		} `json:"data"`
	}
	if err := a.api.Do(ctx, core.Request{URL: a.graph + "/" + page + "/stories", Bearer: token}, &list); err != nil {
		return nil, err
	}
	for _, s := range list.Data {
		if s.MediaID == media {
			link := s.URL
			if link == "" {
				link = "https://www.facebook.com/" + s.PostID
			}
			return &app.Published{ExternalID: s.PostID, Permalink: link, Extra: map[string]string{"pageId": page, "type": "STORY"}}, nil
		}
	}
	return nil, nil
}

// Delete removes the post (or video) with the page token.
func (a *Pages) Delete(ctx context.Context, t *app.Token, req *app.DeleteRequest) error {
	_, token, err := a.pageToken(ctx, t, req.Channel)
	if err != nil {
		return err
	}
	var out created
	return a.api.Do(ctx, core.Request{Method: http.MethodDelete, URL: a.graph + "/" + url.PathEscape(req.ExternalID), Bearer: token}, &out)
}

// Reply comments under a post or a comment as the page.
func (a *Pages) Reply(ctx context.Context, t *app.Token, req *app.ReplyRequest) (*app.Published, error) {
	_, token, err := a.pageToken(ctx, t, req.Channel)
	if err != nil {
		return nil, err
	}
	permalink := func(id string) string {
		return "https://www.facebook.com/" + req.ParentExternalID + "?comment_id=" + id
	}
	if id := req.Resume[checkpointComment]; id != "" {
		return &app.Published{ExternalID: id, Permalink: permalink(id)}, nil
	}
	var out created
	if err := a.post(ctx, a.graph, "/"+url.PathEscape(req.ParentExternalID)+"/comments", token, url.Values{"message": {req.Text}}, &out); err != nil {
		return nil, err
	}
	if req.Checkpoint != nil {
		if err := req.Checkpoint(ctx, checkpointComment, out.ID); err != nil {
			return nil, err
		}
	}
	return &app.Published{ExternalID: out.ID, Permalink: permalink(out.ID)}, nil
}

var (
	_ app.Publisher = (*Pages)(nil)
	_ app.Replier   = (*Pages)(nil)
)
