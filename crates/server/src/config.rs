//! What the server needs to know at start; loaded and validated by the CLI.

use intake_core::Environment;
use intake_images::ImageLimits;
use std::time::Duration;

/// Default limit of a multipart body: five images of 10 MiB and the job, with room to spare.
pub const DEFAULT_MULTIPART_BODY_LIMIT: usize = 50 * 1024 * 1024;

/// Default cap on request body bytes held at once by all requests of a
/// process (see [`ServerConfig::body_budget`]): five 50 MiB jobs with photos
/// at once, or thousands of JSON jobs.
pub const DEFAULT_BODY_BUDGET: usize = 256 * 1024 * 1024;

/// Default rate of each key: generous for an integrator, a brake on a runaway loop.
pub const DEFAULT_RATE_LIMIT_PER_SECOND: u32 = 50;

/// Default burst of each key above its rate.
pub const DEFAULT_RATE_LIMIT_BURST: u32 = 100;

/// Default cap on a key's requests in flight.
pub const DEFAULT_MAX_IN_FLIGHT_PER_KEY: u32 = 32;

/// Default time a request head may take (see [`ConnectionLimits::header_read_timeout`]).
pub const DEFAULT_HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// Default time a keep-alive connection may sit idle (see [`ConnectionLimits::idle_timeout`]).
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(75);

/// Default time a request body may take to arrive (see [`ConnectionLimits::body_read_timeout`]).
pub const DEFAULT_BODY_READ_TIMEOUT: Duration = Duration::from_secs(20);

/// Default cap on open client connections, before the descriptor limit lowers it.
pub const DEFAULT_MAX_CONNECTIONS: usize = 1024;

/// Default memory all image work of a process may hold at once: room for the
/// costliest image the default limits admit (a 40-megapixel WebP, about
/// 650 MiB at its bound), or for several phone photos at once.
pub const DEFAULT_IMAGE_MEMORY_BUDGET: u64 = 768 * 1024 * 1024;

/// Default time a request may wait, in all, for its images' share of the
/// image memory budget before a 503.
pub const DEFAULT_IMAGE_BUDGET_WAIT: Duration = Duration::from_secs(10);

/// How long a client may take at each stage of a connection, and how many
/// connections may be open at once (issue 13): what keeps slow or idle
/// clients from holding the service's connections and descriptors.
#[derive(Debug, Clone)]
pub struct ConnectionLimits {
    /// Longest a request head (request line and headers) may take to arrive,
    /// counted from its first byte, or from the connection's opening for its
    /// first request; the connection is closed without an answer after it.
    pub header_read_timeout: Duration,
    /// Longest a connection may wait between an answer and the first byte of
    /// the next request, and longest an answer may stay unwritten because the
    /// client does not read it; the connection is closed after it.
    pub idle_timeout: Duration,
    /// Longest a request body may take to arrive once the head has; a 408
    /// after it. Shorter than the request timeout, so that a stalled body
    /// gets its 408 rather than the timeout's 503.
    pub body_read_timeout: Duration,
    /// Most client connections open at once; further ones wait in the
    /// listen backlog until one closes. Lowered at start to fit under the
    /// process's descriptor limit.
    pub max_connections: usize,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        ConnectionLimits {
            header_read_timeout: DEFAULT_HEADER_READ_TIMEOUT,
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
            body_read_timeout: DEFAULT_BODY_READ_TIMEOUT,
            max_connections: DEFAULT_MAX_CONNECTIONS,
        }
    }
}

/// Settings of one server process.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// The environment this server runs as; only its keys are accepted.
    pub environment: Environment,
    /// How far a request's `Date` may be from the server clock, either way.
    pub max_skew: Duration,
    /// Largest request body accepted, in bytes (413 above it).
    pub body_limit: usize,
    /// Largest multipart body (a job with its images) accepted, in bytes (413 above it).
    pub multipart_body_limit: usize,
    /// Most request body bytes all requests of this process may hold at once,
    /// counted from when a request's signature is good until its answer is
    /// made; a request that cannot get room for its body within a short wait
    /// is answered 503 with `Retry-After`. At least `multipart_body_limit`
    /// (checked at start by the CLI), or a body at that limit is never read.
    pub body_budget: usize,
    /// Size, pixel and count limits of a job's images.
    pub image_limits: ImageLimits,
    /// Memory all image work of this process may hold at once, in bytes: each
    /// image takes its weight from it before its pixels are decoded. It must
    /// hold the costliest image `image_limits` admit
    /// (`intake_images::largest_weight`).
    pub image_memory_budget: u64,
    /// Longest a request waits, in all, for its images' shares of the budget;
    /// a 503 with `Retry-After` after it.
    pub image_budget_wait: Duration,
    /// How long in-flight requests may take to finish after a shutdown signal.
    pub shutdown_grace: Duration,
    /// Longest time one request may take before a 503.
    pub request_timeout: Duration,
    /// Timeouts of each stage of a connection, and the cap on connections.
    pub connections: ConnectionLimits,
    /// How often the directory version is checked for imports by other processes.
    pub directory_refresh: Duration,
    /// Public address of the marketplace; a trade's profile is `{this}/trades/{companyId}`.
    pub public_base_url: String,
    /// How long the answer to a submission is kept for repeats with the same `Idempotency-Key`.
    pub idempotency_ttl: Duration,
    /// Most trades a job goes to.
    pub max_recipients: usize,
    /// Spam score at which a job is refused (and quarantined); the same in every environment.
    pub spam_threshold: f64,
    /// Requests a second each key may make on average, in this process (its
    /// token bucket's refill); 0 disables the rate limit.
    pub rate_limit_per_second: u32,
    /// Requests a key may make at once above its rate (its bucket's size).
    pub rate_limit_burst: u32,
    /// Requests of one key handled at the same time, in this process; 0 disables the cap.
    pub max_in_flight_per_key: u32,
    /// Whether a production server runs the lead dispatcher itself
    /// (`INTAKE_DISPATCHER=false` leaves it to `intake worker`).
    pub dispatcher: bool,
    /// How leads are claimed, sent and retried (production only).
    pub delivery: intake_delivery::DeliveryConfig,
    /// How long records are kept, and how often older ones are removed.
    pub retention: crate::workers::retention::RetentionPolicy,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            environment: Environment::Staging,
            max_skew: Duration::from_secs(300),
            body_limit: 1024 * 1024,
            multipart_body_limit: DEFAULT_MULTIPART_BODY_LIMIT,
            body_budget: DEFAULT_BODY_BUDGET,
            image_limits: ImageLimits::default(),
            image_memory_budget: DEFAULT_IMAGE_MEMORY_BUDGET,
            image_budget_wait: DEFAULT_IMAGE_BUDGET_WAIT,
            shutdown_grace: Duration::from_secs(30),
            request_timeout: Duration::from_secs(30),
            connections: ConnectionLimits::default(),
            directory_refresh: Duration::from_secs(3),
            public_base_url: "https://www.example-trades.co.uk".to_owned(),
            idempotency_ttl: Duration::from_secs(24 * 3600),
            max_recipients: intake_core::directory::matching::DEFAULT_MAX_RECIPIENTS,
            spam_threshold: intake_spam::SpamScreen::DEFAULT_THRESHOLD,
            rate_limit_per_second: DEFAULT_RATE_LIMIT_PER_SECOND,
            rate_limit_burst: DEFAULT_RATE_LIMIT_BURST,
            max_in_flight_per_key: DEFAULT_MAX_IN_FLIGHT_PER_KEY,
            dispatcher: true,
            delivery: intake_delivery::DeliveryConfig::default(),
            retention: crate::workers::retention::RetentionPolicy::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_budget_holds_the_costliest_image_the_default_limits_admit() {
        let largest = intake_images::largest_weight(&ImageLimits::default());
        assert!(
            DEFAULT_IMAGE_MEMORY_BUDGET >= largest,
            "{DEFAULT_IMAGE_MEMORY_BUDGET} < {largest}"
        );
    }
}
