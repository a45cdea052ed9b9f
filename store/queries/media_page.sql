-- name: NameUpload :exec
-- Sets a new upload's name in the transaction that records it (CreateUpload stays the API's insert).
UPDATE uploads SET name = @name WHERE id = @id;

-- name: NameUploadSession :exec
UPDATE upload_sessions SET file_name = @file_name WHERE id = @id;

-- name: RenameUpload :one
UPDATE uploads SET name = @name, updated_at = now()
WHERE id = @id AND organization_id = @organization_id AND deleted_at IS NULL
RETURNING *;

-- name: ListMediaPage :many
-- The library's grid: GET /upload's filters plus a search of names (a substring, any case; strpos
-- so % and _ are plain characters) and a choice of order. Unnamed uploads sort after named ones.
SELECT u.* FROM uploads u
WHERE u.organization_id = @organization_id AND u.deleted_at IS NULL
  AND (sqlc.narg('team_id')::uuid IS NULL OR u.team_id = sqlc.narg('team_id')::uuid)
  AND (cardinality(@types::text[]) = 0 OR u.type = ANY(@types::text[]))
  AND (sqlc.narg('used')::boolean IS NULL OR sqlc.narg('used')::boolean = EXISTS (
        SELECT 1 FROM post_uploads pu WHERE pu.upload_id = u.id AND pu.deleted_at IS NULL))
  AND (@search::text = '' OR strpos(lower(u.name), lower(@search::text)) > 0)
ORDER BY
  CASE WHEN @sort::text = 'name' THEN lower(u.name) END ASC NULLS LAST,
  CASE WHEN @sort::text = 'size' THEN u.file_size END DESC,
  CASE WHEN @sort::text = 'oldest' THEN u.created_at END ASC,
  CASE WHEN @sort::text <> 'oldest' THEN u.created_at END DESC,
  u.id DESC
LIMIT @lim OFFSET @off;

-- name: ResolvePostFailedNotifications :execrows
-- A post published after a failure: its failed-publish notifications say so (data.resolvedAt) and
-- are read (nothing is left to act on).
UPDATE notifications SET data = data || jsonb_build_object('resolvedAt', @at::timestamptz),
    read_at = coalesce(read_at, @at::timestamptz)
WHERE organization_id = @organization_id AND type = 'POST_FAILED'
  AND data ->> 'postId' = @post_id::text AND NOT data ? 'resolvedAt';
