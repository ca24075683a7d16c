//! A stored game as a record again, for `kifudex show`: the headers as written, the
//! normalized fields, the start, the main line with its times and comments, and the ending.
//!
//! The database keeps the main line, not the variations, and the ending as its kind and
//! result; the record rebuilt from them replays to the stored moves and result, and
//! [`stored_replay`] gives the writers that replay without judging the result again.

use crate::{
    db::{
        GameResult, StoredGame,
        play::{Unplayable, play_stored},
    },
    kifu::{
        Ending, Format, Game, Header, Info, MoveEntry, Outcome, Player, Start, Termination, info::parse_date,
    },
    notation::MoveToken,
    replay::{ReplayedGame, Status},
    shogi::Color,
};

/// A stored game as the writers take it: its record ([`stored_record`]) and its replay, with
/// the result and termination the database holds. They are never judged again from the
/// stored moves, which may say otherwise: a game kept up to where its record stopped was
/// judged over the whole record. So `show` agrees with `export games` and `query`.
///
/// # Errors
///
/// [`Unplayable`] when the game cannot be played back.
pub fn stored_replay(stored: &StoredGame) -> Result<(Game, ReplayedGame), Unplayable> {
    let record = stored_record(stored);
    let mut keys = Vec::with_capacity(stored.moves.len() + 1);
    let mut end = stored.start.clone();
    play_stored(&stored.start, &stored.moves, |_, pos, next| -> Result<bool, Unplayable> {
        keys.push(pos.key());
        if next.is_none() {
            end = pos.setup().clone();
        }
        Ok(true)
    })?;
    let ending = record.ending.as_ref();
    let replayed = ReplayedGame {
        start: stored.start.clone(),
        moves: stored.moves.clone(),
        keys,
        end,
        outcome: ending.and_then(|e| e.stated),
        termination: stored.termination.as_deref().and_then(Termination::from_name),
        illegal_ending: None,
        variations: Vec::new(),
        status: Status::Complete,
        warnings: Vec::new(),
    };
    Ok((record, replayed))
}

/// A stored game written in `format`, as `kifudex show --to` prints it; `None` when a file of
/// `format` cannot hold a game of its variant ([`Format::holds_variant`]: a yari shogi game
/// has no KIF, KI2, CSA or JKF form).
///
/// # Errors
///
/// [`Unplayable`] when the game cannot be played back.
pub fn write_stored(stored: &StoredGame, format: Format) -> Result<Option<String>, Unplayable> {
    if !format.holds_variant(stored.start.variant) {
        return Ok(None);
    }
    let (record, replayed) = stored_replay(stored)?;
    Ok(Some(crate::write::write(format, &record, &replayed)))
}

/// The record of a stored game: what the writers need to print it in any format.
pub fn stored_record(stored: &StoredGame) -> Game {
    let player = |name: &Option<String>, title: &Option<String>| {
        name.as_ref().map(|name| Player {
            full: match title {
                Some(t) => format!("{name} {t}"),
                None => name.clone(),
            },
            name: name.clone(),
            title: title.clone(),
        })
    };
    let info = Info {
        event: stored.row.event.clone(),
        site: stored.site.clone(),
        start: stored.row.date.as_deref().and_then(parse_date),
        end: stored.end_date.as_deref().and_then(parse_date),
        time_control: stored.time_control.clone(),
        black: player(&stored.row.black, &stored.black_title),
        white: player(&stored.row.white, &stored.white_title),
        opening: stored.opening.clone(),
    };
    let mut comments = Vec::new();
    let mut moves: Vec<MoveEntry> = stored
        .moves
        .iter()
        .enumerate()
        .map(|(i, &mv)| MoveEntry {
            token: MoveToken::Usi(mv),
            line: 0,
            seconds: stored.times.get(i).copied().flatten(),
            comments: Vec::new(),
        })
        .collect();
    for (ply, text) in &stored.comments {
        match (*ply as usize).checked_sub(1).and_then(|i| moves.get_mut(i)) {
            Some(entry) => entry.comments.push(text.clone()),
            None => comments.push(text.clone()),
        }
    }
    let start = match stored.handicap {
        Some(h) => Start::Standard(h),
        None => Start::Custom(stored.start.clone()),
    };
    Game {
        headers: stored
            .headers
            .iter()
            .map(|(key, value)| Header { key: key.clone(), value: value.clone() })
            .collect(),
        info,
        start,
        moves,
        ending: ending(stored),
        comments,
        variations: Vec::new(),
        line: 0,
        problem: None,
        warnings: Vec::new(),
    }
}

/// The ending from the stored termination and result.
fn ending(stored: &StoredGame) -> Option<Ending> {
    let stated = match stored.row.result {
        GameResult::BlackWin => Some(Outcome::Win(Color::Black)),
        GameResult::WhiteWin => Some(Outcome::Win(Color::White)),
        GameResult::Draw => Some(Outcome::Draw),
        GameResult::Unknown => None,
    };
    let termination = match stored.termination.as_deref().and_then(Termination::from_name) {
        Some(t) => t,
        None if stated.is_some() => Termination::Unknown,
        None => return None,
    };
    // A foul or a forfeit names the side that lost by it.
    let side = match (termination, stated) {
        (Termination::IllegalMove | Termination::Forfeit, Some(Outcome::Win(winner))) => Some(winner.flip()),
        _ => None,
    };
    Some(Ending { termination, side, stated, text: String::new(), line: 0 })
}
