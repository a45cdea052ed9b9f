package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
)

// Names have a maximum on every account form, as settings has: the inputs say it (maxlength), and a
// longer name (a browser that ignores maxlength, a script) is refused beside its field, what was
// typed kept, the other fields' values too; exactly the maximum saves.
func TestAccountFormsLimitNames(t *testing.T) {
	t.Parallel()
	b := setup(t)
	long, max := strings.Repeat("n", 101), strings.Repeat("m", 100)

	// Sign-up.
	doc := parse(t, b.anon(t).get("/signup"))
	for _, name := range []string{"firstName", "lastName", "organizationName"} {
		require.Equal(t, "100", doc.Find(`input[name="`+name+`"]`).AttrOr("maxlength", ""), name)
	}
	for _, name := range []string{"firstName", "lastName", "organizationName"} {
		form := url.Values{"firstName": {"Grace"}, "lastName": {"Hopper"}, "email": {uniqueEmail("grace")},
			"password": {"a long enough password"}, "organizationName": {"Compilers Inc"}}
		form.Set(name, long)
		rec := b.anon(t).post("/signup", form)
		require.Equal(t, http.StatusUnprocessableEntity, rec.Code, name)
		doc = parse(t, rec)
		require.Equal(t, "Use at most 100 characters", fieldError(doc, name), name)
		require.Equal(t, long, doc.Find(`input[name="`+name+`"]`).AttrOr("value", ""), name)
		require.Equal(t, "true", doc.Find(`input[name="`+name+`"]`).AttrOr("aria-invalid", ""), name)
		require.Equal(t, form.Get("email"), doc.Find(`input[name="email"]`).AttrOr("value", ""), name)
		require.Equal(t, 0, doc.Find(`[data-testid="form-error"]`).Length(), name)
	}
	rec := b.anon(t).post("/signup", url.Values{"firstName": {long}, "email": {uniqueEmail("grace")}, "password": {"a long enough password"}}, htmx...)
	require.Equal(t, http.StatusOK, rec.Code) // htmx swaps 200s only
	require.Equal(t, "Use at most 100 characters", fieldError(parse(t, rec), "firstName"))
	rec = b.anon(t).post("/signup", url.Values{"firstName": {max}, "lastName": {max}, "email": {uniqueEmail("grace")}, "password": {"a long enough password"}})
	require.Equal(t, http.StatusSeeOther, rec.Code, rec.Body.String())

	// The profile.
	br := b.user(t)
	doc = parse(t, br.get("/profile"))
	for _, name := range []string{"firstName", "lastName"} {
		require.Equal(t, "100", doc.Find(`input[name="`+name+`"]`).AttrOr("maxlength", ""), name)
	}
	rec = br.post("/profile", url.Values{"firstName": {long}, "lastName": {"King"}, "timezone": {"UTC"}})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	doc = parse(t, rec)
	require.Equal(t, "Use at most 100 characters", fieldError(doc, "firstName"))
	require.Equal(t, long, doc.Find(`input[name="firstName"]`).AttrOr("value", ""))
	require.Equal(t, "King", doc.Find(`input[name="lastName"]`).AttrOr("value", ""))
	rec = br.post("/profile", url.Values{"firstName": {"Ada"}, "lastName": {long}, "timezone": {"UTC"}}, htmx...)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Equal(t, "Use at most 100 characters", fieldError(parse(t, rec), "lastName"))
	me, err := b.svc.Me(b.ownerCtx(t))
	require.NoError(t, err)
	require.Equal(t, "Ada", *me.FirstName, "nothing was saved")
	rec = br.post("/profile", url.Values{"firstName": {max}, "lastName": {""}, "timezone": {"UTC"}})
	require.Equal(t, http.StatusSeeOther, rec.Code, rec.Body.String())

	// A new organization.
	doc = parse(t, br.get("/organizations/new"))
	require.Equal(t, "100", doc.Find(`input[name="name"]`).AttrOr("maxlength", ""))

	// An invitation accepted by a new person.
	email := uniqueEmail("lin")
	_, err = b.svc.CreateInvitation(b.ownerCtx(t), email, app.RoleMember)
	require.NoError(t, err)
	token := mailToken(t, b.lastMail(t, email))
	doc = parse(t, b.anon(t).get("/invitations/accept?token="+url.QueryEscape(token)))
	require.Equal(t, "100", doc.Find(`input[name="firstName"]`).AttrOr("maxlength", ""))
	rec = b.anon(t).post("/invitations/accept", url.Values{"token": {token}, "firstName": {long}, "password": {"a long enough password"}})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	doc = parse(t, rec)
	require.Equal(t, "Use at most 100 characters", fieldError(doc, "firstName"))
	require.Equal(t, long, doc.Find(`input[name="firstName"]`).AttrOr("value", ""))
	rec = b.anon(t).post("/invitations/accept", url.Values{"token": {token}, "firstName": {max}, "password": {"a long enough password"}})
	require.Equal(t, http.StatusSeeOther, rec.Code, rec.Body.String())
}
