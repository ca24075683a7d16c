//! A small WebDriver client for Chromium through chromedriver: start a headless browser,
//! open pages, find and click elements, run scripts, press keys, take screenshots. Only what
//! the browser test and the page benchmark use.

use std::{
    net::{SocketAddr, TcpListener},
    path::PathBuf,
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use serde_json::{Value, json};

use super::http;

/// The key WebDriver names every element by.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// Where Chromium and its driver are, when both are installed.
pub fn find_browser() -> Option<(PathBuf, PathBuf)> {
    let which = |names: &[&str]| {
        names.iter().find_map(|name| {
            std::env::var_os("PATH")
                .into_iter()
                .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
                .map(|dir| dir.join(name))
                .find(|p| p.is_file())
        })
    };
    Some((which(&["chromium", "chromium-browser"])?, which(&["chromedriver"])?))
}

/// Chromium and its driver, or `None` after saying on stderr that `what` is skipped for want
/// of them. They are required when `CI=true`: there, their absence fails the test.
pub fn browser_or_skip(what: &str) -> Option<(PathBuf, PathBuf)> {
    let found = find_browser();
    if found.is_none() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "Chromium and chromedriver are required when CI=true (apt-get install chromium chromium-driver)"
        );
        eprintln!(
            "skipped {what}: it needs chromium and chromedriver (apt-get install chromium chromium-driver)"
        );
    }
    found
}

/// The chromedriver process, stopped when dropped (also when no session could be started).
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A headless browser session, ended (and its driver stopped) when dropped.
pub struct Browser {
    _driver: Driver,
    addr: SocketAddr,
    session: String,
    _profile: tempfile::TempDir,
}

impl Browser {
    /// Starts chromedriver and a headless Chromium with a fresh profile and a window of
    /// `width` × `height`.
    pub fn start(chromium: &PathBuf, chromedriver: &PathBuf, width: u32, height: u32) -> Browser {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let driver = Driver(
            Command::new(chromedriver)
                .arg(format!("--port={port}"))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("chromedriver starts"),
        );
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let profile = tempfile::tempdir().unwrap();
        let args = [
            "--headless=new".to_string(),
            "--no-sandbox".to_string(),
            "--disable-gpu".to_string(),
            "--disable-dev-shm-usage".to_string(),
            "--disable-background-networking".to_string(),
            "--disable-component-update".to_string(),
            "--disable-sync".to_string(),
            "--no-first-run".to_string(),
            "--no-default-browser-check".to_string(),
            "--hide-scrollbars".to_string(),
            "--lang=en-US".to_string(),
            "--force-device-scale-factor=1".to_string(),
            format!("--window-size={width},{height}"),
            format!("--user-data-dir={}", profile.path().display()),
        ];
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": chromium, "args": args},
        }}});
        let started = Instant::now();
        let session = loop {
            match try_call(addr, "POST", "/session", Some(&capabilities)) {
                Ok(v) => break v["sessionId"].as_str().expect("a session id").to_string(),
                Err(e) if started.elapsed() < Duration::from_secs(20) => {
                    let _ = e;
                    std::thread::sleep(Duration::from_millis(100));
                }
                Err(e) => panic!("no browser session: {e}"),
            }
        };
        Browser { _driver: driver, addr, session, _profile: profile }
    }

    fn call(&self, method: &str, path: &str, body: Option<&Value>) -> Value {
        let path = format!("/session/{}{path}", self.session);
        try_call(self.addr, method, &path, body).unwrap_or_else(|e| panic!("{method} {path}: {e}"))
    }

    pub fn open(&self, url: &str) {
        self.call("POST", "/url", Some(&json!({ "url": url })));
    }

    pub fn url(&self) -> String {
        self.call("GET", "/url", None).as_str().unwrap().to_string()
    }

    pub fn back(&self) {
        self.call("POST", "/back", Some(&json!({})));
    }

    /// Runs `script` (a function body; `arguments` holds `args`) and returns its value.
    pub fn run(&self, script: &str, args: Value) -> Value {
        self.call("POST", "/execute/sync", Some(&json!({ "script": script, "args": args })))
    }

    /// The first element `css` selects.
    pub fn find(&self, css: &str) -> String {
        let found = self.call("POST", "/element", Some(&json!({ "using": "css selector", "value": css })));
        found[ELEMENT].as_str().unwrap_or_else(|| panic!("no element {css}")).to_string()
    }

    pub fn click(&self, css: &str) {
        let id = self.find(css);
        self.call("POST", &format!("/element/{id}/click"), Some(&json!({})));
    }

    pub fn text(&self, css: &str) -> String {
        let id = self.find(css);
        self.call("GET", &format!("/element/{id}/text"), None).as_str().unwrap().to_string()
    }

    /// Types `text` into the element `css` selects.
    pub fn type_into(&self, css: &str, text: &str) {
        let id = self.find(css);
        self.call("POST", &format!("/element/{id}/clear"), Some(&json!({})));
        self.call("POST", &format!("/element/{id}/value"), Some(&json!({ "text": text })));
    }

    /// Presses and releases a key (a WebDriver key code such as `"\u{E014}"`, →).
    pub fn press(&self, key: &str) {
        let actions = json!({"actions": [{"type": "key", "id": "keyboard", "actions": [
            {"type": "keyDown", "value": key}, {"type": "keyUp", "value": key},
        ]}]});
        self.call("POST", "/actions", Some(&actions));
    }

    /// Waits until `script` (a function body) returns true, for at most `seconds`.
    pub fn wait_for(&self, script: &str, seconds: u64) {
        let started = Instant::now();
        while self.run(script, json!([])) != Value::Bool(true) {
            assert!(started.elapsed() < Duration::from_secs(seconds), "timed out waiting for: {script}");
            std::thread::sleep(Duration::from_millis(25));
        }
    }

    /// A PNG of the window.
    pub fn screenshot(&self) -> Vec<u8> {
        let encoded = self.call("GET", "/screenshot", None);
        base64(encoded.as_str().unwrap())
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = try_call(self.addr, "DELETE", &format!("/session/{}", self.session), None);
    }
}

fn try_call(addr: SocketAddr, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}",
        addr.port(),
        body.len()
    );
    let answer = http::raw(addr, &head, body.as_bytes()).map_err(|e| e.to_string())?;
    let json: Value = serde_json::from_slice(&answer.body).map_err(|e| format!("{e}: {}", answer.text()))?;
    if answer.status != 200 {
        return Err(format!("{}: {}", answer.status, json["value"]));
    }
    Ok(json["value"].clone())
}

/// Decodes standard base64 (the screenshot's encoding).
fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut bits, mut count) = (0u32, 0);
    for v in text.bytes().filter_map(value) {
        bits = (bits << 6) | u32::from(v);
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
        }
    }
    out
}
