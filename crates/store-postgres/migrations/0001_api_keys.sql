-- Affiliate API keys. The secret is sealed (XChaCha20-Poly1305) under the
-- master key; the plain secret is never stored.
CREATE TABLE api_keys (
    key_id            TEXT PRIMARY KEY,
    name              TEXT NOT NULL,
    environment       TEXT NOT NULL CHECK (environment IN ('staging', 'production')),
    secret_nonce      BYTEA NOT NULL,
    secret_ciphertext BYTEA NOT NULL,
    required_headers  TEXT NOT NULL DEFAULT '',
    created_at        TIMESTAMPTZ NOT NULL,
    revoked_at        TIMESTAMPTZ
);
