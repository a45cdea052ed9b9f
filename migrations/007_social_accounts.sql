-- Social accounts (at most one live account per team and network), the hosted portal's links and
-- the per-instance Mastodon app registrations.

-- Tokens are kept encrypted (AES-256-GCM under a key derived from CRIER_SECRET, bound to the row's
-- id): access_token_enc, refresh_token_enc and secrets_enc (JSON of what an adapter must keep
-- secret besides them, e.g. Facebook page tokens or a Bluesky session). token_expires_at drives the
-- periodic refresh. reconnect_required_at is set when the network refused the account's
-- credentials even after one refresh: the account needs its owner to connect it again.
-- A disconnect soft-deletes (deleted_at) and sets delete_on; a periodic job purges due rows.
-- Reconnecting the same network in the same team revives the latest row, so the id is kept.
CREATE TABLE social_accounts (
    id                          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id             uuid NOT NULL REFERENCES organizations (id),
    team_id                     uuid NOT NULL REFERENCES teams (id),
    type                        text NOT NULL,
    username                    text,
    display_name                text,
    bio                         text,
    avatar_url                  text,
    external_id                 text,
    provider_page_id            text,
    user_username               text,
    user_display_name           text,
    user_email                  text,
    user_id                     text,
    channels                    jsonb,
    mastodon_server_id          uuid,
    instagram_connection_method text,
    twitter_sub_type            text,
    is_tiktok_business_account  boolean,
    disconnected_check_try_at   timestamptz,
    delete_on                   timestamptz,
    messaging_status            text NOT NULL DEFAULT 'DISABLED',
    messaging_status_updated_at timestamptz,
    messaging_last_error        text,
    access_token_enc            bytea,
    refresh_token_enc           bytea,
    secrets_enc                 bytea,
    token_expires_at            timestamptz,
    token_scope                 text,
    reconnect_required_at       timestamptz,
    last_error                  text,
    created_at                  timestamptz NOT NULL DEFAULT now(),
    updated_at                  timestamptz NOT NULL DEFAULT now(),
    deleted_at                  timestamptz
);
CREATE UNIQUE INDEX social_accounts_team_type_live ON social_accounts (team_id, type) WHERE deleted_at IS NULL;
CREATE INDEX social_accounts_org_idx ON social_accounts (organization_id, created_at);
CREATE INDEX social_accounts_refresh_idx ON social_accounts (token_expires_at)
    WHERE deleted_at IS NULL AND reconnect_required_at IS NULL;
CREATE INDEX social_accounts_purge_idx ON social_accounts (delete_on) WHERE deleted_at IS NOT NULL;

-- A hosted portal link: only the SHA-256 of its token is stored. It reaches one team, and only the
-- allowed networks of it.
CREATE TABLE portal_links (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id uuid NOT NULL REFERENCES organizations (id),
    team_id         uuid NOT NULL REFERENCES teams (id),
    token_hash      bytea NOT NULL UNIQUE,
    allowed_types   text[] NOT NULL,
    redirect_url    text,
    server_url      text,
    options         jsonb NOT NULL DEFAULT '{}',
    expires_at      timestamptz NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX portal_links_team_idx ON portal_links (team_id);

-- Mastodon needs an app registered on each instance (POST /api/v1/apps); it is registered once per
-- instance and redirect URI, and reused. client_secret_enc is encrypted like the tokens.
CREATE TABLE mastodon_servers (
    id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    server_url        text NOT NULL,
    redirect_uri      text NOT NULL,
    client_id         text NOT NULL,
    client_secret_enc bytea NOT NULL,
    created_at        timestamptz NOT NULL DEFAULT now(),
    UNIQUE (server_url, redirect_uri)
);

---- create above / drop below ----

DROP TABLE mastodon_servers;
DROP TABLE portal_links;
DROP TABLE social_accounts;
