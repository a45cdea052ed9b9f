-- name: CreateUser :one
INSERT INTO users (email, password_hash, first_name, last_name)
VALUES (@email, @password_hash, @first_name, sqlc.narg('last_name'))
RETURNING *;

-- name: GetUserByEmail :one
SELECT * FROM users WHERE lower(email) = lower(@email) AND deleted_at IS NULL;

-- name: GetUser :one
SELECT * FROM users WHERE id = @id AND deleted_at IS NULL;

-- name: CreateOrganization :one
INSERT INTO organizations (created_by_id, name) VALUES (@created_by_id, @name) RETURNING *;

-- name: CreateMembership :one
INSERT INTO memberships (organization_id, user_id, role) VALUES (@organization_id, @user_id, @role) RETURNING *;

-- name: ListUserMemberships :many
SELECT m.id, m.organization_id, m.role, o.name AS organization_name
FROM memberships m JOIN organizations o ON o.id = m.organization_id
WHERE m.user_id = @user_id AND o.deleted_at IS NULL
ORDER BY m.created_at, m.id;

-- name: CreateAPIKey :one
INSERT INTO api_keys (organization_id, membership_id, name, prefix, secret_hash)
VALUES (@organization_id, @membership_id, @name, @prefix, @secret_hash)
RETURNING *;

-- name: GetAPIKeyForAuth :one
SELECT k.id, k.organization_id, k.membership_id, k.name, k.secret_hash, k.last_used_at,
       m.user_id, m.role
FROM api_keys k
JOIN memberships m ON m.id = k.membership_id
JOIN organizations o ON o.id = k.organization_id
JOIN users u ON u.id = m.user_id
WHERE k.prefix = @prefix AND k.revoked_at IS NULL
  AND o.deleted_at IS NULL AND NOT o.suspended AND o.api_access
  AND u.deleted_at IS NULL;

-- name: TouchAPIKey :exec
-- At most one write a minute per key, however many requests it makes.
UPDATE api_keys SET last_used_at = now()
WHERE id = @id AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute');

-- name: CountAPIKeys :one
SELECT count(*) FROM api_keys
WHERE organization_id = @organization_id AND revoked_at IS NULL
  AND (sqlc.narg('q')::text IS NULL OR name ILIKE '%' || sqlc.narg('q')::text || '%');

-- name: ListAPIKeys :many
SELECT * FROM api_keys
WHERE organization_id = @organization_id AND revoked_at IS NULL
  AND (sqlc.narg('q')::text IS NULL OR name ILIKE '%' || sqlc.narg('q')::text || '%')
ORDER BY created_at DESC, id
LIMIT @lim OFFSET @off;

-- name: RollAPIKey :one
UPDATE api_keys SET prefix = @prefix, secret_hash = @secret_hash, last_used_at = NULL
WHERE id = @id AND organization_id = @organization_id AND revoked_at IS NULL
RETURNING *;

-- name: RevokeAPIKey :one
UPDATE api_keys SET revoked_at = now()
WHERE id = @id AND organization_id = @organization_id AND revoked_at IS NULL
RETURNING *;

-- name: InsertAuditItem :exec
INSERT INTO audit_log (organization_id, actor_type, actor_id, actor_name, action, target_type, target_id, metadata)
VALUES (@organization_id, @actor_type, @actor_id, @actor_name, @action, @target_type, @target_id, @metadata);

-- name: UpdateUser :one
UPDATE users SET first_name = sqlc.narg('first_name'), last_name = sqlc.narg('last_name'),
    timezone = sqlc.narg('timezone'), avatar_url = sqlc.narg('avatar_url'), updated_at = now()
WHERE id = @id AND deleted_at IS NULL
RETURNING *;

-- name: SetUserOnboarded :exec
UPDATE users SET onboarded_at = coalesce(onboarded_at, now()), updated_at = now() WHERE id = @id;

-- name: GetMembership :one
SELECT m.id, m.organization_id, m.role, o.name AS organization_name
FROM memberships m JOIN organizations o ON o.id = m.organization_id
WHERE m.user_id = @user_id AND m.organization_id = @organization_id AND o.deleted_at IS NULL;

