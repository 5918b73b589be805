//! SQL of the trade directory and the category tree.

use crate::errors::map_error;
use intake_core::directory::{IndexedTrade, ValidTrade};
use intake_core::geography::Point;
use intake_core::store::{ImportSummary, StoreError};
use sqlx::postgres::PgRow;
use sqlx::{PgPool, Postgres, QueryBuilder, Row, Transaction};
use std::collections::HashSet;
use time::OffsetDateTime;

/// Rows per multi-row INSERT (PostgreSQL allows 65,535 bound values).
const CHUNK: usize = 1000;

pub async fn import(pool: &PgPool, trades: &[ValidTrade]) -> Result<ImportSummary, StoreError> {
    let mut tx = pool.begin().await.map_err(map_error)?;
    // Imports from several processes take turns: each sees the trades the
    // one before it wrote, so its inserted/updated counts are right.
    sqlx::query("SELECT version FROM directory_state WHERE id = 1 FOR UPDATE")
        .execute(&mut *tx)
        .await
        .map_err(map_error)?;
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
                .await
                .map_err(map_error)?;
        }
        insert_trades(&mut tx, chunk, now).await?;
        insert_reviews(&mut tx, chunk).await?;
        insert_images(&mut tx, chunk).await?;
    }
    sqlx::query("UPDATE directory_state SET version = version + 1 WHERE id = 1")
        .execute(&mut *tx)
        .await
        .map_err(map_error)?;
    tx.commit().await.map_err(map_error)?;
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
            .await
            .map_err(map_error)?;
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
    query.build().execute(&mut **tx).await.map_err(map_error)?;
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
            "INSERT INTO trade_reviews (company_id, review_id, title, review, score, reliability, tidiness, courtesy, \
             workmanship, postcode_district, verified, created_at) ",
        );
        query.push_values(part, |mut row, (company_id, review)| {
            row.push_bind(*company_id as i64)
                .push_bind(review.id.clone())
                .push_bind(review.title.clone())
                .push_bind(review.review.clone())
                .push_bind(review.score)
                .push_bind(i32::from(review.breakdown.reliability))
                .push_bind(i32::from(review.breakdown.tidiness))
                .push_bind(i32::from(review.breakdown.courtesy))
                .push_bind(i32::from(review.breakdown.workmanship))
                .push_bind(review.postcode_district.clone())
                .push_bind(review.verified)
                .push_bind(review.created_at.clone());
        });
        query.build().execute(&mut **tx).await.map_err(map_error)?;
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
            "INSERT INTO trade_images (company_id, image_id, position, url, thumbnail_url, caption, width, height) ",
        );
        query.push_values(part, |mut row, (company_id, position, image)| {
            row.push_bind(*company_id as i64)
                .push_bind(image.id.clone())
                .push_bind(*position as i32)
                .push_bind(image.url.clone())
                .push_bind(image.thumbnail_url.clone())
                .push_bind(image.caption.clone())
                .push_bind(image.width as i32)
                .push_bind(image.height as i32);
        });
        query.build().execute(&mut **tx).await.map_err(map_error)?;
    }
    Ok(())
}

pub async fn index(pool: &PgPool) -> Result<Vec<IndexedTrade>, StoreError> {
    use futures::TryStreamExt;
    // Streamed row by row: a 100,000-trade directory never sits in memory twice.
    let mut rows = sqlx::query(
        "SELECT company_id, company_name, active, base_easting, base_northing, radius_miles, districts, categories, review_score \
         FROM trades ORDER BY company_id",
    )
    .fetch(pool);
    let mut trades = Vec::new();
    while let Some(row) = rows.try_next().await.map_err(map_error)? {
        trades.push(decode_indexed(&row)?);
    }
    trades.shrink_to_fit();
    Ok(trades)
}

fn decode_indexed(row: &PgRow) -> Result<IndexedTrade, StoreError> {
    let easting: Option<f64> = row.try_get("base_easting").map_err(map_error)?;
    let northing: Option<f64> = row.try_get("base_northing").map_err(map_error)?;
    let districts: String = row.try_get("districts").map_err(map_error)?;
    let categories: String = row.try_get("categories").map_err(map_error)?;
    Ok(IndexedTrade {
        company_id: row.try_get::<i64, _>("company_id").map_err(map_error)? as u64,
        company_name: row.try_get("company_name").map_err(map_error)?,
        active: row.try_get("active").map_err(map_error)?,
        base: easting
            .zip(northing)
            .map(|(easting, northing)| Point { easting, northing }),
        radius_miles: row.try_get("radius_miles").map_err(map_error)?,
        districts: districts.split_whitespace().map(str::to_owned).collect(),
        categories: categories
            .split_whitespace()
            .map(|id| {
                id.parse()
                    .map_err(|_| StoreError::Other(format!("bad category id `{id}` in trades")))
            })
            .collect::<Result<_, _>>()?,
        review_score: row.try_get("review_score").map_err(map_error)?,
    })
}

pub async fn cards(pool: &PgPool, company_ids: &[u64]) -> Result<Vec<String>, StoreError> {
    if company_ids.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<i64> = company_ids.iter().map(|id| *id as i64).collect();
    let rows = sqlx::query("SELECT company_id, card_json FROM trades WHERE company_id = ANY($1)")
        .bind(ids)
        .fetch_all(pool)
        .await
        .map_err(map_error)?;
    let mut by_id = std::collections::HashMap::with_capacity(rows.len());
    for row in rows {
        let id: i64 = row.try_get(0).map_err(map_error)?;
        by_id.insert(id as u64, row.try_get::<String, _>(1).map_err(map_error)?);
    }
    Ok(company_ids
        .iter()
        .filter_map(|id| by_id.remove(id))
        .collect())
}

pub async fn version(pool: &PgPool) -> Result<i64, StoreError> {
    sqlx::query_scalar("SELECT version FROM directory_state WHERE id = 1")
        .fetch_one(pool)
        .await
        .map_err(map_error)
}

pub async fn save_tree(pool: &PgPool, json: &str) -> Result<(), StoreError> {
    sqlx::query(
        "UPDATE directory_state SET category_tree = $1, version = version + 1 WHERE id = 1",
    )
    .bind(json)
    .execute(pool)
    .await
    .map_err(map_error)?;
    Ok(())
}

pub async fn tree(pool: &PgPool) -> Result<Option<String>, StoreError> {
    sqlx::query_scalar("SELECT category_tree FROM directory_state WHERE id = 1")
        .fetch_one(pool)
        .await
        .map_err(map_error)
}
