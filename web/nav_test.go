package web_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/web"
)

// The sidebar shows only what works: every built area has its entry, no unbuilt area has one (its
// address still answers "coming in a later release"), and no group is left without entries.
// Derived from the areas' Built flags, so it stays true when an area is built.
func TestSidebarShowsOnlyBuiltAreas(t *testing.T) {
	t.Parallel()
	b := setup(t)

	doc := parse(t, b.get(t, "/"))
	nav := doc.Find("nav[aria-label]")
	require.Equal(t, 1, nav.Length())
	unbuilt := 0
	for _, a := range web.Areas() {
		want := 0
		if a.Built {
			want = 1
		} else {
			unbuilt++
			require.NotContains(t, nav.Text(), a.Label, a.ID)
			require.Equal(t, http.StatusOK, b.get(t, a.Path).Code, a.Path)
		}
		require.Equal(t, want, nav.Find(`[data-testid="nav-`+a.ID+`"]`).Length(), a.ID)
		require.Equal(t, want, nav.Find(`a[href="`+a.Path+`"]`).Length(), a.Path)
	}
	require.Positive(t, unbuilt, "every area is built: this test has nothing left to hide")
	nav.Find(".nav-group__label").Each(func(i int, g *goquery.Selection) {
		require.Positive(t, g.Parent().Find("a").Length(), g.Text())
	})
}

// The sign-in and sign-up pages promise only what works: no inbox and no unbuilt area; the API-key
// page promises no analytics.
func TestCopyPromisesOnlyBuiltFeatures(t *testing.T) {
	t.Parallel()
	b := setup(t)

	for _, path := range []string{"/login", "/signup"} {
		rec := b.anon(t).get(path)
		require.Equal(t, http.StatusOK, rec.Code, path)
		text := strings.ToLower(parse(t, rec).Find("body").Text())
		for _, word := range []string{"inbox", "analytics", "automation", "bio page", "billing"} {
			require.NotContains(t, text, word, path)
		}
		for _, a := range web.Areas() {
			if !a.Built {
				require.NotContains(t, text, strings.ToLower(a.Label), path)
			}
		}
	}

	keys := strings.ToLower(b.get(t, "/settings/api-keys").Body.String())
	require.Contains(t, keys, "no api keys yet")
	require.NotContains(t, keys, "analytics")
}
