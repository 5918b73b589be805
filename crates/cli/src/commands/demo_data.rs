//! `intake demo-data`: a deterministic, realistic directory for trying the service.

use crate::cli::DemoDataArgs;
use crate::config::{self, FlagOverrides};
use crate::progress::Progress;
use crate::{logging, open_store};
use anyhow::Context;
use intake_core::directory::{Directory, TradeRecord};
use intake_core::geography::Geography;
use intake_core::Store;
use intake_demo::{generate, DemoOptions};
use std::io::Write;
use std::process::ExitCode;

pub async fn run(args: DemoDataArgs) -> anyhow::Result<ExitCode> {
    let settings = config::load(
        args.store.config.as_deref(),
        FlagOverrides::from_store(&args.store),
    )?;
    logging::init(settings.server.log_format);
    if let Some(path) = &args.output {
        let records = records(
            args.trades,
            args.seed,
            intake_core::categories::CategoryTree::embedded(),
        );
        let mut out = std::io::BufWriter::new(
            std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?,
        );
        for record in &records {
            serde_json::to_writer(&mut out, record)?;
            out.write_all(b"\n")?;
        }
        out.flush()?;
        outln!("wrote {} demo trades to {}", records.len(), path.display())?;
        return Ok(ExitCode::SUCCESS);
    }
    let store = open_store::open(&settings).await?;
    let loaded = load(store.as_ref(), args.trades, args.seed, Progress::Shown).await?;
    outln!("loaded {loaded} demo trades")?;
    Ok(ExitCode::SUCCESS)
}

fn records(
    trades: usize,
    seed: u64,
    tree: &intake_core::categories::CategoryTree,
) -> Vec<TradeRecord> {
    let options = DemoOptions {
        seed,
        ..DemoOptions::new(trades)
    };
    generate(&options, tree, Geography::embedded())
}

/// Generates `trades` demo trades against the store's category tree and imports them.
pub async fn load(
    store: &dyn Store,
    trades: usize,
    seed: u64,
    progress: Progress,
) -> anyhow::Result<usize> {
    let tree = Directory::load(store).await?.tree;
    let geography = Geography::embedded();
    let step = progress.step(format!("generating {trades} demo trades"), None);
    let generated = records(trades, seed, &tree);
    step.finish();
    let step = progress.step(
        format!("checking {} trades", generated.len()),
        Some(generated.len() as u64),
    );
    let valid = generated
        .into_iter()
        .map(|record| {
            step.advance(1);
            record
                .validate(&tree, geography)
                .map_err(|problems| anyhow::anyhow!("a demo trade is invalid: {problems:?}"))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    step.finish();
    let step = progress.step(format!("storing {} trades", valid.len()), None);
    store
        .import_trades(&valid)
        .await
        .context("storing the demo trades")?;
    step.finish();
    Ok(valid.len())
}
