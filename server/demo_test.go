package server_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/sandbox"
	"github.com/crier/crier/server/servertest"
)

// A fresh database → the living demo: accounts connected through the sandbox, the library, a month
// of posts published (with permalinks), failed, scheduled and in review, a webhook with deliveries,
// two members, a portal link, the address verified. Seeding again reuses all of it with a new key.
func TestSeedLivingDemo(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	ctx := context.Background()
	first, err := srv.SeedDemo(ctx)
	require.NoError(t, err)
	counts := demoCounts(t, srv, first.OrganizationID)
	require.Equal(t, map[string]int{
		"accounts": len(app.DemoNetworks), "uploads": app.DemoUploads, "webhooks": 1, "members": 2, "portal links": 1,
		"verified owners": 1, "POSTED": 8, "ERROR": 1, "SCHEDULED": 7, "REVIEW": 1,
	}, withoutDeliveries(counts))
	eventually(t, "webhook deliveries answered", func() bool { return demoCounts(t, srv, first.OrganizationID)["delivered"] > 0 })

	// Published posts keep the sandbox's permalinks and sit in the past; the failure says why.
	var permalinks, past int
	require.NoError(t, srv.Pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE t.permalink IS NOT NULL), count(DISTINCT p.id) FILTER (WHERE p.post_date < now() - interval '1 day')
		FROM posts p JOIN publish_targets t ON t.post_id = p.id WHERE p.status = 'POSTED'`).Scan(&permalinks, &past))
	require.Equal(t, 8, past)
	require.Equal(t, 17, permalinks, "one per network of each published post (2+1+3+2+1+2+3+3)")
	held := 0
	for _, n := range app.DemoNetworks {
		held += len(srv.Sandbox.Held(n, sandbox.KindPost))
	}
	require.Equal(t, 17, held)
	require.Len(t, srv.Sandbox.Held(app.Mastodon, sandbox.KindPost), 2)
	// Every account is ready: LinkedIn's page is chosen; Mastodon names the server a user would.
	var unchosen int
	var server string
	require.NoError(t, srv.Pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE type = 'LINKEDIN' AND provider_page_id IS NULL),
		coalesce(max(ms.server_url) FILTER (WHERE type = 'MASTODON'), '')
		FROM social_accounts a LEFT JOIN mastodon_servers ms ON ms.id = a.mastodon_server_id WHERE a.organization_id = $1`, first.OrganizationID).Scan(&unchosen, &server))
	require.Zero(t, unchosen, "LinkedIn's page is chosen")
	require.Equal(t, "https://"+app.DemoMastodonServer, server)
	var failure string
	require.NoError(t, srv.Pool.QueryRow(ctx, `SELECT coalesce(error, '') FROM publish_targets WHERE status = 'ERROR'`).Scan(&failure))
	require.Contains(t, failure, "duplicate content")

	second, err := srv.SeedDemo(ctx)
	require.NoError(t, err)
	require.Equal(t, first.TeamID, second.TeamID)
	require.NotEqual(t, first.APIKey, second.APIKey)
	again := demoCounts(t, srv, first.OrganizationID)
	require.Equal(t, withoutDeliveries(counts), withoutDeliveries(again))
	p, err := srv.Service.AuthenticateAPIKey(ctx, second.APIKey)
	require.NoError(t, err)
	require.Equal(t, first.OrganizationID, p.OrganizationID)

	// A restart of `make run`: the sandbox forgets every token; seeding connects the accounts
	// again (same ids), and the demo publishes for real on every network.
	for _, n := range app.DemoNetworks {
		require.NoError(t, srv.Sandbox.Reset(n))
	}
	_, err = srv.SeedDemo(ctx)
	require.NoError(t, err)
	require.Equal(t, withoutDeliveries(counts), withoutDeliveries(demoCounts(t, srv, first.OrganizationID)))
	var shown, page, publishesTo, pageID string
	require.NoError(t, srv.Pool.QueryRow(ctx, `SELECT coalesce(display_name, ''), coalesce(channels->0->>'name', ''), coalesce(external_id, ''), coalesce(provider_page_id, '')
		FROM social_accounts WHERE organization_id = $1 AND type = 'LINKEDIN'`, first.OrganizationID).Scan(&shown, &page, &publishesTo, &pageID))
	require.NotEmpty(t, page)
	require.Equal(t, page, shown, "LinkedIn shows its page after a restart (a reconnect) too")
	require.Equal(t, pageID, publishesTo, "… and publishes to it")
	body := `{"teamId":"` + first.TeamID + `","title":"Restarted","status":"SCHEDULED","postDate":"` + soon(0) + `","socialAccountTypes":["TWITTER","LINKEDIN","THREADS","BLUESKY","MASTODON"],
		"data":{"TWITTER":{"text":"after a restart"},"LINKEDIN":{"text":"after a restart"},"THREADS":{"text":"after a restart"},"BLUESKY":{"text":"after a restart"},"MASTODON":{"text":"after a restart"}}}`
	st, post, b := postJSON(t, srv, http.MethodPost, "/api/v1/post", second.APIKey, body)
	require.Equal(t, http.StatusOK, st, string(b))
	waitPost(t, srv, second.APIKey, post.ID, "POSTED")
}

func withoutDeliveries(m map[string]int) map[string]int {
	out := map[string]int{}
	for k, v := range m {
		if !strings.Contains(k, "deliver") {
			out[k] = v
		}
	}
	return out
}

func demoCounts(t *testing.T, srv *servertest.Server, orgID string) map[string]int {
	t.Helper()
	out := map[string]int{}
	one := func(name, sql string) {
		var n int
		require.NoError(t, srv.Pool.QueryRow(context.Background(), sql, orgID).Scan(&n), name)
		out[name] = n
	}
	one("accounts", `SELECT count(*) FROM social_accounts WHERE organization_id = $1 AND deleted_at IS NULL`)
	one("uploads", `SELECT count(*) FROM uploads WHERE organization_id = $1 AND deleted_at IS NULL`)
	one("webhooks", `SELECT count(*) FROM webhooks WHERE organization_id = $1`)
	one("deliveries", `SELECT count(*) FROM webhook_deliveries WHERE organization_id = $1`)
	one("delivered", `SELECT count(*) FROM webhook_deliveries WHERE organization_id = $1 AND status = 'SUCCESS'`)
	one("members", `SELECT count(*) FROM memberships WHERE organization_id = $1`)
	one("portal links", `SELECT count(*) FROM portal_links WHERE organization_id = $1`)
	one("verified owners", `SELECT count(*) FROM users u JOIN memberships m ON m.user_id = u.id
		WHERE m.organization_id = $1 AND m.role = 'OWNER' AND u.email_verified_at IS NOT NULL`)
	rows, err := srv.Pool.Query(context.Background(), `SELECT status, count(*) FROM posts WHERE organization_id = $1 AND deleted_at IS NULL GROUP BY status`, orgID)
	require.NoError(t, err)
	defer rows.Close()
	for rows.Next() {
		var s string
		var n int
		require.NoError(t, rows.Scan(&s, &n))
		out[s] = n
	}
	require.NoError(t, rows.Err())
	return out
}
