package core

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/crier/crier/app"
)

// jsonClassifier reads {"error": {"code", "message"}} the way a network's classifier does.
func jsonClassifier(status int, _ http.Header, body []byte) *app.NetworkError {
	if status >= 200 && status < 300 {
		return nil
	}
	var e struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	_ = json.Unmarshal(body, &e)
	return &app.NetworkError{Code: e.Error.Code, Message: e.Error.Message}
}

var fixedNow = time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC)

func testClient(t *testing.T, h http.HandlerFunc) (*Client, string) {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c := NewClient(app.Bluesky, jsonClassifier)
	c.Now = func() time.Time { return fixedNow }
	return c, srv.URL
}

func networkError(t *testing.T, err error) *app.NetworkError {
	t.Helper()
	var ne *app.NetworkError
	if !errors.As(err, &ne) {
		t.Fatalf("err = %v, want a *app.NetworkError", err)
	}
	if ne.Network != app.Bluesky {
		t.Errorf("Network = %q", ne.Network)
	}
	return ne
}

func TestRawBodyArrivesIntact(t *testing.T) {
	data := []byte{0x89, 'P', 'N', 'G', 0, 1, 2, 0xff, '\r', '\n'}
	c, base := testClient(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPut || !bytes.Equal(b, data) || r.ContentLength != int64(len(data)) ||
			r.Header.Get("Content-Type") != "image/png" || r.Header.Get("Authorization") != "Bearer tok" ||
			r.Header.Get("Content-Range") != "bytes 0-9/10" {
			t.Errorf("got %s %q len %d type %q auth %q range %q", r.Method, b, r.ContentLength, r.Header.Get("Content-Type"),
				r.Header.Get("Authorization"), r.Header.Get("Content-Range"))
		}
		w.Header().Set("Location", "https://upload.example/session/1")
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"id":"blob1"}`))
	})
	var out struct {
		ID string `json:"id"`
	}
	res, err := c.Send(context.Background(), Request{Method: http.MethodPut, URL: base + "/upload", Bearer: "tok",
		Body: bytes.NewReader(data), ContentType: "image/png", Header: map[string]string{"Content-Range": "bytes 0-9/10"}}, &out)
	if err != nil {
		t.Fatal(err)
	}
	if out.ID != "blob1" || res.Status != http.StatusCreated || res.Header.Get("Location") != "https://upload.example/session/1" {
		t.Errorf("out %+v, response %d %v", out, res.Status, res.Header)
	}
}

func TestRawBodyRateLimitedWithRetryAfter(t *testing.T) {
	c, base := testClient(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "120")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte(`{"error":{"code":"slow_down","message":"Too many uploads"}}`))
	})
	res, err := c.Send(context.Background(), Request{Method: http.MethodPost, URL: base, Body: bytes.NewReader([]byte("x")), ContentType: "video/mp4"}, nil)
	ne := networkError(t, err)
	if ne.Class != app.ErrRateLimited || ne.Status != 429 || !ne.ResetAt.Equal(fixedNow.Add(2*time.Minute)) || ne.Code != "slow_down" {
		t.Errorf("got %+v", ne)
	}
	if res == nil || res.Status != 429 {
		t.Errorf("the error's response = %+v", res)
	}
}

func TestRawBodyServerErrorTransient(t *testing.T) {
	c, base := testClient(t, func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "upstream exploded", http.StatusBadGateway)
	})
	err := c.Do(context.Background(), Request{Method: http.MethodPost, URL: base, Body: strings.NewReader("x"), ContentType: "text/plain"}, nil)
	if ne := networkError(t, err); ne.Class != app.ErrTransient || ne.Status != 502 {
		t.Errorf("got %+v", ne)
	}
}

func TestRawBodyClientErrorPermanentWithMessage(t *testing.T) {
	c, base := testClient(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"error":{"code":"InvalidMime","message":"image/tiff is not accepted"}}`))
	})
	err := c.Do(context.Background(), Request{Method: http.MethodPost, URL: base, Body: strings.NewReader("x"), ContentType: "image/tiff"}, nil)
	ne := networkError(t, err)
	if ne.Class != app.ErrPermanent || ne.Status != 400 || ne.Code != "InvalidMime" || ne.Message != "image/tiff is not accepted" {
		t.Errorf("got %+v", ne)
	}
}

func TestUnknownErrorShapeFallsBackToStatus(t *testing.T) {
	// An S3 form upload answers XML: no classifier reads it; the status and the body's start do.
	c, base := testClient(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write([]byte(`<Error><Code>AccessDenied</Code></Error>`))
	})
	c.Classify = nil
	err := c.Do(context.Background(), Request{Method: http.MethodPost, URL: base, Body: strings.NewReader("x")}, nil)
	ne := networkError(t, err)
	if ne.Class != app.ErrPermanent || ne.Status != 403 || !strings.Contains(ne.Message, "AccessDenied") {
		t.Errorf("got %+v", ne)
	}
}

func TestOKStatusIsAnAnswer(t *testing.T) {
	c, base := testClient(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Range", "bytes=0-99")
		w.WriteHeader(http.StatusPermanentRedirect)
	})
	r := Request{Method: http.MethodPut, URL: base, Body: bytes.NewReader(make([]byte, 100))}
	if _, err := c.Send(context.Background(), r, nil); networkError(t, err).Class != app.ErrPermanent {
		t.Errorf("a 308 without OK: %v", err)
	}
	r.Body, r.OK = bytes.NewReader(make([]byte, 100)), []int{http.StatusPermanentRedirect}
	res, err := c.Send(context.Background(), r, nil)
	if err != nil || res.Status != http.StatusPermanentRedirect || res.Header.Get("Range") != "bytes=0-99" {
		t.Errorf("res %+v, err %v", res, err)
	}
}

func TestMultipart(t *testing.T) {
	for _, stream := range []bool{false, true} {
		file := bytes.Repeat([]byte{0, 1, 2, 0xfe}, 50000)
		c, base := testClient(t, func(w http.ResponseWriter, r *http.Request) {
			if stream != (r.ContentLength == -1) {
				t.Errorf("stream %v: Content-Length %d", stream, r.ContentLength)
			}
			if err := r.ParseMultipartForm(1 << 20); err != nil {
				t.Fatal(err)
			}
			f, fh, err := r.FormFile("file")
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(f)
			if r.FormValue("key") != "v" || fh.Filename != "a.bin" || !bytes.Equal(got, file) {
				t.Errorf("stream %v: key %q name %q %d bytes", stream, r.FormValue("key"), fh.Filename, len(got))
			}
		})
		write := func(w *multipart.Writer) error {
			if err := w.WriteField("key", "v"); err != nil {
				return err
			}
			fw, err := w.CreateFormFile("file", "a.bin")
			if err != nil {
				return err
			}
			_, err = io.Copy(fw, bytes.NewReader(file))
			return err
		}
		var body io.Reader
		var ctype string
		if stream {
			body, ctype = MultipartStream(write)
		} else {
			buf, ct, err := Multipart(write)
			if err != nil {
				t.Fatal(err)
			}
			body, ctype = buf, ct
		}
		if err := c.Do(context.Background(), Request{Method: http.MethodPost, URL: base, Body: body, ContentType: ctype}, nil); err != nil {
			t.Fatalf("stream %v: %v", stream, err)
		}
	}
}

func TestMultipartStreamWriteErrorFailsTheRequest(t *testing.T) {
	c, base := testClient(t, func(w http.ResponseWriter, r *http.Request) { _, _ = io.ReadAll(r.Body) })
	body, ctype := MultipartStream(func(w *multipart.Writer) error { return errors.New("media gone") })
	err := c.Do(context.Background(), Request{Method: http.MethodPost, URL: base, Body: body, ContentType: ctype}, nil)
	if ne := networkError(t, err); ne.Class != app.ErrTransient || !strings.Contains(ne.Err.Error(), "media gone") {
		t.Errorf("got %+v", ne)
	}
}

func TestCanceledContext(t *testing.T) {
	c, base := testClient(t, func(w http.ResponseWriter, r *http.Request) {})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := c.Do(ctx, Request{Method: http.MethodPost, URL: base, Body: strings.NewReader("x")}, nil)
	if ne := networkError(t, err); ne.Class != app.ErrTransient || !errors.Is(err, context.Canceled) {
		t.Errorf("got %+v", ne)
	}
}
