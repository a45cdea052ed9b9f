// Package e2e holds journeys through the dashboard in a real Chromium (Debian's, driven by
// playwright-go with the npm driver; see scripts/e2e-deps.sh), against the whole server started
// in-process on a fresh database. Screenshots land in e2e/screenshots/.
package e2e

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/playwright-community/playwright-go"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server/servertest"
)

// ChromiumPath is Debian's Chromium.
const ChromiumPath = "/usr/bin/chromium"

var chromiumArgs = []string{
	"--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
	"--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
}

type bundle struct {
	srv  *servertest.Server
	page playwright.Page
}

// setup starts a server (with opts, e.g. its environment) and a browser page for one journey.
func setup(t *testing.T, opts ...servertest.Options) *bundle {
	t.Helper()
	if testing.Short() {
		t.Skip("e2e journeys are skipped with -short")
	}
	driver := os.Getenv("PLAYWRIGHT_DRIVER_PATH")
	if driver == "" {
		driver = filepath.Join(repoRoot(), ".data", "playwright-driver")
	}
	if _, err := os.Stat(filepath.Join(driver, "package", "cli.js")); err != nil {
		t.Fatalf("the Playwright driver is missing at %s: run `make e2e-deps`", driver)
	}
	if _, err := os.Stat(ChromiumPath); err != nil {
		t.Fatalf("Chromium is missing at %s: run `make e2e-deps`", ChromiumPath)
	}
	srv := servertest.Start(t, opts...)
	pw, err := playwright.Run(&playwright.RunOptions{DriverDirectory: driver, SkipInstallBrowsers: true, Verbose: false})
	require.NoError(t, err)
	t.Cleanup(func() { _ = pw.Stop() })
	browser, err := pw.Chromium.Launch(playwright.BrowserTypeLaunchOptions{
		ExecutablePath: playwright.String(ChromiumPath),
		Headless:       playwright.Bool(true),
		Args:           chromiumArgs,
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = browser.Close() })
	ctx, err := browser.NewContext(playwright.BrowserNewContextOptions{
		BaseURL:  playwright.String(srv.URL),
		Viewport: &playwright.Size{Width: 1400, Height: 900},
	})
	require.NoError(t, err)
	page, err := ctx.NewPage()
	require.NoError(t, err)
	// Any console error (a CSP violation, a failed script) fails the journey.
	var consoleErrors []string
	page.OnConsole(func(m playwright.ConsoleMessage) {
		if m.Type() == "error" {
			consoleErrors = append(consoleErrors, m.Text())
		}
	})
	t.Cleanup(func() {
		if len(consoleErrors) > 0 {
			t.Errorf("browser console errors: %q", consoleErrors)
		}
	})
	return &bundle{srv: srv, page: page}
}

// screenshot saves the page (the whole page for short ones; the viewport when viewportOnly, e.g.
// for /docs whose full height is tens of thousands of pixels).
func (b *bundle) screenshot(t *testing.T, name string, viewportOnly ...bool) {
	t.Helper()
	full := len(viewportOnly) == 0 || !viewportOnly[0]
	dir := filepath.Join(repoRoot(), "e2e", "screenshots")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	_, err := b.page.Screenshot(playwright.PageScreenshotOptions{Path: playwright.String(filepath.Join(dir, name+".png")), FullPage: playwright.Bool(full)})
	require.NoError(t, err)
}

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(file))
}
