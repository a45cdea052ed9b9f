package slack

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/pubutil"
)

// Publishing with the bot token: text is chat.postMessage {channel, text, username, icon_url};
// files go through the upload v2 flow — files.getUploadURLExternal (form: filename, length) → POST
// the bytes to upload_url → files.completeUploadExternal {files, channel_id, initial_comment} —
// which shares them in the channel as one message whose ts is read back from the channel's history
// (shared asynchronously: polled; a pause longer than pubutil.InlineWait ends the attempt with
// app.ErrProcessing, and the next attempt, the files and their sharing checkpointed, reads again).
// The message is the pair (channel, ts); the permalink comes from chat.getPermalink. Replies are chat.postMessage with thread_ts.

type postAnswer struct {
	Channel string `json:"channel"`
	TS      string `json:"ts"`
}

// Permalink is Slack's archive link form, used when chat.getPermalink cannot be read.
func Permalink(channel, ts string) string {
	return "https://slack.com/archives/" + channel + "/p" + strings.ReplaceAll(ts, ".", "")
}

func (a *Adapter) published(ctx context.Context, t *app.Token, channel, ts string, files []string) *app.Published {
	var out struct {
		Permalink string `json:"permalink"`
	}
	link := Permalink(channel, ts)
	err := a.api.Do(ctx, core.Request{URL: a.base + "/chat.getPermalink?channel=" + url.QueryEscape(channel) + "&message_ts=" + url.QueryEscape(ts), Bearer: t.AccessToken}, &out)
	if err == nil && out.Permalink != "" {
		link = out.Permalink
	}
	extra := map[string]string{"channel": channel, "ts": ts}
	if len(files) > 0 {
		extra["files"] = strings.Join(files, ",")
	}
	return &app.Published{ExternalID: ts, Permalink: link, Extra: extra}
}

// Publish posts the message (and its files) to the payload's channel.
func (a *Adapter) Publish(ctx context.Context, t *app.Token, req *app.PublishRequest) (*app.Published, error) {
	p, channel, err := pubutil.Chat(app.Slack, req)
	if err != nil {
		return nil, err
	}
	var files []string
	if s := req.Checkpointed("files"); s != "" {
		files = strings.Split(s, ",")
	}
	if ts := req.Checkpointed("ts"); ts != "" {
		return a.published(ctx, t, channel, ts, files), nil
	}
	if req.Checkpointed("startedAt") == "" {
		if err := req.Save(ctx, "startedAt", time.Now().UTC().Format(time.RFC3339Nano)); err != nil {
			return nil, err
		}
	}
	if len(req.Media) == 0 {
		body := map[string]any{"channel": channel, "text": p.Text, "unfurl_links": true}
		if p.Username != "" {
			body["username"] = p.Username
		}
		if p.AvatarURL != "" {
			body["icon_url"] = p.AvatarURL
		}
		var out postAnswer
		if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.base + "/chat.postMessage", Bearer: t.AccessToken, JSON: body}, &out); err != nil {
			return nil, err
		}
		if err := req.Save(ctx, "ts", out.TS); err != nil {
			return nil, err
		}
		return a.published(ctx, t, out.Channel, out.TS, nil), nil
	}
	// Files: upload each once (checkpointed), then share them all in one message.
	for i, f := range req.Media {
		if i < len(files) {
			continue
		}
		id, err := a.upload(ctx, t, f, i)
		if err != nil {
			return nil, err
		}
		files = append(files, id)
		if err := req.Save(ctx, "files", strings.Join(files, ",")); err != nil {
			return nil, err
		}
	}
	if req.Checkpointed("shared") == "" {
		list := []map[string]string{}
		for i, id := range files {
			list = append(list, map[string]string{"id": id, "title": title(req.Media[i], i)})
		}
		lj, _ := json.Marshal(list)
		form := url.Values{"files": {string(lj)}, "channel_id": {channel}}
		if p.Text != "" {
			form.Set("initial_comment", p.Text)
		}
		if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.base + "/files.completeUploadExternal", Bearer: t.AccessToken, Form: form}, nil); err != nil {
			return nil, err
		}
		if err := req.Save(ctx, "shared", "1"); err != nil {
			return nil, err
		}
	}
	ts, err := a.sharedTS(ctx, t, files[0], channel)
	if err != nil {
		return nil, err
	}
	if err := req.Save(ctx, "ts", ts); err != nil {
		return nil, err
	}
	return a.published(ctx, t, channel, ts, files), nil
}

func title(f app.MediaFile, i int) string {
	if f.AltText != "" {
		return f.AltText
	}
	return filename(f, i)
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

// upload sends one file's bytes: an upload URL, then the bytes.
func (a *Adapter) upload(ctx context.Context, t *app.Token, f app.MediaFile, i int) (string, error) {
	if f.Open == nil {
		return "", &app.NetworkError{Network: app.Slack, Class: app.ErrPermanent, Code: "media", Message: "media " + f.UploadID + " cannot be read"}
	}
	rc, err := f.Open(ctx)
	if err != nil {
		return "", fmt.Errorf("slack: open media %s: %w", f.UploadID, err)
	}
	data, err := io.ReadAll(rc)
	_ = rc.Close()
	if err != nil {
		return "", fmt.Errorf("slack: read media %s: %w", f.UploadID, err)
	}
	var up struct {
		UploadURL string `json:"upload_url"`
		FileID    string `json:"file_id"`
	}
	form := url.Values{"filename": {filename(f, i)}, "length": {strconv.Itoa(len(data))}}
	if f.AltText != "" && f.Type == "image" {
		form.Set("alt_txt", f.AltText)
	}
	if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.base + "/files.getUploadURLExternal", Bearer: t.AccessToken, Form: form}, &up); err != nil {
		return "", err
	}
	ctype := f.Mime
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: up.UploadURL, Body: bytes.NewReader(data), ContentType: ctype}, nil); err != nil {
		return "", err
	}
	return up.FileID, nil
}

func (a *Adapter) poller() pubutil.Poller {
	if a.Poll.Every > 0 {
		return a.Poll
	}
	return pubutil.Poller{Every: 500 * time.Millisecond, Max: 10 * time.Second}
}

// sharedTS reads the ts of the message that shared a file in channel: the bot's message carrying
// the file in the channel's history (channels:history / groups:history; files.info would need
// files:read, which the install does not ask). Slack shares asynchronously, so it is polled; a
// pause longer than pubutil.InlineWait ends the attempt with app.ErrProcessing (the pipeline
// bounds the whole wait).
func (a *Adapter) sharedTS(ctx context.Context, t *app.Token, file, channel string) (string, error) {
	for i := 0; ; i++ {
		ms, err := a.history(ctx, t, url.Values{"channel": {channel}, "limit": {"50"}})
		if err != nil {
			return "", err
		}
		for _, m := range ms {
			for _, f := range m.Files {
				if f.ID == file {
					return m.TS, nil
				}
			}
		}
		if err := a.poller().Wait(ctx, i); err != nil {
			return "", pubutil.StillProcessing(app.Slack, "the file share", err)
		}
	}
}

type historyMessage struct {
	TS    string `json:"ts"`
	Text  string `json:"text"`
	User  string `json:"user"`
	BotID string `json:"bot_id"`
	Files []struct {
		ID string `json:"id"`
	} `json:"files"`
}

func (a *Adapter) history(ctx context.Context, t *app.Token, q url.Values) ([]historyMessage, error) {
	var out struct {
		Messages []historyMessage `json:"messages"`
	}
	err := a.api.Do(ctx, core.Request{URL: a.base + "/conversations.history?" + q.Encode(), Bearer: t.AccessToken}, &out)
	return out.Messages, err
}

// Find answers the message of an earlier attempt: by its checkpointed ts, by a shared file, else
// the bot's message with the payload's text posted after the attempt began.
func (a *Adapter) Find(ctx context.Context, t *app.Token, req *app.PublishRequest) (*app.Published, error) {
	p, channel, err := pubutil.Chat(app.Slack, req)
	if err != nil {
		return nil, err
	}
	var files []string
	if s := req.Checkpointed("files"); s != "" {
		files = strings.Split(s, ",")
	}
	if ts := req.Checkpointed("ts"); ts != "" {
		ms, err := a.history(ctx, t, url.Values{"channel": {channel}, "latest": {ts}, "oldest": {ts}, "inclusive": {"true"}, "limit": {"1"}})
		if err != nil {
			return nil, err
		}
		if len(ms) == 0 || ms[0].TS != ts {
			return nil, nil
		}
		return a.published(ctx, t, channel, ts, files), nil
	}
	since := time.Now().Add(-24 * time.Hour)
	if s, err := time.Parse(time.RFC3339Nano, req.Checkpointed("startedAt")); err == nil {
		since = s.Add(-time.Minute)
	}
	ms, err := a.history(ctx, t, url.Values{"channel": {channel}, "oldest": {fmt.Sprintf("%d.000000", since.Unix())}, "limit": {"100"}})
	if err != nil {
		return nil, err
	}
	bot := t.Secrets["botUserId"]
	for _, m := range ms {
		if len(files) > 0 {
			for _, f := range m.Files {
				if f.ID == files[0] {
					return a.published(ctx, t, channel, m.TS, files), nil
				}
			}
			continue
		}
		if m.Text == p.Text && (m.BotID != "" || (bot != "" && m.User == bot)) {
			return a.published(ctx, t, channel, m.TS, nil), nil
		}
	}
	return nil, nil
}

// Delete removes the message (chat.delete) and the files it shared.
func (a *Adapter) Delete(ctx context.Context, t *app.Token, req *app.DeleteRequest) error {
	channel := req.Extra["channel"]
	if channel == "" && req.Channel != nil {
		channel = req.Channel.ID
	}
	err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.base + "/chat.delete", Bearer: t.AccessToken,
		JSON: map[string]string{"channel": channel, "ts": req.ExternalID}}, nil)
	if ne, ok := err.(*app.NetworkError); ok && ne.Code == "message_not_found" {
		err = nil
	}
	if err != nil {
		return err
	}
	if s := req.Extra["files"]; s != "" {
		for _, id := range strings.Split(s, ",") {
			_ = a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.base + "/files.delete", Bearer: t.AccessToken, JSON: map[string]string{"file": id}}, nil)
		}
	}
	return nil
}

// Reply posts in the parent message's thread.
func (a *Adapter) Reply(ctx context.Context, t *app.Token, req *app.ReplyRequest) (*app.Published, error) {
	channel := req.ParentExtra["channel"]
	if channel == "" && req.Channel != nil {
		channel = req.Channel.ID
	}
	if ts := req.Resume["ts"]; ts != "" {
		return a.published(ctx, t, channel, ts, nil), nil
	}
	var out postAnswer
	if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.base + "/chat.postMessage", Bearer: t.AccessToken,
		JSON: map[string]any{"channel": channel, "text": req.Text, "thread_ts": req.ParentExternalID}}, &out); err != nil {
		return nil, err
	}
	if req.Checkpoint != nil {
		if err := req.Checkpoint(ctx, "ts", out.TS); err != nil {
			return nil, err
		}
	}
	return a.published(ctx, t, out.Channel, out.TS, nil), nil
}

var (
	_ app.Publisher = (*Adapter)(nil)
	_ app.Replier   = (*Adapter)(nil)
)
