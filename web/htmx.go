package web

import (
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/crier/crier/views/components"
)

// htmx: the request headers it sends, the answer headers it reads, and the answers the dashboard
// gives it (a fragment instead of the page, events, out-of-band flashes).

// htmx's headers: the request's (HX-Request, HX-Boosted, HX-Target, HX-Current-URL) and the
// answer's (HX-Trigger).
const (
	headerHXRequest    = "HX-Request"
	headerHXBoosted    = "HX-Boosted"
	headerHXTarget     = "HX-Target"
	headerHXTrigger    = "HX-Trigger"
	headerHXCurrentURL = "HX-Current-URL"
)

// isFragmentRequest reports whether the request wants a fragment: htmx made it, and not for a
// boosted link or form (those swap the whole body, so they get the full page).
func isFragmentRequest(r *http.Request) bool {
	return r.Header.Get(headerHXRequest) == "true" && r.Header.Get(headerHXBoosted) == ""
}

// hxTarget is the id of the element an htmx request will swap ("" for other requests). Handlers
// answering several parts of a page pick the part by it.
func hxTarget(c echo.Context) string {
	if !isFragmentRequest(c.Request()) {
		return ""
	}
	return c.Request().Header.Get(headerHXTarget)
}

// isHTMX reports whether the request came from htmx (and wants a fragment).
func isHTMX(c echo.Context) bool { return isFragmentRequest(c.Request()) }

// hxTrigger makes htmx fire event on the page when the answer arrives.
func hxTrigger(c echo.Context, event string) {
	b, _ := json.Marshal(map[string]any{event: true})
	c.Response().Header().Set(headerHXTrigger, string(b))
}

// dialogDone answers a confirmed action to htmx: the dialog slot empties (closing the dialog), a
// flash says what happened and event reloads the list it changed.
func dialogDone(c echo.Context, flash, event string) error {
	if event != "" {
		hxTrigger(c, event)
	}
	f := components.OOBFlash(components.Flash{Kind: components.FlashSuccess, Text: flash})
	return render(c, http.StatusOK, f, nil)
}
