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

-- The home page's two short lists: the next scheduled posts within a week ('upcoming'), and the
-- latest failures within the window ('failed'), five of each, in one statement.
-- name: ListOverviewPosts :many
(SELECT 'upcoming'::text AS list, p.id, p.title, p.post_date, p.social_account_types, p.error
   FROM posts p JOIN teams t ON t.id = p.team_id
  WHERE t.organization_id = @organization_id AND t.deleted_at IS NULL AND p.deleted_at IS NULL
    AND p.status = 'SCHEDULED' AND p.post_date < @until
  ORDER BY p.post_date, p.id LIMIT 5)
UNION ALL
(SELECT 'failed'::text AS list, p.id, p.title, p.post_date, p.social_account_types, p.error
   FROM posts p JOIN teams t ON t.id = p.team_id
  WHERE t.organization_id = @organization_id AND t.deleted_at IS NULL AND p.deleted_at IS NULL
    AND p.status = 'ERROR' AND p.post_date >= @since
  ORDER BY p.post_date DESC, p.id LIMIT 5);
