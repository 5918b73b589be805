//! Lead delivery: the outbox rows a production job leaves behind, what a
//! dispatcher reports after each attempt, and the retry schedule.
//!
//! `Store::create_job` writes one [`Delivery`] per recipient and channel in
//! the job's own transaction (production only), so a job that was answered 201
//! can never lose its leads. A dispatcher claims due rows for a lease; a crash
//! lets the lease run out and the row is claimed again, with the same id, which
//! the receiver sees as the same `webhook-id` (docs/delivery.md).

pub mod schedule;

pub use schedule::RetrySchedule;

use time::OffsetDateTime;

/// How a lead reaches a trade.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Channel {
    /// An HTTP POST of the lead, signed as Standard Webhooks says.
    Webhook,
    /// An e-mail through the SMTP relay.
    Email,
}

impl Channel {
    /// The stored and shown name.
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Webhook => "webhook",
            Channel::Email => "email",
        }
    }

    /// Reads a stored name.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "webhook" => Some(Channel::Webhook),
            "email" => Some(Channel::Email),
            _ => None,
        }
    }
}

/// Where one delivery stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DeliveryState {
    /// Waiting for its first or next attempt (or being attempted now).
    Pending,
    /// The channel accepted the lead.
    Delivered,
    /// Attempts ran out (the retry window passed); kept for `intake leads retry`.
    Dead,
    /// The receiver answered 410 Gone: its channel takes no more leads.
    Gone,
}

impl DeliveryState {
    /// The stored and shown name.
    pub fn as_str(self) -> &'static str {
        match self {
            DeliveryState::Pending => "pending",
            DeliveryState::Delivered => "delivered",
            DeliveryState::Dead => "dead",
            DeliveryState::Gone => "gone",
        }
    }

    /// Reads a stored name.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "pending" => Some(DeliveryState::Pending),
            "delivered" => Some(DeliveryState::Delivered),
            "dead" => Some(DeliveryState::Dead),
            "gone" => Some(DeliveryState::Gone),
            _ => None,
        }
    }
}

/// One lead for one recipient over one channel: an outbox row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delivery {
    /// Generated id (a UUID); the same on every attempt: it is the `webhook-id`.
    pub id: String,
    /// The job.
    pub job_id: String,
    /// The recipient.
    pub company_id: u64,
    /// Webhook or e-mail.
    pub channel: Channel,
    /// The webhook URL or e-mail address, as the directory named it when the
    /// job was created.
    pub target: String,
    /// Where it stands.
    pub state: DeliveryState,
    /// Attempts claimed so far (a claim counts as an attempt).
    pub attempts: u32,
    /// When the next attempt is due; while claimed, when the claim's lease ends.
    pub next_attempt_at: OffsetDateTime,
    /// When the row was written (the job's creation).
    pub created_at: OffsetDateTime,
    /// Where its retry window began: its creation, or the operator's last
    /// `intake leads retry` of it, which gives a dead or gone lead a whole
    /// window again.
    pub window_from: OffsetDateTime,
    /// What went wrong last, for operators (never shown to affiliates).
    pub last_error: Option<String>,
    /// When the channel accepted the lead.
    pub delivered_at: Option<OffsetDateTime>,
}

/// How much the outbox holds that is not yet delivered (for the metrics).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Backlog {
    /// Pending deliveries, due or waiting for a retry.
    pub pending: u64,
    /// When the oldest pending delivery was made; `None` when none is pending.
    pub oldest_created_at: Option<OffsetDateTime>,
}

/// What a dispatcher reports after an attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The channel accepted the lead (a 2xx, or the relay took the mail).
    Delivered,
    /// Try again at `at`.
    Retry {
        /// When the next attempt is due.
        at: OffsetDateTime,
        /// Why this attempt failed.
        error: String,
    },
    /// Give up: the retry window is over.
    Dead {
        /// Why the last attempt failed.
        error: String,
    },
    /// The receiver answered 410: mark this delivery, and every pending one
    /// to the same channel and target, gone; later jobs skip the target.
    Gone {
        /// What the receiver said.
        error: String,
    },
}

/// Which deliveries `Store::deliveries` lists and `Store::retry_deliveries` retries.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeliveryFilter {
    /// Only these delivery ids (none: any).
    pub ids: Vec<String>,
    /// Only this job's deliveries.
    pub job_id: Option<String>,
    /// Only deliveries in this state.
    pub state: Option<DeliveryState>,
    /// At most this many, oldest first (0: no limit).
    pub limit: u32,
}

/// The delivery state of a recipient, from its deliveries: delivered when any
/// channel delivered; else pending while any is pending; else gone when all
/// are gone; else dead. A recipient without deliveries (staging) is `not_sent`.
pub fn recipient_state(states: impl IntoIterator<Item = DeliveryState>) -> &'static str {
    let (mut any, mut pending, mut all_gone) = (false, false, true);
    for state in states {
        any = true;
        match state {
            DeliveryState::Delivered => return "delivered",
            DeliveryState::Pending => pending = true,
            DeliveryState::Dead => all_gone = false,
            DeliveryState::Gone => {}
        }
    }
    match (any, pending, all_gone) {
        (false, _, _) => "not_sent",
        (true, true, _) => "pending",
        (true, false, true) => "gone",
        (true, false, false) => "dead",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use DeliveryState::*;

    #[test]
    fn a_recipient_is_delivered_when_any_channel_delivered() {
        assert_eq!(recipient_state([Dead, Delivered]), "delivered");
        assert_eq!(recipient_state([Pending, Delivered]), "delivered");
    }

    #[test]
    fn a_recipient_waits_while_a_channel_is_pending() {
        assert_eq!(recipient_state([Dead, Pending]), "pending");
        assert_eq!(recipient_state([Gone, Pending]), "pending");
    }

    #[test]
    fn a_recipient_is_gone_only_when_every_channel_is_gone() {
        assert_eq!(recipient_state([Gone, Gone]), "gone");
        assert_eq!(recipient_state([Gone, Dead]), "dead");
        assert_eq!(recipient_state([]), "not_sent");
    }

    #[test]
    fn names_read_back() {
        for state in [Pending, Delivered, Dead, Gone] {
            assert_eq!(DeliveryState::parse(state.as_str()), Some(state));
        }
        for channel in [Channel::Webhook, Channel::Email] {
            assert_eq!(Channel::parse(channel.as_str()), Some(channel));
        }
        assert_eq!(Channel::parse("sms"), None);
    }
}
