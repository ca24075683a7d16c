//! A stand-in record reader for the index tests and benchmark: one game per
//! `position startpos|sfen … moves …` line, preceded by optional `# key: value` header lines
//! (`black`, `white`, `event`, `site`, `date` as `YYYY/MM/DD[ hh:mm[:ss]]`, `result` as
//! `black|white|draw`, `times` as seconds per move). It lets the tests drive the pipeline
//! with games whose moves are known, whatever the real readers do.

use std::path::Path;

use kifudex::{
    kifu::{
        DateTime, Ending, FileError, Format, Game, Header, Info, MoveEntry, Outcome, ParsedFile, Player,
        ReadProblem, Start, Termination, usi::UsiError,
    },
    notation::MoveToken,
    shogi::{Color, Handicap, Move, Setup},
};

/// Reads `bytes` as USI lines.
pub fn read(path: Option<&Path>, bytes: &[u8]) -> Result<ParsedFile, FileError> {
    let _ = path;
    let text = std::str::from_utf8(bytes).map_err(|e| FileError::Decode(e.to_string()))?;
    if text.trim().is_empty() {
        return Err(FileError::Empty);
    }
    let mut games = Vec::new();
    let mut headers: Vec<Header> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i as u32 + 1;
        let line = line.trim();
        if let Some(h) = line.strip_prefix('#') {
            if let Some((k, v)) = h.split_once(':') {
                headers.push(Header { key: k.trim().to_string(), value: v.trim().to_string() });
            }
            continue;
        }
        let Some(rest) = line.strip_prefix("position ") else {
            if line.is_empty() {
                continue;
            }
            return Err(FileError::UnknownFormat);
        };
        games.push(game(rest, line_no, std::mem::take(&mut headers)));
    }
    if games.is_empty() {
        return Err(FileError::UnknownFormat);
    }
    Ok(ParsedFile { format: Format::Usi, encoding: "utf-8", games })
}

fn game(rest: &str, line: u32, headers: Vec<Header>) -> Game {
    let (start_text, moves_text) = match rest.split_once(" moves") {
        Some((s, m)) => (s.trim(), m.trim()),
        None => (rest.trim(), ""),
    };
    let mut g = Game { line, ..Game::default() };
    g.start = if start_text == "startpos" {
        Start::Standard(Handicap::Even)
    } else {
        match start_text.strip_prefix("sfen ").unwrap_or(start_text).parse::<Setup>() {
            Ok(setup) => match Handicap::find(&setup) {
                Some(h) => Start::Standard(h),
                None => Start::Custom(setup),
            },
            Err(e) => {
                g.problem = Some(ReadProblem::new(line, UsiError::Sfen(e)));
                return g;
            }
        }
    };
    let value = |key: &str| headers.iter().find(|h| h.key == key).map(|h| h.value.clone());
    let player = |v: Option<String>| v.map(|full| Player { name: full.clone(), full, title: None });
    let times: Vec<u32> = value("times")
        .map(|t| t.split_whitespace().filter_map(|s| s.parse().ok()).collect())
        .unwrap_or_default();
    for (i, token) in moves_text.split_whitespace().enumerate() {
        match token.parse::<Move>() {
            Ok(mv) => g.moves.push(MoveEntry {
                token: MoveToken::Usi(mv),
                line,
                seconds: times.get(i).copied(),
                comments: Vec::new(),
            }),
            Err(_) => {
                g.problem = Some(ReadProblem::new(line, UsiError::Move(token.to_string())));
                break;
            }
        }
    }
    g.info = Info {
        event: value("event"),
        site: value("site"),
        start: value("date").and_then(|d| date(&d)),
        black: player(value("black")),
        white: player(value("white")),
        ..Info::default()
    };
    g.ending = value("result").and_then(|r| {
        let (termination, outcome) = match r.as_str() {
            "black" => (Termination::Resign, Outcome::Win(Color::Black)),
            "white" => (Termination::Resign, Outcome::Win(Color::White)),
            "draw" => (Termination::Repetition, Outcome::Draw),
            _ => return None,
        };
        Some(Ending { termination, side: None, stated: Some(outcome), text: r.clone(), line })
    });
    // `times` is this stand-in's way to give move times, not a header of the record.
    g.headers = headers.into_iter().filter(|h| h.key != "times").collect();
    g
}

fn date(text: &str) -> Option<DateTime> {
    let (day, time) = text.split_once(' ').unwrap_or((text, ""));
    let mut parts = day.split('/').map(|p| p.parse::<u32>().ok());
    let year = parts.next()?? as i32;
    let month = parts.next().flatten().map(|m| m as u8);
    let day = parts.next().flatten().map(|d| d as u8);
    let mut t = time.split(':').map(|p| p.parse::<u8>().ok());
    let time = match (t.next().flatten(), t.next().flatten()) {
        (Some(h), Some(m)) => Some((h, m, t.next().flatten().unwrap_or(0))),
        _ => None,
    };
    Some(DateTime { year, month, day, time })
}
