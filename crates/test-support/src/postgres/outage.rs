//! A database that can be taken away and given back: a TCP proxy between the
//! store and the test server. Cutting it drops every connection and refuses
//! new ones, as a stopped or unreachable PostgreSQL would, without touching
//! the server other tests share.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// A proxy to one PostgreSQL server; stops with the value.
#[derive(Debug)]
pub struct OutageProxy {
    address: SocketAddr,
    shared: Arc<Shared>,
    accepting: JoinHandle<()>,
}

#[derive(Debug, Default)]
struct Shared {
    down: AtomicBool,
    connections: Mutex<Vec<JoinHandle<()>>>,
}

impl OutageProxy {
    /// Starts a proxy on a free local port to `upstream` (`host:port`).
    pub async fn start(upstream: String) -> std::io::Result<Self> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let address = listener.local_addr()?;
        let shared = Arc::new(Shared::default());
        let accepting = tokio::spawn(accept(listener, upstream, shared.clone()));
        Ok(OutageProxy {
            address,
            shared,
            accepting,
        })
    }

    /// `url` (a PostgreSQL URL) pointed at this proxy instead of its server.
    pub fn url_through(&self, url: &str) -> String {
        let start = url.find("://").map_or(0, |i| i + 3);
        let authority_end = url[start..]
            .find(['/', '?'])
            .map_or(url.len(), |i| start + i);
        let host_start = url[start..authority_end]
            .rfind('@')
            .map_or(start, |i| start + i + 1);
        format!(
            "{}{}{}",
            &url[..host_start],
            self.address,
            &url[authority_end..]
        )
    }

    /// The database goes away: open connections drop, new ones are refused.
    pub fn cut(&self) {
        self.shared.down.store(true, Ordering::SeqCst);
        for connection in self.shared.connections.lock().unwrap().drain(..) {
            connection.abort();
        }
    }

    /// The database is back.
    pub fn restore(&self) {
        self.shared.down.store(false, Ordering::SeqCst);
    }
}

impl Drop for OutageProxy {
    fn drop(&mut self) {
        self.cut();
        self.accepting.abort();
    }
}

async fn accept(listener: TcpListener, upstream: String, shared: Arc<Shared>) {
    while let Ok((mut client, _)) = listener.accept().await {
        if shared.down.load(Ordering::SeqCst) {
            // Dropped at once: the client sees its connection closed.
            continue;
        }
        let upstream = upstream.clone();
        let connection = tokio::spawn(async move {
            if let Ok(mut server) = TcpStream::connect(&upstream).await {
                let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
            }
        });
        let mut connections = shared.connections.lock().unwrap();
        connections.retain(|c| !c.is_finished());
        connections.push(connection);
    }
}

#[cfg(test)]
mod tests {
    #[tokio::test]
    async fn a_url_is_pointed_at_the_proxy() {
        let proxy = super::OutageProxy::start("127.0.0.1:5432".into())
            .await
            .unwrap();
        let at = proxy.address;
        assert_eq!(
            proxy.url_through("postgres://u:p@db.example:5432/x?sslmode=disable"),
            format!("postgres://u:p@{at}/x?sslmode=disable")
        );
        assert_eq!(
            proxy.url_through("postgres://127.0.0.1/x"),
            format!("postgres://{at}/x")
        );
    }
}
