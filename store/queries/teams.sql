-- name: GetOrganization :one
SELECT * FROM organizations WHERE id = @id AND deleted_at IS NULL;

-- name: CreateTeam :one
INSERT INTO teams (organization_id, created_by_id, name, avatar_url)
VALUES (@organization_id, @created_by_id, @name, sqlc.narg('avatar_url'))
RETURNING *;

-- name: GetTeam :one
SELECT * FROM teams WHERE id = @id AND organization_id = @organization_id AND deleted_at IS NULL;

-- name: CountTeams :one
SELECT count(*) FROM teams
WHERE organization_id = @organization_id AND deleted_at IS NULL
  AND (sqlc.narg('search')::text IS NULL OR name ILIKE '%' || sqlc.narg('search')::text || '%');

-- name: ListTeams :many
SELECT * FROM teams
WHERE organization_id = @organization_id AND deleted_at IS NULL
  AND (sqlc.narg('search')::text IS NULL OR name ILIKE '%' || sqlc.narg('search')::text || '%')
ORDER BY created_at, id
LIMIT @lim OFFSET @off;

-- name: UpdateTeam :one
UPDATE teams SET name = @name, avatar_url = sqlc.narg('avatar_url'), updated_at = now()
WHERE id = @id AND organization_id = @organization_id AND deleted_at IS NULL
RETURNING *;

-- name: DeleteTeam :one
UPDATE teams SET deleted_at = now(), updated_at = now()
WHERE id = @id AND organization_id = @organization_id AND deleted_at IS NULL
RETURNING *;

-- name: LockOrganization :exec
-- Serialises quota checks (e.g. the team limit) of one organization.
SELECT id FROM organizations WHERE id = @id FOR UPDATE;

-- name: InsertEvent :one
INSERT INTO events (organization_id, kind, payload) VALUES (@organization_id, @kind, @payload) RETURNING id;
