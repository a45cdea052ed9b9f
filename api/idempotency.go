package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
)

// Idempotency-Key on the creating POSTs (idempotency_ops.go lists them), with Stripe's semantics:
// the first request with a key runs and its answer is kept for 24 hours; the same key and request
// again answers that answer (Idempotent-Replayed: true); a duplicate arriving while the first runs
// waits for it; the same key with another request is a 400. Keys are per organization. 5xx and 429
// answers are not kept (the key is released: a retry runs again), nor are refusals of the guard
// (credentials, the contract check), which run before this middleware: as at Stripe, an answer is
// kept once the operation started.
const (
	IdempotencyHeader = "Idempotency-Key"
	ReplayedHeader    = "Idempotent-Replayed"
)

// idempotencyWait bounds how long a duplicate waits for the first request before a 409.
const idempotencyWait = 10 * time.Second

type idempotency struct {
	svc    *app.Service
	routes map[string]bool // "POST /api/v1/post" (Echo's route path) of idempotentOps
	log    *slog.Logger
	wait   time.Duration // idempotencyWait; shorter in tests
}

func newIdempotency(doc *openapi3.T, svc *app.Service, log *slog.Logger) *idempotency {
	m := &idempotency{svc: svc, routes: map[string]bool{}, log: log, wait: idempotencyWait}
	for path, item := range doc.Paths.Map() {
		if op := item.Post; op != nil && idempotentOps[op.OperationID] {
			m.routes[http.MethodPost+" "+openapiParam.ReplaceAllString(path, ":$1")] = true
		}
	}
	return m
}

// middleware runs after the guard (principal set, contract checked).
func (m *idempotency) middleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		key := req.Header.Get(IdempotencyHeader)
		if key == "" || !m.routes[req.Method+" "+c.Path()] {
			return next(c)
		}
		if len(key) > app.IdempotencyKeyMax {
			return app.Invalid(fmt.Sprintf("%s must be at most %d characters", IdempotencyHeader, app.IdempotencyKeyMax),
				app.StringMax(app.IdempotencyKeyMax, IdempotencyHeader))
		}
		fp, err := fingerprint(c)
		if err != nil {
			return err
		}
		ctx := req.Context()
		deadline := time.Now().Add(m.wait)
		for pause := 10 * time.Millisecond; ; pause = min(pause*3/2, 250*time.Millisecond) {
			claim, earlier, err := m.svc.ClaimIdempotencyKey(ctx, key, fp)
			if err != nil {
				return err
			}
			if claim != nil {
				return m.run(c, claim, next)
			}
			if earlier != nil && !bytes.Equal(earlier.Fingerprint, fp) {
				msg := fmt.Sprintf("%s %q was already used with a different request (method, path or body) in the last 24 hours; send a new key for a new request", IdempotencyHeader, key)
				return app.Invalid(msg, app.Issue{Code: app.IssueCustom, Message: msg, Path: []any{IdempotencyHeader}})
			}
			if earlier != nil && earlier.Done {
				return replay(c, earlier)
			}
			// The first request is still running (or just ended without an answer): wait, then look again.
			if time.Now().Add(pause).After(deadline) {
				return app.Errorf(app.EConflict, "A request with %s %q is still in progress; retry later", IdempotencyHeader, key)
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(pause):
			}
		}
	}
}

// run executes the operation holding the claim, then keeps its answer or releases the key. The
// claim never outlives the request: a panic or a 5xx releases it, a heartbeat keeps its lease.
func (m *idempotency) run(c echo.Context, claim *app.IdempotencyClaim, next echo.HandlerFunc) (err error) {
	bg := context.WithoutCancel(c.Request().Context())
	stop := make(chan struct{})
	go func() {
		t := time.NewTicker(app.IdempotencyLease / 3)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				if err := m.svc.HeartbeatIdempotencyKey(bg, claim); err != nil {
					m.log.WarnContext(bg, "idempotency heartbeat", "err", err)
				}
			}
		}
	}()
	res := c.Response()
	w := &captureWriter{ResponseWriter: res.Writer}
	res.Writer = w
	kept := false
	defer func() {
		close(stop)
		res.Writer = w.ResponseWriter
		if !kept {
			if rerr := m.svc.ReleaseIdempotencyKey(bg, claim); rerr != nil {
				m.log.ErrorContext(bg, "idempotency release", "err", rerr)
			}
		}
	}()

	if err = next(c); err != nil {
		c.Error(err) // answer now, through w, so the error body is what a replay sends
	}
	if !res.Committed || res.Status >= 500 || res.Status == http.StatusTooManyRequests {
		return err
	}
	if ferr := m.svc.FinishIdempotencyKey(bg, claim, res.Status, res.Header().Get(echo.HeaderContentType), w.body.Bytes()); ferr != nil {
		m.log.ErrorContext(bg, "idempotency finish", "err", ferr)
		return err
	}
	kept = true
	return err
}

func replay(c echo.Context, a *app.IdempotentAnswer) error {
	h := c.Response().Header()
	if a.ContentType != "" {
		h.Set(echo.HeaderContentType, a.ContentType)
	}
	h.Set(ReplayedHeader, "true")
	c.Response().WriteHeader(a.Status)
	_, err := c.Response().Write(a.Body)
	return err
}

// captureWriter copies what the handler writes, for the answer kept with the key.
type captureWriter struct {
	http.ResponseWriter
	body bytes.Buffer
}

func (w *captureWriter) Write(b []byte) (int, error) {
	w.body.Write(b)
	return w.ResponseWriter.Write(b)
}

func (w *captureWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// fingerprint hashes what makes two requests the same: method, route, path, query and the body in
// a canonical form (JSON re-encoded with sorted keys, so spacing and key order do not matter;
// multipart as its parts, so the random boundary does not). The body is put back for the handler.
func fingerprint(c echo.Context) ([]byte, error) {
	req := c.Request()
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, err
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	h := sha256.New()
	field := func(b []byte) {
		_ = binary.Write(h, binary.BigEndian, uint64(len(b)))
		h.Write(b)
	}
	field([]byte(req.Method))
	field([]byte(c.Path()))
	field([]byte(req.URL.Path))
	field([]byte(canonicalQuery(req.URL.Query())))
	mediaType, params, _ := mime.ParseMediaType(req.Header.Get(echo.HeaderContentType))
	switch {
	case strings.HasPrefix(mediaType, "multipart/"):
		if err := hashParts(field, body, params["boundary"]); err != nil {
			field(body) // unreadable as multipart: the bytes themselves
		}
	default:
		field(canonicalJSON(body))
	}
	return h.Sum(nil), nil
}

func canonicalQuery(q url.Values) string {
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		for _, v := range q[k] {
			b.WriteString(url.QueryEscape(k) + "=" + url.QueryEscape(v) + "&")
		}
	}
	return b.String()
}

// canonicalJSON re-encodes a JSON body (map keys sorted, numbers kept as written); anything else
// is returned as it is.
func canonicalJSON(body []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return body
	}
	out, err := json.Marshal(v)
	if err != nil {
		return body
	}
	return out
}

// hashParts hashes each part's name, file name, type and bytes, in order.
func hashParts(field func([]byte), body []byte, boundary string) error {
	if boundary == "" {
		return errors.New("no boundary")
	}
	r := multipart.NewReader(bytes.NewReader(body), boundary)
	for {
		p, err := r.NextPart()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		sum := sha256.New()
		if _, err := io.Copy(sum, p); err != nil {
			return err
		}
		field([]byte(p.FormName()))
		field([]byte(p.FileName()))
		field([]byte(p.Header.Get(echo.HeaderContentType)))
		field(sum.Sum(nil))
	}
}
