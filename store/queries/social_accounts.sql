-- name: GetSocialAccountByType :one
SELECT * FROM social_accounts
WHERE organization_id = @organization_id AND team_id = @team_id AND type = @type AND deleted_at IS NULL;

-- name: GetSocialAccount :one
SELECT * FROM social_accounts WHERE id = @id AND organization_id = @organization_id AND deleted_at IS NULL;

-- name: GetSocialAccountAny :one
-- Any row of the organization, live or disconnected (still before its purge).
SELECT * FROM social_accounts WHERE id = @id AND organization_id = @organization_id;

-- name: LatestDeletedSocialAccount :one
SELECT * FROM social_accounts
WHERE organization_id = @organization_id AND team_id = @team_id AND type = @type AND deleted_at IS NOT NULL
ORDER BY deleted_at DESC LIMIT 1;

-- name: InsertSocialAccount :one
INSERT INTO social_accounts (organization_id, team_id, type) VALUES (@organization_id, @team_id, @type) RETURNING *;

-- name: UpdateSocialAccountConnection :one
-- Stores what a connect (or a reconnect) learnt: profile, tokens; the account is live again.
UPDATE social_accounts SET
    username = sqlc.narg('username'), display_name = sqlc.narg('display_name'), bio = sqlc.narg('bio'),
    avatar_url = sqlc.narg('avatar_url'), external_id = sqlc.narg('external_id'),
    user_username = sqlc.narg('user_username'), user_display_name = sqlc.narg('user_display_name'),
    user_email = sqlc.narg('user_email'), user_id = sqlc.narg('user_id'),
    mastodon_server_id = sqlc.narg('mastodon_server_id'),
    instagram_connection_method = sqlc.narg('instagram_connection_method'),
    twitter_sub_type = sqlc.narg('twitter_sub_type'), is_tiktok_business_account = sqlc.narg('is_tiktok_business_account'),
    access_token_enc = sqlc.narg('access_token_enc'), refresh_token_enc = sqlc.narg('refresh_token_enc'),
    secrets_enc = sqlc.narg('secrets_enc'), token_expires_at = sqlc.narg('token_expires_at'), token_scope = sqlc.narg('token_scope'),
    reconnect_required_at = NULL, last_error = NULL, disconnected_check_try_at = NULL,
    deleted_at = NULL, delete_on = NULL, updated_at = now()
WHERE id = @id
RETURNING *;

-- name: UpdateSocialAccountProfile :one
UPDATE social_accounts SET
    username = sqlc.narg('username'), display_name = sqlc.narg('display_name'), bio = sqlc.narg('bio'),
    avatar_url = sqlc.narg('avatar_url'), user_username = sqlc.narg('user_username'),
    user_display_name = sqlc.narg('user_display_name'), user_email = sqlc.narg('user_email'), updated_at = now()
WHERE id = @id AND deleted_at IS NULL
RETURNING *;

-- name: UpdateSocialAccountTokens :one
UPDATE social_accounts SET
    access_token_enc = sqlc.narg('access_token_enc'), refresh_token_enc = sqlc.narg('refresh_token_enc'),
    secrets_enc = sqlc.narg('secrets_enc'), token_expires_at = sqlc.narg('token_expires_at'),
    token_scope = sqlc.narg('token_scope'), reconnect_required_at = NULL, last_error = NULL, updated_at = now()
WHERE id = @id
RETURNING *;

-- name: MarkSocialAccountReconnect :one
UPDATE social_accounts SET reconnect_required_at = COALESCE(reconnect_required_at, now()),
    last_error = sqlc.narg('last_error'), updated_at = now()
WHERE id = @id
RETURNING *;

-- name: SetSocialAccountChannels :one
UPDATE social_accounts SET channels = sqlc.narg('channels'), updated_at = now()
WHERE id = @id
RETURNING *;

-- name: SetSocialAccountChannel :one
-- Selects (or, with NULLs, unselects) the channel the account publishes to.
UPDATE social_accounts SET provider_page_id = sqlc.narg('provider_page_id'), external_id = sqlc.narg('external_id'),
    username = sqlc.narg('username'), display_name = sqlc.narg('display_name'), avatar_url = sqlc.narg('avatar_url'),
    updated_at = now()
WHERE id = @id
RETURNING *;

-- name: SetSocialAccountCheckTry :one
UPDATE social_accounts SET disconnected_check_try_at = @at, last_error = sqlc.narg('last_error'), updated_at = now()
WHERE id = @id
RETURNING *;

-- name: DisconnectSocialAccount :one
UPDATE social_accounts SET deleted_at = now(), delete_on = @delete_on, updated_at = now()
WHERE id = @id AND deleted_at IS NULL
RETURNING *;

-- name: ListTeamSocialAccounts :many
SELECT * FROM social_accounts
WHERE organization_id = @organization_id AND team_id = ANY(@team_ids::uuid[]) AND deleted_at IS NULL
ORDER BY created_at, id;

-- name: CountSocialAccounts :one
SELECT count(*) FROM social_accounts
WHERE organization_id = @organization_id AND deleted_at IS NULL
  AND (sqlc.narg('team_id')::uuid IS NULL OR team_id = sqlc.narg('team_id')::uuid)
  AND (sqlc.narg('type')::text IS NULL OR type = sqlc.narg('type')::text)
  AND (sqlc.narg('id')::uuid IS NULL OR id = sqlc.narg('id')::uuid);

-- name: ListSocialAccounts :many
SELECT * FROM social_accounts
WHERE organization_id = @organization_id AND deleted_at IS NULL
  AND (sqlc.narg('team_id')::uuid IS NULL OR team_id = sqlc.narg('team_id')::uuid)
  AND (sqlc.narg('type')::text IS NULL OR type = sqlc.narg('type')::text)
  AND (sqlc.narg('id')::uuid IS NULL OR id = sqlc.narg('id')::uuid)
ORDER BY created_at, id
LIMIT @lim OFFSET @off;

-- name: CountSocialAccountsToDelete :one
SELECT count(*) FROM social_accounts
WHERE organization_id = @organization_id AND deleted_at IS NOT NULL AND delete_on IS NOT NULL;

-- name: ListSocialAccountsToDelete :many
SELECT * FROM social_accounts
WHERE organization_id = @organization_id AND deleted_at IS NOT NULL AND delete_on IS NOT NULL
ORDER BY delete_on, id
LIMIT @lim OFFSET @off;

-- name: PurgeDueSocialAccounts :many
-- Purge: the account's row goes; what must outlive it (posts' history) keeps its own copy.
DELETE FROM social_accounts WHERE deleted_at IS NOT NULL AND delete_on <= @now RETURNING id, organization_id;

-- name: SocialAccountsToRefresh :many
SELECT id, organization_id FROM social_accounts
WHERE deleted_at IS NULL AND reconnect_required_at IS NULL
  AND (refresh_token_enc IS NOT NULL OR type = ANY(@access_refresh_types::text[]))
  AND token_expires_at IS NOT NULL AND token_expires_at > now() AND token_expires_at < @before
ORDER BY token_expires_at
LIMIT @lim;

-- name: InsertPortalLink :one
INSERT INTO portal_links (organization_id, team_id, token_hash, allowed_types, redirect_url, server_url, options, expires_at)
VALUES (@organization_id, @team_id, @token_hash, @allowed_types, sqlc.narg('redirect_url'), sqlc.narg('server_url'), @options, @expires_at)
RETURNING *;

-- name: GetPortalLinkByHash :one
SELECT * FROM portal_links WHERE token_hash = @token_hash;

-- name: GetMastodonServer :one
SELECT * FROM mastodon_servers WHERE server_url = @server_url AND redirect_uri = @redirect_uri;

-- name: InsertMastodonServer :one
INSERT INTO mastodon_servers (server_url, redirect_uri, client_id, client_secret_enc)
VALUES (@server_url, @redirect_uri, @client_id, @client_secret_enc)
ON CONFLICT (server_url, redirect_uri) DO UPDATE SET server_url = EXCLUDED.server_url
RETURNING *;

-- name: CountAccountActionsSince :one
-- How often an action was taken on a social account recently (per-account windows of checks).
SELECT count(*) FROM audit_log
WHERE organization_id = @organization_id AND target_type = 'social_account' AND target_id = @target_id
  AND action = @action AND created_at > @since;

-- name: SetSocialAccountMessaging :one
UPDATE social_accounts SET messaging_status = @messaging_status, messaging_status_updated_at = now(),
    messaging_last_error = sqlc.narg('messaging_last_error'), updated_at = now()
WHERE id = @id
RETURNING *;

-- name: CopySocialAccount :one
-- Copies an account (profile, channels, tokens re-sealed by the caller) into another team.
INSERT INTO social_accounts (organization_id, team_id, type, username, display_name, bio, avatar_url, external_id,
    provider_page_id, user_username, user_display_name, user_email, user_id, channels, mastodon_server_id,
    instagram_connection_method, twitter_sub_type, is_tiktok_business_account, token_expires_at, token_scope)
SELECT organization_id, @to_team_id, type, username, display_name, bio, avatar_url, external_id,
    provider_page_id, user_username, user_display_name, user_email, user_id, channels, mastodon_server_id,
    instagram_connection_method, twitter_sub_type, is_tiktok_business_account, token_expires_at, token_scope
FROM social_accounts src WHERE src.id = @id
RETURNING *;
