package app

import (
	"errors"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// UnavailableMessage is what a client reads when Crier cannot serve it for now.
const UnavailableMessage = "Service temporarily unavailable; retry shortly"

// UnavailableRetry is the Retry-After of an outage without a better estimate.
const UnavailableRetry = 2 * time.Second

// unavailable reports whether err is the database refusing or losing connections: a passing
// condition (too many clients, a restart) that deserves a 503 and a retry, not a 500.
func unavailable(err error) bool {
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) {
		return true
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case pe.Code == "53300", // too_many_connections
			pe.Code == "57P01", pe.Code == "57P02", pe.Code == "57P03", // shutting down, starting up
			strings.HasPrefix(pe.Code, "08"): // connection exceptions
			return true
		}
	}
	return false
}

// RetryAfter is when a client refused with err may try again; 0 when err says nothing about it.
func RetryAfter(err error) time.Duration {
	var e *Error
	if errors.As(err, &e) && e.RetryAfter > 0 {
		return e.RetryAfter
	}
	if ErrorCode(err) == EUnavailable {
		return UnavailableRetry
	}
	return 0
}
