package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/components"
	"github.com/crier/crier/views/layout"
)

// Route names of the organization pages (the list pages use their area IDs: areaTeams, areaSettings).
const (
	routeTeamCreate          = "teams.create"
	routeTeam                = "team"
	routeTeamUpdate          = "team.update"
	routeTeamEdit            = "team.edit"
	routeTeamDeleteConfirm   = "team.delete.confirm"
	routeTeamDelete          = "team.delete"
	routeSettingsUpdate      = "settings.update"
	routeBrandingUpdate      = "settings.branding"
	routeOrganizationDelete  = "organization.delete"
	routeMembers             = "members"
	routeMemberRole          = "member.role"
	routeMemberRemoveConfirm = "member.remove.confirm"
	routeMemberRemove        = "member.remove"
	routeInvitationCreate    = "invitations.create"
	routeInvitationConfirm   = "invitation.revoke.confirm"
	routeInvitationRevoke    = "invitation.revoke"
	routeAPIKeys             = "apikeys"
	routeAPIKeyCreate        = "apikeys.create"
	routeAPIKeyRollConfirm   = "apikey.roll.confirm"
	routeAPIKeyRoll          = "apikey.roll"
	routeAPIKeyDeleteConfirm = "apikey.delete.confirm"
	routeAPIKeyDelete        = "apikey.delete"
	routeAuditLog            = "auditlog"
)

// Paths under the organization pages' constants (routes.go).
const (
	pathBranding       = pathSettings + "/branding"
	pathDeleteOrg      = pathSettings + "/delete"
	pathInvitations    = pathSettings + "/invitations"
	pathTeam           = pathTeams + "/:id"
	pathMember         = pathMembers + "/:id"
	pathInvitation     = pathInvitations + "/:id"
	pathAPIKey         = pathAPIKeys + "/:id"
	suffixEdit         = "/edit"
	suffixDelete       = "/delete"
	suffixRole         = "/role"
	suffixRemove       = "/remove"
	suffixRevoke       = "/revoke"
	suffixRoll         = "/roll"
	headerHXTarget     = "HX-Target"
	headerHXTrigger    = "HX-Trigger"
	headerHXCurrentURL = "HX-Current-URL"
)

// htmx events the organization pages listen to (hx-trigger="<event> from:body") to reload a list
// after a change made in a dialog.
const (
	eventTeamsChanged       = "teamsChanged"
	eventMembersChanged     = "membersChanged"
	eventInvitationsChanged = "invitationsChanged"
	eventAPIKeysChanged     = "apiKeysChanged"
)

// orgShell is the frame of an organization page: the shell plus the pages' script (dialogs, copy
// buttons, the branding preview).
func (h *Handler) orgShell(c echo.Context, active, title string) layout.Shell {
	s := h.shell(c, active, title)
	s.Scripts = append(s.Scripts, assetURL("js/organization.js"))
	return s
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

// formStatus is the status of a re-rendered form: htmx only swaps 2xx answers, so it gets 200;
// a full page says 422 when the form was refused.
func formStatus(c echo.Context, f components.Form) int {
	if f.Invalid() && !isHTMX(c) {
		return http.StatusUnprocessableEntity
	}
	return http.StatusOK
}

// formValues reads the named fields of a submitted form.
func formValues(c echo.Context, names ...string) map[string]string {
	out := make(map[string]string, len(names))
	for _, n := range names {
		out[n] = c.FormValue(n)
	}
	return out
}

// refused fills f from a Service error the user can act on: each validation issue goes beside its
// field (issues on other fields, and refusals such as a plan limit or a role, go in the form's
// message). It reports false for any other error, which the handler returns as is.
func refused(f *components.Form, err error, fields ...string) bool {
	switch app.ErrorCode(err) {
	case app.EInvalid:
		for _, is := range app.ErrorIssues(err) {
			name := ""
			if len(is.Path) > 0 {
				name = fmt.Sprint(is.Path[0])
			}
			if !hasString(fields, name) {
				f.Message = app.ErrorMessage(err)
				continue
			}
			if f.Errors[name] == "" {
				f.Errors[name] = issueText(is)
			}
			if f.Focus == "" {
				f.Focus = name
			}
		}
		if len(f.Errors) == 0 && f.Message == "" {
			f.Message = app.ErrorMessage(err)
		}
		return true
	case app.EForbidden, app.EConflict, app.ENotFound, app.ERateLimited:
		f.Message = app.ErrorMessage(err)
		return true
	}
	return false
}

// issueText says a validation issue for people: the Service speaks zod ("String must contain at
// least 3 character(s)"); the page says it plainly.
func issueText(is app.Issue) string {
	switch is.Message {
	case "String must contain at least 1 character(s)":
		return "Enter a value"
	case "Invalid url":
		return "Enter a full address starting with https://"
	case "Invalid email":
		return "Enter an email address such as name@company.com"
	}
	var n int
	if _, err := fmt.Sscanf(is.Message, "String must contain at least %d character(s)", &n); err == nil {
		return fmt.Sprintf("Use at least %d characters", n)
	}
	if _, err := fmt.Sscanf(is.Message, "String must contain at most %d character(s)", &n); err == nil {
		return fmt.Sprintf("Use at most %d characters", n)
	}
	return is.Message
}

func hasString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// pageError turns a Service error of a page's main record into the error page: another
// organization's id, or one that is not an id, is 404 (never 403: nothing leaks).
func pageError(err error) error {
	switch app.ErrorCode(err) {
	case app.ENotFound:
		return echo.NewHTTPError(http.StatusNotFound, app.ErrorMessage(err)).SetInternal(err)
	case app.EForbidden:
		return echo.NewHTTPError(http.StatusForbidden, app.ErrorMessage(err)).SetInternal(err)
	case app.EInvalid:
		return echo.NewHTTPError(http.StatusBadRequest, app.ErrorMessage(err)).SetInternal(err)
	}
	return err
}

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

// flashRedirect ends a successful form post without htmx: a flash for the next page, then See Other.
func flashRedirect(c echo.Context, flash, to string) error {
	if err := addFlash(c, components.FlashSuccess, flash); err != nil {
		return err
	}
	return redirect(c, to)
}

// confirm answers a confirmation: the dialog to htmx, the page otherwise.
func (h *Handler) confirm(c echo.Context, area, eyebrow string, cf components.Confirm) error {
	if isHTMX(c) {
		return render(c, http.StatusOK, components.ConfirmDialog(cf), nil)
	}
	d := components.ConfirmPageData{Confirm: cf, Eyebrow: eyebrow}
	return render(c, http.StatusOK, layout.ConfirmPage(h.orgShell(c, area, cf.Title), d), components.ConfirmContent(d))
}

// confirmFailed answers a confirmed action the Service refused: the dialog (htmx) or the page
// again, with the reason. Errors nobody can act on are returned as they are.
func (h *Handler) confirmFailed(c echo.Context, area, eyebrow string, cf components.Confirm, err error) error {
	switch app.ErrorCode(err) {
	case app.EForbidden, app.EInvalid, app.EConflict, app.ENotFound:
	default:
		return err
	}
	cf.Error = app.ErrorMessage(err)
	if isHTMX(c) {
		return render(c, http.StatusOK, components.ConfirmDialog(cf), nil)
	}
	status := http.StatusUnprocessableEntity
	switch app.ErrorCode(err) {
	case app.EForbidden:
		status = http.StatusForbidden
	case app.ENotFound:
		status = http.StatusNotFound
	}
	d := components.ConfirmPageData{Confirm: cf, Eyebrow: eyebrow}
	return render(c, status, layout.ConfirmPage(h.orgShell(c, area, cf.Title), d), components.ConfirmContent(d))
}

// viewerLocation is the viewer's timezone (their profile's), else UTC.
func viewerLocation(c echo.Context) *time.Location {
	if v := viewer(c); v != nil && v.User.Timezone != nil {
		if loc, err := time.LoadLocation(*v.User.Timezone); err == nil {
			return loc
		}
	}
	return time.UTC
}

// viewerDay is a date in the viewer's timezone ("Nov 22, 2026").
func viewerDay(c echo.Context, t time.Time) string {
	return t.In(viewerLocation(c)).Format("Jan 2, 2006")
}

// viewerMoment is a date and time in the viewer's timezone ("Nov 22, 2026, 14:05").
func viewerMoment(c echo.Context, t time.Time) string {
	return t.In(viewerLocation(c)).Format("Jan 2, 2006, 15:04")
}

// callerRole is the caller's role in the current organization.
func callerRole(c echo.Context) app.Role {
	if p := principal(c); p != nil {
		return p.Role
	}
	return ""
}

// personName is a user's display name: first and last name, else the email.
func personName(first, last *string, email string) string {
	name := ""
	if first != nil {
		name = *first
	}
	if last != nil && *last != "" {
		if name != "" {
			name += " "
		}
		name += *last
	}
	if name == "" {
		return email
	}
	return name
}

// pointerTo is a pointer to v (the Service's optional parameters).
func pointerTo[T any](v T) *T { return &v }
