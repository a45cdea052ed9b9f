package mastodon

import (
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/pubutil"
)

// Publishing (app.Publisher, app.Replier, app.ReplyFinder), per Mastodon's API:
//
//   - media: POST /api/v2/media (multipart: file, description, thumbnail) answers 200 when processed
//     or 202 with url null while it processes; GET /api/v1/media/:id answers 206 until processing
//     ends, then 200. Each media id is checkpointed ("media:<upload id>") before it is polled, so a
//     retry reuses it; a pause longer than pubutil.InlineWait ends the attempt with
//     app.ErrProcessing and the next attempt polls the same media.
//   - status: POST /api/v1/statuses with media_ids[], visibility, spoiler_text (in_reply_to_id for
//     replies) and Idempotency-Key = the attempt key: Mastodon answers a repeated key with the
//     status it already made (for an hour), so even a blind retry cannot post twice.
//   - Find: GET /api/v1/accounts/:id/statuses (newest first) and the status whose text is the
//     payload's (and that replies to the same parent, for replies).
//   - Delete: DELETE /api/v1/statuses/:id (an already deleted status is not an error).

var (
	_ app.Publisher   = (*Adapter)(nil)
	_ app.Replier     = (*Adapter)(nil)
	_ app.ReplyFinder = (*Adapter)(nil)
)

func (a *Adapter) poller() pubutil.Poller {
	if a.Poll.Every > 0 {
		return a.Poll
	}
	return pubutil.Poller{Every: time.Second, Max: 30 * time.Second}
}

// status is Mastodon's Status entity (the fields Crier reads).
type status struct {
	ID          string `json:"id"`
	URL         string `json:"url"`
	URI         string `json:"uri"`
	Content     string `json:"content"`
	InReplyToID string `json:"in_reply_to_id"`
	CreatedAt   string `json:"created_at"`
}

// attachment is Mastodon's MediaAttachment entity.
type attachment struct {
	ID   string  `json:"id"`
	Type string  `json:"type"`
	URL  *string `json:"url"`
}

var visibility = map[string]string{"PUBLIC": "public", "UNLISTED": "unlisted", "PRIVATE": "private", "DIRECT": "direct"}

// Publish posts a status with its media.
func (a *Adapter) Publish(ctx context.Context, t *app.Token, req *app.PublishRequest) (*app.Published, error) {
	server := t.Secrets["serverUrl"]
	p, ok := req.Payload.(*Payload)
	if !ok {
		return nil, &app.NetworkError{Network: app.Mastodon, Class: app.ErrPermanent, Message: "not a Mastodon payload"}
	}
	mediaIDs := make([]string, 0, len(req.Media))
	for _, m := range req.Media {
		key := "media:" + m.UploadID
		id := req.Checkpointed(key)
		if id == "" {
			var err error
			if id, err = a.uploadMedia(ctx, server, t.AccessToken, m, req.Thumbnail); err != nil {
				return nil, err
			}
			if err := req.Save(ctx, key, id); err != nil {
				return nil, err
			}
		}
		if err := a.waitMedia(ctx, server, t.AccessToken, id); err != nil {
			return nil, err
		}
		mediaIDs = append(mediaIDs, id)
	}
	body := map[string]any{"status": p.Text}
	if len(mediaIDs) > 0 {
		body["media_ids"] = mediaIDs
	}
	if v := visibility[p.Privacy]; v != "" {
		body["visibility"] = v
	}
	if p.Spoiler != "" {
		body["spoiler_text"] = p.Spoiler
	}
	var st status
	if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.at(server) + "/api/v1/statuses", Bearer: t.AccessToken, JSON: body,
		Header: map[string]string{"Idempotency-Key": req.AttemptKey}}, &st); err != nil {
		return nil, err
	}
	return published(st), nil
}

func published(st status) *app.Published {
	out := &app.Published{ExternalID: st.ID, Permalink: st.URL}
	if st.URI != "" {
		out.Extra = map[string]string{"uri": st.URI}
	}
	return out
}

// uploadMedia sends one file (streamed) and answers its media id.
func (a *Adapter) uploadMedia(ctx context.Context, server, token string, m app.MediaFile, thumb *app.MediaFile) (string, error) {
	if m.Open == nil {
		return "", &app.NetworkError{Network: app.Mastodon, Class: app.ErrPermanent, Message: "media " + m.UploadID + " cannot be read"}
	}
	body, ctype := core.MultipartStream(func(mw *multipart.Writer) error {
		if err := writePart(ctx, mw, "file", m); err != nil {
			return err
		}
		if m.Type == "video" && thumb != nil && thumb.Open != nil {
			if err := writePart(ctx, mw, "thumbnail", *thumb); err != nil {
				return err
			}
		}
		if m.AltText != "" {
			return mw.WriteField("description", m.AltText)
		}
		return nil
	})
	var at attachment
	res, err := a.api.Send(ctx, core.Request{Method: http.MethodPost, URL: a.at(server) + "/api/v2/media", Bearer: token, Body: body, ContentType: ctype}, &at)
	if err != nil {
		return "", err
	}
	if at.ID == "" {
		return "", &app.NetworkError{Network: app.Mastodon, Class: app.ErrTransient, Status: res.Status, Message: "unexpected media answer"}
	}
	return at.ID, nil
}

func writePart(ctx context.Context, mw *multipart.Writer, field string, m app.MediaFile) error {
	rc, err := m.Open(ctx)
	if err != nil {
		return fmt.Errorf("mastodon: open media %s: %w", m.UploadID, err)
	}
	defer rc.Close()
	name := m.UploadID
	if m.Ext != "" {
		name += "." + strings.TrimPrefix(m.Ext, ".")
	}
	h := make(map[string][]string)
	h["Content-Disposition"] = []string{fmt.Sprintf(`form-data; name=%q; filename=%q`, field, name)}
	h["Content-Type"] = []string{m.Mime}
	w, err := mw.CreatePart(h)
	if err != nil {
		return err
	}
	_, err = io.Copy(w, rc)
	return err
}

// waitMedia polls GET /api/v1/media/:id until the media is processed (url set); past
// pubutil.InlineWait the attempt ends with app.ErrProcessing.
func (a *Adapter) waitMedia(ctx context.Context, server, token, id string) error {
	for i := 0; ; i++ {
		var at attachment
		if err := a.api.Do(ctx, core.Request{URL: a.at(server) + "/api/v1/media/" + url.PathEscape(id), Bearer: token}, &at); err != nil {
			return err
		}
		if at.URL != nil && *at.URL != "" {
			return nil
		}
		if err := a.poller().Wait(ctx, i); err != nil {
			return pubutil.StillProcessing(app.Mastodon, "the media", err)
		}
	}
}

// Find looks for the status an earlier attempt made among the account's recent statuses.
func (a *Adapter) Find(ctx context.Context, t *app.Token, req *app.PublishRequest) (*app.Published, error) {
	p, ok := req.Payload.(*Payload)
	if !ok || req.Account == nil || req.Account.ExternalID == nil {
		return nil, nil
	}
	return a.findStatus(ctx, t, *req.Account.ExternalID, p.Text, "")
}

func (a *Adapter) findStatus(ctx context.Context, t *app.Token, accountID, text, parent string) (*app.Published, error) {
	var list []status
	u := a.at(t.Secrets["serverUrl"]) + "/api/v1/accounts/" + url.PathEscape(accountID) + "/statuses?limit=40"
	if err := a.api.Do(ctx, core.Request{URL: u, Bearer: t.AccessToken}, &list); err != nil {
		return nil, err
	}
	want := normalize(text)
	for _, st := range list {
		if normalize(PlainText(st.Content)) == want && (parent == "" || st.InReplyToID == parent) {
			return published(st), nil
		}
	}
	return nil, nil
}

// Delete removes a status.
func (a *Adapter) Delete(ctx context.Context, t *app.Token, req *app.DeleteRequest) error {
	err := a.api.Do(ctx, core.Request{Method: http.MethodDelete, URL: a.at(t.Secrets["serverUrl"]) + "/api/v1/statuses/" + url.PathEscape(req.ExternalID), Bearer: t.AccessToken}, nil)
	var ne *app.NetworkError
	if errors.As(err, &ne) && ne.Status == http.StatusNotFound {
		return nil
	}
	return err
}

// Reply posts a status in reply to another (first comments, Crier's comments).
func (a *Adapter) Reply(ctx context.Context, t *app.Token, req *app.ReplyRequest) (*app.Published, error) {
	body := map[string]any{"status": req.Text, "in_reply_to_id": req.ParentExternalID}
	var st status
	if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.at(t.Secrets["serverUrl"]) + "/api/v1/statuses", Bearer: t.AccessToken, JSON: body,
		Header: map[string]string{"Idempotency-Key": req.AttemptKey}}, &st); err != nil {
		return nil, err
	}
	return published(st), nil
}

// FindReply looks for a reply an earlier attempt made.
func (a *Adapter) FindReply(ctx context.Context, t *app.Token, req *app.ReplyRequest) (*app.Published, error) {
	if req.Account == nil || req.Account.ExternalID == nil {
		return nil, nil
	}
	return a.findStatus(ctx, t, *req.Account.ExternalID, req.Text, req.ParentExternalID)
}

var (
	tags   = regexp.MustCompile(`<[^>]*>`)
	breaks = regexp.MustCompile(`(?i)<br\s*/?>|</p>\s*<p>`)
	spaces = regexp.MustCompile(`\s+`)
)

// PlainText turns a status's HTML content into its text.
func PlainText(content string) string {
	return html.UnescapeString(tags.ReplaceAllString(breaks.ReplaceAllString(content, "\n"), ""))
}

func normalize(s string) string { return strings.TrimSpace(spaces.ReplaceAllString(s, " ")) }
