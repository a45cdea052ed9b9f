package reddit

import (
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/pubutil"
)

// Publishing: POST /api/submit (form, api_type=json) to the payload's subreddit — kind=self with the
// description as text, kind=link with the link, kind=image/video with an uploaded media URL (and a
// poster for videos); several images make a gallery (POST /api/submit_gallery_post.json). Media
// go through POST /api/media/asset.json (an S3 form upload lease) → multipart POST of the lease's
// fields and the file to https:{action} → the XML's <Location>. Image and video submits do not
// answer the post's id: it is read back from the user's submitted listing (subreddit, title,
// created after the attempt began), where a media post appears once Reddit has processed it: the
// submit is checkpointed ("submitted") and a pause longer than pubutil.InlineWait ends the attempt
// with app.ErrProcessing, the next one reading back again. Ids are fullnames (t3_…); permalinks
// from /api/info.

// Post is the part of a t3 thing Crier reads.
type Post struct {
	ID         string  `json:"id"`
	Name       string  `json:"name"`
	Title      string  `json:"title"`
	Subreddit  string  `json:"subreddit"`
	Permalink  string  `json:"permalink"`
	URL        string  `json:"url"`
	Author     string  `json:"author"`
	CreatedUTC float64 `json:"created_utc"`
}

type listing struct {
	Data struct {
		Children []struct {
			Kind string `json:"kind"`
			Data Post   `json:"data"`
		} `json:"children"`
	} `json:"data"`
}

func payloadOf(req *app.PublishRequest) (*Payload, string, error) {
	p, ok := req.Payload.(*Payload)
	if !ok || p == nil {
		return nil, "", &app.NetworkError{Network: app.Reddit, Class: app.ErrPermanent, Code: "payload", Message: "not a Reddit payload"}
	}
	sr := strings.TrimPrefix(strings.TrimPrefix(p.SR, "/"), "r/")
	if sr == "" && req.Channel != nil {
		sr = req.Channel.ID
	}
	if sr == "" {
		return nil, "", &app.NetworkError{Network: app.Reddit, Class: app.ErrPermanent, Code: "SUBREDDIT_REQUIRED", Message: "no subreddit (sr)"}
	}
	return p, sr, nil
}

func published(p Post) *app.Published {
	link := p.Permalink
	if strings.HasPrefix(link, "/") {
		link = "https://www.reddit.com" + link
	}
	return &app.Published{ExternalID: p.Name, Permalink: link, Extra: map[string]string{"subreddit": p.Subreddit, "id": p.ID}}
}

// Publish submits the post.
func (a *Adapter) Publish(ctx context.Context, t *app.Token, req *app.PublishRequest) (*app.Published, error) {
	p, sr, err := payloadOf(req)
	if err != nil {
		return nil, err
	}
	if name := req.Checkpointed("name"); name != "" {
		if post, err := a.info(ctx, t, name); err == nil && post != nil {
			return published(*post), nil
		}
		return &app.Published{ExternalID: name, Permalink: req.Checkpointed("permalink"), Extra: map[string]string{"subreddit": sr}}, nil
	}
	if req.Checkpointed("submitted") != "" {
		// The submit went through but its post was not read back yet.
		return a.readBack(ctx, t, req, p, sr)
	}
	if req.Checkpointed("startedAt") == "" {
		if err := req.Save(ctx, "startedAt", time.Now().UTC().Format(time.RFC3339Nano)); err != nil {
			return nil, err
		}
	}
	form := url.Values{"api_type": {"json"}, "sr": {sr}, "title": {p.Text}, "sendreplies": {"true"}, "resubmit": {"true"}}
	if p.NSFW {
		form.Set("nsfw", "true")
	}
	if p.FlairID != "" {
		form.Set("flair_id", p.FlairID)
	}
	images := 0
	for _, m := range req.Media {
		if m.Type == "image" {
			images++
		}
	}
	switch {
	case len(req.Media) > 1 && images == len(req.Media):
		return a.gallery(ctx, t, req, p, sr)
	case len(req.Media) > 0:
		m := req.Media[0]
		_, loc, err := a.asset(ctx, t, req, "media.0", m)
		if err != nil {
			return nil, err
		}
		form.Set("url", loc)
		form.Set("kind", "image")
		if m.Type == "video" {
			form.Set("kind", "video")
			if req.Thumbnail == nil {
				return nil, &app.NetworkError{Network: app.Reddit, Class: app.ErrPermanent, Code: "NO_VIDEO_POSTER", Message: "a Reddit video post needs a thumbnail (video_poster_url)"}
			}
			_, poster, err := a.asset(ctx, t, req, "poster", *req.Thumbnail)
			if err != nil {
				return nil, err
			}
			form.Set("video_poster_url", poster)
		}
		if p.Description != "" {
			form.Set("text", p.Description) // (U) body text on media posts, where the subreddit allows it
		}
	case p.Link != "":
		form.Set("kind", "link")
		form.Set("url", p.Link)
		if p.Description != "" {
			form.Set("text", p.Description) // (U) body text on link posts, where the subreddit allows it
		}
	default:
		form.Set("kind", "self")
		form.Set("text", p.Description)
	}
	var out struct {
		JSON struct {
			Data struct {
				ID           string `json:"id"`
				Name         string `json:"name"`
				URL          string `json:"url"`
				WebsocketURL string `json:"websocket_url"`
			} `json:"data"`
		} `json:"json"`
	}
	if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.base + "/api/submit?raw_json=1", Bearer: t.AccessToken, Form: form}, &out); err != nil {
		return nil, err
	}
	if out.JSON.Data.Name == "" {
		if err := req.Save(ctx, "submitted", "1"); err != nil {
			return nil, err
		}
		return a.readBack(ctx, t, req, p, sr)
	}
	return a.done(ctx, t, req, out.JSON.Data.Name, nil)
}

// done checkpoints the post and reads its permalink.
func (a *Adapter) done(ctx context.Context, t *app.Token, req *app.PublishRequest, name string, known *Post) (*app.Published, error) {
	if err := req.Save(ctx, "name", name); err != nil {
		return nil, err
	}
	post, err := known, error(nil)
	if post == nil || post.Permalink == "" {
		post, err = a.info(ctx, t, name)
	}
	if err != nil || post == nil {
		return &app.Published{ExternalID: name, Extra: map[string]string{}}, nil
	}
	_ = req.Save(ctx, "permalink", published(*post).Permalink)
	return published(*post), nil
}

func (a *Adapter) poller() pubutil.Poller {
	if a.Poll.Every > 0 {
		return a.Poll
	}
	return pubutil.Poller{Every: time.Second, Max: 30 * time.Second}
}

// readBack finds the submitted post in the user's listing: media posts appear once Reddit has
// processed them. A pause longer than pubutil.InlineWait ends the attempt with app.ErrProcessing;
// the next attempt finds "submitted" checkpointed and reads back again (the pipeline bounds the
// whole wait).
func (a *Adapter) readBack(ctx context.Context, t *app.Token, req *app.PublishRequest, p *Payload, sr string) (*app.Published, error) {
	for i := 0; ; i++ {
		post, err := a.recent(ctx, t, req, p, sr)
		if err != nil {
			return nil, err
		}
		if post != nil {
			return a.done(ctx, t, req, post.Name, post)
		}
		if err := a.poller().Wait(ctx, i); err != nil {
			return nil, pubutil.StillProcessing(app.Reddit, "the submitted post", err)
		}
	}
}

func (a *Adapter) username(ctx context.Context, t *app.Token, req *app.PublishRequest) (string, error) {
	if req.Account != nil && req.Account.Username != nil && *req.Account.Username != "" {
		return *req.Account.Username, nil
	}
	p, err := a.Profile(ctx, t)
	if err != nil {
		return "", err
	}
	return p.Username, nil
}

// recent looks for the attempt's post among the user's newest submissions.
func (a *Adapter) recent(ctx context.Context, t *app.Token, req *app.PublishRequest, p *Payload, sr string) (*Post, error) {
	user, err := a.username(ctx, t, req)
	if err != nil {
		return nil, err
	}
	since := time.Now().Add(-24 * time.Hour)
	if s, err := time.Parse(time.RFC3339Nano, req.Checkpointed("startedAt")); err == nil {
		since = s.Add(-time.Minute)
	}
	var l listing
	if err := a.api.Do(ctx, core.Request{URL: a.base + "/user/" + url.PathEscape(user) + "/submitted?sort=new&limit=25&raw_json=1", Bearer: t.AccessToken}, &l); err != nil {
		return nil, err
	}
	for _, c := range l.Data.Children {
		d := c.Data
		if strings.EqualFold(d.Subreddit, sr) && d.Title == p.Text && !time.Unix(int64(d.CreatedUTC), 0).Before(since) {
			return &d, nil
		}
	}
	return nil, nil
}

// info reads one thing by fullname (nil when Reddit has none or it was deleted).
func (a *Adapter) info(ctx context.Context, t *app.Token, name string) (*Post, error) {
	var l listing
	if err := a.api.Do(ctx, core.Request{URL: a.base + "/api/info?raw_json=1&id=" + url.QueryEscape(name), Bearer: t.AccessToken}, &l); err != nil {
		return nil, err
	}
	for _, c := range l.Data.Children {
		if c.Data.Name == name && c.Data.Author != "[deleted]" {
			d := c.Data
			return &d, nil
		}
	}
	return nil, nil
}

var locationRe = regexp.MustCompile(`<Location>([^<]+)</Location>`)

// asset uploads one media file (once: checkpointed under key) and answers its asset id and URL.
func (a *Adapter) asset(ctx context.Context, t *app.Token, req *app.PublishRequest, key string, m app.MediaFile) (string, string, error) {
	if v := req.Checkpointed(key); v != "" {
		id, loc, _ := strings.Cut(v, "|")
		return id, loc, nil
	}
	if m.Open == nil {
		return "", "", &app.NetworkError{Network: app.Reddit, Class: app.ErrPermanent, Code: "media", Message: "media " + m.UploadID + " cannot be read"}
	}
	name := m.UploadID
	if ext := strings.TrimPrefix(m.Ext, "."); ext != "" {
		name += "." + ext
	}
	var lease struct {
		Args struct {
			Action string `json:"action"`
			Fields []struct {
				Name  string `json:"name"`
				Value string `json:"value"`
			} `json:"fields"`
		} `json:"args"`
		Asset struct {
			AssetID      string `json:"asset_id"`
			WebsocketURL string `json:"websocket_url"`
		} `json:"asset"`
	}
	if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.base + "/api/media/asset.json", Bearer: t.AccessToken,
		Form: url.Values{"filepath": {name}, "mimetype": {m.Mime}}}, &lease); err != nil {
		return "", "", err
	}
	rc, err := m.Open(ctx)
	if err != nil {
		return "", "", fmt.Errorf("reddit: open media %s: %w", m.UploadID, err)
	}
	defer rc.Close()
	// The S3 form is held in memory: an S3 form upload needs its length.
	body, ctype, err := core.Multipart(func(mw *multipart.Writer) error {
		for _, f := range lease.Args.Fields {
			if err := mw.WriteField(f.Name, f.Value); err != nil {
				return err
			}
		}
		fw, err := mw.CreateFormFile("file", name)
		if err != nil {
			return err
		}
		if _, err := io.Copy(fw, rc); err != nil {
			return fmt.Errorf("reddit: read media %s: %w", m.UploadID, err)
		}
		return nil
	})
	if err != nil {
		return "", "", err
	}
	action := lease.Args.Action
	if strings.HasPrefix(action, "//") {
		// A scheme-relative URL: Reddit's is https; a twin answers its own scheme.
		scheme := "https:"
		if strings.HasPrefix(a.base, "http://") {
			scheme = "http:"
		}
		action = scheme + action
	}
	res, err := a.api.Send(ctx, core.Request{Method: http.MethodPost, URL: action, Body: body, ContentType: ctype}, nil)
	if err != nil {
		return "", "", err
	}
	mm := locationRe.FindSubmatch(res.Body)
	if mm == nil {
		return "", "", &app.NetworkError{Network: app.Reddit, Class: app.ErrTransient, Status: res.Status, Code: "MEDIA_UPLOAD", Message: "no Location in the upload answer"}
	}
	loc, _ := url.PathUnescape(strings.ReplaceAll(string(mm[1]), "&amp;", "&"))
	if err := req.Save(ctx, key, lease.Asset.AssetID+"|"+loc); err != nil {
		return "", "", err
	}
	return lease.Asset.AssetID, loc, nil
}

// gallery submits several images as one gallery post.
func (a *Adapter) gallery(ctx context.Context, t *app.Token, req *app.PublishRequest, p *Payload, sr string) (*app.Published, error) {
	items := []map[string]string{}
	for i, m := range req.Media {
		id, _, err := a.asset(ctx, t, req, "media."+strconv.Itoa(i), m)
		if err != nil {
			return nil, err
		}
		items = append(items, map[string]string{"media_id": id, "caption": m.AltText, "outbound_url": ""})
	}
	body := map[string]any{"api_type": "json", "sr": sr, "title": p.Text, "items": items, "sendreplies": true, "nsfw": p.NSFW, "spoiler": false,
		"show_error_list": true, "validate_on_submit": true}
	if p.FlairID != "" {
		body["flair_id"] = p.FlairID
	}
	if p.Description != "" {
		body["text"] = p.Description
	}
	var out struct {
		JSON struct {
			Data struct {
				ID   string `json:"id"`
				Name string `json:"name"`
				URL  string `json:"url"`
			} `json:"data"`
		} `json:"json"`
	}
	if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.base + "/api/submit_gallery_post.json?raw_json=1", Bearer: t.AccessToken, JSON: body}, &out); err != nil {
		return nil, err
	}
	name := out.JSON.Data.Name
	if name == "" && out.JSON.Data.ID != "" {
		name = "t3_" + strings.TrimPrefix(out.JSON.Data.ID, "t3_")
	}
	if name == "" {
		if err := req.Save(ctx, "submitted", "1"); err != nil {
			return nil, err
		}
		return a.readBack(ctx, t, req, p, sr)
	}
	return a.done(ctx, t, req, name, nil)
}

// Find answers the post of an earlier attempt: by its checkpointed fullname, else the user's
// newest submission to the subreddit with the title, created after the attempt began.
func (a *Adapter) Find(ctx context.Context, t *app.Token, req *app.PublishRequest) (*app.Published, error) {
	p, sr, err := payloadOf(req)
	if err != nil {
		return nil, err
	}
	if name := req.Checkpointed("name"); name != "" {
		post, err := a.info(ctx, t, name)
		if err != nil || post == nil {
			return nil, err
		}
		return published(*post), nil
	}
	post, err := a.recent(ctx, t, req, p, sr)
	if err != nil || post == nil {
		return nil, err
	}
	return published(*post), nil
}

// Delete removes the post (POST /api/del).
func (a *Adapter) Delete(ctx context.Context, t *app.Token, req *app.DeleteRequest) error {
	return a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.base + "/api/del", Bearer: t.AccessToken, Form: url.Values{"id": {req.ExternalID}}}, nil)
}

// Reply comments under a post (t3_) or a comment (t1_).
func (a *Adapter) Reply(ctx context.Context, t *app.Token, req *app.ReplyRequest) (*app.Published, error) {
	if name := req.Resume["name"]; name != "" {
		return &app.Published{ExternalID: name, Permalink: req.Resume["permalink"], Extra: map[string]string{}}, nil
	}
	parent := req.ParentExternalID
	if !strings.HasPrefix(parent, "t3_") && !strings.HasPrefix(parent, "t1_") {
		parent = "t3_" + parent
	}
	var out struct {
		JSON struct {
			Data struct {
				Things []struct {
					Kind string `json:"kind"`
					Data struct {
						ID        string `json:"id"`
						Name      string `json:"name"`
						Permalink string `json:"permalink"`
						Subreddit string `json:"subreddit"`
					} `json:"data"`
				} `json:"things"`
			} `json:"data"`
		} `json:"json"`
	}
	if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.base + "/api/comment?raw_json=1", Bearer: t.AccessToken,
		Form: url.Values{"api_type": {"json"}, "thing_id": {parent}, "text": {req.Text}}}, &out); err != nil {
		return nil, err
	}
	if len(out.JSON.Data.Things) == 0 {
		return nil, &app.NetworkError{Network: app.Reddit, Class: app.ErrTransient, Message: "the comment answer holds no comment"}
	}
	c := out.JSON.Data.Things[0].Data
	link := c.Permalink
	if strings.HasPrefix(link, "/") {
		link = "https://www.reddit.com" + link
	}
	if req.Checkpoint != nil {
		if err := req.Checkpoint(ctx, "name", c.Name); err != nil {
			return nil, err
		}
		_ = req.Checkpoint(ctx, "permalink", link)
	}
	return &app.Published{ExternalID: c.Name, Permalink: link, Extra: map[string]string{"subreddit": c.Subreddit, "parent": parent}}, nil
}

var (
	_ app.Publisher = (*Adapter)(nil)
	_ app.Replier   = (*Adapter)(nil)
)
