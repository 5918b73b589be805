//! SQL of the trade directory and the category tree.

use intake_core::directory::record::DEFAULT_ALBUM;
use intake_core::directory::{rows, IndexedTrade, TradeRecord, ValidTrade};
use intake_core::geography::Point;
use intake_core::store::{ImportSummary, StoreError};
use sqlx::postgres::PgRow;
use sqlx::{PgPool, Postgres, QueryBuilder, Row, Transaction};
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
    let mut rows = sqlx::query(
        "SELECT company_id, company_name, active, base_easting, base_northing, radius_miles, districts, categories, review_score \
         FROM trades ORDER BY company_id",
    )
    .fetch(pool);
    let mut trades = Vec::new();
    while let Some(row) = rows.try_next().await? {
        trades.push(decode_indexed(&row)?);
    }
    trades.shrink_to_fit();
    Ok(trades)
}

fn decode_indexed(row: &PgRow) -> Result<IndexedTrade, StoreError> {
    let easting: Option<f64> = row.try_get("base_easting")?;
    let northing: Option<f64> = row.try_get("base_northing")?;
    let districts: String = row.try_get("districts")?;
    let categories: String = row.try_get("categories")?;
    Ok(IndexedTrade {
        company_id: row.try_get::<i64, _>("company_id")? as u64,
        company_name: row.try_get("company_name")?,
        active: row.try_get("active")?,
        base: easting
            .zip(northing)
            .map(|(easting, northing)| Point { easting, northing }),
        radius_miles: row.try_get("radius_miles")?,
        districts: districts.split_whitespace().map(str::to_owned).collect(),
        categories: categories
            .split_whitespace()
            .map(|id| {
                id.parse()
                    .map_err(|_| StoreError::Other(format!("bad category id `{id}` in trades")))
            })
            .collect::<Result<_, _>>()?,
        review_score: row.try_get("review_score")?,
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
        .await?;
    let mut by_id = std::collections::HashMap::with_capacity(rows.len());
    for row in rows {
        let id: i64 = row.try_get(0)?;
        by_id.insert(id as u64, row.try_get::<String, _>(1)?);
    }
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
    let trades = sqlx::query(
        "SELECT company_id, company_name, logo_url, active, base_postcode, radius_miles, districts, categories, \
         webhook_url, email FROM trades WHERE company_id = ANY($1)",
    )
    .bind(&ids)
    .fetch_all(&mut *conn)
    .await?;
    for row in &trades {
        let record = rows::TradeRow {
            company_id: row.try_get("company_id")?,
            company_name: row.try_get("company_name")?,
            logo_url: row.try_get("logo_url")?,
            active: row.try_get("active")?,
            base_postcode: row.try_get("base_postcode")?,
            radius_miles: row.try_get("radius_miles")?,
            districts: row.try_get("districts")?,
            categories: row.try_get("categories")?,
            webhook_url: row.try_get("webhook_url")?,
            email: row.try_get("email")?,
        }
        .into_record()?;
        by_id.insert(record.company_id, record);
    }
    let reviews = sqlx::query(
        "SELECT company_id, review_id, title, body, score, breakdowns, location, verified, created_at, trade_response \
         FROM trade_reviews WHERE company_id = ANY($1) ORDER BY company_id, created_at, review_id",
    )
    .bind(&ids)
    .fetch_all(&mut *conn)
    .await?;
    for row in &reviews {
        let company_id: i64 = row.try_get("company_id")?;
        let review = rows::ReviewRow {
            review_id: row.try_get("review_id")?,
            title: row.try_get("title")?,
            body: row.try_get("body")?,
            score: row.try_get("score")?,
            breakdowns: row.try_get("breakdowns")?,
            location: row.try_get("location")?,
            verified: row.try_get("verified")?,
            created_at: row.try_get("created_at")?,
            trade_response: row.try_get("trade_response")?,
        }
        .into_record()?;
        if let Some(record) = by_id.get_mut(&(company_id as u64)) {
            record.reviews.push(review);
        }
    }
    let images = sqlx::query(
        "SELECT company_id, image_id, album_id, kind, url, thumbnail_url, url_template, description, label, title, \
         taken_on, youtube_id, width, height FROM trade_images WHERE company_id = ANY($1) ORDER BY company_id, position",
    )
    .bind(&ids)
    .fetch_all(&mut *conn)
    .await?;
    for row in &images {
        let company_id: i64 = row.try_get("company_id")?;
        let width: Option<i32> = row.try_get("width")?;
        let height: Option<i32> = row.try_get("height")?;
        let image = rows::ImageRow {
            image_id: row.try_get("image_id")?,
            album_id: row.try_get("album_id")?,
            kind: row.try_get("kind")?,
            url: row.try_get("url")?,
            thumbnail_url: row.try_get("thumbnail_url")?,
            url_template: row.try_get("url_template")?,
            description: row.try_get("description")?,
            label: row.try_get("label")?,
            title: row.try_get("title")?,
            taken_on: row.try_get("taken_on")?,
            youtube_id: row.try_get("youtube_id")?,
            width: width.map(i64::from),
            height: height.map(i64::from),
        }
        .into_record()?;
        if let Some(record) = by_id.get_mut(&(company_id as u64)) {
            record.images.push(image);
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
