-- An organization's own API rate limits (requests per API key, or per signed-in session, in each
-- window). NULL keeps the instance's default for that window (CRIER_RATE_LIMITS). Set by an
-- instance administrator (`crier rate-limits`); each instance caches a row for up to a minute.
CREATE TABLE organization_rate_limits (
    organization_id uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
    per_second      integer CHECK (per_second > 0),
    per_10_seconds  integer CHECK (per_10_seconds > 0),
    per_minute      integer CHECK (per_minute > 0),
    updated_at      timestamptz NOT NULL DEFAULT now()
);

---- create above / drop below ----

DROP TABLE organization_rate_limits;
