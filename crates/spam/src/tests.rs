//! The screen as callers use it: signals summed against a threshold.

use super::*;

fn job(description: &str) -> SpamInput<'_> {
    SpamInput {
        description,
        first_name: "Priya",
        last_name: "Shah",
        email: "priya.shah@example.co.uk",
        phone: "07700 900456",
        postcode: "BS1 5TR",
        history: Default::default(),
    }
}

/// A signal with a fixed weight, to test the screen apart from the rules.
struct Fixed(&'static str, f64);

impl Signal for Fixed {
    fn name(&self) -> &'static str {
        self.0
    }

    fn assess(&self, _: &SpamInput<'_>, reasons: &mut Vec<Reason>) {
        reasons.push(Reason {
            signal: self.0,
            weight: self.1,
            detail: String::new(),
        });
    }
}

#[test]
fn the_default_screen_runs_the_first_rules_at_the_default_threshold() {
    let screen = SpamScreen::default();
    let names: Vec<_> = screen.signal_names().collect();
    assert_eq!(names, ["thin", "link", "repeated_characters"]);
    assert_eq!(screen.threshold(), SpamScreen::DEFAULT_THRESHOLD);
}

#[test]
fn a_clean_job_has_a_zero_score_and_no_reasons() {
    let assessment = SpamScreen::default().assess(&job("Boiler not working, no hot water"));
    assert_eq!(
        assessment,
        Assessment {
            score: 0.0,
            reasons: vec![],
            is_spam: false,
            model_version: None,
        }
    );
    assert!(assessment.score.is_sign_positive());
}

#[test]
fn the_score_is_the_sum_of_the_reasons_weights() {
    let assessment = SpamScreen::default().assess(&job("Cheap ??????????????????? www.spam.ru"));
    let signals: Vec<_> = assessment.reasons.iter().map(|r| r.signal).collect();
    assert_eq!(signals, ["thin", "link", "repeated_characters"]);
    let sum: f64 = assessment.reasons.iter().map(|r| r.weight).sum();
    assert_eq!(assessment.score, sum);
    assert_eq!(
        assessment.score,
        ThinDescription::MOSTLY_SYMBOLS + 1.0 + 0.6
    );
    assert!(assessment.is_spam);
}

#[test]
fn a_weak_signal_alone_is_not_spam_but_two_together_are() {
    let screen = SpamScreen::default();
    let one = screen.assess(&job(
        "Kitchen ceiling leaking from the bathroom above!!!!!!!",
    ));
    assert_eq!(one.score, RepeatedCharacters::WEIGHT);
    assert!(!one.is_spam);

    let two = screen.assess(&job("Boiler broken!!!!!!!"));
    assert_eq!(
        two.score,
        ThinDescription::SHORT + RepeatedCharacters::WEIGHT
    );
    assert!(two.is_spam);
}

#[test]
fn a_higher_threshold_lets_a_link_through() {
    let description = "Photos of the damp patch at www.example.com/photos";
    assert!(SpamScreen::default().assess(&job(description)).is_spam);

    let lenient = SpamScreen::with_first_rules(1.5).assess(&job(description));
    assert_eq!(lenient.score, Links::WEIGHT);
    assert!(!lenient.is_spam);
}

#[test]
fn a_score_exactly_at_the_threshold_is_spam() {
    let screen = SpamScreen::new(1.0)
        .with_signal(Fixed("half", 0.5))
        .with_signal(Fixed("other half", 0.5));
    let assessment = screen.assess(&job("anything"));
    assert_eq!(assessment.score, 1.0);
    assert!(assessment.is_spam);
}

#[test]
fn added_signals_run_after_the_first_rules_without_changing_callers() {
    let screen = SpamScreen::with_first_rules(1.0).with_signal(Fixed("velocity", 0.7));
    let assessment = screen.assess(&job("Kitchen tap dripping, washer needs replacing!!!!!!"));
    let signals: Vec<_> = assessment.reasons.iter().map(|r| r.signal).collect();
    assert_eq!(signals, ["repeated_characters", "velocity"]);
    assert!(assessment.is_spam);
}

#[test]
fn a_negative_weight_can_vouch_for_a_job() {
    let screen = SpamScreen::with_first_rules(1.0).with_signal(Fixed("trusted", -0.5));
    let assessment = screen.assess(&job("Cheap boiler service at www.example.com"));
    assert_eq!(assessment.score, 0.5);
    assert!(!assessment.is_spam);
}

#[test]
#[should_panic(expected = "finite positive")]
fn a_zero_threshold_is_refused() {
    SpamScreen::new(0.0);
}

#[test]
#[should_panic(expected = "finite positive")]
fn a_nan_threshold_is_refused() {
    SpamScreen::with_first_rules(f64::NAN);
}

#[test]
fn an_assessment_serialises_with_its_reasons_for_the_quarantine() {
    let assessment = SpamScreen::default().assess(&job("test"));
    let json = serde_json::to_value(&assessment).expect("serialises");
    assert_eq!(
        json,
        serde_json::json!({
            "score": 1.0,
            "reasons": [{ "signal": "thin", "weight": 1.0, "detail": "placeholder text \"test\"" }],
            "model_version": null,
            "is_spam": true,
        })
    );
}

#[test]
fn the_screen_is_shared_across_threads_and_debug_prints_its_signals() {
    fn shareable<T: Send + Sync>(_: &T) {}
    let screen = SpamScreen::default();
    shareable(&screen);
    assert_eq!(
        format!("{screen:?}"),
        r#"SpamScreen { signals: ["thin", "link", "repeated_characters"], threshold: 1.0 }"#
    );
}
