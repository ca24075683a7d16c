//! The connections served at once, and which one gives way when there are too many.
//!
//! At most [`MAX_CONNECTIONS`] are served at once, so that the database can always be opened.
//! A connection is either *answering* (a request has come whole, body and all, and its answer
//! is being worked on) or *waiting on its client* (for a request's headers or body, from when
//! it was accepted or from its last answer). Clients that open connections and send nothing,
//! or trickle a request byte by byte, only ever wait; so when one more connection comes and
//! all are taken, the one that has waited longest on its client is closed to make room, and
//! the newcomer is served. A real client sends its request at once and is answered; only
//! when every connection is answering does the newcomer wait for one to finish.
//!
//! A browser's idle keep-alive connection may be the one closed; it opens another.

use std::{
    convert::Infallible,
    future::Future,
    pin::Pin,
    sync::{Arc, Mutex},
    task::{Context, Poll},
    time::{Duration, Instant},
};

use axum::{Router, body::Bytes, extract::Request, response::Response};
use hyper::body::{Body, Frame, Incoming, SizeHint};
use hyper_util::service::TowerToHyperService;
use tokio::sync::Notify;

/// Connections served at once (far fewer than the file handles a process may open, so that
/// the database can always be opened).
pub const MAX_CONNECTIONS: usize = 256;

/// How often to look again for a connection to close when every one is answering.
const FULL_PAUSE: Duration = Duration::from_millis(20);

/// One connection's state.
pub struct Connection {
    state: Mutex<State>,
    /// Whether hyper's writes wait to be flushed (see [`super::stream`]).
    sending: std::sync::atomic::AtomicBool,
    /// Told when the connection is to close to make room.
    pub evicted: Notify,
}

struct State {
    /// Requests come whole whose answers are being worked on.
    answering: usize,
    /// Since when it has waited on its client (when `answering` is 0).
    waiting_since: Instant,
}

impl Connection {
    fn new(now: Instant) -> Connection {
        Connection {
            state: Mutex::new(State { answering: 0, waiting_since: now }),
            sending: std::sync::atomic::AtomicBool::new(false),
            evicted: Notify::new(),
        }
    }

    /// Whether an answer is being worked on, or written.
    pub fn is_answering(&self) -> bool {
        self.is_sending() || self.state.lock().map_or(true, |state| state.answering > 0)
    }

    fn is_sending(&self) -> bool {
        self.sending.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Says whether what hyper wrote waits to be flushed to the client.
    pub fn set_sending(&self, sending: bool) {
        self.sending.store(sending, std::sync::atomic::Ordering::Relaxed);
    }

    /// Since when it has waited on its client, or `None` while it is answering.
    fn waiting_since(&self) -> Option<Instant> {
        if self.is_sending() {
            return None;
        }
        let state = self.state.lock().ok()?;
        (state.answering == 0).then_some(state.waiting_since)
    }

    fn start(&self) {
        if let Ok(mut state) = self.state.lock() {
            state.answering += 1;
        }
    }

    fn finish(&self) {
        if let Ok(mut state) = self.state.lock() {
            state.answering = state.answering.saturating_sub(1);
            state.waiting_since = Instant::now();
        }
    }
}

/// The connections being served.
pub struct Connections {
    max: usize,
    open: Mutex<Vec<Arc<Connection>>>,
}

impl Connections {
    pub fn new(max: usize) -> Connections {
        Connections { max, open: Mutex::new(Vec::new()) }
    }

    /// Makes room for a new connection (closing the one that has waited longest on its
    /// client, if all are taken, or else waiting for one to be) and returns its state.
    pub async fn admit(&self) -> Arc<Connection> {
        loop {
            if let Some(admitted) = self.try_admit(Instant::now()) {
                return admitted;
            }
            tokio::time::sleep(FULL_PAUSE).await;
        }
    }

    fn try_admit(&self, now: Instant) -> Option<Arc<Connection>> {
        let mut open = self.open.lock().ok()?;
        if open.len() >= self.max {
            let (at, _) = open
                .iter()
                .enumerate()
                .filter_map(|(at, connection)| Some((at, connection.waiting_since()?)))
                .min_by_key(|&(_, since)| since)?;
            open.remove(at).evicted.notify_one();
        }
        let admitted = Arc::new(Connection::new(now));
        open.push(admitted.clone());
        Some(admitted)
    }

    /// Forgets a connection once it is closed.
    pub fn close(&self, connection: &Arc<Connection>) {
        if let Ok(mut open) = self.open.lock() {
            open.retain(|c| !Arc::ptr_eq(c, connection));
        }
    }
}

/// The router as hyper calls it on one connection, counting the answers being worked on.
#[derive(Clone)]
pub struct Counted {
    router: TowerToHyperService<Router>,
    connection: Arc<Connection>,
}

impl Counted {
    pub fn new(router: Router, connection: Arc<Connection>) -> Counted {
        Counted { router: TowerToHyperService::new(router), connection }
    }
}

/// One request's answer: counted as being worked on from when its body is whole until its
/// answer's body is sent (or dropped).
struct Answer {
    connection: Arc<Connection>,
    started: std::sync::atomic::AtomicBool,
}

impl Answer {
    fn start(&self) {
        if !self.started.swap(true, std::sync::atomic::Ordering::Relaxed) {
            self.connection.start();
        }
    }
}

impl Drop for Answer {
    fn drop(&mut self) {
        if *self.started.get_mut() {
            self.connection.finish();
        }
    }
}

impl hyper::service::Service<Request<Incoming>> for Counted {
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn call(&self, request: Request<Incoming>) -> Self::Future {
        let answer = Arc::new(Answer {
            connection: self.connection.clone(),
            started: std::sync::atomic::AtomicBool::new(false),
        });
        if request.body().is_end_stream() {
            answer.start();
        }
        let tracked = answer.clone();
        let request = request.map(|body| Tracked { body, answer: tracked });
        let answered = self.router.call(request);
        Box::pin(async move {
            // The answer is worked on until its body is sent: a large one sent to a slow
            // reader is no connection waiting on its client.
            let response = answered.await;
            Ok(response?.map(|body| axum::body::Body::new(Sending { body, _answer: answer })))
        })
    }
}

/// A request's body, which starts its answer's count once it has come whole.
struct Tracked {
    body: Incoming,
    answer: Arc<Answer>,
}

impl Body for Tracked {
    type Data = Bytes;
    type Error = hyper::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, hyper::Error>>> {
        let polled = Pin::new(&mut self.body).poll_frame(cx);
        if matches!(polled, Poll::Ready(None)) || self.body.is_end_stream() {
            self.answer.start();
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// An answer's body, which keeps its answer counted until it is sent or dropped.
struct Sending {
    body: axum::body::Body,
    _answer: Arc<Answer>,
}

impl Body for Sending {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
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
    use super::*;

    #[test]
    fn the_longest_waiting_gives_way_and_answering_ones_never_do() {
        let connections = Connections::new(3);
        let t0 = Instant::now();
        let at = |ms| t0 + Duration::from_millis(ms);
        let first = connections.try_admit(at(0)).unwrap();
        let second = connections.try_admit(at(1)).unwrap();
        let third = connections.try_admit(at(2)).unwrap();
        // The first is answering: the second, waiting longest, gives way.
        first.start();
        let fourth = connections.try_admit(at(3)).unwrap();
        assert!(first.is_answering() && first.waiting_since().is_none());
        let open = |c: &Arc<Connection>| connections.open.lock().unwrap().iter().any(|o| Arc::ptr_eq(o, c));
        assert!(open(&first) && !open(&second) && open(&third) && open(&fourth));
        // Told to close: the notification is kept for when the connection listens.
        let told = second.evicted.notified();
        tokio::pin!(told);
        assert!(told.as_mut().enable());
        // All answering: no room until one is done, and then the one done gives way.
        third.start();
        fourth.start();
        assert!(connections.try_admit(at(4)).is_none());
        third.finish();
        assert!(connections.try_admit(at(5)).is_some());
        assert!(!open(&third) && open(&first) && open(&fourth));
        // A closed connection makes room without closing another.
        connections.close(&first);
        assert!(connections.try_admit(at(6)).is_some());
        assert!(open(&fourth));
    }
}
