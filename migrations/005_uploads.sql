-- Uploads (the media library), the signed-URL uploads in progress, and the links of posts to uploads.
CREATE TABLE uploads (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id uuid NOT NULL REFERENCES organizations (id),
    team_id         uuid REFERENCES teams (id),
    created_by_id   uuid REFERENCES users (id),
    type            text NOT NULL CHECK (type IN ('image', 'video', 'document')),
    -- Sniffed from the bytes, never taken from the client.
    mime            text NOT NULL,
    ext             text NOT NULL,
    -- Storage keys; previews exist for images (and videos when ffmpeg is present).
    path            text NOT NULL,
    thumbnail_path  text,
    icon_path       text,
    -- Where from-url fetched the file.
    external_link   text,
    width           integer,
    height          integer,
    file_size       bigint NOT NULL,
    video_length    double precision,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    -- Deleted uploads keep their row (the monthly quota counts uploads made, not kept); purged_at
    -- is set once their objects are gone from storage.
    deleted_at      timestamptz,
    purged_at       timestamptz
);
CREATE UNIQUE INDEX uploads_path_key ON uploads (path);
CREATE INDEX uploads_org_idx ON uploads (organization_id, created_at DESC) WHERE deleted_at IS NULL;
CREATE INDEX uploads_org_month_idx ON uploads (organization_id, created_at);
CREATE INDEX uploads_unpurged_idx ON uploads (deleted_at) WHERE deleted_at IS NOT NULL AND purged_at IS NULL;

-- A signed-URL upload in progress (init → PUT → finalize, or multipart init → parts → complete):
-- the path is reserved for the organization; upload_id is set when it becomes an upload, so a
-- repeated finalize or complete answers the same upload.
CREATE TABLE upload_sessions (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id uuid NOT NULL REFERENCES organizations (id),
    team_id         uuid REFERENCES teams (id),
    created_by_id   uuid REFERENCES users (id),
    path            text NOT NULL,
    declared_mime   text NOT NULL,
    file_size       bigint,
    -- The storage's multipart upload id; NULL for a single signed PUT.
    multipart_id    text,
    part_size       bigint,
    upload_id       uuid REFERENCES uploads (id),
    created_at      timestamptz NOT NULL DEFAULT now(),
    completed_at    timestamptz,
    aborted_at      timestamptz
);
CREATE UNIQUE INDEX upload_sessions_path_key ON upload_sessions (path);
CREATE INDEX upload_sessions_open_idx ON upload_sessions (created_at) WHERE completed_at IS NULL AND aborted_at IS NULL;

-- Which posts use which uploads. The posts capability writes these rows (and adds the foreign key
-- to its posts table); until then no upload is USED.
CREATE TABLE post_uploads (
    post_id    uuid NOT NULL,
    upload_id  uuid NOT NULL REFERENCES uploads (id),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    PRIMARY KEY (post_id, upload_id)
);
CREATE INDEX post_uploads_upload_idx ON post_uploads (upload_id) WHERE deleted_at IS NULL;

---- create above / drop below ----

DROP TABLE post_uploads;
DROP TABLE upload_sessions;
DROP TABLE uploads;
