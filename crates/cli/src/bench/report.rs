//! Printing the figures: a table for people, JSON for scripts.

use super::measure::Figures;
use crate::cli::BenchArgs;
use serde_json::json;
use std::fmt::Write;

pub fn table(args: &BenchArgs, rows: &[(String, Figures)]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "intake bench: {} at concurrency {}, {} s each (after {} s warm-up), {} {}",
        args.base_url(),
        args.concurrency,
        args.duration,
        args.warmup,
        args.client.algorithm,
        args.client.headers
    );
    let _ = writeln!(
        out,
        "{:<28} {:>10} {:>10} {:>9} {:>9} {:>9} {:>9} {:>8}",
        "scenario", "requests", "req/s", "p50 ms", "p90 ms", "p99 ms", "max ms", "non-2xx"
    );
    for (name, figures) in rows {
        let _ = writeln!(
            out,
            "{:<28} {:>10} {:>10.0} {:>9.2} {:>9.2} {:>9.2} {:>9.2} {:>8}",
            name,
            figures.requests,
            figures.per_second(),
            figures.percentile_ms(0.50),
            figures.percentile_ms(0.90),
            figures.percentile_ms(0.99),
            figures.max_ms(),
            figures.failures()
        );
    }
    if let Some(ratio) = pgbench_ratio(args, rows) {
        let _ = writeln!(out, "{}: {ratio:.2} × pgbench", rows[0].0);
    }
    for (name, figures) in rows {
        if figures.failures() > 0 {
            let _ = writeln!(
                out,
                "{name}: answers by status (0 = transport error): {:?}",
                figures.statuses
            );
        }
    }
    out
}

pub fn json(args: &BenchArgs, rows: &[(String, Figures)]) -> serde_json::Value {
    let results: Vec<_> = rows
        .iter()
        .map(|(name, figures)| {
            json!({
                "scenario": name,
                "requests": figures.requests,
                "requestsPerSecond": figures.per_second(),
                "p50Ms": figures.percentile_ms(0.50),
                "p90Ms": figures.percentile_ms(0.90),
                "p99Ms": figures.percentile_ms(0.99),
                "maxMs": figures.max_ms(),
                "statuses": figures.statuses.iter().map(|(status, n)| (status.to_string(), json!(n))).collect::<serde_json::Map<_, _>>(),
            })
        })
        .collect();
    json!({"baseUrl": args.base_url(), "concurrency": args.concurrency, "durationSeconds": args.duration, "results": results,
        "ratioToPgbench": pgbench_ratio(args, rows)})
}

impl BenchArgs {
    fn base_url(&self) -> &str {
        &self.client.base_url
    }
}

/// The scenario's rate over pgbench's, when pgbench ran (it is the last row).
fn pgbench_ratio(args: &BenchArgs, rows: &[(String, Figures)]) -> Option<f64> {
    let pgbench = rows.last().filter(|_| args.pgbench.is_some())?;
    Some(rows.first()?.1.per_second() / pgbench.1.per_second())
}
