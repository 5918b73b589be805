//! A description's fingerprint: the same job text, however it was retyped or
//! reformatted by an affiliate's form, gives the same fingerprint.

use sha2::{Digest, Sha256};

/// SHA-256 (lowercase hex) of the description's letters and digits,
/// lowercased: case, whitespace and punctuation are ignored, so
/// `"Boiler not working!"` and `"boiler  not working"` match. Stored with
/// every job, so it must never change for a given text.
pub fn fingerprint(description: &str) -> String {
    let mut hasher = Sha256::new();
    let mut buffer = [0u8; 4];
    for c in description
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
    {
        hasher.update(c.encode_utf8(&mut buffer).as_bytes());
    }
    hex::encode(hasher.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_whitespace_and_punctuation_do_not_change_the_fingerprint() {
        let plain = fingerprint("Boiler not working, no hot water");
        assert_eq!(
            fingerprint("  boiler NOT working -- no hot-water!!\n"),
            plain
        );
        assert_eq!(fingerprint("Boiler not working no hot water."), plain);
    }

    #[test]
    fn different_words_or_numbers_give_different_fingerprints() {
        let plain = fingerprint("Boiler not working, no hot water");
        assert_ne!(fingerprint("Boiler not working, no cold water"), plain);
        assert_ne!(
            fingerprint("Flat 1: boiler not working"),
            fingerprint("Flat 2: boiler not working")
        );
    }

    #[test]
    fn the_fingerprint_is_the_sha256_hex_of_the_normalised_text() {
        // Pinned: stored fingerprints must keep matching new ones.
        assert_eq!(fingerprint("A b, C!"), fingerprint("abc"));
        assert_eq!(
            fingerprint("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(fingerprint("Ünïcode Straße"), fingerprint("ünïcodestraße"));
    }
}
