//! The HMAC algorithms a signature may name.

use std::fmt;
use std::str::FromStr;

use hmac::{Hmac, Mac};
use sha1::Sha1;
use sha2::{Sha256, Sha512};

/// An HMAC algorithm from the `algorithm` parameter of a signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// `hmac-sha1`: 20-byte MAC.
    HmacSha1,
    /// `hmac-sha256`: 32-byte MAC.
    HmacSha256,
    /// `hmac-sha512`: 64-byte MAC.
    HmacSha512,
}

impl Algorithm {
    /// Every supported algorithm, weakest first.
    pub const ALL: [Algorithm; 3] = [
        Algorithm::HmacSha1,
        Algorithm::HmacSha256,
        Algorithm::HmacSha512,
    ];

    /// The name used in the `algorithm` parameter, e.g. `"hmac-sha256"`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Algorithm::HmacSha1 => "hmac-sha1",
            Algorithm::HmacSha256 => "hmac-sha256",
            Algorithm::HmacSha512 => "hmac-sha512",
        }
    }

    /// The length in bytes of the MAC this algorithm produces.
    pub fn mac_len(&self) -> usize {
        match self {
            Algorithm::HmacSha1 => 20,
            Algorithm::HmacSha256 => 32,
            Algorithm::HmacSha512 => 64,
        }
    }

    /// HMAC of `data` under `secret`.
    pub fn mac(&self, secret: &[u8], data: &[u8]) -> Vec<u8> {
        match self {
            Algorithm::HmacSha1 => hmac::<Hmac<Sha1>>(secret, data),
            Algorithm::HmacSha256 => hmac::<Hmac<Sha256>>(secret, data),
            Algorithm::HmacSha512 => hmac::<Hmac<Sha512>>(secret, data),
        }
    }
}

fn hmac<M: Mac + hmac::digest::KeyInit>(secret: &[u8], data: &[u8]) -> Vec<u8> {
    // HMAC hashes over-long keys and pads short ones, so every key length is valid.
    let mut mac = <M as Mac>::new_from_slice(secret).expect("HMAC accepts keys of any length");
    mac.update(data);
    mac.finalize().into_bytes().to_vec()
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The `algorithm` parameter named something other than a supported HMAC.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the signature algorithm `{0}` is not supported; set algorithm to one of \
     \"hmac-sha256\", \"hmac-sha512\" or \"hmac-sha1\""
)]
pub struct UnknownAlgorithm(pub String);

impl FromStr for Algorithm {
    type Err = UnknownAlgorithm;

    /// Parses an algorithm name, ignoring ASCII case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.as_str().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownAlgorithm(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_ignoring_case_and_round_trip() {
        for a in Algorithm::ALL {
            assert_eq!(a.as_str().parse::<Algorithm>(), Ok(a));
            assert_eq!(a.as_str().to_uppercase().parse::<Algorithm>(), Ok(a));
        }
    }

    #[test]
    fn an_unknown_name_is_rejected_with_the_accepted_names() {
        let err = "rsa-sha256".parse::<Algorithm>().unwrap_err();
        let text = err.to_string();
        assert!(text.contains("rsa-sha256"), "{text}");
        for a in Algorithm::ALL {
            assert!(text.contains(a.as_str()), "{text}");
        }
    }

    #[test]
    fn each_mac_has_its_documented_length() {
        for a in Algorithm::ALL {
            assert_eq!(a.mac(b"k", b"data").len(), a.mac_len());
        }
    }

    #[test]
    fn hmac_sha256_matches_rfc_4231_case_2() {
        let mac = Algorithm::HmacSha256.mac(b"Jefe", b"what do ya want for nothing?");
        let hex: String = mac.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(
            hex,
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }
}
