package api

import (
	"net/http"
	"testing"

	"github.com/crier/crier/app"
)

func TestValidateParameters(t *testing.T) {
	t.Parallel()
	const list = "/api/v1/posts"
	q := func(query string) string { return list + "?" + query }
	cases := []validateCase{
		{name: "valid", target: q("teamId=" + uuid1 + "&offset=0&limit=10&status=DRAFT&ids=" + uuid1 + "&ids=" + uuid2 + "&draft=true")},
		{name: "valid, only the required one", target: q("teamId=" + uuid1)},
		{name: "missing required", target: list,
			want: []app.Issue{issue("invalid_type", "Required", "teamId")}, message: "Validation failed: teamId: Required"},
		{name: "format", target: q("teamId=42"),
			want: []app.Issue{issue("invalid_string", "Invalid uuid", "teamId")}},
		{name: "not a number", target: q("teamId=" + uuid1 + "&limit=abc"),
			want: []app.Issue{issue("invalid_type", "Expected number, received string", "limit")}},
		{name: "not an integer", target: q("teamId=" + uuid1 + "&limit=1.5"),
			want: []app.Issue{issue("invalid_type", "Expected number, received string", "limit")}},
		{name: "empty number", target: q("teamId=" + uuid1 + "&limit="),
			want: []app.Issue{issue("invalid_type", "Expected number, received string", "limit")}},
		{name: "not a boolean", target: q("teamId=" + uuid1 + "&draft=maybe"),
			want: []app.Issue{issue("invalid_type", "Expected boolean, received string", "draft")}},
		{name: "minimum", target: q("teamId=" + uuid1 + "&offset=-1"),
			want: []app.Issue{issue("too_small", "Number must be greater than or equal to 0", "offset")}},
		{name: "maximum", target: q("teamId=" + uuid1 + "&limit=101"),
			want: []app.Issue{issue("too_big", "Number must be less than or equal to 100", "limit")}},
		{name: "enum", target: q("teamId=" + uuid1 + "&status=LIVE"),
			want: []app.Issue{issue("invalid_enum_value", "Invalid enum value. Expected 'DRAFT' | 'SCHEDULED', received 'LIVE'", "status")}},
		{name: "array item", target: q("teamId=" + uuid1 + "&ids=" + uuid1 + "&ids=nope"),
			want: []app.Issue{issue("invalid_string", "Invalid uuid", "ids", 1)}},
		{name: "array item that does not parse", target: q("teamId=" + uuid1 + "&nums=1&nums=two"),
			want: []app.Issue{issue("invalid_type", "Expected number, received string", "nums", 1)}},
		{name: "array size", target: q("teamId=" + uuid1 + "&ids=" + uuid1 + "&ids=" + uuid1 + "&ids=" + uuid2 + "&ids=" + uuid2),
			want: []app.Issue{issue("too_big", "Array must contain at most 3 element(s)", "ids")}},
		{name: "several at once", target: q("limit=abc&offset=-1&status=LIVE&ids=x"),
			want: []app.Issue{
				issue("invalid_string", "Invalid uuid", "ids", 0),
				issue("invalid_type", "Expected number, received string", "limit"),
				issue("too_small", "Number must be greater than or equal to 0", "offset"),
				issue("invalid_enum_value", "Invalid enum value. Expected 'DRAFT' | 'SCHEDULED', received 'LIVE'", "status"),
				issue("invalid_type", "Required", "teamId"),
			},
			message: "Validation failed: ids.0: Invalid uuid (and 4 more)"},
		// Path parameters.
		{name: "path param valid", method: http.MethodGet, path: "/api/v1/post/{id}", target: "/api/v1/post/" + uuid1,
			params: map[string]string{"id": uuid1}},
		{name: "path param format", method: http.MethodGet, path: "/api/v1/post/{id}", target: "/api/v1/post/42",
			params: map[string]string{"id": "42"},
			want:   []app.Issue{issue("invalid_string", "Invalid uuid", "id")}},
		{name: "path param missing", method: http.MethodGet, path: "/api/v1/post/{id}", target: "/api/v1/post/",
			want: []app.Issue{issue("invalid_type", "Required", "id")}},
		// DELETE with a JSON body.
		{name: "delete valid", method: http.MethodDelete, path: "/api/v1/post/{id}", target: "/api/v1/post/" + uuid1,
			params: map[string]string{"id": uuid1}, body: `{"reason":"spam","hard":true}`},
		{name: "delete invalid", method: http.MethodDelete, path: "/api/v1/post/{id}", target: "/api/v1/post/x",
			params: map[string]string{"id": "x"}, body: `{"reason":"boring","hard":"yes","why":1}`,
			want: []app.Issue{
				issue("unrecognized_keys", "Unrecognized key(s) in object: 'why'"),
				issue("invalid_type", "Expected boolean, received string", "hard"),
				issue("invalid_string", "Invalid uuid", "id"),
				issue("invalid_enum_value", "Invalid enum value. Expected 'spam' | 'duplicate', received 'boring'", "reason"),
			}},
		{name: "delete without body", method: http.MethodDelete, path: "/api/v1/post/{id}", target: "/api/v1/post/" + uuid1,
			params: map[string]string{"id": uuid1},
			want:   []app.Issue{issue("invalid_type", "Required")}},
	}
	v := newTestValidator(t)
	for _, c := range cases {
		if c.method == "" {
			c.method, c.path = http.MethodGet, list
		}
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			runValidateCase(t, v, c)
		})
	}
}
