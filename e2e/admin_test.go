package e2e

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/playwright-community/playwright-go"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server/servertest"
)

// An instance administrator opens the embedded River UI and sees the jobs of the queues, then the
// profiler's index. Screenshot: e2e/screenshots/admin-river.png.
//
// The pages run under Crier's CSP with inline styles allowed (server/ops.go adminCSP). River UI's
// bundle (zod) probes whether eval works, once, and falls back when the CSP refuses: that single
// refusal is expected and everything else a console error or a CSP violation, so this journey
// watches its own page (setup's page fails on any console error).
func TestAdminRiverUIJourney(t *testing.T) {
	t.Parallel()
	email := testEmail("root")
	b := setup(t, servertest.Options{Env: map[string]string{"CRIER_ADMIN_EMAILS": email, "CRIER_PPROF": "1"}})
	signUpInBrowser(t, b, "Root", email, "")
	_, err := b.srv.Pool.Exec(context.Background(), `UPDATE users SET email_verified_at = now() WHERE email = $1`, email)
	require.NoError(t, err)

	p, err := b.page.Context().NewPage() // the same session
	require.NoError(t, err)
	var mu sync.Mutex
	var problems []string
	require.NoError(t, p.AddInitScript(playwright.Script{Content: playwright.String(
		`document.addEventListener('securitypolicyviolation', e => console.log('CSP violation', e.violatedDirective, e.blockedURI, e.sourceFile))`)}))
	p.OnConsole(func(m playwright.ConsoleMessage) {
		text := m.Text()
		expected := strings.HasPrefix(text, "CSP violation script-src eval ") && strings.Contains(text, "/admin/river/assets/main-") ||
			m.Type() == "error" && strings.Contains(text, "'script-src' was not explicitly set") // Chromium's words for the same refusal
		if (m.Type() == "error" || strings.HasPrefix(text, "CSP violation")) && !expected {
			mu.Lock()
			problems = append(problems, text)
			mu.Unlock()
		}
	})

	res, err := p.Goto("/admin/river")
	require.NoError(t, err)
	require.Equal(t, 200, res.Status())
	// The SPA renders: its navigation, and the sign-up's completed jobs (the webhook fan-out).
	require.NoError(t, p.GetByRole("link", playwright.PageGetByRoleOptions{Name: "Queues"}).First().WaitFor())
	require.NoError(t, p.GetByText("Completed").First().WaitFor())
	_, err = p.Screenshot(playwright.PageScreenshotOptions{Path: playwright.String(repoRoot() + "/e2e/screenshots/admin-river.png")})
	require.NoError(t, err)

	res, err = p.Goto("/admin/debug/pprof/")
	require.NoError(t, err)
	require.Equal(t, 200, res.Status())
	require.NoError(t, p.GetByText("Types of profiles available").WaitFor())

	mu.Lock()
	defer mu.Unlock()
	require.Empty(t, problems)
}
