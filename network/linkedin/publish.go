package linkedin

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/pubutil"
)

// Publishing: the Posts API, POST /rest/posts {author, commentary (little-text escaped),
// visibility, distribution, lifecycleState, isReshareDisabledByAuthor, content} as the member or
// the chosen Company Page; the post's URN comes back in the x-restli-id header. Media are uploaded
// first: images (POST /rest/images?action=initializeUpload → PUT), videos (initializeUpload →
// PUT each uploadInstruction's byte range, keeping ETags → finalizeUpload → GET /rest/videos/{urn}
// polled until AVAILABLE; a pause longer than pubutil.InlineWait ends the attempt with
// app.ErrProcessing), documents (/rest/documents, polled likewise); one image or a video or a
// document is content.media, several images content.multiImage, a link content.article. Every
// uploaded URN (before its processing is polled) and the post URN are checkpointed. LinkedIn answers 429 without a reset header and
// its quotas are daily, reset at midnight UTC: that is the reset time given.

// Permalink is a post's public URL.
func Permalink(urn string) string { return "https://www.linkedin.com/feed/update/" + urn }

// Escape writes text in LinkedIn's "little text" format: the reserved characters are backslashed.
func Escape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`\|{}@[]()<>#*_~`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

var visibility = map[string]string{"PUBLIC": "PUBLIC", "CONNECTIONS": "CONNECTIONS", "LOGGED_IN": "LOGGED_IN", "CONTAINER": "CONTAINER"}

// send makes a LinkedIn call (a /rest call with its version headers, or an upload to an upload
// URL), decoding a JSON answer into out, and answers the headers (x-restli-id, an upload's ETag).
// body is JSON, or raw bytes sent as application/octet-stream.
func (a *Adapter) send(ctx context.Context, t *app.Token, method, u string, body, out any) (http.Header, error) {
	r := core.Request{Method: method, URL: u, Bearer: t.AccessToken}
	if strings.HasPrefix(u, a.base+"/rest/") {
		r.Header = map[string]string{"LinkedIn-Version": Version, "X-Restli-Protocol-Version": "2.0.0"}
	}
	switch b := body.(type) {
	case nil:
	case []byte:
		r.Body, r.ContentType = bytes.NewReader(b), "application/octet-stream"
	default:
		r.JSON = b
	}
	res, err := a.api.Send(ctx, r, out)
	if err != nil {
		return nil, err
	}
	return res.Header, nil
}

func (a *Adapter) restJSON(ctx context.Context, t *app.Token, method, path string, body, out any) (http.Header, error) {
	return a.send(ctx, t, method, a.base+path, body, out)
}

// author answers the URN Crier posts as: the chosen Company Page, else the member.
func (a *Adapter) author(ctx context.Context, t *app.Token, acc *app.SocialAccount, ch *app.Channel) (string, error) {
	if ch != nil && ch.ID != "" {
		if strings.HasPrefix(ch.ID, "urn:li:") {
			return ch.ID, nil
		}
		return "urn:li:organization:" + ch.ID, nil
	}
	if acc != nil && acc.ExternalID != nil && *acc.ExternalID != "" {
		return "urn:li:person:" + *acc.ExternalID, nil
	}
	p, err := a.Profile(ctx, t)
	if err != nil {
		return "", err
	}
	return "urn:li:person:" + p.ExternalID, nil
}

// upload sends one image, video or document and answers its URN (checkpointed under key).
func (a *Adapter) upload(ctx context.Context, t *app.Token, req *app.PublishRequest, key, owner string, m app.MediaFile) (string, error) {
	if urn := req.Checkpointed(key); urn != "" {
		return urn, a.available(ctx, t, urn)
	}
	data, err := pubutil.Bytes(ctx, m)
	if err != nil {
		return "", err
	}
	var urn string
	switch m.Type {
	case "video":
		var init struct {
			Value struct {
				Video              string `json:"video"`
				UploadToken        string `json:"uploadToken"`
				UploadInstructions []struct {
					UploadURL string `json:"uploadUrl"`
					FirstByte int64  `json:"firstByte"`
					LastByte  int64  `json:"lastByte"`
				} `json:"uploadInstructions"`
			} `json:"value"`
		}
		if _, err := a.restJSON(ctx, t, http.MethodPost, "/rest/videos?action=initializeUpload", map[string]any{"initializeUploadRequest": map[string]any{
			"owner": owner, "fileSizeBytes": len(data), "uploadCaptions": false, "uploadThumbnail": false}}, &init); err != nil {
			return "", err
		}
		var etags []string
		for _, in := range init.Value.UploadInstructions {
			if in.FirstByte < 0 || in.LastByte >= int64(len(data)) || in.FirstByte > in.LastByte {
				return "", &app.NetworkError{Network: app.LinkedIn, Class: app.ErrTransient, Message: "upload instructions out of the file's range"}
			}
			h, err := a.send(ctx, t, http.MethodPut, in.UploadURL, data[in.FirstByte:in.LastByte+1], nil)
			if err != nil {
				return "", err
			}
			etags = append(etags, h.Get("ETag"))
		}
		if _, err := a.restJSON(ctx, t, http.MethodPost, "/rest/videos?action=finalizeUpload", map[string]any{"finalizeUploadRequest": map[string]any{
			"video": init.Value.Video, "uploadToken": init.Value.UploadToken, "uploadedPartIds": etags}}, nil); err != nil {
			return "", err
		}
		urn = init.Value.Video
	case "document":
		var init struct {
			Value struct {
				UploadURL string `json:"uploadUrl"`
				Document  string `json:"document"`
			} `json:"value"`
		}
		if _, err := a.restJSON(ctx, t, http.MethodPost, "/rest/documents?action=initializeUpload", map[string]any{"initializeUploadRequest": map[string]any{"owner": owner}}, &init); err != nil {
			return "", err
		}
		if _, err := a.send(ctx, t, http.MethodPut, init.Value.UploadURL, data, nil); err != nil {
			return "", err
		}
		urn = init.Value.Document
	default:
		var init struct {
			Value struct {
				UploadURL string `json:"uploadUrl"`
				Image     string `json:"image"`
			} `json:"value"`
		}
		if _, err := a.restJSON(ctx, t, http.MethodPost, "/rest/images?action=initializeUpload", map[string]any{"initializeUploadRequest": map[string]any{"owner": owner}}, &init); err != nil {
			return "", err
		}
		if _, err := a.send(ctx, t, http.MethodPut, init.Value.UploadURL, data, nil); err != nil {
			return "", err
		}
		urn = init.Value.Image
	}
	if err := req.Save(ctx, key, urn); err != nil {
		return "", err
	}
	return urn, a.available(ctx, t, urn)
}

func (a *Adapter) poller() pubutil.Poller {
	if a.Poll.Every > 0 {
		return a.Poll
	}
	return pubutil.Poller{Every: time.Second, Max: 30 * time.Second}
}

// available waits for a video or document to be processed (images are usable at once). A pause
// longer than pubutil.InlineWait ends the attempt with app.ErrProcessing: the next attempt finds
// the URN checkpointed and polls it again.
func (a *Adapter) available(ctx context.Context, t *app.Token, urn string) error {
	var path string
	switch {
	case strings.HasPrefix(urn, "urn:li:video:"):
		path = "/rest/videos/"
	case strings.HasPrefix(urn, "urn:li:document:"):
		path = "/rest/documents/"
	default:
		return nil
	}
	for i := 0; ; i++ {
		var st struct {
			Status                  string `json:"status"`
			ProcessingFailureReason string `json:"processingFailureReason"`
		}
		if _, err := a.restJSON(ctx, t, http.MethodGet, path+encURN(urn), nil, &st); err != nil {
			return err
		}
		switch st.Status {
		case "AVAILABLE":
			return nil
		case "PROCESSING_FAILED":
			msg := st.ProcessingFailureReason
			if msg == "" {
				msg = "processing failed"
			}
			return &app.NetworkError{Network: app.LinkedIn, Class: app.ErrPermanent, Code: "PROCESSING_FAILED", Message: msg}
		}
		if err := a.poller().Wait(ctx, i); err != nil {
			return pubutil.StillProcessing(app.LinkedIn, "the media", err)
		}
	}
}

// Publish creates the post.
func (a *Adapter) Publish(ctx context.Context, t *app.Token, req *app.PublishRequest) (*app.Published, error) {
	p, ok := req.Payload.(*Payload)
	if !ok || p == nil {
		return nil, &app.NetworkError{Network: app.LinkedIn, Class: app.ErrPermanent, Code: "payload", Message: "not a LinkedIn payload"}
	}
	author, err := a.author(ctx, t, req.Account, req.Channel)
	if err != nil {
		return nil, err
	}
	if urn := req.Checkpointed("urn"); urn != "" {
		return published(urn, author), nil
	}
	if req.Checkpointed("startedAt") == "" {
		if err := req.Save(ctx, "startedAt", time.Now().UTC().Format(time.RFC3339Nano)); err != nil {
			return nil, err
		}
	}
	var content map[string]any
	var images []map[string]any
	for i, m := range req.Media {
		urn, err := a.upload(ctx, t, req, fmt.Sprintf("media.%d", i), author, m)
		if err != nil {
			return nil, err
		}
		if m.Type == "video" || m.Type == "document" {
			media := map[string]any{"id": urn}
			if title := p.MediaTitle; title != "" {
				media["title"] = title
			} else if m.Type == "document" {
				media["title"] = m.UploadID + "." + strings.TrimPrefix(m.Ext, ".")
			}
			content = map[string]any{"media": media}
			break
		}
		images = append(images, map[string]any{"id": urn, "altText": m.AltText})
	}
	switch {
	case content != nil:
	case len(images) == 1:
		content = map[string]any{"media": images[0]}
	case len(images) > 1:
		content = map[string]any{"multiImage": map[string]any{"images": images}}
	case p.Link != "":
		article := map[string]any{"source": p.Link}
		if p.MediaTitle != "" {
			article["title"] = p.MediaTitle
		}
		if req.Thumbnail != nil {
			urn, err := a.upload(ctx, t, req, "thumbnail", author, *req.Thumbnail)
			if err != nil {
				return nil, err
			}
			article["thumbnail"] = urn
		}
		content = map[string]any{"article": article}
	}
	vis := visibility[strings.ToUpper(p.Privacy)]
	if vis == "" {
		vis = "PUBLIC"
	}
	feed := "MAIN_FEED"
	if p.HideFromFeed {
		feed = "NONE"
	}
	body := map[string]any{"author": author, "commentary": Escape(p.Text), "visibility": vis,
		"distribution":   map[string]any{"feedDistribution": feed, "targetEntities": []any{}, "thirdPartyDistributionChannels": []any{}},
		"lifecycleState": "PUBLISHED", "isReshareDisabledByAuthor": p.DisableReshare}
	if content != nil {
		body["content"] = content
	}
	h, err := a.restJSON(ctx, t, http.MethodPost, "/rest/posts", body, nil)
	if err != nil {
		return nil, err
	}
	urn := h.Get("x-restli-id")
	if urn == "" {
		return nil, &app.NetworkError{Network: app.LinkedIn, Class: app.ErrTransient, Message: "the answer carries no x-restli-id"}
	}
	if err := req.Save(ctx, "urn", urn); err != nil {
		return nil, err
	}
	return published(urn, author), nil
}

func published(urn, author string) *app.Published {
	return &app.Published{ExternalID: urn, Permalink: Permalink(urn), Extra: map[string]string{"author": author}}
}

// Post is the part of a Posts API post Crier reads.
type Post struct {
	ID             string `json:"id"`
	Author         string `json:"author"`
	Commentary     string `json:"commentary"`
	CreatedAt      int64  `json:"createdAt"`
	LifecycleState string `json:"lifecycleState"`
}

// Find answers the post of an earlier attempt: by its checkpointed URN, else the author's recent
// post with the commentary created since the attempt began. (U) Reading a member's posts (GET
// /rest/posts, q=author) needs r_member_social, which LinkedIn grants few apps; pages' posts need
// r_organization_social (asked at connect). Without it Find answers LinkedIn's 403 as is.
func (a *Adapter) Find(ctx context.Context, t *app.Token, req *app.PublishRequest) (*app.Published, error) {
	author, err := a.author(ctx, t, req.Account, req.Channel)
	if err != nil {
		return nil, err
	}
	if urn := req.Checkpointed("urn"); urn != "" {
		var p Post
		if _, err := a.restJSON(ctx, t, http.MethodGet, "/rest/posts/"+encURN(urn), nil, &p); err != nil {
			if ne, ok := err.(*app.NetworkError); ok && (ne.Status == http.StatusNotFound || ne.Status == http.StatusGone) {
				return nil, nil
			}
			return nil, err
		}
		return published(urn, author), nil
	}
	since := time.Now().Add(-24 * time.Hour)
	if s, err := time.Parse(time.RFC3339Nano, req.Checkpointed("startedAt")); err == nil {
		since = s.Add(-time.Minute)
	}
	text := ""
	if req.Payload != nil {
		text = Escape(req.Payload.Body())
	}
	var out struct {
		Elements []Post `json:"elements"`
	}
	q := url.Values{"q": {"author"}, "author": {author}, "count": {"20"}, "sortBy": {"CREATED"}}
	if _, err := a.restJSON(ctx, t, http.MethodGet, "/rest/posts?"+q.Encode(), nil, &out); err != nil {
		return nil, err
	}
	for _, p := range out.Elements {
		if p.Commentary == text && !time.UnixMilli(p.CreatedAt).Before(since) {
			return published(p.ID, author), nil
		}
	}
	return nil, nil
}

// Delete removes the post.
func (a *Adapter) Delete(ctx context.Context, t *app.Token, req *app.DeleteRequest) error {
	_, err := a.restJSON(ctx, t, http.MethodDelete, "/rest/posts/"+encURN(req.ExternalID), nil, nil)
	if ne, ok := err.(*app.NetworkError); ok && ne.Status == http.StatusNotFound {
		return nil
	}
	return err
}

// Reply comments on the post (as the same author).
func (a *Adapter) Reply(ctx context.Context, t *app.Token, req *app.ReplyRequest) (*app.Published, error) {
	if urn := req.Resume["comment"]; urn != "" {
		return &app.Published{ExternalID: urn, Permalink: Permalink(req.ParentExternalID) + "?commentUrn=" + url.QueryEscape(urn), Extra: map[string]string{}}, nil
	}
	actor := req.ParentExtra["author"]
	if actor == "" {
		var err error
		if actor, err = a.author(ctx, t, req.Account, req.Channel); err != nil {
			return nil, err
		}
	}
	var out struct {
		URN string `json:"$URN"`
		ID  string `json:"id"`
	}
	h, err := a.restJSON(ctx, t, http.MethodPost, "/rest/socialActions/"+encURN(req.ParentExternalID)+"/comments",
		map[string]any{"actor": actor, "object": req.ParentExternalID, "message": map[string]any{"text": req.Text}}, &out)
	if err != nil {
		return nil, err
	}
	urn := out.URN
	if urn == "" {
		urn = h.Get("x-restli-id")
	}
	if req.Checkpoint != nil {
		if err := req.Checkpoint(ctx, "comment", urn); err != nil {
			return nil, err
		}
	}
	return &app.Published{ExternalID: urn, Permalink: Permalink(req.ParentExternalID) + "?commentUrn=" + url.QueryEscape(urn), Extra: map[string]string{"author": actor}}, nil
}

var (
	_ app.Publisher = (*Adapter)(nil)
	_ app.Replier   = (*Adapter)(nil)
)

// encURN encodes a URN for a Rest.li path (urn%3Ali%3Ashare%3A…).
func encURN(urn string) string { return url.QueryEscape(urn) }
