//! The trade directory: imported whole or not at all, indexed, read back as
//! imported, carried forward from older formats; the category tree.

use crate::fixtures::trade;
use intake_core::store::Store;

/// Imported trades come back in the index and as cards; a re-import replaces
/// a trade whole (its reviews too) and every import bumps the version.
pub async fn imported_trades_are_indexed_and_replaced_whole(store: &dyn Store) {
    let before = store.directory_version().await.unwrap();
    let first = [trade(7, "Seven Plumbing", 4), trade(3, "Three Heating", 0)];
    let summary = store.import_trades(&first).await.unwrap();
    assert_eq!((summary.inserted, summary.updated), (2, 0));
    let after_first = store.directory_version().await.unwrap();
    assert!(after_first > before);

    let index = store.directory().await.unwrap();
    assert_eq!(
        index,
        vec![first[1].indexed(), first[0].indexed()],
        "ordered by company id, as imported"
    );
    assert!(index[1].base.is_some());
    assert_eq!(index[1].districts, ["BT1"]);

    let cards = store.trade_cards(&[7, 99, 3]).await.unwrap();
    assert_eq!(
        cards,
        vec![first[0].card_json(), first[1].card_json()],
        "in the order asked, unknown skipped"
    );
    let card: serde_json::Value = serde_json::from_str(&cards[0]).unwrap();
    assert_eq!(card["totalReviews"], 4);
    assert_eq!(card["recentReviews"].as_array().unwrap().len(), 3);

    let summary = store
        .import_trades(&[trade(7, "Seven Plumbing & Gas", 1)])
        .await
        .unwrap();
    assert_eq!((summary.inserted, summary.updated), (0, 1));
    let card: serde_json::Value =
        serde_json::from_str(&store.trade_cards(&[7]).await.unwrap()[0]).unwrap();
    assert_eq!(
        (card["companyName"].as_str(), card["totalReviews"].as_u64()),
        (Some("Seven Plumbing & Gas"), Some(1))
    );
    assert!(store.directory_version().await.unwrap() > after_first);
}

/// A trade reads back exactly as validated at import, with every member the
/// search answer is made from (reviews oldest first, images in order), and
/// its stored card is the card of what reads back.
pub async fn stored_trades_read_back_as_imported(store: &dyn Store) {
    let trades = [trade(7, "Seven Plumbing", 4), trade(3, "Three Heating", 0)];
    store.import_trades(&trades).await.unwrap();
    let records = store.trade_records(&[3, 99, 7]).await.unwrap();
    assert_eq!(
        records,
        vec![trades[1].record.clone(), trades[0].record.clone()],
        "in the order asked, unknown skipped"
    );
    let review = &records[1].reviews[0];
    assert_eq!(review.location.as_deref(), Some("SW1A"));
    assert_eq!(review.trade_response.as_deref(), Some("Thank you!"));
    assert_eq!(review.breakdowns.len(), 4);
    assert_eq!(
        records[1].images[1].you_tube_id.as_deref(),
        Some("dQw4w9WgXcQ")
    );
    for record in &records {
        assert_eq!(
            store.trade_cards(&[record.company_id]).await.unwrap(),
            [intake_core::directory::rows::card_json(record)]
        );
    }
}

/// An import that fails part-way writes nothing at all.
pub async fn a_failed_import_writes_nothing(store: &dyn Store) {
    store
        .import_trades(&[trade(1, "Existing", 2)])
        .await
        .unwrap();
    let version = store.directory_version().await.unwrap();
    let cards_before = store.trade_cards(&[1]).await.unwrap();
    // The same company twice in one import breaks the primary key at the end.
    let result = store
        .import_trades(&[
            trade(2, "Two", 1),
            trade(1, "Changed", 0),
            trade(2, "Two again", 0),
        ])
        .await;
    assert!(result.is_err());
    assert_eq!(store.directory().await.unwrap().len(), 1);
    assert_eq!(store.trade_cards(&[1]).await.unwrap(), cards_before);
    assert_eq!(store.directory_version().await.unwrap(), version);
}

/// The operator's category tree is kept and bumps the version.
pub async fn a_saved_category_tree_reads_back(store: &dyn Store) {
    assert_eq!(store.category_tree().await.unwrap(), None);
    let version = store.directory_version().await.unwrap();
    let json = r#"[{"id":1,"label":"Plumber","name":"plumber","subcategories":[],"noindex":false,"nofollow":false}]"#;
    store.save_category_tree(json).await.unwrap();
    assert_eq!(store.category_tree().await.unwrap().as_deref(), Some(json));
    assert!(store.directory_version().await.unwrap() > version);
}
