// Package core is what every network adapter shares: the OAuth 2 flow over golang.org/x/oauth2
// (PKCE S256 where the network wants it), a JSON HTTP client whose failures are classified once into
// app.NetworkError (transient, rate-limited with the network's reset time, auth-expired, permanent;
// the network's code and message verbatim), and helpers to read the networks' rate-limit signals.
// Every call goes through Client.Do (or Send, which also answers the headers): JSON and form calls
// as well as media uploads with a raw body (bytes, a multipart form, a stream), so an upload's
// failure is classified like any other.
//
// An adapter supplies its endpoints and a Classifier that reads its own error shape; everything else
// is here, so the ~15 adapters stay small and behave alike.
package core

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"github.com/crier/crier/app"
)

// Credentials are an app's client id and secret at a network.
type Credentials struct {
	ClientID     string
	ClientSecret string
	BotToken     string // Discord: the app's bot token (DISCORD_BOT_TOKEN)
}

// Classifier reads a network's error answer (status, headers, body) into a NetworkError; it returns
// nil to fall back to the generic classification by status.
type Classifier func(status int, h http.Header, body []byte) *app.NetworkError

// Client calls one network's API.
type Client struct {
	Network  app.Network
	HTTP     *http.Client
	Classify Classifier
	// Now is the clock used to turn relative reset signals into times (tests).
	Now func() time.Time
}

// NewClient builds a client with a sane timeout.
func NewClient(n app.Network, classify Classifier) *Client {
	return &Client{Network: n, HTTP: &http.Client{Timeout: 30 * time.Second, Transport: Transport}, Classify: classify, Now: time.Now}
}

// Transport is the adapters' shared transport: net/http's default, but keeping up to
// IdleConnsPerHost idle connections to each network's API host (the default keeps 2), so the
// publish workers calling one network at once reuse their connections instead of dialing (and
// shaking hands with TLS) for nearly every call.
var Transport = func() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = IdleConnsPerHost
	t.MaxIdleConns = 0 // no cap across hosts; IdleConnTimeout closes the unused ones
	return t
}()

// IdleConnsPerHost covers the publish queue's workers (jobs.Queues) calling one network together.
const IdleConnsPerHost = 32

// Request is one API call. At most one of JSON, Form and Body is set.
type Request struct {
	Method string
	URL    string
	Bearer string            // Authorization: Bearer …
	Header map[string]string // extra headers
	JSON   any               // JSON body
	Form   url.Values        // form body
	// Body is a raw body sent as is with ContentType: media uploads (bytes, a multipart form, a
	// stream). It goes through Do like any call so its failures get the same classification
	// (the network's classifier, then ByStatus and Retry-After), the same answer size limit and
	// the same context. Body is handed to net/http untouched: a *bytes.Reader, *bytes.Buffer or
	// *strings.Reader is sent with its Content-Length (and can be replayed on a redirect), any
	// other reader (an io.Pipe) is streamed chunked, never read into memory first.
	Body        io.Reader
	ContentType string
	// OK lists statuses besides 2xx that are answers rather than errors (YouTube's 308 Resume
	// Incomplete between the chunks of a resumable upload).
	OK []int
	// Read marks a call that changes nothing on the network though it is not a GET (TikTok's status
	// fetch is a POST): like a GET or HEAD, it does not wait for the attempt's pending checkpoints.
	Read bool
}

// Response is an answer as read: its status, headers and body (up to MaxAnswer bytes).
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// MaxAnswer bounds the answer body read.
const MaxAnswer = 8 << 20

// Do sends r and decodes a 2xx (or r.OK) JSON answer into out (when non-nil). Anything else is a classified
// *app.NetworkError.
func (c *Client) Do(ctx context.Context, r Request, out any) error {
	_, err := c.Send(ctx, r, out)
	return err
}

// Send is Do that also answers the response, for networks that answer in headers (LinkedIn's
// x-restli-id, a resumable upload's Location) or in a raw body. When the network answered with an
// error, the response comes with the classified error (Bluesky's 409 carries a job id); it is nil
// when no answer came.
func (c *Client) Send(ctx context.Context, r Request, out any) (*Response, error) {
	// The attempt's pending checkpoints are made durable before a call that may change something on
	// the network (what Find must be able to reconcile); a read (GET, HEAD: safe methods, RFC 9110
	// §9.2.1, or Read) leaves them pending for the next such call or the outcome's transaction: a
	// worker dying after it leaves what it would have left dying before it.
	if !r.Read && r.Method != "" && r.Method != http.MethodGet && r.Method != http.MethodHead {
		if err := app.BeforeCall(ctx); err != nil {
			if rc, ok := r.Body.(io.Closer); ok {
				_ = rc.Close()
			}
			return nil, fmt.Errorf("%s: %w", c.Network, err)
		}
	}
	body, ctype := r.Body, r.ContentType
	switch {
	case r.JSON != nil:
		b, err := json.Marshal(r.JSON)
		if err != nil {
			return nil, fmt.Errorf("%s: encode: %w", c.Network, err)
		}
		body, ctype = bytes.NewReader(b), "application/json"
	case r.Form != nil:
		body, ctype = strings.NewReader(r.Form.Encode()), "application/x-www-form-urlencoded"
	}
	method := r.Method
	if method == "" {
		method = http.MethodGet
	}
	req, err := http.NewRequestWithContext(ctx, method, r.URL, body)
	if err != nil {
		if rc, ok := body.(io.Closer); ok {
			_ = rc.Close() // a pipe's writer must not wait for a reader that never comes
		}
		return nil, fmt.Errorf("%s: request: %w", c.Network, err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "Crier/1.0")
	if r.Bearer != "" {
		req.Header.Set("Authorization", "Bearer "+r.Bearer)
	}
	for k, v := range r.Header {
		req.Header.Set(k, v)
	}
	res, err := c.HTTP.Do(req)
	if err != nil {
		return nil, &app.NetworkError{Network: c.Network, Class: app.ErrTransient, Message: "unreachable", Err: err}
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, MaxAnswer))
	if err != nil {
		return nil, &app.NetworkError{Network: c.Network, Class: app.ErrTransient, Status: res.StatusCode, Message: "reading the answer failed", Err: err}
	}
	answer := &Response{Status: res.StatusCode, Header: res.Header, Body: b}
	if !slices.Contains(r.OK, res.StatusCode) {
		if ne := c.classify(res.StatusCode, res.Header, b); ne != nil {
			return answer, ne
		}
	}
	if out != nil && len(b) > 0 {
		if err := json.Unmarshal(b, out); err != nil {
			return answer, &app.NetworkError{Network: c.Network, Class: app.ErrTransient, Status: res.StatusCode, Message: "unexpected answer", Err: err}
		}
	}
	return answer, nil
}

// Multipart builds a multipart/form-data body in memory with write (fields, then files) and
// answers it with its content type, for Request.Body and ContentType. Held in memory its length is
// known: S3 form uploads refuse a chunked body. MultipartStream streams instead.
func Multipart(write func(*multipart.Writer) error) (*bytes.Buffer, string, error) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	if err := write(w); err != nil {
		return nil, "", err
	}
	if err := w.Close(); err != nil {
		return nil, "", err
	}
	return &buf, w.FormDataContentType(), nil
}

// MultipartStream is Multipart written by a goroutine into a pipe as the request reads it, so a
// large file is never held in memory; the body is sent chunked. An error of write fails the
// request's read of the body; the pipe is closed by the transport (or by Send) when the request
// ends, which stops the writer.
func MultipartStream(write func(*multipart.Writer) error) (io.Reader, string) {
	pr, pw := io.Pipe()
	w := multipart.NewWriter(pw)
	go func() {
		err := write(w)
		if err == nil {
			err = w.Close()
		}
		pw.CloseWithError(err)
	}()
	return pr, w.FormDataContentType()
}

// classify answers nil for success; networks whose errors come with 200 (Slack) say so in Classify.
func (c *Client) classify(status int, h http.Header, b []byte) *app.NetworkError {
	if c.Classify != nil {
		if ne := c.Classify(status, h, b); ne != nil {
			ne.Network, ne.Status = c.Network, status
			if ne.Class == "" {
				ne.Class = ByStatus(status)
			}
			if ne.Class == app.ErrRateLimited && ne.ResetAt.IsZero() {
				ne.ResetAt = RetryAfter(h, c.now())
			}
			return ne
		}
	}
	if status >= 200 && status < 300 {
		return nil
	}
	ne := &app.NetworkError{Network: c.Network, Class: ByStatus(status), Status: status, Message: Snippet(b)}
	if ne.Class == app.ErrRateLimited {
		ne.ResetAt = RetryAfter(h, c.now())
	}
	return ne
}

func (c *Client) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// ByStatus is the generic classification of an HTTP status.
func ByStatus(status int) app.ErrorClass {
	switch {
	case status == http.StatusTooManyRequests:
		return app.ErrRateLimited
	case status == http.StatusUnauthorized:
		return app.ErrAuthExpired
	case status >= 500 || status == http.StatusRequestTimeout || status == 0:
		return app.ErrTransient
	default:
		return app.ErrPermanent
	}
}

// Snippet is the start of a body, for messages of unknown shapes.
func Snippet(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 300 {
		s = s[:300]
	}
	return s
}

// RetryAfter reads the standard Retry-After header (seconds or an HTTP date).
func RetryAfter(h http.Header, now time.Time) time.Time {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return time.Time{}
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		return now.Add(time.Duration(s * float64(time.Second)))
	}
	if t, err := http.ParseTime(v); err == nil {
		return t
	}
	return time.Time{}
}

// EpochHeader reads a reset time given as Unix seconds in header name (X's x-rate-limit-reset,
// Bluesky's RateLimit-Reset).
func EpochHeader(h http.Header, name string) time.Time {
	if s, err := strconv.ParseInt(strings.TrimSpace(h.Get(name)), 10, 64); err == nil && s > 0 {
		return time.Unix(s, 0).UTC()
	}
	return time.Time{}
}

// SecondsHeader reads a reset given as seconds from now (Reddit's X-Ratelimit-Reset).
func SecondsHeader(h http.Header, name string, now time.Time) time.Time {
	if s, err := strconv.ParseFloat(strings.TrimSpace(h.Get(name)), 64); err == nil && s >= 0 {
		return now.Add(time.Duration(s * float64(time.Second)))
	}
	return time.Time{}
}

// OAuth2 is a network's OAuth 2 authorization-code flow.
type OAuth2 struct {
	Network      app.Network
	Config       oauth2.Config // Endpoint and Scopes; RedirectURL comes per request
	PKCE         bool          // send an S256 code_challenge and the verifier at exchange
	ScopeSep     string        // "," for networks that want comma-separated scopes (default " ")
	ClientIDName string        // "client_key" for TikTok (default client_id)
	Extra        url.Values    // fixed extra authorize parameters (access_type=offline, duration=permanent …)
	// KeepExtra names fields of the code exchange's answer kept (as JSON) in Token.Secrets under
	// their own name (Discord's "webhook" with the webhook.incoming scope).
	KeepExtra []string
	HTTP      *http.Client
}

// AuthorizeURL builds the consent URL.
func (o *OAuth2) AuthorizeURL(req app.AuthorizeRequest, extra url.Values) string {
	cfg := o.Config
	cfg.RedirectURL = req.RedirectURI
	var opts []oauth2.AuthCodeOption
	if o.PKCE {
		opts = append(opts, oauth2.S256ChallengeOption(req.Verifier))
	}
	if o.ScopeSep != "" && o.ScopeSep != " " {
		opts = append(opts, oauth2.SetAuthURLParam("scope", strings.Join(cfg.Scopes, o.ScopeSep)))
		cfg.Scopes = nil
	}
	for k, vs := range o.Extra {
		opts = append(opts, oauth2.SetAuthURLParam(k, vs[0]))
	}
	for k, vs := range extra {
		opts = append(opts, oauth2.SetAuthURLParam(k, vs[0]))
	}
	u := cfg.AuthCodeURL(req.State, opts...)
	if o.ClientIDName != "" {
		pu, _ := url.Parse(u)
		q := pu.Query()
		q.Set(o.ClientIDName, q.Get("client_id"))
		q.Del("client_id")
		pu.RawQuery = q.Encode()
		u = pu.String()
	}
	return u
}

func (o *OAuth2) ctx(ctx context.Context) context.Context {
	hc := o.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second, Transport: Transport}
	}
	return context.WithValue(ctx, oauth2.HTTPClient, hc)
}

// Exchange trades the code for a token.
func (o *OAuth2) Exchange(ctx context.Context, req app.ExchangeRequest) (*app.Token, error) {
	cfg := o.Config
	cfg.RedirectURL = req.RedirectURI
	var opts []oauth2.AuthCodeOption
	if o.PKCE {
		opts = append(opts, oauth2.VerifierOption(req.Verifier))
	}
	t, err := cfg.Exchange(o.ctx(ctx), req.Code, opts...)
	if err != nil {
		return nil, o.tokenError(err)
	}
	out := FromOAuth2(t)
	for _, name := range o.KeepExtra {
		if v := t.Extra(name); v != nil {
			if b, err := json.Marshal(v); err == nil {
				out.Secrets[name] = string(b)
			}
		}
	}
	return out, nil
}

// Refresh renews a token with its refresh token.
func (o *OAuth2) Refresh(ctx context.Context, t *app.Token) (*app.Token, error) {
	if t.RefreshToken == "" {
		return nil, app.ErrNoRefresh
	}
	src := o.Config.TokenSource(o.ctx(ctx), &oauth2.Token{RefreshToken: t.RefreshToken, Expiry: time.Unix(1, 0)})
	nt, err := src.Token()
	if err != nil {
		return nil, o.tokenError(err)
	}
	return FromOAuth2(nt), nil
}

// FromOAuth2 converts an x/oauth2 token.
func FromOAuth2(t *oauth2.Token) *app.Token {
	out := &app.Token{AccessToken: t.AccessToken, RefreshToken: t.RefreshToken, Expiry: t.Expiry, Secrets: map[string]string{}}
	if s, ok := t.Extra("scope").(string); ok {
		out.Scope = s
	}
	return out
}

// tokenError classifies a token endpoint failure: invalid_grant (revoked or expired grant) and
// 401 are auth-expired, 429 rate-limited, 5xx transient, the rest permanent.
func (o *OAuth2) tokenError(err error) error {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		status := 0
		var h http.Header
		if re.Response != nil {
			status, h = re.Response.StatusCode, re.Response.Header
		}
		ne := &app.NetworkError{Network: o.Network, Status: status, Code: re.ErrorCode, Message: re.ErrorDescription, Class: ByStatus(status)}
		if ne.Message == "" {
			ne.Message = Snippet(re.Body)
		}
		switch {
		case re.ErrorCode == "invalid_grant" || re.ErrorCode == "invalid_token":
			ne.Class = app.ErrAuthExpired
		case status == http.StatusTooManyRequests:
			ne.ResetAt = RetryAfter(h, time.Now())
		case status == http.StatusBadRequest && re.ErrorCode == "":
			ne.Class = app.ErrPermanent
		}
		return ne
	}
	var nerr net.Error
	if errors.As(err, &nerr) || errors.Is(err, context.DeadlineExceeded) {
		return &app.NetworkError{Network: o.Network, Class: app.ErrTransient, Message: "unreachable", Err: err}
	}
	return &app.NetworkError{Network: o.Network, Class: app.ErrTransient, Message: "token endpoint failed", Err: err}
}

// Endpoints are a network's base URLs; SANDBOX=1 replaces them with the sandbox's.
type Endpoints struct {
	Auth  string // where the consent page lives (https://x.com)
	API   string // where the API lives (https://api.x.com)
	Token string // where the token endpoint lives, when on a host of its own (Google); "" otherwise
}

// Str returns &s, or nil for "".
func Str(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
