//! The shipped tree and the tree's accessors.

use super::*;

fn tree() -> &'static CategoryTree {
    CategoryTree::embedded()
}

fn label(id: u32) -> &'static str {
    &tree()
        .get(id)
        .unwrap_or_else(|| panic!("{id} missing"))
        .label
}

#[test]
fn the_embedded_tree_holds_over_a_thousand_categories() {
    assert!(tree().len() > 1000, "{}", tree().len());
    assert!(!tree().is_empty());
    assert_eq!(tree().parents().count(), 72);
}

#[test]
fn the_embedded_tree_keeps_the_ids_of_2021() {
    assert_eq!(label(20), "Plumber");
    assert_eq!(label(12), "Electrician");
    assert_eq!(label(10), "Central Heating");
    assert_eq!(label(667), "Telecommunications");
    assert_eq!(tree().get(667).unwrap().parent, None);
    assert_eq!(label(88), "Gas Boiler Installation");
    assert_eq!(label(1335), "Boiler Repairs / Servicing");
    let heating: Vec<u32> = tree().children(10).map(|c| c.id).collect();
    assert!(
        heating.contains(&88) && heating.contains(&1335),
        "{heating:?}"
    );
    assert_eq!(tree().get(1335).unwrap().parent, Some(10));
    // The 2021 dump holds 944 categories with ids up to 1970; ours start above.
    let old = tree().nodes.iter().filter(|c| c.id <= 1970).count();
    assert_eq!(old, 944);
}

#[test]
fn embedded_labels_are_trimmed_and_single_spaced() {
    for category in &tree().nodes {
        let l = &category.label;
        assert!(!l.is_empty() && l.trim() == l && !l.contains("  "), "{l:?}");
        assert!(!category.name.is_empty(), "{}", category.id);
    }
    assert_eq!(label(834), "Rubbish / Waste / Clearance");
    assert_eq!(label(1895), "Dust / Fume Extraction");
}

#[test]
fn embedded_parents_and_sub_categories_are_in_label_order() {
    let sorted = |labels: Vec<String>| labels.windows(2).all(|w| w[0] <= w[1]);
    let key = |c: &Category| c.label.to_lowercase();
    assert!(sorted(tree().parents().map(key).collect()));
    for parent in tree().parents() {
        assert!(
            sorted(tree().children(parent.id).map(key).collect()),
            "{}",
            parent.label
        );
    }
}

#[test]
fn sellers_of_goods_and_second_copies_of_a_slug_are_not_indexed() {
    let building_merchants = tree().get(1307).unwrap();
    assert!(building_merchants.noindex && building_merchants.nofollow);
    let (roofer_moss, cleaning_moss) = (tree().get(1197).unwrap(), tree().get(1896).unwrap());
    assert_eq!(roofer_moss.name, cleaning_moss.name);
    assert!(!roofer_moss.noindex && cleaning_moss.noindex && !cleaning_moss.nofollow);
    let plumber = tree().get(20).unwrap();
    assert!(!plumber.noindex && !plumber.nofollow);
}

#[test]
fn a_parent_reaches_itself_then_its_sub_categories() {
    let reach = tree().reach(10);
    assert_eq!(reach[0], 10);
    assert_eq!(reach.len(), 1 + tree().children(10).count());
    assert!(reach.contains(&88) && reach.contains(&1335));
}

#[test]
fn a_sub_category_reaches_only_itself_and_an_unknown_id_nothing() {
    assert_eq!(tree().reach(88), vec![88]);
    assert_eq!(tree().reach(999_999), Vec::<u32>::new());
    assert_eq!(tree().children(88).count(), 0);
    assert_eq!(tree().children(999_999).count(), 0);
    assert!(tree().get(0).is_none());
}

#[test]
fn the_wire_form_nests_sub_categories_under_their_parents() {
    let wire = tree().to_wire();
    assert_eq!(wire.len(), 72);
    let heating = wire.iter().find(|node| node.id == 10).unwrap();
    assert_eq!(heating.label, "Central Heating");
    assert_eq!(heating.name, "central-heating");
    assert!(heating
        .subcategories
        .iter()
        .all(|sub| sub.subcategories.is_empty()));
    let total: usize = wire.iter().map(|p| 1 + p.subcategories.len()).sum();
    assert_eq!(total, tree().len());
}

#[test]
fn to_json_then_from_json_gives_the_same_tree() {
    let json = tree().to_json();
    assert_eq!(&CategoryTree::from_json(&json).unwrap(), tree());
    assert!(json.starts_with(r#"[{"id":"#), "{}", &json[..40]);
}
