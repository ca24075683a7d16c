//! `kifudex serve`, run as the real binary on a database of the bundled samples: every endpoint
//! compared with the command line's answer to the same question, the refusals of bad and
//! hostile requests, and the page driven in a real browser.

mod api;
mod browser;
pub mod http;
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
