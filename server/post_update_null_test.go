package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/server/servertest"
)

// PATCH /post/{id} tells an explicit null from an absent field: referenceKey: null clears the
// key, firstComment: null removes the first comment and its unpublished FIRST_COMMENT targets, an
// absent field keeps what is there; a wrong type is the contract's 400 with the issue's path.
func TestPostUpdateNullClearsReferenceKeyAndFirstComment(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	team := newTeam(t, srv, key, "Nulls")
	connectNetwork(t, srv, key, team, "MASTODON")

	type answer struct {
		ReferenceKey *string           `json:"referenceKey"`
		FirstComment map[string]string `json:"firstComment"`
		Title        string            `json:"title"`
	}
	patch := func(id, body string) answer {
		t.Helper()
		res, b := do(t, http.MethodPatch, srv.URL+"/api/v1/post/"+id, body, "x-api-key", key)
		require.Equal(t, http.StatusOK, res.StatusCode, string(b))
		var a answer
		require.NoError(t, json.Unmarshal(b, &a), string(b))
		return a
	}
	get := func(id string) answer {
		t.Helper()
		res, b := do(t, http.MethodGet, srv.URL+"/api/v1/post/"+id, "", "x-api-key", key)
		require.Equal(t, http.StatusOK, res.StatusCode, string(b))
		var a answer
		require.NoError(t, json.Unmarshal(b, &a), string(b))
		return a
	}
	targets := func(id, kind string) int {
		t.Helper()
		var n int
		require.NoError(t, srv.Pool.QueryRow(context.Background(),
			`SELECT count(*) FROM publish_targets WHERE post_id = $1 AND kind = $2`, id, kind).Scan(&n))
		return n
	}
	byKey := func(k string) int {
		t.Helper()
		res, _ := do(t, http.MethodGet, srv.URL+"/api/v1/post/reference-key/"+k, "", "x-api-key", key)
		return res.StatusCode
	}

	st, p, b := postJSON(t, srv, http.MethodPost, "/api/v1/post", key, `{"teamId":"`+team+`","title":"Launch","referenceKey":"launch-1",
		"postDate":"`+soon(time.Hour)+`","status":"SCHEDULED","socialAccountTypes":["MASTODON"],
		"data":{"MASTODON":{"text":"Soon"}},"firstComment":{"MASTODON":"More below"}}`)
	require.Equal(t, http.StatusOK, st, string(b))
	require.Equal(t, 1, targets(p.ID, "FIRST_COMMENT"))

	// Absent: both kept.
	a := patch(p.ID, `{"title":"Renamed"}`)
	require.Equal(t, "Renamed", a.Title)
	require.Equal(t, "launch-1", *a.ReferenceKey)
	require.Equal(t, map[string]string{"MASTODON": "More below"}, a.FirstComment)
	require.Equal(t, 1, targets(p.ID, "FIRST_COMMENT"))

	// Set: both replaced.
	a = patch(p.ID, `{"referenceKey":"launch-2","firstComment":{"MASTODON":"Changed"}}`)
	require.Equal(t, "launch-2", *a.ReferenceKey)
	require.Equal(t, map[string]string{"MASTODON": "Changed"}, a.FirstComment)
	require.Equal(t, http.StatusOK, byKey("launch-2"))
	require.Equal(t, http.StatusNotFound, byKey("launch-1"))

	// referenceKey: null clears the key only.
	a = patch(p.ID, `{"referenceKey":null}`)
	require.Nil(t, a.ReferenceKey)
	require.Equal(t, map[string]string{"MASTODON": "Changed"}, a.FirstComment)
	require.Equal(t, http.StatusNotFound, byKey("launch-2"))
	require.Equal(t, 1, targets(p.ID, "FIRST_COMMENT"))

	// firstComment: null removes the first comment and its target; the post's target stays.
	a = patch(p.ID, `{"firstComment":null}`)
	require.Nil(t, a.FirstComment)
	require.Nil(t, a.ReferenceKey)
	require.Equal(t, "Renamed", a.Title)
	require.Equal(t, 0, targets(p.ID, "FIRST_COMMENT"))
	require.Equal(t, 1, targets(p.ID, "POST"))
	a = get(p.ID)
	require.Nil(t, a.FirstComment)
	require.Nil(t, a.ReferenceKey)

	// The key freed by null can be used again, and a first comment added back.
	a = patch(p.ID, `{"referenceKey":"launch-1","firstComment":{"MASTODON":"Back"}}`)
	require.Equal(t, "launch-1", *a.ReferenceKey)
	require.Equal(t, 1, targets(p.ID, "FIRST_COMMENT"))

	// A first comment that already reached the network keeps its target (the record of what is
	// there) when the first comment is removed.
	_, err := srv.Pool.Exec(context.Background(), `UPDATE publish_targets SET status = 'POSTED', external_id = 'c1', posted_at = now()
		WHERE post_id = $1 AND kind = 'FIRST_COMMENT'`, p.ID)
	require.NoError(t, err)
	a = patch(p.ID, `{"firstComment":null}`)
	require.Nil(t, a.FirstComment)
	require.Equal(t, 1, targets(p.ID, "FIRST_COMMENT"))

	// Wrong types: 400 with the contract's issue at the field.
	for _, tc := range []struct{ body, path string }{
		{`{"referenceKey":5}`, `["referenceKey"]`},
		{`{"referenceKey":""}`, `["referenceKey"]`},
		{`{"firstComment":"text"}`, `["firstComment"]`},
		{`{"firstComment":{"MASTODON":7}}`, `["firstComment","MASTODON"]`},
		{`{"title":null}`, `["title"]`},
	} {
		res, b := do(t, http.MethodPatch, srv.URL+"/api/v1/post/"+p.ID, tc.body, "x-api-key", key)
		require.Equal(t, http.StatusBadRequest, res.StatusCode, tc.body+": "+string(b))
		e := decodeError(t, b)
		require.Len(t, e.Issues, 1, string(b))
		path, _ := json.Marshal(e.Issues[0].Path)
		require.Equal(t, tc.path, string(path), string(b))
		if tc.body == `{"referenceKey":""}` {
			require.Equal(t, "too_small", e.Issues[0].Code, string(b))
		} else {
			require.Equal(t, "invalid_type", e.Issues[0].Code, string(b))
		}
	}
	a = get(p.ID)
	require.Equal(t, "launch-1", *a.ReferenceKey, "a rejected PATCH changes nothing")
}
