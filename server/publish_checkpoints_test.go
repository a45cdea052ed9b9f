package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server/servertest"
)

// An attempt's checkpoints are written in one statement before the adapter's next network call, and
// those no call follows with the outcome: Discord checkpoints startedAt before sending the message
// (one statement, before the call) and the channel and message after it (in the outcome's batch),
// and all three are stored.
func TestPublishCheckpointsWaitForTheNextCall(t *testing.T) {
	t.Parallel()
	tr := &roundTrips{}
	srv := servertest.Start(t, servertest.Options{NoWorkers: true, Tracer: tr})
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Checkpoints")
	done := connectAny(t, srv, key, "DISCORD", team)
	require.Equal(t, "true", done.Query().Get("success"), done.String())
	_, a := byType(t, srv, key, "DISCORD", team)
	require.NotEmpty(t, a.Channels)
	st, p, b := postJSON(t, srv, http.MethodPost, "/api/v1/post", key, `{"teamId":"`+team+`","title":"cp","postDate":"`+soon(0)+`","status":"SCHEDULED",
		"socialAccountTypes":["DISCORD"],"data":{"DISCORD":{"text":"checkpoints","channelId":"`+a.Channels[0].ID+`"}}}`)
	require.Equal(t, http.StatusOK, st, string(b))

	publishMarked(t, srv, key, p.ID)

	saves := 0
	for i, s := range tr.list() {
		t.Logf("%2d %s", i+1, s)
		if strings.Contains(s, "name: SaveCheckpoint") {
			saves++
		}
	}
	require.Equal(t, 1, saves, "checkpoint statements of their own: startedAt, before the call")

	var raw []byte
	var external string
	require.NoError(t, srv.Pool.QueryRow(context.Background(), `SELECT checkpoints, external_id FROM publish_targets WHERE post_id = $1`, p.ID).Scan(&raw, &external))
	var cp map[string]string
	require.NoError(t, json.Unmarshal(raw, &cp))
	require.NotEmpty(t, cp["startedAt"])
	require.Equal(t, a.Channels[0].ID, cp["channel"])
	require.Equal(t, external, cp["message"], "the checkpoint after the last call is stored with the outcome")
}
