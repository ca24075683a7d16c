//! A stored game for the page's viewer: its headers and normalized fields, its start, its
//! ending, and every ply with the move in three notations, the position after it, the time
//! it took and the comments after it.

use serde_json::{Value, json};

use super::api::ApiError;
use crate::{
    db::{Corrupt, StoredGame, comments_at, ending_ply},
    kifu::Format,
    notation::{Style, write},
    shogi::Position,
    store::{stop_note, stored_replay},
    write::lost::{Lost, parts_note},
};

/// The game as JSON: `{"id", "black", "white", …, "start", "result", "termination",
/// "comment", "foul", "foul_time", "foul_comment", "ending_time", "ending_comment", "headers":
/// [{"key", "value"}], "plies": [{"ply", "usi", "japanese", "western", "sfen", "time",
/// "comment"}], "formats", "left_out"}`, where `foul` is the illegal move the record wrote
/// after the last ply, which ended the game, as written, with its time and comments, and
/// `ending_time` and `ending_comment` are the record's for its ending (each `null` when the
/// record gives none), `formats` are the extensions of the record formats that can
/// hold the game (`/api/game/ID.EXT`), and `left_out` holds, for each of those that loses
/// something of it, what (`{"usi": ["its ending (…) is left out: …", "note: the headers are
/// left out: …"]}`), as `kifudex show` says it.
///
/// # Errors
///
/// 500 when its stored moves do not replay.
pub fn describe(stored: &StoredGame) -> Result<Value, ApiError> {
    let corrupt = |what| ApiError::from(crate::db::Error::from(Corrupt(what)));
    let mut pos = Position::from_setup(stored.start.clone())
        .map_err(|_| corrupt("a stored start is not a legal position"))?;
    let comment_at = |ply: u32| comments_at(&stored.comments, ply);
    let mut plies = Vec::with_capacity(stored.moves.len());
    let mut previous = None;
    for (i, &mv) in stored.moves.iter().enumerate() {
        let japanese = write(&pos, mv, previous, Style::Japanese);
        let western = write(&pos, mv, previous, Style::Western);
        pos.play(mv).map_err(|_| corrupt("a stored move is illegal"))?;
        previous = Some(mv.to());
        let ply = i as u32 + 1;
        plies.push(json!({
            "ply": ply,
            "usi": mv.to_string(),
            "japanese": japanese,
            "western": western,
            "sfen": pos.sfen(),
            "time": stored.times.get(i).copied().flatten(),
            "comment": comment_at(ply),
        }));
    }
    let row = &stored.row;
    let headers: Vec<Value> =
        stored.info.headers.iter().map(|(key, value)| json!({ "key": key, "value": value })).collect();
    let held = formats_holding(stored);
    let formats: Vec<&str> = held.iter().map(|f| f.extension()).collect();
    // What each download loses, said as `show` says it.
    let (record, replayed) = stored_replay(stored).map_err(|_| corrupt("a stored move is illegal"))?;
    let mut left_out = serde_json::Map::new();
    let stopped = stop_note(stored);
    for format in held {
        let lost = Lost::of(format, &record, &replayed);
        let mut said: Vec<String> = stopped.iter().cloned().chain(lost.warnings).collect();
        if !lost.parts.is_empty() {
            said.push(format!("note: {}", parts_note(format, &lost.parts)));
        }
        if !said.is_empty() {
            left_out.insert(format.extension().to_string(), said.into());
        }
    }
    // The plies after which the foul the record wrote, and its ending, come.
    let foul_at = stored.foul.is_some().then_some(stored.moves.len() as u32);
    let ending_at = ending_ply(stored.moves.len(), stored.foul.as_deref());
    Ok(json!({
        "id": row.id.0,
        "black": row.black,
        "white": row.white,
        "black_title": stored.info.black_title,
        "white_title": stored.info.white_title,
        "event": row.event,
        "site": stored.info.site,
        "date": row.date,
        "end_date": stored.info.end_date,
        "time_control": stored.info.time_control,
        "opening": stored.info.opening,
        "handicap": stored.handicap.map(|h| h.japanese()),
        "start": stored.start.to_string(),
        "result": row.result.name(),
        "termination": stored.termination,
        "stopped": stored.stop.as_ref().map(|stop| json!({
            "code": stop.code,
            "ply": stop.ply,
            "message": stop.message,
        })),
        "comment": comment_at(0),
        "foul": stored.foul,
        "foul_time": foul_at.and_then(|at| stored.times.get(at as usize).copied().flatten()),
        "foul_comment": foul_at.and_then(|at| comment_at(at + 1)),
        "ending_time": stored.times.get(ending_at as usize).copied().flatten(),
        "ending_comment": comment_at(ending_at + 1),
        "headers": headers,
        "plies": plies,
        "formats": formats,
        "left_out": left_out,
    }))
}

/// The record formats that can hold the game: its `formats`, and those
/// `/api/game/ID.EXT` writes it in.
pub(super) fn formats_holding(stored: &StoredGame) -> Vec<Format> {
    Format::ALL.into_iter().filter(|f| f.holds_start(&stored.start)).collect()
}
