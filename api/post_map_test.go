package api

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	_ "github.com/crier/crier/network" // registers every network's spec
)

// toPostViaJSON is how posts were rendered before: the whole record through JSON into the contract's
// type. toPost must answer the same bytes.
func toPostViaJSON(p app.Post) (Post, error) {
	out, err := viaJSON[Post](p, "post")
	if err != nil {
		return out, err
	}
	direct, err := toPost(app.Post{Uploads: p.Uploads, SocialAccounts: p.SocialAccounts})
	out.Uploads, out.SocialAccounts = direct.Uploads, direct.SocialAccounts
	return out, err
}

// richPost has every network's payload (defaults and a text with characters JSON escapes), every
// per-network map with nil entries and networks some contract types leave out, and times in a zone.
func richPost(t testing.TB) app.Post {
	zone := time.FixedZone("X", 5*3600+1800)
	at := time.Date(2026, 11, 28, 5, 40, 1, 123456789, zone)
	var data app.PostData
	for _, n := range app.Networks {
		pl := app.SpecOf(n).NewPayload()
		require.NoError(t, json.Unmarshal([]byte(`{"text":"<b> & \"q\" é\u2028","uploadIds":["u1","u2"],"title":"T","link":"https://x.test/?a=1&b=2"}`), pl), n)
		if d, ok := pl.(app.Defaulter); ok {
			d.SetDefaults()
		}
		data.Set(n, pl)
	}
	msg, id, link, code, status, yes := "boom", "ext-1", "https://x.test/p/1", "E1", 429, true
	org, ref, note := "org-1", "ref-1", "fix it"
	return app.Post{ID: "post-1", TeamID: "team-1", OrganizationID: &org, Title: "Title <&>", ReferenceKey: &ref,
		PostDate: &at, PostedDate: &at, Status: app.PostStatus("ERROR"), Data: data, Error: &msg,
		Errors:        map[app.Network]*string{app.Twitter: &msg, app.Mastodon: nil, app.GoogleBusiness: &msg},
		ErrorsVerbose: map[app.Network]*app.ErrorVerbose{app.Twitter: {Code: &code, ErrorMessage: &msg, IsTransient: &yes, HTTPStatus: &status, Meta: map[string]any{"z": 1, "a": []any{"x", 2.5}}}, app.Bluesky: nil},
		ExternalData:  map[app.Network]*app.ExternalRef{app.Mastodon: {ID: &id, Permalink: &link}, app.Twitter: nil, app.Bluesky: {ID: &id}},
		RetryCount:    3, FirstComment: map[app.Network]string{app.Twitter: "first", app.Mastodon: "", app.LinkedIn: "li"},
		SocialAccountTypes: []app.Network{app.Twitter, app.Mastodon}, ReviewNote: &note, CreatedAt: at, UpdatedAt: at.UTC(), DeletedAt: &at,
		Uploads:        []app.PostUploadLink{{PostID: "post-1", UploadID: "u1", CreatedAt: at, UpdatedAt: at, Upload: app.Upload{ID: "u1", Type: "image"}}},
		SocialAccounts: []app.PostSocialAccountLink{{PostID: "post-1", SocialAccountID: "a1", CreatedAt: at, UpdatedAt: at, SocialAccount: app.SocialAccount{ID: "a1", Type: app.Twitter}}},
	}
}

func TestToPostMatchesJSONRoundTrip(t *testing.T) {
	t.Parallel()
	rich := richPost(t)
	empty := rich
	empty.Errors, empty.ErrorsVerbose, empty.ExternalData, empty.FirstComment = map[app.Network]*string{}, map[app.Network]*app.ErrorVerbose{}, map[app.Network]*app.ExternalRef{}, map[app.Network]string{}
	empty.SocialAccountTypes, empty.Data, empty.Uploads, empty.SocialAccounts = []app.Network{}, app.PostData{}, []app.PostUploadLink{}, []app.PostSocialAccountLink{}
	bare := app.Post{ID: "post-2", TeamID: "team-1", Status: app.PostStatus("DRAFT")}
	for name, p := range map[string]app.Post{"rich": rich, "empty maps": empty, "nil maps": bare, "bench": benchPost(t)} {
		want, err := toPostViaJSON(p)
		require.NoError(t, err)
		got, err := toPost(p)
		require.NoError(t, err)
		wantJSON, err := json.Marshal(want)
		require.NoError(t, err)
		gotJSON, err := json.Marshal(got)
		require.NoError(t, err)
		require.Equal(t, string(wantJSON), string(gotJSON), name)
	}
}

// BenchmarkToPost compares the direct rendering with the JSON round trip, side by side
// (go test ./api/ -run '^$' -bench ToPost -benchmem).
func BenchmarkToPost(b *testing.B) {
	for name, p := range map[string]app.Post{"rich": richPost(b), "bench": benchPost(b)} {
		b.Run(name+"/direct", func(b *testing.B) {
			for range b.N {
				if _, err := toPost(p); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/viaJSON", func(b *testing.B) {
			for range b.N {
				if _, err := toPostViaJSON(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchPost is a post like bench/'s: a DRAFT to X and Mastodon with a text and a photo each.
func benchPost(t testing.TB) app.Post {
	var data app.PostData
	require.NoError(t, json.Unmarshal([]byte(`{"TWITTER":{"text":"Seed 1 on X","uploadIds":["u1"]},"MASTODON":{"text":"Seed 1 on Mastodon","uploadIds":["u1"]}}`), &data))
	at := time.Date(2026, 11, 30, 5, 40, 1, 123456000, time.UTC)
	org := "org-1"
	return app.Post{ID: "post-1", TeamID: "team-1", OrganizationID: &org, Title: "Seed 1", PostDate: &at, Status: app.PostStatus("DRAFT"), Data: data,
		Errors: map[app.Network]*string{}, ExternalData: map[app.Network]*app.ExternalRef{}, FirstComment: map[app.Network]string{},
		SocialAccountTypes: []app.Network{app.Twitter, app.Mastodon}, CreatedAt: at, UpdatedAt: at}
}
