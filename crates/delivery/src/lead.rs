//! The lead a trade receives, built from the stored job at each attempt (so
//! its image links are always fresh).

use super::image_links::ImageLinks;
use intake_api::jobs::Address;
use intake_api::leads::{
    Lead, LeadCategory, LeadConsumer, LeadImage, LeadJob, LeadPreferredStart, LeadTrade,
    LEAD_CREATED,
};
use intake_core::categories::CategoryTree;
use intake_core::delivery::Delivery;
use intake_core::directory::{Directory, LoadError};
use intake_core::jobs::StoredJob;
use intake_core::Store;
use std::sync::Arc;
use std::time::Duration;
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;
use tokio::sync::Mutex;

/// What a lead's links need: the signer, the public base URL and the lifetime.
pub struct LinkSettings {
    /// Signs the links.
    pub links: ImageLinks,
    /// Public base URL of this service.
    pub base_url: String,
    /// How long a link works.
    pub ttl: Duration,
}

/// The lead of `delivery` for `stored`.
pub fn build(
    delivery: &Delivery,
    stored: &StoredJob,
    tree: &CategoryTree,
    links: &LinkSettings,
    now: OffsetDateTime,
) -> Lead {
    let job = &stored.job;
    let v = &job.job;
    let trade_name = stored
        .recipients
        .iter()
        .find(|r| r.company_id == delivery.company_id)
        .map(|r| r.name.clone())
        .unwrap_or_default();
    let category_name = tree
        .get(v.category_id)
        .map(|c| c.label.clone())
        .unwrap_or_else(|| format!("Category {}", v.category_id));
    Lead {
        kind: LEAD_CREATED.to_owned(),
        id: delivery.id.clone(),
        created_at: rfc3339(job.received_at),
        trade: LeadTrade {
            id: delivery.company_id,
            name: trade_name,
        },
        job: LeadJob {
            id: job.id.clone(),
            category: LeadCategory {
                id: v.category_id,
                name: category_name,
            },
            description: v.description.clone(),
            preferred_start: v.preferred_start.map(|p| LeadPreferredStart {
                id: p.id.as_str().to_owned(),
                label: p.id.label().to_owned(),
                date: p.date.map(|d| d.to_string()),
            }),
            postcode: v.postcode.to_string(),
            address: v.address.as_ref().map(|a| Address {
                line1: a.line1.clone(),
                line2: a.line2.clone(),
                line3: a.line3.clone(),
                city: a.city.clone(),
                postcode: a.postcode.to_string(),
            }),
            consumer: LeadConsumer {
                first_name: v.first_name.clone(),
                last_name: v.last_name.clone(),
                email: v.email.to_string(),
                phone: v.phone.as_str().to_owned(),
            },
            images: job
                .images
                .iter()
                .map(|image| {
                    let (url, expires) =
                        links
                            .links
                            .link(&links.base_url, &job.id, &image.id, now, links.ttl);
                    LeadImage {
                        url,
                        url_expires_at: rfc3339(expires),
                        content_type: image.content_type.clone(),
                        width: image.width,
                        height: image.height,
                    }
                })
                .collect(),
        },
    }
}

fn rfc3339(at: OffsetDateTime) -> String {
    at.format(&Rfc3339).unwrap_or_default()
}

/// The directory's category tree, reloaded when the store's directory version
/// moves: leads name categories exactly as the directory the server matched
/// with does (`Directory::load_tree`), never from another source.
#[derive(Default)]
pub struct Categories {
    cached: Mutex<Option<(i64, Arc<CategoryTree>)>>,
}

impl Categories {
    /// The current tree. A stored tree that no longer passes its checks is an
    /// error (the attempt is retried later), as it stops a server from loading
    /// its directory.
    pub async fn current(&self, store: &dyn Store) -> Result<Arc<CategoryTree>, LoadError> {
        let version = store.directory_version().await?;
        let mut cached = self.cached.lock().await;
        if let Some((at, tree)) = cached.as_ref() {
            if *at == version {
                return Ok(tree.clone());
            }
        }
        let (version, tree) = Directory::load_tree(store).await?;
        let tree = Arc::new(tree);
        *cached = Some((version, tree.clone()));
        Ok(tree)
    }
}
