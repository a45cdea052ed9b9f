-- Outgoing webhooks, their deliveries, and in-app notifications.

-- A webhook's signing secret must be recoverable to sign, so it is kept encrypted (AES-256-GCM under
-- a key derived from CRIER_SECRET), never in clear. After a rotation the previous secret keeps signing
-- until previous_secret_until (24 hours).
-- failing_since: when the first failed attempt after the last successful one happened (NULL while
-- deliveries succeed); a webhook failing for longer than the configured period is deactivated.
CREATE TABLE webhooks (
    id                    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id       uuid NOT NULL REFERENCES organizations (id),
    url                   text NOT NULL,
    events                text[] NOT NULL,
    active                boolean NOT NULL DEFAULT true,
    secret_enc            bytea NOT NULL,
    previous_secret_enc   bytea,
    previous_secret_until timestamptz,
    failing_since         timestamptz,
    deactivated_at        timestamptz,
    created_at            timestamptz NOT NULL DEFAULT now(),
    updated_at            timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhooks_org_idx ON webhooks (organization_id, created_at);
CREATE INDEX webhooks_failing_idx ON webhooks (failing_since) WHERE active AND failing_since IS NOT NULL;

-- One delivery of one event to one webhook. Retries update the same row (attempt counts them);
-- payload is the body sent, {type, data}. event_id is the events row (a fresh id for test events).
CREATE TABLE webhook_deliveries (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id uuid NOT NULL REFERENCES organizations (id),
    webhook_id      uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event_id        uuid NOT NULL,
    event           text NOT NULL,
    payload         jsonb NOT NULL,
    attempt         integer NOT NULL DEFAULT 0,
    status          text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'SUCCESS', 'FAILED')),
    response_code   integer,
    response_body   text,
    duration_ms     integer,
    next_attempt_at timestamptz,
    -- clock_timestamp: deliveries created in one transaction still sort in creation order.
    created_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (webhook_id, event_id) -- a fan-out run twice creates no second delivery
);
CREATE INDEX webhook_deliveries_list_idx ON webhook_deliveries (webhook_id, created_at DESC);
CREATE INDEX webhook_deliveries_status_idx ON webhook_deliveries (webhook_id, status, created_at DESC);

-- In-app notifications: one row per recipient (a member of the organization), so read state is
-- each user's own.
CREATE TABLE notifications (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id uuid NOT NULL REFERENCES organizations (id),
    user_id         uuid NOT NULL REFERENCES users (id),
    type            text NOT NULL,
    title           text NOT NULL,
    message         text NOT NULL,
    link            text,
    data            jsonb NOT NULL DEFAULT '{}',
    event_id        uuid, -- the event that caused it, if any: one notification per user and event
    read_at         timestamptz,
    created_at      timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX notifications_user_idx ON notifications (organization_id, user_id, created_at DESC);
CREATE INDEX notifications_unread_idx ON notifications (organization_id, user_id) WHERE read_at IS NULL;
CREATE UNIQUE INDEX notifications_event_key ON notifications (user_id, event_id) WHERE event_id IS NOT NULL;

---- create above / drop below ----

DROP TABLE notifications;
DROP TABLE webhook_deliveries;
DROP TABLE webhooks;
