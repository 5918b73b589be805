//! `intake spam train|eval|confirm` (review and release are in `quarantine`):
//! the text model trained on, and the standard screen measured out of family
//! against, the corpus; operators' decisions fed back into training
//! (docs/spam.md).

use crate::cli::{SpamCommand, StoreArgs};
use crate::config::{self, FlagOverrides};
use crate::{logging, open_store};
use anyhow::Context;
use intake_core::spam::{SpamDecision, StoredSpamModel, Verdict};
use intake_core::{Store, StoreError};
use intake_spam::labelled::{
    screen_over, training_examples, Evaluation, Figures, Label, Labelled, OutOfFamily,
};
use intake_spam::{redact_contact_details, NaiveBayes, SpamScreen};
use serde_json::json;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use time::OffsetDateTime;

/// What a refused or repeated model store exits with.
const NOT_STORED: u8 = 3;

pub async fn run(command: SpamCommand) -> anyhow::Result<ExitCode> {
    match command {
        SpamCommand::Train {
            data,
            output,
            with_decisions,
            store,
        } => {
            if with_decisions {
                train_with_decisions(&data, &store).await
            } else {
                train(&data, &output)
            }
        }
        SpamCommand::Eval {
            data,
            independent,
            threshold,
            with_decisions,
            store,
        } => {
            eval(
                &data,
                &independent,
                threshold,
                with_decisions.then_some(&store),
            )
            .await
        }
        SpamCommand::Review { store, all, json } => {
            super::quarantine::review(&store, all, json).await
        }
        SpamCommand::Release { store, id } => super::quarantine::release(&store, &id).await,
        SpamCommand::Confirm { store, id } => confirm(&store, &id).await,
    }
}

fn read(data: &Path) -> anyhow::Result<Vec<Labelled>> {
    Labelled::read(data).map_err(|error| anyhow::anyhow!("reading the corpus: {error}"))
}

pub(crate) async fn store_of(store_args: &StoreArgs) -> anyhow::Result<Arc<dyn Store>> {
    let settings = config::load(
        store_args.config.as_deref(),
        FlagOverrides::from_store(store_args),
    )?;
    logging::init(settings.server.log_format);
    open_store::open(&settings).await
}

/// The operators' decisions as training examples.
fn decision_examples(decisions: &[SpamDecision]) -> Vec<(&str, bool)> {
    decisions
        .iter()
        .map(|d| (d.description.as_str(), d.verdict == Verdict::Spam))
        .collect()
}

/// Trains on the whole corpus and writes the model.
fn train(data: &Path, output: &Path) -> anyhow::Result<ExitCode> {
    let set = read(data)?;
    let examples = training_examples(&set);
    let model = NaiveBayes::train(&examples);
    std::fs::write(output, model.to_json())
        .with_context(|| format!("writing {}", output.display()))?;
    outln!(
        "trained on {} examples ({} spam, {} ham): {} tokens in the vocabulary, version {}, written to {}",
        examples.len(),
        model.spam_documents,
        model.ham_documents,
        model.vocabulary.len(),
        model.version(),
        output.display()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Trains on the corpus plus the store's decisions and stores the model,
/// unless its out-of-family figures are worse than the corpus alone gives.
async fn train_with_decisions(data: &Path, store_args: &StoreArgs) -> anyhow::Result<ExitCode> {
    let set = read(data)?;
    let store = store_of(store_args).await?;
    let decisions = store.spam_decisions().await?;
    let extra = decision_examples(&decisions);
    let threshold = SpamScreen::DEFAULT_THRESHOLD;
    let baseline = OutOfFamily::run(&set, &[]).figures(threshold);
    let with = OutOfFamily::run(&set, &extra).figures(threshold);
    print_change(&baseline, &with)?;
    let spam = extra.iter().filter(|(_, spam)| *spam).count();
    if decisions.is_empty() {
        outln!("no decisions to train with: nothing stored")?;
        return Ok(ExitCode::from(NOT_STORED));
    }
    if !with.no_worse_than(&baseline) {
        outln!(
            "with {} decisions ({spam} spam, {} legitimate) the out-of-family figures are worse: \
             nothing stored, the model in use stays",
            decisions.len(),
            decisions.len() - spam
        )?;
        return Ok(ExitCode::from(NOT_STORED));
    }
    let mut examples = training_examples(&set);
    examples.extend_from_slice(&extra);
    let model = NaiveBayes::train(&examples);
    let version = model.version();
    let report = json!({
        "corpusExamples": set.len(),
        "decisions": {"spam": spam, "ham": decisions.len() - spam},
        "outOfFamily": with,
        "baseline": baseline,
    });
    let stored = StoredSpamModel {
        version: version.clone(),
        model: model.to_json(),
        report: report.to_string(),
        created_at: OffsetDateTime::now_utc(),
    };
    match store.save_spam_model(&stored).await {
        Ok(()) => {
            outln!(
                "stored model {version}: trained on {} corpus examples and {} decisions ({spam} spam); \
                 every process uses it from its next directory refresh",
                set.len(),
                decisions.len()
            )?;
            Ok(ExitCode::SUCCESS)
        }
        Err(StoreError::Conflict(_)) => {
            outln!("model {version} is stored already: nothing changed")?;
            Ok(ExitCode::from(NOT_STORED))
        }
        Err(error) => Err(error.into()),
    }
}

fn print_change(before: &Figures, after: &Figures) -> anyhow::Result<()> {
    outln!("                              corpus   + decisions")?;
    for (name, a, b) in [
        ("mean recall", before.mean_recall, after.mean_recall),
        ("lowest family recall", before.min_recall, after.min_recall),
        (
            "mean false-positive rate",
            before.mean_false_positive_rate,
            after.mean_false_positive_rate,
        ),
        (
            "highest false-positive rate",
            before.max_false_positive_rate,
            after.max_false_positive_rate,
        ),
    ] {
        outln!("{name:<28} {a:>8.3} {b:>13.3}")?;
    }
    Ok(())
}

/// Measures the standard screen out of family, then on the independent
/// set, and lists every mistake with its reasons.
async fn eval(
    data: &Path,
    independent: &Path,
    threshold: f64,
    with_decisions: Option<&StoreArgs>,
) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        threshold.is_finite() && threshold > 0.0,
        "--threshold must be a positive number"
    );
    let set = read(data)?;
    let measured = OutOfFamily::run(&set, &[]);
    outln!(
        "out of family at threshold {threshold:.2}: each family judged by a model trained without it"
    )?;
    for label in [Label::Spam, Label::Ham] {
        let (kind, rate) = match label {
            Label::Spam => ("spam family", "recall"),
            Label::Ham => ("legitimate family", "false positives"),
        };
        outln!("{kind:<28} {:>8} {:>8} {rate:>16}", "examples", "refused")?;
        for family in measured.families.iter().filter(|f| f.label == label) {
            outln!(
                "  {:<26} {:>8} {:>8} {:>16.3}",
                family.family,
                family.examples(),
                family.refused(threshold),
                family.rate(threshold)
            )?;
        }
    }
    let figures = measured.figures(threshold);
    outln!(
        "mean recall {:.3}, lowest {:.3}; false-positive rate mean {:.3}, highest {:.3}",
        figures.mean_recall,
        figures.min_recall,
        figures.mean_false_positive_rate,
        figures.max_false_positive_rate
    )?;
    match measured.threshold_for(0.01) {
        Some(lowest) => outln!(
            "lowest threshold with at most 1% false positives in every legitimate family: {lowest:.2}"
        )?,
        None => outln!("no threshold up to 3.00 keeps every legitimate family at 1% false positives")?,
    }
    for family in &measured.families {
        for judged in family.mistakes(threshold) {
            let verdict = match family.label {
                Label::Spam => "missed spam",
                Label::Ham => "refused job",
            };
            outln!(
                "{verdict} [{}] (score {:.2}): {:?}",
                family.family,
                judged.assessment.score,
                judged.example.description
            )?;
            for reason in &judged.assessment.reasons {
                outln!(
                    "    {:.2} {}: {}",
                    reason.weight,
                    reason.signal,
                    reason.detail
                )?;
            }
        }
    }
    if independent.exists() {
        let independent_set = read(independent)?;
        let model = NaiveBayes::train(&training_examples(&set));
        let screen = screen_over(model, threshold);
        let evaluation = Evaluation::run(&screen, &independent_set);
        outln!(
            "independent set {} (never trained on): {} spam refused, {} missed; {} jobs accepted, {} refused",
            independent.display(),
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
        for judged in &evaluation.mistakes {
            let verdict = if judged.example.is_spam() {
                "missed spam"
            } else {
                "refused job"
            };
            outln!(
                "{verdict} [{}] (score {:.2}): {:?}",
                judged.example.family,
                judged.assessment.score,
                judged.example.description
            )?;
        }
    }
    if let Some(store_args) = with_decisions {
        let store = store_of(store_args).await?;
        let decisions = store.spam_decisions().await?;
        let with = OutOfFamily::run(&set, &decision_examples(&decisions)).figures(threshold);
        outln!(
            "with {} operators' decisions added to training:",
            decisions.len()
        )?;
        print_change(&figures, &with)?;
        outln!(
            "{}",
            if with.no_worse_than(&figures) {
                "no worse: `intake spam train --with-decisions` would store it"
            } else {
                "worse: `intake spam train --with-decisions` would store nothing"
            }
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Records that a quarantined submission is spam.
async fn confirm(store_args: &StoreArgs, id: &str) -> anyhow::Result<ExitCode> {
    let store = store_of(store_args).await?;
    let entry = super::quarantine::entry(store.as_ref(), id).await?;
    let decision = decision_on(&entry, Verdict::Spam)?;
    match store.confirm_spam(&decision).await {
        Ok(()) => {
            outln!("{}", json!({"confirmed": id, "verdict": "spam"}))?;
            Ok(ExitCode::SUCCESS)
        }
        Err(StoreError::Conflict(why)) => {
            eprintln!("error: `{id}` was {why}");
            Ok(ExitCode::from(2))
        }
        Err(error) => Err(error.into()),
    }
}

/// The decision `verdict` on `entry`: its description without contact
/// details, and the model version that judged it.
pub(crate) fn decision_on(
    entry: &intake_core::jobs::Quarantined,
    verdict: Verdict,
) -> anyhow::Result<SpamDecision> {
    let submission: serde_json::Value =
        serde_json::from_str(&entry.submission).context("the stored submission is not JSON")?;
    let description = submission
        .get("description")
        .and_then(serde_json::Value::as_str)
        .unwrap_or_default();
    Ok(SpamDecision {
        quarantine_id: entry.id.clone(),
        verdict,
        description: redact_contact_details(description),
        model_version: entry.model_version.clone(),
        decided_at: OffsetDateTime::now_utc(),
    })
}
