//! Messages meant for someone else: a customer-service complaint, a parcel
//! that never came, a password that will not reset, a table to book. They
//! reach the job form by mistake or by a bot filling every form it finds;
//! either way no trade can quote for them. The vocabulary is that of shops,
//! couriers, accounts and bookings, which a homeowner describing work rarely
//! needs.

use std::sync::LazyLock;

use regex::Regex;

use super::words::push_terms;
use super::{Reason, Signal, SpamInput, SpamScreen};

// Two terms and a text that names little of a job reject; one term never.
const _: () = assert!(Misdirected::PER_TERM * 2.0 < SpamScreen::DEFAULT_THRESHOLD);

/// Terms of shops, couriers, accounts and bookings, as whole words ignoring
/// case.
static TERMS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?xi) (?-u:\b) (?:
            customer\ services? | my\ (?:order|parcel|account|password|subscription|refund|booking|appointment|prescription)
          | parcel | tracking\ (?:number|says) | order\ (?:number|was\ placed) | refund | voucher | receipt
          | reset\ my\ password | log(?:ging)?\ (?:in|me\ out) | account\ number | policy\ (?:number|renews)
          | book\ a\ table | reservation | appointment | cancel\ my | opening\ times
          | petition | share\ (?:this|before) | forward\ this | type\ amen | copy\ and\ paste
          | chatbot | system\ prompt | previous\ instructions | translate | recipe | capital\ of
        ) (?-u:\b)",
    )
    .expect("the misdirected pattern compiles")
});

/// Most distinct terms counted.
const MAX_TERMS: usize = 2;

/// Adds one reason listing the distinct terms found, weighing
/// [`Misdirected::PER_TERM`] each, up to two.
#[derive(Debug, Clone, Copy, Default)]
pub struct Misdirected;

impl Misdirected {
    /// Weight per distinct term.
    pub const PER_TERM: f64 = 0.3;
}

impl Signal for Misdirected {
    fn name(&self) -> &'static str {
        "misdirected"
    }

    fn assess(&self, input: &SpamInput<'_>, reasons: &mut Vec<Reason>) {
        let vocabulary = (&*TERMS, MAX_TERMS, Self::PER_TERM);
        push_terms(
            reasons,
            self.name(),
            vocabulary,
            input.description,
            "terms of another service:",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn weight(description: &str) -> f64 {
        crate::reasons_of(&Misdirected, description)
            .pop()
            .map_or(0.0, |reason| reason.weight)
    }

    #[test]
    fn service_desk_messages_weigh_per_term_up_to_two() {
        assert_eq!(
            weight("Where is my parcel? Tracking says delivered, I want a refund"),
            Misdirected::PER_TERM * 2.0
        );
        assert_eq!(weight("Can I book a table for four"), Misdirected::PER_TERM);
    }

    #[test]
    fn jobs_have_none() {
        for job in [
            "Boiler not working, no hot water",
            "Need the oven cleaned before we hand the keys back, end of tenancy",
            "Insurance job: ceiling came down after a leak, loss adjuster has been",
        ] {
            assert_eq!(weight(job), 0.0, "{job}");
        }
    }
}
