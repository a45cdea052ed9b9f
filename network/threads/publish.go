package threads

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/pubutil"
)

// Publishing: the container flow — POST /{user-id}/threads (media_type TEXT|IMAGE|VIDEO|CAROUSEL,
// text, image_url/video_url pulled by Threads from the uploads' signed URLs, alt_text,
// reply_control, topic_tag, link_attachment, poll_attachment, gif_attachment,
// allowlisted_country_codes, reply_to_id) → GET /{container}?fields=status,error_message polled
// until FINISHED (a pause longer than pubutil.InlineWait ends the attempt with app.ErrProcessing;
// the next one resumes from the checkpointed container) → POST /{user-id}/threads_publish?creation_id=
// → GET /{id}?fields=permalink. Carousels publish item containers (is_carousel_item) first. Every
// container and the published id are checkpointed; a retry whose container is already PUBLISHED
// looks the post up instead of publishing again.

func (a *Adapter) graph(path string) string { return a.base + "/v1.0/" + strings.TrimPrefix(path, "/") }

func (a *Adapter) userID(ctx context.Context, t *app.Token, acc *app.SocialAccount) (string, error) {
	if acc != nil && acc.ExternalID != nil && *acc.ExternalID != "" {
		return *acc.ExternalID, nil
	}
	p, err := a.Profile(ctx, t)
	if err != nil {
		return "", err
	}
	return p.ExternalID, nil
}

// container creates one media container.
func (a *Adapter) container(ctx context.Context, t *app.Token, uid string, form url.Values) (string, error) {
	var out struct {
		ID string `json:"id"`
	}
	if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.graph(uid + "/threads"), Bearer: t.AccessToken, Form: form}, &out); err != nil {
		return "", err
	}
	return out.ID, nil
}

// poller paces container polls: a quick second look (text and image containers are usually
// ready at once), then, as videos take tens of seconds (Meta suggests about 30 s), the attempt
// yields and the target runs again later, resuming from the checkpointed container.
func (a *Adapter) poller() pubutil.Poller {
	if a.Poll.Every > 0 {
		return a.Poll
	}
	return pubutil.Poller{Every: time.Second, Max: 30 * time.Second}
}

// wait polls a container until it is FINISHED (or PUBLISHED); the status is answered. A container
// still processing past pubutil.InlineWait ends the attempt with app.ErrProcessing.
func (a *Adapter) wait(ctx context.Context, t *app.Token, id string) (string, error) {
	for i := 0; ; i++ {
		var st struct {
			Status       string `json:"status"`
			ErrorMessage string `json:"error_message"`
		}
		if err := a.api.Do(ctx, core.Request{URL: a.graph(id + "?fields=status,error_message"), Bearer: t.AccessToken}, &st); err != nil {
			return "", err
		}
		switch st.Status {
		case "FINISHED", "PUBLISHED", "":
			return st.Status, nil
		case "ERROR", "EXPIRED":
			msg := st.ErrorMessage
			if msg == "" {
				msg = "the media container is " + st.Status
			}
			return "", &app.NetworkError{Network: app.Threads, Class: app.ErrPermanent, Code: st.Status, Message: msg}
		}
		if err := a.poller().Wait(ctx, i); err != nil {
			return "", pubutil.StillProcessing(app.Threads, "the media container", err)
		}
	}
}

func mediaForm(m app.MediaFile) url.Values {
	f := url.Values{}
	if m.Type == "video" {
		f.Set("media_type", "VIDEO")
		f.Set("video_url", m.URL)
	} else {
		f.Set("media_type", "IMAGE")
		f.Set("image_url", m.URL)
	}
	if m.AltText != "" {
		f.Set("alt_text", m.AltText)
	}
	return f
}

// Publish creates the container(s) and publishes the post.
func (a *Adapter) Publish(ctx context.Context, t *app.Token, req *app.PublishRequest) (*app.Published, error) {
	p, ok := req.Payload.(*Payload)
	if !ok || p == nil {
		return nil, &app.NetworkError{Network: app.Threads, Class: app.ErrPermanent, Code: "payload", Message: "not a Threads payload"}
	}
	if id := req.Checkpointed("post"); id != "" {
		return a.published(ctx, t, id)
	}
	uid, err := a.userID(ctx, t, req.Account)
	if err != nil {
		return nil, err
	}
	if req.Checkpointed("startedAt") == "" {
		if err := req.Save(ctx, "startedAt", time.Now().UTC().Format(time.RFC3339Nano)); err != nil {
			return nil, err
		}
	}
	creation := req.Checkpointed("container")
	if creation == "" {
		form := url.Values{}
		switch {
		case len(req.Media) > 1:
			var children []string
			for i, m := range req.Media {
				key := "child." + strconv.Itoa(i)
				id := req.Checkpointed(key)
				if id == "" {
					f := mediaForm(m)
					f.Set("is_carousel_item", "true")
					if id, err = a.container(ctx, t, uid, f); err != nil {
						return nil, err
					}
					if err := req.Save(ctx, key, id); err != nil {
						return nil, err
					}
				}
				children = append(children, id)
			}
			for _, id := range children {
				if _, err := a.wait(ctx, t, id); err != nil {
					return nil, err
				}
			}
			form.Set("media_type", "CAROUSEL")
			form.Set("children", strings.Join(children, ","))
		case len(req.Media) == 1:
			form = mediaForm(req.Media[0])
		default:
			form.Set("media_type", "TEXT")
			if p.LinkAttachment != "" {
				form.Set("link_attachment", p.LinkAttachment)
			}
			if p.Poll != nil {
				poll := map[string]string{"option_a": p.Poll.OptionA, "option_b": p.Poll.OptionB}
				if p.Poll.OptionC != "" {
					poll["option_c"] = p.Poll.OptionC
				}
				if p.Poll.OptionD != "" {
					poll["option_d"] = p.Poll.OptionD
				}
				j, _ := json.Marshal(poll)
				form.Set("poll_attachment", string(j))
			}
			if p.GIF != nil && p.GIF.GIFID != "" {
				provider := p.GIF.Provider
				if provider == "" {
					provider = "GIPHY"
				}
				j, _ := json.Marshal(map[string]string{"gif_id": p.GIF.GIFID, "provider": strings.ToUpper(provider)})
				form.Set("gif_attachment", string(j))
			}
		}
		if p.Text != "" {
			form.Set("text", p.Text)
		}
		if p.ReplyControl != "" {
			form.Set("reply_control", strings.ToLower(p.ReplyControl))
		}
		if p.TopicTag != "" {
			form.Set("topic_tag", strings.TrimPrefix(p.TopicTag, "#"))
		}
		if len(p.AllowlistedCountryCodes) > 0 {
			form.Set("allowlisted_country_codes", strings.Join(p.AllowlistedCountryCodes, ","))
		}
		if creation, err = a.container(ctx, t, uid, form); err != nil {
			return nil, err
		}
		if err := req.Save(ctx, "container", creation); err != nil {
			return nil, err
		}
	}
	return a.publishContainer(ctx, t, uid, creation, req.Save, func() (*app.Published, error) { return a.Find(ctx, t, req) })
}

// publishContainer waits for a container and publishes it; a container found PUBLISHED already
// (an earlier attempt's answer was lost) is looked up with lookup instead.
func (a *Adapter) publishContainer(ctx context.Context, t *app.Token, uid, creation string, save func(context.Context, string, string) error,
	lookup func() (*app.Published, error)) (*app.Published, error) {
	status, err := a.wait(ctx, t, creation)
	if err != nil {
		return nil, err
	}
	if status == "PUBLISHED" {
		p, err := lookup()
		if err != nil {
			return nil, err
		}
		if p == nil {
			return nil, &app.NetworkError{Network: app.Threads, Class: app.ErrTransient, Code: "PUBLISHED", Message: "the container is published but its post is not listed yet"}
		}
		return p, save(ctx, "post", p.ExternalID)
	}
	var out struct {
		ID string `json:"id"`
	}
	if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.graph(uid + "/threads_publish"), Bearer: t.AccessToken,
		Form: url.Values{"creation_id": {creation}}}, &out); err != nil {
		return nil, err
	}
	if err := save(ctx, "post", out.ID); err != nil {
		return nil, err
	}
	return a.published(ctx, t, out.ID)
}

// Media is the part of a Threads media object Crier reads.
type Media struct {
	ID        string `json:"id"`
	Text      string `json:"text"`
	Permalink string `json:"permalink"`
	Timestamp string `json:"timestamp"`
	IsReply   bool   `json:"is_reply"`
}

func (a *Adapter) get(ctx context.Context, t *app.Token, id string) (*Media, error) {
	var m Media
	if err := a.api.Do(ctx, core.Request{URL: a.graph(id + "?fields=id,permalink,text,timestamp"), Bearer: t.AccessToken}, &m); err != nil {
		if ne, ok := err.(*app.NetworkError); ok && (ne.Status == http.StatusNotFound || ne.Code == "100" || strings.HasPrefix(ne.Code, "100/")) {
			return nil, nil
		}
		return nil, err
	}
	return &m, nil
}

func (a *Adapter) published(ctx context.Context, t *app.Token, id string) (*app.Published, error) {
	m, err := a.get(ctx, t, id)
	if err != nil {
		return nil, err
	}
	link := ""
	if m != nil {
		link = m.Permalink
	}
	return &app.Published{ExternalID: id, Permalink: link, Extra: map[string]string{}}, nil
}

// Find answers the post of an earlier attempt: by its checkpointed id, else the account's recent
// thread with the text published since the attempt began.
func (a *Adapter) Find(ctx context.Context, t *app.Token, req *app.PublishRequest) (*app.Published, error) {
	if id := req.Checkpointed("post"); id != "" {
		m, err := a.get(ctx, t, id)
		if err != nil || m == nil {
			return nil, err
		}
		return &app.Published{ExternalID: m.ID, Permalink: m.Permalink, Extra: map[string]string{}}, nil
	}
	uid, err := a.userID(ctx, t, req.Account)
	if err != nil {
		return nil, err
	}
	since := time.Now().Add(-24 * time.Hour)
	if s, err := time.Parse(time.RFC3339Nano, req.Checkpointed("startedAt")); err == nil {
		since = s.Add(-time.Minute)
	}
	text := ""
	if req.Payload != nil {
		text = req.Payload.Body()
	}
	// Every thread since the attempt, a page of 100 at a time (cursor paging, newest first).
	q := url.Values{"fields": {"id,text,timestamp,permalink"}, "limit": {"100"}, "since": {strconv.FormatInt(since.Unix(), 10)}}
	for page := 0; page < maxFindPages; page++ {
		var out struct {
			Data   []Media `json:"data"`
			Paging struct {
				Cursors struct {
					After string `json:"after"`
				} `json:"cursors"`
				Next string `json:"next"`
			} `json:"paging"`
		}
		if err := a.api.Do(ctx, core.Request{URL: a.graph(uid + "/threads?" + q.Encode()), Bearer: t.AccessToken}, &out); err != nil {
			return nil, err
		}
		for _, m := range out.Data {
			if m.Text == text {
				return &app.Published{ExternalID: m.ID, Permalink: m.Permalink, Extra: map[string]string{}}, nil
			}
		}
		if out.Paging.Next == "" || out.Paging.Cursors.After == "" {
			return nil, nil
		}
		q.Set("after", out.Paging.Cursors.After)
	}
	return nil, nil
}

// maxFindPages bounds a reconciliation's reading of the profile's threads.
const maxFindPages = 10

// Delete removes the post (DELETE /{id}, scope threads_delete).
func (a *Adapter) Delete(ctx context.Context, t *app.Token, req *app.DeleteRequest) error {
	return a.api.Do(ctx, core.Request{Method: http.MethodDelete, URL: a.graph(req.ExternalID), Bearer: t.AccessToken}, nil)
}

// Reply publishes a text reply (a container with reply_to_id, then threads_publish).
func (a *Adapter) Reply(ctx context.Context, t *app.Token, req *app.ReplyRequest) (*app.Published, error) {
	resume := map[string]string{}
	for k, v := range req.Resume {
		resume[k] = v
	}
	save := func(ctx context.Context, k, v string) error {
		resume[k] = v
		if req.Checkpoint != nil {
			return req.Checkpoint(ctx, k, v)
		}
		return nil
	}
	if id := resume["post"]; id != "" {
		return a.published(ctx, t, id)
	}
	uid, err := a.userID(ctx, t, req.Account)
	if err != nil {
		return nil, err
	}
	creation := resume["container"]
	if creation == "" {
		if creation, err = a.container(ctx, t, uid, url.Values{"media_type": {"TEXT"}, "text": {req.Text}, "reply_to_id": {req.ParentExternalID}}); err != nil {
			return nil, err
		}
		if err := save(ctx, "container", creation); err != nil {
			return nil, err
		}
	}
	return a.publishContainer(ctx, t, uid, creation, save, func() (*app.Published, error) {
		var out struct {
			Data []Media `json:"data"`
		}
		if err := a.api.Do(ctx, core.Request{URL: a.graph(req.ParentExternalID + "/replies?fields=id,text,permalink,timestamp"), Bearer: t.AccessToken}, &out); err != nil {
			return nil, err
		}
		for _, m := range out.Data {
			if m.Text == req.Text {
				return &app.Published{ExternalID: m.ID, Permalink: m.Permalink, Extra: map[string]string{}}, nil
			}
		}
		return nil, nil
	})
}

var (
	_ app.Publisher = (*Adapter)(nil)
	_ app.Replier   = (*Adapter)(nil)
)
