-- Jobs, their recipients and the answers kept for repeated submissions.
-- Times that are compared are unix milliseconds; times shown are RFC 3339 text.
CREATE TABLE jobs (
    id                   TEXT PRIMARY KEY NOT NULL,
    environment          TEXT NOT NULL CHECK (environment IN ('staging', 'production')),
    key_id               TEXT NOT NULL,
    application          TEXT NOT NULL,
    creation_source      TEXT NOT NULL,
    request_id           TEXT NOT NULL,
    received_at          TEXT NOT NULL,
    received_ms          INTEGER NOT NULL,
    category_id          INTEGER NOT NULL,
    description          TEXT NOT NULL,
    email                TEXT NOT NULL,
    phone                TEXT NOT NULL,
    first_name           TEXT NOT NULL,
    last_name            TEXT NOT NULL,
    postcode             TEXT NOT NULL,
    address_line1        TEXT,
    address_line2        TEXT,
    address_line3        TEXT,
    address_city         TEXT,
    address_postcode     TEXT,
    preferred_start_id   TEXT,
    preferred_start_date TEXT
) STRICT;

CREATE TABLE job_recipients (
    job_id         TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    company_id     INTEGER NOT NULL,
    name           TEXT NOT NULL,
    rank           INTEGER NOT NULL,
    delivery_state TEXT NOT NULL,
    created_ms     INTEGER NOT NULL,
    PRIMARY KEY (job_id, company_id)
) STRICT;
CREATE INDEX job_recipients_by_trade ON job_recipients (company_id, created_ms);

CREATE TABLE idempotency (
    scope        TEXT PRIMARY KEY NOT NULL,
    request_hash TEXT NOT NULL,
    status       INTEGER NOT NULL,
    body         TEXT NOT NULL,
    expires_ms   INTEGER NOT NULL
) STRICT;
CREATE INDEX idempotency_by_expiry ON idempotency (expires_ms);
