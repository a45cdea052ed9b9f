-- A team's portal links that still work, and ending one early (its expiry set to now: the portal
-- answers 404 for it from then on, as for an expired link).

-- name: ListOpenPortalLinks :many
SELECT id, allowed_types, redirect_url, expires_at, created_at FROM portal_links
WHERE team_id = @team_id AND organization_id = @organization_id AND expires_at > now()
ORDER BY created_at DESC, id
LIMIT 100;

-- name: EndPortalLink :one
UPDATE portal_links SET expires_at = now()
WHERE id = @id AND team_id = @team_id AND organization_id = @organization_id AND expires_at > now()
RETURNING id, allowed_types, expires_at;
