package publishing

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/store/storetest"
)

// jsonbText writes what PostgreSQL's jsonb writes for the same document, byte for byte, so that
// an edit's unchanged payloads are found unchanged without decoding them; what it cannot vouch
// for it refuses (sameJSON then says "changed", and the write's statement compares).
func TestJSONBTextAsPostgreSQL(t *testing.T) {
	t.Parallel()
	pool, _ := storetest.NewDB(t)
	ctx := context.Background()
	type payload struct {
		Text      string            `json:"text"`
		UploadIDs []string          `json:"uploadIds,omitempty"`
		Alt       *string           `json:"altText,omitempty"`
		Offset    float64           `json:"thumbnailOffset,omitempty"`
		N         int               `json:"n"`
		Nested    map[string]any    `json:"nested,omitempty"`
		Flags     []bool            `json:"flags"`
		Labels    map[string]string `json:"labels,omitempty"`
	}
	alt := "a \"quoted\" <b>&amp;</b> \\ / \u2028 é 😀 \t\n\r\b\f \x01\x1f\x7f"
	docs := []string{`{}`, `[]`, `{"a":{}}`, `[[],[{}]]`, `null`, `true`, `"x"`, `0`, `-1.50`, `0.000001`, `123456789012345678901234567890`,
		`{"b":1,"a":2,"aa":3,"B":4,"":5,"é":6,"e":7}`, `{"k":1,"k":2}`, `{"k":{"x":1},"k":[2]}`, ` { "sp" : [ 1 , 2 ] } `,
		`{"s":"\u00e9\ud83d\ude00\u003c\/"}`, `[1,"a",null,false,{"z":[]}]`}
	for _, p := range []payload{
		{Text: "Bench 12 on X"},
		{Text: alt, UploadIDs: []string{"7b0a3c62-8a8e-4c3b-9b1e-0123456789ab", "x"}, Alt: &alt, Offset: 2.5, N: -3,
			Nested: map[string]any{"z": 1.25, "a": []any{"q", nil, true}, "mm": map[string]any{}}, Flags: []bool{true, false}, Labels: map[string]string{"b": "1", "a": "2"}},
		{Text: "", Offset: 0.000001, N: 1 << 40},
	} {
		b, err := json.Marshal(p)
		require.NoError(t, err)
		docs = append(docs, string(b))
	}
	for _, d := range docs {
		var want string
		require.NoError(t, pool.QueryRow(ctx, "SELECT $1::jsonb::text", d).Scan(&want), d)
		got, ok := jsonbText([]byte(d))
		require.True(t, ok, d)
		require.Equal(t, want, string(got), d)
		require.True(t, sameJSON([]byte(want), []byte(d)), d)
	}
	// Refused: not JSON, or a form jsonb respells (an exponent, a negative zero).
	for _, d := range []string{``, `{`, `{"a":1,}`, `[1,]`, `{"a" 1}`, `01`, `-`, `1.`, `.5`, `1e2`, `1E-2`, `-0`, `-0.00`,
		`"a` + "\x01" + `"`, `tru`, `{"a":1} x`, `"\x"`, "\"\xff\""} {
		got, ok := jsonbText([]byte(d))
		require.False(t, ok, "%s: %s", d, got)
	}
	require.False(t, sameJSON([]byte(`{"n": 100}`), []byte(`{"n":1e2}`)), "respelled numbers are left to the statement")
	require.False(t, sameJSON([]byte(`{"a": 1}`), []byte(`{"a":2}`)))
}
