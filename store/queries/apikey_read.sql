-- name: TouchAPIKeys :exec
-- The background flush of lastUsedAt (app/keycache.go): still at most one write a minute per key.
UPDATE api_keys SET last_used_at = now()
WHERE id = ANY(@ids::uuid[]) AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute');
