//! The delivery outbox on either dialect: the outcome of an attempt, and
//! the list of deliveries a filter picks.

use crate::dialect::{Backend, Column, Dialect};
use crate::rows::deliveries::DeliveryRow;
use crate::statement::Statement;
use crate::{SqlStore, StoredTime};
use intake_core::delivery::{Delivery, DeliveryFilter, Outcome};
use intake_core::store::StoreError;
use intake_store_sql_macros::sqlx_bounds;
use time::OffsetDateTime;

#[sqlx_bounds(D)]
impl<D: Backend> SqlStore<D> {
    /// Records the outcome of attempt `attempt` of delivery `id`; whether
    /// it applied (see [`intake_core::Store::finish_delivery`]).
    pub(crate) async fn finish(
        &self,
        id: &str,
        attempt: u32,
        outcome: &Outcome,
        now: OffsetDateTime,
    ) -> Result<bool, StoreError> {
        let attempt = attempt as i32;
        let stored = D::Time::stored(now);
        let done = match outcome {
            Outcome::Delivered => {
                sqlx::query(D::DELIVERED)
                    .bind(id)
                    .bind(stored)
                    .execute(&self.pool)
                    .await?
            }
            Outcome::Retry { at, error } => {
                sqlx::query(D::RETRY)
                    .bind(id)
                    .bind(attempt)
                    .bind(D::Time::stored(*at))
                    .bind(error)
                    .bind(stored)
                    .execute(&self.pool)
                    .await?
            }
            Outcome::Dead { error } => {
                sqlx::query(D::DEAD)
                    .bind(id)
                    .bind(attempt)
                    .bind(error)
                    .bind(stored)
                    .execute(&self.pool)
                    .await?
            }
            Outcome::Gone { error } => {
                return Ok(D::gone(&self.pool, id, attempt, error, now).await?)
            }
        };
        Ok(D::rows_affected(&done) > 0)
    }

    /// The deliveries `filter` picks, oldest first.
    pub(crate) async fn list_deliveries(
        &self,
        filter: &DeliveryFilter,
    ) -> Result<Vec<Delivery>, StoreError> {
        let mut select = Statement::new(format!("SELECT {} FROM deliveries", D::DELIVERY_COLUMNS));
        push_filter::<D>(&mut select, filter);
        select.push(D::DELIVERY_ORDER);
        if filter.limit > 0 {
            select.push(" LIMIT ").push_bind(i64::from(filter.limit));
        }
        let (sql, arguments) = select.into_parts()?;
        let rows: Vec<DeliveryRow<D::Time>> = sqlx::query_as_with(&sql, arguments)
            .fetch_all(&self.pool)
            .await?;
        rows.into_iter().map(DeliveryRow::into_delivery).collect()
    }
}

/// Appends ` WHERE …` for the ids, job and state of `filter` (always at
/// least ` WHERE TRUE`, so that a caller may add ` AND …`); not its limit.
pub fn push_filter<D: Dialect>(statement: &mut Statement<'_, D::Db>, filter: &DeliveryFilter)
where
    String: Column<D::Db>,
{
    statement.push(" WHERE TRUE");
    if !filter.ids.is_empty() {
        statement.push(" AND id");
        D::push_texts(statement, &filter.ids);
    }
    if let Some(job_id) = &filter.job_id {
        statement.push(" AND job_id = ").push_bind(job_id.clone());
    }
    if let Some(state) = filter.state {
        statement
            .push(" AND state = ")
            .push_bind(state.as_str().to_owned());
    }
}
