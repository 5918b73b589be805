//! Contact details in the description: an e-mail address or a phone number
//! that differs from the ones in the job's own members. Spam often carries its
//! own reply channel; a homeowner's own number ("call me on ...") is normal and
//! is not counted, and even a foreign one only weighs a little, since a
//! homeowner may give a partner's or a landlord's number.

use std::sync::LazyLock;

use regex::Regex;

use super::{Reason, Signal, SpamInput, SpamScreen};

static EMAIL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?-u:\b)[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}(?-u:\b)")
        .expect("the e-mail pattern compiles")
});

/// Runs of 10 or more digits, allowing the spaces and dashes people type.
static PHONE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\+?\d[\d \-]{8,}\d").expect("the phone pattern compiles"));

/// `text` with every e-mail address replaced by `[email]` and every phone
/// number by `[phone]`: what is kept of a description when an operator's
/// decision turns it into a training example (docs/spam.md). The placeholders
/// keep the shape of the text ("call me on [phone]"), which is what the model
/// learns from, without the person's details.
pub fn redact_contact_details(text: &str) -> String {
    let text = EMAIL.replace_all(text, "[email]");
    PHONE.replace_all(&text, "[phone]").into_owned()
}

// Never decisive alone: it only tips a job that other signals already doubt.
const _: () = assert!(ContactDetails::WEIGHT < SpamScreen::DEFAULT_THRESHOLD / 2.0);

/// Flags a description that gives an e-mail address or phone number other than the job's own.
#[derive(Debug, Clone, Copy, Default)]
pub struct ContactDetails;

impl ContactDetails {
    /// Weight of foreign contact details in the description.
    pub const WEIGHT: f64 = 0.3;
}

fn digits(text: &str) -> String {
    text.chars().filter(char::is_ascii_digit).collect()
}

/// The last nine digits: `+44 7900 000000` and `07900000000` are the same number.
fn tail(number: &str) -> &str {
    &number[number.len().saturating_sub(9)..]
}

impl Signal for ContactDetails {
    fn name(&self) -> &'static str {
        "contact_details"
    }

    fn assess(&self, input: &SpamInput<'_>, reasons: &mut Vec<Reason>) {
        let own_phone = digits(input.phone);
        let foreign_email = EMAIL
            .find_iter(input.description)
            .find(|m| !m.as_str().eq_ignore_ascii_case(input.email.trim()));
        let foreign_phone = PHONE
            .find_iter(input.description)
            .find(|m| tail(&digits(m.as_str())) != tail(&own_phone));
        let detail = match (foreign_email, foreign_phone) {
            (Some(email), _) => format!("an e-mail address in the description: {}", email.as_str()),
            (None, Some(phone)) => format!("a phone number in the description: {}", phone.as_str()),
            (None, None) => return,
        };
        reasons.push(Reason {
            signal: self.name(),
            weight: Self::WEIGHT,
            detail,
        });
    }
}

#[cfg(test)]
mod redaction_tests {
    use super::redact_contact_details;

    #[test]
    fn addresses_and_numbers_are_replaced_and_the_rest_kept() {
        assert_eq!(
            redact_contact_details(
                "Leak under sink, call 07700 900123 or +44 7700-900-124, or mail jo.b@example.co.uk ta"
            ),
            "Leak under sink, call [phone] or [phone], or mail [email] ta"
        );
        assert_eq!(
            redact_contact_details("Fit 3 sockets, 2.4m apart"),
            "Fit 3 sockets, 2.4m apart"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reasons(description: &str) -> Vec<Reason> {
        let input = SpamInput {
            description,
            first_name: "Sam",
            last_name: "Jones",
            email: "sam@example.com",
            phone: "07900 123456",
            postcode: "SW1A 1AA",
            history: Default::default(),
        };
        let mut found = Vec::new();
        ContactDetails.assess(&input, &mut found);
        found
    }

    #[test]
    fn the_homeowners_own_number_and_address_are_not_counted() {
        assert!(reasons("Boiler broken, call me on +44 7900 123456 or sam@example.com").is_empty());
        assert!(reasons("Fence 12 metres long, about £1500 budget, 3 panels").is_empty());
    }

    #[test]
    fn another_address_or_number_weighs_a_little() {
        let found = reasons("Cheap loans, email offers@loans.example.biz today");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].weight, ContactDetails::WEIGHT);
        assert!(found[0].detail.contains("offers@loans.example.biz"));
        let found = reasons("Ring my landlord on 020 7946 0000 for access");
        assert!(found[0].detail.contains("020 7946 0000"));
    }
}
