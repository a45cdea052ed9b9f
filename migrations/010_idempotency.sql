-- Idempotency-Key on the API's creating POSTs (api/idempotency.go): one row per organization and
-- key. A request claims the row (state in_progress), runs, then stores its answer (state done) for
-- replays; a 5xx or a failure deletes the row so a retry runs again. fingerprint hashes the method,
-- route, path and canonical body: the same key with another request is refused. locked_at is the
-- running request's heartbeat: an in-progress row whose heartbeat stopped (the process died) may be
-- claimed again. Rows older than 24 hours are ignored and purged (jobs/idempotency.go).
CREATE TABLE idempotency_keys (
    organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    key             text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
    fingerprint     bytea NOT NULL,
    state           text NOT NULL DEFAULT 'in_progress' CHECK (state IN ('in_progress', 'done')),
    response_status integer,
    content_type    text,
    response_body   bytea,
    created_at      timestamptz NOT NULL DEFAULT now(),
    locked_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);

---- create above / drop below ----

DROP TABLE idempotency_keys;
