//! SQL that reads jobs back: a whole job with its recipients' delivery
//! state, the leads of trades (for fairness), and row counts.

use intake_api::PreferredStartId;
use intake_core::delivery::{recipient_state, DeliveryState};
use intake_core::email::Email;
use intake_core::jobs::{
    CreationSource, JobImage, NewJob, NewRecipient, Phone, StoredJob, StoredRecipient,
    ValidAddress, ValidPreferredStart, ValidatedJob,
};
use intake_core::postcode::Postcode;
use intake_core::store::{StoreCounts, StoreError};
use sqlx::postgres::PgRow;
use sqlx::{PgPool, Row};
use std::collections::HashMap;
use time::OffsetDateTime;

fn other(what: &str) -> StoreError {
    StoreError::Other(format!("a stored job has a bad {what}"))
}

pub async fn job(pool: &PgPool, id: &str) -> Result<Option<StoredJob>, StoreError> {
    let Some(row) = sqlx::query("SELECT * FROM jobs WHERE id = $1")
        .bind(id)
        .fetch_optional(pool)
        .await?
    else {
        return Ok(None);
    };
    let mut job = decode_job(&row)?;
    let mut states: HashMap<u64, Vec<DeliveryState>> = HashMap::new();
    for row in sqlx::query("SELECT company_id, state FROM deliveries WHERE job_id = $1")
        .bind(id)
        .fetch_all(pool)
        .await?
    {
        let company_id = row.try_get::<i64, _>(0)? as u64;
        let state: String = row.try_get(1)?;
        let state = DeliveryState::parse(&state).ok_or_else(|| other("delivery state"))?;
        states.entry(company_id).or_default().push(state);
    }
    let recipients = sqlx::query(
        "SELECT company_id, name, rank FROM job_recipients WHERE job_id = $1 ORDER BY rank",
    )
    .bind(id)
    .fetch_all(pool)
    .await?
    .iter()
    .map(|row| {
        let company_id = row.try_get::<i64, _>("company_id")? as u64;
        Ok(StoredRecipient {
            company_id,
            name: row.try_get("name")?,
            rank: row.try_get::<i32, _>("rank")? as u32,
            delivery_state: recipient_state(states.remove(&company_id).unwrap_or_default())
                .to_owned(),
        })
    })
    .collect::<Result<Vec<_>, StoreError>>()?;
    job.images = sqlx::query(
        "SELECT image_id, object_key, file_name, content_type, width, height, bytes FROM job_images \
         WHERE job_id = $1 ORDER BY position",
    )
    .bind(id)
    .fetch_all(pool)
    .await?
    .iter()
    .map(|row| {
        Ok(JobImage {
            id: row.try_get("image_id")?,
            object_key: row.try_get("object_key")?,
            file_name: row.try_get("file_name")?,
            content_type: row.try_get("content_type")?,
            width: row.try_get::<i32, _>("width")? as u32,
            height: row.try_get::<i32, _>("height")? as u32,
            bytes: row.try_get::<i64, _>("bytes")? as u64,
        })
    })
    .collect::<Result<Vec<_>, StoreError>>()?;
    job.recipients = recipients
        .iter()
        .map(|r| NewRecipient {
            company_id: r.company_id,
            name: r.name.clone(),
            rank: r.rank,
        })
        .collect();
    Ok(Some(StoredJob { job, recipients }))
}

fn decode_job(row: &PgRow) -> Result<NewJob, StoreError> {
    let get = |name: &str| row.try_get::<String, _>(name).map_err(StoreError::from);
    let opt = |name: &str| {
        row.try_get::<Option<String>, _>(name)
            .map_err(StoreError::from)
    };
    let postcode = |text: String| Postcode::parse(&text).map_err(|_| other("postcode"));
    let address = match (
        opt("address_line1")?,
        opt("address_city")?,
        opt("address_postcode")?,
    ) {
        (Some(line1), Some(city), Some(code)) => Some(ValidAddress {
            line1,
            line2: opt("address_line2")?,
            line3: opt("address_line3")?,
            city,
            postcode: postcode(code)?,
        }),
        _ => None,
    };
    let preferred_start = match opt("preferred_start_id")? {
        Some(id) => Some(ValidPreferredStart {
            id: PreferredStartId::parse(&id).ok_or_else(|| other("preferred start"))?,
            date: row.try_get("preferred_start_date")?,
        }),
        None => None,
    };
    Ok(NewJob {
        id: get("id")?,
        environment: get("environment")?
            .parse()
            .map_err(|_| other("environment"))?,
        key_id: get("key_id")?,
        application: get("application")?,
        creation_source: CreationSource::parse(&get("creation_source")?)
            .ok_or_else(|| other("creation source"))?,
        request_id: get("request_id")?,
        received_at: row.try_get("received_at")?,
        job: ValidatedJob {
            category_id: row.try_get::<i32, _>("category_id")? as u32,
            description: get("description")?,
            email: Email::parse(&get("email")?).map_err(|_| other("e-mail"))?,
            phone: Phone::parse(&get("phone")?).ok_or_else(|| other("phone"))?,
            first_name: get("first_name")?,
            last_name: get("last_name")?,
            postcode: postcode(get("postcode")?)?,
            address,
            preferred_start,
        },
        recipients: Vec::new(),
        images: Vec::new(),
        idempotency: Vec::new(),
    })
}

pub async fn recent_leads(
    pool: &PgPool,
    company_ids: &[u64],
    since: OffsetDateTime,
) -> Result<HashMap<u64, u32>, StoreError> {
    if company_ids.is_empty() {
        return Ok(HashMap::new());
    }
    let ids: Vec<i64> = company_ids.iter().map(|id| *id as i64).collect();
    let rows = sqlx::query(
        "SELECT company_id, COUNT(*) FROM job_recipients WHERE created_at >= $1 AND company_id = ANY($2) \
         GROUP BY company_id",
    )
    .bind(since)
    .bind(ids)
    .fetch_all(pool)
    .await?;
    rows.iter()
        .map(|row| {
            Ok((
                row.try_get::<i64, _>(0)? as u64,
                row.try_get::<i64, _>(1)? as u32,
            ))
        })
        .collect()
}

pub async fn counts(pool: &PgPool) -> Result<StoreCounts, StoreError> {
    let row = sqlx::query(
        "SELECT (SELECT COUNT(*) FROM jobs), (SELECT COUNT(*) FROM job_recipients), \
         (SELECT COUNT(*) FROM idempotency), (SELECT COUNT(*) FROM deliveries)",
    )
    .fetch_one(pool)
    .await?;
    let count = |index: usize| {
        row.try_get::<i64, _>(index)
            .map(|n| n as u64)
            .map_err(StoreError::from)
    };
    Ok(StoreCounts {
        jobs: count(0)?,
        recipients: count(1)?,
        idempotency: count(2)?,
        deliveries: count(3)?,
    })
}
