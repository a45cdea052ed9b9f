package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/api"
	"github.com/crier/crier/server/servertest"
)

// Issue 14, "Drop-in details": a record answers every field its schema lists (null when unset),
// never omitting one. The operations come from the contract: every GET whose path parameters a
// fixture can fill is called, and each 200 answer is walked against its schema (nested records
// and list items included).
func TestRecordsAnswerEveryField(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t)
	key := apiKeyFor(t, srv)
	auth := []string{"x-api-key", key}
	team := newTeam(t, srv, key, "Records")
	res, b := do(t, http.MethodPost, srv.URL+"/api/v1/webhook", `{"url":"http://127.0.0.1:9/hook","events":["team.created"]}`, auth...)
	require.Equal(t, http.StatusCreated, res.StatusCode, string(b))
	var hook struct{ ID string }
	require.NoError(t, json.Unmarshal(b, &hook))
	fixtures := map[string]string{"/api/v1/team/{id}": team, "/api/v1/webhook/{id}": hook.ID}

	doc, err := api.LoadContract()
	require.NoError(t, err)
	param := regexp.MustCompile(`\{[^}]+\}`)
	var paths []string
	for p := range doc.Paths.Map() {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	checked := 0
	for _, p := range paths {
		op := doc.Paths.Value(p).Get
		if op == nil || op.Responses == nil || op.Responses.Status(200) == nil {
			continue
		}
		url := p
		if param.MatchString(p) {
			id, ok := fixtures[param.ReplaceAllString(p, "{id}")]
			if !ok || strings.Count(p, "{") > 1 {
				continue
			}
			url = param.ReplaceAllString(p, id)
		}
		res, b := do(t, http.MethodGet, srv.URL+url+"?teamId="+team, "", auth...)
		mt := op.Responses.Status(200).Value.Content.Get("application/json")
		if res.StatusCode != http.StatusOK || mt == nil || mt.Schema == nil {
			continue // needs a fixture this test does not build (a connected account, a query)
		}
		var body any
		require.NoError(t, json.Unmarshal(b, &body), p)
		var missing []string
		missingFields(mt.Schema.Value, body, "", 0, &missing)
		require.Empty(t, missing, "GET %s omits fields", p)
		checked++
	}
	t.Logf("%d GET operations walked", checked)

	// GET /organization: its 32 fields, the unset ones null.
	res, b = do(t, http.MethodGet, srv.URL+"/api/v1/organization", "", auth...)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var org map[string]any
	require.NoError(t, json.Unmarshal(b, &org))
	require.Len(t, org, 32, string(b))
	for _, name := range []string{"promotionCodeId", "dailyPostLimit", "monthlyImportLimitPerAccount", "analyticsInterval", "deletedAt", "subscription", "promotionCode"} {
		v, ok := org[name]
		require.True(t, ok, name)
		require.Nil(t, v, name)
	}
	require.GreaterOrEqual(t, checked, 10, "the walk reached the records")
}

// missingFields lists the properties of s absent from v (an object), recursing into present
// nested objects and array items, down to a few levels.
func missingFields(s *openapi3.Schema, v any, at string, depth int, out *[]string) {
	if s == nil || v == nil || depth > 5 {
		return
	}
	for _, ref := range s.AllOf {
		missingFields(ref.Value, v, at, depth+1, out)
	}
	switch v := v.(type) {
	case map[string]any:
		for name, p := range s.Properties {
			got, ok := v[name]
			if !ok {
				*out = append(*out, at+"."+name)
				continue
			}
			missingFields(p.Value, got, at+"."+name, depth+1, out)
		}
	case []any:
		if s.Items == nil {
			return
		}
		for i, it := range v {
			missingFields(s.Items.Value, it, fmt.Sprintf("%s[%d]", at, i), depth+1, out)
		}
	}
}
