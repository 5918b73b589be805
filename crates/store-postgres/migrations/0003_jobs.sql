-- Jobs, their recipients and the answers kept for repeated submissions.
-- A recipient's delivery state is derived from its deliveries (0006).
CREATE TABLE jobs (
    id                   TEXT PRIMARY KEY,
    environment          TEXT NOT NULL CHECK (environment IN ('staging', 'production')),
    key_id               TEXT NOT NULL,
    application          TEXT NOT NULL,
    creation_source      TEXT NOT NULL,
    request_id           TEXT NOT NULL,
    received_at          TIMESTAMPTZ NOT NULL,
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
    preferred_start_date DATE
);

CREATE TABLE job_recipients (
    job_id         TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    company_id     BIGINT NOT NULL,
    name           TEXT NOT NULL,
    rank           INTEGER NOT NULL,
    created_at     TIMESTAMPTZ NOT NULL,  -- the job's, for fairness counts
    PRIMARY KEY (job_id, company_id)
);
CREATE INDEX job_recipients_by_trade ON job_recipients (company_id, created_at);

CREATE TABLE idempotency (
    scope        TEXT PRIMARY KEY,
    request_hash TEXT NOT NULL,
    status       INTEGER NOT NULL,
    body         TEXT NOT NULL,
    expires_at   TIMESTAMPTZ NOT NULL
);
CREATE INDEX idempotency_by_expiry ON idempotency (expires_at);
