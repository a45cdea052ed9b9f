-- name: ListPlatformStatuses :many
SELECT * FROM platform_status ORDER BY network;

-- name: SetPlatformStatus :one
UPDATE platform_status
SET status = @status, note = @note, until = sqlc.narg('until'), updated_at = now()
WHERE network = @network
RETURNING *;

-- name: ExpirePlatformStatuses :execrows
UPDATE platform_status
SET status = 'operational', note = '', until = NULL, updated_at = now()
WHERE until IS NOT NULL AND until <= now();
