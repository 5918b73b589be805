//! `intake leads list | retry | webhook-secret`: the operator's side of lead
//! delivery (docs/operations.md).

use crate::cli::{LeadsCommand, StoreArgs};
use crate::config::{self, FlagOverrides, Settings};
use crate::{logging, master_key, open_store};
use intake_core::delivery::{Delivery, DeliveryFilter, DeliveryState};
use intake_core::Store;
use serde_json::json;
use std::process::ExitCode;
use std::sync::Arc;
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

/// Exit code when the operator names a delivery, job or trade that does not exist.
const UNKNOWN: u8 = 2;

/// Longest last error shown in the table; `--json` has it whole.
const ERROR_WIDTH: usize = 60;

pub async fn run(command: LeadsCommand) -> anyhow::Result<ExitCode> {
    match command {
        LeadsCommand::List {
            store,
            job_id,
            state,
            limit,
            json,
        } => {
            let filter = DeliveryFilter {
                ids: Vec::new(),
                job_id,
                state: state.as_deref().map(parse_state).transpose()?,
                limit,
            };
            list(&store, &filter, json).await
        }
        LeadsCommand::Retry {
            store,
            ids,
            job_id,
            dead,
        } => {
            let filter = DeliveryFilter {
                ids,
                job_id,
                state: dead.then_some(DeliveryState::Dead),
                limit: 0,
            };
            retry(&store, &filter).await
        }
        LeadsCommand::WebhookSecret { store, company_id } => {
            webhook_secret(&store, company_id).await
        }
    }
}

fn parse_state(text: &str) -> anyhow::Result<DeliveryState> {
    DeliveryState::parse(text).ok_or_else(|| {
        anyhow::anyhow!("--state must be pending, delivered, dead or gone, not `{text}`")
    })
}

pub(super) async fn open(store_args: &StoreArgs) -> anyhow::Result<(Settings, Arc<dyn Store>)> {
    let settings = config::load(
        store_args.config.as_deref(),
        FlagOverrides::from_store(store_args),
    )?;
    logging::init(settings.server.log_format);
    let store = open_store::open(&settings).await?;
    Ok((settings, store))
}

async fn list(
    store_args: &StoreArgs,
    filter: &DeliveryFilter,
    as_json: bool,
) -> anyhow::Result<ExitCode> {
    let (_, store) = open(store_args).await?;
    let deliveries = store.deliveries(filter).await?;
    if as_json {
        for delivery in &deliveries {
            outln!("{}", delivery_json(delivery))?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let header = [
        "ID",
        "JOB",
        "TRADE",
        "CHANNEL",
        "TARGET",
        "STATE",
        "ATTEMPTS",
        "NEXT ATTEMPT",
        "LAST ERROR",
    ];
    let rows: Vec<[String; 9]> = deliveries.iter().map(row).collect();
    print_table(&header, &rows)?;
    if deliveries.len() == filter.limit as usize {
        eprintln!(
            "showing the first {}; use --limit for more",
            deliveries.len()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The table cells of one delivery.
fn row(delivery: &Delivery) -> [String; 9] {
    let next = match delivery.state {
        DeliveryState::Pending => rfc3339(delivery.next_attempt_at),
        _ => "-".to_owned(),
    };
    [
        delivery.id.clone(),
        delivery.job_id.clone(),
        delivery.company_id.to_string(),
        delivery.channel.as_str().to_owned(),
        delivery.target.clone(),
        delivery.state.as_str().to_owned(),
        delivery.attempts.to_string(),
        next,
        one_line(delivery.last_error.as_deref().unwrap_or("-"), ERROR_WIDTH),
    ]
}

/// Columns as wide as their widest cell; the last one is not padded.
fn print_table<const N: usize>(header: &[&str; N], rows: &[[String; N]]) -> anyhow::Result<()> {
    let mut widths = header.map(|title| title.chars().count());
    for row in rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<&str>| {
        let mut out = String::new();
        for (i, cell) in cells.iter().enumerate() {
            if i + 1 == N {
                out.push_str(cell);
            } else {
                out.push_str(&format!("{cell:<width$}  ", width = widths[i]));
            }
        }
        outln!("{}", out.trim_end())
    };
    line(header.to_vec())?;
    for row in rows {
        line(row.iter().map(String::as_str).collect())?;
    }
    Ok(())
}

/// Retries what `filter` names; unknown delivery ids or an unknown job change nothing.
async fn retry(store_args: &StoreArgs, filter: &DeliveryFilter) -> anyhow::Result<ExitCode> {
    let (_, store) = open(store_args).await?;
    if !filter.ids.is_empty() {
        let known = store
            .deliveries(&DeliveryFilter {
                ids: filter.ids.clone(),
                ..DeliveryFilter::default()
            })
            .await?;
        let unknown: Vec<_> = filter
            .ids
            .iter()
            .filter(|id| !known.iter().any(|delivery| &delivery.id == *id))
            .collect();
        if !unknown.is_empty() {
            for id in unknown {
                eprintln!("error: there is no delivery `{id}`");
            }
            eprintln!("nothing was retried");
            return Ok(ExitCode::from(UNKNOWN));
        }
    }
    if let Some(job_id) = &filter.job_id {
        if store.job(job_id).await?.is_none() {
            eprintln!("error: there is no job `{job_id}`");
            return Ok(ExitCode::from(UNKNOWN));
        }
    }
    let retried = store
        .retry_deliveries(filter, OffsetDateTime::now_utc())
        .await?;
    tracing::info!(retried, "deliveries made pending again");
    let noun = if retried == 1 {
        "delivery"
    } else {
        "deliveries"
    };
    outln!("{retried} {noun} made pending again")?;
    let untouched = (filter.ids.len() as u64).saturating_sub(retried);
    if untouched > 0 {
        outln!("{untouched} of the named deliveries were not dead or gone; left unchanged")?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints trade `company_id`'s webhook secret, derived from the master key
/// of the data dir (the one the dispatcher signs with), on its own line.
async fn webhook_secret(store_args: &StoreArgs, company_id: u64) -> anyhow::Result<ExitCode> {
    let (settings, store) = open(store_args).await?;
    if store.trade_cards(&[company_id]).await?.is_empty() {
        eprintln!("error: there is no trade {company_id} in the directory");
        return Ok(ExitCode::from(UNKNOWN));
    }
    let master = master_key::load_or_create(&settings.storage.data_dir)?;
    outln!("{}", master.webhook_secret(company_id).expose())?;
    Ok(ExitCode::SUCCESS)
}

pub(super) fn delivery_json(delivery: &Delivery) -> serde_json::Value {
    json!({
        "id": delivery.id,
        "jobId": delivery.job_id,
        "companyId": delivery.company_id,
        "channel": delivery.channel.as_str(),
        "target": delivery.target,
        "state": delivery.state.as_str(),
        "attempts": delivery.attempts,
        "nextAttemptAt": rfc3339(delivery.next_attempt_at),
        "createdAt": rfc3339(delivery.created_at),
        "deliveredAt": delivery.delivered_at.map(rfc3339),
        "lastError": delivery.last_error,
    })
}

pub(super) fn rfc3339(at: OffsetDateTime) -> String {
    at.replace_nanosecond(0)
        .unwrap_or(at)
        .format(&Rfc3339)
        .unwrap_or_default()
}

/// `text` on one line, cut to `width` characters.
fn one_line(text: &str, width: usize) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if flat.chars().count() <= width {
        return flat;
    }
    let mut cut: String = flat.chars().take(width - 1).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_or_multiline_error_fits_one_table_cell() {
        assert_eq!(one_line("timed out", 60), "timed out");
        assert_eq!(
            one_line("503\nService Unavailable", 60),
            "503 Service Unavailable"
        );
        let cut = one_line(&"x".repeat(100), 10);
        assert_eq!(cut.chars().count(), 10);
        assert!(cut.ends_with('…'));
    }

    #[test]
    fn an_unknown_state_names_the_allowed_ones() {
        assert_eq!(parse_state("dead").unwrap(), DeliveryState::Dead);
        let error = parse_state("lost").unwrap_err().to_string();
        assert!(
            error.contains("pending, delivered, dead or gone"),
            "{error}"
        );
    }
}
