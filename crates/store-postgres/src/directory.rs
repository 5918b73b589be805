//! SQL of the trade directory and the category tree.

use intake_core::directory::record::DEFAULT_ALBUM;
use intake_core::directory::{rows, IndexedTrade, TradeRecord, ValidTrade};
use intake_core::store::{ImportSummary, StoreError};
use intake_store_sql::rows::directory::{ImageRow, IndexRow, ReviewRow, TradeRow};
use sqlx::{PgPool, Postgres, QueryBuilder, Transaction};
use std::collections::HashSet;
use time::OffsetDateTime;

/// Rows per multi-row INSERT (PostgreSQL allows 65,535 bound values).
const CHUNK: usize = 1000;

pub async fn import(pool: &PgPool, trades: &[ValidTrade]) -> Result<ImportSummary, StoreError> {
    let mut tx = pool.begin().await?;
    // Imports from several processes take turns: each sees the trades the
    // one before it wrote, so its inserted/updated counts are right.
    sqlx::query("SELECT version FROM directory_state WHERE id = 1 FOR UPDATE")
        .execute(&mut *tx)
        .await?;
    let now = OffsetDateTime::now_utc();
    let mut summary = ImportSummary::default();
    for chunk in trades.chunks(CHUNK) {
        let existing = existing_ids(&mut tx, chunk).await?;
        summary.updated += existing.len() as u64;
        summary.inserted += (chunk.len() - existing.len()) as u64;
        if !existing.is_empty() {
            let ids: Vec<i64> = existing.iter().map(|id| *id as i64).collect();
            sqlx::query("DELETE FROM trades WHERE company_id = ANY($1)")
                .bind(ids)
                .execute(&mut *tx)
                .await?;
        }
        insert_trades(&mut tx, chunk, now).await?;
        insert_reviews(&mut tx, chunk).await?;
        insert_images(&mut tx, chunk).await?;
    }
    sqlx::query("UPDATE directory_state SET version = version + 1 WHERE id = 1")
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(summary)
}

async fn existing_ids(
    tx: &mut Transaction<'_, Postgres>,
    chunk: &[ValidTrade],
) -> Result<HashSet<u64>, StoreError> {
    let ids: Vec<i64> = chunk.iter().map(|t| t.record.company_id as i64).collect();
    let found: Vec<i64> =
        sqlx::query_scalar("SELECT company_id FROM trades WHERE company_id = ANY($1)")
            .bind(ids)
            .fetch_all(&mut **tx)
            .await?;
    Ok(found.into_iter().map(|id| id as u64).collect())
}

async fn insert_trades(
    tx: &mut Transaction<'_, Postgres>,
    chunk: &[ValidTrade],
    now: OffsetDateTime,
) -> Result<(), StoreError> {
    let mut query = QueryBuilder::<Postgres>::new(
        "INSERT INTO trades (company_id, company_name, logo_url, active, base_postcode, base_easting, base_northing, \
         radius_miles, districts, categories, webhook_url, email, review_score, total_reviews, card_json, updated_at) ",
    );
    query.push_values(chunk, |mut row, trade| {
        let record = &trade.record;
        let indexed = trade.indexed();
        let categories: Vec<String> = record.categories.iter().map(u32::to_string).collect();
        row.push_bind(record.company_id as i64)
            .push_bind(record.company_name.clone())
            .push_bind(record.logo_url.clone())
            .push_bind(record.active)
            .push_bind(record.base_postcode.clone())
            .push_bind(trade.base.map(|p| p.easting))
            .push_bind(trade.base.map(|p| p.northing))
            .push_bind(record.coverage.radius_miles)
            .push_bind(record.coverage.districts.join(" "))
            .push_bind(categories.join(" "))
            .push_bind(record.delivery.webhook_url.clone())
            .push_bind(record.delivery.email.clone())
            .push_bind(indexed.review_score)
            .push_bind(record.reviews.len() as i64)
            .push_bind(trade.card_json())
            .push_bind(now);
    });
    query.build().execute(&mut **tx).await?;
    Ok(())
}

async fn insert_reviews(
    tx: &mut Transaction<'_, Postgres>,
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
        let mut query = QueryBuilder::<Postgres>::new(
            "INSERT INTO trade_reviews (company_id, review_id, title, body, score, breakdowns, location, verified, \
             created_at, trade_response) ",
        );
        query.push_values(part, |mut row, (company_id, review)| {
            row.push_bind(*company_id as i64)
                .push_bind(review.id.clone())
                .push_bind(review.title.clone())
                .push_bind(review.body.clone())
                .push_bind(review.score)
                .push_bind(rows::breakdowns_json(review))
                .push_bind(review.location.clone())
                .push_bind(review.verified)
                .push_bind(review.created_at.clone())
                .push_bind(review.trade_response.clone());
        });
        query.build().execute(&mut **tx).await?;
    }
    Ok(())
}

async fn insert_images(
    tx: &mut Transaction<'_, Postgres>,
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
        let mut query = QueryBuilder::<Postgres>::new(
            "INSERT INTO trade_images (company_id, image_id, position, album_id, kind, url, thumbnail_url, url_template, \
             description, label, title, taken_on, youtube_id, width, height) ",
        );
        query.push_values(part, |mut row, (company_id, position, image)| {
            row.push_bind(*company_id as i64)
                .push_bind(image.id.clone())
                .push_bind(*position as i32)
                .push_bind(
                    image
                        .album_id
                        .clone()
                        .unwrap_or_else(|| DEFAULT_ALBUM.to_owned()),
                )
                .push_bind(image.kind.as_str())
                .push_bind(image.url.clone())
                .push_bind(image.thumbnail_url.clone())
                .push_bind(image.url_template.clone())
                .push_bind(image.description.clone())
                .push_bind(image.label.clone())
                .push_bind(image.title.clone())
                .push_bind(image.date.clone())
                .push_bind(image.you_tube_id.clone())
                .push_bind(image.width.map(|w| w as i32))
                .push_bind(image.height.map(|h| h as i32));
        });
        query.build().execute(&mut **tx).await?;
    }
    Ok(())
}

pub async fn index(pool: &PgPool) -> Result<Vec<IndexedTrade>, StoreError> {
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

pub async fn cards(pool: &PgPool, company_ids: &[u64]) -> Result<Vec<String>, StoreError> {
    if company_ids.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<i64> = company_ids.iter().map(|id| *id as i64).collect();
    let rows: Vec<(i64, String)> =
        sqlx::query_as("SELECT company_id, card_json FROM trades WHERE company_id = ANY($1)")
            .bind(ids)
            .fetch_all(pool)
            .await?;
    let mut by_id: std::collections::HashMap<u64, String> = rows
        .into_iter()
        .map(|(id, card)| (id as u64, card))
        .collect();
    Ok(company_ids
        .iter()
        .filter_map(|id| by_id.remove(id))
        .collect())
}

pub async fn version(pool: &PgPool) -> Result<i64, StoreError> {
    Ok(
        sqlx::query_scalar("SELECT version FROM directory_state WHERE id = 1")
            .fetch_one(pool)
            .await?,
    )
}

pub async fn save_tree(pool: &PgPool, json: &str) -> Result<(), StoreError> {
    sqlx::query(
        "UPDATE directory_state SET category_tree = $1, version = version + 1 WHERE id = 1",
    )
    .bind(json)
    .execute(pool)
    .await?;
    Ok(())
}

pub async fn tree(pool: &PgPool) -> Result<Option<String>, StoreError> {
    Ok(
        sqlx::query_scalar("SELECT category_tree FROM directory_state WHERE id = 1")
            .fetch_one(pool)
            .await?,
    )
}

/// The stored records of these trades, in the order asked (unknown ids skipped).
pub async fn records(pool: &PgPool, company_ids: &[u64]) -> Result<Vec<TradeRecord>, StoreError> {
    let mut conn = pool.acquire().await?;
    load_records(&mut conn, company_ids).await
}

async fn load_records(
    conn: &mut sqlx::PgConnection,
    company_ids: &[u64],
) -> Result<Vec<TradeRecord>, StoreError> {
    let ids: Vec<i64> = company_ids.iter().map(|id| *id as i64).collect();
    let mut by_id = std::collections::HashMap::new();
    let trades: Vec<TradeRow> = sqlx::query_as(
        "SELECT company_id, company_name, logo_url, active, base_postcode, radius_miles, districts, categories, \
         webhook_url, email FROM trades WHERE company_id = ANY($1)",
    )
    .bind(&ids)
    .fetch_all(&mut *conn)
    .await?;
    for row in trades {
        let record = row.into_record()?;
        by_id.insert(record.company_id, record);
    }
    let reviews: Vec<ReviewRow> = sqlx::query_as(
        "SELECT company_id, review_id, title, body, score, breakdowns, location, verified, created_at, trade_response \
         FROM trade_reviews WHERE company_id = ANY($1) ORDER BY company_id, created_at, review_id",
    )
    .bind(&ids)
    .fetch_all(&mut *conn)
    .await?;
    for row in reviews {
        if let Some(record) = by_id.get_mut(&(row.company_id as u64)) {
            record.reviews.push(row.into_record()?);
        }
    }
    let images: Vec<ImageRow> = sqlx::query_as(
        "SELECT company_id, image_id, album_id, kind, url, thumbnail_url, url_template, description, label, title, \
         taken_on, youtube_id, width, height FROM trade_images WHERE company_id = ANY($1) ORDER BY company_id, position",
    )
    .bind(&ids)
    .fetch_all(&mut *conn)
    .await?;
    for row in images {
        if let Some(record) = by_id.get_mut(&(row.company_id as u64)) {
            record.images.push(row.into_record()?);
        }
    }
    Ok(company_ids
        .iter()
        .filter_map(|id| by_id.remove(id))
        .collect())
}

/// Rebuilds every stored search card written in an older format than this
/// binary's ([`rows::CARD_FORMAT`]), from the stored rows, in one transaction
/// that holds the directory row, so processes starting at once take turns and
/// the later ones find the cards current.
pub async fn rebuild_stale_cards(pool: &PgPool) -> Result<u64, StoreError> {
    let mut tx = pool.begin().await?;
    let format: i32 =
        sqlx::query_scalar("SELECT card_format FROM directory_state WHERE id = 1 FOR UPDATE")
            .fetch_one(&mut *tx)
            .await?;
    if i64::from(format) >= rows::CARD_FORMAT {
        return Ok(0);
    }
    let ids: Vec<i64> = sqlx::query_scalar("SELECT company_id FROM trades ORDER BY company_id")
        .fetch_all(&mut *tx)
        .await?;
    let ids: Vec<u64> = ids.into_iter().map(|id| id as u64).collect();
    for chunk in ids.chunks(CHUNK) {
        let records = load_records(&mut tx, chunk).await?;
        let companies: Vec<i64> = records.iter().map(|r| r.company_id as i64).collect();
        let cards: Vec<String> = records.iter().map(rows::card_json).collect();
        sqlx::query(
            "UPDATE trades SET card_json = new.card FROM UNNEST($1::BIGINT[], $2::TEXT[]) AS new(id, card) \
             WHERE trades.company_id = new.id",
        )
        .bind(companies)
        .bind(cards)
        .execute(&mut *tx)
        .await?;
    }
    sqlx::query("UPDATE directory_state SET card_format = $1 WHERE id = 1")
        .bind(rows::CARD_FORMAT as i32)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(ids.len() as u64)
}
