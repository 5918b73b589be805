//! The cap on each key's requests in flight: a semaphore per key, tried
//! without waiting, whose permit travels with the response body.

use axum::body::{Body, Bytes};
use axum::response::Response;
use http_body::{Frame, SizeHint};
use std::collections::HashMap;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// One request's place among its key's requests in flight; dropping it
/// frees the place, however the request ended (answered, cancelled, panicked).
pub type Slot = OwnedSemaphorePermit;

/// The in-flight places of every key seen, `cap` each. Only keys that passed
/// the signature check get an entry, so the map is bounded by the key table.
#[derive(Debug)]
pub struct Slots {
    cap: u32,
    keys: Mutex<HashMap<String, Arc<Semaphore>>>,
}

impl Slots {
    /// A cap of `cap` requests a key, or none when `cap` is 0 (disabled).
    pub fn new(cap: u32) -> Option<Self> {
        (cap > 0).then(|| Slots {
            cap,
            keys: Mutex::new(HashMap::new()),
        })
    }

    /// The configured cap.
    pub fn cap(&self) -> u32 {
        self.cap
    }

    /// A place for one more request of `key_id`, or `None` when all are taken.
    /// Never waits: a request over the cap is answered at once.
    pub fn try_take(&self, key_id: &str) -> Option<Slot> {
        let semaphore = {
            let mut keys = self
                .keys
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            match keys.get(key_id) {
                Some(semaphore) => semaphore.clone(),
                None => {
                    let semaphore = Arc::new(Semaphore::new(self.cap as usize));
                    keys.insert(key_id.to_owned(), semaphore.clone());
                    semaphore
                }
            }
        };
        semaphore.try_acquire_owned().ok()
    }
}

/// Keeps `slot` until the body of `response` has been sent (or the
/// connection dropped), so a large answer still counts while it streams.
pub fn hold_until_sent(response: Response, slot: Slot) -> Response {
    response.map(|body| Body::new(SlotBody { body, _slot: slot }))
}

/// A body that owns a slot; it forwards everything, sizes included, so a
/// `Content-Length` answer stays one.
struct SlotBody {
    body: Body,
    _slot: Slot,
}

impl http_body::Body for SlotBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::{hold_until_sent, Slots};
    use axum::body::Body;
    use axum::response::Response;
    use http_body::Body as _;

    #[test]
    fn a_zero_cap_is_no_cap() {
        assert!(Slots::new(0).is_none());
    }

    #[test]
    fn a_key_gets_cap_slots_and_another_key_its_own() {
        let slots = Slots::new(2).unwrap();
        let first = slots.try_take("stg_a").unwrap();
        let _second = slots.try_take("stg_a").unwrap();
        assert!(slots.try_take("stg_a").is_none());
        assert!(slots.try_take("stg_b").is_some());
        drop(first);
        assert!(slots.try_take("stg_a").is_some());
    }

    #[tokio::test]
    async fn the_slot_is_freed_when_the_body_is_done_and_the_length_is_kept() {
        let slots = Slots::new(1).unwrap();
        let slot = slots.try_take("stg_a").unwrap();
        let response = hold_until_sent(Response::new(Body::from("twelve bytes")), slot);
        assert_eq!(response.body().size_hint().exact(), Some(12));
        assert!(
            slots.try_take("stg_a").is_none(),
            "held while the body is unsent"
        );
        let bytes = axum::body::to_bytes(response.into_body(), 1024)
            .await
            .unwrap();
        assert_eq!(&bytes[..], b"twelve bytes");
        assert!(slots.try_take("stg_a").is_some());
    }
}
