package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/components"
	"github.com/crier/crier/views/layout"
	"github.com/crier/crier/views/pages/account"
)

// verifyEmail serves GET /verify-email?token=…, the link of the verification email: it verifies
// and says so, or says why not (with a resend button for a signed-in user).
func (h *Handler) verifyEmail(c echo.Context) error {
	token := strings.TrimSpace(c.QueryParam("token"))
	d := account.VerifyData{SignedIn: h.sessionUser(c) != nil, ResendURL: pathResendVerification, Links: accountLinks()}
	status := http.StatusOK
	if token == "" {
		d.Message = "This verification link is incomplete; open it from the email again"
		status = http.StatusBadRequest
	} else if err := h.svc.VerifyEmail(c.Request().Context(), token); err != nil {
		f := account.NewForm()
		if err := formError(&f, err); err != nil {
			return err
		}
		d.Message = f.Message
		status = http.StatusBadRequest
	} else {
		d.Verified = true
	}
	title := "Email verified"
	if !d.Verified {
		title = "Verification failed"
	}
	return render(c, status, account.Verify(h.authFrame(c, title), d), nil)
}

// resendVerification serves POST /verify-email/resend: a new verification email. htmx gets the
// result as a line for the banner (or the verify page); a plain post gets a flash on the home page.
func (h *Handler) resendVerification(c echo.Context) error {
	err := h.svc.ResendVerification(c.Request().Context())
	ok, text := true, "Sent. Check your inbox for a new link."
	if err != nil {
		if code := app.ErrorCode(err); code == app.EInternal {
			return err
		}
		ok, text = false, app.ErrorMessage(err)
	}
	if isFragmentRequest(c.Request()) {
		frag := layout.ResendStatus(ok, text)
		return render(c, http.StatusOK, frag, frag)
	}
	kind := components.FlashSuccess
	if !ok {
		kind = components.FlashWarning
	}
	if err := addFlash(c, kind, text); err != nil {
		return err
	}
	return redirect(c, pathHome)
}
