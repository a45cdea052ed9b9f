-- name: GetOrganizationRateLimits :one
SELECT per_second, per_10_seconds, per_minute FROM organization_rate_limits WHERE organization_id = $1;

-- name: SetOrganizationRateLimits :execrows
INSERT INTO organization_rate_limits (organization_id, per_second, per_10_seconds, per_minute)
SELECT o.id, sqlc.narg(per_second), sqlc.narg(per_10_seconds), sqlc.narg(per_minute)
FROM organizations o WHERE o.id = sqlc.arg(organization_id)
ON CONFLICT (organization_id) DO UPDATE
SET per_second = EXCLUDED.per_second, per_10_seconds = EXCLUDED.per_10_seconds,
    per_minute = EXCLUDED.per_minute, updated_at = now();
