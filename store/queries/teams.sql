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
-- Stores an event and says whether an active webhook of the organization subscribes to its kind
-- (emit skips the fan-out otherwise), in one round trip.
WITH e AS (INSERT INTO events (organization_id, kind, payload) VALUES (@organization_id, @kind, @payload) RETURNING id)
SELECT e.id, EXISTS (SELECT 1 FROM webhooks w WHERE w.organization_id = @organization_id AND w.active AND @kind::text = ANY (w.events)) AS subscribed
FROM e;

-- name: ListOrganizationTeams :many
SELECT * FROM teams WHERE organization_id = @organization_id AND deleted_at IS NULL ORDER BY created_at, id;

-- name: UpdateOrganizationSettings :one
UPDATE organizations SET name = @name, uploads_compression_enabled = @uploads_compression_enabled,
    show_verbose_errors = @show_verbose_errors, disconnect_check_enabled = @disconnect_check_enabled,
    delete_account_after = @delete_account_after, portal_brand_name = sqlc.narg('portal_brand_name'),
    portal_logo_url = sqlc.narg('portal_logo_url'), portal_accent_color = sqlc.narg('portal_accent_color'),
    updated_at = now()
WHERE id = @id AND deleted_at IS NULL
RETURNING *;

-- name: SoftDeleteOrganization :exec
UPDATE organizations SET deleted_at = now(), updated_at = now() WHERE id = @id AND deleted_at IS NULL;

-- name: RevokeOrganizationKeys :exec
UPDATE api_keys SET revoked_at = now() WHERE organization_id = @organization_id AND revoked_at IS NULL;
