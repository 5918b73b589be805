//! `limits`: how much one request, one key and the whole process may take.

use super::wire::{self, mebibytes::MIB};
use anyhow::bail;
use intake_images::ImageLimits;
use intake_server::ServerConfig;
use serde::Deserialize;
use std::time::Duration;

/// Body sizes, the memory budgets of bodies and photos, and per-key limits.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default)]
pub struct LimitSettings {
    /// `INTAKE_BODY_LIMIT_BYTES`: largest JSON body (413 above it).
    #[serde(rename = "body_limit_bytes")]
    pub body_limit: usize,
    /// `INTAKE_MULTIPART_BODY_LIMIT_BYTES`: largest job-with-images body (413 above it).
    #[serde(rename = "multipart_body_limit_bytes")]
    pub multipart_body_limit: usize,
    /// `INTAKE_BODY_BUDGET_BYTES`: most request body bytes held at once by all
    /// requests of the process (503 when a body finds no room).
    #[serde(rename = "body_budget_bytes")]
    pub body_budget: usize,
    /// `INTAKE_IMAGE_MEMORY_BUDGET_MIB`, in bytes: memory all image work of
    /// the process may hold at once; at least what one image at the limits takes.
    #[serde(rename = "image_memory_budget_mib", with = "wire::mebibytes")]
    pub image_memory_budget: u64,
    /// `INTAKE_IMAGE_BUDGET_WAIT_SECONDS`: longest a request waits for its
    /// images' share of that memory (503 after it).
    #[serde(rename = "image_budget_wait_seconds", with = "wire::seconds")]
    pub image_budget_wait: Duration,
    /// `INTAKE_RATE_LIMIT_PER_SECOND`: each key's rate in this process; 0 disables.
    pub rate_limit_per_second: u32,
    /// `INTAKE_RATE_LIMIT_BURST`: requests a key may make at once above its rate.
    pub rate_limit_burst: u32,
    /// `INTAKE_MAX_IN_FLIGHT_PER_KEY`: each key's requests in flight in this process; 0 disables.
    pub max_in_flight_per_key: u32,
}

impl Default for LimitSettings {
    fn default() -> Self {
        let server = ServerConfig::default();
        LimitSettings {
            body_limit: server.body_limit,
            multipart_body_limit: server.multipart_body_limit,
            body_budget: server.body_budget,
            image_memory_budget: server.image_memory_budget,
            image_budget_wait: server.image_budget_wait,
            rate_limit_per_second: server.rate_limit_per_second,
            rate_limit_burst: server.rate_limit_burst,
            max_in_flight_per_key: server.max_in_flight_per_key,
        }
    }
}

impl LimitSettings {
    /// Checks the limits against each other, the image limits and the request timeout.
    pub fn validate(
        &self,
        image_limits: &ImageLimits,
        request_timeout: Duration,
    ) -> anyhow::Result<()> {
        if self.body_limit < 1024 {
            bail!("body_limit_bytes must be at least 1024");
        }
        let smallest = image_limits.max_file_bytes + 64 * 1024;
        if self.multipart_body_limit < smallest {
            bail!(
                "multipart_body_limit_bytes must be at least {smallest} (one image of {} bytes and the job)",
                image_limits.max_file_bytes
            );
        }
        let largest = self.multipart_body_limit.max(self.body_limit);
        if self.body_budget < largest {
            bail!(
                "body_budget_bytes must be at least the largest body limit ({largest}), or a body at that limit could never be read; not {}",
                self.body_budget
            );
        }
        self.validate_image_memory(image_limits, request_timeout)?;
        self.validate_per_key()
    }

    /// The image memory budget must hold the costliest image the limits
    /// admit, or such an image could never be cleaned (issue 13).
    fn validate_image_memory(
        &self,
        limits: &ImageLimits,
        request_timeout: Duration,
    ) -> anyhow::Result<()> {
        const MOST_MIB: u64 = 1024 * 1024;
        let least_mib = intake_images::largest_weight(limits).div_ceil(MIB);
        let mib = self.image_memory_budget / MIB;
        if !(least_mib..=MOST_MIB).contains(&mib) {
            bail!(
                "image_memory_budget_mib must be {least_mib} to {MOST_MIB}, not {mib}: cleaning the costliest image the limits admit ({} megapixels, files of up to {} MiB) can take {least_mib} MiB, and a budget smaller than that could never let it through",
                limits.max_pixels / 1_000_000,
                limits.max_file_bytes as u64 / MIB
            );
        }
        if self.image_budget_wait.is_zero() || self.image_budget_wait >= request_timeout {
            bail!(
                "image_budget_wait_seconds must be at least 1 and less than request_timeout_seconds ({}), so that a request kept waiting for image memory gets that 503 before the request timeout; not {}",
                request_timeout.as_secs(),
                self.image_budget_wait.as_secs()
            );
        }
        Ok(())
    }

    /// The per-key limits: 0 switches a limit off; a rate needs a burst.
    fn validate_per_key(&self) -> anyhow::Result<()> {
        const MOST: u32 = 1_000_000;
        if self.rate_limit_per_second > MOST {
            bail!(
                "rate_limit_per_second must be 0 (off) to {MOST}, not {}",
                self.rate_limit_per_second
            );
        }
        if self.rate_limit_per_second > 0 && !(1..=MOST).contains(&self.rate_limit_burst) {
            bail!(
                "rate_limit_burst must be 1 to {MOST} while the rate limit is on, not {}",
                self.rate_limit_burst
            );
        }
        if self.max_in_flight_per_key > MOST {
            bail!(
                "max_in_flight_per_key must be 0 (off) to {MOST}, not {}",
                self.max_in_flight_per_key
            );
        }
        Ok(())
    }

    /// Writes this section into the server's settings.
    pub fn apply(&self, config: &mut ServerConfig) {
        config.body_limit = self.body_limit;
        config.multipart_body_limit = self.multipart_body_limit;
        config.body_budget = self.body_budget;
        config.image_memory_budget = self.image_memory_budget;
        config.image_budget_wait = self.image_budget_wait;
        config.rate_limit_per_second = self.rate_limit_per_second;
        config.rate_limit_burst = self.rate_limit_burst;
        config.max_in_flight_per_key = self.max_in_flight_per_key;
    }
}
