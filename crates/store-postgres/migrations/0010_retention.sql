-- Retention (docs/operations.md, "Retention"): what the purge of each kind
-- of record walks instead of the whole table.
CREATE INDEX jobs_by_received ON jobs (received_at);
CREATE INDEX quarantine_by_received ON quarantine (received_at);
CREATE INDEX deliveries_finished ON deliveries (updated_at) WHERE state <> 'pending';
