package pinterest

// Publishing pins (API v5): POST /v5/pins on a board with title, description, link, alt_text,
// note, dominant_color and a media_source — image_url (Pinterest pulls it; image_base64 when the
// upload has no URL), multiple_image_urls for a 2–5 image carousel, or video_id for a video
// registered with POST /v5/media, sent to its S3 upload_url as a form, and polled with
// GET /v5/media/{id} until succeeded (cover: the thumbnail's URL, else the first frame).
// Checkpoints: the media id, the upload, the attempt marker, the pin id. Find reads the
// checkpointed pin, else the board's pins created after the attempt with the same title and
// description. Delete is DELETE /v5/pins/{id}. Pinterest v5 has no comments: no Replier.

import (
	"context"
	"encoding/base64"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/pubutil"
)

const (
	checkpointMedia    = "pinterest.media"
	checkpointUploaded = "pinterest.uploaded"
	checkpointPin      = "pinterest.pin"
)

type mediaSource struct {
	SourceType             string      `json:"source_type"`
	URL                    string      `json:"url,omitempty"`
	ContentType            string      `json:"content_type,omitempty"`
	Data                   string      `json:"data,omitempty"`
	Items                  []imageItem `json:"items,omitempty"`
	MediaID                string      `json:"media_id,omitempty"`
	CoverImageURL          string      `json:"cover_image_url,omitempty"`
	CoverImageKeyFrameTime *float64    `json:"cover_image_key_frame_time,omitempty"`
}

type imageItem struct {
	URL string `json:"url"`
}

type pin struct {
	ID          string `json:"id"`
	CreatedAt   string `json:"created_at"`
	Title       string `json:"title"`
	Description string `json:"description"`
	BoardID     string `json:"board_id"`
}

func permalink(id string) string { return "https://www.pinterest.com/pin/" + id + "/" }

func (p *pin) published() *app.Published {
	return &app.Published{ExternalID: p.ID, Permalink: permalink(p.ID), Extra: map[string]string{"boardId": p.BoardID}}
}

func (a *Adapter) poller() pubutil.Poller {
	if a.Poll.Every > 0 {
		return a.Poll
	}
	return pubutil.Poller{Every: 2 * time.Second, Max: 15 * time.Second}
}

// board answers the board id: the request's channel, else the payload's board found by name.
func (a *Adapter) board(ctx context.Context, t *app.Token, req *app.PublishRequest) (string, error) {
	if req.Channel != nil && req.Channel.ID != "" {
		return req.Channel.ID, nil
	}
	pl, _ := req.Payload.(*Payload)
	if pl == nil || pl.BoardName == "" {
		return "", pubutil.Refused(app.Pinterest, "the pin has no board")
	}
	boards, err := a.Channels(ctx, t)
	if err != nil {
		return "", err
	}
	for _, b := range boards {
		if b.Name != nil && strings.EqualFold(*b.Name, pl.BoardName) {
			return b.ID, nil
		}
	}
	return "", pubutil.Refused(app.Pinterest, "Board not found: no board named %q on this account", pl.BoardName)
}

// Publish creates the pin.
func (a *Adapter) Publish(ctx context.Context, t *app.Token, req *app.PublishRequest) (*app.Published, error) {
	if id := req.Checkpointed(checkpointPin); id != "" {
		return a.get(ctx, t, id)
	}
	pl, _ := req.Payload.(*Payload)
	if pl == nil {
		return nil, pubutil.Refused(app.Pinterest, "the post has no PINTEREST payload")
	}
	boardID, err := a.board(ctx, t, req)
	if err != nil {
		return nil, err
	}
	src, err := a.source(ctx, t, req)
	if err != nil {
		return nil, err
	}
	alt := pl.AltText
	if alt == "" && len(req.Media) == 1 {
		alt = req.Media[0].AltText
	}
	body := map[string]any{"board_id": boardID, "media_source": src}
	for k, v := range map[string]string{"title": pl.Text, "description": pl.Description, "link": pl.Link, "alt_text": alt,
		"note": pl.Note, "dominant_color": pl.DominantColor} {
		if v != "" {
			body[k] = v
		}
	}
	if err := pubutil.MarkAttempt(ctx, req); err != nil {
		return nil, err
	}
	var out pin
	if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.base + "/v5/pins", Bearer: t.AccessToken, JSON: body}, &out); err != nil {
		return nil, err
	}
	if err := req.Save(ctx, checkpointPin, out.ID); err != nil {
		return nil, err
	}
	if out.BoardID == "" {
		out.BoardID = boardID
	}
	return out.published(), nil
}

// source builds the media_source: images by URL (carousels of 2–5), a video through /v5/media.
func (a *Adapter) source(ctx context.Context, t *app.Token, req *app.PublishRequest) (*mediaSource, error) {
	images, videos := pubutil.Kinds(req.Media)
	switch {
	case len(req.Media) == 0:
		return nil, pubutil.Refused(app.Pinterest, "a pin needs an image or a video")
	case videos > 0 && len(req.Media) > 1:
		return nil, pubutil.Refused(app.Pinterest, "a video pin takes exactly one video")
	case videos == 1:
		return a.video(ctx, t, req)
	case images > 5:
		return nil, pubutil.Refused(app.Pinterest, "a carousel pin takes 2 to 5 images, not %d", images)
	case images > 1:
		src := &mediaSource{SourceType: "multiple_image_urls"}
		for _, m := range req.Media {
			if m.URL == "" {
				return nil, pubutil.Refused(app.Pinterest, "upload %s has no public URL", m.UploadID)
			}
			src.Items = append(src.Items, imageItem{URL: m.URL})
		}
		return src, nil
	}
	m := req.Media[0]
	if m.URL != "" {
		return &mediaSource{SourceType: "image_url", URL: m.URL}, nil
	}
	b, err := pubutil.Bytes(ctx, m)
	if err != nil {
		return nil, err
	}
	return &mediaSource{SourceType: "image_base64", ContentType: m.Mime, Data: base64.StdEncoding.EncodeToString(b)}, nil
}

// video registers, uploads and waits for the video, resuming from the checkpoints.
func (a *Adapter) video(ctx context.Context, t *app.Token, req *app.PublishRequest) (*mediaSource, error) {
	mediaID := req.Checkpointed(checkpointMedia)
	if mediaID == "" || req.Checkpointed(checkpointUploaded) == "" {
		var reg struct {
			MediaID          string            `json:"media_id"`
			UploadURL        string            `json:"upload_url"`
			UploadParameters map[string]string `json:"upload_parameters"`
		}
		// A registration whose upload did not finish is registered again (the upload URL's policy
		// expires; an unused media object is harmless).
		if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.base + "/v5/media", Bearer: t.AccessToken,
			JSON: map[string]string{"media_type": "video"}}, &reg); err != nil {
			return nil, err
		}
		if err := req.Save(ctx, checkpointMedia, reg.MediaID); err != nil {
			return nil, err
		}
		if err := a.upload(ctx, reg.UploadURL, reg.UploadParameters, req.Media[0]); err != nil {
			return nil, err
		}
		if err := req.Save(ctx, checkpointUploaded, "1"); err != nil {
			return nil, err
		}
		mediaID = reg.MediaID
	}
	for i := 0; ; i++ {
		var st struct {
			Status string `json:"status"`
		}
		if err := a.api.Do(ctx, core.Request{URL: a.base + "/v5/media/" + url.PathEscape(mediaID), Bearer: t.AccessToken}, &st); err != nil {
			return nil, err
		}
		if st.Status == "succeeded" {
			break
		}
		if st.Status == "failed" {
			return nil, &app.NetworkError{Network: app.Pinterest, Class: app.ErrPermanent, Status: http.StatusOK, Code: "failed",
				Message: "Pinterest could not process the video (media status failed)"}
		}
		if err := a.poller().Wait(ctx, i); err != nil {
			return nil, pubutil.StillProcessing(app.Pinterest, "the video", err)
		}
	}
	src := &mediaSource{SourceType: "video_id", MediaID: mediaID}
	if req.Thumbnail != nil && req.Thumbnail.URL != "" {
		src.CoverImageURL = req.Thumbnail.URL
	} else {
		first := 0.0
		src.CoverImageKeyFrameTime = &first
	}
	return src, nil
}

// upload posts the video to the S3 form Pinterest answered (every parameter, then the file), held
// in memory: an S3 form upload needs its length.
func (a *Adapter) upload(ctx context.Context, to string, params map[string]string, m app.MediaFile) error {
	b, err := pubutil.Bytes(ctx, m)
	if err != nil {
		return err
	}
	body, ctype, err := core.Multipart(func(w *multipart.Writer) error {
		for k, v := range params {
			if err := w.WriteField(k, v); err != nil {
				return err
			}
		}
		fw, err := w.CreateFormFile("file", m.UploadID+"."+m.Ext)
		if err != nil {
			return err
		}
		_, err = fw.Write(b)
		return err
	})
	if err != nil {
		return err
	}
	return a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: to, Body: body, ContentType: ctype}, nil)
}

func (a *Adapter) get(ctx context.Context, t *app.Token, id string) (*app.Published, error) {
	var out pin
	if err := a.api.Do(ctx, core.Request{URL: a.base + "/v5/pins/" + url.PathEscape(id), Bearer: t.AccessToken}, &out); err != nil {
		return nil, err
	}
	return out.published(), nil
}

// Find answers the checkpointed pin, else the board's pin made after the attempt.
func (a *Adapter) Find(ctx context.Context, t *app.Token, req *app.PublishRequest) (*app.Published, error) {
	if id := req.Checkpointed(checkpointPin); id != "" {
		p, err := a.get(ctx, t, id)
		if err != nil && app.ClassOf(err) == app.ErrPermanent {
			return nil, nil
		}
		return p, err
	}
	at, ok := pubutil.AttemptAt(req)
	if !ok {
		return nil, nil
	}
	pl, _ := req.Payload.(*Payload)
	if pl == nil {
		return nil, nil
	}
	boardID, err := a.board(ctx, t, req)
	if err != nil {
		return nil, err
	}
	var page struct {
		Items []pin `json:"items"`
	}
	if err := a.api.Do(ctx, core.Request{URL: a.base + "/v5/boards/" + url.PathEscape(boardID) + "/pins?page_size=100", Bearer: t.AccessToken}, &page); err != nil {
		return nil, err
	}
	near := pubutil.NewNearest(at)
	for i, p := range page.Items {
		created, err := parseCreated(p.CreatedAt)
		if err == nil && pubutil.SameText(p.Title, pl.Text) && pubutil.SameText(p.Description, pl.Description) {
			near.Offer(i, created)
		}
	}
	if near.Index < 0 {
		return nil, nil
	}
	p := page.Items[near.Index]
	if p.BoardID == "" {
		p.BoardID = boardID
	}
	return p.published(), nil
}

// parseCreated reads created_at ("2020-01-01T20:10:40", UTC without a zone).
func parseCreated(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	return time.Parse("2006-01-02T15:04:05", s)
}

// Delete removes the pin.
func (a *Adapter) Delete(ctx context.Context, t *app.Token, req *app.DeleteRequest) error {
	return a.api.Do(ctx, core.Request{Method: http.MethodDelete, URL: a.base + "/v5/pins/" + url.PathEscape(req.ExternalID), Bearer: t.AccessToken}, nil)
}

var _ app.Publisher = (*Adapter)(nil)
