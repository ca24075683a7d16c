//! `kifudex serve`: the database over HTTP, for the browser page and for scripts.
//!
//! # What is served
//!
//! - `GET /` and `GET /assets/NAME`: the page, its script, style and icon, compiled into the
//!   binary. Nothing else on disk is ever read but the database.
//! - `GET /api/query`: a position query with the parameters of `kifudex query` (same names
//!   without `--`), answered with exactly the JSON `query --format json` prints
//!   ([`crate::query::to_json`]).
//! - `GET /api/position`: the moves leading to a position in three notations and its legal
//!   moves, so the page leaves every rule to the server.
//! - `GET /api/game/ID`: a stored game ply by ply; `GET /api/game/ID.kif` (`.ki2`, `.csa`,
//!   `.jkf`, `.usi`, `.psn`): the record as `kifudex show --to` writes it.
//! - `GET /api/status`: whether an index run is writing the database or did not finish, in
//!   the words the command line warns with.
//! - `POST /api/jump`: any text a user pastes (moves, SFEN, a diagram, a record) read as a
//!   position.
//!
//! Anything else is 404. Bad input is 400 with the words the command line uses; a missing game
//! is 404. Parameters and bodies have length limits (16 kB of query string, 8 kB of moves, 512 kB of pasted text).
//!
//! # Policy
//!
//! - It binds to loopback unless told otherwise, and then answers only requests addressed to
//!   a loopback name, so a web page elsewhere cannot reach the archive through a DNS name that
//!   points here. Which name a request is addressed to is read as HTTP/1.1 says (`host`);
//!   two `Host` headers, or one that names no host, are a bad request wherever it listens.
//! - Every answer reads one snapshot ([`crate::db::Snapshot`]), on a blocking thread, with a
//!   reader connection taken from a small pool; an `index` run can write meanwhile. A pooled
//!   reader is used again only while the database files are as it last saw them. As many
//!   answers are worked on at once as there are cores; other requests wait in arrival order.
//! - At most 256 connections are served at once; past that, the one that has waited longest
//!   on its client gives way (`conn`), so idle or slow clients cannot keep the page waiting.
//!   A connection's writes have a time limit, and a request the HTTP layer cannot read is
//!   refused in JSON as every other (`stream`).
//! - Query answers are kept until the database files change.
//! - The database is opened in one place, [`open_reader`].

mod api;
mod assets;
mod cache;
mod conn;
mod game;
mod host;
mod params;
mod position;
mod stream;

use std::{
    net::{IpAddr, SocketAddr},
    path::{Path, PathBuf},
    sync::{Arc, Mutex},
    time::Duration,
};

use axum::{
    Router,
    extract::{DefaultBodyLimit, Request},
    http::{HeaderValue, StatusCode, header},
    middleware::{self, Next},
    response::{IntoResponse, Response},
    routing::{get, post},
};

use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};

use crate::db::{self, Reader, Snapshot};

/// How long a client may take by default to send a request's headers, from when it connects
/// or its last answer was sent (see [`Server::idle_timeout`]).
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(20);

/// The wait before accepting again after accepting failed.
const ACCEPT_PAUSE: Duration = Duration::from_millis(50);

/// Threads the runtime may start for blocking work (answers take a permit first, so at most
/// [`workers`] of them read at once).
const BLOCKING_THREADS: usize = 64;

/// How many answers are worked on at once: one per core (at least two). Every answer is CPU
/// work on one snapshot; more at once would only share the cores and each connection's page
/// cache more thinly, so the others wait their turn in arrival order.
fn workers() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get().max(2))
}

/// Why the server cannot start or stopped. Each message holds its cause, so that none is
/// said twice where the chain of causes is printed too.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(transparent)]
    Db(#[from] db::Error),
    /// None of `addrs` could be bound; `error` is the last one's reason.
    #[error("cannot listen on {}: {error}", addr_list(.addrs))]
    Bind { addrs: Vec<SocketAddr>, error: std::io::Error },
    #[error("the server failed: {0}")]
    Io(std::io::Error),
}

impl From<std::io::Error> for ServeError {
    fn from(e: std::io::Error) -> ServeError {
        ServeError::Io(e)
    }
}

/// `127.0.0.1:8080`, or `[::1]:8080 or 127.0.0.1:8080`.
fn addr_list(addrs: &[SocketAddr]) -> String {
    addrs.iter().map(ToString::to_string).collect::<Vec<_>>().join(" or ")
}

/// Opens the database for a request. Every connection the server uses comes from here.
///
/// # Errors
///
/// No database at `path`, or any database failure.
pub fn open_reader(path: &Path) -> Result<Reader, db::Error> {
    Reader::open(path)
}

/// What requests share: the database path, the pool of reader connections, and the permits
/// to work on an answer.
struct Shared {
    db: PathBuf,
    /// Readers, each with the state of the database files when it last began a read (see
    /// [`Shared::read`]).
    readers: Mutex<Vec<(Reader, crate::db::OnDisk)>>,
    permits: tokio::sync::Semaphore,
    /// Permits for the answers that take little and bounded work (the state of index runs, a
    /// position's moves), so that slow answers holding every permit above do not keep them
    /// waiting: a page polls the state while it waits for a slow answer.
    light_permits: tokio::sync::Semaphore,
    cache: cache::AnswerCache,
    /// Whether only requests addressed to a loopback name are answered.
    loopback_only: bool,
    /// The idle timeout, in milliseconds (see [`Server::idle_timeout`]).
    idle_ms: std::sync::atomic::AtomicU64,
}

impl Shared {
    /// Runs `read` on a snapshot, with a reader from the pool (or a new one).
    fn read<T>(
        &self,
        read: impl FnOnce(&Snapshot<'_>) -> Result<T, api::ApiError>,
    ) -> Result<T, api::ApiError> {
        // A reader is used again only while the files are as they were when it last began a
        // read. One that has seen them change may answer from pages it kept from before: the
        // switches of an `index` run between journal modes, or a file put in the database's
        // place (indexed afresh, restored from a copy), are changes SQLite may not see.
        let now = self.cache.state();
        let pooled = match self.readers.lock() {
            Ok(mut pool) => {
                pool.retain(|(_, seen)| *seen == now);
                pool.pop()
            }
            Err(_) => None,
        };
        let mut reader = match pooled {
            Some((reader, _)) => reader,
            None => {
                let reader = open_reader(&self.db)?;
                // Removed while it was opened: no answer from the file that was there.
                if db::gone(&self.db) {
                    return Err(db::Error::Missing(self.db.clone()).into());
                }
                reader
            }
        };
        let result = {
            let snapshot = reader.snapshot()?;
            read(&snapshot)
        };
        if let Ok(mut pool) = self.readers.lock() {
            if pool.len() < workers() {
                pool.push((reader, now));
            }
        }
        result
    }
}

/// A server bound to its address, ready to run.
pub struct Server {
    listener: std::net::TcpListener,
    router: Router,
    idle: Duration,
    shared: Arc<Shared>,
}

impl Server {
    /// Opens the database at `db` (which must exist) and binds to the first of `addrs` that
    /// can be bound (those a host name resolves to, say; port 0 picks a free port). Whether
    /// only requests addressed to a loopback name are answered follows the address bound.
    ///
    /// # Errors
    ///
    /// No database there, or no address can be bound.
    pub fn bind(db: &Path, addrs: &[SocketAddr]) -> Result<Server, ServeError> {
        let cache = cache::AnswerCache::new(db);
        let state = cache.state();
        let reader = open_reader(db)?;
        let listener = std::net::TcpListener::bind(addrs)
            .map_err(|error| ServeError::Bind { addrs: addrs.to_vec(), error })?;
        listener.set_nonblocking(true)?;
        let bound = listener.local_addr()?;
        let shared = Arc::new(Shared {
            db: db.to_path_buf(),
            readers: Mutex::new(vec![(reader, state)]),
            permits: tokio::sync::Semaphore::new(workers()),
            light_permits: tokio::sync::Semaphore::new(workers()),
            cache,
            loopback_only: is_loopback(bound.ip()),
            idle_ms: std::sync::atomic::AtomicU64::new(IDLE_TIMEOUT.as_millis() as u64),
        });
        Ok(Server { listener, router: router(shared.clone()), idle: IDLE_TIMEOUT, shared })
    }

    /// Closes a connection whose client has not sent a request's headers `idle` after it
    /// connected or after its last answer, so that idle or half-sent connections cannot hold
    /// the server's file handles ([`IDLE_TIMEOUT`] unless set).
    #[must_use]
    pub fn idle_timeout(self, idle: Duration) -> Server {
        let millis = u64::try_from(idle.as_millis()).unwrap_or(u64::MAX);
        self.shared.idle_ms.store(millis, std::sync::atomic::Ordering::Relaxed);
        Server { idle, ..self }
    }

    /// The address it listens on.
    ///
    /// # Errors
    ///
    /// When the socket cannot say.
    pub fn local_addr(&self) -> Result<SocketAddr, ServeError> {
        Ok(self.listener.local_addr()?)
    }

    /// Answers requests until the process ends.
    ///
    /// # Errors
    ///
    /// When the runtime cannot start or the listener fails.
    pub fn run(self) -> Result<(), ServeError> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .max_blocking_threads(BLOCKING_THREADS)
            .build()?;
        runtime.block_on(serve(self.listener, self.router, self.idle))?;
        Ok(())
    }
}

/// Accepts connections on `listener` and serves each on its own task.
async fn serve(listener: std::net::TcpListener, router: Router, idle: Duration) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::from_std(listener)?;
    let connections = Arc::new(conn::Connections::new(conn::MAX_CONNECTIONS));
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            // Out of file handles, or a connection reset before it was taken: go on once
            // some are closed.
            Err(_) => {
                tokio::time::sleep(ACCEPT_PAUSE).await;
                continue;
            }
        };
        // Past the most connections, the one that has waited longest on its client is
        // closed, or this one waits until one is (see `conn`).
        let connection = connections.admit().await;
        let service = conn::Counted::new(router.clone(), connection.clone());
        let connections = connections.clone();
        tokio::spawn(async move {
            let served =
                http1::Builder::new().timer(TokioTimer::new()).header_read_timeout(idle).serve_connection(
                    TokioIo::new(stream::Stream::new(stream, connection.clone(), idle)),
                    service,
                );
            tokio::pin!(served);
            // A connection that fails or times out concerns its client alone.
            tokio::select! {
                _ = served.as_mut() => {}
                () = connection.evicted.notified() => {
                    // Closed to make room: at once if it waits on its client, after
                    // its answer if it has just begun one.
                    if connection.is_answering() {
                        served.as_mut().graceful_shutdown();
                        let _ = served.await;
                    }
                }
            }
            connections.close(&connection);
        });
    }
}

/// Answers `POST /api/jump` only if its body comes within the idle timeout: a client that sends
/// the headers and stalls on the body gets 408 and its connection back. A body whose declared
/// length is past the limit is refused at once (413), without waiting for it.
async fn jump_in_time(
    axum::extract::State(shared): axum::extract::State<Arc<Shared>>,
    request: Request,
    next: Next,
) -> Response {
    let declared = request.headers().get(axum::http::header::CONTENT_LENGTH);
    if declared
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .is_some_and(|n| n > params::MAX_BODY as u64)
    {
        return api::ApiError { status: StatusCode::PAYLOAD_TOO_LARGE, message: api::too_long_to_jump() }
            .into_response();
    }
    let limit = Duration::from_millis(shared.idle_ms.load(std::sync::atomic::Ordering::Relaxed));
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => api::ApiError {
            status: StatusCode::REQUEST_TIMEOUT,
            message: format!("the text did not come within {} s", limit.as_secs_f64()),
        }
        .into_response(),
    }
}

/// Whether `ip` is a loopback address (127.0.0.0/8, ::1, or IPv4 loopback mapped into IPv6).
pub fn is_loopback(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => v4.is_loopback(),
        IpAddr::V6(v6) => v6.is_loopback() || v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback()),
    }
}

fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/", get(assets::page))
        .route("/assets/{name}", get(assets::asset))
        .route("/api/query", get(api::query))
        .route("/api/position", get(api::position))
        .route("/api/status", get(api::status))
        .route("/api/game/{id}", get(api::game))
        .route(
            "/api/jump",
            post(api::jump)
                .layer(DefaultBodyLimit::max(params::MAX_BODY))
                .layer(middleware::from_fn_with_state(shared.clone(), jump_in_time)),
        )
        .fallback(not_found)
        .method_not_allowed_fallback(api::wrong_method)
        .layer(middleware::from_fn_with_state(shared.clone(), guard))
        .with_state(shared)
}

async fn not_found() -> Response {
    api::ApiError::not_found("no such page").into_response()
}

/// The headers every answer carries, refusals included.
const ANSWER_HEADERS: [(header::HeaderName, &str); 4] = [
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (header::REFERRER_POLICY, "no-referrer"),
    (header::X_FRAME_OPTIONS, "DENY"),
    (
        header::CONTENT_SECURITY_POLICY,
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
    ),
];

/// Refuses a request addressed to a name that is not loopback when the server listens on
/// loopback, and any whose Host is not one valid name ([`host`]); sets the headers every
/// answer carries, refusals included.
async fn guard(
    axum::extract::State(shared): axum::extract::State<Arc<Shared>>,
    request: Request,
    next: Next,
) -> Response {
    let mut response = match host::addressed(request.version(), request.uri(), request.headers()) {
        host::Addressed::Invalid(message) => api::ApiError::bad(message).into_response(),
        host::Addressed::Elsewhere if shared.loopback_only => {
            api::ApiError::forbidden("this server answers only requests to localhost").into_response()
        }
        _ => next.run(request).await,
    };
    let headers = response.headers_mut();
    for (name, value) in ANSWER_HEADERS {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}
