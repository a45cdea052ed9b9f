-- Teams (social sets) and the events outbox the webhooks capability delivers from.
CREATE TABLE teams (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id uuid NOT NULL REFERENCES organizations (id),
    created_by_id   uuid NOT NULL REFERENCES users (id),
    name            text NOT NULL,
    avatar_url      text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    deleted_at      timestamptz
);
CREATE INDEX teams_org_idx ON teams (organization_id, created_at) WHERE deleted_at IS NULL;

-- One row per event, written in the transaction of the change it reports (outbox).
CREATE TABLE events (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id uuid NOT NULL REFERENCES organizations (id),
    kind            text NOT NULL,
    payload         jsonb NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX events_org_created_idx ON events (organization_id, created_at);

---- create above / drop below ----

DROP TABLE events;
DROP TABLE teams;
