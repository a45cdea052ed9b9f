-- name: NotifyMembers :many
-- One notification per member of the organization whose role is in roles (read state is per user).
-- An event feeds at most one notification per user (a fan-out run twice writes nothing twice).
INSERT INTO notifications (organization_id, user_id, type, title, message, link, data, event_id)
SELECT m.organization_id, m.user_id, @type, @title, @message, sqlc.narg('link'), @data, sqlc.narg('event_id')
FROM memberships m
WHERE m.organization_id = @organization_id AND m.role = ANY (@roles::text[])
ON CONFLICT DO NOTHING
RETURNING id;

-- name: CountNotifications :one
SELECT count(*) FROM notifications
WHERE organization_id = @organization_id AND user_id = @user_id
  AND (NOT @unread_only::boolean OR read_at IS NULL);

-- name: CountUnreadNotifications :one
SELECT count(*) FROM notifications WHERE organization_id = @organization_id AND user_id = @user_id AND read_at IS NULL;

-- name: ListNotifications :many
SELECT * FROM notifications
WHERE organization_id = @organization_id AND user_id = @user_id
  AND (NOT @unread_only::boolean OR read_at IS NULL)
ORDER BY created_at DESC, id DESC
LIMIT @lim OFFSET @off;

-- name: MarkNotificationRead :one
UPDATE notifications SET read_at = coalesce(read_at, @at::timestamptz)
WHERE id = @id AND organization_id = @organization_id AND user_id = @user_id
RETURNING *;

-- name: MarkAllNotificationsRead :execrows
UPDATE notifications SET read_at = @at::timestamptz
WHERE organization_id = @organization_id AND user_id = @user_id AND read_at IS NULL;
