package api

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"
)

// A route taking path and query parameters only answers the inputs it checked before as the full
// check does, whether they passed (remembered) or not (checked again): each request is checked
// twice, the second time after the first was remembered, and both answers equal a full check's.
// Routes with a body, a header or a cookie parameter remember nothing.
func TestPassedInputsAnswerAsTheFullCheck(t *testing.T) {
	t.Parallel()
	doc, err := LoadContract()
	require.NoError(t, err)
	v, err := NewValidator(doc)
	require.NoError(t, err)
	list, err := v.Route("GET", "/api/v1/post")
	require.NoError(t, err)
	require.NotNil(t, v.passed[list], "GET post list takes a query only")
	create, err := v.Route("POST", "/api/v1/post")
	require.NoError(t, err)
	require.Nil(t, v.passed[create], "POST post takes a body")
	queries := []string{"", "teamId=" + uuid1 + "&limit=20", "teamId=" + uuid1 + "&limit=abc", "limit=20", "teamId=x%00",
		"teamId=" + uuid1 + "&limit=1e400", "teamId=" + uuid1 + "&orderBy=nope", "teamId=" + uuid1 + "&limit=20&limit=3",
		"teamId=%ff", "teamId=" + uuid1 + "&offset=-1", "teamId=" + uuid1 + "&status=DRAFT&order=ASC&orderBy=postDate"}
	values := []string{uuid1, "not-a-uuid", "é", "", "\x00", "\xff"}
	remembered := 0
	for route, passed := range v.passed {
		for _, q := range queries {
			for _, val := range values {
				params := map[string]string{}
				for _, p := range parametersOf(route) {
					if p.In == "path" {
						params[p.Name] = val
					}
				}
				r := httptest.NewRequest(route.Method, "/x?"+q, nil)
				full := v.validateFully(context.Background(), r, route, params)
				for range 2 {
					require.Equal(t, full, v.ValidateRoute(context.Background(), r, route, params), "%s %s ?%s %q", route.Method, route.Path, q, val)
				}
				if passed.has(inputsKey(r.URL.RawQuery, params)) {
					require.NoError(t, full)
					remembered++
				}
			}
		}
	}
	require.Greater(t, remembered, 50)
	// bounded: a route keeps at most passedInputsMax inputs
	p := v.passed[list]
	for i := range 2 * passedInputsMax {
		p.add(string(rune(i)))
	}
	require.LessOrEqual(t, len(p.seen), passedInputsMax)
}
