//! Submissions that say they are tests: "test job, please ignore", "dummy job
//! for testing the API". An affiliate's integration test is not a homeowner.

use std::sync::LazyLock;

use regex::Regex;

use super::{Reason, Signal, SpamInput, SpamScreen};

// A test phrase alone is below the threshold: "testing" has real uses (an
// EICR, a pressure test), so only phrases are matched and they need company.
const _: () = assert!(TestSubmission::WEIGHT < SpamScreen::DEFAULT_THRESHOLD);

/// Phrases that announce a test, as whole words ignoring case. Bare "test" is
/// left to the thin rule, which catches it when it is the whole description.
static PHRASES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?xi) (?-u:\b) (?:
            (?:please|pls|plz)\ ignore | ignore\ this | do\ not\ attend
          | test\ (?:job|submission|request|lead|only) | just\ testing | testing\ (?:the|our)\ (?:api|form|integration)
          | this\ is\ a\ test | dummy | placeholder | sample\ (?:description|text|job)
          | do\ not\ (?:process|action|quote|contact|deliver|send) | please\ delete | delete\ (?:this|me)
          | not\ a\ real\ (?:job|request|lead|customer) | fake\ (?:job|lead|request|data|customer)
          | (?:integration|load|smoke|api|form|unit|qa|uat)\ test(?:ing)? | test\ (?:run|case|data|env(?:ironment)?|account|key|payload|\#?\d+)
          | dev\ env | staging\ (?:env|environment|server|test) | lorem\ ipsum | hello\ world | foo\ bar
          | quick\ brown\ fox | testing\ testing | (?:just\ )?(?:checking|seeing)\ (?:if|whether|that|what\ happens|the\ form)
        ) (?-u:\b)",
    )
    .expect("the test phrase pattern compiles")
});

/// Flags a description containing a test phrase; one reason, quoting the
/// first phrase.
#[derive(Debug, Clone, Copy, Default)]
pub struct TestSubmission;

impl TestSubmission {
    /// Enough to reject with a thin description or an odd name.
    pub const WEIGHT: f64 = 0.6;
}

impl Signal for TestSubmission {
    fn name(&self) -> &'static str {
        "test_submission"
    }

    fn assess(&self, input: &SpamInput<'_>, reasons: &mut Vec<Reason>) {
        if let Some(phrase) = PHRASES.find(input.description) {
            reasons.push(Reason {
                signal: self.name(),
                weight: Self::WEIGHT,
                detail: format!("test phrase {:?}", phrase.as_str()),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn phrase(description: &str) -> Option<String> {
        let input = SpamInput {
            description,
            first_name: "Ade",
            last_name: "Okafor",
            email: "ade@example.co.uk",
            phone: "07700 900666",
            postcode: "M14 5RT",
            history: Default::default(),
        };
        let mut reasons = Vec::new();
        TestSubmission.assess(&input, &mut reasons);
        reasons.pop().map(|reason| reason.detail)
    }

    #[test]
    fn test_phrases_are_quoted() {
        for (text, quoted) in [
            ("Test job, please ignore", "Test job"),
            ("dummy job for testing the API", "dummy"),
            ("placeholder text", "placeholder"),
            ("TEST JOB DO NOT ATTEND", "TEST JOB"),
        ] {
            assert_eq!(
                phrase(text),
                Some(format!("test phrase {quoted:?}")),
                "{text}"
            );
        }
    }

    #[test]
    fn real_testing_work_is_not_a_test_submission() {
        for text in [
            "EICR testing needed for rental flat",
            "Pressure test the gas supply after moving the hob",
            "PAT testing for a small office, about 30 appliances",
            "Smoke alarms need testing and replacing",
        ] {
            assert_eq!(phrase(text), None, "{text}");
        }
    }
}
