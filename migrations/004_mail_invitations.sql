-- Email outbox, single-use user tokens (email verification, password reset) and invitations.

-- Every email Crier sends is first a row here, written in the transaction of the change that causes
-- it. With SMTP_URL set, a River job (enqueued in the same transaction) delivers it and sets sent_at;
-- without it, the row is the mail (the dev mailbox page reads it).
CREATE TABLE mail_outbox (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    to_address  text NOT NULL,
    subject     text NOT NULL,
    text_body   text NOT NULL,
    html_body   text NOT NULL,
    kind        text NOT NULL,
    -- clock_timestamp, not now(): mails written in one transaction still sort in writing order.
    created_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
    sent_at     timestamptz,
    attempts    integer NOT NULL DEFAULT 0,
    last_error  text
);
CREATE INDEX mail_outbox_created_idx ON mail_outbox (created_at DESC);

-- Tokens mailed to a user. Only the SHA-256 of the token is kept; a token is used once.
-- email is the address the token was mailed to: it proves that address only.
CREATE TABLE user_tokens (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id     uuid NOT NULL REFERENCES users (id),
    purpose     text NOT NULL CHECK (purpose IN ('verify_email', 'reset_password')),
    email       text NOT NULL,
    token_hash  bytea NOT NULL UNIQUE,
    created_at  timestamptz NOT NULL,
    expires_at  timestamptz NOT NULL,
    used_at     timestamptz
);
CREATE INDEX user_tokens_user_idx ON user_tokens (user_id, purpose, created_at DESC);

-- Invitations to join an organization. Pending = neither accepted nor revoked (it may have expired);
-- an organization has at most one pending invitation per address: inviting again refreshes it.
CREATE TABLE invitations (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id uuid NOT NULL REFERENCES organizations (id),
    email           text NOT NULL,
    role            text NOT NULL CHECK (role IN ('OWNER', 'ADMIN', 'MEMBER')),
    token_hash      bytea NOT NULL UNIQUE,
    invited_by_id   uuid REFERENCES users (id),
    created_at      timestamptz NOT NULL,
    expires_at      timestamptz NOT NULL,
    accepted_at     timestamptz,
    accepted_by_id  uuid REFERENCES users (id),
    revoked_at      timestamptz
);
CREATE UNIQUE INDEX invitations_pending_key ON invitations (organization_id, lower(email))
    WHERE accepted_at IS NULL AND revoked_at IS NULL;

---- create above / drop below ----

DROP TABLE invitations;
DROP TABLE user_tokens;
DROP TABLE mail_outbox;
