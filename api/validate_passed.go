package api

import (
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"
)

// passedInputs remembers, for a route whose only inputs are its path and query parameters (no
// body, no header or cookie parameter), the inputs the contract check found nothing in: the check
// is a function of those alone, so it would find nothing again. GET post list's query (teamId,
// limit …) repeats call after call, and checking it took kin-openapi about 7 µs and 50 allocations
// a call. A route's set is bounded: when full it starts again empty.
type passedInputs struct {
	mu   sync.Mutex
	seen map[string]struct{}
}

const passedInputsMax = 512

// takesPathAndQueryOnly answers whether route's inputs are its path and query parameters only.
func takesPathAndQueryOnly(route *routers.Route) bool {
	if route.Operation.RequestBody != nil {
		return false
	}
	for _, p := range parametersOf(route) {
		if p.In != openapi3.ParameterInPath && p.In != openapi3.ParameterInQuery {
			return false
		}
	}
	return true
}

// inputsKey is the request's inputs: its raw query and the path's values, each after a NUL (a
// value with a NUL never passes: textIssues refuses it, so passed keys cannot collide).
func inputsKey(rawQuery string, pathParams map[string]string) string {
	if len(pathParams) == 0 {
		return rawQuery
	}
	var b strings.Builder
	b.WriteString(rawQuery)
	for _, name := range slices.Sorted(maps.Keys(pathParams)) {
		b.WriteByte(0)
		b.WriteString(name)
		b.WriteByte(0)
		b.WriteString(pathParams[name])
	}
	return b.String()
}

func (p *passedInputs) has(key string) bool {
	p.mu.Lock()
	_, ok := p.seen[key]
	p.mu.Unlock()
	return ok
}

func (p *passedInputs) add(key string) {
	p.mu.Lock()
	if len(p.seen) >= passedInputsMax {
		clear(p.seen)
	}
	p.seen[key] = struct{}{}
	p.mu.Unlock()
}
