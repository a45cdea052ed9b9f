package jobs

import (
	"context"
	"time"

	"github.com/riverqueue/river"

	"github.com/crier/crier/app"
)

// UploadCleanupInterval is how often unused uploads past their retention, the objects of deleted
// uploads and abandoned signed-URL uploads are removed.
const UploadCleanupInterval = time.Hour

type uploadCleanupWorker struct {
	river.WorkerDefaults[app.UploadCleanupArgs]
	svc *app.Service
}

func (w *uploadCleanupWorker) Work(ctx context.Context, _ *river.Job[app.UploadCleanupArgs]) error {
	_, err := w.svc.CleanupUploads(ctx)
	return err
}

func (w *uploadCleanupWorker) Timeout(*river.Job[app.UploadCleanupArgs]) time.Duration {
	return 10 * time.Minute
}

func uploadCleanupJob() *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(UploadCleanupInterval),
		func() (river.JobArgs, *river.InsertOpts) { return app.UploadCleanupArgs{}, nil }, nil)
}
