//! The standard screen measured on the held-out split of the labelled set,
//! and the committed model checked against the data it was trained on. These
//! fail when a change to a rule, a weight or the data makes the screen worse.

use super::labelled::{training_examples, Evaluation, Labelled};
use super::{embedded_model, NaiveBayes, SpamScreen};

const LABELLED: &str = include_str!("../../../data/spam/labelled.jsonl");
const MODEL: &str = include_str!("../../../data/spam/model.json");

fn labelled() -> Vec<Labelled> {
    Labelled::parse_all(LABELLED).expect("the labelled set parses")
}

#[test]
fn the_labelled_set_is_big_enough_and_holds_out_a_quarter() {
    let set = labelled();
    let spam = set.iter().filter(|example| example.is_spam()).count();
    let test = set.len() - training_examples(&set).len();
    assert!(
        set.len() >= 600 && spam >= 200,
        "{} rows, {spam} spam",
        set.len()
    );
    assert!(
        (0.2..0.3).contains(&(test as f64 / set.len() as f64)),
        "{test} held out"
    );
}

#[test]
fn the_embedded_model_is_the_one_trained_on_the_train_split() {
    let set = labelled();
    let fresh = NaiveBayes::train(&training_examples(&set));
    assert!(
        fresh.to_json() == MODEL,
        "data/spam/model.json is stale: run `intake spam train`"
    );
    assert_eq!(&fresh, embedded_model());
}

#[test]
fn the_standard_screen_meets_its_targets_on_the_held_out_split() {
    let set = labelled();
    let evaluation = Evaluation::run(&SpamScreen::standard(SpamScreen::DEFAULT_THRESHOLD), &set);
    let mistakes: Vec<_> = evaluation
        .mistakes
        .iter()
        .map(|(example, assessment)| (&example.description, &assessment.reasons))
        .collect();
    assert!(
        evaluation.false_positive_rate() <= 0.01 && evaluation.recall() >= 0.95,
        "false-positive rate {:.3}, recall {:.3}, mistakes {mistakes:#?}",
        evaluation.false_positive_rate(),
        evaluation.recall(),
    );
}
