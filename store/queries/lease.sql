-- The publish attempt's lease (app/publishing/publish_lease.go).

-- name: RenewAttemptLease :execrows
-- The heartbeat of a running attempt: its lease now starts at renewed_at. Only while the attempt is
-- still the caller's (started_at as it last wrote it): a lapsed lease another attempt took over is
-- left alone.
UPDATE publish_targets SET attempt_started_at = @renewed_at
WHERE id = @id AND attempt_started_at = @started_at;
