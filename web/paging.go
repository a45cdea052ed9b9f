package web

import (
	"net/url"
	"strconv"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
)

// Lists: the ?page= parameter, the Service's page, and the URLs of a list's pages and records.

// pageNumber is the 1-based ?page= of a list (anything else is page 1).
func pageNumber(c echo.Context) int {
	n, err := strconv.Atoi(c.QueryParam("page"))
	if err != nil || n < 1 {
		return 1
	}
	return min(n, 100000)
}

// servicePage is page n of size items.
func servicePage(n, size int) app.Page { return app.Page{Offset: (n - 1) * size, Limit: size} }

// withQuery is path with the non-empty query values of kv (name, value pairs); page 1 is left out.
func withQuery(path string, kv ...string) templ.SafeURL {
	q := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" && !(kv[i] == "page" && kv[i+1] == "1") {
			q.Set(kv[i], kv[i+1])
		}
	}
	if len(q) == 0 {
		return templ.SafeURL(path)
	}
	return templ.SafeURL(path + "?" + q.Encode())
}

// idURL is a record's path under base, with an optional suffix ("/teams/ID/edit").
func idURL(base, id, suffix string) templ.SafeURL {
	return templ.SafeURL(base + "/" + url.PathEscape(id) + suffix)
}
