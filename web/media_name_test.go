package web_test

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/media"
)

// named uploads a PNG under a name, as the dashboard's form does.
func (b *testBundle) named(t *testing.T, name string, w, h int, noisy bool) *app.Upload {
	t.Helper()
	data := pngBytes(t, w, h, noisy)
	u, err := b.svc.CreateUpload(b.ctx(t), nil, bytes.NewReader(data), int64(len(data)), "image/png", name)
	require.NoError(t, err)
	return u
}

func tileIDs(doc *goquery.Document) []string {
	var out []string
	doc.Find(`[data-testid="media-tile"]`).Each(func(_ int, s *goquery.Selection) { out = append(out, s.AttrOr("data-upload-id", "")) })
	return out
}

func TestMediaUploadKeepsFileName(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)

	rec := b.postFile(t, "/media/upload", map[string][]byte{"Summer launch – hero.png": pngBytes(t, 4, 3, false)}, "Accept", "application/json")
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	doc := parse(t, b.get(t, "/media"))
	tile := doc.Find(`[data-testid="media-tile"]`).First()
	input := tile.Find(`input[data-testid="media-name"]`)
	require.Equal(t, "Summer launch – hero.png", input.AttrOr("value", ""))
	// The field is labelled and belongs to its own form, outside the selection's form.
	require.Equal(t, 1, doc.Find(`label[for="`+input.AttrOr("id", "")+`"]`).Length())
	form := doc.Find(`form#` + input.AttrOr("form", ""))
	require.Equal(t, 1, form.Length())
	require.Equal(t, 0, form.ParentsFiltered("form").Length())
	require.Equal(t, "/media/"+tile.AttrOr("data-upload-id", "")+"/name", form.AttrOr("hx-post", ""))
	// The checkbox's label says the name.
	require.Contains(t, tile.Find(".media-tile__label").Text(), "Summer launch – hero.png, PNG image")

	// The picker shows names too (read-only).
	doc = parse(t, b.get(t, "/media/picker", hx("media-picker")...))
	require.Equal(t, "Summer launch – hero.png", doc.Find(`[data-testid="media-name"]`).Text())
	require.Equal(t, 0, doc.Find(`input[data-testid="media-name"]`).Length())
}

func TestMediaSearchAndSort(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	broll := b.named(t, "b-roll.png", 2, 2, false)
	alpha := b.named(t, "Alpha.png", 64, 64, true) // the largest
	banner := b.named(t, "launch BANNER 100%.png", 8, 8, false)
	unnamed := b.upload(t, pngBytes(t, 3, 3, false), "image/png")

	get := func(q string) []string {
		rec := b.get(t, "/media?"+q, hx("media-results")...)
		require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
		return tileIDs(parse(t, rec))
	}
	// Search: a part of the name, any case; % is a plain character.
	require.Equal(t, []string{banner.ID}, get("q=banner"))
	require.Equal(t, []string{banner.ID}, get("q="+url.QueryEscape("100%")))
	require.Empty(t, get("q="+url.QueryEscape("%a")))
	require.ElementsMatch(t, []string{broll.ID, alpha.ID, banner.ID}, get("q=.PNG"))
	// Orders: newest (default), oldest, name (unnamed last), size (largest first).
	require.Equal(t, []string{unnamed.ID, banner.ID, alpha.ID, broll.ID}, get(""))
	require.Equal(t, []string{broll.ID, alpha.ID, banner.ID, unnamed.ID}, get("sort=oldest"))
	require.Equal(t, []string{alpha.ID, broll.ID, banner.ID, unnamed.ID}, get("sort=name"))
	require.Equal(t, alpha.ID, get("sort=size")[0])
	// Search, type and order together; an unknown order is the default.
	require.Equal(t, []string{alpha.ID, banner.ID}, get("q=a&type=image&sort=name"))
	require.Equal(t, get(""), get("sort=bogus"))

	// The grid's own reload URL keeps the search and order, and a full page shows them chosen.
	doc := parse(t, b.get(t, "/media?q=banner&sort=name"))
	require.Equal(t, "/media?q=banner&sort=name", doc.Find("#media-results").AttrOr("hx-get", ""))
	require.Equal(t, "banner", doc.Find(`[data-testid="filter-search"]`).AttrOr("value", ""))
	require.Equal(t, "name", doc.Find(`[data-testid="filter-sort"] option[selected]`).AttrOr("value", ""))
	// A search that matches nothing says so.
	doc = parse(t, b.get(t, "/media?q=nothing-like-this"))
	require.Contains(t, doc.Find(`[data-testid="empty-state"]`).Text(), "No media matches these filters")
}

func TestMediaRename(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	u := b.named(t, "IMG_0001.png", 4, 4, false)
	path := "/media/" + u.ID + "/name"

	// htmx: the field again, saved.
	rec := b.post(t, path, url.Values{"name": {"  Spring campaign hero  "}}, hx("name-"+u.ID)...)
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	doc := parse(t, rec)
	require.Equal(t, "Spring campaign hero", doc.Find(`input[data-testid="media-name"]`).AttrOr("value", ""))
	require.Contains(t, doc.Find(`[data-testid="media-name-saved"]`).Text(), "Name saved")
	got, err := b.svc.GetUpload(b.ctx(t), u.ID)
	require.NoError(t, err)
	require.Equal(t, "Spring campaign hero", *got.Name)

	// Refusals are said beside the field, with what was typed; the name is unchanged.
	for _, tc := range []struct{ name, says string }{
		{"   ", "A name is required"},
		{strings.Repeat("é", app.MaxUploadName+1), "at most 255"},
	} {
		rec = b.post(t, path, url.Values{"name": {tc.name}}, hx("name-"+u.ID)...)
		require.Equal(t, http.StatusOK, rec.Code) // htmx swaps 2xx only
		doc = parse(t, rec)
		require.Contains(t, doc.Find(`[data-testid="media-name-error"]`).Text(), tc.says)
		input := doc.Find(`input[data-testid="media-name"]`)
		require.Equal(t, "true", input.AttrOr("aria-invalid", ""))
		require.Equal(t, "name-error-"+u.ID, input.AttrOr("aria-describedby", ""))
		require.Equal(t, tc.name, input.AttrOr("value", ""))
	}
	got, err = b.svc.GetUpload(b.ctx(t), u.ID)
	require.NoError(t, err)
	require.Equal(t, "Spring campaign hero", *got.Name)

	// Exactly 255 characters is a name.
	rec = b.post(t, path, url.Values{"name": {strings.Repeat("é", app.MaxUploadName)}}, hx("name-"+u.ID)...)
	require.Equal(t, 0, parse(t, rec).Find(`[data-testid="media-name-error"]`).Length())

	// Without JavaScript: back to the library; a refusal is the page with the reason (422).
	rec = b.post(t, path, url.Values{"name": {"Poster"}})
	require.Equal(t, http.StatusSeeOther, rec.Code)
	rec = b.post(t, path, url.Values{"name": {""}})
	require.Equal(t, http.StatusUnprocessableEntity, rec.Code)
	require.Contains(t, parse(t, rec).Find(`[data-testid="upload-error"]`).Text(), "A name is required")

	// Another organization's upload, or no upload: 404.
	ctx := context.Background()
	other, err := b.svc.Signup(ctx, app.SignupParams{Email: "eve-" + strconv.FormatInt(time.Now().UnixNano(), 36) + "@example.com", Password: "a long enough password", FirstName: "Eve"})
	require.NoError(t, err)
	op, err := b.svc.AuthenticateSession(ctx, other.User.ID, *other.CurrentOrganizationID, other.Generation)
	require.NoError(t, err)
	data := pngBytes(t, 2, 2, false)
	theirs, err := b.svc.CreateUpload(app.WithPrincipal(ctx, op), nil, bytes.NewReader(data), int64(len(data)), "image/png", "theirs.png")
	require.NoError(t, err)
	require.Equal(t, http.StatusNotFound, b.post(t, "/media/"+theirs.ID+"/name", url.Values{"name": {"mine now"}}, hx("x")...).Code)
	require.Equal(t, http.StatusNotFound, b.post(t, "/media/not-an-id/name", url.Values{"name": {"x"}}, hx("x")...).Code)
	mine, err := b.svc.GetUpload(app.WithPrincipal(ctx, op), theirs.ID)
	require.NoError(t, err)
	require.Equal(t, "theirs.png", *mine.Name)
}

// The file picker offers exactly the types Crier keeps, and says them: WebP was offered, then refused.
func TestMediaPickerOffersOnlyAcceptedTypes(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	doc := parse(t, b.get(t, "/media"))
	accept := strings.Split(doc.Find(`#media-file`).AttrOr("accept", ""), ",")
	require.ElementsMatch(t, media.Allowed, accept)
	require.NotContains(t, accept, "image/webp")
	require.Equal(t, "Crier takes JPEG, PNG or GIF images, MP4 or MOV videos, PDF documents.", doc.Find(`[data-testid="media-accepted"]`).Text())
	// Each offered type is kept (none is refused after being offered).
	for _, m := range accept {
		require.True(t, media.IsAllowed(m), m)
	}
}
