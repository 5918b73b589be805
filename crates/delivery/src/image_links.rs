//! Signed, expiring links to a job's photos, so a trade can open them from a
//! lead without credentials: `{base}/v1/affiliate-job/images/{job}/{image}?expires=UNIX&signature=B64URL`.
//!
//! The signature is HMAC-SHA256 over the job id, the image id and the expiry,
//! under a key derived from the master key; nothing is stored per link.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hmac::{Hmac, Mac};
use intake_core::MasterKey;
use sha2::Sha256;
use std::time::Duration;
use time::OffsetDateTime;
use zeroize::Zeroizing;

/// Domain-separation label of the link key.
const LABEL: &str = "intake image link v1";

/// Why a link was refused (both answer 403).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkError {
    /// The signature is missing, malformed or does not match.
    BadSignature,
    /// The link's time is up.
    Expired,
}

/// Signs and checks image links.
pub struct ImageLinks {
    key: Zeroizing<[u8; 32]>,
}

impl ImageLinks {
    /// The links of this master key.
    pub fn new(master: &MasterKey) -> Self {
        ImageLinks {
            key: Zeroizing::new(master.derive(LABEL, b"")),
        }
    }

    /// The path and query of a link to `image_id` of `job_id` that works until `expires`.
    pub fn path_and_query(&self, job_id: &str, image_id: &str, expires: OffsetDateTime) -> String {
        let expires = expires.unix_timestamp();
        let signature = URL_SAFE_NO_PAD.encode(self.mac(job_id, image_id, expires));
        format!(
            "{}/images/{job_id}/{image_id}?expires={expires}&signature={signature}",
            intake_api::BASE_PATH
        )
    }

    /// A full link under `base_url` valid for `ttl` from `now`, and when it expires.
    pub fn link(
        &self,
        base_url: &str,
        job_id: &str,
        image_id: &str,
        now: OffsetDateTime,
        ttl: Duration,
    ) -> (String, OffsetDateTime) {
        let expires = (now + ttl).replace_nanosecond(0).unwrap_or(now + ttl);
        let path = self.path_and_query(job_id, image_id, expires);
        (format!("{}{path}", base_url.trim_end_matches('/')), expires)
    }

    /// Checks a link's signature (in constant time) and then its expiry.
    pub fn verify(
        &self,
        job_id: &str,
        image_id: &str,
        expires: &str,
        signature: &str,
        now: OffsetDateTime,
    ) -> Result<(), LinkError> {
        let expires: i64 = expires.parse().map_err(|_| LinkError::BadSignature)?;
        let signature = URL_SAFE_NO_PAD
            .decode(signature)
            .map_err(|_| LinkError::BadSignature)?;
        let mut mac = self.hmac();
        feed(&mut mac, job_id, image_id, expires);
        mac.verify_slice(&signature)
            .map_err(|_| LinkError::BadSignature)?;
        if now.unix_timestamp() >= expires {
            return Err(LinkError::Expired);
        }
        Ok(())
    }

    fn mac(&self, job_id: &str, image_id: &str, expires: i64) -> [u8; 32] {
        let mut mac = self.hmac();
        feed(&mut mac, job_id, image_id, expires);
        mac.finalize().into_bytes().into()
    }

    fn hmac(&self) -> Hmac<Sha256> {
        <Hmac<Sha256> as Mac>::new_from_slice(self.key.as_slice())
            .expect("HMAC takes a key of any length")
    }
}

/// Length-prefixed fields, so no two (job, image, expiry) triples sign alike.
fn feed(mac: &mut Hmac<Sha256>, job_id: &str, image_id: &str, expires: i64) {
    for field in [job_id.as_bytes(), image_id.as_bytes()] {
        mac.update(&(field.len() as u64).to_be_bytes());
        mac.update(field);
    }
    mac.update(&expires.to_be_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(link: &str) -> (String, String) {
        let url = url::Url::parse(link).unwrap();
        let get = |name: &str| {
            url.query_pairs()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.into_owned())
                .unwrap()
        };
        (get("expires"), get("signature"))
    }

    #[test]
    fn a_link_checks_out_until_it_expires_and_only_for_its_own_image() {
        let links = ImageLinks::new(&MasterKey::generate());
        let now = OffsetDateTime::now_utc();
        let (link, expires) = links.link("http://x/", "job", "img", now, Duration::from_secs(60));
        assert!(link.starts_with("http://x/v1/affiliate-job/images/job/img?expires="));
        let (exp, sig) = query(&link);
        assert_eq!(exp, expires.unix_timestamp().to_string());
        assert_eq!(links.verify("job", "img", &exp, &sig, now), Ok(()));
        assert_eq!(
            links.verify("job", "img", &exp, &sig, expires),
            Err(LinkError::Expired)
        );
        assert_eq!(
            links.verify("job", "img2", &exp, &sig, now),
            Err(LinkError::BadSignature)
        );
        let later = (expires.unix_timestamp() + 1).to_string();
        assert_eq!(
            links.verify("job", "img", &later, &sig, now),
            Err(LinkError::BadSignature)
        );
        assert_eq!(
            links.verify("job", "img", &exp, "not*base64", now),
            Err(LinkError::BadSignature)
        );
    }

    #[test]
    fn another_master_key_signs_differently() {
        let now = OffsetDateTime::now_utc();
        let ttl = Duration::from_secs(60);
        let (link, _) =
            ImageLinks::new(&MasterKey::generate()).link("http://x", "j", "i", now, ttl);
        let (exp, sig) = query(&link);
        let other = ImageLinks::new(&MasterKey::generate());
        assert_eq!(
            other.verify("j", "i", &exp, &sig, now),
            Err(LinkError::BadSignature)
        );
    }
}
