package jobs_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/app/apptest"
	"github.com/crier/crier/jobs"
	"github.com/crier/crier/store/storetest"
)

// A real River client runs the periodic purge, which clears the bodies of mail past its retention
// (an expired link) and keeps the rest.
func TestMailPurgeClearsExpiredBodiesThroughRiver(t *testing.T) {
	t.Parallel()
	pool, _ := storetest.NewDB(t)
	ctx := context.Background()
	_, err := pool.Exec(ctx, `INSERT INTO mail_outbox (to_address, subject, text_body, html_body, kind, purge_at) VALUES
		('old@example.com', 'Reset', 'https://x/reset-password?token=old', '<a href="https://x">x</a>', 'reset_password', now() - interval '1 second'),
		('new@example.com', 'Reset', 'https://x/reset-password?token=new', '<a href="https://x">x</a>', 'reset_password', now() + interval '1 hour')`)
	require.NoError(t, err)

	svc := apptest.New(t, pool, app.Options{})
	client, err := jobs.NewClient(pool, svc, apptest.Publishing(t, svc), jobs.Options{Logger: slog.New(slog.DiscardHandler), FetchPoll: 50 * time.Millisecond})
	require.NoError(t, err)
	require.NoError(t, client.Start(ctx))
	t.Cleanup(func() { require.NoError(t, client.Stop(context.Background())) })

	body := func(to string) string {
		var text, html string
		require.NoError(t, pool.QueryRow(ctx, "SELECT text_body, html_body FROM mail_outbox WHERE to_address = $1", to).Scan(&text, &html))
		return text + html
	}
	require.Eventually(t, func() bool { return body("old@example.com") == "" }, 15*time.Second, 100*time.Millisecond)
	require.Contains(t, body("new@example.com"), "token=new")
}
