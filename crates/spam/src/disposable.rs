//! Disposable ("burner") e-mail domains: an address that stops working within
//! the hour is no way for a trade to reach a homeowner.

use super::{Reason, Signal, SpamInput, SpamScreen};

// A homeowner may use a burner to avoid marketing, so it only rejects with
// another signal.
const _: () = assert!(DisposableEmail::WEIGHT < SpamScreen::DEFAULT_THRESHOLD);

/// The bundled list, one domain a line, `#` starting a comment.
const DOMAINS: &str = include_str!("../../../data/spam/disposable-domains.txt");

/// Privacy relays forward to a real inbox for as long as the person wants;
/// they are never disposable. A trailing `.` means "any TLD".
const RELAYS: &[&str] = &["privaterelay.appleid.com", "duck.com", "simplelogin."];

/// Flags an e-mail address at a disposable domain or one of its subdomains.
#[derive(Debug, Clone, Copy, Default)]
pub struct DisposableEmail;

impl DisposableEmail {
    /// Below the threshold: with any other reason, the job rejects.
    pub const WEIGHT: f64 = 0.7;

    /// The disposable domain `email` is at, if any.
    pub fn domain(email: &str) -> Option<&'static str> {
        let host = email.rsplit_once('@')?.1.trim().trim_end_matches('.');
        let host = host.to_ascii_lowercase();
        if is_relay(&host) {
            return None;
        }
        disposable_domains().find(|domain| {
            host == *domain
                || host
                    .strip_suffix(domain)
                    .is_some_and(|rest| rest.ends_with('.'))
        })
    }
}

impl Signal for DisposableEmail {
    fn name(&self) -> &'static str {
        "disposable_email"
    }

    fn assess(&self, input: &SpamInput<'_>, reasons: &mut Vec<Reason>) {
        if let Some(domain) = Self::domain(input.email) {
            reasons.push(Reason {
                signal: self.name(),
                weight: Self::WEIGHT,
                detail: format!("disposable e-mail domain {domain:?}"),
            });
        }
    }
}

/// The domains of the bundled list.
fn disposable_domains() -> impl Iterator<Item = &'static str> {
    DOMAINS
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
}

/// Whether `host` (lower case) is a privacy relay or a subdomain of one.
fn is_relay(host: &str) -> bool {
    RELAYS.iter().any(|relay| match relay.strip_suffix('.') {
        Some(name) => host
            .split('.')
            .collect::<Vec<_>>()
            .windows(2)
            .any(|pair| pair[0] == name && !pair[1].is_empty()),
        None => {
            host == *relay
                || host
                    .strip_suffix(relay)
                    .is_some_and(|rest| rest.ends_with('.'))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_list_has_the_well_known_services() {
        assert!(disposable_domains().count() >= 60);
        for email in [
            "a@mailinator.com",
            "b@10minutemail.com",
            "c@GuerrillaMail.com",
            "d@yopmail.fr",
            "e@eu.mailinator.com",
        ] {
            assert!(DisposableEmail::domain(email).is_some(), "{email}");
        }
    }

    #[test]
    fn ordinary_providers_and_lookalikes_are_not_disposable() {
        for email in [
            "jo@gmail.com",
            "jo@btinternet.com",
            "jo@notmailinator.com",
            "jo@mailinator.com.example.org",
            "no-at-sign",
        ] {
            assert_eq!(DisposableEmail::domain(email), None, "{email}");
        }
    }

    #[test]
    fn privacy_relays_are_allowed() {
        for email in [
            "x1y2@privaterelay.appleid.com",
            "quiet.fox@duck.com",
            "alias@simplelogin.com",
            "alias@aleeas.simplelogin.fr",
        ] {
            assert!(is_relay(email.rsplit_once('@').unwrap().1), "{email}");
            assert_eq!(DisposableEmail::domain(email), None, "{email}");
        }
    }

    #[test]
    fn a_disposable_address_weighs_below_the_threshold() {
        let input = SpamInput {
            description: "Leaking tap",
            first_name: "Jo",
            last_name: "Byrne",
            email: "jo@sharklasers.com",
            phone: "07700 900333",
            postcode: "N16 8JH",
            history: Default::default(),
        };
        let mut reasons = Vec::new();
        DisposableEmail.assess(&input, &mut reasons);
        assert_eq!(reasons.len(), 1);
        assert_eq!(reasons[0].weight, DisposableEmail::WEIGHT);
        assert_eq!(
            reasons[0].detail,
            "disposable e-mail domain \"sharklasers.com\""
        );
    }
}
