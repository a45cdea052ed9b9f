package snapchat_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/snapchat"
)

// Snap's envelope: request_status ERROR even on a 200 is a failure; display_message is kept.
func TestClassify(t *testing.T) {
	t.Parallel()
	ne := snapchat.Classify(200, nil, []byte(`{"request_status":"ERROR","request_id":"5f2a","debug_message":"Invalid media id","display_message":"The media could not be found","error_code":"E3002"}`))
	require.Equal(t, app.ErrPermanent, ne.Class)
	require.Equal(t, "E3002", ne.Code)
	require.Equal(t, "The media could not be found", ne.Message)
	require.Equal(t, app.ErrAuthExpired, snapchat.Classify(401, nil, []byte(`{"request_status":"ERROR","error_code":"E1001","debug_message":"Unauthorized"}`)).Class)
	require.Equal(t, app.ErrRateLimited, snapchat.Classify(429, nil, []byte(`{"request_status":"ERROR"}`)).Class)
	require.Nil(t, snapchat.Classify(200, nil, []byte(`{"request_status":"SUCCESS","request_id":"1"}`)))
}
