//! PostgreSQL's SQL of a consumer's earlier jobs, for spam screening
//! (issue 6), and of the one question a new job asks before it is screened.

use crate::PostgresDialect;
use intake_store_sql::History;

/// Counts the consumer's earlier jobs of the query's environment since
/// `$5`. The two arms of the UNION each walk one index (`jobs_by_email`,
/// `jobs_by_phone`); the UNION drops a job found by both. One row.
macro_rules! history {
    () => {
        "SELECT \
             COUNT(*) FILTER (WHERE lower(email COLLATE \"C\") = lower($1 COLLATE \"C\")) AS by_email, \
             COUNT(*) FILTER (WHERE phone = $2) AS by_phone, \
             COUNT(*) FILTER (WHERE fingerprint = $3 AND key_id <> $4) AS same_text_other_keys \
         FROM ( \
             SELECT id, email, phone, fingerprint, key_id FROM jobs \
              WHERE lower(email COLLATE \"C\") = lower($1 COLLATE \"C\") AND received_at >= $5 AND environment = $6 \
             UNION \
             SELECT id, email, phone, fingerprint, key_id FROM jobs \
              WHERE phone = $2 AND received_at >= $5 AND environment = $6 \
         ) AS earlier"
    };
}

impl History for PostgresDialect {
    const HISTORY: &'static str = history!();

    /// The history, the first unexpired record of the scopes and the
    /// shortlist's recent leads in one round trip: a request's reads before
    /// screening are what the store's throughput is spent on, far more than
    /// its write. Each lead count walks `job_recipients_by_trade`.
    const EARLIER: &'static str = concat!(
        "SELECT h.*, i.scope, i.request_hash, i.status, i.body, i.expires_at, \
             (SELECT string_agg(company_id || ':' || leads, ',') FROM ( \
                 SELECT company_id, COUNT(*) AS leads FROM job_recipients \
                  WHERE company_id = ANY($10) AND created_at >= $9 \
                  GROUP BY company_id) AS l) AS leads \
         FROM (",
        history!(),
        ") AS h \
         LEFT JOIN LATERAL ( \
             SELECT scope, request_hash, status, body, expires_at FROM idempotency \
              WHERE scope = ANY($7) AND expires_at > $8 \
              ORDER BY array_position($7, scope) LIMIT 1 \
         ) AS i ON true"
    );

    /// A text array.
    type Scopes = Vec<String>;

    fn scopes(scopes: &[String]) -> Vec<String> {
        scopes.to_vec()
    }

    /// A bigint array.
    type Ids = Vec<i64>;

    fn ids(ids: &[u64]) -> Vec<i64> {
        ids.iter().map(|&id| id as i64).collect()
    }
}
