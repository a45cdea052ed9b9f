package web

import (
	"net/http"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/crier/crier/app"
	"github.com/crier/crier/views/components"
	"github.com/crier/crier/views/layout"
	"github.com/crier/crier/views/pages/account"
)

var (
	profileFields  = []string{"firstName", "lastName", "timezone"}
	passwordFields = []string{"currentPassword", "newPassword", "confirmPassword"}
)

// profileData is the profile page of u with the two forms' states.
func profileData(u app.User, details, password account.Form) account.ProfileData {
	return account.ProfileData{
		Details: details, Password: password, Email: u.Email, Verified: u.EmailVerifiedAt != nil,
		MemberSince: u.CreatedAt, Timezones: timezoneGroups(time.Now(), details.Value("timezone")),
		DetailsAction: pathProfile, PasswordAction: pathProfilePassword,
	}
}

// detailsForm is the profile form filled from u.
func detailsForm(u app.User) account.Form {
	f := account.NewForm(profileFields...)
	f.Values["firstName"], f.Values["lastName"], f.Values["timezone"] = deref(u.FirstName), deref(u.LastName), deref(u.Timezone)
	return f
}

// profilePage serves GET /profile.
func (h *Handler) profilePage(c echo.Context) error {
	u := viewer(c).User
	d := profileData(u, detailsForm(u), account.NewForm(passwordFields...))
	return render(c, http.StatusOK, account.Profile(h.shell(c, "", "Profile"), d), account.ProfileContent(d))
}

// profileSubmit serves POST /profile: name and time zone.
func (h *Handler) profileSubmit(c echo.Context) error {
	f, in := bindForm(c, profileFields...)
	params := app.UpdateMeParams{FirstName: &[]string{in["firstName"]}[0], LastName: &[]string{in["lastName"]}[0]}
	if in["timezone"] != "" {
		params.Timezone = &[]string{in["timezone"]}[0]
	}
	u, err := h.svc.UpdateMe(c.Request().Context(), params)
	if err != nil {
		if err := formError(&f, err); err != nil {
			return err
		}
		d := profileData(viewer(c).User, f, account.NewForm(passwordFields...))
		return renderForm(c, true, account.Profile(h.shell(c, "", "Profile"), d), account.ProfileDetailsCard(d))
	}
	const saved = "Your profile has been saved."
	if !isFragmentRequest(c.Request()) {
		if err := addFlash(c, components.FlashSuccess, saved); err != nil {
			return err
		}
		return redirect(c, pathProfile)
	}
	f = detailsForm(*u)
	f.Success = saved
	d := profileData(*u, f, account.NewForm(passwordFields...))
	menu := layout.UserMenu{Name: displayName(*u), Email: u.Email, ProfileURL: templ.SafeURL(pathProfile), LogoutURL: templ.SafeURL(pathLogout)}
	return render(c, http.StatusOK, nil, templ.Join(account.ProfileDetailsCard(d), layout.UserSlotOOB(menu)))
}

// passwordSubmit serves POST /profile/password: the new password ends the user's other sessions;
// this one is signed in again with the new session generation, so it stays.
func (h *Handler) passwordSubmit(c echo.Context) error {
	f, in := bindForm(c, passwordFields...)
	v := viewer(c)
	if in["currentPassword"] == "" {
		fieldError(&f, "currentPassword", "Enter your current password")
	}
	if in["newPassword"] != in["confirmPassword"] {
		fieldError(&f, "confirmPassword", "The two passwords do not match")
	}
	if !f.Invalid() {
		gen, err := h.svc.ChangePassword(c.Request().Context(), in["currentPassword"], in["newPassword"])
		if err == nil {
			s := *v
			s.Generation = gen
			if err := h.signIn(c, &s); err != nil {
				return err
			}
			const changed = "Your password has been changed. Every other session was signed out."
			if !isFragmentRequest(c.Request()) {
				if err := addFlash(c, components.FlashSuccess, changed); err != nil {
					return err
				}
				return redirect(c, pathProfile)
			}
			f = account.NewForm(passwordFields...)
			f.Success = changed
			d := profileData(v.User, detailsForm(v.User), f)
			return render(c, http.StatusOK, nil, account.PasswordCard(d))
		}
		if err := formError(&f, err); err != nil {
			return err
		}
	}
	d := profileData(v.User, detailsForm(v.User), f)
	return renderForm(c, true, account.Profile(h.shell(c, "", "Profile"), d), account.PasswordCard(d))
}
