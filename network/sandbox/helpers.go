package sandbox

// The one helper set of every twin: reading requests (JSON, forms, multipart, a method's
// arguments, path segments), telling what uploaded bytes are, and making ids. Async objects
// (containers, upload sessions, publish jobs) are kept as held things with their state in Data
// (held.go); media a real network pulls by URL is recorded by URL and never fetched.

import (
	"encoding/json"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
)

// decodeJSON decodes a JSON request body (at most 8 MiB) into v; false when it is not valid JSON.
func decodeJSON(r *http.Request, v any) bool {
	b, err := io.ReadAll(io.LimitReader(r.Body, 8<<20))
	return err == nil && json.Unmarshal(b, v) == nil
}

// baseURL is this network's sandbox URL as the client reached it (for upload URLs handed out).
func baseURL(q *req) string {
	scheme := "http"
	if q.r.TLS != nil || q.r.Header.Get("X-Forwarded-Proto") == "https" {
		scheme = "https"
	}
	return scheme + "://" + q.r.Host + "/sandbox/" + q.net.d.seg
}

// uploadedFile is one uploaded file part.
type uploadedFile struct {
	Field, Name, Type string
	Data              []byte
}

// readMultipart reads a multipart body (limit 64 MiB): its fields and files; ok false when the
// body is not multipart.
func readMultipart(r *http.Request) (fields map[string]string, files []uploadedFile, ok bool) {
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
			files = append(files, uploadedFile{Field: p.FormName(), Name: p.FileName(), Type: p.Header.Get("Content-Type"), Data: b})
		} else {
			fields[p.FormName()] = string(b)
		}
	}
	return fields, files, true
}

// sniffMedia tells what bytes look like: "png", "jpeg", "gif", "webp", "mp4" (ISO BMFF), "pdf" or "".
func sniffMedia(b []byte) string {
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

// unmarshalString decodes a JSON string into v.
func unmarshalString(s string, v any) bool { return json.Unmarshal([]byte(s), v) == nil }

// methodArgs reads a method's arguments from the query and a form or JSON body (Slack-style APIs
// take both); JSON values that are not strings come back as their JSON text.
func methodArgs(r *http.Request) map[string]string {
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

// formValues answers the query and form (urlencoded or multipart) parameters together.
func formValues(r *http.Request) url.Values {
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/") {
		_ = r.ParseMultipartForm(64 << 20)
	} else {
		_ = r.ParseForm()
	}
	return r.Form
}

// isFetchableURL says whether s is an absolute http(s) URL a network could fetch.
func isFetchableURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != ""
}

// pathSegment answers the i-th segment of the request path ("/v4/accounts/1" → 1: "v4").
func pathSegment(q *req, i int) string {
	parts := strings.Split(q.path, "/")
	if i < len(parts) {
		return parts[i]
	}
	return ""
}

// countPoll counts a status read of an async object and answers how many came before.
func countPoll(h *Held) int {
	n, _ := h.Data["polls"].(int)
	h.Data["polls"] = n + 1
	return n
}

// randomDigits is a random numeric id of n digits (Graph and Pinterest ids).
func randomDigits(n int) string {
	s := ""
	for len(s) < n {
		s += numericID(randID(""))
	}
	return s[:n]
}
