package api

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The shortcut of validate (a route taking plain path strings only, a request without a query and
// with plain path values) answers nil only where the full check finds nothing either: every such
// route of the real contract, with values the shortcut takes and values it leaves to the check.
func TestPathOnlyShortcut(t *testing.T) {
	t.Parallel()
	doc, err := LoadContract()
	require.NoError(t, err)
	v, err := NewValidator(doc)
	require.NoError(t, err)
	get, err := v.Route("GET", "/api/v1/post/{id}")
	require.NoError(t, err)
	require.True(t, v.pathOnly[get], "GET post takes its id only")
	list, err := v.Route("GET", "/api/v1/post")
	require.NoError(t, err)
	require.False(t, v.pathOnly[list], "GET post list takes a query")
	values := []string{uuid1, "not-a-uuid", "é", "%00", "a b", strings.Repeat("x", 5000), "\u2028", "-1e400", "", "\x00", "\xff", "..", "{id}"}
	shortcuts := 0
	for route, only := range v.pathOnly {
		if !only {
			continue
		}
		for _, val := range values {
			for _, query := range []string{"", "?x=1"} {
				params := map[string]string{}
				for _, p := range parametersOf(route) {
					params[p.Name] = val
				}
				r := httptest.NewRequest(route.Method, "/x"+query, nil)
				full := v.validateFully(context.Background(), r, route, params)
				got := v.ValidateRoute(context.Background(), r, route, params)
				if query == "" && plainPathValues(params) {
					shortcuts++
					require.NoError(t, full, "%s %s %q: the shortcut answers nil", route.Method, route.Path, val)
				}
				require.Equal(t, full, got, "%s %s %q%s", route.Method, route.Path, val, query)
			}
		}
	}
	require.Greater(t, shortcuts, 100)
}
