//! What a server on someone's archive must refuse: listening beyond loopback unless asked,
//! any path outside its own pages, oversized requests, and requests addressed to another name.

use super::{Server, http, samples_db};

/// The local addresses of the listening TCP sockets on `port`, from the kernel's tables (not
/// from what the server says).
fn listening_on(port: u16) -> Vec<String> {
    let mut found = Vec::new();
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        let Ok(text) = std::fs::read_to_string(table) else { continue };
        for line in text.lines().skip(1) {
            let fields: Vec<&str> = line.split_whitespace().collect();
            // State 0A is LISTEN.
            if fields.len() > 3 && fields[3] == "0A" {
                if let Some((ip, p)) = fields[1].split_once(':') {
                    if u16::from_str_radix(p, 16) == Ok(port) {
                        found.push(ip.to_string());
                    }
                }
            }
        }
    }
    found
}

#[test]
fn by_default_it_listens_on_loopback_only() {
    let server = Server::start(samples_db(), &[]);
    assert!(server.addr.ip().is_loopback(), "{}", server.banner);
    assert!(
        server.banner.contains(&format!("http://127.0.0.1:{}/", server.addr.port())),
        "{}",
        server.banner
    );
    assert!(!server.banner.contains("warning"), "{}", server.banner);
    if std::path::Path::new("/proc/net/tcp").exists() {
        // 127.0.0.1 as the kernel writes it: four bytes, little-endian.
        assert_eq!(listening_on(server.addr.port()), vec!["0100007F".to_string()]);
    }
}

#[test]
fn another_host_is_allowed_with_a_warning() {
    let server = Server::start(samples_db(), &["--host", "0.0.0.0"]);
    assert!(server.banner.contains("warning") && server.banner.contains("network"), "{}", server.banner);
    if std::path::Path::new("/proc/net/tcp").exists() {
        assert_eq!(listening_on(server.addr.port()), vec!["00000000".to_string()]);
    }
}

#[test]
fn a_host_name_is_resolved_and_localhost_is_loopback_with_its_guard() {
    let server = Server::start(samples_db(), &["--host", "localhost"]);
    assert!(server.addr.ip().is_loopback(), "{}", server.banner);
    assert!(!server.banner.contains("warning"), "{}", server.banner);
    assert_eq!(http::get(server.addr, "/api/query").status, 200);
    // Bound to loopback through a name, it still answers only requests addressed to loopback.
    let head = "GET /api/query HTTP/1.1\r\nHost: evil.example\r\nConnection: close";
    assert_eq!(http::raw(server.addr, head, b"").unwrap().status, 403);
    // A name that resolves to nothing is refused, naming the flag.
    let (code, _, stderr) =
        crate::util::kifudex(["serve", "--port", "0", "--host", "nosuch.invalid"]).db(samples_db()).run();
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.starts_with("kifudex: --host nosuch.invalid: "), "{stderr}");
}

#[test]
fn an_address_in_use_is_said_once() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let (code, _, stderr) = crate::util::kifudex(["serve", "--port", &port]).db(samples_db()).run();
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.starts_with(&format!("kifudex: cannot listen on 127.0.0.1:{port}: ")), "{stderr}");
    // The system's reason once: "Address already in use (os error 98)" on Linux.
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert_eq!(stderr.matches("(os error").count(), 1, "{stderr}");
}

#[test]
fn no_path_reaches_the_file_system() {
    let server = Server::start(samples_db(), &[]);
    let paths = [
        "/../Cargo.toml",
        "/../../../../etc/passwd",
        "/assets/../Cargo.toml",
        "/assets/../../Cargo.toml",
        "/assets/..%2f..%2fCargo.toml",
        "/assets/%2e%2e/%2e%2e/Cargo.toml",
        "/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
        "/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
        "/assets/%2fetc%2fpasswd",
        "/assets//etc/passwd",
        "//etc/passwd",
        "/etc/passwd",
        "/Cargo.toml",
        "/src/serve/assets/app.js",
        "/assets/app.js/../../Cargo.toml",
        "/assets/..\\..\\Cargo.toml",
        "/api/game/..%2f..%2fCargo.toml",
        "/api/game/1.kif%2f..%2f..%2fCargo.toml",
        "/api/game/%2e%2e",
        "/assets/app.js%00.png",
        "http://127.0.0.1/etc/passwd",
        "/C:/Windows/win.ini",
        "/assets/C:%5cWindows%5cwin.ini",
    ];
    let cargo_toml = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap();
    for path in paths {
        let head =
            format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close", server.addr.port());
        let answer = http::raw(server.addr, &head, b"").unwrap();
        assert!(matches!(answer.status, 400 | 404), "{path}: {}", answer.status);
        let body = String::from_utf8_lossy(&answer.body);
        assert!(
            !body.contains("[package]") && !body.contains("root:") && !body.contains(&cargo_toml[..40]),
            "{path}"
        );
    }
}

#[test]
fn oversized_requests_are_refused() {
    let server = Server::start(samples_db(), &[]);
    let long_moves = "7g7f 3c3d ".repeat(1000);
    let answer = http::get(server.addr, &format!("/api/query?moves={}", http::encode(&long_moves)));
    assert_eq!(answer.status, 400);
    assert_eq!(answer.json()["error"], "parameter 'moves' is too long: at most 8192 characters");
    let answer = http::get(server.addr, &format!("/api/query?player={}", "a".repeat(201)));
    assert_eq!(
        (answer.status, answer.json()["error"].as_str().unwrap()),
        (400, "parameter 'player' is too long: at most 200 characters")
    );
    let answer = http::get(server.addr, &format!("/api/position?sfen={}", "9/".repeat(200)));
    assert_eq!(answer.status, 400);
    let answer = http::get(server.addr, &format!("/api/query?event=x&{}", "a=b&".repeat(5000)));
    assert!(matches!(answer.status, 400 | 414 | 431), "{}", answer.status);
    // A header past the server's limit.
    let head = format!(
        "GET / HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\nX-Filler: {}",
        server.addr.port(),
        "x".repeat(1 << 20)
    );
    if let Ok(answer) = http::raw(server.addr, &head, b"") {
        assert!(answer.status >= 400, "{}", answer.status);
    }
    // A pasted text past the body limit.
    let answer = http::post(server.addr, "/api/jump", &vec![b'x'; 600 * 1024]);
    assert_eq!(answer.status, 413);
    let error = answer.json()["error"].as_str().map(String::from);
    assert_eq!(
        error.as_deref(),
        Some("the text is longer than 512 KiB, the most a jump reads: paste the position or the moves alone")
    );
    // A body declared past the limit is refused at once, before any of it comes: not after
    // the idle timeout (20 s by default), which would be 408.
    for length in ["600000", "99999999999"] {
        let started = std::time::Instant::now();
        let head = format!(
            "POST /api/jump HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Length: {length}",
            server.addr.port()
        );
        let answer = http::raw(server.addr, &head, b"").unwrap();
        assert_eq!(answer.status, 413, "{length}");
        assert!(started.elapsed() < std::time::Duration::from_secs(10), "{length}: {:?}", started.elapsed());
        assert_eq!(error.as_deref(), answer.json()["error"].as_str(), "{length}");
    }
    // A body whose chunks are not well formed is said to be so, in the page's words.
    let head =
        "POST /api/jump HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nConnection: close";
    let answer = http::raw(server.addr, head, b"zz\r\n7g7f\r\n0\r\n\r\n").unwrap();
    assert_eq!(answer.status, 400);
    let error = answer.json()["error"].as_str().unwrap().to_string();
    assert!(error.starts_with("the text could not be read whole"), "{error}");
    // The limit and offset are numbers, and the list is bounded.
    assert_eq!(http::get(server.addr, "/api/query?limit=100000").status, 400);
    assert_eq!(http::get(server.addr, "/api/query?offset=99999999999999999999999").status, 400);
}

/// Connections that send nothing, or half a request, are closed after `--idle-timeout`, and
/// past the 256 served at once the next request is answered all the same.
#[test]
fn idle_and_half_sent_connections_are_closed() {
    use std::{
        io::{Read, Write},
        net::TcpStream,
        time::{Duration, Instant},
    };
    let server = Server::start(samples_db(), &["--idle-timeout", "1"]);
    let mut idle: Vec<TcpStream> = (0..300).map(|_| TcpStream::connect(server.addr).unwrap()).collect();
    let mut half = TcpStream::connect(server.addr).unwrap();
    half.write_all(b"GET /api/query HTTP/1.1\r\nHost: local").unwrap();
    let started = Instant::now();
    assert_eq!(http::get(server.addr, "/api/game/1").status, 200);
    assert!(started.elapsed() < Duration::from_secs(30), "{:?}", started.elapsed());
    // Headers sent, the body stalled: 408 once the timeout has passed, and the slot is free.
    let mut stalled = TcpStream::connect(server.addr).unwrap();
    stalled
        .write_all(b"POST /api/jump HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n7g")
        .unwrap();
    stalled.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut answer = [0u8; 64];
    let n = stalled.read(&mut answer).unwrap();
    assert!(answer[..n].starts_with(b"HTTP/1.1 408"), "{}", String::from_utf8_lossy(&answer[..n]));
    std::thread::sleep(Duration::from_secs(2));
    for stream in idle.iter_mut().take(20).chain([&mut half]) {
        stream.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut buf = [0u8; 64];
        // Closed by the server: end of stream, or a reset; not still open (a read timeout).
        match stream.read(&mut buf) {
            Ok(n) => assert_eq!(n, 0),
            Err(e) => assert_eq!(e.kind(), std::io::ErrorKind::ConnectionReset),
        }
    }
}

/// Every refusal is JSON with its reason: a method a path does not take, a path segment that
/// is not UTF-8, a request to a name that is not loopback, a query string that is not UTF-8.
#[test]
fn refusals_are_json() {
    let server = Server::start(samples_db(), &[]);
    let head = |method: &str, path: &str, host: &str| {
        format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Length: 0\r\nConnection: close")
    };
    for (request, status, says) in [
        (head("POST", "/api/query", "localhost"), 405, "POST is not answered here"),
        (head("GET", "/api/jump", "localhost"), 405, "GET is not answered here"),
        // A method of any length is a token; not said back whole.
        (head(&"X".repeat(4000), "/", "localhost"), 405, "a method of that length is not answered here"),
        // No name is no host name.
        (head("GET", "/", ""), 400, "not a host name or address"),
        (head("GET", "/api/game/%FF", "localhost"), 400, "the path is not URL-encoded UTF-8 text"),
        (head("GET", "/assets/%FF", "localhost"), 400, "the path is not URL-encoded UTF-8 text"),
        (head("GET", "/", "evil.example"), 403, "only requests to localhost"),
        (head("GET", "/api/query?player=%FF", "localhost"), 400, "not URL-encoded UTF-8 text"),
        (head("GET", "/api/query?%FF=1", "localhost"), 400, "not URL-encoded UTF-8 text"),
    ] {
        let answer = http::raw(server.addr, &request, b"").unwrap();
        assert_eq!(answer.status, status, "{request}");
        if status == 405 {
            let allow = if request.contains("/api/jump") { "POST" } else { "GET, HEAD" };
            assert_eq!(answer.header("allow"), Some(allow), "{request}");
        }
        assert_eq!(answer.header("content-type"), Some("application/json"), "{request}");
        let error = answer.json()["error"].as_str().unwrap().to_string();
        assert!(error.contains(says), "{request}: {error}");
        assert!(error.len() < 200, "{request}: {error}");
        // In the user's words: no name of the server's own code.
        assert!(!error.contains('`') && !error.contains("param"), "{request}: {error}");
    }
    // A form's empty fields are no filters: the same answer as none.
    let empty = "since=&until=&result=&handicap=&limit=&offset=&by=&variant=&player=&moves=";
    let with_empty = http::get(server.addr, &format!("/api/query?{empty}"));
    assert_eq!(with_empty.status, 200);
    assert_eq!(with_empty.json(), http::get(server.addr, "/api/query").json());
    // So are fields of nothing but spaces, a result and a game's name included.
    let spaces = http::get(server.addr, "/api/query?result=+&variant=%E3%80%80&handicap=+&since=+");
    assert_eq!((spaces.status, spaces.json()), (200, http::get(server.addr, "/api/query").json()));
    let habu = http::get(server.addr, "/api/query?player=Habu").json();
    assert_eq!(http::get(server.addr, "/api/query?player=&player=Habu&limit=").json(), habu);
}

#[test]
fn only_requests_to_a_loopback_name_are_answered() {
    let server = Server::start(samples_db(), &[]);
    for host in ["evil.example", "evil.example:8080", "192.168.1.10", "kifudex.localhost.evil.example"] {
        let head = format!("GET /api/query HTTP/1.1\r\nHost: {host}\r\nConnection: close");
        assert_eq!(http::raw(server.addr, &head, b"").unwrap().status, 403, "{host}");
    }
    for host in ["localhost", "LOCALHOST:1", "127.0.0.1", "127.0.0.2:80", "[::1]:8080"] {
        let head = format!("GET /api/query HTTP/1.1\r\nHost: {host}\r\nConnection: close");
        assert_eq!(http::raw(server.addr, &head, b"").unwrap().status, 200, "{host}");
    }
}

/// RFC 9112 §3.2: an HTTP/1.1 request with two Host headers, or none, or one that is no host,
/// is a bad request (400, in JSON), whichever Host comes first; a target in absolute form
/// names the host itself (§3.2.2). Every refusal carries the headers every answer does.
#[test]
fn the_host_is_read_as_http_1_1_says() {
    let server = Server::start(samples_db(), &[]);
    let ask = |request: &str| http::raw(server.addr, request, b"").unwrap();
    for (request, status, says) in [
        ("GET /api/status HTTP/1.1\r\nHost: localhost\r\nHost: evil.example", 400, "more than one Host"),
        ("GET /api/status HTTP/1.1\r\nHost: evil.example\r\nHost: localhost", 400, "more than one Host"),
        ("GET /api/status HTTP/1.1\r\nHost: localhost\r\nHost: localhost", 400, "more than one Host"),
        ("GET /api/status HTTP/1.1", 400, "needs a Host header"),
        ("GET /api/status HTTP/1.1\r\nHost: [::1]evil.example", 400, "not a host name"),
        ("GET /api/status HTTP/1.1\r\nHost: localhost:http", 400, "not a host name"),
        ("GET /api/status HTTP/1.1\r\nHost: localhost:99999999999", 400, "not a host name"),
        ("GET /api/status HTTP/1.1\r\nHost: 127.0.0.1:65536", 400, "not a host name"),
        ("GET /api/status HTTP/1.1\r\nHost: evil@localhost", 400, "not a host name"),
        ("GET http://evil.example/api/status HTTP/1.1\r\nHost: localhost", 403, "only requests to localhost"),
    ] {
        let answer = ask(&format!("{request}\r\nConnection: close"));
        assert_eq!(answer.status, status, "{request}");
        assert_eq!(answer.header("content-type"), Some("application/json"), "{request}");
        assert_eq!(answer.header("x-content-type-options"), Some("nosniff"), "{request}");
        let error = answer.json()["error"].as_str().unwrap().to_string();
        assert!(error.contains(says), "{request}: {error}");
        // In the user's words: no name of the server's own code.
        assert!(!error.contains('`') && !error.contains("param"), "{request}: {error}");
    }
    for request in [
        "GET /api/status HTTP/1.1\r\nHost: localhost.",
        "GET /api/status HTTP/1.1\r\nHost: LocalHost.:80",
        "GET /api/status HTTP/1.1\r\nHost: [::1]",
        "GET /api/status HTTP/1.1\r\nHost: [0:0:0:0:0:0:0:1]:8080",
        "GET /api/status HTTP/1.0",
        "GET http://localhost/api/status HTTP/1.1\r\nHost: evil.example",
    ] {
        let answer = ask(&format!("{request}\r\nConnection: close"));
        assert_eq!(answer.status, 200, "{request}: {}", String::from_utf8_lossy(&answer.body));
    }
    // Listening beyond loopback, any name is answered, but two Host headers still are not.
    let open = Server::start(samples_db(), &["--host", "0.0.0.0"]);
    let request = "GET /api/status HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\nConnection: close";
    let port = open.addr.port();
    let local = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    assert_eq!(http::raw(local, request, b"").unwrap().status, 400);
    let request = "GET /api/status HTTP/1.1\r\nHost: kifudex.example\r\nConnection: close";
    assert_eq!(http::raw(local, request, b"").unwrap().status, 200);
}

/// A request the HTTP layer cannot read is refused as every other is: with its status and a
/// JSON `{"error": …}` saying why (a request target past 65,534 bytes is 414, a header line
/// that is no header 400; RFC 9110 §15.5.15, RFC 9112 §5).
#[test]
fn unreadable_requests_are_refused_in_json() {
    let server = Server::start(samples_db(), &[]);
    let long = format!("GET /api/query?moves={} HTTP/1.1\r\nHost: localhost", "7g7f+".repeat(14_000));
    for (request, status, says) in [
        (long.as_str(), 414, "too long"),
        ("GET /api/status HTTP/1.1\r\nHost: localhost\r\nNo header here", 400, "malformed"),
        ("GET /api/status HTTP/1.1\r\nHost: localhost\r\nX Y: 1", 400, "malformed"),
        ("G(T /api/status HTTP/1.1\r\nHost: localhost", 400, "malformed"),
    ] {
        let answer = http::raw(server.addr, request, b"").unwrap();
        let shown = &request[..40];
        assert_eq!(answer.status, status, "{shown}");
        assert_eq!(answer.header("content-type"), Some("application/json"), "{shown}");
        assert_eq!(answer.header("x-content-type-options"), Some("nosniff"), "{shown}");
        let error = answer.json()["error"].as_str().unwrap().to_string();
        assert!(error.contains(says), "{shown}: {error}");
    }
}

/// Slow clients cannot keep the page waiting: with every connection taken by ones that sent
/// nothing or half a request (and a timeout long enough that none is closed for it), a
/// request is still answered at once, and the connections that waited longest are closed.
#[test]
fn slow_clients_cannot_lock_out_a_request() {
    use std::{
        io::{Read, Write},
        net::TcpStream,
        sync::mpsc,
        time::Duration,
    };
    let server = Server::start(samples_db(), &["--idle-timeout", "3600"]);
    let slow: Vec<TcpStream> = (0..300)
        .map(|i| {
            let mut stream = TcpStream::connect(server.addr).unwrap();
            if i % 2 == 1 {
                stream.write_all(b"GET /api/status HTTP/1.1\r\nHost: loc").unwrap();
            }
            stream
        })
        .collect();
    let (sent, answered) = mpsc::channel();
    let addr = server.addr;
    std::thread::spawn(move || sent.send(http::get(addr, "/api/status").status));
    // Without room made, the request would wait for the hour of the timeout.
    assert_eq!(answered.recv_timeout(Duration::from_secs(20)), Ok(200));
    // The first ones, which waited longest, were closed: end of stream, or a reset.
    for mut stream in slow.into_iter().take(10) {
        stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        match stream.read(&mut [0u8; 64]) {
            Ok(n) => assert_eq!(n, 0),
            Err(e) => assert_eq!(e.kind(), std::io::ErrorKind::ConnectionReset),
        }
    }
}

/// An answer larger than the system's socket buffers, sent to a client that reads it late, is
/// sent whole though many connections come meanwhile: a connection that is sending its answer
/// does not give way to them.
#[test]
fn an_answer_being_sent_is_not_cut_to_make_room() {
    use std::{
        io::{Read, Write},
        net::TcpStream,
        time::Duration,
    };
    let tmp = tempfile::tempdir().unwrap();
    // About 24 MB of KIF: a comment line of 120 bytes after each of two moves, 200,000 times.
    let comment = format!("*{}\n", "あ".repeat(40));
    let text = format!(
        "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n{}   2 ３四歩(33)\n{}",
        comment.repeat(100_000),
        comment.repeat(100_000)
    );
    let record = tmp.path().join("long.kifu");
    std::fs::write(&record, text).unwrap();
    let db = tmp.path().join("long.sqlite");
    let out =
        crate::util::kifudex(["index", "--quiet", "--db", db.to_str().unwrap(), record.to_str().unwrap()])
            .output();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let server = Server::start(&db, &["--idle-timeout", "3600"]);
    let mut reader = TcpStream::connect(server.addr).unwrap();
    reader
        .write_all(b"GET /api/game/1.kif HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        .unwrap();
    // Let the answer fill the buffers, then take every connection.
    std::thread::sleep(Duration::from_millis(500));
    let _idle: Vec<TcpStream> = (0..300).map(|_| TcpStream::connect(server.addr).unwrap()).collect();
    reader.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let mut answer = Vec::new();
    reader.read_to_end(&mut answer).unwrap();
    let head_end = answer.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
    let head = String::from_utf8_lossy(&answer[..head_end]).to_lowercase();
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length: "))
        .expect("a content length")
        .trim()
        .parse()
        .unwrap();
    assert!(length > 20_000_000, "{length}");
    assert_eq!(answer.len() - head_end, length, "the answer was cut");
}
