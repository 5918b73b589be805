-- What the spam screen asks of a consumer's earlier jobs (spam::history).
-- The fingerprint of the description (spam::fingerprint) is computed in Rust
-- when a job is written; jobs written before this migration keep NULL and
-- never count as the same text.
ALTER TABLE jobs ADD COLUMN fingerprint TEXT;

-- E-mail addresses are compared without regard to ASCII case: lower() under
-- the "C" collation folds ASCII letters only, and the index uses the same
-- expression as the query.
CREATE INDEX jobs_by_email ON jobs (lower(email COLLATE "C"), received_at);
CREATE INDEX jobs_by_phone ON jobs (phone, received_at);
