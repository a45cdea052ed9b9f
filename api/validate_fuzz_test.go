package api

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/crier/crier/app"
)

// contractValidator is the validator of the real contract (api/openapi.json).
var contractValidator = sync.OnceValues(func() (*Validator, error) {
	doc, err := LoadContract()
	if err != nil {
		return nil, err
	}
	return NewValidator(doc)
})

// jsonOperations are the creating operations whose bodies FuzzValidateBody sends (the selector
// byte picks one): the contract's largest body (post), nested arrays, URLs, enums, e-mails.
var jsonOperations = []string{"/api/v1/post", "/api/v1/team", "/api/v1/webhook", "/api/v1/api-key",
	"/api/v1/upload/init", "/api/v1/user/invitations", "/api/v1/auth/signup", "/api/v1/comment"}

// fuzzValidate validates one body and requires the outcome of any input: accepted, or a 400
// (app.EInvalid with issues), quickly, never a panic or another error.
func fuzzValidate(t *testing.T, v *Validator, path, contentType string, body []byte) {
	req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	start := time.Now()
	err := v.Validate(context.Background(), req, http.MethodPost, path, nil)
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("%s: validating %d bytes took %v", path, len(body), d)
	}
	if err == nil {
		return
	}
	var ae *app.Error
	if !errors.As(err, &ae) || ae.Code != app.EInvalid || len(ae.Issues) == 0 {
		t.Fatalf("%s: %q: not a 400 with issues: %v", path, body, err)
	}
	for _, is := range ae.Issues {
		if is.Message == "" || is.Path == nil {
			t.Fatalf("%s: an issue without message or path: %+v", path, is)
		}
	}
}

// FuzzValidateBody sends arbitrary JSON bodies to the contract check (make test runs it briefly;
// seeds in testdata/fuzz/FuzzValidateBody).
func FuzzValidateBody(f *testing.F) {
	v, err := contractValidator()
	if err != nil {
		f.Fatal(err)
	}
	for i, seed := range []string{`{}`, `[`, `{"name":"Launch"}`, `{"title":"\u0000"}`, `{"url":"https://example.com/h","events":["team.created"]}`,
		`{"teamId":"7d444840-9dc0-11d1-b245-5ffdce74fad2","title":"T","postDate":"2030-01-01T00:00:00Z","status":"DRAFT","socialAccountTypes":["MASTODON"],"data":{"MASTODON":{"text":"hi"}}}`,
		`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`, `{"a":1e400}`, `"\ud800"`, `null`} {
		f.Add(uint8(i), []byte(seed))
	}
	f.Fuzz(func(t *testing.T, op uint8, body []byte) {
		fuzzValidate(t, v, jsonOperations[int(op)%len(jsonOperations)], "application/json", body)
	})
}

// FuzzMultipart sends arbitrary multipart bodies (boundary X) to the upload's contract check.
func FuzzMultipart(f *testing.F) {
	v, err := contractValidator()
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{
		"--X\r\nContent-Disposition: form-data; name=\"teamId\"\r\n\r\n7d444840-9dc0-11d1-b245-5ffdce74fad2\r\n--X\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n--X--\r\n",
		"--X\r\nContent-Disposition: form-data; name=\"file\"; filename*=UTF-8''a%00.png\r\n\r\nx\r\n--X--\r\n",
		"--X\r\n\r\n--X--", "", "--X--\r\n", "--X\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + string(bytes.Repeat([]byte("n"), 300)) + "\"\r\n\r\nx\r\n--X--\r\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		fuzzValidate(t, v, "/api/v1/upload", "multipart/form-data; boundary=X", body)
	})
}
