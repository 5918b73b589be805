-- Affiliate API keys. The secret is sealed (XChaCha20-Poly1305) under the
-- master key; the plain secret is never stored.
CREATE TABLE api_keys (
    key_id            TEXT PRIMARY KEY NOT NULL,
    name              TEXT NOT NULL,
    environment       TEXT NOT NULL CHECK (environment IN ('staging', 'production')),
    secret_nonce      BLOB NOT NULL,
    secret_ciphertext BLOB NOT NULL,
    required_headers  TEXT NOT NULL DEFAULT '',
    created_at        TEXT NOT NULL,
    revoked_at        TEXT
) STRICT;
