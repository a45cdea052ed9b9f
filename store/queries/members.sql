-- name: CountMembers :one
SELECT count(*) FROM memberships WHERE organization_id = @organization_id;

-- name: ListMembers :many
SELECT m.id, m.user_id, m.role, m.created_at, u.email, u.first_name, u.last_name
FROM memberships m JOIN users u ON u.id = m.user_id
WHERE m.organization_id = @organization_id
ORDER BY m.created_at, m.id
LIMIT @lim OFFSET @off;

-- name: GetMember :one
SELECT m.id, m.user_id, m.role, m.created_at, u.email, u.first_name, u.last_name
FROM memberships m JOIN users u ON u.id = m.user_id
WHERE m.id = @id AND m.organization_id = @organization_id
FOR UPDATE OF m;

-- name: CountOwners :one
SELECT count(*) FROM memberships WHERE organization_id = @organization_id AND role = 'OWNER';

-- name: UpdateMemberRole :exec
UPDATE memberships SET role = @role, updated_at = now() WHERE id = @id AND organization_id = @organization_id;

-- name: DeleteMember :exec
-- The member's API keys go with the membership (ON DELETE CASCADE).
DELETE FROM memberships WHERE id = @id AND organization_id = @organization_id;

-- name: SetPassword :one
UPDATE users SET password_hash = @password_hash, session_generation = session_generation + 1, updated_at = now()
WHERE id = @id
RETURNING session_generation;
