-- The writes of POST and PATCH post, sent together in one batch by store.WritePost (post_write.go)
-- with the sqlc queries of posts.sql and identity.sql they sit beside.

-- name: CreatePost :one
-- InsertPost with the id chosen by the caller, so the post's targets and links go in the same batch.
INSERT INTO posts (id, organization_id, team_id, created_by_id, title, reference_key, post_date, status,
    social_account_types, data, first_comment, counted_at)
VALUES (@id, @organization_id, @team_id, sqlc.narg('created_by_id'), @title, sqlc.narg('reference_key'), @post_date, @status,
    @social_account_types, @data, sqlc.narg('first_comment'), sqlc.narg('counted_at'))
RETURNING *;

-- name: ReplacePostUploadLinks :many
-- ReplacePostUploads answering the post's live links (exactly upload_ids), for the record.
WITH gone AS (
    UPDATE post_uploads SET deleted_at = now(), updated_at = now()
    WHERE post_id = @post_id AND deleted_at IS NULL AND NOT (upload_id = ANY(@upload_ids::uuid[]))
)
INSERT INTO post_uploads (post_id, upload_id)
SELECT @post_id, u FROM unnest(@upload_ids::uuid[]) AS u
ON CONFLICT (post_id, upload_id) DO UPDATE SET deleted_at = NULL, updated_at = now()
RETURNING *;

-- name: ReadPostEditUploads :many
-- The organization's live uploads among ids (lower-case uuids: those UploadsOf's text match can
-- find) or linked to the post: what an edit checks, read before its new content is known.
SELECT * FROM uploads u WHERE u.organization_id = @organization_id AND u.deleted_at IS NULL
  AND u.id IN (SELECT unnest(@ids::uuid[])
               UNION SELECT pu.upload_id FROM post_uploads pu WHERE pu.post_id = @post_id AND pu.deleted_at IS NULL);
