package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/crier/crier/media/mediatest"
	"github.com/crier/crier/server/servertest"
)

// org is the bench's organization: an API key, a team with Twitter (X) and Mastodon connected through the
// sandbox, one photo, and posts to both networks using it (so each has two targets and an upload).
type org struct {
	key, team string
	posts     []string
}

func seed(t testing.TB, srv *servertest.Server, posts int) *org {
	t.Helper()
	d, err := srv.Service.SeedDemo(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	o := &org{key: d.APIKey, team: d.TeamID}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, n := range []string{"TWITTER", "MASTODON"} {
		body := `{"type":"` + n + `","teamId":"` + o.team + `","redirectUrl":"https://app.example/"`
		if n == "MASTODON" {
			body += `,"serverUrl":"` + srv.URL + `/sandbox/mastodon"`
		}
		var out struct{ URL string }
		o.call(t, srv.URL, http.MethodPost, "/api/v1/social-account/connect", body+"}", &out)
		loc := out.URL + "&approve=1"
		for range 2 { // consent → callback → the redirect URL
			res, err := noRedirect.Get(loc)
			if err != nil || res.StatusCode != http.StatusFound {
				t.Fatalf("bench: connect %s: %v %v", n, res, err)
			}
			res.Body.Close()
			loc = res.Header.Get("Location")
		}
		if u, _ := url.Parse(loc); u == nil || u.Query().Get("success") != "true" {
			t.Fatalf("bench: connect %s: %s", n, loc)
		}
	}
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	part, _ := w.CreateFormFile("file", "photo.jpg")
	_, _ = part.Write(mediatest.JPEG(1080, 1080))
	_ = w.Close()
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/v1/upload", &body)
	req.Header.Set("Content-Type", w.FormDataContentType())
	var up struct{ ID string }
	o.send(t, req, &up)
	for i := range posts {
		var p struct{ ID string }
		o.call(t, srv.URL, http.MethodPost, "/api/v1/post", o.postBody(fmt.Sprintf("Seed %d", i), up.ID), &p)
		o.posts = append(o.posts, p.ID)
	}
	return o
}

// postBody is a DRAFT to Twitter (X) and Mastodon, with the photo when upload is set.
func (o *org) postBody(title, upload string) string {
	ups := "[]"
	if upload != "" {
		ups = `["` + upload + `"]`
	}
	return `{"teamId":"` + o.team + `","title":"` + title + `","postDate":"` + time.Now().Add(48*time.Hour).UTC().Format(time.RFC3339) +
		`","status":"DRAFT","socialAccountTypes":["TWITTER","MASTODON"],"data":{"TWITTER":{"text":"` + title + ` on X","uploadIds":` + ups +
		`},"MASTODON":{"text":"` + title + ` on Mastodon","uploadIds":` + ups + `}}}`
}

func (o *org) request(base, method, path, body string) (*http.Request, error) {
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, base+path, r)
	if err != nil {
		return nil, err
	}
	req.Header.Set("x-api-key", o.key)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

func (o *org) call(t testing.TB, base, method, path, body string, out any) {
	t.Helper()
	req, err := o.request(base, method, path, body)
	if err != nil {
		t.Fatal(err)
	}
	o.send(t, req, out)
}

func (o *org) send(t testing.TB, req *http.Request, out any) {
	t.Helper()
	req.Header.Set("x-api-key", o.key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK && res.StatusCode != http.StatusCreated {
		t.Fatalf("bench: %s %s: %d %s", req.Method, req.URL.Path, res.StatusCode, b)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("bench: %s %s: %v", req.Method, req.URL.Path, err)
	}
}
