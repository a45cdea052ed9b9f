package app_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	_ "github.com/crier/crier/network" // registers every network's spec
	"github.com/crier/crier/network/mastodon"
	"github.com/crier/crier/network/x"
)

func TestEveryNetworkHasASpec(t *testing.T) {
	t.Parallel()
	specs := app.Specs()
	require.Len(t, specs, len(app.Networks))
	for i, n := range app.Networks {
		s := app.SpecOf(n)
		require.NotNil(t, s, n)
		require.Equal(t, n, specs[i].Network, "registered in the spec's order")
		require.NotEmpty(t, s.Name, n)
		require.NotNil(t, s.NewPayload, n)
		require.NotNil(t, s.Check, n)
		require.NotNil(t, s.TextLength, n)
	}
}

// data keeps the wire shape of the struct it was: networks in that struct's order, payloads as
// their types write them; keys match case-insensitively, unknown keys are ignored, null removes.
func TestPostDataJSON(t *testing.T) {
	t.Parallel()
	var d app.PostData
	require.NoError(t, json.Unmarshal([]byte(`{"MASTODON":{"text":"m"},"twitter":{"text":"t"},"FRIENDSTER":{},"SLACK":null}`), &d))
	require.Equal(t, []app.Network{app.Twitter, app.Mastodon}, d.Networks())
	require.Equal(t, "t", x.Of(&d).Text)
	b, err := json.Marshal(d)
	require.NoError(t, err)
	require.JSONEq(t, `{"TWITTER":{"text":"t"},"MASTODON":{"text":"m"}}`, string(b))
	require.Equal(t, `{"TWITTER":{"text":"t"},"MASTODON":{"text":"m"}}`, string(b))

	require.NoError(t, json.Unmarshal([]byte(`{"MASTODON":null}`), &d))
	require.Nil(t, mastodon.Of(&d))
	err = json.Unmarshal([]byte(`{"TWITTER":{"text":1},"MASTODON":{"text":"back"}}`), &d)
	require.EqualError(t, err, "json: cannot unmarshal number into Go struct field Payload.TWITTER.text of type string")
	require.Equal(t, "back", mastodon.Of(&d).Text, "the other payloads are still read")
	require.EqualError(t, json.Unmarshal([]byte(`{"TWITTER":5}`), &d), "json: cannot unmarshal number into Go struct field PostData.TWITTER of type x.Payload")
	require.EqualError(t, json.Unmarshal([]byte(`[1]`), &d), "json: cannot unmarshal array into Go value of type app.PostData")

	empty, err := json.Marshal(app.PostData{})
	require.NoError(t, err)
	require.Equal(t, `{}`, string(empty))
}

// data's own split of an object's members reads what json.Decoder's tokens read: the same
// payloads, the same first error, for spacing, escaped keys, nesting, scalars, nulls and repeats.
func TestPostDataSplitAsDecoder(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`{}`, ` { } `, `{"TWITTER":{"text":"t","uploadIds":["a","b"]},"MASTODON":{"text":"m"}}`,
		"{ \"MASTODON\" :\n{ \"text\" : \"a}\\\"],{\" } , \"TWITTER\" : { \"thread\" : [ { \"text\" : \"x\" } , { } ] } }",
		`{"TW\u0049TTER":{"text":"esc"},"mastodon":{"text":"lower"},"MASTODON":{"privacy":"PUBLIC"}}`,
		`{"TWITTER":1,"MASTODON":{"text":"after"}}`, `{"TWITTER":"s","MASTODON":[],"SLACK":true,"BLUESKY":null,"X":1.5e3}`,
		`{"FRIENDSTER":{"a":[1,{"b":"}"}]},"MASTODON":null}`, `{"TWITTER":{"text":1},"MASTODON":{"text":2}}`,
		`{"MASTODON":{"text":"a"},"MASTODON":{"spoiler":"b"}}`,
	} {
		var fast, slow app.PostData
		errFast := fast.UnmarshalJSON([]byte(in))
		errSlow := app.UnmarshalPostDataByTokens(&slow, []byte(in))
		require.Equal(t, fmt.Sprint(errSlow), fmt.Sprint(errFast), in)
		a, _ := json.Marshal(fast)
		b, _ := json.Marshal(slow)
		require.Equal(t, string(b), string(a), in)
	}
}
