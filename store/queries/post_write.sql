-- The writes of POST and PATCH post, sent together in one batch by store.WritePost (post_write.go)
-- with the sqlc queries of posts.sql and identity.sql they sit beside.

-- name: CreatePost :one
-- The id is chosen by the caller, so the post's targets and links go in the same batch.
INSERT INTO posts (id, organization_id, team_id, created_by_id, title, reference_key, post_date, status,
    social_account_types, data, first_comment, counted_at)
VALUES (@id, @organization_id, @team_id, sqlc.narg('created_by_id'), @title, sqlc.narg('reference_key'), @post_date, @status,
    @social_account_types, @data, sqlc.narg('first_comment'), sqlc.narg('counted_at'))
RETURNING *;

-- name: ReplacePostUploadLinks :many
-- Makes the post's live links exactly upload_ids (others soft-deleted), answering them for the record.
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

-- An edit reads the post and its targets without a lock, with their row versions (xmin, which
-- every update of a row changes), and writes them only if those are still the versions: the
-- optimistic check below begins the edit's write batch. Its last try locks the post as it reads.
-- The post (with its team's accounts) is read by store.readPostToEditWithAccounts (post_write.go),
-- as the team of a new post is by readTeamForPostWithAccounts.

-- name: ReadPostEditTargets :many
SELECT t.*, t.xmin::text AS row_version FROM publish_targets t WHERE t.organization_id = @organization_id AND t.post_id = @post_id
ORDER BY t.kind, t.network;

-- name: LockPostAsRead :one
-- Locks the post if it is the version read, and fails otherwise (post_unchanged raises CR409),
-- which undoes the batch it begins before anything is written (store.ErrPostChanged).
SELECT post_unchanged(count(*) = 1) AS ok FROM (SELECT q.xmin::text AS v FROM posts q WHERE q.id = @id FOR UPDATE) p WHERE p.v = @row_version::text;

-- name: CheckPostTargetsAsRead :one
-- After LockPostAsRead, with a snapshot taken once the post is locked: fails the same way unless
-- the post's targets are exactly the versions read ("id@xmin").
SELECT post_unchanged((SELECT coalesce(array_agg(v ORDER BY v), '{}') FROM (SELECT t.id::text || '@' || t.xmin::text AS v FROM publish_targets t WHERE t.post_id = @post_id) cur)
          = (SELECT coalesce(array_agg(v ORDER BY v), '{}') FROM unnest(@row_versions::text[]) v)) AS ok;
