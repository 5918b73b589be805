-- What the spam screen asks of a consumer's earlier jobs (spam::history).
-- The fingerprint of the description (spam::fingerprint) is computed in Rust
-- when a job is written; SQL cannot compute it, so jobs written before this
-- migration keep NULL and never count as the same text.
ALTER TABLE jobs ADD COLUMN fingerprint TEXT;

-- E-mail addresses are compared without regard to ASCII case, so the index
-- uses the same collation as the query.
CREATE INDEX jobs_by_email ON jobs (email COLLATE NOCASE, received_ms);
CREATE INDEX jobs_by_phone ON jobs (phone, received_ms);
