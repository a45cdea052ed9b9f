package api

import (
	"errors"
	"net/netip"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
)

// formatCheck names zod's string check for each OpenAPI format, as in "Invalid email".
var formatCheck = map[string]string{
	"email":     "email",
	"uri":       "url",
	"url":       "url",
	"uuid":      "uuid",
	"date-time": "datetime",
	"date":      "date",
	"time":      "time",
	"ipv4":      "ip",
	"ipv6":      "ip",
	"ip":        "ip",
	"byte":      "base64",
	"cuid":      "cuid",
	"cuid2":     "cuid2",
	"ulid":      "ulid",
}

// zod v3's checks. kin-openapi validates only byte, date and date-time by default.
var (
	emailRE = regexp.MustCompile(`(?i)^[A-Z0-9_'+\-.]*[A-Z0-9_+\-]@([A-Z0-9][A-Z0-9\-]*\.)+[A-Z]{2,}$`)
	uuidRE  = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	// RFC 3339 with an upper-case T and Z, as kin-openapi's own date-time format.
	dateTimeRE = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$`)
	dateRE     = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)
	timeRE     = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\.[0-9]+)?)?$`)
	cuidRE     = regexp.MustCompile(`(?i)^c[^\s-]{8,}$`)
	cuid2RE    = regexp.MustCompile(`^[0-9a-z]+$`)
	ulidRE     = regexp.MustCompile(`(?i)^[0-9A-HJKMNP-TV-Z]{26}$`)

	jsonNumberRE = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)
)

var errFormat = errors.New("invalid format")

func check(ok bool) error {
	if ok {
		return nil
	}
	return errFormat
}

func regexpFormat(re *regexp.Regexp) openapi3.StringFormatValidator {
	return openapi3.NewCallbackValidator(func(s string) error { return check(re.MatchString(s)) })
}

var stringFormats = map[string]openapi3.StringFormatValidator{
	"email": openapi3.NewCallbackValidator(func(s string) error {
		return check(!strings.HasPrefix(s, ".") && !strings.Contains(s, "..") && emailRE.MatchString(s))
	}),
	"uri":  openapi3.NewCallbackValidator(validURL),
	"url":  openapi3.NewCallbackValidator(validURL),
	"uuid": regexpFormat(uuidRE),
	"date-time": openapi3.NewCallbackValidator(func(s string) error {
		if !dateTimeRE.MatchString(s) {
			return errFormat
		}
		_, err := time.Parse(time.RFC3339Nano, s) // rejects 2024-02-30 and 25:00
		return check(err == nil)
	}),
	"date": openapi3.NewCallbackValidator(func(s string) error {
		if !dateRE.MatchString(s) {
			return errFormat
		}
		_, err := time.Parse(time.DateOnly, s)
		return check(err == nil)
	}),
	"time": regexpFormat(timeRE),
	"ipv4": openapi3.NewCallbackValidator(func(s string) error {
		a, err := netip.ParseAddr(s)
		return check(err == nil && a.Is4())
	}),
	"ipv6": openapi3.NewCallbackValidator(func(s string) error {
		a, err := netip.ParseAddr(s)
		return check(err == nil && a.Is6())
	}),
	"ip": openapi3.NewCallbackValidator(func(s string) error {
		_, err := netip.ParseAddr(s)
		return check(err == nil)
	}),
	"cuid":  regexpFormat(cuidRE),
	"cuid2": regexpFormat(cuid2RE),
	"ulid":  regexpFormat(ulidRE),
}

// validURL approximates zod's url check, `new URL(s)`: an absolute URL.
func validURL(s string) error {
	u, err := url.Parse(s)
	return check(err == nil && u.Scheme != "" && (u.Host != "" || u.Opaque != ""))
}
