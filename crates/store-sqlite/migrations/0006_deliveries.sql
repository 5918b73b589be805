-- The delivery outbox: one row per production job, recipient and channel,
-- written in the job's own transaction. A dispatcher claims due rows by a
-- compare-and-set update that moves `next_attempt_ms` past a lease.
CREATE TABLE deliveries (
    id              TEXT PRIMARY KEY NOT NULL,  -- `{job_id}.{company_id}.{channel}`: the webhook-id
    job_id          TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    company_id      INTEGER NOT NULL,
    channel         TEXT NOT NULL CHECK (channel IN ('webhook', 'email')),
    target          TEXT NOT NULL,
    state           TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'dead', 'gone')),
    attempts        INTEGER NOT NULL,
    next_attempt_ms INTEGER NOT NULL,
    created_ms      INTEGER NOT NULL,
    updated_ms      INTEGER NOT NULL,
    last_error      TEXT,
    delivered_ms    INTEGER
) STRICT;
CREATE INDEX deliveries_due ON deliveries (next_attempt_ms) WHERE state = 'pending';
CREATE INDEX deliveries_by_job ON deliveries (job_id);
CREATE INDEX deliveries_by_target ON deliveries (channel, target) WHERE state = 'pending';

-- Targets that answered 410 Gone: later jobs skip them until an operator
-- retries one of their deliveries.
CREATE TABLE gone_targets (
    channel TEXT NOT NULL,
    target  TEXT NOT NULL,
    gone_ms INTEGER NOT NULL,
    PRIMARY KEY (channel, target)
) STRICT;
