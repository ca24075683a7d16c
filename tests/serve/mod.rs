//! `kifudex serve`, run as the real binary on a database of the bundled samples: every endpoint
//! compared with the command line's answer to the same question, the refusals of bad and
//! hostile requests, and the page driven in a real browser.

mod api;
mod browser;
mod browser_steps;
pub mod http;
mod labels;
mod security;
mod server;
pub mod webdriver;

pub use self::server::Server;

use std::{
    path::{Path, PathBuf},
    sync::OnceLock,
};

use crate::util::kifudex;

/// A database of the bundled samples, two records with comments and a yari shogi game, built
/// once.
pub fn samples_db() -> &'static Path {
    static DB: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    &DB.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("k.sqlite");
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let paths = [
            "samples",
            "tests/data/kifu/handmade-comment.kifu",
            "tests/data/kifu/last_comment.kif",
            "tests/data/yari/opening.psn",
        ]
        .map(|p| root.join(p).to_string_lossy().to_string());
        let mut args = vec!["index", "--quiet", "--db", db.to_str().unwrap()];
        args.extend(paths.iter().map(String::as_str));
        let out = kifudex(&args).output();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        (dir, db)
    })
    .1
}

/// SIGINT stops a server started with it ignored, as a script's shell starts a job in the
/// background, with the status the signal gives (130); so does SIGTERM.
#[cfg(unix)]
#[test]
fn a_server_started_with_sigint_ignored_stops_on_it() {
    for (signal, status) in [("-INT", 130), ("-TERM", 143)] {
        let mut cmd = crate::util::wrapper("sh");
        // `exec` keeps the ignored signal, and the process id.
        cmd.args(["-c", "trap '' INT TERM; exec \"$0\" serve --port 0 --db \"$1\""])
            .arg(crate::util::exe())
            .arg(samples_db());
        let mut server = Server::spawn(cmd);
        let sent =
            std::process::Command::new("kill").args([signal, &server.pid().to_string()]).status().unwrap();
        assert!(sent.success());
        let ended = server.ended_within(std::time::Duration::from_secs(20));
        assert_eq!(ended.and_then(|s| s.code()), Some(status), "{signal}: {ended:?}");
    }
}
