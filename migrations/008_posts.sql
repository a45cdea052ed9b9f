-- Posts, Crier's comments, and their publish targets (one per network).
--
-- A post holds the composer's content (data: the per-network payloads with defaults applied) and
-- its own status; each network it goes to is a row of publish_targets with its own status, attempt
-- record, checkpoints, outcome and error. Comments Crier publishes (replies under a Crier post or
-- comment) and a post's first comments are publish_targets too (kind COMMENT / FIRST_COMMENT), so
-- one worker and one never-twice protocol publish all three.
CREATE TABLE posts (
    id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id      uuid NOT NULL REFERENCES organizations (id),
    team_id              uuid NOT NULL REFERENCES teams (id),
    created_by_id        uuid REFERENCES users (id),
    title                text NOT NULL,
    reference_key        text,
    post_date            timestamptz NOT NULL,
    posted_date          timestamptz,
    -- DRAFT | SCHEDULED | REVIEW | PROCESSING | RETRYING | POSTED | ERROR | DELETED
    status               text NOT NULL,
    social_account_types text[] NOT NULL,
    data                 jsonb NOT NULL,
    first_comment        jsonb,
    error                text,
    review_note          text,
    retry_count          integer NOT NULL DEFAULT 0,
    -- When the post first left DRAFT/REVIEW for the schedule: it counts in that month's quota from
    -- then on, whatever happens to it (failed and deleted posts count; drafts never do).
    counted_at           timestamptz,
    created_at           timestamptz NOT NULL DEFAULT now(),
    updated_at           timestamptz NOT NULL DEFAULT now(),
    deleted_at           timestamptz
);
CREATE UNIQUE INDEX posts_reference_key_live ON posts (organization_id, reference_key)
    WHERE deleted_at IS NULL AND reference_key IS NOT NULL;
-- The calendar and the list: a team's posts by date.
CREATE INDEX posts_team_date_idx ON posts (team_id, post_date);
CREATE INDEX posts_team_created_idx ON posts (team_id, created_at);
CREATE INDEX posts_org_counted_idx ON posts (organization_id, counted_at) WHERE counted_at IS NOT NULL;

ALTER TABLE post_uploads ADD CONSTRAINT post_uploads_post_fk FOREIGN KEY (post_id) REFERENCES posts (id);

-- Comments Crier publishes: under one of its posts (internal_post_id) or one of its comments
-- (internal_parent_comment_id). imported/fetched ids are kept for the imports capability.
CREATE TABLE comments (
    id                         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id            uuid NOT NULL REFERENCES organizations (id),
    team_id                    uuid NOT NULL REFERENCES teams (id),
    created_by_id              uuid REFERENCES users (id),
    internal_post_id           uuid REFERENCES posts (id),
    imported_post_id           text,
    internal_parent_comment_id uuid REFERENCES comments (id),
    fetched_parent_comment_id  text,
    title                      text,
    post_date                  timestamptz NOT NULL,
    posted_date                timestamptz,
    -- DRAFT | SCHEDULED | PROCESSING | RETRYING | POSTED | ERROR | DELETED
    status                     text NOT NULL,
    social_account_types       text[] NOT NULL,
    data                       jsonb NOT NULL,
    error                      text,
    counted_at                 timestamptz,
    created_at                 timestamptz NOT NULL DEFAULT now(),
    updated_at                 timestamptz NOT NULL DEFAULT now(),
    deleted_at                 timestamptz
);
CREATE INDEX comments_team_created_idx ON comments (team_id, created_at);
CREATE INDEX comments_post_idx ON comments (internal_post_id);
CREATE INDEX comments_org_counted_idx ON comments (organization_id, counted_at) WHERE counted_at IS NOT NULL;

-- One network of a post (POST), of a comment (COMMENT), or a post's first comment on a network
-- (FIRST_COMMENT, released when its post target is POSTED).
--
-- Never twice: attempt_started_at is written and committed before the network call and cleared
-- with the outcome; a row found with it set (or outcome_unknown: a transient failure that may have
-- reached the network) is reconciled with the adapter's Find before anything is published again.
-- version is bumped by every reschedule, retry and cancel: a job carrying another version is stale
-- and does nothing.
CREATE TABLE publish_targets (
    id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id    uuid NOT NULL REFERENCES organizations (id),
    kind               text NOT NULL CHECK (kind IN ('POST', 'COMMENT', 'FIRST_COMMENT')),
    post_id            uuid REFERENCES posts (id),
    comment_id         uuid REFERENCES comments (id),
    network            text NOT NULL,
    -- The account purged after its disconnection leaves the history (network, external id, permalink).
    social_account_id  uuid REFERENCES social_accounts (id) ON DELETE SET NULL,
    -- DRAFT | REVIEW | WAITING (first comment before its post) | SCHEDULED | PROCESSING | RETRYING
    -- | POSTED | ERROR | DELETED
    status             text NOT NULL,
    payload            jsonb NOT NULL,
    attempt_key        text NOT NULL,
    attempts           integer NOT NULL DEFAULT 0,
    attempt_started_at timestamptz,
    outcome_unknown    boolean NOT NULL DEFAULT false,
    checkpoints        jsonb NOT NULL DEFAULT '{}',
    version            integer NOT NULL DEFAULT 1,
    due_at             timestamptz,
    next_attempt_at    timestamptz,
    external_id        text,
    permalink          text,
    extra              jsonb,
    error              text,
    error_verbose      jsonb,
    posted_at          timestamptz,
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now(),
    CHECK ((post_id IS NULL) <> (comment_id IS NULL))
);
CREATE UNIQUE INDEX publish_targets_post_key ON publish_targets (post_id, kind, network) WHERE post_id IS NOT NULL;
CREATE UNIQUE INDEX publish_targets_comment_key ON publish_targets (comment_id, network) WHERE comment_id IS NOT NULL;
-- An account's targets by day (daily caps; also the lookup of a purged account's targets).
CREATE INDEX publish_targets_account_due_idx ON publish_targets (social_account_id, due_at);

---- create above / drop below ----

DROP TABLE publish_targets;
DROP TABLE comments;
ALTER TABLE post_uploads DROP CONSTRAINT post_uploads_post_fk;
DROP TABLE posts;
