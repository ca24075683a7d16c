//! `kifudex serve`, run as the real binary on a database of the bundled samples: every endpoint
//! compared with the command line's answer to the same question, the refusals of bad and
//! hostile requests, and the page driven in a real browser.

mod api;
mod browser;
pub mod http;
mod security;
pub mod webdriver;

use std::{
    io::{BufRead, BufReader},
    net::SocketAddr,
    path::{Path, PathBuf},
    process::{Child, Command, Output, Stdio},
    sync::OnceLock,
};

/// A database of the bundled samples and two records with comments, built once.
pub fn samples_db() -> &'static Path {
    static DB: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    &DB.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("k.sqlite");
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let paths = ["samples", "tests/data/kifu/handmade-comment.kifu", "tests/data/kifu/last_comment.kif"]
            .map(|p| root.join(p).to_string_lossy().to_string());
        let mut args = vec!["index", "--quiet", "--db", db.to_str().unwrap()];
        args.extend(paths.iter().map(String::as_str));
        let out = kifudex(&args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        (dir, db)
    })
    .1
}

pub fn kifudex(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kifudex")).args(args).output().expect("the kifudex binary runs")
}

/// A running `kifudex serve`, stopped when dropped.
pub struct Server {
    child: Child,
    pub addr: SocketAddr,
    /// What it printed on stderr before it was ready.
    pub banner: String,
}

impl Server {
    /// Starts the server on `db` with `args` besides, on a free port, and waits until it
    /// prints its address.
    pub fn start(db: &Path, args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kifudex"))
            .args(["serve", "--port", "0", "--db"])
            .arg(db)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("kifudex serve starts");
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut banner = String::new();
        let url = loop {
            let mut line = String::new();
            if stderr.read_line(&mut line).unwrap() == 0 {
                let _ = child.kill();
                panic!("kifudex serve stopped: {banner}");
            }
            banner.push_str(&line);
            if let Some(at) = line.find("http://") {
                break line[at + 7..].split('/').next().unwrap().to_string();
            }
        };
        // Keep reading stderr, so the server never blocks on a full pipe.
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        let addr = url.parse().unwrap_or_else(|_| panic!("an address in {banner}"));
        Server { child, addr, banner }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
