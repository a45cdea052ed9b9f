package jobs_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/jobs"
)

// The webhook jobs go to the webhooks queue, which has workers here.
func TestWebhookJobsUseTheWebhooksQueue(t *testing.T) {
	t.Parallel()
	require.Equal(t, "webhooks", app.QueueWebhooks)
	require.Equal(t, app.QueueWebhooks, app.FanOutEventArgs{}.InsertOpts().Queue)
	require.Equal(t, app.QueueWebhooks, app.DeliverWebhookArgs{}.InsertOpts().Queue)
	require.Equal(t, app.WebhookMaxAttempts, app.DeliverWebhookArgs{}.InsertOpts().MaxAttempts)
	require.Contains(t, jobs.Queues, app.QueueWebhooks)
}
