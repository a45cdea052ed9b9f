package jobs

import (
	"context"
	"time"

	"github.com/riverqueue/river"

	"github.com/crier/crier/app"
)

// Social accounts: tokens are refreshed before they expire (every 5 minutes, those expiring within
// 20), and disconnected accounts are purged once their deleteOn has passed (every 10 minutes).

type socialAccountTokensRefreshWorker struct {
	river.WorkerDefaults[app.SocialAccountTokensRefreshArgs]
	svc *app.Service
}

func (w *socialAccountTokensRefreshWorker) Work(ctx context.Context, _ *river.Job[app.SocialAccountTokensRefreshArgs]) error {
	_, err := w.svc.RefreshDueTokens(ctx)
	return err
}

type socialAccountPurgeWorker struct {
	river.WorkerDefaults[app.SocialAccountPurgeArgs]
	svc *app.Service
}

func (w *socialAccountPurgeWorker) Work(ctx context.Context, _ *river.Job[app.SocialAccountPurgeArgs]) error {
	_, err := w.svc.PurgeDueSocialAccounts(ctx)
	return err
}

func addSocialAccountWorkers(workers *river.Workers, svc *app.Service) {
	river.AddWorker(workers, &socialAccountTokensRefreshWorker{svc: svc})
	river.AddWorker(workers, &socialAccountPurgeWorker{svc: svc})
}

func socialAccountPeriodicJobs() []*river.PeriodicJob {
	return []*river.PeriodicJob{
		river.NewPeriodicJob(river.PeriodicInterval(5*time.Minute),
			func() (river.JobArgs, *river.InsertOpts) { return app.SocialAccountTokensRefreshArgs{}, nil },
			&river.PeriodicJobOpts{RunOnStart: true}),
		river.NewPeriodicJob(river.PeriodicInterval(10*time.Minute),
			func() (river.JobArgs, *river.InsertOpts) { return app.SocialAccountPurgeArgs{}, nil },
			&river.PeriodicJobOpts{RunOnStart: true}),
	}
}
