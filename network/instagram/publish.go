package instagram

// Publishing to an Instagram professional account (Content Publishing API, Facebook Login):
// create a media container — image (image_url, alt_text, user_tags, location_id, collaborators),
// REELS for every video (video_url, share_to_feed, cover_url / thumb_offset, trial_params,
// collaborators, user_tags, location_id), STORIES (image_url or video_url), or CAROUSEL (2–10
// children created with is_carousel_item=true, then the parent with children and caption) — poll
// GET /{container}?fields=status_code,status until FINISHED, then POST /{ig}/media_publish with
// creation_id and read the permalink. Meta pulls the media URLs.
//
// Every container id is checkpointed, so a retry publishes the containers it already made instead
// of re-creating them; an EXPIRED container (24 h) is made again. Find reads the checkpointed media,
// else — when the container already shows PUBLISHED, or no container state is known — the account's
// recent media (or stories) made after the attempt with the same caption. Reply comments
// (POST /{media}/comments) or answers a comment (POST /{comment}/replies). Delete is
// DELETE /{media} (recent, Facebook Login only (U)).
//
// An Instagram Login account (login.go) publishes the same way on graph.instagram.com, to its own
// id with its user token; account() picks the Graph and the id from the token.

import (
	"context"
	"encoding/json"
	"errors"
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

const (
	checkpointContainer = "instagram.container"
	checkpointMedia     = "instagram.media"
	checkpointComment   = "instagram.comment"
)

func checkpointChild(i int) string { return "instagram.child." + strconv.Itoa(i) }

func (a *Adapter) poller() pubutil.Poller {
	if a.Poll.Every > 0 {
		return a.Poll
	}
	return pubutil.Poller{Every: 3 * time.Second, Max: 30 * time.Second}
}

// graphKey carries the Graph base of the account being published to (graph.facebook.com for
// Facebook Login, graph.instagram.com for Instagram Login).
type graphKey struct{}

func (a *Adapter) graphOf(ctx context.Context) string {
	if g, ok := ctx.Value(graphKey{}).(string); ok && g != "" {
		return g
	}
	return a.Graph()
}

// account answers the Instagram account and the token to publish with, and a context naming the
// Graph to call. Facebook Login: its page's token (the channel's, or the one kept in the token's
// Secrets), else the user token. Instagram Login: the account itself (me.user_id, kept at
// exchange) with the user token, on graph.instagram.com.
func (a *Adapter) account(ctx context.Context, t *app.Token, acct *app.SocialAccount, ch *app.Channel) (context.Context, string, string, error) {
	if viaLogin(t, acct) {
		id := ""
		if t != nil {
			id = t.Secrets[SecretUserID]
		}
		if id == "" && acct != nil && acct.ExternalID != nil {
			id = *acct.ExternalID
		}
		if id == "" || t == nil {
			return ctx, "", "", pubutil.Refused(app.Instagram, "the Instagram Login connection has no account id; connect it again")
		}
		return context.WithValue(ctx, graphKey{}, a.loginGraph()), id, t.AccessToken, nil
	}
	id, token := meta.ChannelToken(t, ch)
	if id == "" {
		return ctx, "", "", pubutil.Refused(app.Instagram, "no Instagram account is selected for this connection")
	}
	if token == "" {
		token = t.AccessToken
	}
	return ctx, id, token, nil
}

type tag struct {
	Username string   `json:"username"`
	X        *float64 `json:"x,omitempty"`
	Y        *float64 `json:"y,omitempty"`
}

func userTags(tags []Tag, positioned bool) string {
	if len(tags) == 0 {
		return ""
	}
	out := make([]tag, 0, len(tags))
	for _, t := range tags {
		tg := tag{Username: strings.TrimPrefix(t.Username, "@")}
		if positioned {
			x, y := t.X, t.Y
			tg.X, tg.Y = &x, &y
		}
		out = append(out, tg)
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// item is one medium of the post with its per-item options.
type item struct {
	file app.MediaFile
	alt  string
	tags []Tag
}

func items(pl *Payload, media []app.MediaFile) []item {
	out := make([]item, 0, len(media))
	for i, m := range media {
		it := item{file: m, alt: m.AltText}
		if len(pl.CarouselItems) > i {
			if pl.CarouselItems[i].AltText != "" {
				it.alt = pl.CarouselItems[i].AltText
			}
			it.tags = pl.CarouselItems[i].Tagged
		} else if len(media) == 1 {
			it.tags = pl.Tagged
			if pl.AltText != "" {
				it.alt = pl.AltText
			}
		}
		out = append(out, it)
	}
	return out
}

// Publish creates the containers, waits for them, and publishes.
func (a *Adapter) Publish(ctx context.Context, t *app.Token, req *app.PublishRequest) (*app.Published, error) {
	ctx, ig, token, err := a.account(ctx, t, req.Account, req.Channel)
	if err != nil {
		return nil, err
	}
	pl, _ := req.Payload.(*Payload)
	if pl == nil {
		return nil, pubutil.Refused(app.Instagram, "the post has no INSTAGRAM payload")
	}
	if id := req.Checkpointed(checkpointMedia); id != "" {
		return a.published(ctx, token, id), nil
	}
	kind := pl.Type
	if kind == "" {
		kind = "POST"
	}
	its := items(pl, req.Media)
	switch {
	case len(its) == 0:
		return nil, pubutil.Refused(app.Instagram, "an Instagram post needs at least one image or video")
	case kind == "STORY" && len(its) != 1:
		return nil, pubutil.Refused(app.Instagram, "a story takes exactly one image or video")
	case kind == "REEL" && (len(its) != 1 || !pubutil.IsVideo(its[0].file)):
		return nil, pubutil.Refused(app.Instagram, "a reel takes exactly one video")
	case len(its) > 10:
		return nil, pubutil.Refused(app.Instagram, "a carousel takes 2 to 10 items, not %d", len(its))
	}
	container := req.Checkpointed(checkpointContainer)
	if container != "" {
		switch status, _, err := a.status(ctx, token, container); {
		case err != nil:
			return nil, err
		case status == "PUBLISHED":
			// The publish answer was lost: the media exists; find it instead of publishing again.
			if p, err := a.Find(ctx, t, req); err != nil || p != nil {
				return p, err
			}
			return nil, &app.NetworkError{Network: app.Instagram, Class: app.ErrTransient, Status: http.StatusOK, Code: "PUBLISHED",
				Message: "the container was published but the media is not listed yet"}
		case status == "EXPIRED":
			container = "" // made again below
		}
	}
	if container == "" {
		if err := a.quota(ctx, ig, token); err != nil {
			return nil, err
		}
		if container, err = a.containers(ctx, ig, token, kind, pl, its, req); err != nil {
			return nil, err
		}
	}
	if err := a.wait(ctx, token, container); err != nil {
		return nil, err
	}
	if err := pubutil.MarkAttempt(ctx, req); err != nil {
		return nil, err
	}
	var out struct {
		ID string `json:"id"`
	}
	if err := a.API().Do(ctx, core.Request{Method: http.MethodPost, URL: a.graphOf(ctx) + "/" + ig + "/media_publish", Bearer: token,
		Form: url.Values{"creation_id": {container}}}, &out); err != nil {
		var ne *app.NetworkError
		if errors.As(err, &ne) && ne.Code == "9007/2207027" {
			ne.Class = app.ErrTransient // "The media is not ready for publishing, please wait for a moment"
		}
		if errors.As(err, &ne) && strings.HasSuffix(ne.Code, "/2207042") {
			ne.Class, ne.ResetAt = app.ErrRateLimited, time.Now().Add(quotaRecheck) // the 24-hour publishing cap
		}
		return nil, err
	}
	if err := req.Save(ctx, checkpointMedia, out.ID); err != nil {
		return nil, err
	}
	p := a.published(ctx, token, out.ID)
	p.Extra["container"] = container
	return p, nil
}

// containers creates the post's container (and a carousel's children), checkpointing each.
func (a *Adapter) containers(ctx context.Context, ig, token, kind string, pl *Payload, its []item, req *app.PublishRequest) (string, error) {
	common := url.Values{}
	if len(pl.Collaborators) > 0 && kind != "STORY" {
		b, _ := json.Marshal(pl.Collaborators)
		common.Set("collaborators", string(b))
	}
	if pl.LocationID != "" && kind != "STORY" {
		common.Set("location_id", pl.LocationID)
	}
	if kind != "STORY" && pl.Text != "" {
		common.Set("caption", pl.Text)
	}
	if len(its) == 1 {
		form := a.single(kind, pl, its[0], req)
		for k, v := range common {
			form[k] = v
		}
		return a.create(ctx, ig, token, form, checkpointContainer, req)
	}
	children := make([]string, len(its))
	for i, it := range its {
		if id := req.Checkpointed(checkpointChild(i)); id != "" {
			children[i] = id
			continue
		}
		form := url.Values{"is_carousel_item": {"true"}}
		if pubutil.IsVideo(it.file) {
			form.Set("media_type", "VIDEO")
			form.Set("video_url", it.file.URL)
		} else {
			form.Set("image_url", it.file.URL)
			if it.alt != "" {
				form.Set("alt_text", it.alt)
			}
			if s := userTags(it.tags, true); s != "" {
				form.Set("user_tags", s)
			}
		}
		id, err := a.create(ctx, ig, token, form, checkpointChild(i), req)
		if err != nil {
			return "", err
		}
		children[i] = id
	}
	for _, c := range children {
		if err := a.wait(ctx, token, c); err != nil {
			return "", err
		}
	}
	form := url.Values{"media_type": {"CAROUSEL"}, "children": {strings.Join(children, ",")}}
	for k, v := range common {
		form[k] = v
	}
	return a.create(ctx, ig, token, form, checkpointContainer, req)
}

// quotaRecheck is how long a target waits when the rolling 24-hour publishing cap is reached
// (Meta gives no reset time; posts leave the window one by one).
const quotaRecheck = time.Hour

// quota reads content_publishing_limit and defers the publish when the cap is used up.
func (a *Adapter) quota(ctx context.Context, ig, token string) error {
	var out struct {
		Data []struct {
			QuotaUsage int `json:"quota_usage"`
			Config     struct {
				QuotaTotal int `json:"quota_total"`
			} `json:"config"`
		} `json:"data"`
	}
	if err := a.API().Do(ctx, core.Request{URL: a.graphOf(ctx) + "/" + ig + "/content_publishing_limit?fields=quota_usage,config", Bearer: token}, &out); err != nil {
		return err
	}
	if len(out.Data) > 0 && out.Data[0].Config.QuotaTotal > 0 && out.Data[0].QuotaUsage >= out.Data[0].Config.QuotaTotal {
		return &app.NetworkError{Network: app.Instagram, Class: app.ErrRateLimited, Status: http.StatusOK, Code: "content_publishing_limit",
			Message: fmt.Sprintf("The account has published %d posts in 24 hours, Instagram's limit", out.Data[0].QuotaUsage), ResetAt: time.Now().Add(quotaRecheck)}
	}
	return nil
}

// single is the form of a one-medium container.
func (a *Adapter) single(kind string, pl *Payload, it item, req *app.PublishRequest) url.Values {
	form := url.Values{}
	video := pubutil.IsVideo(it.file)
	if video {
		form.Set("video_url", it.file.URL)
	} else {
		form.Set("image_url", it.file.URL)
	}
	switch {
	case kind == "STORY":
		form.Set("media_type", "STORIES")
	case video:
		form.Set("media_type", "REELS")
		share := pl.ShareToFeed == nil || *pl.ShareToFeed
		form.Set("share_to_feed", strconv.FormatBool(share))
		if req.Thumbnail != nil && req.Thumbnail.URL != "" {
			form.Set("cover_url", req.Thumbnail.URL)
		} else if pl.ThumbnailOffset > 0 {
			form.Set("thumb_offset", strconv.FormatInt(int64(pl.ThumbnailOffset), 10))
		}
		if pl.TrialParams != nil && pl.TrialParams.GraduationStrategy != "" {
			b, _ := json.Marshal(map[string]string{"graduation_strategy": pl.TrialParams.GraduationStrategy})
			form.Set("trial_params", string(b))
		}
		if s := userTags(it.tags, false); s != "" {
			form.Set("user_tags", s)
		}
	default:
		if it.alt != "" {
			form.Set("alt_text", it.alt)
		}
		if s := userTags(it.tags, true); s != "" {
			form.Set("user_tags", s)
		}
	}
	return form
}

func (a *Adapter) create(ctx context.Context, ig, token string, form url.Values, key string, req *app.PublishRequest) (string, error) {
	for _, k := range []string{"image_url", "video_url"} {
		if v, ok := form[k]; ok && (len(v) == 0 || v[0] == "") {
			return "", pubutil.Refused(app.Instagram, "an upload has no public URL for Instagram to fetch")
		}
	}
	var out struct {
		ID string `json:"id"`
	}
	if err := a.API().Do(ctx, core.Request{Method: http.MethodPost, URL: a.graphOf(ctx) + "/" + ig + "/media", Bearer: token, Form: form}, &out); err != nil {
		return "", err
	}
	return out.ID, req.Save(ctx, key, out.ID)
}

// status reads a container's status_code (and its status text, which carries the error).
func (a *Adapter) status(ctx context.Context, token, container string) (string, string, error) {
	var out struct {
		StatusCode string `json:"status_code"`
		Status     string `json:"status"`
	}
	err := a.API().Do(ctx, core.Request{URL: a.graphOf(ctx) + "/" + container + "?fields=status_code,status", Bearer: token}, &out)
	return out.StatusCode, out.Status, err
}

// wait polls a container until FINISHED (ERROR and EXPIRED are permanent for this container).
func (a *Adapter) wait(ctx context.Context, token, container string) error {
	for i := 0; ; i++ {
		code, status, err := a.status(ctx, token, container)
		if err != nil {
			return err
		}
		switch code {
		case "FINISHED", "PUBLISHED":
			return nil
		case "ERROR", "EXPIRED":
			msg := status
			if msg == "" {
				msg = "the media container is " + code
			}
			return &app.NetworkError{Network: app.Instagram, Class: app.ErrPermanent, Status: http.StatusOK, Code: code, Message: msg}
		}
		if err := a.poller().Wait(ctx, i); err != nil {
			return pubutil.StillProcessing(app.Instagram, "the media container", err)
		}
	}
}

// published reads the media's permalink (falling back to none: the media exists either way).
func (a *Adapter) published(ctx context.Context, token, id string) *app.Published {
	var out struct {
		Permalink string `json:"permalink"`
	}
	_ = a.API().Do(ctx, core.Request{URL: a.graphOf(ctx) + "/" + id + "?fields=id,permalink,shortcode", Bearer: token}, &out)
	return &app.Published{ExternalID: id, Permalink: out.Permalink, Extra: map[string]string{"kind": "media", "permalink": out.Permalink}}
}

// Find answers the checkpointed media, else recent media made after the attempt with the caption.
func (a *Adapter) Find(ctx context.Context, t *app.Token, req *app.PublishRequest) (*app.Published, error) {
	ctx, ig, token, err := a.account(ctx, t, req.Account, req.Channel)
	if err != nil {
		return nil, err
	}
	if id := req.Checkpointed(checkpointMedia); id != "" {
		var out struct {
			ID string `json:"id"`
		}
		if err := a.API().Do(ctx, core.Request{URL: a.graphOf(ctx) + "/" + id + "?fields=id", Bearer: token}, &out); err != nil {
			if app.ClassOf(err) == app.ErrPermanent {
				return nil, nil
			}
			return nil, err
		}
		return a.published(ctx, token, id), nil
	}
	at, ok := pubutil.AttemptAt(req)
	if !ok {
		return nil, nil
	}
	if c := req.Checkpointed(checkpointContainer); c != "" {
		code, _, err := a.status(ctx, token, c)
		if err != nil && app.ClassOf(err) != app.ErrPermanent {
			return nil, err
		}
		if err == nil && code != "PUBLISHED" {
			return nil, nil // the container was never published
		}
	}
	pl, _ := req.Payload.(*Payload)
	caption, edge := "", "media"
	if pl != nil {
		caption = pl.Text
		if pl.Type == "STORY" {
			caption, edge = "", "stories"
		}
	}
	var list struct {
		Data []struct {
			ID        string `json:"id"`
			Caption   string `json:"caption"`
			Timestamp string `json:"timestamp"`
			Permalink string `json:"permalink"`
		} `json:"data"`
	}
	if err := a.API().Do(ctx, core.Request{URL: a.graphOf(ctx) + "/" + ig + "/" + edge + "?fields=id,caption,timestamp,permalink&limit=50", Bearer: token}, &list); err != nil {
		return nil, err
	}
	near := pubutil.NewNearest(at)
	for i := len(list.Data) - 1; i >= 0; i-- { // oldest first
		m := list.Data[i]
		ts, err := time.Parse("2006-01-02T15:04:05-0700", m.Timestamp)
		if err == nil && pubutil.SameText(m.Caption, caption) {
			near.Offer(i, ts)
		}
	}
	if near.Index < 0 {
		return nil, nil
	}
	m := list.Data[near.Index]
	return &app.Published{ExternalID: m.ID, Permalink: m.Permalink, Extra: map[string]string{"kind": "media", "permalink": m.Permalink}}, nil
}

// Delete removes the media (DELETE /{ig-media-id}).
func (a *Adapter) Delete(ctx context.Context, t *app.Token, req *app.DeleteRequest) error {
	ctx, _, token, err := a.account(ctx, t, req.Account, req.Channel)
	if err != nil {
		return err
	}
	return a.API().Do(ctx, core.Request{Method: http.MethodDelete, URL: a.graphOf(ctx) + "/" + url.PathEscape(req.ExternalID), Bearer: token}, nil)
}

// Reply comments on a media, or replies to a comment (ParentExtra kind "comment").
func (a *Adapter) Reply(ctx context.Context, t *app.Token, req *app.ReplyRequest) (*app.Published, error) {
	ctx, _, token, err := a.account(ctx, t, req.Account, req.Channel)
	if err != nil {
		return nil, err
	}
	permalink := req.ParentExtra["permalink"]
	if id := req.Resume[checkpointComment]; id != "" {
		return &app.Published{ExternalID: id, Permalink: permalink, Extra: map[string]string{"kind": "comment", "permalink": permalink}}, nil
	}
	edge := "comments"
	if req.ParentExtra["kind"] == "comment" {
		edge = "replies"
	}
	var out struct {
		ID string `json:"id"`
	}
	if err := a.API().Do(ctx, core.Request{Method: http.MethodPost, URL: fmt.Sprintf("%s/%s/%s", a.graphOf(ctx), url.PathEscape(req.ParentExternalID), edge),
		Bearer: token, Form: url.Values{"message": {req.Text}}}, &out); err != nil {
		return nil, err
	}
	if req.Checkpoint != nil {
		if err := req.Checkpoint(ctx, checkpointComment, out.ID); err != nil {
			return nil, err
		}
	}
	return &app.Published{ExternalID: out.ID, Permalink: permalink, Extra: map[string]string{"kind": "comment", "permalink": permalink}}, nil
}

var (
	_ app.Publisher = (*Adapter)(nil)
	_ app.Replier   = (*Adapter)(nil)
)
