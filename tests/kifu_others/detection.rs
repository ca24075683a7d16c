//! Format detection tells the CSA, JKF, USI and Western fixtures, and what each of their
//! writers writes, apart. (The round trips through every writer are in `records`.)

use std::path::{Path, PathBuf};

use kifudex::{kifu::Format, replay::replay};

use super::{data, decode, read, write};

const FORMATS: [Format; 4] = [Format::Csa, Format::Jkf, Format::Usi, Format::Western];

/// The format of one of this module's files, by extension.
fn format_of(path: &Path) -> Option<Format> {
    match path.extension()?.to_str()? {
        "csa" => Some(Format::Csa),
        "jkf" | "json" => Some(Format::Jkf),
        "usi" | "sfen" | "usen" => Some(Format::Usi),
        "psn" => Some(Format::Western),
        _ => None,
    }
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable directory").flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// The formats whose `looks_like` says yes to `text`.
fn detected(text: &str) -> Vec<Format> {
    FORMATS
        .into_iter()
        .filter(|&f| match f {
            Format::Csa => kifudex::kifu::csa::looks_like(text),
            Format::Jkf => kifudex::kifu::jkf::looks_like(text),
            Format::Usi => kifudex::kifu::usi::looks_like(text),
            _ => kifudex::kifu::western::looks_like(text),
        })
        .collect()
}

#[test]
fn formats_are_told_apart() {
    let mut files = Vec::new();
    collect(&data(), &mut files);
    for path in files {
        let Some(format) = format_of(&path) else { continue };
        let text = decode(&std::fs::read(&path).expect("a readable file"));
        assert_eq!(detected(&text), [format], "{}", path.display());
    }
    let game = &read(Format::Csa, &super::fixture("csa/example.csa"))[0];
    let r = replay(game);
    for format in FORMATS {
        let text = write(format, game, &r);
        assert_eq!(detected(&text), [format], "{text}");
    }
}
