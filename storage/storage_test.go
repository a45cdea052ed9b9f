package storage_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/storage"
	"github.com/crier/crier/storage/storagetest"
)

func diskBackend(t *testing.T) *storage.Disk {
	t.Helper()
	var d *storage.Disk
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { d.ServeHTTP(w, r) }))
	t.Cleanup(srv.Close)
	var err error
	d, err = storage.NewDisk(t.TempDir(), srv.URL, []byte("0123456789abcdef0123456789abcdef"))
	require.NoError(t, err)
	return d
}

func s3Backend(t *testing.T) storage.Storage {
	t.Helper()
	srv := storagetest.StartS3(t)
	s, err := storage.Open(context.Background(), srv.URL(), storage.Options{AccessKey: srv.AccessKey, SecretKey: srv.SecretKey})
	require.NoError(t, err)
	return s
}

func httpDo(t *testing.T, method, url string, body []byte) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	require.NoError(t, err)
	req.ContentLength = int64(len(body))
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res, b
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return b
}

func TestDiskBackend(t *testing.T) {
	t.Parallel()
	testBackend(t, diskBackend(t))
}

func TestS3Backend(t *testing.T) {
	t.Parallel()
	testBackend(t, s3Backend(t))
}

// testBackend checks what the uploads service relies on, through real HTTP for the signed URLs.
func testBackend(t *testing.T, s storage.Storage) {
	ctx := context.Background()

	t.Run("put, size, ranges, delete", func(t *testing.T) {
		data := randomBytes(300_000)
		require.NoError(t, s.Put(ctx, "org/a.bin", bytes.NewReader(data), int64(len(data)), "application/octet-stream"))
		n, err := s.Size(ctx, "org/a.bin")
		require.NoError(t, err)
		require.EqualValues(t, len(data), n)
		rc, err := s.GetRange(ctx, "org/a.bin", 1000, 10)
		require.NoError(t, err)
		b, _ := io.ReadAll(rc)
		rc.Close()
		require.Equal(t, data[1000:1010], b)
		// The block reader answers the same bytes as the object, across block boundaries.
		ra := storage.NewReaderAt(ctx, s, "org/a.bin", n)
		got := make([]byte, 100_000)
		_, err = ra.ReadAt(got, 200_000)
		require.NoError(t, err)
		require.Equal(t, data[200_000:300_000], got)
		require.NoError(t, s.Delete(ctx, "org/a.bin"))
		_, err = s.Size(ctx, "org/a.bin")
		require.ErrorIs(t, err, storage.ErrNotFound)
		require.NoError(t, s.Delete(ctx, "org/a.bin"), "deleting a missing object is not an error")
		// A stream that cannot seek is stored too.
		require.NoError(t, s.Put(ctx, "org/s.bin", io.MultiReader(bytes.NewReader(data[:10]), bytes.NewReader(data[10:100])), 100, ""))
		n, err = s.Size(ctx, "org/s.bin")
		require.NoError(t, err)
		require.EqualValues(t, 100, n)
	})

	t.Run("signed put and get", func(t *testing.T) {
		data := randomBytes(70_000)
		u, err := s.PresignPut(ctx, "org/b.png", time.Hour)
		require.NoError(t, err)
		res, b := httpDo(t, http.MethodPut, u, data)
		require.Equal(t, http.StatusOK, res.StatusCode, string(b))
		g, err := s.PresignGet(ctx, "org/b.png", time.Hour)
		require.NoError(t, err)
		res, b = httpDo(t, http.MethodGet, g, nil)
		require.Equal(t, http.StatusOK, res.StatusCode)
		require.Equal(t, data, b)
		key, ok := s.KeyOf(g)
		require.True(t, ok)
		require.Equal(t, "org/b.png", key)
		// A tampered signature is refused.
		res, _ = httpDo(t, http.MethodGet, strings.Replace(g, "b.png", "c.png", 1), nil)
		require.Contains(t, []int{http.StatusForbidden, http.StatusNotFound}, res.StatusCode)
	})

	t.Run("five-part multipart upload", func(t *testing.T) {
		const partSize = 5 << 20 // S3's minimum part size
		data := randomBytes(4*partSize + 12_345)
		id, err := s.CreateMultipart(ctx, "org/big.mp4", "video/mp4")
		require.NoError(t, err)
		var parts []storage.Part
		for i := 0; i < 5; i++ {
			u, err := s.PresignPart(ctx, "org/big.mp4", id, i+1, time.Hour)
			require.NoError(t, err)
			chunk := data[i*partSize : min((i+1)*partSize, len(data))]
			res, b := httpDo(t, http.MethodPut, u, chunk)
			require.Equal(t, http.StatusOK, res.StatusCode, string(b))
			require.NotEmpty(t, res.Header.Get("ETag"))
			parts = append(parts, storage.Part{Number: i + 1, ETag: res.Header.Get("ETag")})
		}
		bad := append([]storage.Part{}, parts...)
		bad[2].ETag = `"00000000000000000000000000000000"`
		var pe *storage.PartError
		require.ErrorAs(t, s.CompleteMultipart(ctx, "org/big.mp4", id, bad), &pe)
		require.NoError(t, s.CompleteMultipart(ctx, "org/big.mp4", id, parts))
		n, err := s.Size(ctx, "org/big.mp4")
		require.NoError(t, err)
		require.EqualValues(t, len(data), n)
		rc, err := s.GetRange(ctx, "org/big.mp4", 0, -1)
		require.NoError(t, err)
		h := sha256.New()
		_, err = io.Copy(h, rc)
		rc.Close()
		require.NoError(t, err)
		require.Equal(t, sha256.Sum256(data), [32]byte(h.Sum(nil)))
	})

	t.Run("abort", func(t *testing.T) {
		id, err := s.CreateMultipart(ctx, "org/gone.pdf", "application/pdf")
		require.NoError(t, err)
		u, err := s.PresignPart(ctx, "org/gone.pdf", id, 1, time.Hour)
		require.NoError(t, err)
		res, _ := httpDo(t, http.MethodPut, u, []byte("%PDF-1.4"))
		require.Equal(t, http.StatusOK, res.StatusCode)
		require.NoError(t, s.AbortMultipart(ctx, "org/gone.pdf", id))
		res, _ = httpDo(t, http.MethodPut, u, []byte("%PDF-1.4"))
		require.Equal(t, http.StatusNotFound, res.StatusCode)
		err = s.CompleteMultipart(ctx, "org/gone.pdf", id, []storage.Part{{Number: 1, ETag: "x"}})
		require.True(t, errors.Is(err, storage.ErrNotFound) || errors.As(err, new(*storage.PartError)), "%v", err)
	})
}

func TestDiskSignedURLsExpireAndKeysAreChecked(t *testing.T) {
	t.Parallel()
	d := diskBackend(t)
	require.NoError(t, d.Put(context.Background(), "o/x.gif", strings.NewReader("GIF89a"), 6, ""))
	u, err := d.PresignGet(context.Background(), "o/x.gif", time.Second)
	require.NoError(t, err)
	res, _ := httpDo(t, http.MethodGet, u, nil)
	require.Equal(t, http.StatusOK, res.StatusCode)
	// Expiry is rounded up to the minute; a URL whose expires is in the past is refused, and a
	// moved expires breaks the signature.
	res, _ = httpDo(t, http.MethodGet, strings.Replace(u, "expires=", "expires=1", 1), nil)
	require.Equal(t, http.StatusForbidden, res.StatusCode)
	for _, k := range []string{"", "/abs", "a/../b", "a//b", ".multipart/x", "a/.tmp", "a\\b"} {
		require.False(t, storage.ValidKey(k), k)
	}
	require.True(t, storage.ValidKey("org/abc.png"))
	_, err = d.PresignPut(context.Background(), "../etc/passwd", time.Hour)
	require.Error(t, err)
}

// A signed GET URL is answered from the minute's table after the first time: the same URL a
// fresh signing writes (another Disk with the same secret), for each key and expiry.
func TestDiskSignedGetURLsKeptForTheMinute(t *testing.T) {
	t.Parallel()
	dir, secret := t.TempDir(), []byte("0123456789abcdef0123456789abcdef")
	warm, err := storage.NewDisk(dir, "http://x.test", secret)
	require.NoError(t, err)
	ctx := context.Background()
	for attempt := 0; ; attempt++ {
		fresh, err := storage.NewDisk(dir, "http://x.test", secret)
		require.NoError(t, err)
		same := true
		for _, c := range []struct {
			key string
			ttl time.Duration
		}{{"o/a.png", time.Hour}, {"o/a.png", 2 * time.Hour}, {"o/b c.png", time.Hour}, {"o/a.png", time.Hour}} {
			a, err := warm.PresignGet(ctx, c.key, c.ttl)
			require.NoError(t, err)
			b, err := fresh.PresignGet(ctx, c.key, c.ttl)
			require.NoError(t, err)
			same = same && a == b
		}
		if same {
			break
		}
		require.Less(t, attempt, 3, "a minute turned between the two signings, three times")
	}
	u1, err := warm.PresignGet(ctx, "o/a.png", time.Hour)
	require.NoError(t, err)
	u2, err := warm.PresignGet(ctx, "o/a.png", 3*time.Hour)
	require.NoError(t, err)
	require.NotEqual(t, u1, u2, "another expiry, another URL")
}
