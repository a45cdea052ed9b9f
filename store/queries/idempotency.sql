-- name: ClaimIdempotencyKey :one
-- Claims the key: a new row, or one past its 24 hours, or one whose request stopped heartbeating
-- (lease). No row back means another request holds the key (or held it within 24 hours).
INSERT INTO idempotency_keys (organization_id, key, fingerprint)
VALUES (@organization_id, @key, @fingerprint)
ON CONFLICT (organization_id, key) DO UPDATE
SET fingerprint = EXCLUDED.fingerprint, state = 'in_progress', response_status = NULL,
    content_type = NULL, response_body = NULL, created_at = now(), locked_at = now()
WHERE idempotency_keys.created_at < now() - make_interval(secs => @ttl_seconds::float8)
   OR (idempotency_keys.state = 'in_progress'
       AND idempotency_keys.locked_at < now() - make_interval(secs => @lease_seconds::float8))
RETURNING created_at;

-- name: GetIdempotencyKey :one
-- The key's row within its 24 hours.
SELECT * FROM idempotency_keys
WHERE organization_id = @organization_id AND key = @key
  AND created_at >= now() - make_interval(secs => @ttl_seconds::float8);

-- name: HeartbeatIdempotencyKey :exec
UPDATE idempotency_keys SET locked_at = now()
WHERE organization_id = @organization_id AND key = @key AND created_at = @created_at AND state = 'in_progress';

-- name: FinishIdempotencyKey :execrows
-- Stores the answer; created_at names the claim, so a claim taken over meanwhile is left alone.
UPDATE idempotency_keys
SET state = 'done', response_status = @response_status, content_type = @content_type, response_body = @response_body
WHERE organization_id = @organization_id AND key = @key AND created_at = @created_at AND state = 'in_progress';

-- name: ReleaseIdempotencyKey :exec
DELETE FROM idempotency_keys
WHERE organization_id = @organization_id AND key = @key AND created_at = @created_at AND state = 'in_progress';

-- name: PurgeIdempotencyKeys :execrows
DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(secs => @ttl_seconds::float8);
