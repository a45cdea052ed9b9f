package sandbox

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"
)

// LinkedIn publishing (/rest, LinkedIn-Version required): images, videos and documents through
// initializeUpload (owner must be the member or one of its pages) and PUTs to the handed-out upload
// URLs (Bearer required; video parts answer an ETag, finalizeUpload checks them), videos and
// documents PROCESSING until read once more, then AVAILABLE; POST /rest/posts (201, the URN in
// x-restli-id, empty body) validating author, commentary ≤ 3,000 characters, visibility,
// distribution, lifecycleState and content (media available, 2–20 multiImage images, one video);
// GET /rest/posts/{urn}, GET /rest/posts?q=author (newest first), DELETE /rest/posts/{urn} (204),
// POST /rest/socialActions/{urn}/comments.
func linkedinPublish(d *dialect) {
	d.routes["POST /rest/images"] = linkedinVersioned(func(q *req) { linkedinInitialize(q, "image") })
	d.routes["POST /rest/videos"] = linkedinVersioned(func(q *req) { linkedinInitialize(q, "video") })
	d.routes["POST /rest/documents"] = linkedinVersioned(func(q *req) { linkedinInitialize(q, "document") })
	if d.patterns == nil {
		d.patterns = map[string]func(q *req){}
	}
	d.patterns["PUT /dms-uploads/{id}"] = linkedinUpload
	d.patterns["PUT /dms-uploads/{id}/part/{n}"] = linkedinUpload
	d.routes["GET /rest/videos/{urn}"] = linkedinVersioned(linkedinStatus)
	d.routes["GET /rest/documents/{urn}"] = linkedinVersioned(linkedinStatus)
	d.routes["GET /rest/images/{urn}"] = linkedinVersioned(linkedinStatus)
	d.routes["POST /rest/posts"] = linkedinVersioned(linkedinCreatePost)
	d.routes["GET /rest/posts/{urn}"] = linkedinVersioned(linkedinGetPost)
	d.routes["GET /rest/posts"] = linkedinVersioned(linkedinFindPosts)
	d.routes["DELETE /rest/posts/{urn}"] = linkedinVersioned(linkedinDeletePost)
	d.routes["POST /rest/socialActions/{urn}/comments"] = linkedinVersioned(linkedinComment)
}

// linkedinError answers LinkedIn's error shape.
func linkedinError(q *req, status int, code, msg string) {
	q.fail(apiError{Status: status, Code: code, Message: msg})
}

// linkedinOwns says whether urn is the caller or an organization the caller administers.
func linkedinOwns(q *req, urn string) bool {
	if urn == "urn:li:person:"+q.user.ID {
		return true
	}
	for _, c := range q.user.Channels {
		if urn == "urn:li:organization:"+c.ID {
			return true
		}
	}
	return false
}

// linkedinLastSegment answers the last segment of the request path (a URN).
func linkedinLastSegment(q *req) string { return q.path[strings.LastIndex(q.path, "/")+1:] }

const linkedinPartSize = 4 << 20

// linkedinNewAsset keeps an image, video or document waiting for its upload.
func linkedinNewAsset(q *req, kind, owner string, size int) *Held {
	id := "D" + strings.ToUpper(randID("")[:15])
	return q.net.keep(Held{Kind: KindMedia, ID: "urn:li:" + kind + ":" + id, User: q.user.Login, Channel: owner,
		Data: map[string]any{"kind": kind, "status": "WAITING_UPLOAD", "size": size, "parts": map[string]int{}, "token": randID("")[:16], "key": id}})
}

// linkedinAsset finds an asset of the caller by URN.
func linkedinAsset(q *req, urn string) *Held {
	h := q.net.find(KindMedia, urn)
	if h == nil || h.User != q.user.Login {
		return nil
	}
	return h
}

// linkedinInitialize answers POST /rest/{images,videos,documents}?action=initializeUpload (upload
// URLs: one for images and documents, 4 MiB parts for videos) and, for videos,
// ?action=finalizeUpload.
func linkedinInitialize(q *req, kind string) {
	action := q.r.URL.Query().Get("action")
	var in struct {
		Init *struct {
			Owner           string `json:"owner"`
			FileSizeBytes   int    `json:"fileSizeBytes"`
			UploadThumbnail bool   `json:"uploadThumbnail"`
		} `json:"initializeUploadRequest"`
		Finalize *struct {
			Video           string   `json:"video"`
			UploadToken     string   `json:"uploadToken"`
			UploadedPartIDs []string `json:"uploadedPartIds"`
		} `json:"finalizeUploadRequest"`
	}
	if !decodeJSON(q.r, &in) {
		linkedinError(q, http.StatusBadRequest, "", "Request body is not valid JSON")
		return
	}
	if action == "finalizeUpload" && kind == "video" && in.Finalize != nil {
		linkedinFinalizeVideo(q, in.Finalize.Video, in.Finalize.UploadToken, in.Finalize.UploadedPartIDs)
		return
	}
	if action != "initializeUpload" || in.Init == nil || in.Init.Owner == "" {
		linkedinError(q, http.StatusBadRequest, "", "Unsupported action or missing initializeUploadRequest.owner")
		return
	}
	if !linkedinOwns(q, in.Init.Owner) {
		linkedinError(q, http.StatusForbidden, "ACCESS_DENIED", "Not enough permissions to access: "+kind+"s.CREATE")
		return
	}
	if kind == "video" && (in.Init.FileSizeBytes <= 0 || in.Init.FileSizeBytes > 500<<20) {
		linkedinError(q, http.StatusBadRequest, "", "fileSizeBytes must be between 1 and 524288000")
		return
	}
	h := linkedinNewAsset(q, kind, in.Init.Owner, in.Init.FileSizeBytes)
	base := baseURL(q) + "/dms-uploads/" + h.Data["key"].(string)
	value := map[string]any{"uploadUrlExpiresAt": q.net.sb.Now().Add(24 * 3600e9).UnixMilli(), kind: h.ID}
	if kind == "video" {
		var ins []map[string]any
		for first, i := 0, 0; first < in.Init.FileSizeBytes; first, i = first+linkedinPartSize, i+1 {
			lastByte := min(first+linkedinPartSize, in.Init.FileSizeBytes) - 1
			ins = append(ins, map[string]any{"uploadUrl": base + "/part/" + strconv.Itoa(i), "firstByte": first, "lastByte": lastByte})
		}
		value["uploadInstructions"], value["uploadToken"] = ins, h.Data["token"]
	} else {
		value["uploadUrl"] = base
	}
	q.json(http.StatusOK, map[string]any{"value": value})
}

// linkedinFinalizeVideo checks that every part of a video was uploaded and starts its processing.
func linkedinFinalizeVideo(q *req, video, uploadToken string, partIDs []string) {
	h := linkedinAsset(q, video)
	if h == nil {
		linkedinError(q, http.StatusNotFound, "", "Video "+video+" not found")
		return
	}
	parts := h.Data["parts"].(map[string]int)
	want := (h.Data["size"].(int) + linkedinPartSize - 1) / linkedinPartSize
	if uploadToken != h.Data["token"] || len(partIDs) != want {
		linkedinError(q, http.StatusBadRequest, "", "uploadToken or uploadedPartIds do not match the upload")
		return
	}
	for _, etag := range partIDs {
		if _, ok := parts[etag]; !ok {
			linkedinError(q, http.StatusBadRequest, "", "Part "+etag+" was not uploaded")
			return
		}
	}
	h.Data["status"] = "PROCESSING"
	q.json(http.StatusOK, map[string]any{})
}

// linkedinByKey finds an asset by the key of its upload URL.
func linkedinByKey(q *req, key string) *Held {
	for _, h := range q.net.held {
		if h.Kind == KindMedia && h.Data["key"] == key {
			return h
		}
	}
	return nil
}

func linkedinUpload(q *req) {
	parts := strings.Split(strings.TrimPrefix(q.path, "/dms-uploads/"), "/")
	h := linkedinByKey(q, parts[0])
	if !strings.HasPrefix(q.r.Header.Get("Authorization"), "Bearer ") {
		linkedinError(q, http.StatusUnauthorized, "65600", "Invalid access token")
		return
	}
	if h == nil {
		linkedinError(q, http.StatusNotFound, "", "Upload not found")
		return
	}
	b, _ := io.ReadAll(io.LimitReader(q.r.Body, 600<<20))
	if len(b) == 0 {
		linkedinError(q, http.StatusBadRequest, "", "Empty upload")
		return
	}
	if len(parts) == 3 {
		etag := fmt.Sprintf("/ambry-video/signedId/%s/part/%s", h.Data["key"], parts[2])
		h.Data["parts"].(map[string]int)[etag] = len(b)
		q.w.Header().Set("ETag", etag)
		if parts[2] == "0" {
			h.Data["sniffed"] = sniffMedia(b)
		}
	} else {
		if h.Data["kind"] == "image" && len(b) > 36152320 {
			linkedinError(q, http.StatusBadRequest, "", "Image too large")
			return
		}
		h.Data["sniffed"], h.Data["size"] = sniffMedia(b), len(b)
		h.Data["status"] = "AVAILABLE"
		if h.Data["kind"] == "document" {
			h.Data["status"] = "PROCESSING"
		}
	}
	q.w.WriteHeader(http.StatusCreated)
}

func linkedinStatus(q *req) {
	h := linkedinAsset(q, linkedinLastSegment(q))
	if h == nil {
		linkedinError(q, http.StatusNotFound, "", "Not Found")
		return
	}
	out := map[string]any{"id": h.ID, "owner": h.Channel, "status": h.Data["status"]}
	if h.Data["status"] == "PROCESSING" {
		h.Data["status"] = "AVAILABLE" // processed by the next read
	}
	q.json(http.StatusOK, out)
}

// linkedinPostJSON is a post as the Posts API answers it.
func linkedinPostJSON(h *Held) map[string]any {
	out := map[string]any{"id": h.ID, "author": h.Channel, "commentary": h.Text, "visibility": h.Data["visibility"],
		"lifecycleState": "PUBLISHED", "createdAt": h.At.UnixMilli(), "publishedAt": h.At.UnixMilli(), "lastModifiedAt": h.At.UnixMilli(),
		"distribution": map[string]any{"feedDistribution": h.Data["feed"]}, "isReshareDisabledByAuthor": h.Data["noReshare"]}
	if h.Data["content"] != nil {
		out["content"] = h.Data["content"]
	}
	return out
}

func linkedinCreatePost(q *req) {
	var in struct {
		Author       string `json:"author"`
		Commentary   string `json:"commentary"`
		Visibility   string `json:"visibility"`
		Distribution *struct {
			FeedDistribution string `json:"feedDistribution"`
		} `json:"distribution"`
		LifecycleState string `json:"lifecycleState"`
		NoReshare      bool   `json:"isReshareDisabledByAuthor"`
		Content        *struct {
			Media *struct {
				ID string `json:"id"`
			} `json:"media"`
			MultiImage *struct {
				Images []struct {
					ID string `json:"id"`
				} `json:"images"`
			} `json:"multiImage"`
			Article *struct {
				Source    string `json:"source"`
				Thumbnail string `json:"thumbnail"`
			} `json:"article"`
		} `json:"content"`
	}
	var raw json.RawMessage
	if !decodeJSON(q.r, &raw) || json.Unmarshal(raw, &in) != nil {
		linkedinError(q, http.StatusBadRequest, "", "Request body is not valid JSON")
		return
	}
	field := func(msg string) { linkedinError(q, http.StatusUnprocessableEntity, "", msg) }
	switch {
	case !linkedinOwns(q, in.Author):
		linkedinError(q, http.StatusForbidden, "ACCESS_DENIED", "Not enough permissions to access: partnerApiPostsExternal.CREATE.20260101")
		return
	case utf8.RuneCountInString(in.Commentary) > 3000:
		field("/commentary :: length of 3001 exceeds the maximum allowed of 3000") // (U) wording
		return
	case in.Visibility != "PUBLIC" && in.Visibility != "CONNECTIONS" && in.Visibility != "LOGGED_IN" && in.Visibility != "CONTAINER":
		field("/visibility :: is not a valid value")
		return
	case in.Distribution == nil || (in.Distribution.FeedDistribution != "MAIN_FEED" && in.Distribution.FeedDistribution != "NONE"):
		field("/distribution/feedDistribution :: field is required")
		return
	case in.LifecycleState != "PUBLISHED" && in.LifecycleState != "DRAFT":
		field("/lifecycleState :: is not a valid value")
		return
	}
	var media []string
	available := func(urn string) bool {
		h := linkedinAsset(q, urn)
		if h == nil || h.Data["status"] != "AVAILABLE" {
			field("/content/media/id :: " + urn + " is not an available asset of the author") // (U) wording
			return false
		}
		media = append(media, urn)
		return true
	}
	if c := in.Content; c != nil {
		switch {
		case c.Media != nil:
			if !available(c.Media.ID) {
				return
			}
		case c.MultiImage != nil:
			if n := len(c.MultiImage.Images); n < 2 || n > 20 {
				field("/content/multiImage/images :: must have between 2 and 20 images")
				return
			}
			for _, im := range c.MultiImage.Images {
				if !strings.HasPrefix(im.ID, "urn:li:image:") {
					field("/content/multiImage/images :: only images are allowed")
					return
				}
				if !available(im.ID) {
					return
				}
			}
		case c.Article != nil:
			if c.Article.Source == "" {
				field("/content/article/source :: field is required")
				return
			}
			if c.Article.Thumbnail != "" && !available(c.Article.Thumbnail) {
				return
			}
		}
	}
	if strings.TrimSpace(in.Commentary) == "" && in.Content == nil {
		field("/commentary :: field is required for a post without content")
		return
	}
	var content any
	_ = json.Unmarshal(raw, &struct {
		Content *any `json:"content"`
	}{&content})
	urn := "urn:li:share:" + strconv.FormatInt(7000000000000000000+int64(len(q.net.held))*7919+q.net.sb.Now().UnixNano()%7919, 10)
	q.net.keep(Held{Kind: KindPost, ID: urn, User: q.user.Login, Channel: in.Author, Text: in.Commentary, Media: media,
		URL:  "https://www.linkedin.com/feed/update/" + urn,
		Data: map[string]any{"visibility": in.Visibility, "feed": in.Distribution.FeedDistribution, "noReshare": in.NoReshare, "content": content}})
	q.w.Header().Set("x-restli-id", urn)
	q.w.Header().Set("x-linkedin-id", urn)
	q.w.WriteHeader(http.StatusCreated)
}

func linkedinGetPost(q *req) {
	h := q.net.live(linkedinLastSegment(q), KindPost)
	if h == nil {
		linkedinError(q, http.StatusNotFound, "", "Not Found")
		return
	}
	q.json(http.StatusOK, linkedinPostJSON(h))
}

func linkedinFindPosts(q *req) {
	v := q.r.URL.Query()
	if v.Get("q") != "author" || !linkedinOwns(q, v.Get("author")) {
		linkedinError(q, http.StatusForbidden, "ACCESS_DENIED", "Not enough permissions to access: partnerApiPostsExternal.FINDER-author.20260101")
		return
	}
	count, err := strconv.Atoi(v.Get("count"))
	if err != nil || count <= 0 {
		count = 10
	}
	els := []map[string]any{}
	posts := q.net.heldIn(KindPost, v.Get("author"))
	for i := len(posts) - 1; i >= 0 && len(els) < count; i-- {
		els = append(els, linkedinPostJSON(posts[i]))
	}
	q.json(http.StatusOK, map[string]any{"paging": map[string]any{"start": 0, "count": count, "links": []any{}}, "elements": els})
}

func linkedinDeletePost(q *req) {
	h := q.net.live(linkedinLastSegment(q), KindPost)
	if h == nil {
		linkedinError(q, http.StatusNotFound, "", "Not Found")
		return
	}
	if !linkedinOwns(q, h.Channel) {
		linkedinError(q, http.StatusForbidden, "ACCESS_DENIED", "Not enough permissions to access: partnerApiPostsExternal.DELETE.20260101")
		return
	}
	q.net.remove(h)
	q.w.WriteHeader(http.StatusNoContent)
}

func linkedinComment(q *req) {
	target := strings.Split(q.path, "/")[3]
	var in struct {
		Actor   string `json:"actor"`
		Object  string `json:"object"`
		Message struct {
			Text string `json:"text"`
		} `json:"message"`
	}
	if !decodeJSON(q.r, &in) {
		linkedinError(q, http.StatusBadRequest, "", "Request body is not valid JSON")
		return
	}
	post := q.net.live(target, KindPost)
	switch {
	case post == nil:
		linkedinError(q, http.StatusNotFound, "", "Not Found")
		return
	case !linkedinOwns(q, in.Actor):
		linkedinError(q, http.StatusForbidden, "ACCESS_DENIED", "Not enough permissions to access: partnerApiSocialActions.CREATE.20260101")
		return
	case in.Object != target || strings.TrimSpace(in.Message.Text) == "":
		linkedinError(q, http.StatusUnprocessableEntity, "", "/object must be the post and /message/text is required")
		return
	case utf8.RuneCountInString(in.Message.Text) > 1250:
		linkedinError(q, http.StatusUnprocessableEntity, "", "/message/text :: length exceeds the maximum allowed of 1250") // (U)
		return
	}
	id := strconv.FormatInt(7100000000000000000+int64(len(q.net.held)), 10)
	urn := "urn:li:comment:(" + target + "," + id + ")"
	h := q.net.keep(Held{Kind: KindComment, ID: urn, User: q.user.Login, Channel: in.Actor, Text: in.Message.Text, Parent: target,
		URL: post.URL + "?commentUrn=" + strings.NewReplacer(":", "%3A", "(", "%28", ")", "%29", ",", "%2C").Replace(urn)})
	q.w.Header().Set("x-restli-id", urn)
	q.json(http.StatusCreated, map[string]any{"$URN": urn, "id": id, "actor": in.Actor, "object": target, "message": map[string]any{"text": h.Text},
		"created": map[string]any{"actor": in.Actor, "time": h.At.UnixMilli()}})
}
