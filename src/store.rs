//! Records and stored games, both ways: the one mapping between a record as the readers give
//! it ([`Game`], replayed) and a game as the database stores it ([`NewGame`] going in,
//! [`StoredGame`] coming out).
//!
//! Policy:
//! - The database keeps a game's main line (its start, moves and positions), and each file's
//!   own record of it: the players (name and title apart), event, site, dates, time control,
//!   opening, every raw header, the times and the comments. Variations are not kept.
//! - The result is the one replay judged; the termination is the record's. [`game_result`]
//!   and [`outcome`] are the one translation between a record's outcome and a stored result.
//! - A stored game becomes a record again with its ending rebuilt from the stored
//!   termination and result ([`stored_record`]), and its replay is given with the result the
//!   database holds, never judged again from the stored moves ([`stored_replay`]): a game
//!   kept up to where its record stopped was judged over the whole record. So `show` agrees
//!   with `export games` and `query`.
//!
//! The database itself knows nothing of records: it stores what it is given, and this module
//! sits above it.

use crate::{
    db::{
        GameResult, NewGame, PlayerName, StoredGame,
        codec::{encode_comments, encode_headers, encode_times},
        ending_ply,
        play::{Unplayable, play_stored},
    },
    kifu::{
        Ending, Format, Game, Header, Info, MoveEntry, Outcome, Player, Start, Termination,
        info::{Remarks, parse_date},
    },
    notation::MoveToken,
    replay::{ReplayedGame, Status},
    shogi::{Color, Handicap},
};

/// The stored result of an outcome (`None`: no result known).
pub fn game_result(outcome: Option<Outcome>) -> GameResult {
    match outcome {
        None => GameResult::Unknown,
        Some(Outcome::Win(Color::Black)) => GameResult::BlackWin,
        Some(Outcome::Win(Color::White)) => GameResult::WhiteWin,
        Some(Outcome::Draw) => GameResult::Draw,
    }
}

/// The outcome of a stored result (`None` for [`GameResult::Unknown`]).
pub fn outcome(result: GameResult) -> Option<Outcome> {
    match result {
        GameResult::BlackWin => Some(Outcome::Win(Color::Black)),
        GameResult::WhiteWin => Some(Outcome::Win(Color::White)),
        GameResult::Draw => Some(Outcome::Draw),
        GameResult::Unknown => None,
    }
}

/// Game number `index` of a file (`game` as read, `replayed` its replay), as the writer
/// stores it: its main line as far as it was replayed, and the record's fields.
pub fn new_game(game: &Game, replayed: ReplayedGame, index: u32) -> NewGame {
    let plies = replayed.moves.len();
    // A foul written as a move, which ended the game, is kept after the moves, with its time
    // and comments, as the record's entry after the last move.
    let foul = replayed.illegal_ending.as_ref().filter(|_| plies < game.moves.len());
    let kept = plies + usize::from(foul.is_some());
    let played = &game.moves[..kept.min(game.moves.len())];
    // The record's ending, when it follows the last entry kept: its time is stored after the
    // entries', and its comments as those of the ply after the last.
    let own = game.ending.as_ref().filter(|_| kept == game.moves.len() && game.unread == 0);
    let after_end = kept as u32 + 1;
    let comments = game
        .comments
        .iter()
        .map(|c| (0, c.as_str()))
        .chain(
            played
                .iter()
                .enumerate()
                .flat_map(|(i, e)| e.comments.iter().map(move |c| (i as u32 + 1, c.as_str()))),
        )
        .chain(own.into_iter().flat_map(|e| e.comments.iter().map(move |c| (after_end, c.as_str()))));
    let info = &game.info;
    let text = |s: &Option<String>| s.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(str::to_string);
    NewGame {
        index,
        line: game.line,
        status: match &replayed.status {
            Status::Complete => None,
            Status::Stopped(reason) => Some(reason.code()),
        },
        handicap: game.start.handicap().map(Handicap::slug),
        times: encode_times(played.iter().map(|e| e.seconds).chain(own.and_then(|e| e.seconds).map(Some))),
        comments: encode_comments(comments),
        result: game_result(replayed.outcome),
        termination: replayed.termination.map(|t| t.name()),
        black: info.black.as_ref().and_then(player_name),
        white: info.white.as_ref().and_then(player_name),
        event: text(&info.event),
        site: text(&info.site),
        date: info.start.map(|d| d.to_string()),
        end_date: info.end.map(|d| d.to_string()),
        time_control: text(&info.time_control),
        opening: text(&info.opening),
        headers: encode_headers(game.headers.iter().map(|h| (h.key.as_str(), h.value.as_str()))),
        foul: foul.cloned(),
        ..NewGame::play(&replayed.start, replayed.moves, replayed.keys, &replayed.end)
    }
}

/// A player as stored: the name without its title (the full text when that is all there
/// is), and the title; `None` for a player with no name.
fn player_name(p: &Player) -> Option<PlayerName> {
    let name = if p.name.trim().is_empty() { p.full.trim() } else { p.name.trim() };
    (!name.is_empty()).then(|| PlayerName {
        name: name.to_string(),
        title: p.title.as_deref().map(str::trim).filter(|t| !t.is_empty()).map(str::to_string),
    })
}

/// A stored player as a record's: as the record's own headers wrote it (`渡辺明竜王`,
/// `羽生善治(九段)`) when they name this player, else the name and title written together,
/// with a space between them.
fn player(name: &Option<String>, title: &Option<String>, written: Option<Player>) -> Option<Player> {
    let name = name.as_ref()?;
    let stored = PlayerName { name: name.clone(), title: title.clone() };
    if let Some(p) = written.filter(|p| player_name(p).as_ref() == Some(&stored)) {
        return Some(p);
    }
    Some(Player {
        full: match title {
            Some(t) => format!("{name} {t}"),
            None => name.clone(),
        },
        name: name.clone(),
        title: title.clone(),
    })
}

/// What a record written from `stored` leaves out when the record shown stopped early (a move
/// that cannot be read or played): the moves after the stop, which the database never held.
/// Said as `convert` says it of the record file.
pub fn stop_note(stored: &StoredGame) -> Option<String> {
    let stop = stored.stop.as_ref()?;
    let why = stop.message.as_deref().unwrap_or(&stop.code);
    Some(format!("written up to move {} only: its record stops there: {why}", stored.moves.len()))
}

/// A stored game as the writers take it: its record ([`stored_record`]) and its replay, with
/// the result and termination the database holds (see the module's policy).
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
        termination: said_ending(stored).1,
        illegal_ending: stored.foul.clone(),
        variations: Vec::new(),
        status: Status::Complete,
        warnings: Vec::new(),
    };
    Ok((record, replayed))
}

/// A stored game written in `format`, as `kifudex show --to` prints it; `None` when a file of
/// `format` cannot hold it ([`Format::holds_start`]: a yari shogi game has no CSA form, and a
/// KIF, KI2 or JKF form only from the yari start).
///
/// # Errors
///
/// [`Unplayable`] when the game cannot be played back.
pub fn write_stored(stored: &StoredGame, format: Format) -> Result<Option<String>, Unplayable> {
    if !format.holds_start(&stored.start) {
        return Ok(None);
    }
    let (record, replayed) = stored_replay(stored)?;
    Ok(Some(crate::write::write(format, &record, &replayed)))
}

/// The record of a stored game: what the writers need to print it in any format.
pub fn stored_record(stored: &StoredGame) -> Game {
    let headers: Vec<Header> = stored
        .info
        .headers
        .iter()
        .map(|(key, value)| Header { key: key.clone(), value: value.clone() })
        .collect();
    // The players as the headers wrote them, where they name the stored players: read as KIF
    // reads them, which finds a CSA name with a `#` (`user#1234`) none, so that the stored
    // name is written whole.
    let written = crate::kifu::info::normalize(&headers, Remarks::AfterHash);
    let info = Info {
        event: stored.row.event.clone(),
        site: stored.info.site.clone(),
        start: stored.row.date.as_deref().and_then(parse_date),
        end: stored.info.end_date.as_deref().and_then(parse_date),
        time_control: stored.info.time_control.clone(),
        black: player(&stored.row.black, &stored.info.black_title, written.black),
        white: player(&stored.row.white, &stored.info.white_title, written.white),
        opening: stored.info.opening.clone(),
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
    // The foul the record wrote after the last move, read again in the notation it was written
    // in (a text that reads as no move is named by the writers' notes alone).
    if let Some(token) = stored.foul.as_deref().and_then(|text| MoveToken::parse(text).ok()) {
        let seconds = stored.times.get(moves.len()).copied().flatten();
        moves.push(MoveEntry { token, line: 0, seconds, comments: Vec::new() });
    }
    let mut ending = ending(stored);
    let plies = ending_ply(stored.moves.len(), stored.foul.as_deref()) as usize;
    if let Some(e) = &mut ending {
        e.seconds = stored.times.get(plies).copied().flatten();
    }
    let last = moves.len().saturating_sub(1);
    for (ply, text) in &stored.comments {
        let ply = *ply as usize;
        // Those after the last entry's ply are the ending's (the last entry's with no ending).
        let at = match &mut ending {
            Some(e) if ply > plies => &mut e.comments,
            _ => match ply.checked_sub(1).and_then(|i| moves.get_mut(i.min(last))) {
                Some(entry) => &mut entry.comments,
                None => &mut comments,
            },
        };
        at.push(text.clone());
    }
    // A standard start numbered from another move than the first is written as a position,
    // which keeps the number.
    let start = Start::of(stored.start.clone());
    Game {
        headers,
        info,
        start,
        moves,
        ending,
        comments,
        variations: Vec::new(),
        line: 0,
        problem: None,
        unread: 0,
        warnings: Vec::new(),
    }
}

/// The ending the record shown says: the game's, or the record's own when it says another.
fn ending(stored: &StoredGame) -> Option<Ending> {
    let (result, termination) = said_ending(stored);
    Ending::judged(termination, outcome(result))
}

/// The result and termination of the record shown (see [`StoredGame::own_ending`]).
fn said_ending(stored: &StoredGame) -> (GameResult, Option<Termination>) {
    let (result, termination) = match &stored.own_ending {
        Some((result, termination)) => (*result, termination.as_deref()),
        None => (stored.row.result, stored.termination.as_deref()),
    };
    (result, termination.and_then(Termination::from_name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_result_maps_to_its_outcome_and_back() {
        let pairs = [
            (GameResult::Unknown, None),
            (GameResult::BlackWin, Some(Outcome::Win(Color::Black))),
            (GameResult::WhiteWin, Some(Outcome::Win(Color::White))),
            (GameResult::Draw, Some(Outcome::Draw)),
        ];
        for (result, out) in pairs {
            assert_eq!(outcome(result), out);
            assert_eq!(game_result(out), result);
        }
    }
}
