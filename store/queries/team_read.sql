-- The read behind GET team: store.ReadTeam, one statement.

-- name: ReadTeamRecord :many
-- A team of the organization with the organization, its creator while not deleted (the record
-- shows a deleted one by id only) and the team's live accounts, one row per account (one row with
-- no account when it has none). Scanned by hand in store.ReadTeam, in this order.
SELECT t.id, t.organization_id, t.created_by_id, t.name, t.avatar_url, t.created_at, t.updated_at, t.deleted_at,
  o.id AS org_id, o.created_by_id AS org_created_by_id, o.name AS org_name, o.avatar_url AS org_avatar_url, o.ref, o.plan,
  o.api_access, o.suspended, o.analytics_disabled, o.analytics_posts_disabled, o.uploads_compression_enabled,
  o.show_verbose_errors, o.disconnect_check_enabled, o.delete_account_after, o.portal_brand_name, o.portal_logo_url,
  o.portal_accent_color, o.created_at AS org_created_at, o.updated_at AS org_updated_at, o.deleted_at AS org_deleted_at,
  u.id AS user_id, u.email, u.first_name, u.last_name, u.avatar_url AS user_avatar_url, u.timezone, u.email_verified_at,
  u.onboarded_at, u.created_at AS user_created_at, u.updated_at AS user_updated_at, u.deleted_at AS user_deleted_at,
  sa.id AS account_id, sa.type, sa.username, sa.display_name, sa.bio, sa.avatar_url AS account_avatar_url, sa.external_id,
  sa.provider_page_id, sa.user_username, sa.user_display_name, sa.user_email, sa.user_id AS account_user_id, sa.channels,
  sa.mastodon_server_id, sa.instagram_connection_method, sa.twitter_sub_type, sa.is_tiktok_business_account,
  sa.disconnected_check_try_at, sa.delete_on, sa.messaging_status, sa.messaging_status_updated_at, sa.messaging_last_error,
  sa.reconnect_required_at, sa.last_error, sa.created_at AS account_created_at, sa.updated_at AS account_updated_at
FROM teams t
JOIN organizations o ON o.id = t.organization_id
LEFT JOIN users u ON u.id = o.created_by_id AND u.deleted_at IS NULL
LEFT JOIN social_accounts sa ON sa.organization_id = t.organization_id AND sa.team_id = t.id AND sa.deleted_at IS NULL
WHERE t.id = @id AND t.organization_id = @organization_id AND t.deleted_at IS NULL
ORDER BY sa.created_at, sa.id;

-- name: ReadTeamAccounts :many
SELECT * FROM social_accounts WHERE organization_id = @organization_id AND team_id = @team_id AND deleted_at IS NULL
ORDER BY created_at, id;
