package api

import (
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// The answers of GET post and GET post list, written without reflection for the record's own
// fields, and each social account and upload of the answer encoded once: a page of a team's posts
// repeats the same few (issue 15: encoding/json was a third of GET post list's CPU). Nested values
// that are rare or per-network (data, errors, …) still go through encoding/json. The bytes are
// those of the generated Visit…Response, which encodes with json.Encoder (a trailing newline
// included); TestPostJSONMatchesEncoding holds them equal.

// postGetJSON answers GET post (and GET post by reference key). data, when set, is the JSON of
// post.Data (dataJSON), written as is. raw, when set, is the whole answer, from the cache; keep,
// when set, is given the record's JSON once written (to fill the cache).
type postGetJSON struct {
	post Post
	data []byte
	raw  []byte
	keep func(record []byte)
}

func (r postGetJSON) VisitPostGetResponse(w http.ResponseWriter) error { return r.write(w) }
func (r postGetJSON) VisitPostGetByReferenceKeyResponse(w http.ResponseWriter) error {
	return r.write(w)
}

func (r postGetJSON) write(w http.ResponseWriter) error {
	if r.raw != nil {
		return writeJSON(w, r.raw)
	}
	e := postEncoder{b: getBuf()}
	defer e.free()
	if err := e.post(&r.post, r.data); err != nil {
		return err
	}
	if r.keep != nil {
		r.keep(e.b)
	}
	e.b = append(e.b, '\n')
	return writeJSON(w, e.b)
}

// postListJSON answers GET post list; data[i], when set, is the JSON of items[i].Data. raw[i], when
// set, is item i's JSON as is (from the cache; items[i] is then unset); gone[i] leaves item i out;
// keep, when set, is given each item's JSON it writes.
type postListJSON struct {
	items []Post
	data  [][]byte
	raw   [][]byte
	gone  []bool
	keep  func(i int, record []byte)
	total float32
}

func (r postListJSON) VisitPostGetListResponse(w http.ResponseWriter) error {
	e := postEncoder{b: getBuf()}
	defer e.free()
	if r.items == nil {
		e.b = append(e.b, `{"items":null`...)
	} else {
		e.b = append(e.b, `{"items":[`...)
		first := true
		for i := range r.items {
			if i < len(r.gone) && r.gone[i] {
				continue
			}
			if !first {
				e.b = append(e.b, ',')
			}
			first = false
			if i < len(r.raw) && r.raw[i] != nil {
				e.b = append(e.b, r.raw[i]...)
				continue
			}
			var data []byte
			if i < len(r.data) {
				data = r.data[i]
			}
			start := len(e.b)
			if err := e.post(&r.items[i], data); err != nil {
				return err
			}
			if r.keep != nil {
				r.keep(i, e.b[start:])
			}
		}
		e.b = append(e.b, ']')
	}
	e.b = append(e.b, `,"total":`...)
	e.b = appendFloat32(e.b, r.total)
	e.b = append(e.b, "}\n"...)
	return writeJSON(w, e.b)
}

// writeJSON writes the whole answer at once with its length: without it, net/http sends an answer
// over 2 KB (a post with its targets and uploads is about 4 KB) chunked, which costs both sides
// more writes and parsing.
func writeJSON(w http.ResponseWriter, b []byte) error {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(b)
	return err
}

// bufs are answers' buffers, reused: a page of posts is about 90 KB, which growing a fresh buffer
// would copy several times over.
var bufs = sync.Pool{New: func() any { return new([]byte) }}

func getBuf() []byte { return (*bufs.Get().(*[]byte))[:0] }

// free returns the buffer (the writer has copied it by now); one grown far beyond a page is dropped.
func (e *postEncoder) free() {
	if cap(e.b) <= 1<<20 {
		b := e.b
		bufs.Put(&b)
	}
	e.b = nil
}

// postEncoder appends posts' JSON to b, as encoding/json writes a Post.
type postEncoder struct {
	b        []byte
	accounts map[string][]byte // an account's JSON by id: the same in every post of an answer
	uploads  map[string][]byte // an upload's JSON by id
	err      error             // the first time MarshalJSON refuses
}

func (e *postEncoder) post(p *Post, data []byte) (err error) {
	b := append(e.b, `{"createdAt":`...)
	b = e.time(b, p.CreatedAt)
	if data != nil {
		b = append(append(b, `,"data":`...), data...)
	} else if b, err = appendMarshal(append(b, `,"data":`...), p.Data); err != nil {
		return err
	}
	b = e.time(append(b, `,"deletedAt":`...), p.DeletedAt)
	b = appendStringPtr(append(b, `,"error":`...), p.Error)
	if b, err = appendMarshalPtr(append(b, `,"errors":`...), p.Errors); err != nil {
		return err
	}
	if b, err = appendMarshalPtr(append(b, `,"errorsVerbose":`...), p.ErrorsVerbose); err != nil {
		return err
	}
	if b, err = appendMarshalPtr(append(b, `,"externalData":`...), p.ExternalData); err != nil {
		return err
	}
	if b, err = appendMarshalPtr(append(b, `,"firstComment":`...), p.FirstComment); err != nil {
		return err
	}
	b = appendString(append(b, `,"id":`...), p.Id)
	b = appendStringPtr(append(b, `,"organizationId":`...), p.OrganizationId)
	b = e.time(append(b, `,"postDate":`...), p.PostDate)
	b = e.time(append(b, `,"postedDate":`...), p.PostedDate)
	b = appendStringPtr(append(b, `,"referenceKey":`...), p.ReferenceKey)
	b = appendFloat32(append(b, `,"retryCount":`...), p.RetryCount)
	b = appendStringPtr(append(b, `,"reviewNote":`...), p.ReviewNote)
	if p.SocialAccountTypes != nil { // omitempty: a nil pointer is left out
		b = append(b, `,"socialAccountTypes":`...)
		if *p.SocialAccountTypes == nil {
			b = append(b, "null"...)
		} else {
			b = append(b, '[')
			for i, n := range *p.SocialAccountTypes {
				if i > 0 {
					b = append(b, ',')
				}
				b = appendString(b, string(n))
			}
			b = append(b, ']')
		}
	}
	if p.SocialAccounts != nil {
		b = append(b, `,"socialAccounts":`...)
		if *p.SocialAccounts == nil {
			b = append(b, "null"...)
		} else {
			b = append(b, '[')
			for i := range *p.SocialAccounts {
				l := &(*p.SocialAccounts)[i]
				if i > 0 {
					b = append(b, ',')
				}
				b = e.time(append(b, `{"createdAt":`...), l.CreatedAt)
				b = e.time(append(b, `,"deletedAt":`...), l.DeletedAt)
				b = appendString(append(b, `,"postId":`...), l.PostId)
				b = append(b, `,"socialAccount":`...)
				if j, ok := e.accounts[l.SocialAccountId]; ok {
					b = append(b, j...)
				} else {
					start := len(b)
					if b, err = e.socialAccount(b, &l.SocialAccount); err != nil {
						return err
					}
					e.accounts = remember(e.accounts, l.SocialAccountId, b[start:len(b):len(b)])
				}
				b = appendString(append(b, `,"socialAccountId":`...), l.SocialAccountId)
				b = append(e.time(append(b, `,"updatedAt":`...), l.UpdatedAt), '}')
			}
			b = append(b, ']')
		}
	}
	b = appendString(append(b, `,"status":`...), string(p.Status))
	b = appendString(append(b, `,"teamId":`...), p.TeamId)
	b = appendString(append(b, `,"title":`...), p.Title)
	b = e.time(append(b, `,"updatedAt":`...), p.UpdatedAt)
	if p.Uploads != nil {
		b = append(b, `,"uploads":`...)
		if *p.Uploads == nil {
			b = append(b, "null"...)
		} else {
			b = append(b, '[')
			for i := range *p.Uploads {
				l := &(*p.Uploads)[i]
				if i > 0 {
					b = append(b, ',')
				}
				b = e.time(append(b, `{"createdAt":`...), l.CreatedAt)
				b = e.time(append(b, `,"deletedAt":`...), l.DeletedAt)
				b = appendString(append(b, `,"postId":`...), l.PostId)
				b = e.time(append(b, `,"updatedAt":`...), l.UpdatedAt)
				b = append(b, `,"upload":`...)
				if j, ok := e.uploads[l.UploadId]; ok {
					b = append(b, j...)
				} else {
					start := len(b)
					if b, err = e.upload(b, &l.Upload); err != nil {
						return err
					}
					e.uploads = remember(e.uploads, l.UploadId, b[start:len(b):len(b)])
				}
				b = append(appendString(append(b, `,"uploadId":`...), l.UploadId), '}')
			}
			b = append(b, ']')
		}
	}
	e.b = append(b, '}')
	return e.err
}

// remember keeps a record's JSON by id, for the next post of the answer that shows it: a slice of
// the answer's buffer, whose written bytes appending never changes.
func remember(m map[string][]byte, id string, j []byte) map[string][]byte {
	if m == nil {
		m = map[string][]byte{}
	}
	m[id] = j
	return m
}

func appendMarshal(b []byte, v any) ([]byte, error) {
	j, err := json.Marshal(v)
	return append(b, j...), err
}

func appendMarshalPtr[T any](b []byte, v *T) ([]byte, error) {
	if v == nil {
		return append(b, "null"...), nil
	}
	return appendMarshal(b, v)
}

// appendString writes s as encoding/json does: directly when no byte needs escaping (HTML's
// <, > and & included, as json.Marshal escapes them), else through json.Marshal.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if escaped[s[i]] {
			j, _ := json.Marshal(s)
			return append(b, j...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// escaped marks the bytes appendString leaves to json.Marshal: one load a byte, where seven
// comparisons were (the strings of a post's answer are most of its bytes).
var escaped = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&'
	}
	return t
}()

func appendStringPtr(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return appendString(b, *s)
}

// time writes t as time.Time's MarshalJSON does (RFC 3339 with nanoseconds), null when nil; a
// year MarshalJSON refuses is the answer's error, as it was encoding/json's.
func (e *postEncoder) time(b []byte, t *time.Time) []byte {
	if t == nil {
		return append(b, "null"...)
	}
	if y := t.Year(); y < 0 || y > 9999 {
		if _, err := t.MarshalJSON(); err != nil && e.err == nil {
			e.err = err
		}
		return b
	}
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}

// appendFloat32 writes f as encoding/json does for a float32 (whole numbers here: counts).
func appendFloat32(b []byte, f float32) []byte {
	if a := float32(math.Abs(float64(f))); a != 0 && (a < 1e-6 || a >= 1e21) || math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		j, _ := json.Marshal(f)
		return append(b, j...)
	}
	return strconv.AppendFloat(b, float64(f), 'f', -1, 32)
}
