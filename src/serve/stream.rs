//! A connection's byte stream, as the HTTP layer reads and writes it, with two policies of
//! ours:
//!
//! - Writing fails once it has made no progress for the idle timeout: a client that stops
//!   reading its answers cannot hold the server.
//! - From the first byte hyper asks to write until its writes are flushed, the connection is
//!   sending (see [`super::conn`]): an answer written whole into hyper's buffer is not yet
//!   with its client, and the connection is not to be closed to make room. (Reading is bounded by the header timeout,
//!   and a pasted body by [`super::jump_in_time`].)
//! - A request that hyper cannot read (a malformed request line or header: 400; a request
//!   target past its 65,534 bytes: 414; headers past its buffer: 431) is answered by hyper
//!   itself, before any of our code sees a request, with an empty body, and hyper 1 has no
//!   hook to give that answer a body (`http1::Builder` has none). So the stream recognises
//!   that answer as it is written (a `4xx` head with `content-length: 0` and none of the
//!   headers every answer of ours carries, [`super::ANSWER_HEADERS`]) and writes in its
//!   place the same status with the JSON `{"error": …}` every other refusal has. Hyper
//!   closes the connection after it.

use std::{
    future::Future,
    io,
    pin::Pin,
    task::{Context, Poll},
    time::Duration,
};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use super::{ANSWER_HEADERS, conn::Connection, params::MAX_QUERY};

/// A TCP connection with a time limit on writes and our own answers to unreadable requests.
pub struct Stream {
    inner: tokio::net::TcpStream,
    connection: std::sync::Arc<Connection>,
    limit: Duration,
    /// Since when writing has waited.
    since: Option<Pin<Box<tokio::time::Sleep>>>,
    /// Our answer written in place of hyper's: its bytes, how many are sent, and how many of
    /// hyper's it stands for.
    substitute: Option<(Vec<u8>, usize, usize)>,
}

impl Stream {
    pub fn new(
        inner: tokio::net::TcpStream,
        connection: std::sync::Arc<Connection>,
        limit: Duration,
    ) -> Stream {
        Stream { inner, connection, limit, since: None, substitute: None }
    }

    /// `polled`, the result of a write; past `limit` of waiting, an error.
    fn in_time<T>(&mut self, cx: &mut Context<'_>, polled: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        if polled.is_ready() {
            self.since = None;
            return polled;
        }
        let limit = self.limit;
        let since = self.since.get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match since.as_mut().poll(cx) {
            Poll::Ready(()) => {
                Poll::Ready(Err(io::Error::new(io::ErrorKind::TimedOut, "the client reads no more")))
            }
            Poll::Pending => Poll::Pending,
        }
    }

    /// Writes our answer in place of hyper's `written` (the bytes it asks to write), when that
    /// is its own answer to a request it could not read; `None` for any other write.
    fn substituted(&mut self, cx: &mut Context<'_>, written: &[&[u8]]) -> Option<Poll<io::Result<usize>>> {
        if self.substitute.is_none() {
            let first = written.first()?;
            if !first.starts_with(b"HTTP/1.1 4") {
                return None;
            }
            let head: Vec<u8> = written.concat();
            self.substitute = Some((own_answer(&head)?, 0, head.len()));
        }
        let (bytes, sent, stands_for) = self.substitute.as_mut()?;
        while *sent < bytes.len() {
            match Pin::new(&mut self.inner).poll_write(cx, &bytes[*sent..]) {
                Poll::Ready(Ok(0)) => return Some(Poll::Ready(Ok(0))),
                Poll::Ready(Ok(n)) => *sent += n,
                other => return Some(other),
            }
        }
        let stands_for = *stands_for;
        self.substitute = None;
        Some(Poll::Ready(Ok(stands_for)))
    }
}

/// Our answer in place of `head`, when `head` is hyper's own answer to a request it could not
/// read: exactly one response head, status 400, 414 or 431, with an empty body and none of
/// the headers our answers carry.
fn own_answer(head: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(head).ok()?;
    let lines = text.strip_suffix("\r\n\r\n")?;
    if lines.contains("\r\n\r\n") {
        return None;
    }
    let mut lines = lines.split("\r\n");
    let status_line = lines.next()?;
    let message = match status_line.get(9..12)? {
        "400" => "the request is not HTTP/1.1 that this server reads: a malformed request line or header"
            .to_string(),
        "414" => {
            format!(
                "the address is too long: this server reads addresses of up to about 64 KiB, and answers \
                 at most {MAX_QUERY} bytes of query string"
            )
        }
        "431" => "the request's headers are too large".to_string(),
        _ => return None,
    };
    let headers: Vec<&str> = lines.collect();
    let named = |line: &str, name: &str| {
        line.split_once(':').is_some_and(|(n, _)| n.trim().eq_ignore_ascii_case(name))
    };
    let ours = ANSWER_HEADERS.iter().any(|(name, _)| headers.iter().any(|line| named(line, name.as_str())));
    let empty = headers.iter().any(|line| line.eq_ignore_ascii_case("content-length: 0"));
    if ours || !empty {
        return None;
    }
    let body = serde_json::json!({ "error": message }).to_string();
    let mut answer = format!("{status_line}\r\n");
    for line in headers.iter().filter(|line| !named(line, "content-length") && !named(line, "connection")) {
        answer.push_str(line);
        answer.push_str("\r\n");
    }
    answer.push_str("connection: close\r\ncontent-type: application/json\r\n");
    for (name, value) in ANSWER_HEADERS {
        answer.push_str(&format!("{}: {value}\r\n", name.as_str()));
    }
    answer.push_str(&format!("content-length: {}\r\n\r\n{body}", body.len()));
    Some(answer.into_bytes())
}

impl AsyncRead for Stream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl AsyncWrite for Stream {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        self.connection.set_sending(!buf.is_empty());
        let polled = match self.substituted(cx, &[buf]) {
            Some(polled) => polled,
            None => Pin::new(&mut self.inner).poll_write(cx, buf),
        };
        self.in_time(cx, polled)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.connection.set_sending(bufs.iter().any(|b| !b.is_empty()));
        let slices: Vec<&[u8]> = bufs.iter().map(|b| &**b).collect();
        let polled = match self.substituted(cx, &slices) {
            Some(polled) => polled,
            None => Pin::new(&mut self.inner).poll_write_vectored(cx, bufs),
        };
        self.in_time(cx, polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let polled = Pin::new(&mut self.inner).poll_flush(cx);
        if matches!(polled, Poll::Ready(Ok(()))) {
            self.connection.set_sending(false);
        }
        self.in_time(cx, polled)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(head: &str) -> Option<String> {
        own_answer(head.as_bytes()).map(|bytes| String::from_utf8(bytes).unwrap())
    }

    /// The answers hyper 1 writes to requests it cannot read, byte for byte.
    #[test]
    fn hyper_s_own_refusals_get_a_json_body() {
        let date = "date: Sun, 29 Nov 2026 15:13:41 GMT";
        for (status, says) in [
            ("400 Bad Request", "malformed request line or header"),
            ("414 URI Too Long", "addresses of up to about 64 KiB"),
            ("431 Request Header Fields Too Large", "headers are too large"),
        ] {
            let head =
                format!("HTTP/1.1 {status}\r\nconnection: close\r\ncontent-length: 0\r\n{date}\r\n\r\n");
            let ours = answer(&head).unwrap_or_else(|| panic!("{status} is not replaced"));
            let (head, body) = ours.split_once("\r\n\r\n").unwrap();
            let mut lines = head.split("\r\n");
            assert_eq!(lines.next(), Some(format!("HTTP/1.1 {status}").as_str()));
            let mut headers: Vec<&str> = lines.collect();
            headers.sort_unstable();
            let length = format!("content-length: {}", body.len());
            let mut expected = vec![
                "connection: close",
                "content-type: application/json",
                length.as_str(),
                date,
                "x-content-type-options: nosniff",
                "referrer-policy: no-referrer",
                "x-frame-options: DENY",
            ];
            expected.sort_unstable();
            let csp = headers.iter().position(|h| h.starts_with("content-security-policy: ")).unwrap();
            headers.remove(csp);
            assert_eq!(headers, expected);
            let error = serde_json::from_str::<serde_json::Value>(body).unwrap()["error"].clone();
            assert!(error.as_str().unwrap().contains(says), "{error}");
        }
    }

    #[test]
    fn any_other_write_is_left_alone() {
        for head in [
            // Ours: a body, or the headers every answer of ours carries.
            "HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 9\r\n\r\n",
            "HTTP/1.1 400 Bad Request\r\nx-content-type-options: nosniff\r\ncontent-length: 0\r\n\r\n",
            "HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\n\r\n{}",
            "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n",
            "HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n",
            "HTTP/1.1 100 Continue\r\n\r\n",
            "HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n",
            "HTTP/1.1 4",
        ] {
            assert_eq!(answer(head), None, "{head}");
        }
    }
}
