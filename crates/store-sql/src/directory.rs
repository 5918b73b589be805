//! The trade directory and its search cards, on either dialect.

use crate::dialect::Backend;
use crate::rows::directory::{ImageRow, IndexRow, ReviewRow, TradeRow};
use crate::statement::Statement;
use crate::SqlStore;
use futures::TryStreamExt;
use intake_core::directory::record::DEFAULT_ALBUM;
use intake_core::directory::{rows, IndexedTrade, TradeRecord, ValidTrade};
use intake_core::store::{ImportSummary, StoreError};
use intake_store_sql_macros::sqlx_bounds;
use sqlx::{Database, Pool};
use std::collections::HashMap;
use time::OffsetDateTime;

/// Trades per chunk of an import or a card rebuild, and rows per multi-row
/// INSERT: at 16 values a row, under SQLite's 32,766 and PostgreSQL's
/// 65,535 bound values.
const CHUNK: usize = 1000;

#[sqlx_bounds(D)]
impl<D: Backend> SqlStore<D> {
    /// Adds or replaces `trades` (by company id) with their reviews and
    /// images in one transaction, and bumps the directory version.
    pub(crate) async fn import(
        pool: &Pool<D::Db>,
        trades: &[ValidTrade],
    ) -> Result<ImportSummary, StoreError> {
        let mut tx = pool.begin_with(D::BEGIN_WRITE).await?;
        // Imports from several processes take turns: each sees the trades the
        // one before it wrote, so its inserted/updated counts are right.
        sqlx::query(&format!(
            "SELECT version FROM directory_state WHERE id = 1{}",
            D::FOR_UPDATE
        ))
        .execute(&mut *tx)
        .await?;
        let now = OffsetDateTime::now_utc();
        let mut summary = ImportSummary::default();
        for chunk in trades.chunks(CHUNK) {
            let ids: Vec<i64> = chunk.iter().map(|t| t.record.company_id as i64).collect();
            let mut select = Statement::new("SELECT company_id FROM trades WHERE company_id");
            D::push_ids(&mut select, &ids);
            let (sql, arguments) = select.into_parts()?;
            let existing: Vec<i64> = sqlx::query_scalar_with(&sql, arguments)
                .fetch_all(&mut *tx)
                .await?;
            summary.updated += existing.len() as u64;
            summary.inserted += (chunk.len() - existing.len()) as u64;
            if !existing.is_empty() {
                let mut delete = Statement::new("DELETE FROM trades WHERE company_id");
                D::push_ids(&mut delete, &existing);
                let (sql, arguments) = delete.into_parts()?;
                sqlx::query_with(&sql, arguments).execute(&mut *tx).await?;
            }
            Self::insert_trades(&mut tx, chunk, now).await?;
            Self::insert_reviews(&mut tx, chunk).await?;
            Self::insert_images(&mut tx, chunk).await?;
        }
        sqlx::query("UPDATE directory_state SET version = version + 1 WHERE id = 1")
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        if let Some(checkpoint) = D::CHECKPOINT {
            // A large import leaves a write-ahead log as big as the data; fold
            // it back now rather than make every later read search it.
            if let Err(error) = sqlx::query(checkpoint).execute(pool).await {
                tracing::warn!(%error, "checkpoint after import failed; the database will retry on its own");
            }
        }
        Ok(summary)
    }

    async fn insert_trades(
        conn: &mut <D::Db as Database>::Connection,
        chunk: &[ValidTrade],
        now: OffsetDateTime,
    ) -> Result<(), sqlx::Error> {
        let mut insert = Statement::new(
            "INSERT INTO trades (company_id, company_name, logo_url, active, base_postcode, base_easting, \
             base_northing, radius_miles, districts, categories, webhook_url, email, review_score, \
             total_reviews, card_json, updated_at) ",
        );
        insert.push_values(chunk, |row, trade| {
            let record = &trade.record;
            let categories: Vec<String> = record.categories.iter().map(u32::to_string).collect();
            row.bind(record.company_id as i64)
                .bind(&record.company_name)
                .bind(&record.logo_url)
                .bind(record.active)
                .bind(&record.base_postcode)
                .bind(trade.base.map(|p| p.easting))
                .bind(trade.base.map(|p| p.northing))
                .bind(record.coverage.radius_miles)
                .bind(record.coverage.districts.join(" "))
                .bind(categories.join(" "))
                .bind(&record.delivery.webhook_url)
                .bind(&record.delivery.email)
                .bind(trade.indexed().review_score)
                .bind(record.reviews.len() as i64)
                .bind(trade.card_json())
                .bind(now);
        });
        let (sql, arguments) = insert.into_parts()?;
        sqlx::query_with(&sql, arguments)
            .execute(&mut *conn)
            .await?;
        Ok(())
    }

    async fn insert_reviews(
        conn: &mut <D::Db as Database>::Connection,
        chunk: &[ValidTrade],
    ) -> Result<(), sqlx::Error> {
        let reviews: Vec<_> = chunk
            .iter()
            .flat_map(|t| {
                t.record
                    .reviews
                    .iter()
                    .map(move |r| (t.record.company_id, r))
            })
            .collect();
        for part in reviews.chunks(CHUNK) {
            let mut insert = Statement::new(
                "INSERT INTO trade_reviews (company_id, review_id, title, body, score, breakdowns, \
                 location, verified, created_at, trade_response) ",
            );
            insert.push_values(part, |row, (company_id, review)| {
                row.bind(*company_id as i64)
                    .bind(&review.id)
                    .bind(&review.title)
                    .bind(&review.body)
                    .bind(review.score)
                    .bind(rows::breakdowns_json(review))
                    .bind(&review.location)
                    .bind(review.verified)
                    .bind(&review.created_at)
                    .bind(&review.trade_response);
            });
            let (sql, arguments) = insert.into_parts()?;
            sqlx::query_with(&sql, arguments)
                .execute(&mut *conn)
                .await?;
        }
        Ok(())
    }

    async fn insert_images(
        conn: &mut <D::Db as Database>::Connection,
        chunk: &[ValidTrade],
    ) -> Result<(), sqlx::Error> {
        let images: Vec<_> = chunk
            .iter()
            .flat_map(|t| {
                let company_id = t.record.company_id;
                t.record
                    .images
                    .iter()
                    .enumerate()
                    .map(move |(n, image)| (company_id, n, image))
            })
            .collect();
        for part in images.chunks(CHUNK) {
            let mut insert = Statement::new(
                "INSERT INTO trade_images (company_id, image_id, position, album_id, kind, url, \
                 thumbnail_url, url_template, description, label, title, taken_on, youtube_id, width, height) ",
            );
            insert.push_values(part, |row, (company_id, position, image)| {
                row.bind(*company_id as i64)
                    .bind(&image.id)
                    .bind(*position as i32)
                    .bind(image.album_id.as_deref().unwrap_or(DEFAULT_ALBUM))
                    .bind(image.kind.as_str())
                    .bind(&image.url)
                    .bind(&image.thumbnail_url)
                    .bind(&image.url_template)
                    .bind(&image.description)
                    .bind(&image.label)
                    .bind(&image.title)
                    .bind(&image.date)
                    .bind(&image.you_tube_id)
                    .bind(image.width.map(|w| w as i32))
                    .bind(image.height.map(|h| h as i32));
            });
            let (sql, arguments) = insert.into_parts()?;
            sqlx::query_with(&sql, arguments)
                .execute(&mut *conn)
                .await?;
        }
        Ok(())
    }

    /// What matching needs of every trade, streamed row by row: a
    /// 100,000-trade directory never sits in memory twice.
    pub(crate) async fn index(&self) -> Result<Vec<IndexedTrade>, StoreError> {
        let mut rows = sqlx::query_as::<_, IndexRow>(
            "SELECT company_id, company_name, active, base_easting, base_northing, radius_miles, \
             districts, categories, review_score FROM trades ORDER BY company_id",
        )
        .fetch(&self.pool);
        let mut trades = Vec::new();
        while let Some(row) = rows.try_next().await? {
            trades.push(row.into_indexed()?);
        }
        trades.shrink_to_fit();
        Ok(trades)
    }

    /// The search cards of these trades, in the order asked.
    pub(crate) async fn cards(&self, company_ids: &[u64]) -> Result<Vec<String>, StoreError> {
        if company_ids.is_empty() {
            return Ok(Vec::new());
        }
        let ids: Vec<i64> = company_ids.iter().map(|id| *id as i64).collect();
        let mut select =
            Statement::new("SELECT company_id, card_json FROM trades WHERE company_id");
        D::push_ids(&mut select, &ids);
        let (sql, arguments) = select.into_parts()?;
        let rows: Vec<(i64, String)> = sqlx::query_as_with(&sql, arguments)
            .fetch_all(&self.pool)
            .await?;
        let mut by_id: HashMap<u64, String> = rows
            .into_iter()
            .map(|(id, card)| (id as u64, card))
            .collect();
        Ok(company_ids
            .iter()
            .filter_map(|id| by_id.remove(id))
            .collect())
    }

    /// The stored records of these trades (reviews oldest first, images in
    /// their order), in the order asked; unknown ids are skipped.
    pub(crate) async fn load_records(
        conn: &mut <D::Db as Database>::Connection,
        company_ids: &[u64],
    ) -> Result<Vec<TradeRecord>, StoreError> {
        let mut by_id = HashMap::new();
        for chunk in company_ids.chunks(CHUNK) {
            let ids: Vec<i64> = chunk.iter().map(|id| *id as i64).collect();
            let select = |sql: &str, order: &str| {
                let mut select = Statement::new(sql);
                D::push_ids(&mut select, &ids);
                select.push(order);
                select.into_parts()
            };
            let (sql, arguments) = select(
                "SELECT company_id, company_name, logo_url, active, base_postcode, radius_miles, \
                 districts, categories, webhook_url, email FROM trades WHERE company_id",
                "",
            )?;
            let trades: Vec<TradeRow> = sqlx::query_as_with(&sql, arguments)
                .fetch_all(&mut *conn)
                .await?;
            for row in trades {
                let record = row.into_record()?;
                by_id.insert(record.company_id, record);
            }
            let (sql, arguments) = select(
                "SELECT company_id, review_id, title, body, score, breakdowns, location, verified, \
                 created_at, trade_response FROM trade_reviews WHERE company_id",
                " ORDER BY company_id, created_at, review_id",
            )?;
            let reviews: Vec<ReviewRow> = sqlx::query_as_with(&sql, arguments)
                .fetch_all(&mut *conn)
                .await?;
            for row in reviews {
                if let Some(record) = by_id.get_mut(&(row.company_id as u64)) {
                    record.reviews.push(row.into_record()?);
                }
            }
            let (sql, arguments) = select(
                "SELECT company_id, image_id, album_id, kind, url, thumbnail_url, url_template, \
                 description, label, title, taken_on, youtube_id, width, height FROM trade_images \
                 WHERE company_id",
                " ORDER BY company_id, position",
            )?;
            let images: Vec<ImageRow> = sqlx::query_as_with(&sql, arguments)
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

    /// Rebuilds every stored search card written in an older format than
    /// this binary's ([`rows::CARD_FORMAT`]), from the stored rows, in one
    /// transaction that holds the directory row, so that processes starting
    /// at once take turns and the later ones find the cards current; nothing
    /// when the cards are current. Returns how many were rebuilt.
    pub(crate) async fn rebuild_stale_cards(pool: &Pool<D::Db>) -> Result<u64, StoreError> {
        let mut tx = pool.begin_with(D::BEGIN_WRITE).await?;
        let format: i32 = sqlx::query_scalar(&format!(
            "SELECT card_format FROM directory_state WHERE id = 1{}",
            D::FOR_UPDATE
        ))
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
            let records = Self::load_records(&mut tx, chunk).await?;
            if records.is_empty() {
                continue;
            }
            // One statement a chunk: VALUES names its columns column1, column2
            // on both dialects.
            let mut update = Statement::new("UPDATE trades SET card_json = v.column2 FROM (");
            update.push_values(&records, |row, record| {
                row.bind(record.company_id as i64)
                    .bind(rows::card_json(record));
            });
            update.push(") AS v WHERE trades.company_id = v.column1");
            let (sql, arguments) = update.into_parts()?;
            sqlx::query_with(&sql, arguments).execute(&mut *tx).await?;
        }
        sqlx::query("UPDATE directory_state SET card_format = $1 WHERE id = 1")
            .bind(rows::CARD_FORMAT as i32)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(ids.len() as u64)
    }
}
