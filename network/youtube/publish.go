package youtube

// Publishing videos (Data API v3): a resumable upload — POST /upload/youtube/v3/videos
// ?uploadType=resumable&part=snippet,status with the metadata (title, description, languages,
// privacyStatus, selfDeclaredMadeForKids, containsSyntheticMedia, paid product placement) opens a
// session whose URI comes back in Location; the bytes go in PUT chunks with Content-Range (308
// Resume Incomplete + Range between chunks; 200/201 with the Video at the end); then the
// thumbnail with POST /upload/youtube/v3/thumbnails/set. A SHORT is an ordinary upload (vertical,
// ≤ 3 min) whose description carries #Shorts; its permalink is /shorts/{id}, a VIDEO's /watch?v=.
//
// The session URI is checkpointed: a retry asks the session how far it got (Content-Range
// bytes */total) and sends only the rest, and an upload that had completed answers the Video —
// no second video. Find reads the checkpointed video, else probes the checkpointed session. Reply
// starts a comment thread on a video (commentThreads.insert) or answers a comment
// (comments.insert). Delete is videos.delete.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/pubutil"
)

const (
	checkpointSession   = "youtube.session"
	checkpointVideo     = "youtube.video"
	checkpointThumbnail = "youtube.thumbnail"
	checkpointComment   = "youtube.comment"
)

type video struct {
	ID      string `json:"id"`
	Snippet struct {
		Title string `json:"title"`
	} `json:"snippet"`
	Status struct {
		UploadStatus  string `json:"uploadStatus"`
		PrivacyStatus string `json:"privacyStatus"`
	} `json:"status"`
}

func permalink(kind, id string) string {
	if kind == "SHORT" {
		return "https://www.youtube.com/shorts/" + id
	}
	return "https://www.youtube.com/watch?v=" + id
}

func kindOf(pl *Payload) string {
	if pl != nil && pl.Type == "VIDEO" {
		return "VIDEO"
	}
	return "SHORT"
}

func (a *Adapter) chunk() int64 {
	if a.ChunkSize > 0 {
		return a.ChunkSize
	}
	return 32 * 256 * 1024 // 8 MiB
}

// raw sends a raw body (the session's metadata, a chunk, a probe, a thumbnail) through the
// classified client and answers the response; 308 Resume Incomplete is an answer, not an error.
func (a *Adapter) raw(ctx context.Context, method, u, token, ctype string, header map[string]string, body []byte) (*core.Response, error) {
	return a.api.Send(ctx, core.Request{Method: method, URL: u, Bearer: token, Header: header, Body: bytes.NewReader(body), ContentType: ctype,
		OK: []int{http.StatusPermanentRedirect}}, nil)
}

// Publish uploads the video (resuming a checkpointed session) and sets the thumbnail.
func (a *Adapter) Publish(ctx context.Context, t *app.Token, req *app.PublishRequest) (*app.Published, error) {
	pl, _ := req.Payload.(*Payload)
	if pl == nil {
		return nil, pubutil.Refused(app.YouTube, "the post has no YOUTUBE payload")
	}
	if len(req.Media) != 1 || !pubutil.IsVideo(req.Media[0]) {
		return nil, pubutil.Refused(app.YouTube, "a YouTube post takes exactly one video")
	}
	kind := kindOf(pl)
	id := req.Checkpointed(checkpointVideo)
	if id == "" && req.Checkpointed(checkpointSession) == "" && req.Channel != nil && req.Channel.ID != "" {
		// videos.insert uploads to the token's channel: refuse a selected channel it is not.
		mine, err := a.Channels(ctx, t)
		if err != nil {
			return nil, err
		}
		if !slices.ContainsFunc(mine, func(c app.Channel) bool { return c.ID == req.Channel.ID }) {
			return nil, pubutil.Refused(app.YouTube, "the connected Google account cannot upload to channel %s; reconnect choosing that channel", req.Channel.ID)
		}
	}
	if id == "" {
		v, err := a.upload(ctx, t, pl, req)
		if err != nil {
			return nil, err
		}
		id = v.ID
		if err := req.Save(ctx, checkpointVideo, id); err != nil {
			return nil, err
		}
	}
	p := &app.Published{ExternalID: id, Permalink: permalink(kind, id), Extra: map[string]string{"kind": "video", "type": kind}}
	if req.Thumbnail != nil && req.Checkpointed(checkpointThumbnail) == "" {
		// The video exists: a refused thumbnail (unverified channel, too large) does not fail it.
		if err := a.thumbnail(ctx, t, id, *req.Thumbnail); err != nil {
			if app.ClassOf(err) != app.ErrPermanent {
				return nil, err
			}
			p.Extra["thumbnailError"] = err.Error()
		} else if err := req.Save(ctx, checkpointThumbnail, "1"); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func (a *Adapter) metadata(pl *Payload) map[string]any {
	privacy := strings.ToLower(pl.Privacy)
	if privacy == "" {
		privacy = "public"
	}
	desc := pl.Description
	if kindOf(pl) == "SHORT" && !strings.Contains(strings.ToLower(pl.Text+" "+desc), "#shorts") {
		desc = strings.TrimSpace(desc + "\n\n#Shorts")
	}
	snippet := map[string]any{"title": pl.Text, "description": desc, "categoryId": "22"}
	if pl.DefaultLanguage != "" {
		snippet["defaultLanguage"] = pl.DefaultLanguage
	}
	if pl.DefaultAudioLanguage != "" {
		snippet["defaultAudioLanguage"] = pl.DefaultAudioLanguage
	}
	status := map[string]any{"privacyStatus": privacy, "selfDeclaredMadeForKids": pl.MadeForKids, "containsSyntheticMedia": pl.ContainsSyntheticMedia}
	out := map[string]any{"snippet": snippet, "status": status}
	if pl.HasPaidProductPlacement {
		out["paidProductPlacementDetails"] = map[string]any{"hasPaidProductPlacement": true}
	}
	return out
}

// upload runs (or resumes) the resumable upload and answers the Video.
func (a *Adapter) upload(ctx context.Context, t *app.Token, pl *Payload, req *app.PublishRequest) (*video, error) {
	m := req.Media[0]
	size := m.Size
	if size <= 0 {
		b, err := pubutil.Bytes(ctx, m)
		if err != nil {
			return nil, err
		}
		size = int64(len(b))
	}
	session, offset := req.Checkpointed(checkpointSession), int64(0)
	if session != "" {
		v, next, err := a.probe(ctx, t, session, size)
		switch {
		case v != nil:
			return v, nil
		case err != nil && isGone(err):
			session = "" // expired: start again
		case err != nil:
			return nil, err
		default:
			offset = next
		}
	}
	if session == "" {
		meta, _ := json.Marshal(a.metadata(pl))
		mime := m.Mime
		if mime == "" {
			mime = "video/*"
		}
		q := url.Values{"uploadType": {"resumable"}, "part": {"snippet,status"}}
		if pl.HasPaidProductPlacement {
			q.Set("part", "snippet,status,paidProductPlacementDetails")
		}
		res, err := a.raw(ctx, http.MethodPost, a.base+"/upload/youtube/v3/videos?"+q.Encode(), t.AccessToken, "application/json; charset=UTF-8",
			map[string]string{"X-Upload-Content-Type": mime, "X-Upload-Content-Length": strconv.FormatInt(size, 10)}, meta)
		if err != nil {
			return nil, err
		}
		if session = res.Header.Get("Location"); session == "" {
			return nil, &app.NetworkError{Network: app.YouTube, Class: app.ErrTransient, Status: res.Status, Message: "the upload session came without a Location"}
		}
		if err := req.Save(ctx, checkpointSession, session); err != nil {
			return nil, err
		}
		offset = 0
	}
	rc, err := m.Open(ctx)
	if err != nil {
		return nil, fmt.Errorf("upload %s: %w", m.UploadID, err)
	}
	defer rc.Close()
	if _, err := io.CopyN(io.Discard, rc, offset); err != nil {
		return nil, fmt.Errorf("upload %s: %w", m.UploadID, err)
	}
	buf := make([]byte, min(a.chunk(), size-offset)) // a small video needs no whole chunk's buffer
	for offset < size {
		n, err := io.ReadFull(rc, buf[:min(int64(len(buf)), size-offset)])
		if err != nil {
			return nil, fmt.Errorf("upload %s: %w", m.UploadID, err)
		}
		res, err := a.raw(ctx, http.MethodPut, session, t.AccessToken, "", map[string]string{
			"Content-Range": fmt.Sprintf("bytes %d-%d/%d", offset, offset+int64(n)-1, size)}, buf[:n])
		if err != nil {
			return nil, err
		}
		if res.Status != http.StatusPermanentRedirect {
			var v video
			if err := json.Unmarshal(res.Body, &v); err != nil || v.ID == "" {
				return nil, &app.NetworkError{Network: app.YouTube, Class: app.ErrTransient, Status: res.Status, Message: "unexpected upload answer", Err: err}
			}
			return &v, nil
		}
		offset = rangeEnd(res.Header.Get("Range"))
	}
	// Every byte was acknowledged with 308: ask the session for the video.
	v, _, err := a.probe(ctx, t, session, size)
	if err == nil && v == nil {
		err = &app.NetworkError{Network: app.YouTube, Class: app.ErrTransient, Message: "the upload did not complete"}
	}
	return v, err
}

// probe asks a session how far it got: the Video when complete, else the next offset.
func (a *Adapter) probe(ctx context.Context, t *app.Token, session string, size int64) (*video, int64, error) {
	res, err := a.raw(ctx, http.MethodPut, session, t.AccessToken, "", map[string]string{"Content-Range": fmt.Sprintf("bytes */%d", size)}, nil)
	if err != nil {
		return nil, 0, err
	}
	if res.Status == http.StatusPermanentRedirect {
		return nil, rangeEnd(res.Header.Get("Range")), nil
	}
	var v video
	if err := json.Unmarshal(res.Body, &v); err != nil || v.ID == "" {
		return nil, 0, &app.NetworkError{Network: app.YouTube, Class: app.ErrTransient, Status: res.Status, Message: "unexpected upload answer", Err: err}
	}
	return &v, 0, nil
}

// rangeEnd reads "bytes=0-1234" as the next offset (1235); no Range means nothing was received.
func rangeEnd(r string) int64 {
	_, last, ok := strings.Cut(strings.TrimPrefix(r, "bytes="), "-")
	if !ok {
		return 0
	}
	n, err := strconv.ParseInt(last, 10, 64)
	if err != nil {
		return 0
	}
	return n + 1
}

func isGone(err error) bool {
	var ne *app.NetworkError
	return errors.As(err, &ne) && (ne.Status == http.StatusNotFound || ne.Status == http.StatusGone)
}

func (a *Adapter) thumbnail(ctx context.Context, t *app.Token, id string, m app.MediaFile) error {
	b, err := pubutil.Bytes(ctx, m)
	if err != nil {
		return err
	}
	mime := m.Mime
	if mime == "" {
		mime = "image/jpeg"
	}
	_, err = a.raw(ctx, http.MethodPost, a.base+"/upload/youtube/v3/thumbnails/set?videoId="+url.QueryEscape(id), t.AccessToken, mime, nil, b)
	return err
}

// Find answers the checkpointed video, else the video a checkpointed session completed.
func (a *Adapter) Find(ctx context.Context, t *app.Token, req *app.PublishRequest) (*app.Published, error) {
	pl, _ := req.Payload.(*Payload)
	kind := kindOf(pl)
	if id := req.Checkpointed(checkpointVideo); id != "" {
		var list struct {
			Items []video `json:"items"`
		}
		if err := a.api.Do(ctx, core.Request{URL: a.base + "/youtube/v3/videos?part=id,status&id=" + url.QueryEscape(id), Bearer: t.AccessToken}, &list); err != nil {
			return nil, err
		}
		if len(list.Items) == 0 {
			return nil, nil
		}
		return &app.Published{ExternalID: id, Permalink: permalink(kind, id), Extra: map[string]string{"kind": "video", "type": kind}}, nil
	}
	session := req.Checkpointed(checkpointSession)
	if session == "" || len(req.Media) != 1 {
		return nil, nil // no session: no video was made
	}
	size := req.Media[0].Size
	v, _, err := a.probe(ctx, t, session, size)
	if err != nil {
		if isGone(err) {
			return nil, nil
		}
		return nil, err
	}
	if v == nil {
		return nil, nil
	}
	return &app.Published{ExternalID: v.ID, Permalink: permalink(kind, v.ID), Extra: map[string]string{"kind": "video", "type": kind}}, nil
}

// Delete removes the video.
func (a *Adapter) Delete(ctx context.Context, t *app.Token, req *app.DeleteRequest) error {
	return a.api.Do(ctx, core.Request{Method: http.MethodDelete, URL: a.base + "/youtube/v3/videos?id=" + url.QueryEscape(req.ExternalID), Bearer: t.AccessToken}, nil)
}

// Reply starts a comment thread under a video, or answers a comment (ParentExtra kind "comment").
func (a *Adapter) Reply(ctx context.Context, t *app.Token, req *app.ReplyRequest) (*app.Published, error) {
	videoID := req.ParentExtra["videoId"]
	if req.ParentExtra["kind"] != "comment" {
		videoID = req.ParentExternalID
	}
	link := func(id string) string { return "https://www.youtube.com/watch?v=" + videoID + "&lc=" + id }
	extra := func(id string) map[string]string {
		return map[string]string{"kind": "comment", "videoId": videoID}
	}
	if id := req.Resume[checkpointComment]; id != "" {
		return &app.Published{ExternalID: id, Permalink: link(id), Extra: extra(id)}, nil
	}
	var id string
	if req.ParentExtra["kind"] == "comment" {
		var out struct {
			ID string `json:"id"`
		}
		body := map[string]any{"snippet": map[string]any{"parentId": req.ParentExternalID, "textOriginal": req.Text}}
		if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.base + "/youtube/v3/comments?part=snippet", Bearer: t.AccessToken, JSON: body}, &out); err != nil {
			return nil, err
		}
		id = out.ID
	} else {
		var out struct {
			ID      string `json:"id"`
			Snippet struct {
				TopLevelComment struct {
					ID string `json:"id"`
				} `json:"topLevelComment"`
			} `json:"snippet"`
		}
		body := map[string]any{"snippet": map[string]any{"videoId": videoID, "topLevelComment": map[string]any{"snippet": map[string]any{"textOriginal": req.Text}}}}
		if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.base + "/youtube/v3/commentThreads?part=snippet", Bearer: t.AccessToken, JSON: body}, &out); err != nil {
			return nil, err
		}
		id = out.Snippet.TopLevelComment.ID
		if id == "" {
			id = out.ID
		}
	}
	if req.Checkpoint != nil {
		if err := req.Checkpoint(ctx, checkpointComment, id); err != nil {
			return nil, err
		}
	}
	return &app.Published{ExternalID: id, Permalink: link(id), Extra: extra(id)}, nil
}

var (
	_ app.Publisher = (*Adapter)(nil)
	_ app.Replier   = (*Adapter)(nil)
)
