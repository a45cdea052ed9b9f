package jobs_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/jobs"
)

// app cannot import jobs, so it names the webhooks queue itself; the two must agree.
func TestWebhookJobsUseTheWebhooksQueue(t *testing.T) {
	t.Parallel()
	require.Equal(t, jobs.QueueWebhooks, app.QueueWebhooks)
	require.Equal(t, jobs.QueueWebhooks, app.FanOutEventArgs{}.InsertOpts().Queue)
	require.Equal(t, jobs.QueueWebhooks, app.DeliverWebhookArgs{}.InsertOpts().Queue)
	require.Equal(t, app.WebhookMaxAttempts, app.DeliverWebhookArgs{}.InsertOpts().MaxAttempts)
	require.Contains(t, jobs.Queues, jobs.QueueWebhooks)
}
