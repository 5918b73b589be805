//! SQL of the trade directory and the category tree.

use intake_core::directory::record::DEFAULT_ALBUM;
use intake_core::directory::{rows, IndexedTrade, TradeRecord, ValidTrade};
use intake_core::store::{ImportSummary, StoreError};
use intake_store_sql::rows::directory::{ImageRow, IndexRow, ReviewRow, TradeRow};
use sqlx::{QueryBuilder, Sqlite, SqlitePool, Transaction};
use std::collections::HashSet;
use time::OffsetDateTime;

/// Rows per multi-row INSERT (SQLite allows 32,766 bound values).
const CHUNK: usize = 1000;

pub async fn import(pool: &SqlitePool, trades: &[ValidTrade]) -> Result<ImportSummary, StoreError> {
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    let now = OffsetDateTime::now_utc();
    let mut summary = ImportSummary::default();
    for chunk in trades.chunks(CHUNK) {
        let existing = existing_ids(&mut tx, chunk).await?;
        summary.updated += existing.len() as u64;
        summary.inserted += (chunk.len() - existing.len()) as u64;
        if !existing.is_empty() {
            let mut delete =
                QueryBuilder::<Sqlite>::new("DELETE FROM trades WHERE company_id IN (");
            let mut ids = delete.separated(", ");
            for id in &existing {
                ids.push_bind(*id as i64);
            }
            delete.push(")").build().execute(&mut *tx).await?;
        }
        insert_trades(&mut tx, chunk, now).await?;
        insert_reviews(&mut tx, chunk).await?;
        insert_images(&mut tx, chunk).await?;
    }
    bump_version(&mut tx).await?;
    tx.commit().await?;
    // A large import leaves a WAL as big as the data; fold it back now rather
    // than make every later read search it.
    if let Err(error) = sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
        .execute(pool)
        .await
    {
        tracing::warn!(%error, "checkpoint after import failed; SQLite will retry on its own");
    }
    Ok(summary)
}

async fn existing_ids(
    tx: &mut Transaction<'_, Sqlite>,
    chunk: &[ValidTrade],
) -> Result<HashSet<u64>, StoreError> {
    let mut query =
        QueryBuilder::<Sqlite>::new("SELECT company_id FROM trades WHERE company_id IN (");
    let mut ids = query.separated(", ");
    for trade in chunk {
        ids.push_bind(trade.record.company_id as i64);
    }
    query.push(")");
    let ids: Vec<i64> = query.build_query_scalar().fetch_all(&mut **tx).await?;
    Ok(ids.into_iter().map(|id| id as u64).collect())
}

async fn insert_trades(
    tx: &mut Transaction<'_, Sqlite>,
    chunk: &[ValidTrade],
    now: OffsetDateTime,
) -> Result<(), StoreError> {
    let mut query = QueryBuilder::<Sqlite>::new(
        "INSERT INTO trades (company_id, company_name, logo_url, active, base_postcode, base_easting, base_northing, \
         radius_miles, districts, categories, webhook_url, email, review_score, total_reviews, card_json, updated_at) ",
    );
    query.push_values(chunk, |mut row, trade| {
        let record = &trade.record;
        let indexed = trade.indexed();
        let categories: Vec<String> = record.categories.iter().map(u32::to_string).collect();
        row.push_bind(record.company_id as i64)
            .push_bind(&record.company_name)
            .push_bind(&record.logo_url)
            .push_bind(record.active)
            .push_bind(&record.base_postcode)
            .push_bind(trade.base.map(|p| p.easting))
            .push_bind(trade.base.map(|p| p.northing))
            .push_bind(record.coverage.radius_miles)
            .push_bind(record.coverage.districts.join(" "))
            .push_bind(categories.join(" "))
            .push_bind(&record.delivery.webhook_url)
            .push_bind(&record.delivery.email)
            .push_bind(indexed.review_score)
            .push_bind(record.reviews.len() as i64)
            .push_bind(trade.card_json())
            .push_bind(now);
    });
    query.build().execute(&mut **tx).await?;
    Ok(())
}

async fn insert_reviews(
    tx: &mut Transaction<'_, Sqlite>,
    chunk: &[ValidTrade],
) -> Result<(), StoreError> {
    let rows: Vec<_> = chunk
        .iter()
        .flat_map(|t| {
            t.record
                .reviews
                .iter()
                .map(move |r| (t.record.company_id, r))
        })
        .collect();
    for part in rows.chunks(CHUNK) {
        let mut query = QueryBuilder::<Sqlite>::new(
            "INSERT INTO trade_reviews (company_id, review_id, title, body, score, breakdowns, location, verified, \
             created_at, trade_response) ",
        );
        query.push_values(part, |mut row, (company_id, review)| {
            row.push_bind(*company_id as i64)
                .push_bind(&review.id)
                .push_bind(&review.title)
                .push_bind(&review.body)
                .push_bind(review.score)
                .push_bind(rows::breakdowns_json(review))
                .push_bind(&review.location)
                .push_bind(review.verified)
                .push_bind(&review.created_at)
                .push_bind(&review.trade_response);
        });
        query.build().execute(&mut **tx).await?;
    }
    Ok(())
}

async fn insert_images(
    tx: &mut Transaction<'_, Sqlite>,
    chunk: &[ValidTrade],
) -> Result<(), StoreError> {
    let rows: Vec<_> = chunk
        .iter()
        .flat_map(|t| {
            t.record
                .images
                .iter()
                .enumerate()
                .map(move |(i, image)| (t.record.company_id, i, image))
        })
        .collect();
    for part in rows.chunks(CHUNK) {
        let mut query = QueryBuilder::<Sqlite>::new(
            "INSERT INTO trade_images (company_id, image_id, position, album_id, kind, url, thumbnail_url, url_template, \
             description, label, title, taken_on, youtube_id, width, height) ",
        );
        query.push_values(part, |mut row, (company_id, position, image)| {
            row.push_bind(*company_id as i64)
                .push_bind(&image.id)
                .push_bind(*position as i64)
                .push_bind(image.album_id.as_deref().unwrap_or(DEFAULT_ALBUM))
                .push_bind(image.kind.as_str())
                .push_bind(&image.url)
                .push_bind(&image.thumbnail_url)
                .push_bind(&image.url_template)
                .push_bind(&image.description)
                .push_bind(&image.label)
                .push_bind(&image.title)
                .push_bind(&image.date)
                .push_bind(&image.you_tube_id)
                .push_bind(image.width)
                .push_bind(image.height);
        });
        query.build().execute(&mut **tx).await?;
    }
    Ok(())
}

async fn bump_version(tx: &mut Transaction<'_, Sqlite>) -> Result<(), StoreError> {
    sqlx::query("UPDATE directory_state SET version = version + 1 WHERE id = 1")
        .execute(&mut **tx)
        .await?;
    Ok(())
}

pub async fn index(pool: &SqlitePool) -> Result<Vec<IndexedTrade>, StoreError> {
    use futures::TryStreamExt;
    // Streamed row by row: a 100,000-trade directory never sits in memory twice.
    let mut rows = sqlx::query_as::<_, IndexRow>(
        "SELECT company_id, company_name, active, base_easting, base_northing, radius_miles, districts, categories, review_score \
         FROM trades ORDER BY company_id",
    )
    .fetch(pool);
    let mut trades = Vec::new();
    while let Some(row) = rows.try_next().await? {
        trades.push(row.into_indexed()?);
    }
    trades.shrink_to_fit();
    Ok(trades)
}

pub async fn cards(pool: &SqlitePool, company_ids: &[u64]) -> Result<Vec<String>, StoreError> {
    if company_ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut query = QueryBuilder::<Sqlite>::new(
        "SELECT company_id, card_json FROM trades WHERE company_id IN (",
    );
    let mut ids = query.separated(", ");
    for id in company_ids {
        ids.push_bind(*id as i64);
    }
    query.push(")");
    let rows: Vec<(i64, String)> = query.build_query_as().fetch_all(pool).await?;
    let mut by_id: std::collections::HashMap<u64, String> = rows
        .into_iter()
        .map(|(id, card)| (id as u64, card))
        .collect();
    Ok(company_ids
        .iter()
        .filter_map(|id| by_id.remove(id))
        .collect())
}

pub async fn version(pool: &SqlitePool) -> Result<i64, StoreError> {
    Ok(
        sqlx::query_scalar("SELECT version FROM directory_state WHERE id = 1")
            .fetch_one(pool)
            .await?,
    )
}

pub async fn save_tree(pool: &SqlitePool, json: &str) -> Result<(), StoreError> {
    sqlx::query("UPDATE directory_state SET category_tree = ?, version = version + 1 WHERE id = 1")
        .bind(json)
        .execute(pool)
        .await?;
    Ok(())
}

pub async fn tree(pool: &SqlitePool) -> Result<Option<String>, StoreError> {
    Ok(
        sqlx::query_scalar("SELECT category_tree FROM directory_state WHERE id = 1")
            .fetch_one(pool)
            .await?,
    )
}

/// The stored records of these trades, in the order asked (unknown ids skipped).
pub async fn records(
    pool: &SqlitePool,
    company_ids: &[u64],
) -> Result<Vec<TradeRecord>, StoreError> {
    let mut conn = pool.acquire().await?;
    load_records(&mut conn, company_ids).await
}

async fn load_records(
    conn: &mut sqlx::SqliteConnection,
    company_ids: &[u64],
) -> Result<Vec<TradeRecord>, StoreError> {
    let mut by_id = std::collections::HashMap::new();
    for chunk in company_ids.chunks(CHUNK) {
        let select = |sql: &str| {
            let mut query = QueryBuilder::<Sqlite>::new(sql);
            let mut ids = query.separated(", ");
            for id in chunk {
                ids.push_bind(*id as i64);
            }
            query.push(")");
            query
        };
        let trades: Vec<TradeRow> = select(
            "SELECT company_id, company_name, logo_url, active, base_postcode, radius_miles, districts, categories, \
             webhook_url, email FROM trades WHERE company_id IN (",
        )
        .build_query_as()
        .fetch_all(&mut *conn)
        .await?;
        for row in trades {
            let record = row.into_record()?;
            by_id.insert(record.company_id, record);
        }
        let reviews: Vec<ReviewRow> = select(
            "SELECT company_id, review_id, title, body, score, breakdowns, location, verified, created_at, trade_response \
             FROM trade_reviews WHERE company_id IN (",
        )
        .push(" ORDER BY company_id, created_at, review_id")
        .build_query_as()
        .fetch_all(&mut *conn)
        .await?;
        for row in reviews {
            if let Some(record) = by_id.get_mut(&(row.company_id as u64)) {
                record.reviews.push(row.into_record()?);
            }
        }
        let images: Vec<ImageRow> = select(
            "SELECT company_id, image_id, album_id, kind, url, thumbnail_url, url_template, description, label, title, \
             taken_on, youtube_id, width, height FROM trade_images WHERE company_id IN (",
        )
        .push(" ORDER BY company_id, position")
        .build_query_as()
        .fetch_all(&mut *conn)
        .await?;
        for row in images {
            if let Some(record) = by_id.get_mut(&(row.company_id as u64)) {
                record.images.push(row.into_record()?);
            }
        }
    }
    Ok(company_ids
        .iter()
        .filter_map(|id| by_id.remove(id))
        .collect())
}

/// Rebuilds every stored search card written in an older format than this
/// binary's ([`rows::CARD_FORMAT`]), from the stored rows, in one write
/// transaction; nothing when the cards are current.
pub async fn rebuild_stale_cards(pool: &SqlitePool) -> Result<u64, StoreError> {
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    let format: i64 = sqlx::query_scalar("SELECT card_format FROM directory_state WHERE id = 1")
        .fetch_one(&mut *tx)
        .await?;
    if format >= rows::CARD_FORMAT {
        return Ok(0);
    }
    let ids: Vec<i64> = sqlx::query_scalar("SELECT company_id FROM trades ORDER BY company_id")
        .fetch_all(&mut *tx)
        .await?;
    let ids: Vec<u64> = ids.into_iter().map(|id| id as u64).collect();
    for chunk in ids.chunks(CHUNK) {
        for record in load_records(&mut tx, chunk).await? {
            sqlx::query("UPDATE trades SET card_json = ? WHERE company_id = ?")
                .bind(rows::card_json(&record))
                .bind(record.company_id as i64)
                .execute(&mut *tx)
                .await?;
        }
    }
    sqlx::query("UPDATE directory_state SET card_format = ? WHERE id = 1")
        .bind(rows::CARD_FORMAT)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(ids.len() as u64)
}
