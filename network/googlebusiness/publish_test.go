package googlebusiness_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/googlebusiness"
	"github.com/crier/crier/network/sandbox/sandboxtest"
)

func TestPublishToSandbox(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nets := sandboxtest.Start(t)
	tok := nets.Connect(t, app.GoogleBusiness, "alice")
	a := nets.Adapters[app.GoogleBusiness]
	pub := a.(app.Publisher)
	chans, err := a.Channels(ctx, tok)
	require.NoError(t, err)
	loc := &chans[0]
	request := func(pl *googlebusiness.Payload, m ...app.MediaFile) *app.PublishRequest {
		return &app.PublishRequest{AttemptKey: "k", Network: app.GoogleBusiness, Channel: loc, Payload: pl, Media: m}
	}

	// Nothing published yet: Find answers nil (and does not guess without an attempt).
	cp := sandboxtest.Checkpoints{}
	found, err := pub.Find(ctx, tok, cp.Wire(request(&googlebusiness.Payload{Text: "Fresh bread"})))
	require.NoError(t, err)
	require.Nil(t, found)

	// A standard post with a photo and a call to action.
	req := cp.Wire(request(&googlebusiness.Payload{Text: "Fresh bread", CallToActionType: "ORDER", CallToActionURL: "https://bakery.example/order"},
		sandboxtest.Image("u1")))
	p, err := pub.Publish(ctx, tok, req)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(p.ExternalID, loc.ID+"/localPosts/"), p.ExternalID)
	require.True(t, strings.HasPrefix(p.Permalink, "https://local.google.com/place?id="), p.Permalink)
	posts := nets.Posts(app.GoogleBusiness, "alice")
	require.Len(t, posts, 1)
	require.Equal(t, "Fresh bread", posts[0].Text)
	require.Equal(t, []string{"https://media.crier.invalid/u1.jpg"}, posts[0].Media)
	require.Equal(t, p.ExternalID, cp["gbp.post"])

	// A retry resumes from the checkpoint: no second post.
	again, err := pub.Publish(ctx, tok, cp.Wire(request(&googlebusiness.Payload{Text: "Fresh bread"})))
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, again.ExternalID)
	require.Len(t, nets.Posts(app.GoogleBusiness, "alice"), 1)

	// Find by the checkpoint, and by the attempt marker alone (the answer was lost).
	found, err = pub.Find(ctx, tok, cp.Wire(request(&googlebusiness.Payload{Text: "Fresh bread"}, sandboxtest.Image("u1"))))
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, found.ExternalID)
	lost := sandboxtest.Checkpoints{"attempt.at": cp["attempt.at"]}
	found, err = pub.Find(ctx, tok, lost.Wire(request(&googlebusiness.Payload{Text: "Fresh bread"}, sandboxtest.Image("u1"))))
	require.NoError(t, err)
	require.Equal(t, p.ExternalID, found.ExternalID)
	found, err = pub.Find(ctx, tok, lost.Wire(request(&googlebusiness.Payload{Text: "Other text"})))
	require.NoError(t, err)
	require.Nil(t, found)

	// Event and offer posts.
	ev, err := pub.Publish(ctx, tok, request(&googlebusiness.Payload{Text: "Tasting night", TopicType: "EVENT", EventTitle: "Tasting",
		EventStartDate: "2026-12-01T18:00:00Z", EventEndDate: "2026-12-01T21:00:00Z", CallToActionType: "CALL"}))
	require.NoError(t, err)
	_, err = pub.Publish(ctx, tok, request(&googlebusiness.Payload{Text: "10% off", TopicType: "OFFER", EventTitle: "Winter offer",
		EventStartDate: "2026-12-01T00:00:00Z", EventEndDate: "2026-12-31T00:00:00Z", OfferCouponCode: "BREAD10"}))
	require.NoError(t, err)
	require.Len(t, nets.Posts(app.GoogleBusiness, "alice"), 3)

	// An event without a title is refused with Google's message, verbatim.
	_, err = pub.Publish(ctx, tok, request(&googlebusiness.Payload{Text: "x", TopicType: "EVENT", EventStartDate: "2026-12-01T18:00:00Z", EventEndDate: "2026-12-01T21:00:00Z"}))
	var ne *app.NetworkError
	require.True(t, errors.As(err, &ne))
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.Equal(t, "Request contains an invalid argument. event.title and event.schedule are required for EVENT posts.", ne.Message)

	// Videos are refused before calling Google.
	_, err = pub.Publish(ctx, tok, request(&googlebusiness.Payload{Text: "v"}, sandboxtest.Video("v1")))
	require.Equal(t, app.ErrPermanent, app.ClassOf(err))

	// Delete.
	require.NoError(t, pub.Delete(ctx, tok, &app.DeleteRequest{Network: app.GoogleBusiness, Channel: loc, ExternalID: ev.ExternalID}))
	require.Len(t, nets.Posts(app.GoogleBusiness, "alice"), 2)

	// A 429 answers ErrRateLimited with Google's Retry-After.
	nets.Fail(t, app.GoogleBusiness, `{"status":429,"code":"RESOURCE_EXHAUSTED","message":"Quota exceeded for quota metric 'Requests'","resetInSeconds":30,"path":"/localPosts"}`)
	_, err = pub.Publish(ctx, tok, request(&googlebusiness.Payload{Text: "later"}))
	require.True(t, errors.As(err, &ne))
	require.Equal(t, app.ErrRateLimited, ne.Class)
	require.Equal(t, "Quota exceeded for quota metric 'Requests'", ne.Message)
	require.WithinDuration(t, time.Now().Add(30*time.Second), ne.ResetAt, 3*time.Second)
	require.Len(t, nets.Posts(app.GoogleBusiness, "alice"), 2)
}

// Documented shapes of the My Business API v4 localPosts (create answer with name, state and
// searchUrl; list; Google's error body).
func TestPublishAgainstDocumentedShapes(t *testing.T) {
	t.Parallel()
	var created map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == http.MethodPost && r.URL.Path == "/v4/accounts/111/locations/222/localPosts":
			require.NoError(t, jsonDecode(r, &created))
			if created["summary"] == "phone 555-1234" {
				w.WriteHeader(400)
				_, _ = w.Write([]byte(`{"error":{"code":400,"message":"Request contains an invalid argument.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.mybusiness.v4.ValidationError","errorDetails":[{"code":3,"field":"summary","message":"Phone numbers are not allowed."}]}]}}`))
				return
			}
			_, _ = w.Write([]byte(`{"name":"accounts/111/locations/222/localPosts/333","languageCode":"en","summary":"Fresh bread","state":"LIVE","updateTime":"2026-11-23T10:00:00.123Z","createTime":"2026-11-23T10:00:00.123Z","searchUrl":"https://local.google.com/place?id=987&use=posts&lpsid=333","topicType":"STANDARD","media":[{"name":"accounts/111/locations/222/media/m1","mediaFormat":"PHOTO","googleUrl":"https://lh3.googleusercontent.com/p/x"}]}`))
		case r.Method == http.MethodDelete:
			require.Equal(t, "/v4/accounts/111/locations/222/localPosts/333", r.URL.Path)
			_, _ = w.Write([]byte(`{}`))
		}
	}))
	defer srv.Close()
	a := googlebusiness.New(core.Endpoints{Auth: srv.URL, API: srv.URL}, core.Credentials{ClientID: "c", ClientSecret: "s"})
	loc := &app.Channel{ID: "accounts/111/locations/222"}
	tok := &app.Token{AccessToken: "ya29"}
	p, err := a.Publish(context.Background(), tok, &app.PublishRequest{Channel: loc, Payload: &googlebusiness.Payload{Text: "Fresh bread",
		TopicType: "EVENT", EventTitle: "Bake-off", EventStartDate: "2026-12-01T18:30:00Z", EventEndDate: "2026-12-02T20:00:00Z",
		CallToActionType: "CALL", CallToActionURL: "https://ignored.example"}, Media: []app.MediaFile{sandboxtest.Image("u1")}})
	require.NoError(t, err)
	require.Equal(t, "accounts/111/locations/222/localPosts/333", p.ExternalID)
	require.Equal(t, "https://local.google.com/place?id=987&use=posts&lpsid=333", p.Permalink)
	require.Equal(t, "EVENT", created["topicType"])
	require.Equal(t, map[string]any{"actionType": "CALL"}, created["callToAction"])
	ev := created["event"].(map[string]any)
	require.Equal(t, "Bake-off", ev["title"])
	require.Equal(t, map[string]any{"year": 2026.0, "month": 12.0, "day": 1.0}, ev["schedule"].(map[string]any)["startDate"])
	require.Equal(t, map[string]any{"hours": 18.0, "minutes": 30.0}, ev["schedule"].(map[string]any)["startTime"])
	require.Equal(t, []any{map[string]any{"mediaFormat": "PHOTO", "sourceUrl": "https://media.crier.invalid/u1.jpg"}}, created["media"])

	_, err = a.Publish(context.Background(), tok, &app.PublishRequest{Channel: loc, Payload: &googlebusiness.Payload{Text: "phone 555-1234"}})
	var ne *app.NetworkError
	require.True(t, errors.As(err, &ne))
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.Equal(t, "INVALID_ARGUMENT", ne.Code)
	require.Equal(t, "Request contains an invalid argument.", ne.Message)
	require.NoError(t, a.Delete(context.Background(), tok, &app.DeleteRequest{ExternalID: p.ExternalID}))
}

func jsonDecode(r *http.Request, v any) error { return json.NewDecoder(r.Body).Decode(v) }
