-- Identity and tenancy: users, organizations, memberships, API keys and the audit log.
-- Organizations carry every column of the spec's Organization record; teams, invitations, tokens
-- and the events outbox arrive with the rest of the identity capability.
CREATE TABLE users (
    id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    email              text NOT NULL,
    password_hash      text NOT NULL,
    first_name         text,
    last_name          text,
    avatar_url         text,
    timezone           text,
    email_verified_at  timestamptz,
    onboarded_at       timestamptz,
    -- Bumped when the password changes or is reset: sessions of an older generation end.
    session_generation integer NOT NULL DEFAULT 0,
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now(),
    deleted_at         timestamptz
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email)) WHERE deleted_at IS NULL;

CREATE TABLE organizations (
    id                            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    created_by_id                 uuid NOT NULL REFERENCES users (id),
    name                          text NOT NULL,
    avatar_url                    text,
    ref                           text,
    plan                          text NOT NULL DEFAULT 'FREE' CHECK (plan IN ('FREE', 'PRO', 'BUSINESS', 'ENTERPRISE')),
    api_access                    boolean NOT NULL DEFAULT true,
    suspended                     boolean NOT NULL DEFAULT false,
    analytics_disabled            boolean NOT NULL DEFAULT false,
    analytics_posts_disabled      boolean NOT NULL DEFAULT false,
    uploads_compression_enabled   boolean NOT NULL DEFAULT true,
    show_verbose_errors           boolean NOT NULL DEFAULT false,
    disconnect_check_enabled      boolean NOT NULL DEFAULT true,
    delete_account_after          integer NOT NULL DEFAULT 72 CHECK (delete_account_after BETWEEN 0 AND 168),
    portal_brand_name             text,
    portal_logo_url               text,
    portal_accent_color           text,
    created_at                    timestamptz NOT NULL DEFAULT now(),
    updated_at                    timestamptz NOT NULL DEFAULT now(),
    deleted_at                    timestamptz
);

CREATE TABLE memberships (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id uuid NOT NULL REFERENCES organizations (id),
    user_id         uuid NOT NULL REFERENCES users (id),
    role            text NOT NULL CHECK (role IN ('OWNER', 'ADMIN', 'MEMBER')),
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (organization_id, user_id)
);
CREATE INDEX memberships_user_idx ON memberships (user_id);

-- Only a prefix (to find the key) and the SHA-256 of the whole key are kept, never the secret.
CREATE TABLE api_keys (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id uuid NOT NULL REFERENCES organizations (id),
    membership_id   uuid NOT NULL REFERENCES memberships (id) ON DELETE CASCADE,
    name            text NOT NULL,
    prefix          text NOT NULL UNIQUE,
    secret_hash     bytea NOT NULL,
    last_used_at    timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    revoked_at      timestamptz
);
CREATE INDEX api_keys_org_idx ON api_keys (organization_id) WHERE revoked_at IS NULL;

CREATE TABLE audit_log (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id uuid NOT NULL REFERENCES organizations (id),
    actor_type      text NOT NULL CHECK (actor_type IN ('USER', 'API_KEY', 'SYSTEM')),
    actor_id        text,
    actor_name      text,
    action          text NOT NULL,
    target_type     text,
    target_id       text,
    metadata        jsonb NOT NULL DEFAULT '{}',
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_org_created_idx ON audit_log (organization_id, created_at DESC);

---- create above / drop below ----

DROP TABLE audit_log;
DROP TABLE api_keys;
DROP TABLE memberships;
DROP TABLE organizations;
DROP TABLE users;
