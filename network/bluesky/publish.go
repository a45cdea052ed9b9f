package bluesky

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/pubutil"
)

// Publishing: com.atproto.repo.createRecord of an app.bsky.feed.post in the session's repo, with
// facets (links, mentions resolved to DIDs, hashtags; UTF-8 byte ranges), the payload's tags and
// self-labels, and one embed: images (uploadBlob, ≤ 4, alt and aspect ratio), a video (service
// auth → video service uploadVideo, its job checkpointed → getJobStatus polled until the blob is
// ready; a pause longer than pubutil.InlineWait ends the attempt with app.ErrProcessing), an external
// link card (with the thumbnail as a blob), a quote (app.bsky.embed.record, or recordWithMedia
// with images/video). The record key is a TID fixed at the attempt's start (checkpointed), so a
// retried create cannot make a second post and Find reads the record by its key. Permalinks are
// https://bsky.app/profile/{handle}/post/{rkey}.

const postCollection = "app.bsky.feed.post"

// VideoService is the video upload service used with Bluesky-hosted PDSes.
const VideoService = "https://video.bsky.app"

// Blob is an atproto blob reference.
type Blob struct {
	Type     string            `json:"$type"`
	Ref      map[string]string `json:"ref"`
	MimeType string            `json:"mimeType"`
	Size     int64             `json:"size"`
}

// ref is a strong reference to a record.
type ref struct {
	URI string `json:"uri"`
	CID string `json:"cid"`
}

const tidAlphabet = "234567abcdefghijklmnopqrstuvwxyz"

// TID is an atproto timestamp identifier (microseconds since the epoch and a 10-bit clock id).
func TID(at time.Time, clock uint64) string {
	v := uint64(at.UnixMicro())<<10 | (clock & 1023)
	v &= 1<<63 - 1
	out := make([]byte, 13)
	for i := 12; i >= 0; i-- {
		out[i] = tidAlphabet[v&31]
		v >>= 5
	}
	return string(out)
}

func (a *Adapter) xrpc(t *app.Token, nsid string, q url.Values) string {
	u := strings.TrimRight(t.Secrets["pds"], "/") + "/xrpc/" + nsid
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	return u
}

func rkeyOf(uri string) string { return uri[strings.LastIndex(uri, "/")+1:] }

// Permalink is a post's public URL.
func Permalink(handle, uri string) string {
	if handle == "" {
		handle = strings.TrimPrefix(strings.SplitN(strings.TrimPrefix(uri, "at://"), "/", 2)[0], "at://")
	}
	return "https://bsky.app/profile/" + handle + "/post/" + rkeyOf(uri)
}

func (a *Adapter) published(t *app.Token, uri, cid string, root *ref) *app.Published {
	extra := map[string]string{"cid": cid, "rkey": rkeyOf(uri), "rootUri": uri, "rootCid": cid}
	if root != nil {
		extra["rootUri"], extra["rootCid"] = root.URI, root.CID
	}
	return &app.Published{ExternalID: uri, Permalink: Permalink(t.Secrets["handle"], uri), Extra: extra}
}

// Publish creates the post record.
func (a *Adapter) Publish(ctx context.Context, t *app.Token, req *app.PublishRequest) (*app.Published, error) {
	p, ok := req.Payload.(*Payload)
	if !ok || p == nil {
		return nil, &app.NetworkError{Network: app.Bluesky, Class: app.ErrPermanent, Code: "payload", Message: "not a Bluesky payload"}
	}
	if uri := req.Checkpointed("uri"); uri != "" {
		return a.published(t, uri, req.Checkpointed("cid"), nil), nil
	}
	rkey := req.Checkpointed("rkey")
	resumed := rkey != ""
	if rkey == "" {
		h := fnv.New64a()
		_, _ = h.Write([]byte(req.AttemptKey))
		rkey = TID(time.Now(), h.Sum64())
		if err := req.Save(ctx, "startedAt", time.Now().UTC().Format(time.RFC3339Nano)); err != nil {
			return nil, err
		}
		if err := req.Save(ctx, "rkey", rkey); err != nil {
			return nil, err
		}
	}
	if resumed {
		// An earlier attempt may have created the record and lost the answer.
		if r, err := a.getRecord(ctx, t, t.Secrets["did"], rkey); err != nil {
			return nil, err
		} else if r != nil {
			return a.done(ctx, t, req, r.URI, r.CID)
		}
	}
	record := map[string]any{"$type": postCollection, "text": p.Text, "createdAt": time.Now().UTC().Format("2006-01-02T15:04:05.000Z")}
	facets, err := a.facets(ctx, t, p.Text)
	if err != nil {
		return nil, err
	}
	if len(facets) > 0 {
		record["facets"] = facets
	}
	if len(p.Tags) > 0 {
		tags := []string{}
		for _, tag := range p.Tags {
			tags = append(tags, strings.TrimPrefix(tag, "#"))
		}
		record["tags"] = tags
	}
	if len(p.Labels) > 0 {
		vals := []map[string]string{}
		for _, l := range p.Labels {
			vals = append(vals, map[string]string{"val": l})
		}
		record["labels"] = map[string]any{"$type": "com.atproto.label.defs#selfLabels", "values": vals}
	}
	embed, err := a.embed(ctx, t, req, p)
	if err != nil {
		return nil, err
	}
	if embed != nil {
		record["embed"] = embed
	}
	var out ref
	err = a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.xrpc(t, "com.atproto.repo.createRecord", nil), Bearer: t.AccessToken,
		JSON: map[string]any{"repo": t.Secrets["did"], "collection": postCollection, "rkey": rkey, "record": record}}, &out)
	if err != nil {
		if r, gerr := a.getRecord(ctx, t, t.Secrets["did"], rkey); gerr == nil && r != nil {
			return a.done(ctx, t, req, r.URI, r.CID) // the record is there: the create had gone through
		}
		return nil, err
	}
	return a.done(ctx, t, req, out.URI, out.CID)
}

func (a *Adapter) done(ctx context.Context, t *app.Token, req *app.PublishRequest, uri, cid string) (*app.Published, error) {
	if err := req.Save(ctx, "uri", uri); err != nil {
		return nil, err
	}
	if err := req.Save(ctx, "cid", cid); err != nil {
		return nil, err
	}
	return a.published(t, uri, cid, nil), nil
}

var (
	linkRe    = regexp.MustCompile(`https?://[^\s<>"]+[^\s<>".,;:!?)\]'"]`)
	mentionRe = regexp.MustCompile(`(^|[\s(])@([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+)`)
	tagRe     = regexp.MustCompile(`(^|\s)#([^\s#.,;:!?()\[\]{}'"]+)`)
)

// facets finds links, mentions and hashtags with their UTF-8 byte ranges.
func (a *Adapter) facets(ctx context.Context, t *app.Token, text string) ([]map[string]any, error) {
	facet := func(start, end int, feature map[string]any) map[string]any {
		return map[string]any{"index": map[string]int{"byteStart": start, "byteEnd": end}, "features": []map[string]any{feature}}
	}
	out := []map[string]any{}
	for _, m := range linkRe.FindAllStringIndex(text, -1) {
		out = append(out, facet(m[0], m[1], map[string]any{"$type": "app.bsky.richtext.facet#link", "uri": text[m[0]:m[1]]}))
	}
	for _, m := range mentionRe.FindAllStringSubmatchIndex(text, -1) {
		handle := text[m[4]:m[5]]
		var res struct {
			DID string `json:"did"`
		}
		err := a.api.Do(ctx, core.Request{URL: a.xrpc(t, "com.atproto.identity.resolveHandle", url.Values{"handle": {handle}}), Bearer: t.AccessToken}, &res)
		if err != nil {
			if ne, ok := err.(*app.NetworkError); ok && ne.Class == app.ErrPermanent {
				continue // not a handle: plain text
			}
			return nil, err
		}
		out = append(out, facet(m[4]-1, m[5], map[string]any{"$type": "app.bsky.richtext.facet#mention", "did": res.DID}))
	}
	for _, m := range tagRe.FindAllStringSubmatchIndex(text, -1) {
		out = append(out, facet(m[4]-1, m[5], map[string]any{"$type": "app.bsky.richtext.facet#tag", "tag": text[m[4]:m[5]]}))
	}
	return out, nil
}

// send posts raw bytes (a blob, a video) through the classified client.
func (a *Adapter) send(ctx context.Context, u, bearer, ctype string, body []byte, out any) error {
	res, err := a.api.Send(ctx, core.Request{Method: http.MethodPost, URL: u, Bearer: bearer, Body: bytes.NewReader(body), ContentType: ctype}, out)
	if err != nil && res != nil && out != nil {
		_ = json.Unmarshal(res.Body, out) // 409 already_exists carries the job id
	}
	return err
}

// blob uploads one file with uploadBlob (once: checkpointed under key).
func (a *Adapter) blob(ctx context.Context, t *app.Token, req *app.PublishRequest, key string, m app.MediaFile) (*Blob, error) {
	if s := req.Checkpointed(key); s != "" {
		var b Blob
		if json.Unmarshal([]byte(s), &b) == nil {
			return &b, nil
		}
	}
	data, err := pubutil.Bytes(ctx, m)
	if err != nil {
		return nil, err
	}
	var out struct {
		Blob Blob `json:"blob"`
	}
	if err := a.send(ctx, a.xrpc(t, "com.atproto.repo.uploadBlob", nil), t.AccessToken, m.Mime, data, &out); err != nil {
		return nil, err
	}
	return &out.Blob, a.saveBlob(ctx, req, key, &out.Blob)
}

func (a *Adapter) saveBlob(ctx context.Context, req *app.PublishRequest, key string, b *Blob) error {
	j, _ := json.Marshal(b)
	return req.Save(ctx, key, string(j))
}

func aspect(m app.MediaFile) map[string]int {
	if m.Width > 0 && m.Height > 0 {
		return map[string]int{"width": m.Width, "height": m.Height}
	}
	return nil
}

// videoService is where videos are uploaded: Bluesky's video service for its own PDSes; a PDS
// configured as the default of a non-Bluesky deployment (the sandbox) serves it itself.
func (a *Adapter) videoService(t *app.Token) string {
	if a.pds != DefaultPDS && strings.HasPrefix(t.Secrets["pds"], a.pds) {
		return a.pds
	}
	return VideoService
}

func (a *Adapter) poller() pubutil.Poller {
	if a.Poll.Every > 0 {
		return a.Poll
	}
	return pubutil.Poller{Every: 500 * time.Millisecond, Max: 15 * time.Second}
}

// video uploads a video to the video service (once: the job is checkpointed) and waits for its
// blob; a job still processing past pubutil.InlineWait ends the attempt with app.ErrProcessing.
func (a *Adapter) video(ctx context.Context, t *app.Token, req *app.PublishRequest, m app.MediaFile) (*Blob, error) {
	if s := req.Checkpointed("video"); s != "" {
		var b Blob
		if json.Unmarshal([]byte(s), &b) == nil {
			return &b, nil
		}
	}
	svc := a.videoService(t)
	job := req.Checkpointed("videoJob")
	if job == "" {
		var limits struct {
			CanUpload bool   `json:"canUpload"`
			Message   string `json:"message"`
			Error     string `json:"error"`
		}
		if err := a.api.Do(ctx, core.Request{URL: svc + "/xrpc/app.bsky.video.getUploadLimits", Bearer: a.serviceToken(ctx, t, "app.bsky.video.getUploadLimits", "did:web:"+hostOf(svc))}, &limits); err == nil && !limits.CanUpload {
			msg := limits.Message
			if msg == "" {
				msg = "the account cannot upload videos now"
			}
			return nil, &app.NetworkError{Network: app.Bluesky, Class: app.ErrPermanent, Code: "VideoUploadLimit", Message: msg}
		}
		data, err := pubutil.Bytes(ctx, m)
		if err != nil {
			return nil, err
		}
		token := a.serviceToken(ctx, t, "com.atproto.repo.uploadBlob", "did:web:"+hostOf(t.Secrets["pds"]))
		if token == "" {
			return nil, &app.NetworkError{Network: app.Bluesky, Class: app.ErrTransient, Message: "no service auth token for the video upload"}
		}
		name := m.UploadID
		if ext := strings.TrimPrefix(m.Ext, "."); ext != "" {
			name += "." + ext
		}
		var out struct {
			JobID     string `json:"jobId"`
			JobStatus *struct {
				JobID string `json:"jobId"`
			} `json:"jobStatus"`
		}
		err = a.send(ctx, svc+"/xrpc/app.bsky.video.uploadVideo?"+url.Values{"did": {t.Secrets["did"]}, "name": {name}}.Encode(), token, mimeOr(m.Mime, "video/mp4"), data, &out)
		if out.JobID == "" && out.JobStatus != nil {
			out.JobID = out.JobStatus.JobID
		}
		if err != nil && (out.JobID == "" || !strings.Contains(err.Error(), "already_exists")) {
			return nil, err
		}
		job = out.JobID
		if err := req.Save(ctx, "videoJob", job); err != nil {
			return nil, err
		}
	}
	for i := 0; ; i++ {
		var st struct {
			JobStatus struct {
				State   string `json:"state"`
				Blob    *Blob  `json:"blob"`
				Error   string `json:"error"`
				Message string `json:"message"`
			} `json:"jobStatus"`
		}
		if err := a.api.Do(ctx, core.Request{URL: svc + "/xrpc/app.bsky.video.getJobStatus?jobId=" + url.QueryEscape(job)}, &st); err != nil {
			return nil, err
		}
		switch st.JobStatus.State {
		case "JOB_STATE_COMPLETED":
			if st.JobStatus.Blob == nil {
				return nil, &app.NetworkError{Network: app.Bluesky, Class: app.ErrTransient, Message: "video job completed without a blob"}
			}
			return st.JobStatus.Blob, a.saveBlob(ctx, req, "video", st.JobStatus.Blob)
		case "JOB_STATE_FAILED":
			msg := st.JobStatus.Message
			if msg == "" {
				msg = st.JobStatus.Error
			}
			return nil, &app.NetworkError{Network: app.Bluesky, Class: app.ErrPermanent, Code: "JOB_STATE_FAILED", Message: msg}
		}
		if err := a.poller().Wait(ctx, i); err != nil {
			return nil, pubutil.StillProcessing(app.Bluesky, "the video", err)
		}
	}
}

func mimeOr(m, def string) string {
	if m == "" {
		return def
	}
	return m
}

func hostOf(u string) string {
	pu, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return pu.Hostname()
}

// serviceToken asks the PDS for a service auth token for lxm at aud ("" when refused).
func (a *Adapter) serviceToken(ctx context.Context, t *app.Token, lxm, aud string) string {
	var out struct {
		Token string `json:"token"`
	}
	q := url.Values{"aud": {aud}, "lxm": {lxm}, "exp": {fmt.Sprint(time.Now().Add(30 * time.Minute).Unix())}}
	if err := a.api.Do(ctx, core.Request{URL: a.xrpc(t, "com.atproto.server.getServiceAuth", q), Bearer: t.AccessToken}, &out); err != nil {
		return ""
	}
	return out.Token
}

// strongRef resolves a post (at:// URI or bsky.app URL) to its uri and cid.
func (a *Adapter) strongRef(ctx context.Context, t *app.Token, raw string) (*ref, error) {
	uri := raw
	if strings.HasPrefix(raw, "https://bsky.app/profile/") {
		parts := strings.Split(strings.TrimPrefix(raw, "https://bsky.app/profile/"), "/")
		if len(parts) >= 3 {
			uri = "at://" + parts[0] + "/" + postCollection + "/" + parts[2]
		}
	}
	var out struct {
		Posts []ref `json:"posts"`
	}
	if err := a.api.Do(ctx, core.Request{URL: a.xrpc(t, "app.bsky.feed.getPosts", url.Values{"uris": {uri}}), Bearer: t.AccessToken}, &out); err != nil {
		return nil, err
	}
	if len(out.Posts) == 0 {
		return nil, &app.NetworkError{Network: app.Bluesky, Class: app.ErrPermanent, Code: "NotFound", Message: "the quoted post " + raw + " was not found"}
	}
	return &out.Posts[0], nil
}

// embed builds the post's embed (nil when none).
func (a *Adapter) embed(ctx context.Context, t *app.Token, req *app.PublishRequest, p *Payload) (map[string]any, error) {
	var media map[string]any
	var images []map[string]any
	for i, m := range req.Media {
		if m.Type == "video" {
			b, err := a.video(ctx, t, req, m)
			if err != nil {
				return nil, err
			}
			media = map[string]any{"$type": "app.bsky.embed.video", "video": b}
			if p.VideoAlt != "" {
				media["alt"] = p.VideoAlt
			}
			if ar := aspect(m); ar != nil {
				media["aspectRatio"] = ar
			}
			break
		}
		b, err := a.blob(ctx, t, req, fmt.Sprintf("blob.%d", i), m)
		if err != nil {
			return nil, err
		}
		img := map[string]any{"image": b, "alt": m.AltText}
		if ar := aspect(m); ar != nil {
			img["aspectRatio"] = ar
		}
		images = append(images, img)
	}
	if media == nil && len(images) > 0 {
		media = map[string]any{"$type": "app.bsky.embed.images", "images": images}
	}
	if p.QuoteURI != "" {
		r, err := a.strongRef(ctx, t, p.QuoteURI)
		if err != nil {
			return nil, err
		}
		if media != nil {
			return map[string]any{"$type": "app.bsky.embed.recordWithMedia", "record": map[string]any{"$type": "app.bsky.embed.record", "record": r}, "media": media}, nil
		}
		return map[string]any{"$type": "app.bsky.embed.record", "record": r}, nil
	}
	if media != nil {
		return media, nil
	}
	if p.ExternalURL != "" {
		ext := map[string]any{"uri": p.ExternalURL, "title": p.ExternalTitle, "description": p.ExternalDescription}
		if req.Thumbnail != nil {
			b, err := a.blob(ctx, t, req, "thumb", *req.Thumbnail)
			if err != nil {
				return nil, err
			}
			ext["thumb"] = b
		}
		return map[string]any{"$type": "app.bsky.embed.external", "external": ext}, nil
	}
	return nil, nil
}

type record struct {
	URI   string `json:"uri"`
	CID   string `json:"cid"`
	Value struct {
		Text      string    `json:"text"`
		CreatedAt time.Time `json:"createdAt"`
		Reply     *struct {
			Root ref `json:"root"`
		} `json:"reply"`
	} `json:"value"`
}

// getRecord reads a post record (nil when the repo has none).
func (a *Adapter) getRecord(ctx context.Context, t *app.Token, repo, rkey string) (*record, error) {
	var r record
	err := a.api.Do(ctx, core.Request{URL: a.xrpc(t, "com.atproto.repo.getRecord", url.Values{"repo": {repo}, "collection": {postCollection}, "rkey": {rkey}}), Bearer: t.AccessToken}, &r)
	if err != nil {
		if ne, ok := err.(*app.NetworkError); ok && (ne.Code == "RecordNotFound" || ne.Status == http.StatusNotFound) {
			return nil, nil
		}
		return nil, err
	}
	return &r, nil
}

// Find answers the post of an earlier attempt: the record at the attempt's key, else the newest
// record of the repo with the text created since the attempt began.
func (a *Adapter) Find(ctx context.Context, t *app.Token, req *app.PublishRequest) (*app.Published, error) {
	for _, rk := range []string{rkeyOf(req.Checkpointed("uri")), req.Checkpointed("rkey")} {
		if rk == "" {
			continue
		}
		r, err := a.getRecord(ctx, t, t.Secrets["did"], rk)
		if err != nil || r == nil {
			return nil, err
		}
		return a.published(t, r.URI, r.CID, nil), nil
	}
	text := ""
	if req.Payload != nil {
		text = req.Payload.Body()
	}
	since := time.Now().Add(-24 * time.Hour)
	if s, err := time.Parse(time.RFC3339Nano, req.Checkpointed("startedAt")); err == nil {
		since = s.Add(-time.Minute)
	}
	var out struct {
		Records []record `json:"records"`
	}
	if err := a.api.Do(ctx, core.Request{URL: a.xrpc(t, "com.atproto.repo.listRecords", url.Values{"repo": {t.Secrets["did"]}, "collection": {postCollection}, "limit": {"25"}}), Bearer: t.AccessToken}, &out); err != nil {
		return nil, err
	}
	for _, r := range out.Records {
		if r.Value.Text == text && r.Value.Reply == nil && !r.Value.CreatedAt.Before(since) {
			return a.published(t, r.URI, r.CID, nil), nil
		}
	}
	return nil, nil
}

// Delete removes the record.
func (a *Adapter) Delete(ctx context.Context, t *app.Token, req *app.DeleteRequest) error {
	repo := t.Secrets["did"]
	if strings.HasPrefix(req.ExternalID, "at://") {
		repo = strings.SplitN(strings.TrimPrefix(req.ExternalID, "at://"), "/", 2)[0]
	}
	return a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.xrpc(t, "com.atproto.repo.deleteRecord", nil), Bearer: t.AccessToken,
		JSON: map[string]string{"repo": repo, "collection": postCollection, "rkey": rkeyOf(req.ExternalID)}}, nil)
}

// Reply posts a reply record (root from the parent's own reply, else the parent).
func (a *Adapter) Reply(ctx context.Context, t *app.Token, req *app.ReplyRequest) (*app.Published, error) {
	parent := ref{URI: req.ParentExternalID, CID: req.ParentExtra["cid"]}
	root := ref{URI: req.ParentExtra["rootUri"], CID: req.ParentExtra["rootCid"]}
	if parent.CID == "" || root.URI == "" || root.CID == "" {
		repo := strings.SplitN(strings.TrimPrefix(parent.URI, "at://"), "/", 2)[0]
		r, err := a.getRecord(ctx, t, repo, rkeyOf(parent.URI))
		if err != nil {
			return nil, err
		}
		if r == nil {
			return nil, &app.NetworkError{Network: app.Bluesky, Class: app.ErrPermanent, Code: "RecordNotFound", Message: "the parent post no longer exists"}
		}
		parent.CID, root = r.CID, ref{URI: r.URI, CID: r.CID}
		if r.Value.Reply != nil {
			root = r.Value.Reply.Root
		}
	}
	rkey := req.Resume["rkey"]
	if rkey == "" {
		h := fnv.New64a()
		_, _ = h.Write([]byte(req.AttemptKey))
		rkey = TID(time.Now(), h.Sum64())
		if req.Checkpoint != nil {
			if err := req.Checkpoint(ctx, "rkey", rkey); err != nil {
				return nil, err
			}
		}
	} else if r, err := a.getRecord(ctx, t, t.Secrets["did"], rkey); err != nil {
		return nil, err
	} else if r != nil {
		return a.published(t, r.URI, r.CID, &root), nil
	}
	record := map[string]any{"$type": postCollection, "text": req.Text, "createdAt": time.Now().UTC().Format("2006-01-02T15:04:05.000Z"),
		"reply": map[string]any{"root": root, "parent": parent}}
	facets, err := a.facets(ctx, t, req.Text)
	if err != nil {
		return nil, err
	}
	if len(facets) > 0 {
		record["facets"] = facets
	}
	var out ref
	if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.xrpc(t, "com.atproto.repo.createRecord", nil), Bearer: t.AccessToken,
		JSON: map[string]any{"repo": t.Secrets["did"], "collection": postCollection, "rkey": rkey, "record": record}}, &out); err != nil {
		return nil, err
	}
	return a.published(t, out.URI, out.CID, &root), nil
}

var (
	_ app.Publisher = (*Adapter)(nil)
	_ app.Replier   = (*Adapter)(nil)
)
