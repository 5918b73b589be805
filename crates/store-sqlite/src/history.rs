//! SQLite's SQL of a consumer's earlier jobs, for spam screening (issue 6),
//! and of the one question a new job asks before it is screened.

use crate::SqliteDialect;
use intake_store_sql::History;

/// Counts the consumer's earlier jobs of the query's environment since
/// `?5`. The two arms of the UNION each walk one index (`jobs_by_email`,
/// `jobs_by_phone`); the UNION drops a job found by both. One row.
macro_rules! history {
    () => {
        "SELECT \
             COALESCE(SUM(email = ?1 COLLATE NOCASE), 0) AS by_email, \
             COALESCE(SUM(phone = ?2), 0) AS by_phone, \
             COALESCE(SUM(fingerprint = ?3 AND key_id <> ?4), 0) AS same_text_other_keys \
         FROM ( \
             SELECT id, email, phone, fingerprint, key_id FROM jobs \
              WHERE email = ?1 COLLATE NOCASE AND received_ms >= ?5 AND environment = ?6 \
             UNION \
             SELECT id, email, phone, fingerprint, key_id FROM jobs \
              WHERE phone = ?2 AND received_ms >= ?5 AND environment = ?6 \
         )"
    };
}

impl History for SqliteDialect {
    const HISTORY: &'static str = history!();

    /// The history, the first unexpired record of the scopes and the
    /// shortlist's recent leads in one statement: every statement is a round
    /// trip to sqlx's SQLite thread, and a job's reads before screening cost
    /// more than its share of the group-committed write. The scopes and ids
    /// come as JSON arrays, so that the statement's text is the same for any
    /// number of them. Each lead count walks `job_recipients_by_trade`.
    const EARLIER: &'static str = concat!(
        "SELECT h.*, i.scope, i.request_hash, i.status, i.body, i.expires_ms AS expires_at, \
             (SELECT group_concat(company_id || ':' || leads) FROM ( \
                 SELECT company_id, COUNT(*) AS leads FROM job_recipients \
                  WHERE company_id IN (SELECT value FROM json_each(?10)) AND created_ms >= ?9 \
                  GROUP BY company_id)) AS leads \
         FROM (",
        history!(),
        ") AS h \
         LEFT JOIN ( \
             SELECT scope, request_hash, status, body, expires_ms, s.key AS position \
               FROM json_each(?7) AS s JOIN idempotency ON scope = s.value \
              WHERE expires_ms > ?8 \
              ORDER BY s.key LIMIT 1 \
         ) AS i ON 1"
    );

    /// A JSON array.
    type Scopes = String;

    fn scopes(scopes: &[String]) -> String {
        serde_json::to_string(scopes).expect("a list of strings always serialises")
    }

    /// A JSON array.
    type Ids = String;

    fn ids(ids: &[u64]) -> String {
        serde_json::to_string(ids).expect("a list of numbers always serialises")
    }
}
