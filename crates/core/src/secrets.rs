//! Key secrets: generated, shown once, sealed at rest under the master key.
//!
//! Secrets are sealed with XChaCha20-Poly1305; the key id is the associated
//! data, so a sealed secret copied onto another key's row does not open.

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::Sha256;
use std::fmt;
use zeroize::{Zeroize, ZeroizeOnDrop};

/// A secret string whose `Debug` and `Display` never print it.
#[derive(Clone, PartialEq, Eq, Zeroize, ZeroizeOnDrop)]
pub struct SecretString(String);

impl SecretString {
    /// Wraps a secret.
    pub fn new(secret: String) -> Self {
        SecretString(secret)
    }

    /// A new random secret: 32 bytes from the OS generator, URL-safe Base64 (43 characters).
    pub fn generate() -> Self {
        let mut bytes = [0u8; 32];
        rand::rngs::OsRng.fill_bytes(&mut bytes);
        let secret = SecretString(URL_SAFE_NO_PAD.encode(bytes));
        bytes.zeroize();
        secret
    }

    /// The secret itself; call only where it is used (HMAC) or shown once.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for SecretString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SecretString(<redacted>)")
    }
}

/// A secret sealed under the master key, as kept in the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SealedSecret {
    /// The 24-byte XChaCha20 nonce.
    pub nonce: Vec<u8>,
    /// Ciphertext with its Poly1305 tag.
    pub ciphertext: Vec<u8>,
}

/// Domain-separation label of the per-trade webhook keys.
const WEBHOOK_SECRET_LABEL: &str = "intake webhook secret v1";
/// How a Standard Webhooks secret is written.
pub const WEBHOOK_SECRET_PREFIX: &str = "whsec_";

/// The 256-bit key that seals every secret at rest.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct MasterKey([u8; 32]);

/// Why a master key or a sealed secret could not be used.
#[derive(Debug, thiserror::Error)]
pub enum SecretError {
    /// The master key text is not 32 bytes of hex or Base64.
    #[error("the master key must be 32 bytes written as 64 hex digits or Base64")]
    BadMasterKey,
    /// The sealed secret does not open under this master key.
    #[error("a stored secret does not open under this master key (wrong INTAKE_MASTER_KEY or key file?)")]
    Unseal,
}

impl MasterKey {
    /// A new random master key.
    pub fn generate() -> Self {
        let mut bytes = [0u8; 32];
        rand::rngs::OsRng.fill_bytes(&mut bytes);
        MasterKey(bytes)
    }

    /// Parses 64 hex digits or standard Base64 of 32 bytes (surrounding whitespace ignored).
    pub fn parse(text: &str) -> Result<Self, SecretError> {
        let text = text.trim();
        let mut bytes = hex::decode(text)
            .or_else(|_| STANDARD.decode(text))
            .map_err(|_| SecretError::BadMasterKey)?;
        let key = <[u8; 32]>::try_from(bytes.as_slice()).map_err(|_| SecretError::BadMasterKey);
        bytes.zeroize();
        key.map(MasterKey)
    }

    /// The key as 64 hex digits, for writing the key file.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// Seals `secret` for the key `key_id`.
    pub fn seal(&self, key_id: &str, secret: &SecretString) -> SealedSecret {
        let mut nonce = [0u8; 24];
        rand::rngs::OsRng.fill_bytes(&mut nonce);
        let payload = Payload {
            msg: secret.expose().as_bytes(),
            aad: key_id.as_bytes(),
        };
        let ciphertext = self
            .cipher()
            .encrypt(XNonce::from_slice(&nonce), payload)
            .expect("XChaCha20-Poly1305 sealing cannot fail");
        SealedSecret {
            nonce: nonce.to_vec(),
            ciphertext,
        }
    }

    /// Opens a secret sealed for `key_id`.
    pub fn open(&self, key_id: &str, sealed: &SealedSecret) -> Result<SecretString, SecretError> {
        if sealed.nonce.len() != 24 {
            return Err(SecretError::Unseal);
        }
        let payload = Payload {
            msg: &sealed.ciphertext,
            aad: key_id.as_bytes(),
        };
        let plain = self
            .cipher()
            .decrypt(XNonce::from_slice(&sealed.nonce), payload)
            .map_err(|_| SecretError::Unseal)?;
        String::from_utf8(plain)
            .map(SecretString)
            .map_err(|_| SecretError::Unseal)
    }

    /// A 32-byte key for one purpose, derived rather than stored: HMAC-SHA256
    /// under the master key of `label`, a zero byte and `context`. Distinct
    /// labels give unrelated keys, so no derived key reveals another.
    pub fn derive(&self, label: &str, context: &[u8]) -> [u8; 32] {
        let mut mac =
            <Hmac<Sha256> as Mac>::new_from_slice(&self.0).expect("HMAC takes a key of any length");
        mac.update(label.as_bytes());
        mac.update(&[0]);
        mac.update(context);
        mac.finalize().into_bytes().into()
    }

    /// The Standard Webhooks secret of trade `company_id`, as the trade
    /// configures it to verify our leads: `whsec_` and the Base64 of a key
    /// derived from the master key (never stored; the same on every call).
    pub fn webhook_secret(&self, company_id: u64) -> SecretString {
        let mut key = self.webhook_key(company_id);
        let secret = SecretString(format!("{WEBHOOK_SECRET_PREFIX}{}", STANDARD.encode(key)));
        key.zeroize();
        secret
    }

    /// The raw HMAC key behind [`MasterKey::webhook_secret`].
    pub fn webhook_key(&self, company_id: u64) -> [u8; 32] {
        self.derive(WEBHOOK_SECRET_LABEL, company_id.to_string().as_bytes())
    }

    fn cipher(&self) -> XChaCha20Poly1305 {
        XChaCha20Poly1305::new((&self.0).into())
    }
}

impl fmt::Debug for MasterKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("MasterKey(<redacted>)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_secret_opens_with_the_same_key_and_key_id_only() {
        let master = MasterKey::generate();
        let secret = SecretString::generate();
        let sealed = master.seal("stg_abc", &secret);
        assert!(!sealed.ciphertext.windows(8).any(|w| secret
            .expose()
            .as_bytes()
            .windows(8)
            .any(|s| s == w)));
        assert_eq!(master.open("stg_abc", &sealed).unwrap(), secret);
        assert!(
            master.open("stg_abd", &sealed).is_err(),
            "a different key id must not open it"
        );
        assert!(
            MasterKey::generate().open("stg_abc", &sealed).is_err(),
            "a different master key must not open it"
        );
    }

    #[test]
    fn master_keys_parse_from_hex_and_base64_and_refuse_other_lengths() {
        let master = MasterKey::generate();
        let hex_text = master.to_hex();
        let reparsed = MasterKey::parse(&format!(" {hex_text}\n")).unwrap();
        let secret = SecretString::new("s".into());
        assert_eq!(
            reparsed.open("k", &master.seal("k", &secret)).unwrap(),
            secret
        );
        assert!(MasterKey::parse(&STANDARD.encode([7u8; 32])).is_ok());
        assert!(MasterKey::parse("abcd").is_err());
        assert!(MasterKey::parse(&STANDARD.encode([7u8; 16])).is_err());
    }

    #[test]
    fn webhook_secrets_are_stable_per_trade_and_distinct_between_trades() {
        let master = MasterKey::parse(&"11".repeat(32)).unwrap();
        let secret = master.webhook_secret(104233);
        assert_eq!(secret, master.webhook_secret(104233));
        assert_ne!(secret, master.webhook_secret(104234));
        assert_ne!(secret, MasterKey::generate().webhook_secret(104233));
        let encoded = secret.expose().strip_prefix(WEBHOOK_SECRET_PREFIX).unwrap();
        assert_eq!(
            STANDARD.decode(encoded).unwrap(),
            master.webhook_key(104233)
        );
        assert_ne!(
            master.derive("other label", b"104233"),
            master.webhook_key(104233)
        );
    }

    #[test]
    fn debug_output_never_shows_a_secret() {
        let secret = SecretString::new("very-secret-value".into());
        assert!(!format!("{secret:?}").contains("very-secret-value"));
        assert_eq!(
            format!("{:?}", MasterKey::generate()),
            "MasterKey(<redacted>)"
        );
        assert_eq!(SecretString::generate().expose().len(), 43);
    }
}
