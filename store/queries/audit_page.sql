-- The audit log as the dashboard reads it: each line with the names of its actor and its target as
-- they are now (or as the line recorded them once the thing is gone), filtered by actor and by the
-- kind of action. Targets' ids are uuids for every type resolved here (the CASE guards the casts).

-- name: ListAuditLogNamed :many
SELECT a.id, a.actor_type, a.actor_id, a.actor_name, a.action, a.target_type, a.target_id, a.metadata, a.created_at,
    coalesce(CASE WHEN a.actor_type = 'USER' AND a.actor_id ~ '^[0-9a-f-]{36}$' THEN
        (SELECT NULLIF(trim(concat_ws(' ', u.first_name, u.last_name)), '') FROM users u WHERE u.id = a.actor_id::uuid)
    END, '')::text AS actor_person,
    coalesce(CASE WHEN a.target_id IS NULL OR a.target_id !~ '^[0-9a-f-]{36}$' THEN NULL
        WHEN a.target_type = 'team' THEN (SELECT t.name FROM teams t WHERE t.id = a.target_id::uuid)
        WHEN a.target_type = 'api_key' THEN (SELECT k.name FROM api_keys k WHERE k.id = a.target_id::uuid)
        WHEN a.target_type = 'webhook' THEN (SELECT w.url FROM webhooks w WHERE w.id = a.target_id::uuid)
        WHEN a.target_type = 'post' THEN (SELECT p.title FROM posts p WHERE p.id = a.target_id::uuid)
        WHEN a.target_type = 'invitation' THEN (SELECT i.email FROM invitations i WHERE i.id = a.target_id::uuid)
        WHEN a.target_type = 'organization' THEN (SELECT o.name FROM organizations o WHERE o.id = a.target_id::uuid)
        WHEN a.target_type = 'user' THEN (SELECT coalesce(NULLIF(trim(concat_ws(' ', u.first_name, u.last_name)), ''), u.email)
            FROM users u WHERE u.id = a.target_id::uuid)
        WHEN a.target_type = 'member' THEN (SELECT coalesce(NULLIF(trim(concat_ws(' ', u.first_name, u.last_name)), ''), u.email)
            FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.id = a.target_id::uuid)
        WHEN a.target_type = 'social_account' THEN (SELECT coalesce(s.display_name, s.username) FROM social_accounts s WHERE s.id = a.target_id::uuid)
    END, '')::text AS target_name
FROM audit_log a
WHERE a.organization_id = @organization_id
  AND (sqlc.narg('actor_id')::text IS NULL OR a.actor_id = sqlc.narg('actor_id'))
  AND (sqlc.narg('action_prefix')::text IS NULL OR starts_with(a.action, sqlc.narg('action_prefix')))
ORDER BY a.created_at DESC, a.id DESC
LIMIT @lim OFFSET @off;

-- name: CountAuditLogFiltered :one
SELECT count(*) FROM audit_log a
WHERE a.organization_id = @organization_id
  AND (sqlc.narg('actor_id')::text IS NULL OR a.actor_id = sqlc.narg('actor_id'))
  AND (sqlc.narg('action_prefix')::text IS NULL OR starts_with(a.action, sqlc.narg('action_prefix')));

-- Everyone and every key that appears in the log, for the actor filter: the latest name recorded.
-- name: ListAuditActors :many
SELECT DISTINCT ON (a.actor_type, a.actor_id) a.actor_type, a.actor_id::text AS actor_id,
    coalesce(CASE WHEN a.actor_type = 'USER' AND a.actor_id ~ '^[0-9a-f-]{36}$' THEN
        (SELECT NULLIF(trim(concat_ws(' ', u.first_name, u.last_name)), '') FROM users u WHERE u.id = a.actor_id::uuid) END,
        a.actor_name, '')::text AS name
FROM audit_log a
WHERE a.organization_id = @organization_id AND a.actor_id IS NOT NULL
ORDER BY a.actor_type, a.actor_id, a.created_at DESC;
