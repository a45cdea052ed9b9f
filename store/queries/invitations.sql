-- name: ListInvitations :many
SELECT * FROM invitations
WHERE organization_id = @organization_id AND accepted_at IS NULL AND revoked_at IS NULL
ORDER BY created_at DESC, id;

-- name: GetPendingInvitationByEmail :one
SELECT * FROM invitations
WHERE organization_id = @organization_id AND lower(email) = lower(@email) AND accepted_at IS NULL AND revoked_at IS NULL
FOR UPDATE;

-- name: CreateInvitation :one
INSERT INTO invitations (organization_id, email, role, token_hash, invited_by_id, created_at, expires_at)
VALUES (@organization_id, @email, @role, @token_hash, @invited_by_id, @created_at, @expires_at)
RETURNING *;

-- name: RefreshInvitation :one
-- A new token (the old link stops working), role, inviter and expiry for a pending invitation.
UPDATE invitations SET email = @email, role = @role, token_hash = @token_hash, invited_by_id = @invited_by_id,
    created_at = @created_at, expires_at = @expires_at
WHERE id = @id AND organization_id = @organization_id AND accepted_at IS NULL AND revoked_at IS NULL
RETURNING *;

-- name: RevokeInvitation :one
UPDATE invitations SET revoked_at = @revoked_at
WHERE id = @id AND organization_id = @organization_id AND accepted_at IS NULL AND revoked_at IS NULL
RETURNING *;

-- name: GetInvitationByToken :one
-- With its organization and inviter, for the accept page and the accept itself.
SELECT i.*, o.name AS organization_name, o.deleted_at AS organization_deleted_at,
       u.email AS inviter_email, u.first_name AS inviter_first_name, u.last_name AS inviter_last_name
FROM invitations i
JOIN organizations o ON o.id = i.organization_id
LEFT JOIN users u ON u.id = i.invited_by_id
WHERE i.token_hash = @token_hash
FOR UPDATE OF i;

-- name: AcceptInvitation :exec
UPDATE invitations SET accepted_at = @accepted_at, accepted_by_id = @accepted_by_id WHERE id = @id;

-- name: IsMemberByEmail :one
SELECT EXISTS (
    SELECT 1 FROM memberships m JOIN users u ON u.id = m.user_id
    WHERE m.organization_id = @organization_id AND lower(u.email) = lower(@email) AND u.deleted_at IS NULL
);
