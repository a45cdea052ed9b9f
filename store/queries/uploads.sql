-- name: CreateUpload :one
INSERT INTO uploads (organization_id, team_id, created_by_id, type, mime, ext, path, thumbnail_path, icon_path,
    external_link, width, height, file_size, video_length)
VALUES (@organization_id, sqlc.narg('team_id'), sqlc.narg('created_by_id'), @type, @mime, @ext, @path,
    sqlc.narg('thumbnail_path'), sqlc.narg('icon_path'), sqlc.narg('external_link'), sqlc.narg('width'),
    sqlc.narg('height'), @file_size, sqlc.narg('video_length'))
RETURNING *;

-- name: GetUpload :one
SELECT * FROM uploads WHERE id = @id AND organization_id = @organization_id AND deleted_at IS NULL;

-- name: ListUploads :many
-- Every filter of GET /upload; an empty array or NULL does not filter. ids are compared as text so
-- that a malformed id matches nothing instead of failing.
SELECT u.* FROM uploads u
WHERE u.organization_id = @organization_id AND u.deleted_at IS NULL
  AND (sqlc.narg('team_id')::uuid IS NULL OR u.team_id = sqlc.narg('team_id')::uuid)
  AND (cardinality(@types::text[]) = 0 OR u.type = ANY(@types::text[]))
  AND (cardinality(@ids::text[]) = 0 OR u.id::text = ANY(@ids::text[]))
  AND (cardinality(@paths::text[]) = 0 OR u.path = ANY(@paths::text[]))
  AND (sqlc.narg('used')::boolean IS NULL OR sqlc.narg('used')::boolean = EXISTS (
        SELECT 1 FROM post_uploads pu WHERE pu.upload_id = u.id AND pu.deleted_at IS NULL))
ORDER BY u.created_at DESC, u.id DESC
LIMIT @lim OFFSET @off;

-- name: ListUploadPostLinks :many
SELECT * FROM post_uploads WHERE upload_id = ANY(@upload_ids::uuid[]) AND deleted_at IS NULL
ORDER BY created_at, post_id;

-- name: GetUploadsByIDs :many
SELECT * FROM uploads
WHERE organization_id = @organization_id AND deleted_at IS NULL AND id::text = ANY(@ids::text[])
ORDER BY created_at, id
FOR UPDATE;

-- name: SoftDeleteUploads :many
UPDATE uploads SET deleted_at = now(), updated_at = now()
WHERE organization_id = @organization_id AND deleted_at IS NULL AND id = ANY(@ids::uuid[])
RETURNING *;

-- name: CountUploadsSince :one
-- Uploads made since a time, deleted ones included: the monthly quota counts uploads made.
SELECT count(*) FROM uploads WHERE organization_id = @organization_id AND created_at >= @since;

-- name: TeamExists :one
SELECT EXISTS (SELECT 1 FROM teams WHERE id = @id AND organization_id = @organization_id AND deleted_at IS NULL);

-- name: CreateUploadSession :one
INSERT INTO upload_sessions (organization_id, team_id, created_by_id, path, declared_mime, file_size, multipart_id, part_size)
VALUES (@organization_id, sqlc.narg('team_id'), sqlc.narg('created_by_id'), @path, @declared_mime,
    sqlc.narg('file_size'), sqlc.narg('multipart_id'), sqlc.narg('part_size'))
RETURNING *;

-- name: GetUploadSession :one
-- Locks the session: finalize, complete and abort of one path run one at a time.
SELECT * FROM upload_sessions WHERE path = @path AND organization_id = @organization_id FOR UPDATE;

-- name: CompleteUploadSession :exec
UPDATE upload_sessions SET completed_at = now(), upload_id = @upload_id WHERE id = @id;

-- name: AbortUploadSession :exec
UPDATE upload_sessions SET aborted_at = now() WHERE id = @id AND completed_at IS NULL;

-- name: ListStaleUploadSessions :many
-- Signed-URL uploads started before a time and never finished: their bytes or parts are abandoned.
SELECT * FROM upload_sessions
WHERE completed_at IS NULL AND aborted_at IS NULL AND created_at < @before
ORDER BY created_at
LIMIT @lim
FOR UPDATE SKIP LOCKED;

-- name: ListExpiredUnusedUploads :many
-- Uploads older than the retention that no post uses.
SELECT u.* FROM uploads u
WHERE u.deleted_at IS NULL AND u.created_at < @before
  AND NOT EXISTS (SELECT 1 FROM post_uploads pu WHERE pu.upload_id = u.id AND pu.deleted_at IS NULL)
ORDER BY u.created_at
LIMIT @lim
FOR UPDATE OF u SKIP LOCKED;

-- name: ListUnpurgedUploads :many
-- Deleted uploads whose objects are still in storage.
SELECT * FROM uploads WHERE deleted_at IS NOT NULL AND purged_at IS NULL
ORDER BY deleted_at
LIMIT @lim;

-- name: MarkUploadsPurged :exec
UPDATE uploads SET purged_at = now() WHERE id = ANY(@ids::uuid[]);
