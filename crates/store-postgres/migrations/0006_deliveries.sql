-- The delivery outbox: one row per recipient and channel of a production job,
-- written in the job's transaction and claimed by dispatchers with
-- FOR UPDATE SKIP LOCKED.
CREATE TABLE deliveries (
    id              TEXT PRIMARY KEY,  -- `{job_id}.{company_id}.{channel}`: the webhook-id
    job_id          TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    company_id      BIGINT NOT NULL,
    channel         TEXT NOT NULL CHECK (channel IN ('webhook', 'email')),
    target          TEXT NOT NULL,
    state           TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'dead', 'gone')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TIMESTAMPTZ NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL,
    last_error      TEXT,
    delivered_at    TIMESTAMPTZ
);
CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX deliveries_by_job ON deliveries (job_id);
CREATE INDEX deliveries_by_target ON deliveries (channel, target) WHERE state = 'pending';

-- Targets that answered 410 Gone: later jobs skip them until an operator retries.
CREATE TABLE gone_targets (
    channel   TEXT NOT NULL,
    target    TEXT NOT NULL,
    marked_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (channel, target)
);
