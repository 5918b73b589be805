-- The writes `Store::create_job` makes on PostgreSQL for one production job
-- with 3 recipients, for `intake bench --pgbench`, as one transaction per job:
-- the idempotency record (taken as the store takes it), then the job, its 3
-- recipients and its 3 outbox rows in one statement.
\set n random(1, 1000000000000)
BEGIN;
INSERT INTO idempotency (scope, request_hash, status, body, expires_at)
    VALUES ('s:pgbench:' || :client_id || ':' || :n, 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 201,
            '{"id":"pgbench","trades":[{"id":1,"name":"One","profileURL":"https://example.com/trades/1"}]}', now() + interval '1 day')
    ON CONFLICT (scope) DO UPDATE SET request_hash = EXCLUDED.request_hash, status = EXCLUDED.status,
        body = EXCLUDED.body, expires_at = EXCLUDED.expires_at WHERE idempotency.expires_at <= now()
    RETURNING scope;
WITH job AS (
    INSERT INTO jobs (id, environment, key_id, application, creation_source, request_id, received_at, category_id,
                      description, email, phone, first_name, last_name, postcode, address_line1, address_city,
                      address_postcode, preferred_start_id, fingerprint)
    VALUES ('pgbench-' || :client_id || '-' || :n, 'production', 'prd_pgbench', 'pgbench', 'api', 'req-pgbench', now(), 1335,
            'Boiler not working, no hot water since this morning', 'sam@example.com', '+447700900123', 'Sam', 'Jones',
            'SW1A 1AA', '1 High Street', 'London', 'SW1A 1AA', 'URGENT',
            'f0e4c2f76c58916ec258f246851bea091d14d4247a2fc3e18694461b1816e13b')
), recipients AS (
    INSERT INTO job_recipients (job_id, company_id, name, rank, created_at)
    SELECT 'pgbench-' || :client_id || '-' || :n, r.company_id, r.name, r.rank, now()
    FROM (VALUES (900000001, 'One', 1), (900000002, 'Two', 2), (900000003, 'Three', 3)) AS r (company_id, name, rank)
)
INSERT INTO deliveries (id, job_id, company_id, channel, target, state, attempts, next_attempt_at, created_at, updated_at)
SELECT 'pgbench-' || :client_id || '-' || :n || '.' || d.company_id || '.webhook', 'pgbench-' || :client_id || '-' || :n,
       d.company_id, 'webhook', 'https://pgbench.invalid/' || d.company_id, 'pending', 0, now(), now(), now()
FROM (VALUES (900000001), (900000002), (900000003)) AS d (company_id);
END;
