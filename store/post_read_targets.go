package store

// readPostTargetsOfOrg reads the posts' targets (not their payloads, checkpoints or leases: the bulk
// of a row), each with its live account without the tokens a record never shows. It does not join
// the targets' posts: an account comes whatever its team, and ReadPosts keeps it only when it is of
// the target's post's team (known from the batch's first statement); a page's 40 targets made 40
// lookups of their posts for that comparison (issue 15). The last two columns are the target's and
// the account's xmins (the posts' versions, store/post_version.go).
const readPostTargetsOfOrg = `-- name: ReadPostTargetsOfOrg
SELECT t.id, t.kind, t.post_id, t.network, t.social_account_id, t.status, t.attempts, t.next_attempt_at, t.external_id,
  t.permalink, t.error, t.error_verbose, t.posted_at, t.created_at, t.updated_at,
  sa.id AS account_id, sa.team_id, sa.type, sa.username, sa.display_name, sa.bio, sa.avatar_url, sa.external_id AS account_external_id,
  sa.provider_page_id, sa.user_username, sa.user_display_name, sa.user_email, sa.user_id, sa.channels, sa.mastodon_server_id,
  sa.instagram_connection_method, sa.twitter_sub_type, sa.is_tiktok_business_account, sa.disconnected_check_try_at,
  sa.delete_on, sa.messaging_status, sa.messaging_status_updated_at, sa.messaging_last_error, sa.reconnect_required_at,
  sa.last_error, sa.created_at AS account_created_at, sa.updated_at AS account_updated_at,
  t.xmin AS target_xmin, sa.xmin AS account_xmin
FROM publish_targets t
LEFT JOIN social_accounts sa ON sa.id = t.social_account_id AND sa.organization_id = t.organization_id AND sa.deleted_at IS NULL
WHERE t.organization_id = $1 AND t.post_id = ANY($2::uuid[])
ORDER BY t.post_id, t.kind, t.network`
