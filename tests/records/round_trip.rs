//! Every game that reads and replays without a problem, written by every writer (KIF in UTF-8
//! and in Shift_JIS, KI2 in both, CSA, JKF, USI, Western) and read back through
//! [`kifu::read_file`] (decoding and format detection included), is the same game: the same
//! start, the same replayed moves, the same result where the format can state it, and the
//! same headers where the format can hold them. Over every fixture always, and over every
//! file of the corpus when it is present.
//!
//! The expected game is the one read from the original file, in its own format: the check is
//! a round trip through a second format, not a comparison with the writer's own idea.

use std::path::Path;

use kifudex::{
    kifu::{self, Format, Game, Info, Outcome, Termination, encoding},
    replay::{ReplayedGame, replay},
    shogi::{Position, Setup},
};

/// A writer under test: a name, the format, whether the bytes are Shift_JIS, and the file
/// name the text is read back as (its extension is only a hint to detection).
pub struct Writer {
    pub name: &'static str,
    pub format: Format,
    pub cp932: bool,
    pub file: &'static str,
}

/// Every writer, with the encodings files of its format come in.
pub const WRITERS: [Writer; 8] = [
    Writer { name: "kif-utf8", format: Format::Kif, cp932: false, file: "back.kifu" },
    Writer { name: "kif-cp932", format: Format::Kif, cp932: true, file: "back.kif" },
    Writer { name: "ki2-utf8", format: Format::Ki2, cp932: false, file: "back.ki2u" },
    Writer { name: "ki2-cp932", format: Format::Ki2, cp932: true, file: "back.ki2" },
    Writer { name: "csa", format: Format::Csa, cp932: false, file: "back.csa" },
    Writer { name: "jkf", format: Format::Jkf, cp932: false, file: "back.jkf" },
    Writer { name: "usi", format: Format::Usi, cp932: false, file: "back.usi" },
    Writer { name: "western", format: Format::Western, cp932: false, file: "back.psn" },
];

/// Whether `format` can state the result replay gave. KIF and KI2 have a word for every
/// ending but one stated without its cause (`Unknown`), which only their `まで` line holds
/// when it names the winner; CSA and JKF have a word for every ending whose meaning is the
/// usual one (the side to move resigned, was mated …); USI only resignation, an
/// entering-king win and a draw; Western text every one (as a `Result` and a `Termination`
/// tag).
pub fn holds_result(format: Format, r: &ReplayedGame) -> bool {
    let to_move = r.end.turn;
    let Some(termination) = r.termination else { return true };
    let wins = |side| r.outcome == Some(Outcome::Win(side));
    match format {
        Format::Western => true,
        Format::Kif | Format::Ki2 => match termination {
            // 中断 is the word for all three.
            Termination::Error | Termination::TakeBack => false,
            Termination::Unknown => matches!(r.outcome, Some(Outcome::Win(_))),
            _ => true,
        },
        Format::Usi => {
            (termination == Termination::Resign && wins(to_move.flip()))
                || (termination == Termination::EnteringKing && wins(to_move))
                || (termination == Termination::Draw && r.outcome == Some(Outcome::Draw))
        }
        // JKF has CSA V2.2's words only: a perpetual check is the foul of the side that gave
        // the checks.
        Format::Jkf if termination == Termination::PerpetualCheck => {
            matches!(r.outcome, Some(Outcome::Win(_)))
        }
        Format::Csa | Format::Jkf => match termination {
            Termination::Resign | Termination::Timeout | Termination::Checkmate => wins(to_move.flip()),
            Termination::EnteringKing | Termination::PerpetualCheck => wins(to_move),
            Termination::IllegalMove => matches!(r.outcome, Some(Outcome::Win(_))),
            Termination::Repetition | Termination::Impasse | Termination::Draw | Termination::MaxMoves => {
                r.outcome == Some(Outcome::Draw)
            }
            Termination::Interrupted | Termination::NoMate | Termination::Error | Termination::TakeBack => {
                r.outcome.is_none()
            }
            Termination::Sealed | Termination::Forfeit | Termination::Stalemate | Termination::Unknown => {
                false
            }
        },
    }
}

/// Whether two starts are the same as far as `format` can tell: CSA and JKF have no move
/// number (a position set up after a few moves starts at 1).
fn same_start(format: Format, a: &Setup, b: &Setup) -> bool {
    match format {
        Format::Csa | Format::Jkf => a.position_text() == b.position_text(),
        _ => a == b,
    }
}

/// Whether the read-back result is the original's. KI2 states a won game's result only as
/// `まで…手で先手の勝ち`, which reads as checkmate when the final position is mate: a loser
/// who resigned in a mated position reads back as mated.
fn same_result(format: Format, original: &ReplayedGame, back: &ReplayedGame) -> bool {
    if (back.termination, back.outcome) == (original.termination, original.outcome) {
        return true;
    }
    // JKF's schema has no word for a perpetual check or the move limit: one the moves do not
    // show is a foul, the other a draw.
    let jkf_word = matches!(
        (original.termination, back.termination),
        (Some(Termination::PerpetualCheck), Some(Termination::IllegalMove))
            | (Some(Termination::MaxMoves), Some(Termination::Draw))
    );
    if format == Format::Jkf && back.outcome == original.outcome && jkf_word {
        return true;
    }
    format == Format::Ki2
        && back.outcome == original.outcome
        && (original.termination, back.termination)
            == (Some(Termination::Resign), Some(Termination::Checkmate))
        && Position::from_setup(original.end.clone()).is_ok_and(|p| p.is_checkmate())
}

/// The part of `info` that `format` holds. Players compare by name and title: a format with
/// one name field (CSA) writes a separately given grade after the name.
pub fn held(format: Format, info: &Info) -> Info {
    let mut info = match format {
        Format::Usi => Info::default(),
        Format::Western => Info { end: None, ..info.clone() },
        // CSA has lines for a time control in two forms only, the first with two digits to a
        // number; other text is a comment.
        Format::Csa => Info {
            time_control: info.time_control.as_deref().and_then(|tc| match clock(tc) {
                Some([h, m, s]) => Some(format!("{h:02}:{m:02}+{s:02}")),
                None => csa_time(tc).then(|| tc.to_string()),
            }),
            ..info.clone()
        },
        _ => info.clone(),
    };
    for p in [&mut info.black, &mut info.white].into_iter().flatten() {
        p.full.clear();
    }
    info
}

/// Whether `text` is what CSA V2.2 defines for `$TIME_LIMIT`: `hh:mm+ss` (`00:25+00`), two
/// digits of minutes, and two or more of hours and of seconds.
fn csa_time_limit(text: &str) -> bool {
    let b = text.as_bytes();
    let Some(colon) = text.find(':') else { return false };
    let Some(plus) = text.find('+') else { return false };
    colon >= 2
        && plus == colon + 3
        && b.len() - plus > 2
        && b.iter().enumerate().all(|(i, c)| i == colon || i == plus || c.is_ascii_digit())
}

/// The hours, minutes and seconds of a time control written `h:m+s`, with one or two digits
/// of minutes (`1:30+60`, a `$TIME_LIMIT` written loosely).
fn clock(text: &str) -> Option<[u32; 3]> {
    let mut numbers = text.split([':', '+']);
    let [h, m, s] = [numbers.next()?, numbers.next()?, numbers.next()?];
    let plain = [h, m, s].iter().all(|n| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()));
    let shape = text.find(':')? < text.find('+')? && m.len() <= 2 && numbers.next().is_none();
    (plain && shape).then(|| Some([h.parse().ok()?, m.parse().ok()?, s.parse().ok()?])).flatten()
}

/// Whether `text` is what CSA V3.0 defines for `$TIME`: seconds of time, byoyomi and
/// increment, joined by `+`, each with or without a decimal fraction (`600+10+0`).
fn csa_time(text: &str) -> bool {
    let parts: Vec<&str> = text.split('+').collect();
    parts.len() == 3
        && parts.iter().all(|p| {
            let mut halves = p.splitn(2, '.');
            halves.all(|h| !h.is_empty() && h.bytes().all(|c| c.is_ascii_digit()))
        })
}

/// The `special` values of a JKF text that JKF's schema does not define: it takes CSA V2.2's
/// words for an ending, no others.
fn jkf_specials(text: &str) -> Vec<String> {
    const SPECIALS: [&str; 14] = [
        "TORYO",
        "CHUDAN",
        "SENNICHITE",
        "TIME_UP",
        "ILLEGAL_MOVE",
        "+ILLEGAL_ACTION",
        "-ILLEGAL_ACTION",
        "JISHOGI",
        "KACHI",
        "HIKIWAKE",
        "MATTA",
        "TSUMI",
        "FUZUMI",
        "ERROR",
    ];
    let mut wrong = Vec::new();
    let mut stack = vec![serde_json::from_str::<serde_json::Value>(text).unwrap_or_default()];
    while let Some(value) = stack.pop() {
        match value {
            serde_json::Value::Object(map) => {
                if let Some(special) = map.get("special") {
                    if !special.as_str().is_some_and(|s| SPECIALS.contains(&s)) {
                        wrong.push(format!("\"special\": {special} is not a JKF word"));
                    }
                }
                stack.extend(map.into_iter().map(|(_, v)| v));
            }
            serde_json::Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    wrong
}

/// What is wrong with the lines of a CSA text that give a time control: a `$TIME_LIMIT` line
/// must hold V2.2's form and a `$TIME` line V3.0's, in a text whose version line is `V3.0`;
/// a time control that fits neither is kept as a `持ち時間:` comment before the first move.
fn csa_time_lines(text: &str, game: &Game, back: &Game) -> Vec<String> {
    let mut wrong = Vec::new();
    for line in text.lines() {
        if let Some(value) = line.strip_prefix("$TIME_LIMIT:") {
            if !csa_time_limit(value) {
                wrong.push(format!("{line} is not V2.2's hh:mm+ss"));
            }
        } else if let Some(value) = line.strip_prefix("$TIME:") {
            if !csa_time(value) || !text.lines().any(|l| l == "V3.0") {
                wrong.push(format!("{line} is not V3.0's form under a V3.0 line"));
            }
        }
    }
    if let Some(tc) = game.info.time_control.as_deref().filter(|tc| clock(tc).is_none() && !csa_time(tc)) {
        // Under its own key, or under the record's (`'$TIME:…`) when it came from one.
        let kept = |c: &String| {
            c.trim()
                .split_once(':')
                .is_some_and(|(key, value)| (key == "持ち時間" || key.starts_with('$')) && value == tc)
        };
        if !back.comments.iter().any(kept) {
            wrong.push(format!("the time control {tc} was not kept as a comment in:\n{text}"));
        }
    }
    wrong
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

/// What differs between `game` (read from a file in `source` format, replayed as `original`)
/// and the game `writer` writes of it, read back; `Err` when the writer refuses the game (only
/// Shift_JIS can, for a character it lacks).
pub fn differences(
    game: &Game,
    source: Format,
    original: &ReplayedGame,
    writer: &Writer,
) -> Result<Vec<String>, String> {
    let text = kifudex::write::write(writer.format, game, original);
    let bytes = if writer.cp932 {
        encoding::encode_cp932(&text).map_err(|e| e.to_string())?
    } else {
        text.clone().into_bytes()
    };
    let mut found = Vec::new();
    let parsed = match kifu::read_file(Some(Path::new(writer.file)), &bytes) {
        Ok(parsed) => parsed,
        Err(e) => return Ok(vec![format!("{e} in:\n{text}")]),
    };
    let mut fail = |what: String| found.push(what);
    if parsed.format != writer.format {
        fail(format!("read back as {}", parsed.format));
    }
    let [back] = parsed.games.as_slice() else {
        fail(format!("{} games read back from:\n{text}", parsed.games.len()));
        return Ok(found);
    };
    if let Some(problem) = &back.problem {
        fail(format!("{problem} in:\n{text}"));
        return Ok(found);
    }
    let r = replay(back);
    if !r.status.is_complete() {
        fail(format!("{} in:\n{text}", r.status));
    }
    if !same_start(writer.format, &original.start, &r.start) {
        fail(format!("start {} became {}", original.start, r.start));
    }
    if r.moves != original.moves {
        fail(format!("{} moves became {}", original.plies(), r.plies()));
    }
    if holds_result(writer.format, original) && !same_result(writer.format, original, &r) {
        fail(format!(
            "result {:?} {:?} became {:?} {:?}",
            original.termination, original.outcome, r.termination, r.outcome
        ));
    }
    if writer.format == Format::Csa {
        found.extend(csa_time_lines(&text, game, back));
    }
    if writer.format == Format::Jkf {
        found.extend(jkf_specials(&text));
    }
    let mut fail = |what: String| found.push(what);
    if held(writer.format, &back.info) != held(writer.format, &game.info) {
        fail(format!("headers {:?} became {:?}", game.info, back.info));
    }
    // The record's time and comments for its ending, where the format writes the ending and
    // holds them: comments in every format but USI, the time in KIF, CSA and JKF.
    if let (Some(own), Some(again)) = (&game.ending, &back.ending) {
        let times = matches!(writer.format, Format::Kif | Format::Csa | Format::Jkf);
        if times && holds_result(writer.format, original) && again.seconds != own.seconds {
            fail(format!("the ending's time {:?} became {:?}", own.seconds, again.seconds));
        }
        let changed = writer.format == Format::Western && own.comments.iter().any(|c| c.contains(['~', '}']));
        // JKF writes the notes on a foul that ended the game with the ending, before its own.
        let (own_lines, back_lines) = (lines(&own.comments), lines(&again.comments));
        let kept = if writer.format == Format::Jkf && original.illegal_ending.is_some() {
            back_lines.ends_with(&own_lines)
        } else {
            back_lines == own_lines
        };
        if writer.format != Format::Usi && !changed && !kept {
            fail(format!("the ending's comments {:?} became {:?}", own.comments, again.comments));
        }
    }
    if writer.format == source {
        for h in game.headers.iter().filter(|h| kept_raw(source, &h.key)) {
            if !back.headers.contains(h) {
                fail(format!("header {}: {} was lost", h.key, h.value));
            }
        }
    }
    Ok(found)
}

/// The lines of comments, each without the spaces and tabs at its ends (which CSA and Western
/// text do not keep), empty ones left out.
fn lines(comments: &[String]) -> Vec<&str> {
    comments
        .iter()
        .flat_map(|c| c.lines())
        .map(|l| l.trim_matches([' ', '\t']))
        .filter(|l| !l.is_empty())
        .collect()
}

/// Counts of one run over a set of files.
#[derive(Debug, Default)]
pub struct Tally {
    /// Games that read and replay without a problem, each checked through every writer.
    pub games: usize,
    /// Games a Shift_JIS writer refused, with the reason.
    pub refused: Vec<String>,
    pub differences: Vec<String>,
}

/// Checks every game of every file under `root` through every writer.
pub fn check_tree(root: &Path) -> Tally {
    let mut tally = Tally::default();
    for entry in walkdir::WalkDir::new(root).sort_by_file_name() {
        let entry = entry.expect("a readable directory");
        if !entry.file_type().is_file() || entry.path().extension().is_some_and(|e| e == "md" || e == "py") {
            continue;
        }
        let rel = entry.path().strip_prefix(root).unwrap_or(entry.path()).display().to_string();
        let bytes = std::fs::read(entry.path()).expect("a readable file");
        let Ok(parsed) = kifu::read_file(Some(entry.path()), &bytes) else { continue };
        for (i, game) in parsed.games.iter().enumerate() {
            let original = replay(game);
            if game.problem.is_some() || !original.status.is_complete() {
                continue;
            }
            tally.games += 1;
            for writer in &WRITERS {
                match differences(game, parsed.format, &original, writer) {
                    Ok(found) => tally.differences.extend(
                        found.into_iter().map(|d| format!("{rel} game {i} via {}: {d}", writer.name)),
                    ),
                    Err(e) => tally.refused.push(format!("{rel} game {i} via {}: {e}", writer.name)),
                }
            }
        }
    }
    tally
}

#[test]
fn fixtures_round_trip_through_every_writer() {
    let tally = check_tree(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/kifu"));
    assert!(tally.games >= 140, "only {} games checked", tally.games);
    assert!(tally.differences.is_empty(), "{}", tally.differences.join("\n\n"));
    assert!(tally.refused.is_empty(), "{}", tally.refused.join("\n"));
}

#[test]
fn corpus_round_trips_through_every_writer() {
    let Some(root) = crate::corpus::corpus_root() else { return };
    let tally = check_tree(&root);
    eprintln!(
        "corpus round trips: {} games x {} writers; {} refused by Shift_JIS",
        tally.games,
        WRITERS.len(),
        tally.refused.len()
    );
    for refusal in &tally.refused {
        eprintln!("  {refusal}");
    }
    assert!(tally.games >= 300, "only {} games checked", tally.games);
    assert!(tally.differences.is_empty(), "{}", tally.differences.join("\n\n"));
}
