package meta_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/meta"
)

func TestClassify(t *testing.T) {
	t.Parallel()
	h := http.Header{}
	h.Set("X-Business-Use-Case-Usage", `{"112130216863063":[{"type":"pages","call_count":100,"total_cputime":25,"total_time":25,"estimated_time_to_regain_access":19}]}`)
	ne := meta.Classify(400, h, []byte(`{"error":{"message":"(#32) Page request limit reached","type":"OAuthException","code":32,"fbtrace_id":"Fz54k3GZrio"}}`))
	require.Equal(t, app.ErrRateLimited, ne.Class)
	require.Equal(t, "32", ne.Code)
	require.Equal(t, "(#32) Page request limit reached", ne.Message)
	require.WithinDuration(t, time.Now().Add(19*time.Minute), ne.ResetAt, time.Minute)

	ne = meta.Classify(400, nil, []byte(`{"error":{"message":"Error validating access token: Session has expired on Friday, 09-Jan-26 10:00:00 PST.","type":"OAuthException","code":190,"error_subcode":463,"fbtrace_id":"A"}}`))
	require.Equal(t, app.ErrAuthExpired, ne.Class)
	require.Equal(t, "190/463", ne.Code)
	require.True(t, strings.HasPrefix(ne.Message, "Error validating access token"))

	ne = meta.Classify(400, nil, []byte(`{"error":{"message":"Invalid parameter","type":"OAuthException","code":100,"error_subcode":1366046,"fbtrace_id":"B"}}`))
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.Equal(t, app.ErrTransient, meta.Classify(500, nil, []byte(`{"error":{"message":"An unknown error has occurred.","type":"OAuthException","code":1,"fbtrace_id":"C"}}`)).Class)
	require.Equal(t, app.ErrTransient, meta.Classify(400, nil, []byte(`{"error":{"message":"Temporary","code":2,"is_transient":true}}`)).Class)
	require.Nil(t, meta.Classify(200, nil, nil))
}

// Platform (app-token) throttling carries only X-App-Usage: at 100% the window is a rolling hour.
func TestClassifyAppUsage(t *testing.T) {
	t.Parallel()
	h := http.Header{}
	h.Set("X-App-Usage", `{"call_count":100,"total_cputime":12,"total_time":20}`)
	ne := meta.Classify(400, h, []byte(`{"error":{"message":"(#4) Application request limit reached","type":"OAuthException","is_transient":true,"code":4,"fbtrace_id":"A"}}`))
	require.Equal(t, app.ErrRateLimited, ne.Class)
	require.Equal(t, "(#4) Application request limit reached", ne.Message)
	require.WithinDuration(t, time.Now().Add(time.Hour), ne.ResetAt, time.Minute)
	h.Set("X-App-Usage", `{"call_count":40,"total_cputime":12,"total_time":20}`)
	require.True(t, meta.Classify(400, h, []byte(`{"error":{"message":"(#4) Application request limit reached","code":4}}`)).ResetAt.IsZero())
}
