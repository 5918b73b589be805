//! The shutdown signal: SIGTERM or SIGINT (Ctrl-C).

use std::future::Future;

/// Listens for SIGTERM and SIGINT from the moment it is called, and
/// resolves when either arrives. Call it before announcing that the
/// process is ready: a supervisor that sends SIGTERM as soon as it reads
/// `listening` then gets a graceful stop, not the default action of the
/// signal (death without draining), which it would get if the handlers were
/// installed only when the future is first polled.
pub fn shutdown_signal() -> impl Future<Output = ()> + Send + 'static {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let terminate = signal(SignalKind::terminate());
        let interrupt = signal(SignalKind::interrupt());
        async move {
            let wait = |registered: std::io::Result<tokio::signal::unix::Signal>,
                        name: &'static str| async move {
                match registered {
                    Ok(mut signal) => {
                        signal.recv().await;
                    }
                    Err(error) => {
                        tracing::error!(%error, "cannot listen for {name}");
                        std::future::pending::<()>().await;
                    }
                }
            };
            tokio::select! {
                () = wait(interrupt, "SIGINT") => tracing::info!("SIGINT received, shutting down"),
                () = wait(terminate, "SIGTERM") => tracing::info!("SIGTERM received, shutting down"),
            }
        }
    }
    #[cfg(not(unix))]
    async {
        if let Err(error) = tokio::signal::ctrl_c().await {
            tracing::error!(%error, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
        tracing::info!("Ctrl-C received, shutting down");
    }
}
