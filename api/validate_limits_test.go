package api

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
)

// validateWithin validates body at path and requires a 400-kind answer within the bound: the
// validator must stay linear in what a client sends (issue 14).
func validateWithin(t *testing.T, v *Validator, path, contentType, body string) *app.Error {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	start := time.Now()
	err := v.Validate(context.Background(), req, http.MethodPost, path, nil)
	elapsed := time.Since(start)
	t.Logf("%s: %v", path, elapsed)
	require.Less(t, elapsed, 2*time.Second)
	var ae *app.Error
	require.ErrorAs(t, err, &ae)
	require.Equal(t, app.EInvalid, ae.Code)
	require.NotEmpty(t, ae.Issues)
	require.LessOrEqual(t, len(ae.Issues), maxIssues+1)
	return ae
}

func unknownKeysBody(n int) string {
	var b strings.Builder
	b.WriteString(`{"name":"hello"`)
	for i := range n {
		fmt.Fprintf(&b, `,"k%d":1`, i)
	}
	b.WriteString("}")
	return b.String()
}

func TestValidateManyUnknownKeysIsFast(t *testing.T) {
	t.Parallel()
	v := newTestValidator(t)
	for _, n := range []int{5000, 20000} {
		validateWithin(t, v, "/api/v1/post", "application/json", unknownKeysBody(n))
	}
	// A few unknown keys are still answered as before.
	runValidateCase(t, v, validateCase{name: "few", body: `{"name":"hello","b":1,"a":2}`,
		want: []app.Issue{issue("unrecognized_keys", "Unrecognized key(s) in object: 'a', 'b'")}})
	runValidateCase(t, v, validateCase{name: "normal", body: `{"name":"hello"}`})
}

func TestValidateManyFormFieldsIsFast(t *testing.T) {
	t.Parallel()
	v := newTestValidator(t)
	parts := []formPart{{name: "file", filename: "a.png", content: "x"}, {name: "teamId", content: uuid1}}
	for i := range 2000 {
		parts = append(parts, formPart{name: fmt.Sprintf("f%d", i), content: "1"})
	}
	body, ct := multipartBody(t, parts...)
	ae := validateWithin(t, v, "/api/v1/upload", ct, body)
	require.Equal(t, []app.Issue{issue("custom", "Request body holds more than 100 parts")}, ae.Issues)
}

func TestValidateJSONLimits(t *testing.T) {
	t.Parallel()
	v := newTestValidator(t)
	deep := `{"name":"hello","meta":` + strings.Repeat(`[`, 40) + strings.Repeat(`]`, 40) + `}`
	ae := validateWithin(t, v, "/api/v1/post", "application/json", deep)
	require.Equal(t, []app.Issue{issue("custom", "Request body nests deeper than 32 levels")}, ae.Issues)

	ae = validateWithin(t, v, "/api/v1/post", "application/json", unknownKeysBody(maxJSONKeys))
	require.Equal(t, []app.Issue{issue("custom", "Request body holds more than 50000 keys")}, ae.Issues)

	long := `{"name":"hello","meta":[` + strings.Repeat(`0,`, maxJSONArrayItems) + `0]}`
	ae = validateWithin(t, v, "/api/v1/post", "application/json", long)
	require.Equal(t, []app.Issue{issue("custom", "Request body holds an array of more than 100000 items")}, ae.Issues)

	// Many issues: the first maxIssues, then one that counts the rest.
	var b strings.Builder
	b.WriteString(`{"name":"hello","meta":{`)
	for i := range 300 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"k%03d":1`, i)
	}
	b.WriteString("}}")
	req := httptest.NewRequest(http.MethodPost, "/api/v1/post", strings.NewReader(b.String()))
	req.Header.Set("Content-Type", "application/json")
	err := v.Validate(context.Background(), req, http.MethodPost, "/api/v1/post", nil)
	var ie *app.Error
	require.ErrorAs(t, err, &ie)
	require.Len(t, ie.Issues, maxIssues+1)
	require.Equal(t, issue("custom", "Too many issues: 201 more not listed"), ie.Issues[maxIssues])
}
