package e2e

import (
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/playwright-community/playwright-go"
	"github.com/stretchr/testify/require"
)

// writePNG writes a w×h PNG into dir; noisy pixels keep it from compressing (a large file).
func writePNG(t *testing.T, dir, name string, w, h int, noisy bool) string {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(7, 9))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.RGBA{R: uint8(60 + x*50), G: uint8(80 + y*50), B: 220, A: 255}
			if noisy {
				c = color.RGBA{R: uint8(r.IntN(256)), G: uint8(r.IntN(256)), B: uint8(r.IntN(256)), A: 255}
			}
			img.Set(x, y, c)
		}
	}
	p := filepath.Join(dir, name)
	f, err := os.Create(p)
	require.NoError(t, err)
	require.NoError(t, png.Encode(f, img))
	require.NoError(t, f.Close())
	return p
}

// The media library in Chromium: upload a PNG with the file button, see it in the grid with its
// dimensions, filter the grid (the URL follows), upload a large file (sent in signed parts), then
// select both and delete them. Screenshots land in e2e/screenshots/media-*.png.
func TestMediaJourney(t *testing.T) {
	t.Parallel()
	b := setup(t)
	p := b.page
	expect := playwright.NewPlaywrightAssertions()
	dir := t.TempDir()
	small := writePNG(t, dir, "tiny.png", 4, 3, false)

	signUpInBrowser(t, b, "Mae", testEmail("mae"), "Jemison Studio")
	require.NoError(t, p.GetByTestId("nav-media").Click())
	require.NoError(t, p.WaitForURL(b.srv.URL+"/media"))
	require.NoError(t, expect.Locator(p.GetByTestId("media-results").GetByTestId("empty-state")).ToContainText("No media yet"))
	shot(t, b, "media-empty")

	// Upload with the file button: a progress row, then the tile with its dimensions.
	require.NoError(t, p.Locator("#media-file").SetInputFiles(small))
	require.NoError(t, expect.Locator(p.GetByTestId("upload-state").First()).ToContainText("Uploaded"))
	tile := p.GetByTestId("media-tile")
	require.NoError(t, expect.Locator(tile).ToHaveCount(1))
	require.NoError(t, expect.Locator(tile.GetByTestId("media-dimensions")).ToHaveText("4 × 3"))
	require.NoError(t, expect.Locator(tile.GetByTestId("media-type")).ToHaveText("PNG image"))
	shot(t, b, "media-uploaded")

	// Filters swap the grid and keep the URL.
	_, err := p.GetByTestId("filter-type").SelectOption(playwright.SelectOptionValues{Values: &[]string{"video"}})
	require.NoError(t, err)
	require.NoError(t, expect.Locator(p.GetByTestId("media-results")).ToContainText("No media matches these filters"))
	require.NoError(t, expect.Page(p).ToHaveURL(regexp.MustCompile(`/media\?type=video$`)))
	shot(t, b, "media-filtered-empty")
	_, err = p.GetByTestId("filter-type").SelectOption(playwright.SelectOptionValues{Values: &[]string{"image"}})
	require.NoError(t, err)
	_, err = p.GetByTestId("filter-status").SelectOption(playwright.SelectOptionValues{Values: &[]string{"UNUSED"}})
	require.NoError(t, err)
	require.NoError(t, expect.Page(p).ToHaveURL(regexp.MustCompile(`/media\?status=UNUSED&type=image$`)))
	require.NoError(t, expect.Locator(tile).ToHaveCount(1))
	_, err = p.Reload()
	require.NoError(t, err)
	require.NoError(t, expect.Locator(p.GetByTestId("filter-status")).ToHaveValue("UNUSED"))
	require.NoError(t, expect.Locator(tile).ToHaveCount(1))
	_, err = p.Goto("/media")
	require.NoError(t, err)

	// A large file goes browser → signed URLs in parts (over 16 MB). Its part fails three times (the
	// storage does not confirm it): the row says so and offers Retry, which resumes at that part.
	failures := 0
	require.NoError(t, p.Route("**/files/**", func(r playwright.Route) {
		if r.Request().Method() == "PUT" && strings.Contains(r.Request().URL(), "partNumber=") && failures < 3 {
			failures++
			require.NoError(t, r.Fulfill(playwright.RouteFulfillOptions{Status: playwright.Int(200), Body: ""}))
			return
		}
		require.NoError(t, r.Continue())
	}))
	large := writePNG(t, dir, "large.png", 2400, 2400, true)
	require.NoError(t, p.Locator("#media-file").SetInputFiles(large))
	largeRow := p.GetByTestId("upload-item").Filter(playwright.LocatorFilterOptions{HasText: "large.png"})
	require.NoError(t, expect.Locator(largeRow.GetByTestId("upload-error")).ToContainText("Part 1 of 1 failed", playwright.LocatorAssertionsToContainTextOptions{Timeout: playwright.Float(30000)}))
	require.Equal(t, 3, failures)
	shot(t, b, "media-part-failed")
	require.NoError(t, largeRow.GetByTestId("upload-retry").Click())
	require.NoError(t, expect.Locator(largeRow.GetByTestId("upload-state")).ToContainText("Uploaded", playwright.LocatorAssertionsToContainTextOptions{Timeout: playwright.Float(60000)}))
	require.NoError(t, p.Unroute("**/files/**"))
	require.NoError(t, expect.Locator(tile).ToHaveCount(2))
	require.NoError(t, expect.Locator(tile.First().GetByTestId("media-dimensions")).ToHaveText("2400 × 2400"))
	shot(t, b, "media-two")

	// A video and a PDF together; a file that is not media, dropped on the drop zone, is refused
	// with the reason on its row.
	fixtures := filepath.Join(repoRoot(), "media", "testdata")
	require.NoError(t, p.Locator("#media-file").SetInputFiles([]string{filepath.Join(fixtures, "sample.mp4"), filepath.Join(fixtures, "sample.pdf")}))
	require.NoError(t, expect.Locator(tile).ToHaveCount(4))
	require.NoError(t, expect.Locator(p.Locator(`[data-testid="media-tile"][data-kind="video"]`).GetByTestId("media-duration")).ToHaveText(regexp.MustCompile(`^\d+:\d\d$`)))
	require.NoError(t, expect.Locator(p.Locator(`[data-testid="media-tile"][data-kind="document"]`).GetByTestId("media-type")).ToHaveText("PDF document"))
	_, err = p.Evaluate(`() => {
		const dt = new DataTransfer();
		dt.items.add(new File(["just some text, not an image"], "notes.png", { type: "image/png" }));
		const zone = document.querySelector("[data-media-drop]");
		zone.dispatchEvent(new DragEvent("dragenter", { dataTransfer: dt, bubbles: true, cancelable: true }));
		zone.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
	}`)
	require.NoError(t, err)
	failed := p.GetByTestId("upload-item").Filter(playwright.LocatorFilterOptions{HasText: "notes.png"})
	require.NoError(t, expect.Locator(failed.GetByTestId("upload-state")).ToHaveText("Not uploaded"))
	require.NoError(t, expect.Locator(failed.GetByTestId("upload-error")).ToContainText("Unsupported file type"))
	require.NoError(t, expect.Locator(tile).ToHaveCount(4))
	shot(t, b, "media-kinds")

	// Select them all (one with the keyboard: Space on its checkbox), delete with confirmation.
	for i := 0; i < 3; i++ {
		require.NoError(t, tile.Nth(i).GetByTestId("media-check").Check())
	}
	require.NoError(t, tile.Nth(3).GetByTestId("media-check").Focus())
	require.NoError(t, p.Keyboard().Press("Space"))
	require.NoError(t, expect.Locator(p.GetByTestId("media-delete-selected")).ToContainText("Delete selected (4)"))
	require.NoError(t, expect.Locator(p.GetByTestId("media-count")).ToHaveText("4 of 4 selected"))
	shot(t, b, "media-selected")
	require.NoError(t, p.GetByTestId("media-delete-selected").Click())
	dialog := p.GetByTestId("confirm-dialog")
	require.NoError(t, expect.Locator(dialog).ToContainText("Delete 4 files?"))
	shot(t, b, "media-confirm", true)
	require.NoError(t, dialog.GetByTestId("confirm-submit").Click())
	require.NoError(t, expect.Locator(dialog).ToHaveCount(0))
	require.NoError(t, expect.Locator(p.GetByTestId("media-results").GetByTestId("empty-state")).ToContainText("No media yet"))
	require.NoError(t, expect.Locator(p.Locator("#flashes")).ToContainText("4 files deleted."))
	shot(t, b, "media-deleted")
}
