package web

import (
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/components"
	"github.com/crier/crier/views/pages/account"
)

var (
	signupFields = []string{"firstName", "lastName", "email", "password", "organizationName"}
	loginFields  = []string{"email", "password"}
	resetFields  = []string{"token", "password", "confirmPassword"}
)

// signupPage serves GET /signup; signed-in users go home.
func (h *Handler) signupPage(c echo.Context) error {
	if h.sessionUser(c) != nil {
		return redirect(c, pathHome)
	}
	return h.renderSignup(c, account.NewForm(signupFields...))
}

func (h *Handler) renderSignup(c echo.Context, f account.Form) error {
	d := account.SignupData{Form: f, Action: pathSignup, Links: accountLinks()}
	return renderForm(c, f.Invalid(), account.Signup(h.authFrame(c, "Create your account"), d), account.SignupCard(d))
}

// signupSubmit serves POST /signup: the account, its organization, the session, then home.
func (h *Handler) signupSubmit(c echo.Context) error {
	f, in := bindForm(c, signupFields...)
	s, err := h.svc.Signup(c.Request().Context(), app.SignupParams{
		Email: in["email"], Password: in["password"], FirstName: in["firstName"],
		LastName: optional(in["lastName"]), OrganizationName: optional(in["organizationName"]),
	})
	if err != nil {
		if err := formError(&f, err); err != nil {
			return err
		}
		return h.renderSignup(c, f)
	}
	if err := h.signIn(c, s); err != nil {
		return err
	}
	welcome := "Welcome to Crier, " + displayName(s.User) + "! We sent a link to " + s.User.Email + " to confirm your address."
	if err := addFlash(c, components.FlashSuccess, welcome); err != nil {
		return err
	}
	return redirect(c, pathHome)
}

// loginPage serves GET /login?next=…; signed-in users go straight on.
func (h *Handler) loginPage(c echo.Context) error {
	next := c.QueryParam("next")
	if h.sessionUser(c) != nil {
		return redirect(c, safeNext(next))
	}
	return h.renderLogin(c, account.NewForm(loginFields...), next)
}

func (h *Handler) renderLogin(c echo.Context, f account.Form, next string) error {
	d := account.LoginData{Form: f, Action: pathLogin, Links: accountLinks()}
	if n := safeNext(next); n != pathHome {
		d.Next = n
	}
	return renderForm(c, f.Invalid(), account.Login(h.authFrame(c, "Sign in"), d), account.LoginCard(d))
}

// loginSubmit serves POST /login: checks the credentials, signs in, goes to next (on this site).
func (h *Handler) loginSubmit(c echo.Context) error {
	f, in := bindForm(c, loginFields...)
	next := c.FormValue("next")
	if strings.TrimSpace(in["email"]) == "" {
		fieldError(&f, "email", "Enter your email address")
	}
	if in["password"] == "" {
		fieldError(&f, "password", "Enter your password")
	}
	if f.Invalid() {
		return h.renderLogin(c, f, next)
	}
	s, err := h.svc.Login(c.Request().Context(), in["email"], in["password"])
	if err != nil {
		if err := formError(&f, err); err != nil {
			return err
		}
		return h.renderLogin(c, f, next)
	}
	if err := h.signIn(c, s); err != nil {
		return err
	}
	return redirect(c, safeNext(next))
}

// logout serves POST /logout.
func (h *Handler) logout(c echo.Context) error {
	if err := h.signOut(c); err != nil {
		return err
	}
	if err := addFlash(c, components.FlashInfo, "You are signed out."); err != nil {
		return err
	}
	return redirect(c, pathLogin)
}

// forgotPage serves GET /forgot-password.
func (h *Handler) forgotPage(c echo.Context) error {
	return h.renderForgot(c, account.NewForm("email"), false)
}

func (h *Handler) renderForgot(c echo.Context, f account.Form, sent bool) error {
	d := account.ForgotData{Form: f, Action: pathForgotPassword, Sent: sent, Links: accountLinks()}
	return renderForm(c, f.Invalid(), account.Forgot(h.authFrame(c, "Reset your password"), d), account.ForgotCard(d))
}

// forgotSubmit serves POST /forgot-password: the same confirmation whether or not the address has
// an account.
func (h *Handler) forgotSubmit(c echo.Context) error {
	f, in := bindForm(c, "email")
	if strings.TrimSpace(in["email"]) == "" {
		fieldError(&f, "email", "Enter your email address")
		return h.renderForgot(c, f, false)
	}
	if err := h.svc.ForgotPassword(c.Request().Context(), in["email"]); err != nil {
		if err := formError(&f, err); err != nil {
			return err
		}
		return h.renderForgot(c, f, false)
	}
	f.Values["email"] = strings.TrimSpace(in["email"])
	return h.renderForgot(c, f, true)
}

// resetPage serves GET /reset-password?token=….
func (h *Handler) resetPage(c echo.Context) error {
	return h.renderReset(c, account.NewForm(resetFields...), c.QueryParam("token"))
}

func (h *Handler) renderReset(c echo.Context, f account.Form, token string) error {
	d := account.ResetData{Form: f, Action: pathResetPassword, Token: token, Links: accountLinks()}
	return renderForm(c, f.Invalid(), account.Reset(h.authFrame(c, "Choose a new password"), d), account.ResetCard(d))
}

// resetSubmit serves POST /reset-password: the new password (typed twice), then sign in again.
func (h *Handler) resetSubmit(c echo.Context) error {
	f, in := bindForm(c, resetFields...)
	if in["confirmPassword"] != in["password"] {
		fieldError(&f, "confirmPassword", "The two passwords do not match")
	}
	if in["password"] == "" {
		fieldError(&f, "password", "Enter a new password")
	}
	if f.Invalid() {
		return h.renderReset(c, f, in["token"])
	}
	if err := h.svc.ResetPassword(c.Request().Context(), in["token"], in["password"]); err != nil {
		if err := formError(&f, err); err != nil {
			return err
		}
		return h.renderReset(c, f, in["token"])
	}
	if err := h.signOut(c); err != nil { // every session of the user ended with the reset
		return err
	}
	if err := addFlash(c, components.FlashSuccess, "Your password has been changed. Sign in with your new password."); err != nil {
		return err
	}
	return redirect(c, pathLogin)
}

// optional is nil for an empty (or blank) form value.
func optional(v string) *string {
	if strings.TrimSpace(v) == "" {
		return nil
	}
	return &v
}
