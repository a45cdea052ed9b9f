-- The reads behind a post's record (GET post, GET post list), sent together in one round trip by
-- store.ReadPosts. Each is scoped by the organization: the batch runs before the posts are known.

-- name: ReadPostsOfOrg :many
SELECT * FROM posts WHERE organization_id = @organization_id AND id = ANY(@ids::uuid[]);

-- name: ReadOrgShowVerboseErrors :one
SELECT show_verbose_errors FROM organizations WHERE id = @id;

-- name: ReadTeamLive :one
SELECT EXISTS (SELECT 1 FROM teams WHERE id = @id AND organization_id = @organization_id AND deleted_at IS NULL);

-- name: ReadPostTargets :many
SELECT * FROM publish_targets WHERE organization_id = @organization_id AND post_id = ANY(@post_ids::uuid[])
ORDER BY post_id, kind, network;

-- name: ReadPostUploadLinks :many
SELECT pu.* FROM post_uploads pu JOIN posts p ON p.id = pu.post_id
WHERE p.organization_id = @organization_id AND pu.post_id = ANY(@post_ids::uuid[]) AND pu.deleted_at IS NULL
ORDER BY pu.created_at, pu.upload_id;

-- name: ReadPostUploads :many
-- The live uploads the posts use (what UploadsOf answers for the links' ids).
SELECT * FROM uploads u WHERE u.organization_id = @organization_id AND u.deleted_at IS NULL
  AND u.id IN (SELECT pu.upload_id FROM post_uploads pu WHERE pu.post_id = ANY(@post_ids::uuid[]) AND pu.deleted_at IS NULL);

-- name: ReadPostAccounts :many
-- The live accounts of the posts' teams (what ListTeamSocialAccounts answers for them).
SELECT * FROM social_accounts sa WHERE sa.organization_id = @organization_id AND sa.deleted_at IS NULL
  AND sa.team_id IN (SELECT p.team_id FROM posts p WHERE p.organization_id = @organization_id AND p.id = ANY(@post_ids::uuid[]))
ORDER BY sa.created_at, sa.id;
