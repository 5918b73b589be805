-- Submissions classified as spam, kept with their reasons for review.
CREATE TABLE quarantine (
    id              TEXT PRIMARY KEY,
    environment     TEXT NOT NULL CHECK (environment IN ('staging', 'production')),
    key_id          TEXT NOT NULL,
    application     TEXT NOT NULL,
    creation_source TEXT NOT NULL,
    request_id      TEXT NOT NULL,
    received_at     TIMESTAMPTZ NOT NULL,
    submission      TEXT NOT NULL,
    score           DOUBLE PRECISION NOT NULL,
    reasons         TEXT NOT NULL,
    released_job_id TEXT
);
