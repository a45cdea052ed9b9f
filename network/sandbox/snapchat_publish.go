package sandbox

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"time"
	"unicode/utf8"
)

// Snapchat Public Profile publishing, as networks.md describes it (uncertain there, so here too):
// POST /v1/public_profiles/{id}/media {type, name, key, iv} → media_id, add_path, finalize_path;
// multipart ADD parts (≤ 32 MB, part_number) then FINALIZE, which decrypts the parts with the
// media's AES-256-CBC key and IV and refuses a file that does not decrypt (bad padding); POST
// …/stories, …/saved_stories (title ≤ 45) and …/spotlights (description ≤ 160) with a finalized
// media used once; GET of each collection (Find); DELETE of saved stories and spotlights. Errors in
// Snap's {request_status: ERROR, …} envelope; 429s carry Retry-After.
func snapchatPublish(d *dialect) {
	plain := d.writeError
	d.writeError = func(q *req, e apiError) {
		if !e.ResetAt.IsZero() {
			q.w.Header().Set("Retry-After", fmt.Sprint(int(time.Until(e.ResetAt).Seconds()+0.5)))
		}
		plain(q, e)
	}
	base := "/v1/public_profiles/{id}"
	d.routes["POST "+base+"/media"] = snapchatMedia
	d.routes["POST "+base+"/media/{mid}/multipart-upload"] = snapchatPart
	for _, e := range []string{"stories", "saved_stories", "spotlights"} {
		e := e
		d.routes["POST "+base+"/"+e] = func(q *req) { snapchatPost(q, e) }
		d.routes["GET "+base+"/"+e] = func(q *req) { snapchatList(q, e) }
		if e != "stories" {
			d.routes["DELETE "+base+"/"+e+"/{pid}"] = func(q *req) { snapchatDelete(q, e) }
		}
	}
}

const snapchatMediaKind = "snap-media"

func snapchatOK(q *req, body map[string]any) {
	body["request_status"], body["request_id"] = "SUCCESS", randID("")[:16]
	q.json(http.StatusOK, body)
}

func snapchatBad(q *req, status int, code, msg string) {
	q.fail(apiError{Status: status, Code: code, Message: msg})
}

// snapchatProfile checks the path's profile is the caller's.
func snapchatProfile(q *req) bool {
	if pathSegment(q, 3) != "pp-"+q.user.ID {
		snapchatBad(q, http.StatusForbidden, "E1002", "The public profile does not belong to the caller")
		return false
	}
	return true
}

func snapchatMedia(q *req) {
	if !snapchatProfile(q) {
		return
	}
	var body struct {
		Type string `json:"type"`
		Name string `json:"name"`
		Key  string `json:"key"`
		IV   string `json:"iv"`
	}
	key, iv := []byte(nil), []byte(nil)
	ok := decodeJSON(q.r, &body)
	if ok {
		var e1, e2 error
		key, e1 = base64.StdEncoding.DecodeString(body.Key)
		iv, e2 = base64.StdEncoding.DecodeString(body.IV)
		ok = e1 == nil && e2 == nil && len(key) == 32 && len(iv) == aes.BlockSize && (body.Type == "IMAGE" || body.Type == "VIDEO")
	}
	if !ok {
		snapchatBad(q, http.StatusBadRequest, "E1000", "type must be IMAGE or VIDEO, key a base64 256-bit key and iv a base64 128-bit IV")
		return
	}
	id := randID("")[:8] + "-" + randID("")[:4] + "-" + randID("")[:4] + "-" + randID("")[:12]
	q.net.keep(Held{Kind: KindMedia, ID: id, User: q.user.Login, Channel: "pp-" + q.user.ID, Data: map[string]any{"type": snapchatMediaKind,
		"media_type": body.Type, "name": body.Name, "key": key, "iv": iv, "parts": map[int][]byte{}, "status": "PENDING_UPLOAD"}})
	path := "/v1/public_profiles/pp-" + q.user.ID + "/media/" + id + "/multipart-upload"
	snapchatOK(q, map[string]any{"media_id": id, "add_path": path, "finalize_path": path})
}

func snapchatPart(q *req) {
	if !snapchatProfile(q) {
		return
	}
	m := q.net.live(pathSegment(q, 5), KindMedia)
	if m == nil || m.Data["type"] != snapchatMediaKind || m.User != q.user.Login {
		snapchatBad(q, http.StatusNotFound, "E1003", "Media not found")
		return
	}
	f := formValues(q.r)
	parts := m.Data["parts"].(map[int][]byte)
	switch f.Get("action") {
	case "ADD":
		n, err := strconv.Atoi(f.Get("part_number"))
		file, _, ferr := q.r.FormFile("file")
		if err != nil || n < 1 || ferr != nil || m.Data["status"] != "PENDING_UPLOAD" {
			snapchatBad(q, http.StatusBadRequest, "E1000", "ADD needs part_number ≥ 1 and a file, before FINALIZE")
			return
		}
		b, _ := io.ReadAll(io.LimitReader(file, 33<<20))
		_ = file.Close()
		if len(b) > 32<<20 {
			snapchatBad(q, http.StatusBadRequest, "E1000", "A part is at most 32 MB")
			return
		}
		parts[n] = b
		snapchatOK(q, map[string]any{})
	case "FINALIZE":
		nums := make([]int, 0, len(parts))
		for n := range parts {
			nums = append(nums, n)
		}
		sort.Ints(nums)
		var all []byte
		for i, n := range nums {
			if n != i+1 {
				snapchatBad(q, http.StatusBadRequest, "E1000", "Parts are missing")
				return
			}
			all = append(all, parts[n]...)
		}
		size, ok := snapchatDecrypt(all, m.Data["key"].([]byte), m.Data["iv"].([]byte))
		if !ok {
			snapchatBad(q, http.StatusBadRequest, "E1004", "The media could not be decrypted with its key and iv")
			return
		}
		m.Data["status"], m.Data["size"], m.Data["parts"] = "READY", size, map[int][]byte{}
		snapchatOK(q, map[string]any{})
	default:
		snapchatBad(q, http.StatusBadRequest, "E1000", "action must be ADD or FINALIZE")
	}
}

// snapchatDecrypt checks the upload decrypts (AES-256-CBC, PKCS#7) and answers the plain size.
func snapchatDecrypt(ct, key, iv []byte) (int, bool) {
	if len(ct) == 0 || len(ct)%aes.BlockSize != 0 {
		return 0, false
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return 0, false
	}
	plain := make([]byte, len(ct))
	cipher.NewCBCDecrypter(block, iv).CryptBlocks(plain, ct)
	pad := int(plain[len(plain)-1])
	if pad < 1 || pad > aes.BlockSize || !bytes.Equal(plain[len(plain)-pad:], bytes.Repeat([]byte{byte(pad)}, pad)) {
		return 0, false
	}
	return len(plain) - pad, true
}

func snapchatKind(e string) string {
	return map[string]string{"stories": "story", "saved_stories": "saved_story", "spotlights": "spotlight"}[e]
}

func snapchatPost(q *req, e string) {
	if !snapchatProfile(q) {
		return
	}
	var body struct {
		MediaID     string `json:"media_id"`
		Title       string `json:"title"`
		Description string `json:"description"`
		Locale      string `json:"locale"`
		Skip        bool   `json:"skip_save_to_profile"`
	}
	_ = decodeJSON(q.r, &body)
	m := q.net.live(body.MediaID, KindMedia)
	switch {
	case m == nil || m.Data["type"] != snapchatMediaKind || m.User != q.user.Login:
		snapchatBad(q, http.StatusBadRequest, "E1003", "media_id does not name a media of this profile")
		return
	case m.Data["status"] != "READY":
		snapchatBad(q, http.StatusBadRequest, "E1005", "The media is not finalized")
		return
	case m.Data["used"] == true:
		snapchatBad(q, http.StatusBadRequest, "E1006", "The media was already posted")
		return
	case e == "spotlights" && m.Data["media_type"] != "VIDEO":
		snapchatBad(q, http.StatusBadRequest, "E1000", "Spotlight takes a video")
		return
	case e == "spotlights" && utf8.RuneCountInString(body.Description) > 160:
		snapchatBad(q, http.StatusBadRequest, "E1000", "description is longer than 160 characters")
		return
	case e == "saved_stories" && (body.Title == "" || utf8.RuneCountInString(body.Title) > 45):
		snapchatBad(q, http.StatusBadRequest, "E1000", "title is required, at most 45 characters")
		return
	}
	m.Data["used"] = true
	id := randID("")[:8] + "-" + randID("")[:4] + "-" + randID("")[:4] + "-" + randID("")[:12]
	text := body.Description
	if e == "saved_stories" {
		text = body.Title
	}
	url := "https://www.snapchat.com/add/" + q.user.Login
	if e == "spotlights" {
		url = "https://www.snapchat.com/spotlight/" + id
	}
	q.net.keep(Held{Kind: KindPost, ID: id, User: q.user.Login, Channel: "pp-" + q.user.ID, Text: text, Media: []string{m.ID}, URL: url,
		Data: map[string]any{"edge": e, "media_id": m.ID, "locale": body.Locale, "skip_save_to_profile": body.Skip}})
	snapchatOK(q, map[string]any{snapchatKind(e): map[string]any{"id": id, "media_id": m.ID, "created_at": time.Now().UTC().Format(time.RFC3339)}})
}

func snapchatList(q *req, e string) {
	if !snapchatProfile(q) {
		return
	}
	list := []map[string]any{}
	for _, h := range q.net.heldBy(KindPost, q.user.Login) {
		if h.Data["edge"] == e {
			list = append(list, map[string]any{"sub_request_status": "SUCCESS", snapchatKind(e): map[string]any{"id": h.ID, "media_id": h.Data["media_id"],
				"created_at": h.At.Format(time.RFC3339)}})
		}
	}
	snapchatOK(q, map[string]any{e: list})
}

func snapchatDelete(q *req, e string) {
	if !snapchatProfile(q) {
		return
	}
	h := q.net.live(pathSegment(q, 5), KindPost)
	if h == nil || h.User != q.user.Login || h.Data["edge"] != e {
		snapchatBad(q, http.StatusNotFound, "E1003", "Not found")
		return
	}
	q.net.remove(h)
	snapchatOK(q, map[string]any{})
}
