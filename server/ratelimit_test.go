package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/server/servertest"
)

// freeze stops the server's clock (the budgets' and throttles' clock) at its current time and
// answers a function that moves it.
func freeze(srv *servertest.Server) func(time.Duration) {
	var mu sync.Mutex
	now := time.Now()
	srv.Clock.Set(func() time.Time { mu.Lock(); defer mu.Unlock(); return now })
	return func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
}

func retryAfterSeconds(t *testing.T, res *http.Response) int {
	t.Helper()
	n, err := strconv.Atoi(res.Header.Get("Retry-After"))
	require.NoError(t, err, "Retry-After %q", res.Header.Get("Retry-After"))
	require.Positive(t, n)
	return n
}

// Per key, the windows hold, every answer says where the caller stands, and a refusal is the
// spec's 429 body with Retry-After. Other keys, sessions and anonymous callers have their own budgets.
func TestAPIRateLimitPerKey(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t, servertest.Options{NoWorkers: true, Env: map[string]string{"CRIER_RATE_LIMITS": "5/1s,7/10s"}})
	key, other := apiKeyFor(t, srv), apiKeyFor(t, srv)
	cookie := signupCookie(t, srv)
	move := freeze(srv)

	for i := range 5 {
		res, b := do(t, http.MethodGet, srv.URL+"/api/v1/team", "", "x-api-key", key)
		require.Equal(t, http.StatusOK, res.StatusCode, string(b))
		require.Equal(t, "5", res.Header.Get("RateLimit-Limit"))
		require.Equal(t, strconv.Itoa(4-i), res.Header.Get("RateLimit-Remaining"))
		require.Equal(t, "5;w=1, 7;w=10", res.Header.Get("RateLimit-Policy"))
	}
	res, b := do(t, http.MethodGet, srv.URL+"/api/v1/team", "", "x-api-key", key)
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode, string(b))
	e := decodeError(t, b)
	require.Equal(t, 429, e.StatusCode)
	require.Contains(t, e.Message, "Rate limit exceeded")
	require.Equal(t, 1, retryAfterSeconds(t, res))
	require.Equal(t, "0", res.Header.Get("RateLimit-Remaining"))

	res, _ = do(t, http.MethodGet, srv.URL+"/api/v1/team", "", "x-api-key", other)
	require.Equal(t, http.StatusOK, res.StatusCode, "another key has its own budget")

	// A second later the 1 s window is whole again, but the 10 s window has 2 left.
	move(time.Second)
	for range 2 {
		res, _ = do(t, http.MethodGet, srv.URL+"/api/v1/team", "", "x-api-key", key)
		require.Equal(t, http.StatusOK, res.StatusCode)
	}
	res, _ = do(t, http.MethodGet, srv.URL+"/api/v1/team", "", "x-api-key", key)
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode)
	require.Equal(t, "7", res.Header.Get("RateLimit-Limit"), "the 10 s window is the one that ran out")
	require.GreaterOrEqual(t, retryAfterSeconds(t, res), 1)

	// Without credentials: per client IP. The sign-ups above spent some of this address's budget;
	// how much of it has come back depends on how long they took, so start from a whole budget.
	move(10 * time.Second)
	for range 5 {
		res, _ = do(t, http.MethodGet, srv.URL+"/api/v1", "")
		require.Equal(t, http.StatusOK, res.StatusCode)
	}
	res, _ = do(t, http.MethodGet, srv.URL+"/api/v1", "")
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode)
	// A forged X-Forwarded-For does not buy a new budget (no trusted proxy is configured).
	res, _ = do(t, http.MethodGet, srv.URL+"/api/v1", "", "X-Forwarded-For", "203.0.113.9")
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode)

	// Cookie calls: per session.
	move(time.Minute)
	for range 5 {
		res, _ = do(t, http.MethodGet, srv.URL+"/api/v1/auth/me", "", "Cookie", cookie)
		require.Equal(t, http.StatusOK, res.StatusCode)
	}
	res, _ = do(t, http.MethodGet, srv.URL+"/api/v1/auth/me", "", "Cookie", cookie)
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode)
}

// Behind a trusted proxy, X-Forwarded-For names the client, and each client has its own budget.
func TestAPIRateLimitTrustsConfiguredProxy(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t, servertest.Options{NoWorkers: true, Env: map[string]string{"CRIER_RATE_LIMITS": "2/1s", "CRIER_TRUSTED_PROXIES": "127.0.0.1"}})
	freeze(srv)
	for _, client := range []string{"203.0.113.1", "203.0.113.2"} {
		for range 2 {
			res, _ := do(t, http.MethodGet, srv.URL+"/api/v1", "", "X-Forwarded-For", client)
			require.Equal(t, http.StatusOK, res.StatusCode, client)
		}
		res, _ := do(t, http.MethodGet, srv.URL+"/api/v1", "", "X-Forwarded-For", client)
		require.Equal(t, http.StatusTooManyRequests, res.StatusCode, client)
	}
}

// An organization's own limits override the defaults, window by window (NULL keeps the default).
func TestAPIRateLimitPerOrganization(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t, servertest.Options{NoWorkers: true, Env: map[string]string{"CRIER_RATE_LIMITS": "5/1s,7/10s"}})
	key := apiKeyFor(t, srv)
	res, b := do(t, http.MethodGet, srv.URL+"/api/v1/organization", "", "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var org struct{ ID string }
	require.NoError(t, json.Unmarshal(b, &org))
	two := 2
	require.NoError(t, srv.Service.SetOrganizationRateLimits(context.Background(), org.ID, app.RateLimitOverride{PerSecond: &two}))
	require.Equal(t, app.ENotFound, app.ErrorCode(srv.Service.SetOrganizationRateLimits(context.Background(), "00000000-0000-0000-0000-000000000000", app.RateLimitOverride{PerSecond: &two})))

	freeze(srv)
	for range 2 {
		res, _ = do(t, http.MethodGet, srv.URL+"/api/v1/team", "", "x-api-key", key)
		require.Equal(t, http.StatusOK, res.StatusCode)
		require.Equal(t, "2;w=1, 7;w=10", res.Header.Get("RateLimit-Policy"))
	}
	res, _ = do(t, http.MethodGet, srv.URL+"/api/v1/team", "", "x-api-key", key)
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode)
}

// The dashboard has a budget too, per session or IP; a refusal is a 429 page with Retry-After.
func TestDashboardRateLimit(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t, servertest.Options{NoWorkers: true, Env: map[string]string{"CRIER_RATE_LIMITS": "3/1s"}})
	freeze(srv)
	for range 3 {
		res, _ := do(t, http.MethodGet, srv.URL+"/login", "")
		require.Equal(t, http.StatusOK, res.StatusCode)
	}
	res, b := do(t, http.MethodGet, srv.URL+"/login", "")
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode)
	require.Contains(t, res.Header.Get("Content-Type"), "text/html")
	require.Contains(t, string(b), "Too many requests")
	require.Equal(t, 1, retryAfterSeconds(t, res))
	res, _ = do(t, http.MethodGet, srv.URL+"/static/htmx.min.js", "")
	require.NotEqual(t, http.StatusTooManyRequests, res.StatusCode, "static files are not counted")
}

// loginFn tries one sign-in and answers the response.
type loginFn func(t *testing.T, email, password string) *http.Response

func apiLogin(srv *servertest.Server) loginFn {
	return func(t *testing.T, email, password string) *http.Response {
		res, _ := do(t, http.MethodPost, srv.URL+"/api/v1/auth/login", `{"email":"`+email+`","password":"`+password+`"}`)
		return res
	}
}

func formLogin(srv *servertest.Server) loginFn {
	return func(t *testing.T, email, password string) *http.Response {
		form := url.Values{"email": {email}, "password": {password}}.Encode()
		req, err := http.NewRequest(http.MethodPost, srv.URL+"/login", strings.NewReader(form))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		res, err := client.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		return res
	}
}

// Wrong passwords for one account: growing delays (short ones served, longer ones a 429 whose
// Retry-After the client honours), and the 11th within a minute is a 429 whatever the password.
// A minute later the right password works, and clears the account's failures.
func TestLoginThrottlePerAccount(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t, servertest.Options{NoWorkers: true})
	for name, login := range map[string]loginFn{"api": apiLogin(srv), "dashboard": formLogin(srv)} {
		t.Run(name, func(t *testing.T) {
			email := newEmail()
			res, _ := do(t, http.MethodPost, srv.URL+"/api/v1/auth/signup", `{"email":"`+email+`","password":"0123456789","firstName":"Ada"}`)
			require.Equal(t, http.StatusCreated, res.StatusCode)
			move := freeze(srv)
			defer srv.Clock.Set(time.Now)
			failed := http.StatusUnauthorized
			if name == "dashboard" {
				failed = http.StatusUnprocessableEntity
			}
			wrong, delayed := 0, 0
			for wrong < 10 {
				res := login(t, email, "wrong-password")
				if res.StatusCode == http.StatusTooManyRequests {
					delayed++
					move(time.Duration(retryAfterSeconds(t, res)) * time.Second)
					continue
				}
				require.Equal(t, failed, res.StatusCode)
				wrong++
			}
			require.Positive(t, delayed, "the delays grew past what is waited out")
			res = login(t, email, "wrong-password")
			require.Equal(t, http.StatusTooManyRequests, res.StatusCode, "the 11th wrong password in a minute")
			require.Greater(t, retryAfterSeconds(t, res), 2)
			res = login(t, email, "0123456789")
			require.Equal(t, http.StatusTooManyRequests, res.StatusCode, "locked, even with the right password")

			move(time.Minute)
			res = login(t, email, "0123456789")
			require.Contains(t, []int{http.StatusOK, http.StatusSeeOther, http.StatusFound}, res.StatusCode)
			res = login(t, email, "wrong-password")
			require.Equal(t, failed, res.StatusCode, "a sign-in cleared the account's failures")
			move(time.Minute) // the IP's failures end with the window too
		})
	}
}

// One IP trying many accounts, once each, is throttled too.
func TestLoginThrottlePerIP(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t, servertest.Options{NoWorkers: true})
	login := apiLogin(srv)
	freeze(srv)
	for i := range 30 {
		res := login(t, newEmail(), "wrong-password")
		if res.StatusCode == http.StatusTooManyRequests {
			require.Greater(t, i, 10, "ten failures pass without delay")
			retryAfterSeconds(t, res)
			return
		}
		require.Equal(t, http.StatusUnauthorized, res.StatusCode)
	}
	t.Fatal("30 failures from one IP were never throttled")
}

// Mailed and portal tokens: wrong guesses from one IP, and reset requests for one address.
func TestTokenThrottles(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t, servertest.Options{NoWorkers: true})
	freeze(srv)
	throttled := func(name string, try func() *http.Response, limit int) {
		for range limit {
			if res := try(); res.StatusCode == http.StatusTooManyRequests {
				retryAfterSeconds(t, res)
				return
			}
		}
		t.Fatalf("%s: %d tries were never throttled", name, limit)
	}
	throttled("verify", func() *http.Response {
		res, _ := do(t, http.MethodPost, srv.URL+"/api/v1/auth/verify-email", `{"token":"guess-`+newEmail()+`"}`)
		return res
	}, 20)
	email := newEmail()
	throttled("forgot", func() *http.Response {
		res, _ := do(t, http.MethodPost, srv.URL+"/api/v1/auth/forgot-password", `{"email":"`+email+`"}`)
		return res
	}, 6)
	res, b := do(t, http.MethodGet, srv.URL+"/api/v1/portal/"+fmt.Sprint(time.Now().UnixNano()), "")
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode, "portal tokens share the IP's token budget: %s", b)
}
