//! Shared state handed to every handler.

use crate::auth::bindings::Bindings;
use crate::body_budget::{BodyBudget, BODY_BUDGET_WAIT};
use crate::config::ServerConfig;
use crate::directory::DirectoryCell;
use crate::idempotency::InFlight;
use crate::image_budget::ImageBudget;
use crate::limits::KeyLimits;
use crate::storage::ImageStore;
use intake_core::directory::LoadError;
use intake_core::intake::{Intake, IntakeSettings};
use intake_core::{ApiKey, MasterKey, Store, StoreError};
use intake_spam::{LoadedModel, ModelHandle, ModelOrigin, NaiveBayes, SpamScreen};
use std::sync::Arc;

/// The state every handler and layer shares: one pointer, so that cloning it
/// for each layer of each request is one reference count, not one per part
/// (cloning and dropping the parts one by one cost 11 % of the server's CPU
/// under the jobs benchmark; BENCHMARKS.md). Its parts are read through
/// `Deref` (`state.store`, `state.config`, …).
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

/// What [`AppState`] shares: the store, the master key, the configuration,
/// the directory and the process-wide budgets and limits.
#[derive(Clone)]
pub struct Shared {
    /// The store, whichever backend `main` chose.
    pub store: Arc<dyn Store>,
    /// Opens key secrets for signature checks.
    pub master_key: Arc<MasterKey>,
    /// Server settings.
    pub config: Arc<ServerConfig>,
    /// Categories and trades, refreshed when the store's directory changes.
    pub directory: Arc<DirectoryCell>,
    /// Submissions being handled right now (see `idempotency`).
    pub in_flight: InFlight,
    /// The intake pipeline every submitted job runs through.
    pub intake: Arc<Intake>,
    /// Where the photos of jobs are kept (in memory until [`AppState::with_images`]).
    pub images: ImageStore,
    /// Each key's rate limit and cap on requests in flight (see `limits`).
    pub limits: Arc<KeyLimits>,
    /// Signatures that do not pin their request, bound to the first one (see `auth`).
    pub bindings: Arc<Bindings>,
    /// Poked when a job is written, so the dispatcher claims its leads at once.
    pub deliveries_due: Arc<tokio::sync::Notify>,
    /// Memory for decoding and re-encoding images, shared by every request.
    pub image_budget: Arc<ImageBudget>,
    /// The request body bytes this process may hold at once (see `body_budget`).
    pub body_budget: Arc<BodyBudget>,
    /// Stands in for an unknown or revoked key (see `auth`).
    pub(crate) decoy_key: Arc<ApiKey>,
    /// The spam screen's text model: the embedded one, or the latest stored
    /// one (`intake spam train --with-decisions`), swapped in by the
    /// refresher (see [`AppState::refresh_spam_model`]).
    pub spam_model: ModelHandle,
    /// The version of a stored model refused as unreadable, so that it is
    /// not read again at every refresh.
    refused_spam_model: Arc<std::sync::Mutex<Option<String>>>,
}

impl AppState {
    /// Bundles the parts, loading the directory from the store.
    pub async fn load(
        store: Arc<dyn Store>,
        master_key: MasterKey,
        config: ServerConfig,
    ) -> Result<Self, LoadError> {
        let directory = Arc::new(DirectoryCell::load(store.as_ref()).await?);
        let spam_model = ModelHandle::embedded();
        let intake = Arc::new(Intake::new(
            store.clone(),
            Arc::new(SpamScreen::standard_with(
                config.spam_threshold,
                spam_model.clone(),
            )),
            IntakeSettings {
                max_recipients: config.max_recipients,
                idempotency_ttl: config.idempotency_ttl,
                // As long as the signature could be replayed.
                signature_ttl: config.max_skew * 2,
                public_base_url: config.public_base_url.clone(),
            },
        ));
        let limits = Arc::new(KeyLimits::new(&config));
        let bindings = Arc::new(Bindings::for_config(&config));
        let image_budget = Arc::new(ImageBudget::new(config.image_memory_budget));
        let body_budget = Arc::new(BodyBudget::new(config.body_budget, BODY_BUDGET_WAIT));
        let decoy_key = Arc::new(crate::auth::decoy_key(&master_key, config.environment));
        let state = AppState(Arc::new(Shared {
            store,
            master_key: Arc::new(master_key),
            config: Arc::new(config),
            directory,
            in_flight: InFlight::default(),
            intake,
            images: ImageStore::in_memory(),
            limits,
            bindings,
            deliveries_due: Arc::default(),
            image_budget,
            body_budget,
            decoy_key,
            spam_model,
            refused_spam_model: Arc::default(),
        }));
        // A stored model is used from the first request; if the store
        // cannot say, the embedded one serves until the refresher can.
        if let Err(error) = state.refresh_spam_model().await {
            crate::telemetry::store_error("spam_model", &error);
            tracing::warn!(%error, "could not read the stored spam model; screening with the embedded one");
        }
        Ok(state)
    }

    /// Keeps job photos in `images` (`intake serve` opens it from `INTAKE_IMAGE_STORE`).
    pub fn with_images(mut self, images: ImageStore) -> Self {
        // Copies the parts only if the state was already shared.
        Arc::make_mut(&mut self.0).images = images;
        self
    }

    /// Uses the model stored last by `intake spam train --with-decisions`,
    /// or the embedded one when none is stored, if that is not the one in
    /// use; answers whether it changed. A stored model that does not parse,
    /// or whose counts do not match its version, is refused with a warning
    /// and the model in use stays. The refresher calls this every
    /// `directory_refresh`, so every process takes a new model within it.
    pub async fn refresh_spam_model(&self) -> Result<bool, StoreError> {
        let current = self.spam_model.current();
        let Some(version) = self.store.latest_spam_model_version().await? else {
            if current.origin == ModelOrigin::Stored {
                self.spam_model.reset();
                tracing::info!(version = %self.spam_model.current().version, "no spam model stored any more; screening with the embedded one");
                return Ok(true);
            }
            return Ok(false);
        };
        if current.origin == ModelOrigin::Stored && current.version == version {
            return Ok(false);
        }
        // Refused ones are not read again and again: the version stays known.
        if self
            .refused_spam_model
            .lock()
            .map(|refused| refused.as_deref() == Some(version.as_str()))
            .unwrap_or(false)
        {
            return Ok(false);
        }
        let Some(stored) = self.store.latest_spam_model().await? else {
            return Ok(false);
        };
        // Parsing, hashing and indexing a model takes milliseconds: off the
        // runtime's threads.
        let json = stored.model;
        let loaded = tokio::task::spawn_blocking(move || {
            NaiveBayes::from_json(&json).map(|model| LoadedModel::new(model, ModelOrigin::Stored))
        })
        .await
        .map_err(|error| StoreError::Other(format!("loading the stored spam model: {error}")))?;
        match loaded {
            Ok(model) if model.version == stored.version => {
                self.spam_model.replace(model);
                tracing::info!(version = %stored.version, previous = %current.version, "screening with the spam model from the store");
                Ok(true)
            }
            Ok(_) => {
                tracing::warn!(version = %stored.version, "the stored spam model's counts do not match its version; keeping the model in use");
                self.refuse_spam_model(stored.version);
                Ok(false)
            }
            Err(error) => {
                tracing::warn!(version = %stored.version, %error, "the stored spam model does not parse; keeping the model in use");
                self.refuse_spam_model(stored.version);
                Ok(false)
            }
        }
    }

    fn refuse_spam_model(&self, version: String) {
        if let Ok(mut refused) = self.refused_spam_model.lock() {
            *refused = Some(version);
        }
    }

    /// Reloads the directory now if the store's version moved (the refresher
    /// does this on its own every `directory_refresh`).
    pub async fn refresh_directory(&self) -> Result<bool, LoadError> {
        self.directory.refresh(self.store.as_ref()).await
    }
}

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}
