package snapchat

// Publishing to a Snapchat Public Profile. networks.md marks this whole flow uncertain (U): the
// paths and bodies below follow its excerpts of developers.snap.com and must be checked against the
// live docs before production.
//
//  1. The file is encrypted with AES-256-CBC (random 32-byte key, 16-byte IV, PKCS#7 padding).
//  2. POST /v1/public_profiles/{profile}/media {type IMAGE|VIDEO, name, key, iv} → media_id with
//     add_path and finalize_path (U: the names of the upload paths).
//  3. The encrypted bytes go in multipart parts of ≤ 32 MB (action=ADD, part_number, file), then
//     action=FINALIZE.
//  4. POST /v1/public_profiles/{profile}/stories | saved_stories | spotlights with media_id
//     (+ title for saved stories; description, locale, skip_save_to_profile for spotlights).
//
// The media id is checkpointed (a media object is usable for 24 h and is posted once), the upload,
// the attempt and the post id too. Find reads the checkpointed post, else lists the profile's
// stories/spotlights/saved stories for one made from the checkpointed media. Delete removes saved
// stories and spotlights; a 24-hour story cannot be deleted through the API (ErrNotSupported). No
// permalink is documented: spotlights get snapchat.com/spotlight/{id}, stories the profile's page.

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/pubutil"
)

const (
	checkpointMedia    = "snapchat.media"
	checkpointUploaded = "snapchat.uploaded"
	checkpointPost     = "snapchat.post"
	partSize           = 32 << 20
)

// edge is the collection a payload type posts to.
func edge(pl *Payload) string {
	switch pl.Type {
	case "SPOTLIGHT":
		return "spotlights"
	case "SAVED_STORY":
		return "saved_stories"
	}
	return "stories"
}

func singular(e string) string {
	return strings.TrimSuffix(strings.Replace(e, "stories", "story", 1), "s")
}

// profileID answers the public profile (the account's id, else my_profile).
func (a *Adapter) profileID(ctx context.Context, t *app.Token, acc *app.SocialAccount) (string, string, error) {
	if acc != nil && acc.ExternalID != nil && *acc.ExternalID != "" {
		user := ""
		if acc.Username != nil {
			user = *acc.Username
		}
		return *acc.ExternalID, user, nil
	}
	p, err := a.Profile(ctx, t)
	if err != nil {
		return "", "", err
	}
	return p.ExternalID, p.Username, nil
}

func permalink(e, id, username string) string {
	if e == "spotlights" {
		return "https://www.snapchat.com/spotlight/" + id
	}
	return "https://www.snapchat.com/add/" + username
}

// encrypt is AES-256-CBC with PKCS#7 padding under a fresh key and IV.
func encrypt(plain []byte) (ct, key, iv []byte, err error) {
	key, iv = make([]byte, 32), make([]byte, aes.BlockSize)
	if _, err = rand.Read(key); err != nil {
		return
	}
	if _, err = rand.Read(iv); err != nil {
		return
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return
	}
	pad := aes.BlockSize - len(plain)%aes.BlockSize
	ct = append(append([]byte{}, plain...), bytes.Repeat([]byte{byte(pad)}, pad)...)
	cipher.NewCBCEncrypter(block, iv).CryptBlocks(ct, ct)
	return ct, key, iv, nil
}

// Publish uploads the media and posts it.
func (a *Adapter) Publish(ctx context.Context, t *app.Token, req *app.PublishRequest) (*app.Published, error) {
	pl, _ := req.Payload.(*Payload)
	if pl == nil {
		return nil, pubutil.Refused(app.Snapchat, "the post has no SNAPCHAT payload")
	}
	if len(req.Media) != 1 {
		return nil, pubutil.Refused(app.Snapchat, "a Snapchat post takes exactly one image or video")
	}
	profile, username, err := a.profileID(ctx, t, req.Account)
	if err != nil {
		return nil, err
	}
	e := edge(pl)
	if id := req.Checkpointed(checkpointPost); id != "" {
		return &app.Published{ExternalID: id, Permalink: permalink(e, id, username), Extra: map[string]string{"edge": e, "profileId": profile}}, nil
	}
	mediaID := req.Checkpointed(checkpointMedia)
	if mediaID == "" || req.Checkpointed(checkpointUploaded) == "" {
		if mediaID, err = a.upload(ctx, t, profile, req); err != nil {
			return nil, err
		}
	}
	body := map[string]any{"media_id": mediaID}
	switch e {
	case "spotlights":
		desc := pl.Description
		if desc == "" {
			desc = pl.Text
		}
		body["description"], body["skip_save_to_profile"] = desc, pl.SkipSaveToProfile
		if pl.Locale != "" {
			body["locale"] = pl.Locale
		}
	case "saved_stories":
		title := pl.Title
		if title == "" {
			title = pl.Text
		}
		body["title"] = title
	}
	if err := pubutil.MarkAttempt(ctx, req); err != nil {
		return nil, err
	}
	var out map[string]any
	if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.base + "/v1/public_profiles/" + url.PathEscape(profile) + "/" + e,
		Bearer: t.AccessToken, JSON: body}, &out); err != nil {
		return nil, err
	}
	id := createdID(out, singular(e))
	if id == "" {
		return nil, &app.NetworkError{Network: app.Snapchat, Class: app.ErrTransient, Status: http.StatusOK, Message: "the answer named no " + singular(e)}
	}
	if err := req.Save(ctx, checkpointPost, id); err != nil {
		return nil, err
	}
	return &app.Published{ExternalID: id, Permalink: permalink(e, id, username), Extra: map[string]string{"edge": e, "profileId": profile, "mediaId": mediaID}}, nil
}

// createdID reads {"<kind>":{"id"}} or {"id"} from Snap's envelope.
func createdID(out map[string]any, kind string) string {
	if o, ok := out[kind].(map[string]any); ok {
		if id, ok := o["id"].(string); ok {
			return id
		}
	}
	id, _ := out["id"].(string)
	return id
}

// upload creates the media object, sends its encrypted parts and finalizes it.
func (a *Adapter) upload(ctx context.Context, t *app.Token, profile string, req *app.PublishRequest) (string, error) {
	m := req.Media[0]
	plain, err := pubutil.Bytes(ctx, m)
	if err != nil {
		return "", err
	}
	ct, key, iv, err := encrypt(plain)
	if err != nil {
		return "", err
	}
	typ := "IMAGE"
	if pubutil.IsVideo(m) {
		typ = "VIDEO"
	}
	var created struct {
		MediaID      string `json:"media_id"`
		AddPath      string `json:"add_path"`
		FinalizePath string `json:"finalize_path"`
	}
	if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.base + "/v1/public_profiles/" + url.PathEscape(profile) + "/media", Bearer: t.AccessToken,
		JSON: map[string]string{"type": typ, "name": m.UploadID + "." + m.Ext, "key": base64.StdEncoding.EncodeToString(key), "iv": base64.StdEncoding.EncodeToString(iv)}}, &created); err != nil {
		return "", err
	}
	if err := req.Save(ctx, checkpointMedia, created.MediaID); err != nil {
		return "", err
	}
	for part, off := 1, 0; off < len(ct); part, off = part+1, off+partSize {
		end := min(off+partSize, len(ct))
		if err := a.multipart(ctx, t, created.AddPath, map[string]string{"action": "ADD", "part_number": strconv.Itoa(part)}, ct[off:end]); err != nil {
			return "", err
		}
	}
	if err := a.multipart(ctx, t, created.FinalizePath, map[string]string{"action": "FINALIZE"}, nil); err != nil {
		return "", err
	}
	return created.MediaID, req.Save(ctx, checkpointUploaded, "1")
}

func (a *Adapter) multipart(ctx context.Context, t *app.Token, path string, fields map[string]string, file []byte) error {
	body, ctype, err := core.Multipart(func(w *multipart.Writer) error {
		for k, v := range fields {
			if err := w.WriteField(k, v); err != nil {
				return err
			}
		}
		if file == nil {
			return nil
		}
		fw, err := w.CreateFormFile("file", "part")
		if err != nil {
			return err
		}
		_, err = fw.Write(file)
		return err
	})
	if err != nil {
		return err
	}
	u := path
	if strings.HasPrefix(path, "/") {
		u = a.base + path
	}
	return a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: u, Bearer: t.AccessToken, Body: body, ContentType: ctype}, nil)
}

// Find lists the profile's stories/spotlights/saved stories for the checkpointed post, else for the
// one made from the checkpointed media (a media object is posted once).
func (a *Adapter) Find(ctx context.Context, t *app.Token, req *app.PublishRequest) (*app.Published, error) {
	pl, _ := req.Payload.(*Payload)
	if pl == nil {
		return nil, nil
	}
	postID, mediaID := req.Checkpointed(checkpointPost), req.Checkpointed(checkpointMedia)
	if _, ok := pubutil.AttemptAt(req); !ok && postID == "" {
		return nil, nil // the post call was never made
	}
	if postID == "" && mediaID == "" {
		return nil, nil
	}
	profile, username, err := a.profileID(ctx, t, req.Account)
	if err != nil {
		return nil, err
	}
	e := edge(pl)
	var out map[string]any
	if err := a.api.Do(ctx, core.Request{URL: a.base + "/v1/public_profiles/" + url.PathEscape(profile) + "/" + e, Bearer: t.AccessToken}, &out); err != nil {
		return nil, err
	}
	list, _ := out[e].([]any)
	for _, it := range list {
		o, _ := it.(map[string]any)
		if inner, ok := o[singular(e)].(map[string]any); ok {
			o = inner
		}
		id := fmt.Sprint(o["id"])
		if (postID != "" && id == postID) || (postID == "" && o["media_id"] == mediaID) {
			return &app.Published{ExternalID: id, Permalink: permalink(e, id, username), Extra: map[string]string{"edge": e, "profileId": profile}}, nil
		}
	}
	return nil, nil
}

// Delete removes a saved story or a spotlight; 24-hour stories cannot be deleted (U).
func (a *Adapter) Delete(ctx context.Context, t *app.Token, req *app.DeleteRequest) error {
	e := req.Extra["edge"]
	if e != "spotlights" && e != "saved_stories" {
		return app.ErrNotSupported
	}
	profile := req.Extra["profileId"]
	if profile == "" {
		var err error
		if profile, _, err = a.profileID(ctx, t, req.Account); err != nil {
			return err
		}
	}
	return a.api.Do(ctx, core.Request{Method: http.MethodDelete, URL: a.base + "/v1/public_profiles/" + url.PathEscape(profile) + "/" + e + "/" + url.PathEscape(req.ExternalID),
		Bearer: t.AccessToken}, nil)
}

var _ app.Publisher = (*Adapter)(nil)
