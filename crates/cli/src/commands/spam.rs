//! `intake spam train|eval` (review and release are in `quarantine`): the text model trained on, and the standard
//! screen measured against, the labelled set (docs/spam.md).

use crate::cli::SpamCommand;
use anyhow::Context;
use intake_spam::labelled::{training_examples, Evaluation, Labelled};
use intake_spam::{NaiveBayes, SpamScreen};
use std::path::Path;
use std::process::ExitCode;

pub async fn run(command: SpamCommand) -> anyhow::Result<ExitCode> {
    match command {
        SpamCommand::Train { data, output } => train(&data, &output),
        SpamCommand::Eval { data, threshold } => eval(&data, threshold),
        SpamCommand::Review { store, all, json } => {
            super::quarantine::review(&store, all, json).await
        }
        SpamCommand::Release { store, id } => super::quarantine::release(&store, &id).await,
    }
}

fn read(data: &Path) -> anyhow::Result<Vec<Labelled>> {
    let text =
        std::fs::read_to_string(data).with_context(|| format!("reading {}", data.display()))?;
    Labelled::parse_all(&text).map_err(|error| anyhow::anyhow!("{}: {error}", data.display()))
}

/// Trains on the train split and writes the model.
fn train(data: &Path, output: &Path) -> anyhow::Result<ExitCode> {
    let set = read(data)?;
    let examples = training_examples(&set);
    let model = NaiveBayes::train(&examples);
    std::fs::write(output, model.to_json())
        .with_context(|| format!("writing {}", output.display()))?;
    outln!(
        "trained on {} examples ({} spam, {} ham): {} tokens in the vocabulary, written to {}",
        examples.len(),
        model.spam_documents,
        model.ham_documents,
        model.vocabulary.len(),
        output.display()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Measures the standard screen on the test split and lists its mistakes.
fn eval(data: &Path, threshold: f64) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        threshold.is_finite() && threshold > 0.0,
        "--threshold must be a positive number"
    );
    let set = read(data)?;
    let evaluation = Evaluation::run(&SpamScreen::standard(threshold), &set);
    for (example, assessment) in &evaluation.mistakes {
        let verdict = if example.is_spam() {
            "missed spam"
        } else {
            "rejected ham"
        };
        outln!(
            "{verdict} (score {:.2}): {:?}",
            assessment.score,
            example.description
        )?;
        outln!(
            "    {} {} <{}>",
            example.first_name,
            example.last_name,
            example.email
        )?;
        for reason in &assessment.reasons {
            outln!(
                "    {:.2} {}: {}",
                reason.weight,
                reason.signal,
                reason.detail
            )?;
        }
    }
    outln!(
        "threshold {threshold}: {} spam rejected, {} missed; {} ham accepted, {} rejected",
        evaluation.true_positives,
        evaluation.false_negatives,
        evaluation.true_negatives,
        evaluation.false_positives
    )?;
    outln!(
        "precision {:.3}  recall {:.3}  false-positive rate {:.3}",
        evaluation.precision(),
        evaluation.recall(),
        evaluation.false_positive_rate()
    )?;
    Ok(ExitCode::SUCCESS)
}
