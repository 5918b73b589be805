//! Affiliate API keys: identity, environment, sealed secret and signing policy.

use crate::environment::Environment;
use crate::secrets::{MasterKey, SealedSecret, SecretString};
use rand::Rng;
use time::OffsetDateTime;

/// A key as kept in the store. The secret is sealed; see [`MasterKey::open`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiKey {
    /// Public identifier sent as `keyId`, e.g. `stg_5Qh8...`.
    pub key_id: String,
    /// The operator's name for the affiliate application using the key.
    pub name: String,
    /// The only environment in which the key is accepted.
    pub environment: Environment,
    /// The signing secret, sealed under the master key.
    pub secret: SealedSecret,
    /// What every request signed with this key must cover.
    pub policy: KeyPolicy,
    /// When the key was created.
    pub created_at: OffsetDateTime,
    /// When the key was revoked; a revoked key is refused.
    pub revoked_at: Option<OffsetDateTime>,
}

impl ApiKey {
    /// Whether the key may still sign requests.
    pub fn is_active(&self) -> bool {
        self.revoked_at.is_none()
    }
}

/// The signature coverage a key requires beyond the server's own minimum (`date`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KeyPolicy {
    /// Lowercased names that must appear in the signature's `headers`,
    /// e.g. `["(request-target)", "host", "date", "digest"]`.
    pub required_headers: Vec<String>,
}

impl KeyPolicy {
    /// Parses a space-separated list such as `(request-target) host date digest`.
    pub fn parse(text: &str) -> Self {
        let mut required_headers: Vec<String> = Vec::new();
        for name in text.split_whitespace().map(str::to_ascii_lowercase) {
            if !required_headers.contains(&name) {
                required_headers.push(name);
            }
        }
        KeyPolicy { required_headers }
    }

    /// The space-separated form, as stored and printed.
    pub fn to_text(&self) -> String {
        self.required_headers.join(" ")
    }
}

/// A key just created: the stored record and the secret, to show once.
#[derive(Debug)]
pub struct NewKey {
    /// The record to store.
    pub key: ApiKey,
    /// The plain secret; never stored, never logged.
    pub secret: SecretString,
}

impl NewKey {
    /// Makes a fresh key with a random id and secret, sealed under `master`.
    pub fn generate(
        name: &str,
        environment: Environment,
        policy: KeyPolicy,
        master: &MasterKey,
    ) -> Self {
        let key_id = generate_key_id(environment);
        let secret = SecretString::generate();
        let key = ApiKey {
            secret: master.seal(&key_id, &secret),
            key_id,
            name: name.trim().to_owned(),
            environment,
            policy,
            created_at: OffsetDateTime::now_utc()
                .replace_nanosecond(0)
                .expect("zero nanoseconds is valid"),
            revoked_at: None,
        };
        NewKey { key, secret }
    }
}

/// `stg_` or `prd_` followed by 24 random alphanumerics: the prefix lets an
/// integrator see at a glance which environment a key belongs to.
fn generate_key_id(environment: Environment) -> String {
    let prefix = match environment {
        Environment::Staging => "stg_",
        Environment::Production => "prd_",
    };
    let suffix: String = rand::rngs::OsRng
        .sample_iter(rand::distributions::Alphanumeric)
        .take(24)
        .map(char::from)
        .collect();
    format!("{prefix}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_generated_key_carries_its_environment_in_its_id_and_a_sealed_secret() {
        let master = MasterKey::generate();
        let new = NewKey::generate(
            " Acme Quotes ",
            Environment::Production,
            KeyPolicy::default(),
            &master,
        );
        assert!(new.key.key_id.starts_with("prd_"));
        assert_eq!(new.key.key_id.len(), 28);
        assert_eq!(new.key.name, "Acme Quotes");
        assert_eq!(
            master.open(&new.key.key_id, &new.key.secret).unwrap(),
            new.secret
        );
        assert!(new.key.is_active());
        let other = NewKey::generate("x", Environment::Staging, KeyPolicy::default(), &master);
        assert!(other.key.key_id.starts_with("stg_"));
        assert_ne!(other.key.key_id, new.key.key_id);
    }

    #[test]
    fn a_policy_is_lowercased_and_deduplicated() {
        let policy = KeyPolicy::parse("(request-target) Host date  digest host");
        assert_eq!(
            policy.required_headers,
            ["(request-target)", "host", "date", "digest"]
        );
        assert_eq!(policy.to_text(), "(request-target) host date digest");
        assert!(KeyPolicy::parse("  ").required_headers.is_empty());
    }
}
