//! Every KIF and KI2 file of the corpus, written by the KIF and KI2 writers and read back; and
//! every corpus file decoded. (Reading and replaying against the expectations is the main
//! corpus test's work.) Present means run; with `CI=true` the corpus must be present.

use std::collections::BTreeMap;

use kifudex::kifu::{encoding, ki2, kif};

use super::round_trip;
use crate::corpus::corpus_root;

#[test]
fn corpus_kakinoki_files_round_trip() {
    let Some(root) = corpus_root() else { return };
    let mut failures = Vec::new();
    let mut trips = 0;
    for entry in walkdir::WalkDir::new(&root).sort_by_file_name() {
        let entry = entry.expect("readable corpus");
        let path = entry.path();
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or_default();
        let reader: fn(&str) -> Vec<kifudex::kifu::Game> = match ext {
            "kif" | "kifu" => kif::read,
            "ki2" | "ki2u" => ki2::read,
            _ => continue,
        };
        let rel = path.strip_prefix(&root).expect("under the root").display().to_string();
        let bytes = std::fs::read(path).expect("readable corpus file");
        let text = encoding::decode(&bytes).expect("the corpus decodes").text;
        for game in reader(&text).iter().filter(|g| g.problem.is_none()) {
            match round_trip::check(game, ext.starts_with("ki2")) {
                Ok(true) => trips += 1,
                Ok(false) => {}
                Err(e) => failures.push(format!("{rel}: round trip: {e}")),
            }
        }
    }
    eprintln!("KIF/KI2 corpus: {trips} round trips");
    assert!(trips > 150, "only {trips} games round-tripped");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn corpus_files_all_decode() {
    let Some(root) = corpus_root() else { return };
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for entry in walkdir::WalkDir::new(&root).sort_by_file_name() {
        let entry = entry.expect("readable corpus");
        if !entry.file_type().is_file() || entry.file_name() == "SOURCES.md" {
            continue;
        }
        let bytes = std::fs::read(entry.path()).expect("readable corpus file");
        let d = encoding::decode(&bytes).unwrap_or_else(|e| panic!("{}: {e}", entry.path().display()));
        *counts.entry(d.encoding.name()).or_default() += 1;
        if entry.file_name() == "2005_YAMADA_GPS.csa" {
            assert_eq!(d.encoding.name(), "euc-jp");
            assert!(d.text.contains("山田将棋"));
        }
    }
    eprintln!("corpus encodings: {counts:?}");
    assert_eq!(counts.get("euc-jp"), Some(&1));
}
