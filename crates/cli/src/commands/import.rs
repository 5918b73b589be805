//! `intake import categories | trades`: checked first, then written all or nothing.

use crate::cli::ImportCommand;
use crate::config::{self, FlagOverrides};
use crate::progress::Progress;
use crate::{logging, open_store};
use anyhow::Context;
use intake_core::categories::CategoryTree;
use intake_core::directory::{Directory, TradeRecord, ValidTrade};
use intake_core::geography::Geography;
use std::collections::HashMap;
use std::path::Path;
use std::process::ExitCode;

/// Problems printed before the rest are summarised.
const MAX_SHOWN: usize = 50;

pub async fn run(command: ImportCommand) -> anyhow::Result<ExitCode> {
    let (store_args, file, trades) = match &command {
        ImportCommand::Categories { store, file } => (store, file, false),
        ImportCommand::Trades { store, file } => (store, file, true),
    };
    let settings = config::load(
        store_args.config.as_deref(),
        FlagOverrides::from_store(store_args),
    )?;
    logging::init(settings.server.log_format);
    let text =
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let store = open_store::open(&settings).await?;
    if !trades {
        let tree = match CategoryTree::from_json(&text) {
            Ok(tree) => tree,
            Err(error) => return Ok(refuse(file, &error.problems)),
        };
        store
            .save_category_tree(&tree.to_json())
            .await
            .context("saving the category tree")?;
        outln!(
            "imported {} categories ({} parents) from {}",
            tree.len(),
            tree.parents().count(),
            file.display()
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    let directory = Directory::load(store.as_ref()).await?;
    let step = Progress::Shown.step(format!("checking {}", file.display()), None);
    let checked = check_trades(&text, &directory.tree);
    step.finish();
    match checked {
        Ok(valid) => {
            let step = Progress::Shown.step(format!("storing {} trades", valid.len()), None);
            let summary = store
                .import_trades(&valid)
                .await
                .context("storing the trades")?;
            step.finish();
            outln!(
                "imported {} trades from {}: {} new, {} replaced",
                valid.len(),
                file.display(),
                summary.inserted,
                summary.updated
            )?;
            Ok(ExitCode::SUCCESS)
        }
        Err(problems) => Ok(refuse(file, &problems)),
    }
}

/// Parses and checks every line; on any problem, returns all of them, by line.
pub fn check_trades(text: &str, tree: &CategoryTree) -> Result<Vec<ValidTrade>, Vec<String>> {
    let geography = Geography::embedded();
    let mut valid = Vec::new();
    let mut problems = Vec::new();
    let mut first_line_of: HashMap<u64, usize> = HashMap::new();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        if line.trim().is_empty() {
            continue;
        }
        let record: TradeRecord = match serde_json::from_str(line) {
            Ok(record) => record,
            Err(error) => {
                problems.push(format!("line {number}: not a trade record: {error}"));
                continue;
            }
        };
        if let Some(first) = first_line_of.insert(record.company_id, number) {
            problems.push(format!(
                "line {number}: companyId {} was already given on line {first}",
                record.company_id
            ));
        }
        match record.validate(tree, geography) {
            Ok(trade) => valid.push(trade),
            Err(found) => problems.extend(
                found
                    .into_iter()
                    .map(|problem| format!("line {number}: {problem}")),
            ),
        }
    }
    if valid.is_empty() && problems.is_empty() {
        problems.push("the file holds no trades".to_owned());
    }
    if problems.is_empty() {
        Ok(valid)
    } else {
        Err(problems)
    }
}

fn refuse(file: &Path, problems: &[String]) -> ExitCode {
    eprintln!(
        "error: {} was not imported; nothing was changed. Problems:",
        file.display()
    );
    for problem in problems.iter().take(MAX_SHOWN) {
        eprintln!("  {problem}");
    }
    if problems.len() > MAX_SHOWN {
        eprintln!("  ... and {} more", problems.len() - MAX_SHOWN);
    }
    ExitCode::from(2)
}
