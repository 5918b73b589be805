use super::*;

fn reasons(description: &str) -> Vec<Reason> {
    crate::reasons_of(&ThinDescription, description)
}

fn weight(description: &str) -> f64 {
    match reasons(description).as_slice() {
        [] => 0.0,
        [reason] => reason.weight,
        more => panic!("{description:?} gave more than one reason: {more:?}"),
    }
}

#[test]
fn placeholders_weigh_enough_to_reject_alone() {
    for text in [
        "test",
        "Testing",
        "TEST 123",
        "asdf",
        "asdf asdf",
        "n/a",
        "N/A.",
        "none",
        "qwerty",
        "Hello world!",
        "lorem ipsum",
        "Lorem ipsum dolor sit amet, consectetur adipiscing elit",
    ] {
        let found = reasons(text);
        assert_eq!(found.len(), 1, "{text:?}");
        assert_eq!(found[0].weight, ThinDescription::EMPTY, "{text:?}");
        assert!(
            found[0].detail.starts_with("placeholder"),
            "{text:?}: {found:?}"
        );
    }
}

#[test]
fn a_placeholder_inside_a_real_description_is_not_flagged() {
    assert_eq!(
        weight("Need a PAT test for 12 appliances in the office"),
        0.0
    );
    assert_eq!(
        weight("Shower works but the test button on the RCD trips"),
        0.0
    );
}

#[test]
fn one_word_or_phrase_repeated_weighs_enough_to_reject_alone() {
    for text in [
        "fix fix fix fix fix fix",
        "Boiler boiler BOILER",
        "buy now buy now buy",
    ] {
        let found = reasons(text);
        assert_eq!(found[0].weight, ThinDescription::EMPTY, "{text:?}");
        assert!(found[0].detail.contains("repeated"), "{text:?}: {found:?}");
    }
}

#[test]
fn repeating_one_word_inside_a_real_description_is_not_flagged() {
    assert_eq!(
        weight("Drip drip drip from the kitchen ceiling all night"),
        0.0
    );
}

#[test]
fn fewer_than_two_content_words_weighs_enough_to_reject_alone() {
    for text in [
        "hi",
        "Hello, please help",
        "Need a job",
        "Boiler",
        "1234 5678",
        "",
    ] {
        let found = reasons(text);
        assert_eq!(found[0].weight, ThinDescription::EMPTY, "{text:?}");
        assert!(
            found[0].detail.contains("content words"),
            "{text:?}: {found:?}"
        );
    }
}

#[test]
fn mostly_symbols_weighs_less_than_the_threshold() {
    let found = reasons("~~ fix ## boiler @@ ** ^^ %% ++");
    assert_eq!(found[0].weight, ThinDescription::MOSTLY_SYMBOLS);
}

#[test]
fn digits_do_not_count_as_symbols() {
    assert_eq!(weight("Patio 3.5m x 2m, £1500 budget, 07700 900123"), 0.0);
}

#[test]
fn a_two_word_job_weighs_less_than_the_threshold() {
    assert_eq!(weight("Boiler broken"), ThinDescription::SHORT);
    assert_eq!(weight("Replace 2 radiators"), ThinDescription::SHORT);
}

#[test]
fn only_the_strongest_fault_is_reported() {
    // "test" is a placeholder, short and without content words at once.
    assert_eq!(weight("test"), ThinDescription::EMPTY);
}

#[test]
fn a_real_description_is_not_flagged() {
    assert_eq!(weight("Boiler not working, no hot water"), 0.0);
    assert_eq!(weight("Lock snapped, can't open front door!!"), 0.0);
}
