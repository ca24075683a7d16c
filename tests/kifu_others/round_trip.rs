//! Every game that reads and replays without a problem, written by each of the CSA, JKF, USI
//! and Western writers and read back, is the same game: the same start, the same replayed
//! moves, the same result where the format can state it, and the same headers where the
//! format can hold them. Over the fixtures always, over the corpus when it is present.

use std::path::{Path, PathBuf};

use kifudex::{
    kifu::{Format, Game, Info, Outcome, Termination},
    replay::{ReplayedGame, replay},
};

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

/// Whether `format` can state the result replay gave: CSA and JKF have a word for every
/// ending whose meaning is the usual one (the side to move resigned, was mated …), USI only
/// resignation, an entering-king win and a draw, Western text every one.
fn holds_result(format: Format, r: &ReplayedGame) -> bool {
    let to_move = r.end.turn;
    let Some(termination) = r.termination else { return true };
    match format {
        Format::Western => true,
        Format::Usi => {
            matches!(
                (termination, r.outcome),
                (Termination::Resign, Some(Outcome::Win(w))) if w != to_move
            ) || matches!((termination, r.outcome), (Termination::EnteringKing, Some(Outcome::Win(w))) if w == to_move)
                || (termination, r.outcome) == (Termination::Draw, Some(Outcome::Draw))
        }
        _ => match termination {
            Termination::Resign | Termination::Timeout | Termination::Checkmate => {
                r.outcome == Some(Outcome::Win(to_move.flip()))
            }
            Termination::EnteringKing | Termination::PerpetualCheck => {
                r.outcome == Some(Outcome::Win(to_move))
            }
            Termination::IllegalMove => matches!(r.outcome, Some(Outcome::Win(_))),
            Termination::Repetition | Termination::Impasse | Termination::Draw | Termination::MaxMoves => {
                r.outcome == Some(Outcome::Draw)
            }
            Termination::Interrupted | Termination::NoMate | Termination::Error => r.outcome.is_none(),
            Termination::Sealed | Termination::Forfeit | Termination::Unknown => false,
        },
    }
}

/// The part of `info` that `format` holds. Players compare by name and title: a format with
/// one name field (CSA) writes a separately given grade after the name.
fn held(format: Format, info: &Info) -> Info {
    let mut info = match format {
        Format::Usi => Info::default(),
        Format::Western => Info { end: None, ..info.clone() },
        _ => info.clone(),
    };
    for p in [&mut info.black, &mut info.white].into_iter().flatten() {
        p.full.clear();
    }
    info
}

/// Raw headers that a same-format round trip must keep as they are: those that feed no
/// normalized field.
fn kept_raw(format: Format, key: &str) -> bool {
    let normalized: &[&str] = match format {
        Format::Csa => &[
            "V",
            "N+",
            "N-",
            "$EVENT",
            "$SITE",
            "$START_TIME",
            "$START",
            "$END_TIME",
            "$TIME_LIMIT",
            "$TIME",
            "$OPENING",
        ],
        Format::Jkf => &[
            "棋戦",
            "場所",
            "開始日時",
            "終了日時",
            "持ち時間",
            "先手",
            "後手",
            "下手",
            "上手",
            "戦型",
            "手合割",
        ],
        Format::Western => &[
            "Event",
            "Site",
            "Date",
            "Time",
            "Sente",
            "Gote",
            "Black",
            "White",
            "TimeControl",
            "Opening",
            "Result",
            "Termination",
            "SFEN",
            "FEN",
            "Handicap",
        ],
        _ => &[],
    };
    !normalized.contains(&key)
}

/// Writes `game` in every format, reads it back, and lists what differs.
fn differences(label: &str, source: Format, game: &Game) -> Vec<String> {
    let original = replay(game);
    let mut found = Vec::new();
    for format in FORMATS {
        let mut fail = |what: String| found.push(format!("{label} via {format}: {what}"));
        let text = write(format, game, &original);
        let games = read(format, &text);
        let [back] = games.as_slice() else {
            fail(format!("{} games read back from:\n{text}", games.len()));
            continue;
        };
        if let Some(problem) = &back.problem {
            fail(format!("{problem} in:\n{text}"));
            continue;
        }
        let r = replay(back);
        if !r.status.is_complete() {
            fail(format!("{} in:\n{text}", r.status));
        }
        if r.start.position_text() != original.start.position_text() {
            fail(format!("start {} became {}", original.start, r.start));
        }
        if r.moves != original.moves {
            fail(format!("{} moves became {}", original.plies(), r.plies()));
        }
        if holds_result(format, &original)
            && (r.termination, r.outcome) != (original.termination, original.outcome)
        {
            fail(format!(
                "result {:?} {:?} became {:?} {:?}",
                original.termination, original.outcome, r.termination, r.outcome
            ));
        }
        if held(format, &back.info) != held(format, &game.info) {
            fail(format!("headers {:?} became {:?}", game.info, back.info));
        }
        if format == source {
            for h in game.headers.iter().filter(|h| kept_raw(format, &h.key)) {
                if !back.headers.contains(h) {
                    fail(format!("header {}: {} was lost", h.key, h.value));
                }
            }
        }
    }
    found
}

/// Checks every game of the files under `dir`; returns the number of games checked and the
/// differences found.
fn check_dir(dir: &Path) -> (usize, Vec<String>) {
    let mut files = Vec::new();
    collect(dir, &mut files);
    files.sort();
    let mut checked = 0;
    let mut found = Vec::new();
    for path in files {
        let Some(format) = format_of(&path) else { continue };
        let text = decode(&std::fs::read(&path).expect("a readable file"));
        for (i, game) in read(format, &text).iter().enumerate() {
            if game.problem.is_some() || !replay(game).status.is_complete() {
                continue;
            }
            checked += 1;
            found.extend(differences(&format!("{}#{i}", path.display()), format, game));
        }
    }
    (checked, found)
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

#[test]
fn fixtures_round_trip_through_every_writer() {
    let (checked, found) = check_dir(&data());
    assert!(checked >= 25, "only {checked} games checked");
    assert!(found.is_empty(), "{}", found.join("\n\n"));
}

#[test]
fn corpus_round_trips_through_every_writer() {
    let Some(corpus) = crate::corpus::corpus_root() else { return };
    let (checked, found) = check_dir(&corpus);
    eprintln!("corpus round trips: {checked} games checked");
    assert!(found.is_empty(), "{}", found.join("\n\n"));
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
