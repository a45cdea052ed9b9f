-- name: CountTeamPostsWithStatus :one
-- The posts page's "Needs review" count: a count, not a page of posts.
SELECT count(*) FROM posts
WHERE organization_id = @organization_id AND team_id = @team_id AND status = @status AND deleted_at IS NULL;
