//! Checking an operator's tree: what is accepted, and that every problem is named.

use super::*;

fn problems(json: &str) -> Vec<String> {
    CategoryTree::from_json(json).unwrap_err().problems
}

#[test]
fn a_minimal_tree_gets_defaults_clean_labels_and_made_up_slugs() {
    let json = r#"[{"id": 20, "label": "  Plumber ", "subcategories": [
        {"id": 3, "label": "Tap   Repair", "noindex": true},
        {"id": 4, "label": "Leaks", "name": "leaks", "subcategories": []}
    ]}, {"id": 5, "label": "Brick / Concrete Repairs", "nofollow": true, "extra": 1}]"#;
    let tree = CategoryTree::from_json(json).unwrap();
    assert_eq!(tree.len(), 4);
    let plumber = tree.get(20).unwrap();
    assert_eq!(
        (plumber.label.as_str(), plumber.name.as_str()),
        ("Plumber", "plumber")
    );
    assert!(!plumber.noindex && !plumber.nofollow);
    let tap = tree.get(3).unwrap();
    assert_eq!(
        (tap.label.as_str(), tap.name.as_str()),
        ("Tap Repair", "tap-repair")
    );
    assert!(tap.noindex && tap.parent == Some(20));
    assert_eq!(tree.get(5).unwrap().name, "brick-concrete-repairs");
    assert!(tree.get(5).unwrap().nofollow);
    assert_eq!(tree.reach(20), vec![20, 3, 4]);
    assert_eq!(
        tree.parents().map(|p| p.id).collect::<Vec<_>>(),
        vec![20, 5]
    );
}

#[test]
fn duplicate_ids_are_refused_naming_both_places() {
    let json = r#"[{"id": 12, "label": "Electrician", "subcategories": [{"id": 3, "label": "Rewires"}]},
        {"id": 20, "label": "Plumber", "subcategories": [{"id": 1, "label": "A"}, {"id": 3, "label": "Taps"}]}]"#;
    assert_eq!(
        problems(json),
        vec!["parent 20 (Plumber) at index 1 > sub category 3 (Taps) at index 1: duplicate id 3, \
              also used by parent 12 (Electrician) at index 0 > sub category 3 (Rewires) at index 0"]
    );
}

#[test]
fn a_third_level_is_refused() {
    let json = r#"[{"id": 1, "label": "A", "subcategories": [
        {"id": 2, "label": "B", "subcategories": [{"id": 3, "label": "C"}]}]}]"#;
    assert_eq!(
        problems(json),
        vec![
            "parent 1 (A) at index 0 > sub category 2 (B) at index 0: has 1 sub categories \
              of its own; the tree has two levels only"
        ]
    );
}

#[test]
fn blank_and_missing_labels_are_refused() {
    let json = r#"[{"id": 1, "label": "   "}, {"id": 2}, {"id": 3, "label": 7}]"#;
    assert_eq!(
        problems(json),
        vec![
            "parent 1 at index 0: label is blank",
            "parent 2 at index 1: label is missing",
            "parent 3 at index 2: label must be a string, found a number",
        ]
    );
}

#[test]
fn anything_but_a_non_empty_array_of_objects_is_refused() {
    assert!(problems(r#"{"id": 1}"#)[0].contains("must be a JSON array"));
    assert!(problems("[]")[0].contains("empty"));
    assert!(problems("[1, 2")[0].starts_with("not valid JSON"));
    assert_eq!(
        problems(r#"["Plumber"]"#),
        vec!["parent at index 0: must be a JSON object, found a string"]
    );
}

#[test]
fn bad_ids_names_and_flags_are_refused() {
    let json = r#"[{"id": 0, "label": "A"}, {"id": "7", "label": "B"}, {"id": 2.5, "label": "C"},
        {"id": 4294967296, "label": "D"}, {"label": "E"}, {"id": 6, "label": "F", "name": " "},
        {"id": 7, "label": "££", "noindex": "yes", "subcategories": {}}]"#;
    let found = problems(json);
    let expected = [
        "parent (A) at index 0: id must be an integer from 1 to 4294967295, found 0",
        "parent (B) at index 1: id must be an integer from 1 to 4294967295, found \"7\"",
        "parent (C) at index 2: id must be an integer",
        "parent (D) at index 3: id must be an integer",
        "parent (E) at index 4: id is missing",
        "parent 6 (F) at index 5: name is blank",
        "parent 7 (££) at index 6: name is missing and cannot be made from the label",
        "parent 7 (££) at index 6: noindex must be true or false, found a string",
        "parent 7 (££) at index 6: subcategories must be an array, found an object",
    ];
    assert_eq!(found.len(), expected.len(), "{found:#?}");
    for (found, expected) in found.iter().zip(expected) {
        assert!(
            found.starts_with(expected),
            "{found:?} should start with {expected:?}"
        );
    }
}

#[test]
fn every_problem_is_reported_at_once_one_per_line() {
    let json = r#"[{"id": 1, "label": "A", "subcategories": [{"id": 1, "label": " "}]},
        {"id": 2, "label": "B", "subcategories": [{"id": 3, "label": "C", "subcategories": [{}]}]}]"#;
    let error = CategoryTree::from_json(json).unwrap_err();
    assert_eq!(error.problems.len(), 3, "{error}");
    assert_eq!(error.to_string().lines().count(), 3);
    assert!(error.problems[0].ends_with("label is blank"));
    assert!(error.problems[1].contains("duplicate id 1, also used by parent 1 (A) at index 0"));
    assert!(error.problems[2].contains("two levels only"));
}
