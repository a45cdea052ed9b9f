package web

import (
	"strings"

	"github.com/a-h/templ"
	echosession "github.com/labstack/echo-contrib/session"
	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/session"
	"github.com/crier/crier/views/layout"
	"github.com/crier/crier/views/pages/account"
)

// Route names of the account pages.
const (
	routeLogin            = "login"
	routeLoginSubmit      = "login-submit"
	routeSignup           = "signup"
	routeSignupSubmit     = "signup-submit"
	routeLogout           = "logout"
	routeForgotPassword   = "forgot-password"
	routeForgotSubmit     = "forgot-password-submit"
	routeResetPassword    = "reset-password"
	routeResetSubmit      = "reset-password-submit"
	routeVerifyEmail      = "verify-email"
	routeResendVerify     = "verify-email-resend"
	routeAcceptInvitation = "accept-invitation"
	routeAcceptSubmit     = "accept-invitation-submit"
	routeProfile          = "profile"
	routeProfileSubmit    = "profile-submit"
	routeProfilePassword  = "profile-password"
	routeNewOrganization  = "new-organization"
	routeCreateOrg        = "create-organization"
	routeSwitchOrg        = "switch-organization"
	routeDevMailbox       = "dev-mailbox"
	routeDevMail          = "dev-mail"
)

// Paths of the account pages' form posts that have no page of their own.
const (
	pathResendVerification = pathVerifyEmail + "/resend"
	pathProfilePassword    = pathProfile + "/password"
)

// viewerSlots are the top bar's organization switcher and user menu for the signed-in user (nil
// slots show placeholders).
func (h *Handler) viewerSlots(c echo.Context) (org, user templ.Component) {
	v := viewer(c)
	if v == nil {
		return nil, nil
	}
	menu := layout.OrgMenu{SwitchURL: templ.SafeURL(pathSwitchOrg), NewURL: templ.SafeURL(pathNewOrganization)}
	for _, m := range v.Memberships {
		current := v.CurrentOrganizationID != nil && *v.CurrentOrganizationID == m.OrganizationID
		item := layout.OrgItem{ID: m.OrganizationID, Name: m.OrganizationName, Role: roleLabel(m.Role), Current: current}
		if current {
			menu.Current, menu.Role = item.Name, item.Role
		}
		menu.Items = append(menu.Items, item)
	}
	u := layout.UserMenu{Name: displayName(v.User), Email: v.User.Email,
		ProfileURL: templ.SafeURL(pathProfile), LogoutURL: templ.SafeURL(pathLogout)}
	return layout.OrgSwitcher(menu), layout.UserMenuView(u)
}

// viewerBanner asks a signed-in user whose address is not verified yet to verify it.
func (h *Handler) viewerBanner(c echo.Context) templ.Component {
	v := viewer(c)
	if v == nil || v.User.EmailVerifiedAt != nil {
		return nil
	}
	b := layout.VerifyBanner{Email: v.User.Email, ResendURL: pathResendVerification}
	if !h.production { // the dev mailbox exists (routes.go): the link can be read there
		b.MailboxURL = templ.SafeURL(pathDevMailbox)
	}
	return layout.Banner(b)
}

// sessionUser is who the session cookie of a public page belongs to, when it is still valid (a
// public page never requires it; it only adapts: signed-in users skip /login, for instance).
func (h *Handler) sessionUser(c echo.Context) *app.Principal {
	sess, _ := echosession.Get(SessionCookie, c)
	if sess == nil {
		return nil
	}
	d, ok := session.Get(sess)
	if !ok {
		return nil
	}
	p, err := h.svc.AuthenticateSession(c.Request().Context(), d.UserID, d.OrganizationID, d.Generation)
	if err != nil {
		return nil
	}
	return p
}

// authFrame is the frame of a signed-out page titled title.
func (h *Handler) authFrame(c echo.Context, title string) account.Frame {
	return account.Frame{Page: page(title), Flashes: h.takeFlashes(c), Docs: templ.SafeURL(pathDocs)}
}

// accountLinks are the account pages the cards point to.
func accountLinks() account.Links {
	return account.Links{Login: templ.SafeURL(pathLogin), Signup: templ.SafeURL(pathSignup),
		ForgotPassword: templ.SafeURL(pathForgotPassword), Home: templ.SafeURL(pathHome)}
}

// displayName is a user's full name, else their email.
func displayName(u app.User) string {
	var parts []string
	for _, p := range []*string{u.FirstName, u.LastName} {
		if p != nil && strings.TrimSpace(*p) != "" {
			parts = append(parts, strings.TrimSpace(*p))
		}
	}
	if len(parts) == 0 {
		return u.Email
	}
	return strings.Join(parts, " ")
}

// roleLabel says a role in words ("Owner").
func roleLabel(r app.Role) string {
	s := strings.ToLower(string(r))
	if s == "" {
		return ""
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
