package sandbox

import (
	"encoding/json"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"
)

// Helpers shared by the publishing twins of X, Bluesky, Threads, LinkedIn, Reddit, Discord and
// Slack (prefixed pd so they do not collide with other twins' helpers).

// pdFile is one uploaded file part.
type pdFile struct {
	Field, Name, Type string
	Data              []byte
}

// pdMultipart reads a multipart body (limit 64 MiB): its fields and files; ok false when the body is
// not multipart.
func pdMultipart(r *http.Request) (fields map[string]string, files []pdFile, ok bool) {
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || !strings.HasPrefix(mt, "multipart/") {
		return nil, nil, false
	}
	fields = map[string]string{}
	mr := multipart.NewReader(io.LimitReader(r.Body, 64<<20), params["boundary"])
	for {
		p, err := mr.NextPart()
		if err != nil {
			break
		}
		b, _ := io.ReadAll(p)
		if p.FileName() != "" {
			files = append(files, pdFile{Field: p.FormName(), Name: p.FileName(), Type: p.Header.Get("Content-Type"), Data: b})
		} else {
			fields[p.FormName()] = string(b)
		}
	}
	return fields, files, true
}

// pdHeld answers the live held things of a kind (any user) in a channel, oldest first.
func (n *Net) pdHeld(kind, channel string) []*Held {
	var out []*Held
	for _, h := range n.held {
		if h.Kind == kind && h.Channel == channel && h.DeletedAt == nil {
			out = append(out, h)
		}
	}
	return out
}

// pdSniff tells what bytes look like: "png", "jpeg", "gif", "webp", "mp4" (ISO BMFF), "pdf" or "".
func pdSniff(b []byte) string {
	switch {
	case len(b) >= 8 && string(b[:8]) == "\x89PNG\r\n\x1a\n":
		return "png"
	case len(b) >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF:
		return "jpeg"
	case len(b) >= 6 && (string(b[:6]) == "GIF87a" || string(b[:6]) == "GIF89a"):
		return "gif"
	case len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		return "webp"
	case len(b) >= 8 && string(b[4:8]) == "ftyp":
		return "mp4"
	case len(b) >= 5 && string(b[:5]) == "%PDF-":
		return "pdf"
	}
	return ""
}

// pdUnmarshal decodes a JSON string into v.
func pdUnmarshal(s string, v any) bool { return json.Unmarshal([]byte(s), v) == nil }

// pdArgs reads a method's arguments from the query and a form or JSON body (Slack-style APIs
// take both); JSON values that are not strings come back as their JSON text.
func pdArgs(r *http.Request) map[string]string {
	out := map[string]string{}
	for k, v := range r.URL.Query() {
		out[k] = v[0]
	}
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		var m map[string]json.RawMessage
		if decodeJSON(r, &m) {
			for k, v := range m {
				var s string
				if json.Unmarshal(v, &s) == nil {
					out[k] = s
				} else {
					out[k] = string(v)
				}
			}
		}
		return out
	}
	_ = r.ParseForm()
	for k, v := range r.PostForm {
		out[k] = v[0]
	}
	return out
}
