package sandboxtest

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/sandbox"
)

// Helpers of the adapters' publishing tests: media files, the posts a twin holds, injected
// failures and a checkpoint store.

// TinyJPEG is a 1×1 JPEG.
var TinyJPEG = []byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xff\xdb\x00C\x00\x08\x06\x06\x07\x06\x05\x08\x07\x07\x07\t\t\x08\n\x0c\x14\r\x0c\x0b\x0b\x0c\x19\x12\x13\x0f\x14\x1d\x1a\x1f\x1e\x1d\x1a\x1c\x1c $.' \",#\x1c\x1c(7),01444\x1f'9=82<.342\xff\xc0\x00\x0b\x08\x00\x01\x00\x01\x01\x01\x11\x00\xff\xc4\x00\x14\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\t\xff\xc4\x00\x14\x10\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xff\xda\x00\x08\x01\x01\x00\x00?\x00T\xdf\xff\xd9")

// TinyMP4 is an ISO BMFF file: an ftyp box and an empty mdat box.
var TinyMP4 = append([]byte("\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isommp41"), []byte("\x00\x00\x00\x08mdat")...)

// Image is a JPEG upload with a public URL and its bytes.
func Image(id string) app.MediaFile { return File(id, "image", "image/jpeg", "jpg", TinyJPEG) }

// Video is an MP4 upload with a public URL and its bytes.
func Video(id string) app.MediaFile { return File(id, "video", "video/mp4", "mp4", TinyMP4) }

// File is an upload with a public URL (never fetched by the twins) and bytes.
func File(id, typ, mime, ext string, b []byte) app.MediaFile {
	return app.MediaFile{UploadID: id, Type: typ, Mime: mime, Ext: ext, Size: int64(len(b)), Width: 1080, Height: 1920,
		URL:  "https://media.crier.invalid/" + id + "." + ext,
		Open: func(context.Context) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }}
}

// Posts answers the live posts a login holds on a network.
func (n *Networks) Posts(net app.Network, login string) []sandbox.Held {
	var out []sandbox.Held
	for _, h := range n.Sandbox.Held(net, sandbox.KindPost) {
		if h.User == login && h.DeletedAt == nil {
			out = append(out, h)
		}
	}
	return out
}

// Fail injects a failure in a network's twin (the body of POST /_sandbox/fail).
func (n *Networks) Fail(t testing.TB, net app.Network, body string) {
	t.Helper()
	res, err := http.Post(n.Base(net)+"/_sandbox/fail", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	_ = res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("fail injection answered %d", res.StatusCode)
	}
}

// Checkpoints is a durable-looking checkpoint store for a PublishRequest.
type Checkpoints map[string]string

// Wire points req's Checkpoint at the store and Resume at a copy of it (a fresh attempt).
func (c Checkpoints) Wire(req *app.PublishRequest) *app.PublishRequest {
	req.Resume = map[string]string{}
	for k, v := range c {
		req.Resume[k] = v
	}
	req.Checkpoint = func(_ context.Context, k, v string) error { c[k] = v; return nil }
	return req
}
