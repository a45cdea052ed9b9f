package server_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server/servertest"
)

// GET team answers a team from the API's cache only while its version is the one the cache holds
// (store/team_read.go): after each thing the record shows changes — written by SQL or through
// another instance, so the reader's cache hears of nothing — the reader's next two answers are byte
// for byte an uncached instance's (CRIER_POST_CACHE_MB=0), the second from its cache (one
// statement). Another organization's key is answered 404 however warm the cache is.
func TestTeamCacheFollowsEveryChange(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	ctx := context.Background()
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Cache")
	connectNetwork(t, srv, key, team, "MASTODON")
	twitter := connectNetwork(t, srv, key, team, "TWITTER")
	elsewhere := newTeam(t, srv, key, "Elsewhere")
	moved := connectNetwork(t, srv, key, elsewhere, "MASTODON")
	base, trips := tracedInstance(t, srv)
	cfg := srv.Config
	cfg.PostCacheMB = 0
	uncachedBase, _ := tracedInstanceWith(t, srv, cfg)
	path := "/api/v1/team/" + team
	for range 2 { // warm: the key's cache and the instance's first statements, counted in no check
		res, b := do(t, http.MethodGet, base+"/api/v1/team", "", "x-api-key", key)
		require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	}

	get := func(base string) (int, string, int64) {
		t.Helper()
		trips.stmts.Store(0)
		trips.keys.Store(0)
		res, b := do(t, http.MethodGet, base+path, "", "x-api-key", key)
		// a user's deletion or return empties every key cache (crier_auth '*') whenever its
		// notification lands: the key read again then is not the team cache's
		return res.StatusCode, string(b), trips.stmts.Load() - trips.keys.Load()
	}
	last := ""
	check := func(step string) {
		t.Helper()
		st, want, _ := get(uncachedBase)
		require.Equal(t, http.StatusOK, st, want)
		require.NotEqual(t, last, want, "%s: the record shows the change", step)
		last = want
		for i, how := range []string{"read", "cached"} {
			st, got, n := get(base)
			require.Equal(t, http.StatusOK, st, got)
			require.Equal(t, want, got, "%s: GET team %s", step, how)
			if i == 1 {
				require.EqualValues(t, 1, n, "%s: GET team from the cache: its version only", step)
			}
		}
	}
	exec := changeRows(t, srv)
	creator := `(SELECT o.created_by_id FROM organizations o JOIN teams t ON t.organization_id = o.id WHERE t.id = $1)`

	check("first read")
	res, b := do(t, http.MethodPatch, srv.URL+path, `{"name":"Renamed"}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	check("team renamed")
	exec(`UPDATE organizations SET name = 'Org renamed' WHERE id = (SELECT organization_id FROM teams WHERE id = $1)`, team)
	check("organization renamed")
	exec(`UPDATE users SET first_name = 'Ada' WHERE id = `+creator, team)
	check("creator renamed")
	// another organization's key: 404, the team being in the cache
	other := apiKeyFor(t, srv)
	res, b = do(t, http.MethodGet, base+path, "", "x-api-key", other)
	require.Equal(t, http.StatusNotFound, res.StatusCode, string(b))
	// the organization's creator: another user (the key's own cannot be deleted and still call), deleted
	var otherUser string
	require.NoError(t, srv.Pool.QueryRow(ctx, `SELECT o.created_by_id FROM organizations o JOIN api_keys k ON k.organization_id = o.id
		WHERE k.prefix = substr($1, 7, 8)`, other).Scan(&otherUser))
	exec(`UPDATE organizations SET created_by_id = $2 WHERE id = (SELECT organization_id FROM teams WHERE id = $1)`, team, otherUser)
	check("organization's creator changed")
	exec(`UPDATE users SET deleted_at = now() WHERE id = $1`, otherUser)
	check("creator deleted")
	exec(`UPDATE users SET deleted_at = NULL WHERE id = $1`, otherUser)
	check("creator back")
	exec(`UPDATE social_accounts SET display_name = 'Renamed' WHERE id = $1`, twitter)
	check("account renamed")
	res, b = do(t, http.MethodDelete, srv.URL+"/api/v1/social-account/disconnect", `{"type":"MASTODON","teamId":"`+team+`"}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	check("account disconnected")
	exec(`UPDATE social_accounts SET team_id = $1 WHERE id = $2`, team, moved)
	check("account moved in")

	// the team deleted: 404 from the cache's instance too
	exec(`UPDATE teams SET deleted_at = now() WHERE id = $1`, team)
	st, got, _ := get(base)
	require.Equal(t, http.StatusNotFound, st, got)
}
