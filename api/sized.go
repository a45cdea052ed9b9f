package api

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"
)

// sized runs an operation's handler with its answer held until the handler returns, then writes
// it with its Content-Length in one Write. The generated handlers write a record of a few KB
// (POST or PATCH post: 4.4 KB) in one Write without a length, which net/http sends chunked past
// 2 KB: more writes and more parsing for both sides. An answer that sets its own length (the
// hand-written GET answers, api/post_json.go) goes straight through, uncopied.
func sized(c echo.Context, next echo.HandlerFunc) error {
	res := c.Response()
	w := &sizedWriter{ResponseWriter: res.Writer}
	res.Writer = w
	err := next(c)
	res.Writer = w.ResponseWriter
	if sendErr := w.send(); err == nil {
		err = sendErr
	}
	return err
}

// sizedWriter holds what a handler writes (see sized). It has no Unwrap on purpose: a Flush
// through http.ResponseController would send the headers before the length is known (no API
// operation flushes).
type sizedWriter struct {
	http.ResponseWriter
	code    int
	through bool // the handler set Content-Length itself: written as it comes
	buf     []byte
}

func (w *sizedWriter) WriteHeader(code int) {
	if w.code != 0 {
		return
	}
	w.code = code
	if _, ok := w.Header()["Content-Length"]; ok {
		w.through = true
		w.ResponseWriter.WriteHeader(code)
	}
}

func (w *sizedWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.WriteHeader(http.StatusOK)
	}
	if w.through {
		return w.ResponseWriter.Write(b)
	}
	w.buf = append(w.buf, b...)
	return len(b), nil
}

// send writes the held answer, if any, with its length (none for a status without a body).
func (w *sizedWriter) send() error {
	if w.code == 0 || w.through {
		return nil
	}
	if h := w.Header(); w.code >= 200 && w.code != http.StatusNoContent && w.code != http.StatusNotModified && h.Get("Transfer-Encoding") == "" {
		h.Set("Content-Length", strconv.Itoa(len(w.buf)))
	}
	w.ResponseWriter.WriteHeader(w.code)
	if len(w.buf) == 0 {
		return nil
	}
	_, err := w.ResponseWriter.Write(w.buf)
	return err
}
