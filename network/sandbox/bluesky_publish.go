package sandbox

import (
	"crypto/sha256"
	"encoding/base32"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Bluesky publishing (a PDS and its video service, served together): uploadBlob (raw bytes, ≤ 100
// MB), getServiceAuth (service tokens scoped by lxm), the video service's getUploadLimits,
// uploadVideo (service token for com.atproto.repo.uploadBlob, did and name in the query; a job
// that encodes, then completes with a blob on the second getJobStatus), createRecord of
// app.bsky.feed.post (rkey optional, refused when taken; validates text ≤ 300 graphemes and
// 3,000 bytes, facet byte ranges, ≤ 4 images of ≤ 1,000,000 bytes, blobs of the repo, a video blob
// from a completed job, quoted/replied records and their cids), getRecord, listRecords (newest
// first), deleteRecord, app.bsky.feed.getPosts and resolveHandle. Replies are held as comments.
func blueskyPublish(d *dialect) {
	d.routes["POST /xrpc/com.atproto.repo.uploadBlob"] = blueskyUploadBlob
	d.routes["GET /xrpc/com.atproto.server.getServiceAuth"] = blueskyGetServiceAuth
	d.routes["GET /xrpc/app.bsky.video.getUploadLimits"] = blueskyGetUploadLimits
	d.routes["POST /xrpc/app.bsky.video.uploadVideo"] = blueskyUploadVideo
	d.unauthenticated["GET /xrpc/app.bsky.video.getJobStatus"] = blueskyGetJobStatus
	d.routes["POST /xrpc/com.atproto.repo.createRecord"] = blueskyCreateRecord
	d.routes["GET /xrpc/com.atproto.repo.getRecord"] = blueskyGetRecord
	d.routes["GET /xrpc/com.atproto.repo.listRecords"] = blueskyListRecords
	d.routes["POST /xrpc/com.atproto.repo.deleteRecord"] = blueskyDeleteRecord
	d.routes["GET /xrpc/app.bsky.feed.getPosts"] = blueskyGetPosts
	d.routes["GET /xrpc/com.atproto.identity.resolveHandle"] = blueskyResolveHandle
}

// blueskyError answers XRPC's {"error","message"}.
func blueskyError(q *req, status int, code, msg string) {
	q.fail(apiError{Status: status, Code: code, Message: msg})
}

// blueskyCIDOf is a CID-looking hash of bytes.
func blueskyCIDOf(b []byte) string {
	sum := sha256.Sum256(b)
	return "bafyrei" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(sum[:]))
}

// blueskyHandle is a user's handle.
func blueskyHandle(u *User) string { return u.Login + ".sandbox.bsky" }

// blueskyUserOf finds the user of a repo (DID or handle).
func blueskyUserOf(q *req, repo string) *User {
	for _, u := range q.net.users {
		if u.ID == repo || blueskyHandle(u) == repo {
			return u
		}
	}
	return nil
}

// blueskyURIOf is a post's at-uri.
func blueskyURIOf(h *Held) string {
	return "at://" + h.Data["did"].(string) + "/app.bsky.feed.post/" + h.ID
}

// blueskyPost finds a live post or reply by at-uri (DID or handle authority).
func blueskyPost(q *req, uri string) *Held {
	parts := strings.Split(strings.TrimPrefix(uri, "at://"), "/")
	if len(parts) != 3 || parts[1] != "app.bsky.feed.post" {
		return nil
	}
	u := blueskyUserOf(q, parts[0])
	for _, h := range q.net.held {
		if (h.Kind == KindPost || h.Kind == KindComment) && h.ID == parts[2] && h.DeletedAt == nil && u != nil && h.User == u.Login {
			return h
		}
	}
	return nil
}

// blueskyBlobOf finds the caller's blob a blob reference points to.
func blueskyBlobOf(q *req, v any) *Held {
	b, _ := json.Marshal(v)
	var in struct {
		Ref struct {
			Link string `json:"$link"`
		} `json:"ref"`
	}
	_ = json.Unmarshal(b, &in)
	for _, h := range q.net.held {
		if h.Kind == KindMedia && h.ID == in.Ref.Link && h.User == q.user.Login {
			return h
		}
	}
	return nil
}

// blueskyNewBlob keeps uploaded bytes as a blob and answers its reference.
func blueskyNewBlob(q *req, data []byte, mime string, u *User) map[string]any {
	cid := blueskyCIDOf(data)
	if q.net.find(KindMedia, cid) == nil {
		q.net.keep(Held{Kind: KindMedia, ID: cid, User: u.Login, Data: map[string]any{"mimeType": mime, "size": len(data), "sniffed": sniffMedia(data)}})
	}
	return map[string]any{"$type": "blob", "ref": map[string]string{"$link": cid}, "mimeType": mime, "size": len(data)}
}

func blueskyUploadBlob(q *req) {
	if q.tok.scope != "" && strings.HasPrefix(q.tok.scope, "svc:") {
		blueskyError(q, http.StatusUnauthorized, "InvalidToken", "Bad token scope")
		return
	}
	data, _ := io.ReadAll(io.LimitReader(q.r.Body, 100<<20+1))
	mime := q.r.Header.Get("Content-Type")
	switch {
	case len(data) == 0:
		blueskyError(q, http.StatusBadRequest, "InvalidRequest", "request body is empty")
	case len(data) > 100<<20:
		blueskyError(q, http.StatusBadRequest, "BlobTooLarge", "This file is too large. It is 100.00MB but the maximum size is 100.00MB.")
	case mime == "" || mime == "application/x-www-form-urlencoded":
		blueskyError(q, http.StatusBadRequest, "InvalidRequest", "Missing or invalid Content-Type")
	default:
		q.json(http.StatusOK, map[string]any{"blob": blueskyNewBlob(q, data, mime, q.user)})
	}
}

func blueskyGetServiceAuth(q *req) {
	v := q.r.URL.Query()
	if !strings.HasPrefix(v.Get("aud"), "did:") {
		blueskyError(q, http.StatusBadRequest, "InvalidRequest", "Error: aud must be a valid did")
		return
	}
	exp := q.net.sb.Now().Add(60 * time.Second)
	if s, err := strconv.ParseInt(v.Get("exp"), 10, 64); err == nil {
		if s > q.net.sb.Now().Add(time.Hour).Unix() {
			blueskyError(q, http.StatusBadRequest, "BadExpiration", "expiration is too far in the future")
			return
		}
		exp = time.Unix(s, 0)
	}
	tok := randID("bsky-svc-")
	q.net.access[tok] = &issued{user: q.user, scope: "svc:" + v.Get("lxm") + " " + v.Get("aud"), expires: exp, token: tok}
	q.json(http.StatusOK, map[string]any{"token": tok})
}

// blueskyScoped says whether the call carries a service token for lxm, answering an error
// otherwise.
func blueskyScoped(q *req, lxm string) bool {
	if !strings.HasPrefix(q.tok.scope, "svc:"+lxm+" ") {
		blueskyError(q, http.StatusUnauthorized, "AuthMissing", "Authentication Required: a service token for "+lxm+" is needed")
		return false
	}
	return true
}

func blueskyGetUploadLimits(q *req) {
	if !blueskyScoped(q, "app.bsky.video.getUploadLimits") {
		return
	}
	q.json(http.StatusOK, map[string]any{"canUpload": true, "remainingDailyVideos": 25, "remainingDailyBytes": 10 << 30})
}

func blueskyUploadVideo(q *req) {
	if !blueskyScoped(q, "com.atproto.repo.uploadBlob") {
		return
	}
	v := q.r.URL.Query()
	if v.Get("did") != q.user.ID || v.Get("name") == "" {
		blueskyError(q, http.StatusBadRequest, "InvalidRequest", "did and name are required and the did must be the token's")
		return
	}
	data, _ := io.ReadAll(io.LimitReader(q.r.Body, 100<<20+1))
	mime := q.r.Header.Get("Content-Type")
	if len(data) == 0 || len(data) > 100<<20 || !strings.HasPrefix(mime, "video/") {
		blueskyError(q, http.StatusBadRequest, "InvalidRequest", "a video of at most 100MB is required")
		return
	}
	cid := blueskyCIDOf(data)
	for _, h := range q.net.held {
		if h.Kind == KindMedia && h.Data["job"] != nil && h.Data["cid"] == cid && h.User == q.user.Login {
			q.json(http.StatusConflict, map[string]any{"error": "already_exists", "message": "Video already processed", "jobId": h.ID, "did": q.user.ID})
			return
		}
	}
	job := randID("job")[:20]
	q.net.keep(Held{Kind: KindMedia, ID: job, User: q.user.Login, Text: v.Get("name"), Data: map[string]any{"job": "JOB_STATE_CREATED", "cid": cid, "size": len(data), "mimeType": mime, "polls": 0, "sniffed": sniffMedia(data)}})
	q.json(http.StatusOK, map[string]any{"did": q.user.ID, "jobId": job, "state": "JOB_STATE_CREATED"})
}

func blueskyGetJobStatus(q *req) {
	h := q.net.find(KindMedia, q.r.URL.Query().Get("jobId"))
	if h == nil || h.Data["job"] == nil {
		blueskyError(q, http.StatusBadRequest, "InvalidRequest", "job not found")
		return
	}
	h.Data["polls"] = h.Data["polls"].(int) + 1
	st := map[string]any{"jobId": h.ID, "did": "", "state": "JOB_STATE_ENCODING", "progress": 50}
	for _, u := range q.net.users {
		if u.Login == h.User {
			st["did"] = u.ID
		}
	}
	if h.Data["polls"].(int) >= 2 {
		cid := h.Data["cid"].(string)
		if q.net.find(KindMedia, cid) == nil {
			q.net.keep(Held{Kind: KindMedia, ID: cid, User: h.User, Data: map[string]any{"mimeType": "video/mp4", "size": h.Data["size"], "video": true}})
		}
		h.Data["job"] = "JOB_STATE_COMPLETED"
		st["state"], st["progress"] = "JOB_STATE_COMPLETED", 100
		st["blob"] = map[string]any{"$type": "blob", "ref": map[string]string{"$link": cid}, "mimeType": "video/mp4", "size": h.Data["size"]}
	}
	q.json(http.StatusOK, map[string]any{"jobStatus": st})
}

// blueskyInvalidRecord answers an invalid app.bsky.feed.post record.
func blueskyInvalidRecord(q *req, msg string) {
	blueskyError(q, http.StatusBadRequest, "InvalidRequest", "Invalid app.bsky.feed.post record: "+msg)
}

// blueskyPostRecord is the app.bsky.feed.post record createRecord validates.
type blueskyPostRecord struct {
	Type      string `json:"$type"`
	Text      string `json:"text"`
	CreatedAt string `json:"createdAt"`
	Facets    []struct {
		Index struct {
			ByteStart int `json:"byteStart"`
			ByteEnd   int `json:"byteEnd"`
		} `json:"index"`
		Features []map[string]any `json:"features"`
	} `json:"facets"`
	Reply *struct {
		RawRoot   map[string]string `json:"root"`
		RawParent map[string]string `json:"parent"`
	} `json:"reply"`
	Embed  map[string]any `json:"embed"`
	Tags   []string       `json:"tags"`
	Labels map[string]any `json:"labels"`
}

func blueskyCreateRecord(q *req) {
	var in struct {
		Repo       string          `json:"repo"`
		Collection string          `json:"collection"`
		Rkey       string          `json:"rkey"`
		Record     json.RawMessage `json:"record"`
	}
	if !decodeJSON(q.r, &in) {
		blueskyError(q, http.StatusBadRequest, "InvalidRequest", "Input must be JSON")
		return
	}
	if u := blueskyUserOf(q, in.Repo); u == nil || u != q.user {
		blueskyError(q, http.StatusBadRequest, "InvalidRequest", "Input/repo must be the authenticated account")
		return
	}
	if in.Collection != "app.bsky.feed.post" {
		blueskyError(q, http.StatusBadRequest, "InvalidRequest", "Sandbox Bluesky only accepts app.bsky.feed.post records")
		return
	}
	var rec blueskyPostRecord
	if json.Unmarshal(in.Record, &rec) != nil || rec.Type != "app.bsky.feed.post" {
		blueskyInvalidRecord(q, "Record/$type must be app.bsky.feed.post")
		return
	}
	if !blueskyCheckText(q, &rec) {
		return
	}
	var media []string
	var quote string
	if rec.Embed != nil {
		var ok bool
		if media, quote, ok = blueskyCheckEmbed(q, rec.Embed); !ok {
			return
		}
	}
	if strings.TrimSpace(rec.Text) == "" && len(media) == 0 && rec.Embed == nil {
		blueskyInvalidRecord(q, "Record/text must not be empty without an embed")
		return
	}
	kind, parent := KindPost, ""
	if rec.Reply != nil {
		p, r := blueskyPost(q, rec.Reply.RawParent["uri"]), blueskyPost(q, rec.Reply.RawRoot["uri"])
		if p == nil || r == nil || p.Data["cid"] != rec.Reply.RawParent["cid"] || r.Data["cid"] != rec.Reply.RawRoot["cid"] {
			blueskyInvalidRecord(q, "Record/reply must reference existing records with their cids")
			return
		}
		kind, parent = KindComment, blueskyURIOf(p)
	}
	rkey := in.Rkey
	if rkey == "" {
		rkey = randID("")[:13]
	} else if len(rkey) != 13 || strings.Trim(rkey, "234567abcdefghijklmnopqrstuvwxyz") != "" {
		blueskyError(q, http.StatusBadRequest, "InvalidRequest", "Invalid record key: app.bsky.feed.post requires a TID")
		return
	}
	for _, h := range q.net.held {
		if (h.Kind == KindPost || h.Kind == KindComment) && h.ID == rkey && h.User == q.user.Login {
			blueskyError(q, http.StatusBadRequest, "InvalidRequest", "Record already exists at at://"+q.user.ID+"/app.bsky.feed.post/"+rkey) // (U) wording
			return
		}
	}
	cid := blueskyCIDOf(append([]byte(q.user.ID+rkey), in.Record...))
	h := q.net.keep(Held{Kind: kind, ID: rkey, User: q.user.Login, Text: rec.Text, Media: media, Parent: parent,
		URL:  "https://bsky.app/profile/" + blueskyHandle(q.user) + "/post/" + rkey,
		Data: map[string]any{"did": q.user.ID, "cid": cid, "record": json.RawMessage(in.Record), "quote": quote}})
	q.json(http.StatusOK, map[string]any{"uri": blueskyURIOf(h), "cid": cid, "commit": map[string]string{"cid": blueskyCIDOf([]byte(cid)), "rev": rkey}, "validationStatus": "valid"})
}

// blueskyCheckText validates createdAt, the text's length, facet byte ranges and tags.
func blueskyCheckText(q *req, rec *blueskyPostRecord) bool {
	if _, err := time.Parse(time.RFC3339, rec.CreatedAt); err != nil {
		blueskyInvalidRecord(q, "Record/createdAt must be an valid atproto datetime")
		return false
	}
	if utf8.RuneCountInString(rec.Text) > 300 || len(rec.Text) > 3000 {
		blueskyInvalidRecord(q, "Record/text must not be longer than 300 graphemes")
		return false
	}
	for i, f := range rec.Facets {
		if f.Index.ByteStart < 0 || f.Index.ByteEnd > len(rec.Text) || f.Index.ByteStart >= f.Index.ByteEnd || len(f.Features) == 0 {
			blueskyInvalidRecord(q, "Record/facets/"+strconv.Itoa(i)+"/index is out of the text's bytes")
			return false
		}
	}
	if len(rec.Tags) > 8 {
		blueskyInvalidRecord(q, "Record/tags must not have more than 8 elements")
		return false
	}
	return true
}

// blueskyCheckEmbed validates a post's embed: the media blobs it attaches and the post it quotes.
func blueskyCheckEmbed(q *req, e map[string]any) (media []string, quote string, ok bool) {
	switch e["$type"] {
	case "app.bsky.embed.images":
		media, ok = blueskyCheckImages(q, e)
	case "app.bsky.embed.video":
		media, ok = blueskyCheckVideo(q, e)
	case "app.bsky.embed.external":
		ext, _ := e["external"].(map[string]any)
		if uri, _ := ext["uri"].(string); uri == "" {
			blueskyInvalidRecord(q, "Record/embed/external must have the property \"uri\"")
			return nil, "", false
		}
		if ext["thumb"] != nil {
			b := blueskyBlobOf(q, ext["thumb"])
			if b == nil || b.Data["size"].(int) > 1000000 {
				blueskyInvalidRecord(q, "Record/embed/external/thumb must be an uploaded image of at most 1000000 bytes")
				return nil, "", false
			}
		}
		ok = true
	case "app.bsky.embed.record":
		ok = blueskyCheckQuote(q, e)
		r, _ := e["record"].(map[string]any)
		quote, _ = r["uri"].(string)
	case "app.bsky.embed.recordWithMedia":
		r, _ := e["record"].(map[string]any)
		m, _ := e["media"].(map[string]any)
		ok = r != nil && m != nil && blueskyCheckQuote(q, r)
		if ok && m["$type"] == "app.bsky.embed.video" {
			media, ok = blueskyCheckVideo(q, m)
		} else if ok {
			media, ok = blueskyCheckImages(q, m)
		}
		if ok {
			rr, _ := r["record"].(map[string]any)
			quote, _ = rr["uri"].(string)
		}
	default:
		blueskyInvalidRecord(q, "Record/embed $type is not one of the post's embeds")
		return nil, "", false
	}
	return media, quote, ok
}

// blueskyCheckImages validates an images embed: 1 to 4 images with alt text, uploaded blobs of at
// most 1,000,000 bytes.
func blueskyCheckImages(q *req, e map[string]any) ([]string, bool) {
	imgs, _ := e["images"].([]any)
	if len(imgs) == 0 || len(imgs) > 4 {
		blueskyInvalidRecord(q, "Record/embed/images must have 1 to 4 elements")
		return nil, false
	}
	var media []string
	for i, im := range imgs {
		m, _ := im.(map[string]any)
		b := blueskyBlobOf(q, m["image"])
		if _, ok := m["alt"].(string); !ok {
			blueskyInvalidRecord(q, "Record/embed/images/"+strconv.Itoa(i)+" must have the property \"alt\"")
			return nil, false
		}
		if b == nil {
			blueskyError(q, http.StatusBadRequest, "BlobNotFound", "Could not find blob for image "+strconv.Itoa(i))
			return nil, false
		}
		if b.Data["size"].(int) > 1000000 || !strings.HasPrefix(b.Data["mimeType"].(string), "image/") {
			blueskyInvalidRecord(q, "Record/embed/images/"+strconv.Itoa(i)+"/image file too large or not an image. 1000000 bytes maximum")
			return nil, false
		}
		media = append(media, b.ID)
	}
	return media, true
}

// blueskyCheckVideo validates a video embed: a blob the video service finished encoding.
func blueskyCheckVideo(q *req, e map[string]any) ([]string, bool) {
	b := blueskyBlobOf(q, e["video"])
	if b == nil || b.Data["video"] != true {
		blueskyError(q, http.StatusBadRequest, "BlobNotFound", "Could not find the video blob (upload it through the video service)")
		return nil, false
	}
	return []string{b.ID}, true
}

// blueskyCheckQuote validates a record embed: a uri and cid, the cid matching when the sandbox
// holds the record.
func blueskyCheckQuote(q *req, e map[string]any) bool {
	r, _ := e["record"].(map[string]any)
	uri, _ := r["uri"].(string)
	cid, _ := r["cid"].(string)
	if uri == "" || cid == "" {
		blueskyInvalidRecord(q, "Record/embed/record must have uri and cid")
		return false
	}
	if h := blueskyPost(q, uri); h != nil && h.Data["cid"] != cid {
		blueskyInvalidRecord(q, "Record/embed/record/cid does not match the record")
		return false
	}
	return true
}

// blueskyView is a record as getRecord and listRecords answer it.
func blueskyView(h *Held) map[string]any {
	return map[string]any{"uri": blueskyURIOf(h), "cid": h.Data["cid"], "value": h.Data["record"]}
}

func blueskyGetRecord(q *req) {
	v := q.r.URL.Query()
	uri := "at://" + v.Get("repo") + "/" + v.Get("collection") + "/" + v.Get("rkey")
	h := blueskyPost(q, uri)
	if h == nil {
		blueskyError(q, http.StatusBadRequest, "RecordNotFound", "Could not locate record: "+uri)
		return
	}
	q.json(http.StatusOK, blueskyView(h))
}

func blueskyListRecords(q *req) {
	v := q.r.URL.Query()
	u := blueskyUserOf(q, v.Get("repo"))
	if u == nil {
		blueskyError(q, http.StatusBadRequest, "InvalidRequest", "Could not find repo: "+v.Get("repo"))
		return
	}
	limit, err := strconv.Atoi(v.Get("limit"))
	if err != nil || limit <= 0 {
		limit = 50
	}
	if limit > 100 {
		blueskyError(q, http.StatusBadRequest, "InvalidRequest", "limit must be at most 100")
		return
	}
	out := []map[string]any{}
	for i := len(q.net.held) - 1; i >= 0 && len(out) < limit; i-- {
		h := q.net.held[i]
		if (h.Kind == KindPost || h.Kind == KindComment) && h.User == u.Login && h.DeletedAt == nil {
			out = append(out, blueskyView(h))
		}
	}
	q.json(http.StatusOK, map[string]any{"records": out})
}

func blueskyDeleteRecord(q *req) {
	var in struct{ Repo, Collection, Rkey string }
	if !decodeJSON(q.r, &in) || in.Rkey == "" {
		blueskyError(q, http.StatusBadRequest, "InvalidRequest", "Input must have the properties repo, collection and rkey")
		return
	}
	if u := blueskyUserOf(q, in.Repo); u == nil || u != q.user {
		blueskyError(q, http.StatusBadRequest, "InvalidRequest", "Input/repo must be the authenticated account")
		return
	}
	if h := blueskyPost(q, "at://"+q.user.ID+"/"+in.Collection+"/"+in.Rkey); h != nil {
		q.net.remove(h)
	}
	q.json(http.StatusOK, map[string]any{"commit": map[string]string{"cid": blueskyCIDOf([]byte(in.Rkey + "del")), "rev": in.Rkey}})
}

func blueskyGetPosts(q *req) {
	out := []map[string]any{}
	for _, uri := range q.r.URL.Query()["uris"] {
		if h := blueskyPost(q, uri); h != nil {
			out = append(out, map[string]any{"uri": blueskyURIOf(h), "cid": h.Data["cid"], "record": h.Data["record"], "indexedAt": h.At,
				"author": map[string]any{"did": h.Data["did"], "handle": h.User + ".sandbox.bsky"}, "likeCount": 0, "repostCount": 0, "replyCount": 0, "quoteCount": 0})
		}
	}
	q.json(http.StatusOK, map[string]any{"posts": out})
}

func blueskyResolveHandle(q *req) {
	h := q.r.URL.Query().Get("handle")
	for _, u := range q.net.users {
		if blueskyHandle(u) == h {
			q.json(http.StatusOK, map[string]any{"did": u.ID})
			return
		}
	}
	blueskyError(q, http.StatusBadRequest, "InvalidRequest", "Unable to resolve handle")
}
