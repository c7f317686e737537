//! Accepting connections with bounds a hostile client cannot stretch: a client must send a
//! request's headers within [`HEADER_SECONDS`] of connecting (or of its previous response, on a
//! kept-alive connection), at most [`Bounds::connections`] connections are open at once (past it,
//! new ones are closed at once, so the process never runs out of file descriptors), and the
//! process raises its own file-descriptor limit to the hard limit first. `axum::serve` has none of
//! these: 1,100 half-open requests under `ulimit -n 1024` stopped the server from answering.
//!
//! What a connection does once its headers are in is the router's (body limits, the queue).

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// Seconds a client has to send a request's headers.
pub const HEADER_SECONDS: u64 = 10;

/// File descriptors kept for everything but connections (the sandbox's files, compilers' pipes,
/// the runtimes' modules).
const RESERVED_DESCRIPTORS: u64 = 256;

/// The connection bounds of one server.
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    /// Connections open at once.
    pub connections: usize,
    /// Time to send a request's headers.
    pub header_timeout: Duration,
}

impl Bounds {
    /// Raises this process's file-descriptor limit to its hard limit and sizes the connection cap
    /// below it (at most 16,384).
    pub fn for_this_process() -> Bounds {
        use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
        let current = getrlimit(Resource::Nofile);
        let hard = current.maximum;
        let raised = setrlimit(
            Resource::Nofile,
            Rlimit {
                current: hard,
                maximum: hard,
            },
        )
        .is_ok();
        let soft = match raised {
            true => hard,
            false => current.current,
        }
        .unwrap_or(u64::MAX);
        let connections = soft.saturating_sub(RESERVED_DESCRIPTORS).clamp(16, 16_384);
        Bounds {
            connections: connections as usize,
            header_timeout: Duration::from_secs(HEADER_SECONDS),
        }
    }
}

/// Serves `app` on `listener` within `bounds` until `shutdown` resolves, then lets the requests
/// in flight finish (graceful shutdown) and returns.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    bounds: Bounds,
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    let open = Arc::new(Semaphore::new(bounds.connections));
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    // HTTP/1 only, as before: the clients (SandboxFusion's, verl's, the site) speak it.
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(bounds.header_timeout);
    tokio::pin!(shutdown);
    loop {
        let (stream, _peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of descriptors or a connection reset before accept: not fatal; a
                    // short pause lets connections close.
                    eprintln!("wasmeval: accept failed: {error}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // Past the cap the connection is closed at once: the client may retry.
        let Ok(permit) = open.clone().try_acquire_owned() else {
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        let connection = builder.serve_connection(TokioIo::new(stream), service);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            let _ = connection.await;
            drop(permit);
        });
    }
    drop(listener);
    graceful.shutdown().await;
    Ok(())
}
