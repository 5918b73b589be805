//! The cap on client connections, kept under the process's descriptor limit.
//!
//! Every client connection holds a descriptor. If they may take all the
//! process has, the store, the image files and the lead sends fail, and
//! `accept` itself fails with `EMFILE`: the server looks dead although it
//! runs. So the cap leaves a reserve of descriptors for everything else.

/// Descriptors kept for all but client connections: the store's pool
/// (SQLite's eight connections hold three files each), up to 64 lead sends
/// at once, image files, the listener, the runtime and the logs.
const RESERVE: u64 = 128;

/// The cap for a configured `max_connections`, logged with what decided it.
pub fn connection_cap(configured: usize) -> usize {
    let limit = descriptor_limit();
    let cap = cap_under(configured, limit);
    match limit {
        Some(limit) if cap < configured => tracing::warn!(
            max_connections = cap,
            configured,
            descriptor_limit = limit,
            "max_connections lowered to stay under the descriptor limit; raise the limit (ulimit -n, systemd's LimitNOFILE=) to allow more"
        ),
        _ => tracing::debug!(max_connections = cap, descriptor_limit = ?limit, "connection cap"),
    }
    cap
}

/// The soft `RLIMIT_NOFILE`, if there is one.
fn descriptor_limit() -> Option<u64> {
    rustix::process::getrlimit(rustix::process::Resource::Nofile).current
}

/// `configured`, lowered to leave the reserve under `limit` (half of it
/// under a limit too small for the whole reserve), and at least 1.
fn cap_under(configured: usize, limit: Option<u64>) -> usize {
    let Some(limit) = limit else {
        return configured;
    };
    let reserve = RESERVE.min(limit / 2);
    let room = usize::try_from(limit - reserve).unwrap_or(usize::MAX);
    configured.min(room).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_leaves_the_reserve_under_the_descriptor_limit() {
        assert_eq!(cap_under(1024, Some(1024)), 1024 - 128);
        assert_eq!(cap_under(1024, Some(4096)), 1024);
        assert_eq!(cap_under(1024, Some(256)), 128);
        assert_eq!(cap_under(20, None), 20);
    }

    #[test]
    fn a_tiny_limit_keeps_half_for_connections_and_never_none() {
        assert_eq!(cap_under(1024, Some(64)), 32);
        assert_eq!(cap_under(1024, Some(1)), 1);
        assert_eq!(cap_under(1024, Some(0)), 1);
    }
}
