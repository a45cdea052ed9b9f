package sandbox

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"regexp"
	"time"
	"unicode/utf8"
)

// Registered videos are held media (Data type "pinterest-video").
const pinterestMediaKind = KindMedia

var pinterestNumeric = regexp.MustCompile(`^[0-9]+$`)

// Pinterest pins (API v5): POST /v5/pins with every media_source type (image_url and
// multiple_image_urls recorded by URL and never fetched; image_base64 decoded; video_id of a
// processed media), GET/DELETE /v5/pins/{id}, GET /v5/boards/{id}/pins for Find, and the video flow
// POST /v5/media → S3-style form upload to upload_url (POST /sandbox/pinterest/media-upload) →
// GET /v5/media/{id} (registered → processing → succeeded on the second read). Validation and
// messages follow the spec's Pinterest error table. 429s carry X-RateLimit-* headers.
func pinterestPublish(d *dialect) {
	plain := d.writeError
	d.writeError = func(q *req, e apiError) {
		if !e.ResetAt.IsZero() || e.Status == http.StatusTooManyRequests {
			reset := 60
			if !e.ResetAt.IsZero() {
				reset = int(time.Until(e.ResetAt).Seconds() + 0.5)
			}
			q.w.Header().Set("X-RateLimit-Limit", "100")
			q.w.Header().Set("X-RateLimit-Remaining", "0")
			q.w.Header().Set("X-RateLimit-Reset", fmt.Sprint(reset))
		}
		plain(q, e)
	}
	d.routes["POST /v5/pins"] = pinterestCreatePin
	d.routes["GET /v5/pins/{id}"] = pinterestGetPin
	d.routes["DELETE /v5/pins/{id}"] = pinterestDeletePin
	d.routes["GET /v5/boards/{id}/pins"] = pinterestBoardPins
	d.routes["POST /v5/media"] = pinterestRegisterMedia
	d.routes["GET /v5/media/{id}"] = pinterestGetMedia
	if d.unauthenticated == nil {
		d.unauthenticated = map[string]func(q *req){}
	}
	// The S3 form upload: the key names the media, the file is required; 204 like S3.
	d.unauthenticated["POST /media-upload"] = pinterestMediaUpload
}

func pinterestGetPin(q *req) {
	if h := pinterestPin(q); h != nil {
		q.json(http.StatusOK, pinterestPinView(h))
	}
}

func pinterestDeletePin(q *req) {
	if h := pinterestPin(q); h != nil {
		q.net.remove(h)
		q.w.WriteHeader(http.StatusNoContent)
	}
}

func pinterestBoardPins(q *req) {
	board := pathSegment(q, 3)
	if !pinterestOwnsBoard(q, board) {
		q.fail(apiError{Status: http.StatusNotFound, Code: "40", Message: "Board not found."})
		return
	}
	items := []map[string]any{}
	held := q.net.heldBy(KindPost, q.user.Login)
	for i := len(held) - 1; i >= 0; i-- {
		if held[i].Channel == board {
			items = append(items, pinterestPinView(held[i]))
		}
	}
	q.json(http.StatusOK, map[string]any{"items": items, "bookmark": nil})
}

func pinterestRegisterMedia(q *req) {
	var body struct {
		MediaType string `json:"media_type"`
	}
	if !decodeJSON(q.r, &body) || body.MediaType != "video" {
		q.fail(apiError{Status: http.StatusBadRequest, Code: "1", Message: "Invalid parameters. media_type must be video."})
		return
	}
	id := randomDigits(18)
	key := "uploads/" + id[:4] + "/" + id + ".mp4"
	q.net.keep(Held{Kind: pinterestMediaKind, ID: id, User: q.user.Login, Data: map[string]any{"type": "pinterest-video", "status": "registered", "key": key}})
	q.json(http.StatusCreated, map[string]any{"media_id": id, "media_type": "video", "upload_url": baseURL(q) + "/media-upload",
		"upload_parameters": map[string]string{"key": key, "x-amz-date": time.Now().UTC().Format("20060102T150405Z"),
			"x-amz-algorithm": "AWS4-HMAC-SHA256", "x-amz-credential": "SANDBOX/20261123/us-east-1/s3/aws4_request",
			"x-amz-signature": randID(""), "policy": base64.StdEncoding.EncodeToString([]byte(`{"conditions":[]}`)), "Content-Type": "multipart/form-data"}})
}

func pinterestGetMedia(q *req) {
	h := q.net.live(pathSegment(q, 3), pinterestMediaKind)
	if h == nil || h.User != q.user.Login {
		q.fail(apiError{Status: http.StatusNotFound, Code: "4", Message: "Media not found."})
		return
	}
	if h.Data["status"] == "processing" && countPoll(h) >= 1 {
		h.Data["status"] = "succeeded"
	}
	q.json(http.StatusOK, map[string]any{"media_id": h.ID, "media_type": "video", "status": h.Data["status"]})
}

func pinterestMediaUpload(q *req) {
	form := formValues(q.r)
	h := q.net.heldWith(pinterestMediaKind, "key", form.Get("key"))
	file, _, err := q.r.FormFile("file")
	if h == nil || err != nil || form.Get("x-amz-signature") == "" {
		q.w.Header().Set("Content-Type", "application/xml")
		q.w.WriteHeader(http.StatusForbidden)
		_, _ = q.w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Invalid according to Policy: Policy Condition failed</Message></Error>`))
		return
	}
	_ = file.Close()
	h.Data["status"], h.Data["polls"] = "processing", 0
	q.w.WriteHeader(http.StatusNoContent)
}

func pinterestOwnsBoard(q *req, id string) bool {
	for _, c := range q.user.Channels {
		if c.ID == id {
			return true
		}
	}
	return false
}

func pinterestPin(q *req) *Held {
	h := q.net.live(pathSegment(q, 3), KindPost)
	if h == nil || h.User != q.user.Login {
		q.fail(apiError{Status: http.StatusNotFound, Code: "50", Message: "Pin not found."})
		return nil
	}
	return h
}

func pinterestPinView(h *Held) map[string]any {
	out := map[string]any{"id": h.ID, "created_at": h.At.Format("2006-01-02T15:04:05"), "board_id": h.Channel, "board_owner": map[string]string{"username": h.User},
		"title": h.Data["title"], "description": h.Data["description"], "link": h.Data["link"], "alt_text": h.Data["alt_text"],
		"media": map[string]any{"media_type": h.Data["media_type"]}, "creative_type": h.Data["creative_type"]}
	return out
}

func pinterestCreatePin(q *req) {
	var p struct {
		BoardID       string `json:"board_id"`
		Title         string `json:"title"`
		Description   string `json:"description"`
		Link          string `json:"link"`
		AltText       string `json:"alt_text"`
		Note          string `json:"note"`
		DominantColor string `json:"dominant_color"`
		MediaSource   *struct {
			SourceType  string `json:"source_type"`
			URL         string `json:"url"`
			ContentType string `json:"content_type"`
			Data        string `json:"data"`
			Items       []struct {
				URL string `json:"url"`
			} `json:"items"`
			MediaID                string   `json:"media_id"`
			CoverImageURL          string   `json:"cover_image_url"`
			CoverImageKeyFrameTime *float64 `json:"cover_image_key_frame_time"`
		} `json:"media_source"`
	}
	invalid := func(msg string) { q.fail(apiError{Status: http.StatusBadRequest, Code: "1", Message: msg}) }
	if !decodeJSON(q.r, &p) {
		invalid("Invalid request body.")
		return
	}
	switch {
	case !pinterestNumeric.MatchString(p.BoardID):
		invalid("Invalid parameters. board_id must be a numeric string.")
		return
	case !pinterestOwnsBoard(q, p.BoardID):
		q.fail(apiError{Status: http.StatusNotFound, Code: "40", Message: "Board not found."})
		return
	case utf8.RuneCountInString(p.Title) > 100:
		invalid("Invalid parameters. title: maxLength=100")
		return
	case utf8.RuneCountInString(p.Description) > 800:
		invalid("Invalid parameters. description: maxLength=800")
		return
	case utf8.RuneCountInString(p.AltText) > 500:
		invalid("Invalid parameters. alt_text: maxLength=500")
		return
	case p.Link != "" && (len(p.Link) > 2048 || !isFetchableURL(p.Link)):
		invalid("Invalid parameters. link is not a valid URL.")
		return
	case p.MediaSource == nil:
		invalid("Invalid parameters. media_source is required.")
		return
	}
	var media []string
	mediaType, creative := "image", "REGULAR"
	src := p.MediaSource
	switch src.SourceType {
	case "image_url":
		if !isFetchableURL(src.URL) {
			invalid("Invalid image URL: the image could not be fetched.")
			return
		}
		media = []string{src.URL}
	case "image_base64":
		b, err := base64.StdEncoding.DecodeString(src.Data)
		if err != nil || len(b) == 0 || (src.ContentType != "image/jpeg" && src.ContentType != "image/png") {
			invalid("Invalid parameters. image_base64 needs content_type image/jpeg or image/png and base64 data.")
			return
		}
		media = []string{"base64:" + src.ContentType + fmt.Sprintf(":%d bytes", len(b))}
	case "multiple_image_urls":
		if len(src.Items) < 2 || len(src.Items) > 5 {
			invalid(fmt.Sprintf("Invalid parameters. media_source.items: constraint: minItems=2, maxItems=5 (got %d)", len(src.Items)))
			return
		}
		for _, it := range src.Items {
			if !isFetchableURL(it.URL) {
				invalid("Invalid image URL: the image could not be fetched.")
				return
			}
			media = append(media, it.URL)
		}
		mediaType, creative = "multiple_images", "CAROUSEL"
	case "video_id":
		m := q.net.live(src.MediaID, pinterestMediaKind)
		if m == nil || m.User != q.user.Login {
			invalid("Invalid parameters. media_id not found.")
			return
		}
		if m.Data["status"] != "succeeded" {
			invalid("The media is not ready yet: media not ready")
			return
		}
		if src.CoverImageURL == "" && src.CoverImageKeyFrameTime == nil {
			invalid("Invalid parameters. A cover image is required for video pins: cover image required")
			return
		}
		media, mediaType, creative = []string{src.MediaID}, "video", "VIDEO"
	default:
		invalid(fmt.Sprintf("Invalid parameters. media_source.source_type %q is not supported.", src.SourceType))
		return
	}
	id := randomDigits(18)
	h := q.net.keep(Held{Kind: KindPost, ID: id, User: q.user.Login, Channel: p.BoardID, Text: p.Title, Media: media,
		URL: "https://www.pinterest.com/pin/" + id + "/", Data: map[string]any{"title": p.Title, "description": p.Description, "link": p.Link,
			"alt_text": p.AltText, "note": p.Note, "dominant_color": p.DominantColor, "media_type": mediaType, "creative_type": creative,
			"source_type": src.SourceType, "cover_image_url": src.CoverImageURL}})
	q.json(http.StatusCreated, pinterestPinView(h))
}
