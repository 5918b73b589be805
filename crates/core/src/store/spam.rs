//! What the spam screen learns from: operators' decisions on quarantined
//! submissions, and the text models trained with them.

use super::StoreError;
use crate::spam::{SpamDecision, StoredSpamModel};
use async_trait::async_trait;

/// Operators' decisions and stored text models. Releasing a submission
/// records its decision with the release
/// ([`JobStore::release`](super::JobStore::release)); confirming one records
/// it here.
#[async_trait]
pub trait SpamLearning: Send + Sync + 'static {
    /// Records that quarantine entry `decision.quarantine_id` is spam.
    /// `NotFound` if there is no such entry, `Conflict` if it was released or
    /// decided on already.
    async fn confirm_spam(&self, decision: &SpamDecision) -> Result<(), StoreError>;

    /// Every decision, oldest first.
    async fn spam_decisions(&self) -> Result<Vec<SpamDecision>, StoreError>;

    /// Keeps a trained model. `Conflict` if one of the same version is kept
    /// already.
    async fn save_spam_model(&self, model: &StoredSpamModel) -> Result<(), StoreError>;

    /// The model stored last, if any.
    async fn latest_spam_model(&self) -> Result<Option<StoredSpamModel>, StoreError>;

    /// The version of the model stored last, if any: what a process polls
    /// (cheaply) to learn that a new model is there.
    async fn latest_spam_model_version(&self) -> Result<Option<String>, StoreError>;
}
