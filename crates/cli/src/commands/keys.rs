//! `intake keys create | list | revoke`.

use crate::cli::{KeysCommand, StoreArgs};
use crate::config::{self, FlagOverrides, Settings};
use crate::{logging, master_key, open_store};
use anyhow::Context;
use intake_core::{ApiKey, Environment, KeyPolicy, NewKey, StoreError};
use serde_json::json;
use std::process::ExitCode;
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

pub async fn run(command: KeysCommand) -> anyhow::Result<ExitCode> {
    match command {
        KeysCommand::Create {
            store,
            name,
            environment,
            require,
            json,
        } => create(&store, &name, &environment, require.as_deref(), json).await,
        KeysCommand::List { store, json } => list(&store, json).await,
        KeysCommand::Revoke { store, key_id } => revoke(&store, &key_id).await,
    }
}

fn settings(store: &StoreArgs) -> anyhow::Result<Settings> {
    let settings = config::load(store.config.as_deref(), FlagOverrides::from_store(store))?;
    logging::init(settings.server.log_format);
    Ok(settings)
}

async fn create(
    store_args: &StoreArgs,
    name: &str,
    environment: &str,
    require: Option<&str>,
    json: bool,
) -> anyhow::Result<ExitCode> {
    if name.trim().is_empty() {
        anyhow::bail!("--name must not be blank");
    }
    let environment: Environment = environment.parse()?;
    let settings = settings(store_args)?;
    let store = open_store::open(&settings).await?;
    let master = master_key::load_or_create(&settings.storage.data_dir)?;
    let policy = require.map(KeyPolicy::parse).unwrap_or_default();
    let new = NewKey::generate(name, environment, policy, &master);
    store
        .insert_key(&new.key)
        .await
        .context("storing the key")?;
    tracing::info!(key_id = %new.key.key_id, %environment, "key created");
    if json {
        let out = json!({"keyId": new.key.key_id, "secret": new.secret.expose(), "environment": environment, "name": new.key.name});
        outln!("{out}")?;
    } else {
        outln!("keyId:       {}", new.key.key_id)?;
        outln!("secret:      {}", new.secret.expose())?;
        outln!("environment: {environment}")?;
        outln!("name:        {}", new.key.name)?;
        outln!()?;
        outln!("The secret is shown this once; store it now. It cannot be shown again.")?;
    }
    Ok(ExitCode::SUCCESS)
}

async fn list(store_args: &StoreArgs, json: bool) -> anyhow::Result<ExitCode> {
    let settings = settings(store_args)?;
    let keys = open_store::open(&settings).await?.list_keys().await?;
    if json {
        let rows: Vec<_> = keys.iter().map(key_json).collect();
        outln!("{}", serde_json::Value::Array(rows))?;
    } else {
        outln!(
            "{:<30} {:<11} {:<8} {:<21} NAME",
            "KEY ID",
            "ENVIRONMENT",
            "STATUS",
            "CREATED"
        )?;
        for key in &keys {
            let status = if key.is_active() { "active" } else { "revoked" };
            outln!(
                "{:<30} {:<11} {:<8} {:<21} {}",
                key.key_id,
                key.environment,
                status,
                rfc3339(key.created_at),
                key.name
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

async fn revoke(store_args: &StoreArgs, key_id: &str) -> anyhow::Result<ExitCode> {
    let settings = settings(store_args)?;
    match open_store::open(&settings)
        .await?
        .revoke_key(key_id, OffsetDateTime::now_utc())
        .await
    {
        Ok(key) => {
            tracing::info!(key_id, "key revoked");
            outln!(
                "revoked {} ({}, {}) at {}",
                key.key_id,
                key.name,
                key.environment,
                key.revoked_at.map(rfc3339).unwrap_or_default()
            )?;
            Ok(ExitCode::SUCCESS)
        }
        Err(StoreError::NotFound) => {
            eprintln!("error: there is no key `{key_id}`");
            Ok(ExitCode::from(2))
        }
        Err(error) => Err(error.into()),
    }
}

fn key_json(key: &ApiKey) -> serde_json::Value {
    json!({
        "keyId": key.key_id,
        "name": key.name,
        "environment": key.environment,
        "requiredHeaders": key.policy.to_text(),
        "createdAt": rfc3339(key.created_at),
        "revokedAt": key.revoked_at.map(rfc3339),
    })
}

fn rfc3339(at: OffsetDateTime) -> String {
    at.format(&Rfc3339).unwrap_or_default()
}
