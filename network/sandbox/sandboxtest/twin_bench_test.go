package sandboxtest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/sandbox/sandboxtest"
)

// BenchmarkTwinPublish is the sandbox's own cost per publish: the real adapter against its twin
// over loopback HTTP, without Crier's database or River. BenchmarkPublishDueTogether's worker time
// per network less this is the pipeline's share. Run with -benchtime=Nx (N under the twins'
// daily caps, e.g. 200x).
func BenchmarkTwinPublish(b *testing.B) {
	nets := sandboxtest.Start(b)
	ctx := context.Background()
	seq := 0
	for _, n := range []app.Network{app.Mastodon, app.Twitter, app.Threads, app.Bluesky} {
		b.Run(string(n), func(b *testing.B) {
			tok := nets.Connect(b, n, "bench")
			pub, ok := nets.Adapters[n].(app.Publisher)
			if !ok {
				b.Skip("no publisher")
			}
			prof, err := nets.Adapters[n].Profile(ctx, tok)
			if err != nil {
				b.Fatal(err)
			}
			acct := &app.SocialAccount{Type: n, ExternalID: &prof.ExternalID, Username: &prof.Username}
			noCheckpoint := func(context.Context, string, string) error { return nil }
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				seq++ // unique text and key across the benchmark's runs (X refuses duplicate content)
				raw, _ := json.Marshal(map[app.Network]any{n: map[string]string{"text": fmt.Sprintf("twin bench %d", seq)}})
				var d app.PostData
				if err := json.Unmarshal(raw, &d); err != nil {
					b.Fatal(err)
				}
				req := &app.PublishRequest{AttemptKey: fmt.Sprintf("twin-%s-%d", n, seq), Network: n, Account: acct, Payload: d.Of(n),
					Checkpoint: noCheckpoint, Resume: map[string]string{}}
				if _, err := pub.Publish(ctx, tok, req); err != nil {
					b.Fatalf("%s publish %d: %v", n, i, err)
				}
			}
		})
	}
}
