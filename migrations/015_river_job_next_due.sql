-- PromoteDue's look-ahead (store.PromoteDueJobs: when is the queue's next job due) reads the first
-- entry past now() here instead of every pending job's in River's fetching index, whose priority
-- column sits before scheduled_at: that read grew with the jobs waiting (10,000 in a burst) and ran
-- at every wake-up. Partial: only the states the look-ahead reads (finished jobs are most rows).
CREATE INDEX river_job_next_due ON river_job (queue, scheduled_at) WHERE state IN ('scheduled', 'retryable', 'available');

---- create above / drop below ----

DROP INDEX river_job_next_due;
