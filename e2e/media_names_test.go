package e2e

import (
	"regexp"
	"testing"

	"github.com/playwright-community/playwright-go"
	"github.com/stretchr/testify/require"
)

// Names in the media library, in Chromium: uploads keep their file names, the picker offers only the
// accepted types and says them, and the grid is searched as one types and sorted. Screenshots:
// media-names-*.png. (Renaming in place is covered by web's TestMediaRename; its browser step is
// not in this journey yet.)
func TestMediaNamesJourney(t *testing.T) {
	t.Parallel()
	b := setup(t)
	p := b.page
	expect := playwright.NewPlaywrightAssertions()
	dir := t.TempDir()
	hero := writePNG(t, dir, "Summer hero.png", 6, 4, false)
	broll := writePNG(t, dir, "b-roll.png", 300, 200, true)

	signUpInBrowser(t, b, "Nia", testEmail("nia"), "Names Studio")
	_, err := p.Goto("/media")
	require.NoError(t, err)
	accept, err := p.Locator("#media-file").GetAttribute("accept")
	require.NoError(t, err)
	require.NotContains(t, accept, "webp")
	require.NoError(t, expect.Locator(p.GetByTestId("media-accepted")).ToHaveText("Crier takes JPEG, PNG or GIF images, MP4 or MOV videos, PDF documents."))

	require.NoError(t, p.Locator("#media-file").SetInputFiles([]string{hero, broll}))
	tile := p.GetByTestId("media-tile")
	require.NoError(t, expect.Locator(tile).ToHaveCount(2))
	names := p.Locator(`input[data-testid="media-name"]`)
	require.NoError(t, expect.Locator(p.Locator(`input[data-testid="media-name"][value="Summer hero.png"]`)).ToHaveCount(1))
	require.NoError(t, expect.Locator(p.Locator(`input[data-testid="media-name"][value="b-roll.png"]`)).ToHaveCount(1))
	shot(t, b, "media-names-uploaded")

	// Search as one types (the URL follows); then sort by name.
	require.NoError(t, p.GetByTestId("filter-search").Fill("HERO"))
	require.NoError(t, expect.Locator(tile).ToHaveCount(1))
	require.NoError(t, expect.Page(p).ToHaveURL(regexp.MustCompile(`/media\?q=HERO$`)))
	shot(t, b, "media-names-search")
	require.NoError(t, p.GetByTestId("filter-search").Fill(""))
	require.NoError(t, expect.Locator(tile).ToHaveCount(2))
	_, err = p.GetByTestId("filter-sort").SelectOption(playwright.SelectOptionValues{Values: &[]string{"name"}})
	require.NoError(t, err)
	require.NoError(t, expect.Page(p).ToHaveURL(regexp.MustCompile(`/media\?sort=name$`)))
	require.NoError(t, expect.Locator(names.First()).ToHaveValue("b-roll.png"))
	_, err = p.GetByTestId("filter-sort").SelectOption(playwright.SelectOptionValues{Values: &[]string{"size"}})
	require.NoError(t, err)
	// The URL follows once the grid is swapped: b-roll is first by name too, so its value alone does
	// not say the swap is over, and a fill racing it typed into the new field at the caret htmx
	// restores (the saved name read "B-roll, harbourb-roll.png").
	require.NoError(t, expect.Page(p).ToHaveURL(regexp.MustCompile(`/media\?sort=size$`)))
	require.NoError(t, expect.Locator(names.First()).ToHaveValue("b-roll.png"))

	// Rename in place: Enter saves; an empty name is refused beside the field, what was typed kept.
	field := p.GetByTestId("media-name-field").First()
	require.NoError(t, names.First().Fill("B-roll, harbour"))
	require.NoError(t, names.First().Press("Enter"))
	require.NoError(t, expect.Locator(field.GetByTestId("media-name-saved")).ToBeVisible())
	require.NoError(t, expect.Locator(names.First()).ToHaveValue("B-roll, harbour"))
	require.NoError(t, names.First().Fill(""))
	require.NoError(t, names.First().Press("Enter"))
	require.NoError(t, expect.Locator(field.GetByTestId("media-name-error")).ToHaveText("A name is required"))
	require.NoError(t, expect.Locator(names.First()).ToHaveValue(""))
	require.NoError(t, expect.Locator(field.GetByTestId("media-name-saved")).ToHaveCount(0))
	shot(t, b, "media-names-rename-refused")
	_, err = p.Reload()
	require.NoError(t, err)
	require.NoError(t, expect.Locator(p.Locator(`input[data-testid="media-name"][value="B-roll, harbour"]`)).ToHaveCount(1))
}
