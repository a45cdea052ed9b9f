package api

import (
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
)

// The hand-written answers of GET post and GET post list are the bytes (and headers) of the
// generated ones, which encode with encoding/json.
func TestPostJSONMatchesEncoding(t *testing.T) {
	t.Parallel()
	// A field added to the contract's Post must be written by postEncoder too.
	require.Equal(t, 22, reflect.TypeFor[Post]().NumField(), "Post changed: update postEncoder.post")
	rich := richPost(t)
	rich.Title = "Tab\there, \u2028 line <b>é</b> \xff"
	far := time.Date(12000, 1, 2, 3, 4, 5, 0, time.UTC)
	odd := rich
	odd.PostedDate, odd.RetryCount = &far, 1<<30
	empty := rich
	empty.Errors, empty.ErrorsVerbose, empty.ExternalData, empty.FirstComment = map[app.Network]*string{}, map[app.Network]*app.ErrorVerbose{}, map[app.Network]*app.ExternalRef{}, map[app.Network]string{}
	empty.SocialAccountTypes, empty.Data, empty.Uploads, empty.SocialAccounts = []app.Network{}, app.PostData{}, []app.PostUploadLink{}, []app.PostSocialAccountLink{}
	bare := app.Post{ID: "post-2", TeamID: "team-1", Status: app.PostStatus("DRAFT")}
	var items []Post
	for name, p := range map[string]app.Post{"rich": rich, "odd": odd, "empty": empty, "bare": bare, "bench": benchPost(t)} {
		out, err := toPost(p)
		require.NoError(t, err)
		if name == "odd" { // a year JSON cannot write: both refuse
			require.Error(t, PostGet200JSONResponse(out).VisitPostGetResponse(httptest.NewRecorder()))
			require.Error(t, postGetJSON{post: out}.VisitPostGetResponse(httptest.NewRecorder()))
			out.PostedDate = &rich.CreatedAt
		}
		items = append(items, out, out) // the same accounts and uploads twice: written once, spliced twice
		want, got := httptest.NewRecorder(), httptest.NewRecorder()
		require.NoError(t, PostGet200JSONResponse(out).VisitPostGetResponse(want))
		require.NoError(t, postGetJSON{post: out}.VisitPostGetResponse(got))
		require.Equal(t, want.Body.String(), got.Body.String(), name)
		// and with data from its stored form
		stored, err := p.Data.MarshalJSON()
		require.NoError(t, err)
		data, err := dataJSON(stored)
		require.NoError(t, err)
		got = httptest.NewRecorder()
		require.NoError(t, postGetJSON{post: out, data: data}.VisitPostGetResponse(got))
		require.Equal(t, want.Body.String(), got.Body.String(), name)
		requireSameHeaders(t, want, got)
		require.Equal(t, want.Code, got.Code, name)
	}
	for _, list := range [][]Post{items, {}, nil} {
		want, got := httptest.NewRecorder(), httptest.NewRecorder()
		require.NoError(t, PostGetList200JSONResponse{Items: list, Total: 12345}.VisitPostGetListResponse(want))
		require.NoError(t, postListJSON{items: list, total: 12345}.VisitPostGetListResponse(got))
		require.Equal(t, want.Body.String(), got.Body.String())
		requireSameHeaders(t, want, got)
	}
}

// dataJSON writes what the record's data decoded from storage (as postFromRow decodes it, errors
// ignored) writes through toPost, for whatever is stored, and answers it again from its table.
func TestDataJSONMatchesDecoding(t *testing.T) {
	t.Parallel()
	rich := richPost(t)
	richData, err := rich.Data.MarshalJSON()
	require.NoError(t, err)
	for _, stored := range []string{string(richData), `{}`, `null`, ``, `[]`, `{"TWITTER":null}`,
		`{"twitter":{"text":"lower-case key"},"NOPE":{"x":1},"MASTODON":{"text":"m","unknown":true}}`,
		`{"TWITTER":{"text":1},"MASTODON":{"text":"still read"}}`, `{"BLUESKY":{"text":"<&> \u2028"},"TWITTER":{"text":"t","uploadIds":["a"]}}`} {
		var d app.PostData
		_ = json.Unmarshal([]byte(stored), &d)
		out, err := toPost(app.Post{Data: d})
		require.NoError(t, err)
		want, err := json.Marshal(out.Data)
		require.NoError(t, err)
		for range 2 { // computed, then from the table
			got, err := dataJSON([]byte(stored))
			require.NoError(t, err)
			require.Equal(t, string(want), string(got), stored)
		}
	}
}

// requireSameHeaders holds a hand-written answer's headers to the generated one's, plus the
// Content-Length it declares (writeJSON), which must be its body's.
func requireSameHeaders(t *testing.T, want, got *httptest.ResponseRecorder) {
	t.Helper()
	require.Equal(t, strconv.Itoa(got.Body.Len()), got.Header().Get("Content-Length"))
	h := got.Header().Clone()
	h.Del("Content-Length")
	require.Equal(t, want.Header(), h)
}

// appendString writes every byte, alone or amid others, as json.Marshal does.
func TestAppendStringEveryByte(t *testing.T) {
	t.Parallel()
	for c := range 256 {
		for _, s := range []string{string([]byte{byte(c)}), "ab" + string([]byte{byte(c)}) + "cd"} {
			want, _ := json.Marshal(s)
			require.Equal(t, string(want), string(appendString(nil, s)), "byte %#x", c)
		}
	}
}

// go test ./api -run '^$' -bench AppendString: a signed URL, the longest string of a post's answer.
func BenchmarkAppendString(b *testing.B) {
	s := "http://127.0.0.1:42485/files/6321e457-8e16-40af-aca3-e386e54548c1/5a0c390c750c1438f34b51a165b2b1ac_thumb.jpg?expires=1796476560"
	buf := make([]byte, 0, 256)
	for b.Loop() {
		buf = appendString(buf[:0], s)
	}
}
