// Package storage keeps upload bytes behind one interface with two backends, chosen by STORAGE_URL:
//
//   - file://DIR (the default): files on the local disk. Crier itself serves the signed URLs
//     (PUT of whole objects and of multipart parts, GET) under /files/, with HMAC-SHA256 signatures
//     that expire, so the signed-URL and multipart flows work in `make run` with nothing else.
//   - s3://BUCKET?endpoint=…&region=… : any S3-compatible service through the AWS SDK for Go v2
//     (path-style addressing; presigned PUT, UploadPart and GET; multipart create/complete/abort).
//
// Keys are slash-separated relative paths ("<organization>/<random>.png"); ValidKey says which.
// The package imports nothing of Crier, so the service (app) and the tests can use it directly.
package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path"
	"strings"
	"time"
)

// ErrNotFound reports a missing object or multipart upload.
var ErrNotFound = errors.New("storage: not found")

// Part is one uploaded part of a multipart upload: its number (1…10000) and the ETag its PUT answered.
type Part struct {
	Number int
	ETag   string
}

// Storage is what the uploads service needs from a backend.
type Storage interface {
	// Put stores r (size bytes) at key.
	Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) error
	// Size answers the object's size, or ErrNotFound.
	Size(ctx context.Context, key string) (int64, error)
	// GetRange reads length bytes from offset (length < 0: to the end), or ErrNotFound.
	GetRange(ctx context.Context, key string, offset, length int64) (io.ReadCloser, error)
	// Delete removes the object; a missing object is not an error.
	Delete(ctx context.Context, key string) error

	// PresignPut answers a URL that accepts one PUT of the whole object until ttl passes.
	PresignPut(ctx context.Context, key string, ttl time.Duration) (string, error)
	// PresignGet answers a URL that reads the object until ttl passes (for browsers, and for the
	// networks that pull media from a public URL).
	PresignGet(ctx context.Context, key string, ttl time.Duration) (string, error)
	// KeyOf answers the key a URL of this backend (signed or not) points at.
	KeyOf(rawURL string) (string, bool)

	// CreateMultipart starts a multipart upload of key and answers its upload id.
	CreateMultipart(ctx context.Context, key, contentType string) (string, error)
	// PresignPart answers a URL that accepts one PUT of part number part until ttl passes; the
	// response's ETag header is what CompleteMultipart needs.
	PresignPart(ctx context.Context, key, uploadID string, part int, ttl time.Duration) (string, error)
	// CompleteMultipart assembles the parts, in order, into the object at key.
	CompleteMultipart(ctx context.Context, key, uploadID string, parts []Part) error
	// AbortMultipart discards the upload and its parts; an unknown upload is not an error.
	AbortMultipart(ctx context.Context, key, uploadID string) error
}

// MaxPresignTTL is the longest validity of a signed URL: SigV4's limit, kept by both backends.
const MaxPresignTTL = 7 * 24 * time.Hour

// Options are what backends need besides their URL.
type Options struct {
	// BaseURL is Crier's public URL; the disk backend's signed URLs live under BaseURL/files/.
	BaseURL string
	// Secret signs the disk backend's URLs.
	Secret []byte
	// AccessKey and SecretKey are the S3 credentials (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY).
	AccessKey, SecretKey string
}

// Open builds the backend named by rawURL (file://DIR or s3://BUCKET?endpoint=…&region=…).
func Open(ctx context.Context, rawURL string, opts Options) (Storage, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("storage: %w", err)
	}
	switch u.Scheme {
	case "file":
		return NewDisk(u.Host+u.Path, opts.BaseURL, opts.Secret)
	case "s3":
		q := u.Query()
		return NewS3(ctx, S3Config{Bucket: u.Host, Endpoint: q.Get("endpoint"), Region: q.Get("region"),
			AccessKey: opts.AccessKey, SecretKey: opts.SecretKey})
	}
	return nil, fmt.Errorf("storage: unknown scheme %q (want file or s3)", u.Scheme)
}

// ValidKey reports whether key is a clean relative path: no leading slash, no "." or ".."
// segments, no empty segments, no backslashes or control characters.
func ValidKey(key string) bool {
	if key == "" || len(key) > 512 || strings.HasPrefix(key, "/") || path.Clean(key) != key {
		return false
	}
	for _, seg := range strings.Split(key, "/") {
		if seg == "" || seg == "." || seg == ".." || strings.HasPrefix(seg, ".") {
			return false
		}
	}
	for _, r := range key {
		if r < 0x20 || r == 0x7f || r == '\\' {
			return false
		}
	}
	return true
}

// ReaderAt reads an object through ranged reads, in blocks kept in a small cache, so parsers that
// seek (MP4 boxes, image headers) touch only the bytes they need, even on S3.
type ReaderAt struct {
	ctx    context.Context
	s      Storage
	key    string
	size   int64
	blocks map[int64][]byte
	order  []int64
}

const (
	readBlock  = 256 << 10
	readBlocks = 16
)

// NewReaderAt answers a reader of key's size bytes.
func NewReaderAt(ctx context.Context, s Storage, key string, size int64) *ReaderAt {
	return &ReaderAt{ctx: ctx, s: s, key: key, size: size, blocks: map[int64][]byte{}}
}

// Size is the object's size.
func (r *ReaderAt) Size() int64 { return r.size }

// ReadAt implements io.ReaderAt.
func (r *ReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("storage: negative offset")
	}
	n := 0
	for n < len(p) {
		pos := off + int64(n)
		if pos >= r.size {
			return n, io.EOF
		}
		start := pos / readBlock * readBlock
		b, err := r.block(start)
		if err != nil {
			return n, err
		}
		c := copy(p[n:], b[pos-start:])
		if c == 0 {
			return n, io.ErrUnexpectedEOF
		}
		n += c
	}
	return n, nil
}

func (r *ReaderAt) block(start int64) ([]byte, error) {
	if b, ok := r.blocks[start]; ok {
		return b, nil
	}
	length := min(int64(readBlock), r.size-start)
	rc, err := r.s.GetRange(r.ctx, r.key, start, length)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	b := make([]byte, length)
	if _, err := io.ReadFull(rc, b); err != nil {
		return nil, fmt.Errorf("storage: read %s at %d: %w", r.key, start, err)
	}
	if len(r.order) >= readBlocks {
		delete(r.blocks, r.order[0])
		r.order = r.order[1:]
	}
	r.blocks[start] = b
	r.order = append(r.order, start)
	return b, nil
}
