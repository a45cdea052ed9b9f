-- The dashboard home's figures for one organization, in one statement. Post counts go through the
-- organization's teams so each uses posts_team_date_idx rather than scanning every post.

-- name: GetOrganizationOverview :one
SELECT
    (SELECT count(*) FROM posts p JOIN teams t ON t.id = p.team_id
      WHERE t.organization_id = @organization_id AND t.deleted_at IS NULL AND p.deleted_at IS NULL
        AND p.status = 'SCHEDULED')::int AS scheduled,
    (SELECT count(*) FROM posts p JOIN teams t ON t.id = p.team_id
      WHERE t.organization_id = @organization_id AND t.deleted_at IS NULL AND p.deleted_at IS NULL
        AND p.status = 'POSTED' AND p.post_date >= @since)::int AS published,
    (SELECT count(*) FROM posts p JOIN teams t ON t.id = p.team_id
      WHERE t.organization_id = @organization_id AND t.deleted_at IS NULL AND p.deleted_at IS NULL
        AND p.status = 'ERROR' AND p.post_date >= @since)::int AS failed,
    EXISTS (SELECT 1 FROM social_accounts WHERE organization_id = @organization_id AND deleted_at IS NULL) AS has_account,
    EXISTS (SELECT 1 FROM uploads WHERE organization_id = @organization_id AND deleted_at IS NULL) AS has_upload,
    EXISTS (SELECT 1 FROM posts p JOIN teams t ON t.id = p.team_id
      WHERE t.organization_id = @organization_id AND t.deleted_at IS NULL AND p.deleted_at IS NULL) AS has_post,
    EXISTS (SELECT 1 FROM api_keys WHERE organization_id = @organization_id AND revoked_at IS NULL) AS has_api_key;
