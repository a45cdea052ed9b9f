package bench

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/crier/crier/server/servertest"
)

// BenchmarkReads calls Crier's handler in process (no sockets, no load generator) for the API's hot
// reads: its allocs/op and B/op are deterministic, its ns/op is the Go side plus PostgreSQL's time
// (go test ./bench/ -run '^$' -bench Reads -benchmem; compare before and after in the same minute).
func BenchmarkReads(b *testing.B) {
	srv := servertest.Start(b, servertest.Options{NoWorkers: true})
	o := seed(b, srv, 60)
	for _, c := range []struct{ name, path string }{
		{"post", "/api/v1/post/" + o.posts[0]},
		{"list20", "/api/v1/post?teamId=" + o.team + "&limit=20"},
		{"team", "/api/v1/team/" + o.team},
	} {
		b.Run(c.name, func(b *testing.B) {
			req, err := o.request("", http.MethodGet, c.path, "")
			if err != nil {
				b.Fatal(err)
			}
			req.RemoteAddr = "127.0.0.1:1234"
			b.ReportAllocs()
			for b.Loop() {
				w := httptest.NewRecorder()
				srv.Echo.ServeHTTP(w, req)
				if w.Code != http.StatusOK {
					b.Fatalf("%s: %d %s", c.path, w.Code, w.Body)
				}
			}
		})
	}
}
