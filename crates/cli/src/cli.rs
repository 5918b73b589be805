//! The command line (DESIGN.md §7).

use crate::bench::Scenario;
use crate::commands::submit::SubmitArgs;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// Affiliate Job Intake Service.
#[derive(Debug, Parser)]
#[command(name = "intake", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the HTTP service.
    Serve(ServeArgs),
    /// Create, list and revoke affiliate keys.
    #[command(subcommand)]
    Keys(KeysCommand),
    /// Load an operator's categories or trades into the store.
    #[command(subcommand)]
    Import(ImportCommand),
    /// Generate a realistic demo directory across Great Britain and load it.
    DemoData(DemoDataArgs),
    /// Call GET /preferred-start-options as an affiliate (signed).
    Options(ClientArgs),
    /// Submit a job from a JSON file as an affiliate (signed, idempotent, retried).
    Submit(SubmitArgs),
    /// Load-test a running service and compare with its /healthz ceiling.
    Bench(BenchArgs),
    /// Train the spam text model and measure the spam screen (docs/spam.md).
    #[command(subcommand)]
    Spam(SpamCommand),
    /// List and retry lead deliveries; show a trade's webhook secret (docs/operations.md).
    #[command(subcommand)]
    Leads(LeadsCommand),
    /// Run only the lead dispatcher (no HTTP) on the data dir or database of `serve`.
    Worker(WorkerArgs),
    /// Apply or list the database's migrations (docs/operations.md).
    #[command(subcommand)]
    Db(DbCommand),
    /// Copy the embedded store and its photos while the service runs (docs/operations.md).
    Backup(BackupArgs),
    /// Put a backup made by `intake backup` into a data dir that no process uses.
    Restore(RestoreArgs),
    /// See or erase what is held about one person (UK GDPR; docs/operations.md, "Personal data").
    #[command(subcommand)]
    Jobs(JobsCommand),
    /// Check a running process: GET a URL (its /readyz) and exit 0 on 200,
    /// 1 otherwise: for container and orchestrator health checks.
    Health(HealthArgs),
    /// Print a shell completion script (`intake completions bash > /etc/bash_completion.d/intake`).
    Completions(CompletionsArgs),
    /// Print the manual page, in roff (`intake man > intake.1; man ./intake.1`).
    Man,
}

#[derive(Debug, Subcommand)]
pub enum JobsCommand {
    /// Print as JSON everything held about a person: their jobs (with
    /// photo records and leads) and quarantined submissions.
    Export {
        #[command(flatten)]
        store: StoreArgs,
        #[command(flatten)]
        person: PersonArgs,
    },
    /// Remove a person's jobs (with their photos and leads: pending leads are
    /// never sent) and quarantined submissions, or one job; prints the counts.
    Erase {
        #[command(flatten)]
        store: StoreArgs,
        #[command(flatten)]
        target: EraseTarget,
    },
}

/// Whom an export is about: one of the two.
#[derive(Debug, Args)]
#[group(required = true, multiple = false)]
pub struct PersonArgs {
    /// Their e-mail address (any case).
    #[arg(long)]
    pub email: Option<String>,
    /// Their phone number, in any written form (`07700 900123`, `+44 7700 900123`).
    #[arg(long)]
    pub phone: Option<String>,
}

/// What an erasure removes: one of the three.
#[derive(Debug, Args)]
#[group(required = true, multiple = false)]
pub struct EraseTarget {
    /// Everything held under this e-mail address (any case).
    #[arg(long)]
    pub email: Option<String>,
    /// Everything held under this phone number, in any written form.
    #[arg(long)]
    pub phone: Option<String>,
    /// This one job.
    #[arg(long = "job")]
    pub job_id: Option<String>,
}

#[derive(Debug, Args)]
pub struct HealthArgs {
    /// What to ask: `/readyz` of the public port (`serve`) or of the admin
    /// listener (`serve` and `worker`; `INTAKE_ADMIN_LISTEN`).
    #[arg(default_value = "http://127.0.0.1:8080/readyz")]
    pub url: String,
    /// Seconds to wait for the answer.
    #[arg(long, default_value_t = 3)]
    pub timeout: u64,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete in.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Where the service keeps its data; shared by every server-side command.
#[derive(Debug, Args, Clone, Default)]
pub struct StoreArgs {
    /// Data directory (embedded database, master key file). [env: INTAKE_DATA_DIR] [default: ./intake-data]
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// Database URL; `sqlite://PATH` for the embedded store. [env: INTAKE_DATABASE_URL] [default: sqlite://DATA_DIR/intake.db]
    #[arg(long = "database")]
    pub database_url: Option<String>,
    /// A TOML configuration file, read before the environment and the flags. [env: INTAKE_CONFIG]
    #[arg(long)]
    pub config: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub store: StoreArgs,
    /// Address to listen on. [env: INTAKE_LISTEN] [default: 127.0.0.1:8080]
    #[arg(long)]
    pub listen: Option<String>,
    /// The environment this server runs as. [env: INTAKE_ENVIRONMENT] [default: staging]
    #[arg(long)]
    pub environment: Option<String>,
    /// Do not load a demo directory into an empty embedded store. [env: INTAKE_DEMO_DATA=false]
    #[arg(long)]
    pub no_demo_data: bool,
}

#[derive(Debug, Subcommand)]
pub enum ImportCommand {
    /// Replace the category tree with FILE (the shape of GET /api/v1/category); checked first, all or nothing.
    Categories {
        #[command(flatten)]
        store: StoreArgs,
        /// A JSON file: an array of parents, each with `subcategories`.
        file: PathBuf,
    },
    /// Add or replace trades from FILE (JSON Lines, docs/directory.md); every line checked first, all or nothing.
    Trades {
        #[command(flatten)]
        store: StoreArgs,
        /// A JSON Lines file, one trade per line.
        file: PathBuf,
    },
}

#[derive(Debug, Args)]
pub struct DemoDataArgs {
    #[command(flatten)]
    pub store: StoreArgs,
    /// How many trades to generate.
    #[arg(long, default_value_t = 5000)]
    pub trades: usize,
    /// Seed of the generator; the same seed gives the same directory.
    #[arg(long, default_value_t = 2021)]
    pub seed: u64,
    /// Write the trades to this JSON Lines file instead of loading them.
    #[arg(long)]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum KeysCommand {
    /// Create a key; its secret is shown once.
    Create {
        #[command(flatten)]
        store: StoreArgs,
        /// The affiliate application's name.
        #[arg(long)]
        name: String,
        /// The environment the key belongs to: staging or production.
        #[arg(long)]
        environment: String,
        /// Headers every signature of this key must cover, e.g. "(request-target) host date digest".
        #[arg(long)]
        require: Option<String>,
        /// Print one JSON object {"keyId","secret","environment","name"}.
        #[arg(long)]
        json: bool,
    },
    /// List keys (never their secrets).
    List {
        #[command(flatten)]
        store: StoreArgs,
        /// Print a JSON array.
        #[arg(long)]
        json: bool,
    },
    /// Revoke a key; it is refused from the next request on.
    Revoke {
        #[command(flatten)]
        store: StoreArgs,
        /// The key id to revoke.
        key_id: String,
    },
}

/// How a client command reaches and signs for the service.
#[derive(Debug, Args, Clone)]
pub struct ClientArgs {
    /// The service's base address.
    #[arg(long, env = "INTAKE_BASE_URL", default_value = "http://127.0.0.1:8080")]
    pub base_url: String,
    /// The key id to sign with.
    #[arg(long, env = "INTAKE_KEY_ID")]
    pub key_id: String,
    /// Signature algorithm: hmac-sha1, hmac-sha256 or hmac-sha512.
    #[arg(long, default_value = "hmac-sha256")]
    pub algorithm: String,
    /// Covered headers, space separated.
    #[arg(
        long,
        default_value = "(request-target) host date digest content-length"
    )]
    pub headers: String,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    #[command(flatten)]
    pub client: ClientArgs,
    /// What to load.
    #[arg(long, value_enum, default_value_t = Scenario::Options)]
    pub scenario: Scenario,
    /// Requests in flight at once.
    #[arg(long, default_value_t = 32)]
    pub concurrency: usize,
    /// Seconds to measure each of the scenario and /healthz.
    #[arg(long, default_value_t = 10)]
    pub duration: u64,
    /// Seconds of warm-up before each measurement.
    #[arg(long, default_value_t = 2)]
    pub warmup: u64,
    /// Print the figures as JSON.
    #[arg(long)]
    pub json: bool,
    /// Also run PostgreSQL's pgbench on this database with the transaction a
    /// job costs the store, at the same concurrency and duration.
    #[arg(long, value_name = "URL")]
    pub pgbench: Option<String>,
}

#[derive(Debug, Subcommand)]
pub enum SpamCommand {
    /// Train the text model on the corpus and write it; with
    /// `--with-decisions`, train on the corpus and operators' decisions and
    /// store the model for every process, if it measures no worse.
    Train {
        /// The corpus: a folder of JSON Lines files, or one file.
        #[arg(long, default_value = "data/spam/corpus")]
        data: PathBuf,
        /// Where to write the model (without `--with-decisions`).
        #[arg(
            long,
            default_value = "data/spam/model.json",
            conflicts_with = "with_decisions"
        )]
        output: PathBuf,
        /// Add the decisions made with `release` and `confirm`, and store
        /// the model in the store instead of writing a file.
        #[arg(long)]
        with_decisions: bool,
        #[command(flatten)]
        store: StoreArgs,
    },
    /// Measure the standard screen out of family on the corpus (and on an
    /// independent set) and list its mistakes.
    Eval {
        /// The corpus: a folder of JSON Lines files, or one file.
        #[arg(long, default_value = "data/spam/corpus")]
        data: PathBuf,
        /// A labelled set never trained on, judged by the model trained on the
        /// whole corpus; skipped if the file does not exist.
        #[arg(long, default_value = "data/spam/independent.jsonl")]
        independent: PathBuf,
        /// The score at which a job is spam.
        #[arg(long, default_value_t = 1.0)]
        threshold: f64,
        /// Also measure with operators' decisions added to training, and show
        /// the change.
        #[arg(long)]
        with_decisions: bool,
        #[command(flatten)]
        store: StoreArgs,
    },
    /// List the submissions held back as spam, with their reasons.
    Review {
        #[command(flatten)]
        store: StoreArgs,
        /// Also list the ones already released or confirmed.
        #[arg(long)]
        all: bool,
        /// Print a JSON array.
        #[arg(long)]
        json: bool,
    },
    /// Turn a quarantined submission into a normal job: matched, stored,
    /// delivered; its text is kept as a legitimate example for training.
    Release {
        #[command(flatten)]
        store: StoreArgs,
        /// The quarantine id shown by `intake spam review`.
        id: String,
    },
    /// Confirm that a quarantined submission is spam: it leaves the review
    /// list and its text is kept as a spam example for training.
    Confirm {
        #[command(flatten)]
        store: StoreArgs,
        /// The quarantine id shown by `intake spam review`.
        id: String,
    },
}

#[derive(Debug, Subcommand)]
pub enum LeadsCommand {
    /// List deliveries (one per job, recipient and channel), oldest first.
    List {
        #[command(flatten)]
        store: StoreArgs,
        /// Only this job's deliveries.
        #[arg(long = "job")]
        job_id: Option<String>,
        /// Only deliveries in this state.
        #[arg(long, value_parser = ["pending", "delivered", "dead", "gone"])]
        state: Option<String>,
        /// At most this many rows.
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
        limit: u32,
        /// Print one JSON object a line.
        #[arg(long)]
        json: bool,
    },
    /// Make dead and gone deliveries pending again, due now.
    #[command(group(clap::ArgGroup::new("which").required(true).multiple(true).args(["ids", "job_id", "dead"])))]
    Retry {
        #[command(flatten)]
        store: StoreArgs,
        /// These delivery ids (as `intake leads list` shows them).
        #[arg(conflicts_with_all = ["job_id", "dead"])]
        ids: Vec<String>,
        /// Every dead or gone delivery of this job.
        #[arg(long = "job")]
        job_id: Option<String>,
        /// Every dead delivery (of the job, with --job); gone ones stay gone.
        #[arg(long)]
        dead: bool,
    },
    /// Print the secret a trade verifies its webhooks with (`whsec_...`).
    WebhookSecret {
        #[command(flatten)]
        store: StoreArgs,
        /// The trade's company id.
        company_id: u64,
    },
}

#[derive(Debug, Args)]
pub struct WorkerArgs {
    #[command(flatten)]
    pub store: StoreArgs,
}

#[derive(Debug, Subcommand)]
pub enum DbCommand {
    /// Apply the pending migrations (the only command that migrates when
    /// INTAKE_MIGRATE_ON_START=false).
    Migrate {
        #[command(flatten)]
        store: StoreArgs,
    },
    /// List the migrations, applied and pending; exit 2 unless the database is current.
    Status {
        #[command(flatten)]
        store: StoreArgs,
        /// Print one JSON object a line.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Args)]
pub struct BackupArgs {
    #[command(flatten)]
    pub store: StoreArgs,
    /// A new (or empty) directory to write the backup to.
    pub dest: PathBuf,
}

#[derive(Debug, Args)]
pub struct RestoreArgs {
    /// A directory written by `intake backup`.
    pub source: PathBuf,
    /// The data dir to restore into: new or empty (a `master.key` in it is kept).
    #[arg(long)]
    pub data_dir: PathBuf,
    /// Replace the database and photos of a data dir that holds some.
    #[arg(long)]
    pub force: bool,
}
