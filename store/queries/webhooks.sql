-- name: CreateWebhook :one
INSERT INTO webhooks (organization_id, url, events, active, secret_enc)
VALUES (@organization_id, @url, @events, @active, @secret_enc)
RETURNING *;

-- name: SetWebhookSecret :one
-- The first secret of a new webhook (encrypted with its id known) or a rotation.
UPDATE webhooks SET secret_enc = @secret_enc, previous_secret_enc = sqlc.narg('previous_secret_enc'),
    previous_secret_until = sqlc.narg('previous_secret_until'), updated_at = now()
WHERE id = @id AND organization_id = @organization_id
RETURNING *;

-- name: GetWebhook :one
SELECT * FROM webhooks WHERE id = @id AND organization_id = @organization_id;

-- name: GetWebhookForUpdate :one
SELECT * FROM webhooks WHERE id = @id AND organization_id = @organization_id FOR UPDATE;

-- name: CountWebhooks :one
SELECT count(*) FROM webhooks WHERE organization_id = @organization_id;

-- name: ListWebhooks :many
SELECT * FROM webhooks WHERE organization_id = @organization_id
ORDER BY created_at, id
LIMIT @lim OFFSET @off;

-- name: UpdateWebhook :one
-- Reactivating clears the failure streak, so the deactivation clock starts afresh.
UPDATE webhooks SET url = @url, events = @events, active = @active,
    failing_since = CASE WHEN @active AND NOT active THEN NULL ELSE failing_since END,
    deactivated_at = CASE WHEN @active THEN NULL ELSE deactivated_at END,
    updated_at = now()
WHERE id = @id AND organization_id = @organization_id
RETURNING *;

-- name: DeleteWebhook :one
DELETE FROM webhooks WHERE id = @id AND organization_id = @organization_id RETURNING *;

-- name: GetEvent :one
SELECT * FROM events WHERE id = @id;

-- name: CreateDeliveriesForEvent :many
-- One PENDING delivery per active webhook of the event's organization subscribed to its kind;
-- a second run creates nothing (the unique (webhook_id, event_id)) and answers only new rows.
INSERT INTO webhook_deliveries (organization_id, webhook_id, event_id, event, payload)
SELECT w.organization_id, w.id, e.id, e.kind, jsonb_build_object('type', e.kind, 'data', e.payload)
FROM events e JOIN webhooks w ON w.organization_id = e.organization_id AND w.active AND e.kind = ANY (w.events)
WHERE e.id = @event_id
ON CONFLICT (webhook_id, event_id) DO NOTHING
RETURNING id;

-- name: CreateDelivery :one
INSERT INTO webhook_deliveries (organization_id, webhook_id, event_id, event, payload)
VALUES (@organization_id, @webhook_id, @event_id, @event, @payload)
RETURNING *;

-- name: GetDelivery :one
SELECT * FROM webhook_deliveries WHERE id = @id;

-- name: GetWebhookDelivery :one
SELECT * FROM webhook_deliveries WHERE id = @id AND webhook_id = @webhook_id AND organization_id = @organization_id;

-- name: CountDeliveries :one
SELECT count(*) FROM webhook_deliveries
WHERE webhook_id = @webhook_id AND organization_id = @organization_id
  AND (sqlc.narg('status')::text IS NULL OR status = sqlc.narg('status')::text);

-- name: ListDeliveries :many
SELECT * FROM webhook_deliveries
WHERE webhook_id = @webhook_id AND organization_id = @organization_id
  AND (sqlc.narg('status')::text IS NULL OR status = sqlc.narg('status')::text)
ORDER BY created_at DESC, id DESC
LIMIT @lim OFFSET @off;

-- name: RecordDeliveryAttempt :one
UPDATE webhook_deliveries SET attempt = attempt + 1, status = @status, response_code = sqlc.narg('response_code'),
    response_body = sqlc.narg('response_body'), duration_ms = sqlc.narg('duration_ms'),
    next_attempt_at = sqlc.narg('next_attempt_at'), updated_at = @at
WHERE id = @id
RETURNING *;

-- name: FailDelivery :one
-- Ends a delivery without an attempt (its webhook was deactivated meanwhile).
UPDATE webhook_deliveries SET status = 'FAILED', next_attempt_at = NULL, response_body = @reason, updated_at = @at
WHERE id = @id AND status = 'PENDING'
RETURNING *;

-- name: MarkWebhookSucceeded :exec
UPDATE webhooks SET failing_since = NULL WHERE id = @id AND failing_since IS NOT NULL;

-- name: MarkWebhookFailing :exec
UPDATE webhooks SET failing_since = @at::timestamptz WHERE id = @id AND failing_since IS NULL;

-- name: DeactivateFailingWebhooks :many
-- Active webhooks whose deliveries have all failed since before the cutoff become inactive.
UPDATE webhooks SET active = false, deactivated_at = @at::timestamptz, updated_at = now()
WHERE active AND failing_since IS NOT NULL AND failing_since < @cutoff::timestamptz
RETURNING *;

-- name: ListOrganizationOwners :many
SELECT u.id, u.email, u.first_name FROM memberships m JOIN users u ON u.id = m.user_id
WHERE m.organization_id = @organization_id AND m.role = 'OWNER' AND u.deleted_at IS NULL
ORDER BY m.created_at, m.id;
