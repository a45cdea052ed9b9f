-- The reads behind a post's record (GET post, GET post list), sent together in one round trip by
-- store.ReadPosts. Each is scoped by the organization: the batch runs before the posts are known.

-- name: ReadPostsOfOrg :many
-- The columns a post's record shows (scanned by hand in store.ReadPosts, in this order), with the
-- organization's showVerboseErrors, which every record needs.
SELECT p.id, p.organization_id, p.team_id, p.title, p.reference_key, p.post_date, p.posted_date, p.status,
  p.social_account_types, p.data, p.first_comment, p.error, p.review_note, p.retry_count, p.created_at, p.updated_at,
  p.deleted_at, o.show_verbose_errors AS org_show_verbose_errors
FROM posts p JOIN organizations o ON o.id = p.organization_id
WHERE p.organization_id = @organization_id AND p.id = ANY(@ids::uuid[]);

-- name: ReadOrgShowVerboseErrors :one
-- For a page without posts (nothing else needs it then, but the batch stays the same shape).
SELECT show_verbose_errors FROM organizations WHERE id = @id;

-- name: ReadTeamLive :one
SELECT EXISTS (SELECT 1 FROM teams WHERE id = @id AND organization_id = @organization_id AND deleted_at IS NULL);

-- name: ReadPostUploadLinks :many
-- The posts' upload links with their live uploads (a link to a deleted upload is not shown).
SELECT pu.post_id, pu.upload_id, pu.created_at, pu.updated_at, pu.deleted_at,
  u.organization_id, u.team_id, u.type, u.name, u.mime, u.ext, u.path, u.thumbnail_path, u.icon_path, u.external_link,
  u.width, u.height, u.file_size, u.video_length, u.created_at AS upload_created_at, u.updated_at AS upload_updated_at
FROM post_uploads pu JOIN uploads u ON u.id = pu.upload_id
WHERE u.organization_id = @organization_id AND u.deleted_at IS NULL AND pu.post_id = ANY(@post_ids::uuid[]) AND pu.deleted_at IS NULL
ORDER BY pu.created_at, pu.upload_id;

-- name: ReadPostForUpdate :many
-- PATCH post's first read (store.ReadPostForUpdate), batched with its team's accounts.
SELECT * FROM posts WHERE id = @id AND organization_id = @organization_id FOR UPDATE;

-- name: ReadPostTeamAccounts :many
-- The live accounts of a post's team (a post never changes team).
SELECT * FROM social_accounts sa WHERE sa.organization_id = @organization_id AND sa.deleted_at IS NULL
  AND sa.team_id = (SELECT p.team_id FROM posts p WHERE p.id = @post_id AND p.organization_id = @organization_id)
ORDER BY sa.created_at, sa.id;
