// Package session is the dashboard's session cookie, shared by the dashboard (web) and the API,
// which accepts the cookie so a user who just signed up can create the first API key.
//
// The cookie is authenticated (HMAC-SHA256) and encrypted (AES-256) with keys derived from
// CRIER_SECRET. It carries the user, the current organization and the user's session generation:
// changing or resetting a password bumps the generation, which ends every other session.
package session

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"net/http"

	"github.com/gorilla/securecookie"
	"github.com/gorilla/sessions"
)

// Cookie is the name of the session cookie.
const Cookie = "crier_session"

// MaxAge is how long a session lives, in seconds (30 days).
const MaxAge = 30 * 24 * 60 * 60

// CSRFCookie and CSRFHeader carry the double-submit token of cookie-authenticated writes.
const (
	CSRFCookie = "_csrf"
	CSRFHeader = "X-CSRF-Token"
)

// Labels of the keys derived from the secret; they keep the package's old path (web/session)
// because changing one signs everybody out.
const (
	hashLabel       = "crier/web/session/hash/v1"
	encryptionLabel = "crier/web/session/encryption/v1"
)

// Keys inside the cookie.
const (
	keyUser       = "uid"
	keyOrg        = "oid"
	keyGeneration = "gen"
)

// Data is who a session belongs to.
type Data struct {
	UserID         string
	OrganizationID string
	Generation     int
}

// NewStore is the cookie store: HttpOnly, SameSite=Lax, Path=/, Secure in production.
func NewStore(secret []byte, production bool) *sessions.CookieStore {
	s := sessions.NewCookieStore(deriveKey(secret, hashLabel), deriveKey(secret, encryptionLabel))
	s.Options = &sessions.Options{
		Path:     "/",
		MaxAge:   MaxAge,
		HttpOnly: true,
		Secure:   production,
		SameSite: http.SameSiteLaxMode,
	}
	s.MaxAge(MaxAge) // also bounds the codecs' timestamp check
	return s
}

// deriveKey returns HMAC-SHA256(secret, label): independent 32-byte keys from one secret.
func deriveKey(secret []byte, label string) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(label))
	return m.Sum(nil)
}

// Get reads who s belongs to; ok is false for an anonymous session.
func Get(s *sessions.Session) (Data, bool) {
	uid, _ := s.Values[keyUser].(string)
	oid, _ := s.Values[keyOrg].(string)
	gen, _ := s.Values[keyGeneration].(int)
	return Data{UserID: uid, OrganizationID: oid, Generation: gen}, uid != ""
}

// Set makes s belong to d (sign-in, organization switch).
func Set(s *sessions.Session, d Data) {
	s.Values[keyUser] = d.UserID
	s.Values[keyOrg] = d.OrganizationID
	s.Values[keyGeneration] = d.Generation
}

// Clear signs s out.
func Clear(s *sessions.Session) {
	delete(s.Values, keyUser)
	delete(s.Values, keyOrg)
	delete(s.Values, keyGeneration)
}

// Load reads the session of r without the middleware (the API's path); ok is false without one.
func Load(store *sessions.CookieStore, r *http.Request) (Data, bool) {
	c, err := r.Cookie(Cookie)
	if err != nil {
		return Data{}, false
	}
	values := map[any]any{}
	if err := securecookie.DecodeMulti(Cookie, c.Value, &values, store.Codecs...); err != nil {
		return Data{}, false
	}
	return Get(&sessions.Session{Values: values})
}

// NewCookie encodes d as a session cookie (for API responses that sign in).
func NewCookie(store *sessions.CookieStore, d Data) (*http.Cookie, error) {
	s := sessions.NewSession(store, Cookie)
	Set(s, d)
	v, err := securecookie.EncodeMulti(Cookie, s.Values, store.Codecs...)
	if err != nil {
		return nil, err
	}
	return sessions.NewCookie(Cookie, v, store.Options), nil
}

// ExpiredCookie removes the session cookie (sign-out).
func ExpiredCookie(store *sessions.CookieStore) *http.Cookie {
	opts := *store.Options
	opts.MaxAge = -1
	return sessions.NewCookie(Cookie, "", &opts)
}

// CrossSiteWrite reports whether a cookie-authenticated, state-changing request may be forged: it is
// allowed when the browser says it is same-origin (Sec-Fetch-Site, which pages cannot set) or when
// the X-CSRF-Token header equals the _csrf cookie (double submit, for clients without the header).
func CrossSiteWrite(r *http.Request) bool {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	switch r.Header.Get("Sec-Fetch-Site") {
	case "same-origin":
		return false
	case "cross-site", "same-site":
		return true
	}
	c, err := r.Cookie(CSRFCookie)
	token := r.Header.Get(CSRFHeader)
	if err != nil || c.Value == "" || token == "" {
		return true
	}
	return subtle.ConstantTimeCompare([]byte(c.Value), []byte(token)) != 1
}
