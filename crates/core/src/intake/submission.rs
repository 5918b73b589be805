//! A submission's identity for repeats: the scopes it is known by and the
//! hash a repeat must match. The HTTP edge reads them from the request
//! (`Idempotency-Key`, the signature, method, path and body); the pipeline
//! looks them up, writes them with the job and judges what it finds.

use crate::jobs::IdempotencyRecord;
use std::time::Duration;
use time::OffsetDateTime;

/// The scopes a submission is known by, and the hash a repeat must match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submission {
    /// `k:KEY_ID:KEY` when an `Idempotency-Key` was sent.
    pub key_scope: Option<String>,
    /// `s:KEY_ID:SIGNATURE`: the same signed request replayed.
    pub signature_scope: String,
    /// SHA-256 (hex) of method, path and body.
    pub request_hash: String,
}

/// What an earlier record says of a submission that meets it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Repeat {
    /// The same request again: answer as stored.
    Replay(IdempotencyRecord),
    /// The scope was used by a different request: 409.
    Conflict {
        /// Whether the scope was the `Idempotency-Key` (else the signature).
        by_idempotency_key: bool,
    },
}

impl Submission {
    /// Every scope, the idempotency key's first.
    pub fn scopes(&self) -> Vec<String> {
        self.key_scope
            .iter()
            .cloned()
            .chain([self.signature_scope.clone()])
            .collect()
    }

    /// The records to store with a created job: its answer, kept `key_ttl`
    /// under the `Idempotency-Key` and `signature_ttl` under the signature.
    pub fn records(
        &self,
        status: u16,
        body: &str,
        now: OffsetDateTime,
        key_ttl: Duration,
        signature_ttl: Duration,
    ) -> Vec<IdempotencyRecord> {
        let record = |scope: &String, ttl: Duration| IdempotencyRecord {
            scope: scope.clone(),
            request_hash: self.request_hash.clone(),
            status,
            body: body.to_owned(),
            expires_at: now + ttl,
        };
        self.key_scope
            .iter()
            .map(|scope| record(scope, key_ttl))
            .chain([record(&self.signature_scope, signature_ttl)])
            .collect()
    }

    /// Judges an earlier record found under one of this submission's scopes.
    pub fn judge(&self, record: IdempotencyRecord) -> Repeat {
        if record.request_hash == self.request_hash {
            Repeat::Replay(record)
        } else {
            Repeat::Conflict {
                by_idempotency_key: record.scope.starts_with("k:"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn submission(key: Option<&str>) -> Submission {
        Submission {
            key_scope: key.map(|k| format!("k:key-1:{k}")),
            signature_scope: "s:key-1:c2lnbmF0dXJl".into(),
            request_hash: "aa".repeat(32),
        }
    }

    fn record(scope: &str, request_hash: &str) -> IdempotencyRecord {
        IdempotencyRecord {
            scope: scope.into(),
            request_hash: request_hash.into(),
            status: 201,
            body: "{}".into(),
            expires_at: OffsetDateTime::UNIX_EPOCH,
        }
    }

    #[test]
    fn the_idempotency_key_scope_comes_first() {
        assert_eq!(
            submission(Some("abc")).scopes(),
            vec!["k:key-1:abc".to_owned(), "s:key-1:c2lnbmF0dXJl".to_owned()]
        );
        assert_eq!(
            submission(None).scopes(),
            vec!["s:key-1:c2lnbmF0dXJl".to_owned()]
        );
    }

    #[test]
    fn records_keep_each_scope_for_its_own_time() {
        let now = OffsetDateTime::UNIX_EPOCH;
        let records = submission(Some("abc")).records(
            201,
            "{\"id\":\"x\"}",
            now,
            Duration::from_secs(86_400),
            Duration::from_secs(600),
        );
        assert_eq!(records.len(), 2);
        assert_eq!(records[0].scope, "k:key-1:abc");
        assert_eq!(records[0].expires_at, now + Duration::from_secs(86_400));
        assert_eq!(records[1].scope, "s:key-1:c2lnbmF0dXJl");
        assert_eq!(records[1].expires_at, now + Duration::from_secs(600));
        assert!(records
            .iter()
            .all(|r| r.status == 201 && r.body == "{\"id\":\"x\"}"));
    }

    #[test]
    fn a_record_of_another_request_is_a_conflict_naming_its_scope() {
        let ours = submission(Some("abc"));
        let same = record("k:key-1:abc", &"aa".repeat(32));
        assert_eq!(ours.judge(same.clone()), Repeat::Replay(same));
        assert_eq!(
            ours.judge(record("k:key-1:abc", &"bb".repeat(32))),
            Repeat::Conflict {
                by_idempotency_key: true
            }
        );
        assert_eq!(
            ours.judge(record("s:key-1:c2lnbmF0dXJl", &"bb".repeat(32))),
            Repeat::Conflict {
                by_idempotency_key: false
            }
        );
    }
}
