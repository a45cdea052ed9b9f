-- The status of each network as Crier sees it, answered by GET /api/v1 (Health).
-- Operators set incidents and maintenance windows (`crier platform-status`); a status with an
-- `until` reverts to operational when the window ends (periodic job platform_status_expire).
CREATE TABLE platform_status (
    network    text PRIMARY KEY CHECK (network IN (
        'TIKTOK', 'YOUTUBE', 'INSTAGRAM', 'FACEBOOK', 'TWITTER', 'THREADS', 'LINKEDIN', 'PINTEREST',
        'REDDIT', 'MASTODON', 'DISCORD', 'SLACK', 'BLUESKY', 'GOOGLE_BUSINESS', 'SNAPCHAT')),
    status     text NOT NULL DEFAULT 'operational'
               CHECK (status IN ('operational', 'degraded', 'outage', 'maintenance')),
    note       text NOT NULL DEFAULT '',
    until      timestamptz,
    updated_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO platform_status (network)
SELECT unnest(ARRAY['TIKTOK', 'YOUTUBE', 'INSTAGRAM', 'FACEBOOK', 'TWITTER', 'THREADS', 'LINKEDIN',
    'PINTEREST', 'REDDIT', 'MASTODON', 'DISCORD', 'SLACK', 'BLUESKY', 'GOOGLE_BUSINESS', 'SNAPCHAT']);

---- create above / drop below ----

DROP TABLE platform_status;
