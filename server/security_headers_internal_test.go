package server

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/stretchr/testify/require"
)

// securityHeaders writes the fields Echo's Secure middleware wrote with Crier's settings, over http
// and https, with and without HSTS; an answer that changes or adds to one leaves the next intact.
func TestSecurityHeadersAsEchoSecure(t *testing.T) {
	t.Parallel()
	for _, maxAge := range []int{0, 31536000} {
		for _, proto := range []string{"", "https"} {
			run := func(mw echo.MiddlewareFunc, after func(http.Header)) http.Header {
				e := echo.New()
				req := httptest.NewRequest(http.MethodGet, "/", nil)
				if proto != "" {
					req.Header.Set(echo.HeaderXForwardedProto, proto)
				}
				rec := httptest.NewRecorder()
				c := e.NewContext(req, rec)
				require.NoError(t, mw(func(c echo.Context) error { after(c.Response().Header()); return nil })(c))
				return rec.Header()
			}
			want := run(middleware.SecureWithConfig(middleware.SecureConfig{ContentTypeNosniff: "nosniff", XFrameOptions: "DENY",
				ReferrerPolicy: "strict-origin-when-cross-origin", ContentSecurityPolicy: CSP, HSTSMaxAge: maxAge}), func(http.Header) {})
			mw := securityHeaders(maxAge)
			require.Equal(t, want, run(mw, func(http.Header) {}), "max-age %d, proto %q", maxAge, proto)
			run(mw, func(h http.Header) { h.Add("X-Frame-Options", "SAMEORIGIN"); h.Set("Content-Security-Policy", "x") })
			require.Equal(t, want, run(mw, func(http.Header) {}), "max-age %d, proto %q: after an answer changed its fields", maxAge, proto)
		}
	}
}
