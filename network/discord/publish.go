package discord

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/pubutil"
)

// Publishing: POST /channels/{id}/messages with the bot token — JSON {content} for text, multipart
// (payload_json + files[n]) with attachments. The message carries a nonce derived from the attempt
// key with enforce_nonce, so Discord itself answers the first message again when the same attempt
// is sent twice within its dedupe window (a few minutes). Replies are messages with a
// message_reference to the parent in the same channel.

// Message is the part of Discord's Message object Crier reads.
type Message struct {
	ID        string    `json:"id"`
	ChannelID string    `json:"channel_id"`
	Content   string    `json:"content"`
	Timestamp time.Time `json:"timestamp"`
	Nonce     any       `json:"nonce"`
	Author    struct {
		ID  string `json:"id"`
		Bot bool   `json:"bot"`
	} `json:"author"`
}

// Nonce is the message nonce of an attempt (Discord caps nonces at 25 characters).
func Nonce(attemptKey string) string {
	sum := sha256.Sum256([]byte(attemptKey))
	return hex.EncodeToString(sum[:])[:25]
}

func (a *Adapter) published(t *app.Token, channel, id string) *app.Published {
	return &app.Published{ExternalID: id, Permalink: "https://discord.com/channels/" + t.Secrets["guildId"] + "/" + channel + "/" + id,
		Extra: map[string]string{"channel": channel, "guild": t.Secrets["guildId"]}}
}

// Publish posts the message (text and attachments) to the payload's channel.
func (a *Adapter) Publish(ctx context.Context, t *app.Token, req *app.PublishRequest) (*app.Published, error) {
	p, channel, err := pubutil.Chat(app.Discord, req)
	if err != nil {
		return nil, err
	}
	if id := req.Checkpointed("message"); id != "" {
		return a.published(t, req.Checkpointed("channel"), id), nil
	}
	if err := req.Save(ctx, "startedAt", time.Now().UTC().Format(time.RFC3339Nano)); err != nil {
		return nil, err
	}
	m, err := a.send(ctx, channel, map[string]any{"content": p.Text, "nonce": Nonce(req.AttemptKey), "enforce_nonce": true}, req.Media)
	if err != nil {
		return nil, err
	}
	if err := req.Save(ctx, "channel", channel); err != nil {
		return nil, err
	}
	if err := req.Save(ctx, "message", m.ID); err != nil {
		return nil, err
	}
	return a.published(t, channel, m.ID), nil
}

// send creates a message: JSON without files, multipart with them.
func (a *Adapter) send(ctx context.Context, channel string, payload map[string]any, media []app.MediaFile) (*Message, error) {
	r := a.asBot("/channels/" + url.PathEscape(channel) + "/messages")
	r.Method = http.MethodPost
	if len(media) == 0 {
		r.JSON = payload
	} else {
		body, ctype, err := multipartBody(ctx, payload, media)
		if err != nil {
			return nil, err
		}
		r.Body, r.ContentType = body, ctype
	}
	var m Message
	if err := a.api.Do(ctx, r, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// multipartBody is the message's form: payload_json (with the attachments' names and descriptions),
// then files[n].
func multipartBody(ctx context.Context, payload map[string]any, media []app.MediaFile) (*bytes.Buffer, string, error) {
	atts := []map[string]any{}
	for i, f := range media {
		name := filename(f, i)
		att := map[string]any{"id": i, "filename": name}
		if f.AltText != "" {
			att["description"] = f.AltText
		}
		atts = append(atts, att)
	}
	payload["attachments"] = atts
	pj, _ := json.Marshal(payload)
	return core.Multipart(func(mw *multipart.Writer) error {
		if err := mw.WriteField("payload_json", string(pj)); err != nil {
			return err
		}
		for i, f := range media {
			if err := copyFile(ctx, mw, fmt.Sprintf("files[%d]", i), filename(f, i), f); err != nil {
				return err
			}
		}
		return nil
	})
}

func filename(f app.MediaFile, i int) string {
	ext := strings.TrimPrefix(f.Ext, ".")
	if ext == "" {
		ext = "bin"
	}
	name := f.UploadID
	if name == "" {
		name = fmt.Sprintf("file%d", i)
	}
	return name + "." + ext
}

func copyFile(ctx context.Context, mw *multipart.Writer, field, name string, f app.MediaFile) error {
	if f.Open == nil {
		return &app.NetworkError{Network: app.Discord, Class: app.ErrPermanent, Code: "media", Message: "media " + f.UploadID + " cannot be read"}
	}
	rc, err := f.Open(ctx)
	if err != nil {
		return fmt.Errorf("discord: open media %s: %w", f.UploadID, err)
	}
	defer rc.Close()
	w, err := mw.CreateFormFile(field, name)
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, rc); err != nil {
		return fmt.Errorf("discord: read media %s: %w", f.UploadID, err)
	}
	return nil
}

// Find answers the message an earlier attempt sent: by its checkpointed id, else among the
// channel's last 50 messages the bot's one with the attempt's nonce or text, sent after it began.
func (a *Adapter) Find(ctx context.Context, t *app.Token, req *app.PublishRequest) (*app.Published, error) {
	p, channel, err := pubutil.Chat(app.Discord, req)
	if err != nil {
		return nil, err
	}
	if id := req.Checkpointed("message"); id != "" {
		if c := req.Checkpointed("channel"); c != "" {
			channel = c
		}
		var m Message
		err := a.api.Do(ctx, a.asBot("/channels/"+url.PathEscape(channel)+"/messages/"+url.PathEscape(id)), &m)
		if err != nil {
			if ne, ok := err.(*app.NetworkError); ok && (ne.Status == http.StatusNotFound || ne.Code == "10008") {
				return nil, nil
			}
			return nil, err
		}
		return a.published(t, channel, m.ID), nil
	}
	since := time.Now().Add(-24 * time.Hour)
	if s, err := time.Parse(time.RFC3339Nano, req.Checkpointed("startedAt")); err == nil {
		since = s.Add(-time.Minute)
	}
	var ms []Message
	if err := a.api.Do(ctx, a.asBot("/channels/"+url.PathEscape(channel)+"/messages?limit=50"), &ms); err != nil {
		return nil, err
	}
	nonce := Nonce(req.AttemptKey)
	for _, m := range ms {
		if fmt.Sprint(m.Nonce) == nonce || (m.Author.Bot && m.Content == p.Text && !m.Timestamp.Before(since)) {
			return a.published(t, channel, m.ID), nil
		}
	}
	return nil, nil
}

// Delete removes the message.
func (a *Adapter) Delete(ctx context.Context, t *app.Token, req *app.DeleteRequest) error {
	channel := req.Extra["channel"]
	if channel == "" && req.Channel != nil {
		channel = req.Channel.ID
	}
	r := a.asBot("/channels/" + url.PathEscape(channel) + "/messages/" + url.PathEscape(req.ExternalID))
	r.Method = http.MethodDelete
	err := a.api.Do(ctx, r, nil)
	if ne, ok := err.(*app.NetworkError); ok && ne.Code == "10008" {
		return nil // already gone
	}
	return err
}

// Reply answers a message in its channel (a message_reference to the parent).
func (a *Adapter) Reply(ctx context.Context, t *app.Token, req *app.ReplyRequest) (*app.Published, error) {
	channel := req.ParentExtra["channel"]
	if channel == "" && req.Channel != nil {
		channel = req.Channel.ID
	}
	if id := req.Resume["message"]; id != "" {
		return a.published(t, channel, id), nil
	}
	m, err := a.send(ctx, channel, map[string]any{"content": req.Text, "nonce": Nonce(req.AttemptKey), "enforce_nonce": true,
		"message_reference": map[string]any{"message_id": req.ParentExternalID, "channel_id": channel, "fail_if_not_exists": true}}, nil)
	if err != nil {
		return nil, err
	}
	if req.Checkpoint != nil {
		if err := req.Checkpoint(ctx, "message", m.ID); err != nil {
			return nil, err
		}
	}
	return a.published(t, channel, m.ID), nil
}

var (
	_ app.Publisher = (*Adapter)(nil)
	_ app.Replier   = (*Adapter)(nil)
)
