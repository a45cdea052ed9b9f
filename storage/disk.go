package storage

import (
	"context"
	"crypto/hmac"
	"crypto/md5"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// FilesPrefix is the path under which Crier serves the disk backend's signed URLs.
const FilesPrefix = "/files/"

// DefaultMaxPut caps one PUT through a disk signed URL (S3's single-PUT limit).
const DefaultMaxPut = 5 << 30

// Disk keeps objects under a directory and serves signed URLs itself (ServeHTTP, mounted at
// FilesPrefix). Multipart uploads are staged under DIR/.multipart/<uploadId>/ until completed.
type Disk struct {
	root    string
	baseURL string
	key     []byte
	// MaxPut caps the body of one signed PUT (a whole object or a part).
	MaxPut int64
	now    func() time.Time
	gets   getMemo
}

// getMemo keeps signed GET URLs by key and expiry: a URL is a function of the two, and the
// expiry is rounded to the minute, so the reads that show the same uploads again and again sign
// each once a minute, not per read (issue 15: signing was a fifth of GET post's allocations).
// Entries of past minutes are never answered again; the table starts over when full.
type getMemo struct {
	sync.Mutex
	urls map[getKey]string
}

type getKey struct {
	key string
	exp int64
}

const getMemoMax = 4096

// NewDisk builds the disk backend rooted at dir (created if missing). Its URLs start with
// baseURL + FilesPrefix and are signed with a key derived from secret.
func NewDisk(dir, baseURL string, secret []byte) (*Disk, error) {
	if dir == "" {
		return nil, errors.New("storage: empty directory")
	}
	if len(secret) == 0 {
		return nil, errors.New("storage: the disk backend needs a secret to sign URLs")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("storage: %w", err)
	}
	for _, d := range []string{abs, filepath.Join(abs, ".multipart"), filepath.Join(abs, ".tmp")} {
		if err := os.MkdirAll(d, 0o750); err != nil {
			return nil, fmt.Errorf("storage: %w", err)
		}
	}
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte("crier storage URL signing v1"))
	return &Disk{root: abs, baseURL: strings.TrimRight(baseURL, "/"), key: mac.Sum(nil), MaxPut: DefaultMaxPut, now: time.Now}, nil
}

// Root is the directory holding the objects.
func (d *Disk) Root() string { return d.root }

// LocalPath answers the file of key (tools such as ffmpeg read it directly).
func (d *Disk) LocalPath(key string) (string, bool) {
	if !ValidKey(key) {
		return "", false
	}
	return d.path(key), true
}

func (d *Disk) path(key string) string { return filepath.Join(d.root, filepath.FromSlash(key)) }

// Put implements Storage.
func (d *Disk) Put(_ context.Context, key string, r io.Reader, size int64, _ string) error {
	if !ValidKey(key) {
		return fmt.Errorf("storage: invalid key %q", key)
	}
	n, _, err := d.writeFile(d.path(key), r, -1)
	if err != nil {
		return err
	}
	if size >= 0 && n != size {
		_ = os.Remove(d.path(key))
		return fmt.Errorf("storage: put %s: wrote %d bytes, expected %d", key, n, size)
	}
	return nil
}

// writeFile writes r to dst through a temporary file and a rename, answering the size and the MD5
// of what it wrote. With max ≥ 0, more than max bytes is an error and nothing is written.
func (d *Disk) writeFile(dst string, r io.Reader, max int64) (int64, string, error) {
	if err := os.MkdirAll(filepath.Dir(dst), 0o750); err != nil {
		return 0, "", fmt.Errorf("storage: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Join(d.root, ".tmp"), "put-*")
	if err != nil {
		return 0, "", fmt.Errorf("storage: %w", err)
	}
	defer os.Remove(tmp.Name()) //nolint:errcheck // gone after the rename
	h := md5.New()
	src := r
	if max >= 0 {
		src = io.LimitReader(r, max+1)
	}
	n, err := io.Copy(io.MultiWriter(tmp, h), src)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return n, "", fmt.Errorf("storage: write: %w", err)
	}
	if max >= 0 && n > max {
		return n, "", errTooLarge
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return n, "", fmt.Errorf("storage: %w", err)
	}
	return n, hex.EncodeToString(h.Sum(nil)), nil
}

var errTooLarge = errors.New("storage: body too large")

// Size implements Storage.
func (d *Disk) Size(_ context.Context, key string) (int64, error) {
	if !ValidKey(key) {
		return 0, ErrNotFound
	}
	fi, err := os.Stat(d.path(key))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, ErrNotFound
	}
	if err != nil {
		return 0, fmt.Errorf("storage: %w", err)
	}
	return fi.Size(), nil
}

// GetRange implements Storage.
func (d *Disk) GetRange(_ context.Context, key string, offset, length int64) (io.ReadCloser, error) {
	if !ValidKey(key) {
		return nil, ErrNotFound
	}
	f, err := os.Open(d.path(key))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("storage: %w", err)
	}
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf("storage: %w", err)
	}
	if length < 0 {
		return f, nil
	}
	return struct {
		io.Reader
		io.Closer
	}{io.LimitReader(f, length), f}, nil
}

// Delete implements Storage.
func (d *Disk) Delete(_ context.Context, key string) error {
	if !ValidKey(key) {
		return nil
	}
	err := os.Remove(d.path(key))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("storage: %w", err)
	}
	return nil
}

// KeyOf implements Storage: the key of BaseURL/files/<key>?….
func (d *Disk) KeyOf(rawURL string) (string, bool) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", false
	}
	base, err := url.Parse(d.baseURL)
	if err != nil || u.Host != base.Host {
		return "", false
	}
	key, ok := strings.CutPrefix(u.Path, strings.TrimRight(base.Path, "/")+FilesPrefix)
	if !ok || !ValidKey(key) {
		return "", false
	}
	return key, true
}

// signed URL operations
const (
	opGet  = "GET"
	opPut  = "PUT"
	opPart = "PART"
)

func (d *Disk) sign(op, key, uploadID string, part int, exp int64) string {
	mac := hmac.New(sha256.New, d.key)
	fmt.Fprintf(mac, "%s\n%s\n%s\n%d\n%d", op, key, uploadID, part, exp)
	return hex.EncodeToString(mac.Sum(nil))
}

func (d *Disk) signedURL(op, key, uploadID string, part int, ttl time.Duration) (string, error) {
	if !ValidKey(key) {
		return "", fmt.Errorf("storage: invalid key %q", key)
	}
	if ttl <= 0 || ttl > MaxPresignTTL {
		ttl = MaxPresignTTL
	}
	// Expiry rounded up to the minute: URLs signed within the same minute are equal (caches).
	exp := d.now().Add(ttl).Truncate(time.Minute).Add(time.Minute).Unix()
	if op == opGet {
		d.gets.Lock()
		u, ok := d.gets.urls[getKey{key, exp}]
		d.gets.Unlock()
		if ok {
			return u, nil
		}
	}
	q := url.Values{}
	if op == opPart {
		q.Set("uploadId", uploadID)
		q.Set("partNumber", strconv.Itoa(part))
	}
	q.Set("expires", strconv.FormatInt(exp, 10))
	q.Set("signature", d.sign(op, key, uploadID, part, exp))
	u := d.baseURL + FilesPrefix + (&url.URL{Path: key}).EscapedPath() + "?" + q.Encode()
	if op == opGet {
		d.gets.Lock()
		if d.gets.urls == nil || len(d.gets.urls) >= getMemoMax {
			d.gets.urls = map[getKey]string{}
		}
		d.gets.urls[getKey{key, exp}] = u
		d.gets.Unlock()
	}
	return u, nil
}

// PresignPut implements Storage.
func (d *Disk) PresignPut(_ context.Context, key string, ttl time.Duration) (string, error) {
	return d.signedURL(opPut, key, "", 0, ttl)
}

// PresignGet implements Storage.
func (d *Disk) PresignGet(_ context.Context, key string, ttl time.Duration) (string, error) {
	return d.signedURL(opGet, key, "", 0, ttl)
}

// PresignPart implements Storage.
func (d *Disk) PresignPart(_ context.Context, key, uploadID string, part int, ttl time.Duration) (string, error) {
	if _, err := d.multipartKey(uploadID); err != nil {
		return "", err
	}
	return d.signedURL(opPart, key, uploadID, part, ttl)
}

func (d *Disk) multipartDir(uploadID string) (string, bool) {
	if len(uploadID) != 32 {
		return "", false
	}
	if _, err := hex.DecodeString(uploadID); err != nil {
		return "", false
	}
	return filepath.Join(d.root, ".multipart", uploadID), true
}

// multipartKey answers the key a multipart upload was created for.
func (d *Disk) multipartKey(uploadID string) (string, error) {
	dir, ok := d.multipartDir(uploadID)
	if !ok {
		return "", ErrNotFound
	}
	b, err := os.ReadFile(filepath.Join(dir, "key"))
	if errors.Is(err, fs.ErrNotExist) {
		return "", ErrNotFound
	}
	if err != nil {
		return "", fmt.Errorf("storage: %w", err)
	}
	return string(b), nil
}

// CreateMultipart implements Storage.
func (d *Disk) CreateMultipart(_ context.Context, key, _ string) (string, error) {
	if !ValidKey(key) {
		return "", fmt.Errorf("storage: invalid key %q", key)
	}
	raw := make([]byte, 16)
	if _, err := rand.Read(raw); err != nil {
		return "", err
	}
	id := hex.EncodeToString(raw)
	dir, _ := d.multipartDir(id)
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return "", fmt.Errorf("storage: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "key"), []byte(key), 0o640); err != nil {
		return "", fmt.Errorf("storage: %w", err)
	}
	return id, nil
}

// putPart stores one part and answers its ETag (the quoted MD5 of its bytes, as S3 does).
func (d *Disk) putPart(key, uploadID string, part int, r io.Reader) (string, error) {
	k, err := d.multipartKey(uploadID)
	if err != nil {
		return "", err
	}
	if k != key {
		return "", ErrNotFound
	}
	dir, _ := d.multipartDir(uploadID)
	_, sum, err := d.writeFile(filepath.Join(dir, strconv.Itoa(part)), r, d.MaxPut)
	if err != nil {
		return "", err
	}
	return `"` + sum + `"`, nil
}

// CompleteMultipart implements Storage. Parts must be in ascending order and carry the ETags
// their PUTs answered.
func (d *Disk) CompleteMultipart(_ context.Context, key, uploadID string, parts []Part) error {
	k, err := d.multipartKey(uploadID)
	if err != nil {
		return err
	}
	if k != key {
		return ErrNotFound
	}
	if len(parts) == 0 {
		return &PartError{Msg: "no parts"}
	}
	if !sort.SliceIsSorted(parts, func(i, j int) bool { return parts[i].Number < parts[j].Number }) {
		return &PartError{Msg: "parts must be in ascending order of partNumber"}
	}
	dir, _ := d.multipartDir(uploadID)
	files := make([]*os.File, 0, len(parts))
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	for i, p := range parts {
		if i > 0 && parts[i-1].Number == p.Number {
			return &PartError{Msg: fmt.Sprintf("part %d is listed twice", p.Number)}
		}
		f, err := os.Open(filepath.Join(dir, strconv.Itoa(p.Number)))
		if errors.Is(err, fs.ErrNotExist) {
			return &PartError{Msg: fmt.Sprintf("part %d was not uploaded", p.Number)}
		}
		if err != nil {
			return fmt.Errorf("storage: %w", err)
		}
		files = append(files, f)
		h := md5.New()
		if _, err := io.Copy(h, f); err != nil {
			return fmt.Errorf("storage: %w", err)
		}
		if hex.EncodeToString(h.Sum(nil)) != strings.Trim(p.ETag, `"`) {
			return &PartError{Msg: fmt.Sprintf("the ETag of part %d does not match its bytes", p.Number)}
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return fmt.Errorf("storage: %w", err)
		}
	}
	readers := make([]io.Reader, len(files))
	for i, f := range files {
		readers[i] = f
	}
	if _, _, err := d.writeFile(d.path(key), io.MultiReader(readers...), -1); err != nil {
		return err
	}
	return os.RemoveAll(dir)
}

// AbortMultipart implements Storage.
func (d *Disk) AbortMultipart(_ context.Context, _, uploadID string) error {
	dir, ok := d.multipartDir(uploadID)
	if !ok {
		return nil
	}
	return os.RemoveAll(dir)
}

// PartError is a wrong part list given to CompleteMultipart (the client's fault, not the backend's).
type PartError struct{ Msg string }

func (e *PartError) Error() string { return "storage: " + e.Msg }

// ServeHTTP serves the signed URLs: GET of objects, PUT of whole objects and of parts.
func (d *Disk) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	fail := func(status int, msg string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"statusCode":%d,"message":%q}`, status, msg)
	}
	key, ok := strings.CutPrefix(r.URL.Path, FilesPrefix)
	if !ok || !ValidKey(key) {
		fail(http.StatusNotFound, "Not found")
		return
	}
	q := r.URL.Query()
	exp, err := strconv.ParseInt(q.Get("expires"), 10, 64)
	if err != nil {
		fail(http.StatusForbidden, "Missing or malformed signature")
		return
	}
	uploadID, part := q.Get("uploadId"), 0
	op := opGet
	switch r.Method {
	case http.MethodGet, http.MethodHead:
	case http.MethodPut:
		op = opPut
		if uploadID != "" {
			op = opPart
			part, err = strconv.Atoi(q.Get("partNumber"))
			if err != nil || part < 1 || part > 10000 {
				fail(http.StatusBadRequest, "partNumber must be 1 to 10000")
				return
			}
		}
	default:
		w.Header().Set("Allow", "GET, HEAD, PUT")
		fail(http.StatusMethodNotAllowed, "Method not allowed")
		return
	}
	want := d.sign(op, key, uploadID, part, exp)
	if !hmac.Equal([]byte(want), []byte(q.Get("signature"))) {
		fail(http.StatusForbidden, "Signature does not match")
		return
	}
	if d.now().Unix() > exp {
		fail(http.StatusForbidden, "This signed URL has expired")
		return
	}
	switch op {
	case opGet:
		f, err := os.Open(d.path(key))
		if err != nil {
			fail(http.StatusNotFound, "Not found")
			return
		}
		defer f.Close()
		fi, err := f.Stat()
		if err != nil {
			fail(http.StatusInternalServerError, "Cannot read the file")
			return
		}
		if ct := mime.TypeByExtension(filepath.Ext(key)); ct != "" {
			w.Header().Set("Content-Type", ct)
		} else if ext := strings.ToLower(filepath.Ext(key)); ext == ".mov" {
			w.Header().Set("Content-Type", "video/quicktime")
		}
		w.Header().Set("Cache-Control", "private, max-age=3600")
		http.ServeContent(w, r, "", fi.ModTime(), f)
	case opPut:
		if r.ContentLength > d.MaxPut {
			fail(http.StatusRequestEntityTooLarge, "Body too large")
			return
		}
		_, sum, err := d.writeFile(d.path(key), r.Body, d.MaxPut)
		if d.putFailed(err, fail) {
			return
		}
		w.Header().Set("ETag", `"`+sum+`"`)
		w.WriteHeader(http.StatusOK)
	case opPart:
		if r.ContentLength > d.MaxPut {
			fail(http.StatusRequestEntityTooLarge, "Body too large")
			return
		}
		etag, err := d.putPart(key, uploadID, part, r.Body)
		if errors.Is(err, ErrNotFound) {
			fail(http.StatusNotFound, "No such multipart upload")
			return
		}
		if d.putFailed(err, fail) {
			return
		}
		w.Header().Set("ETag", etag)
		w.WriteHeader(http.StatusOK)
	}
}

func (d *Disk) putFailed(err error, fail func(int, string)) bool {
	switch {
	case err == nil:
		return false
	case errors.Is(err, errTooLarge):
		fail(http.StatusRequestEntityTooLarge, "Body too large")
	default:
		fail(http.StatusInternalServerError, "Cannot store the file")
	}
	return true
}
