//! What an answer's counts alone do not tell: why no game is counted, and a page of the list
//! asked past its end. The command line says these notes on stderr; a query's JSON answer
//! carries them (`notes`), so a program that reads the answer learns what a person reads.

use super::{Query, Target};
use crate::{
    db::{self, GameFilter, NO_GAME_WARNING, Snapshot},
    shogi::{Handicap, Position},
};

/// Whether a filter keeps any game ([`no_game_kept`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoGame {
    /// It keeps some.
    Kept,
    /// The database holds no game at all, whatever the filter.
    Stored,
    /// The filter keeps none of the games the database holds.
    Matched,
}

/// Whether `filter` keeps any game of `snapshot`, and when it keeps none, why, in words:
/// otherwise a misspelled name and an archive without such games read alike. A database that
/// holds no game says so instead, filter or not: that an index run has committed none yet,
/// when one is writing it or did not finish, or else that records are to be indexed.
///
/// # Errors
///
/// Any database failure.
pub fn no_game_kept(snapshot: &Snapshot<'_>, filter: &GameFilter) -> db::Result<(NoGame, Option<String>)> {
    if snapshot.keeps_any_game(filter)? {
        return Ok((NoGame::Kept, None));
    }
    // With no filter, none kept is none stored.
    if filter.is_empty() || !snapshot.keeps_any_game(&GameFilter::default())? {
        let why = match snapshot.unfinished_run()? {
            Some(_) => "the database holds no game yet: the index run has committed none",
            None => NO_GAME_WARNING,
        };
        return Ok((NoGame::Stored, Some(why.to_string())));
    }
    // A title alone matches no name: names are stored without their titles.
    let title = [&filter.player, &filter.black, &filter.white]
        .into_iter()
        .flatten()
        .find(|name| crate::name_key::is_title(name));
    let why = match title {
        Some(title) => format!(
            "no game matches the filters: '{title}' is a title, and names are compared without their \
             titles (羽生善治名人 is stored as 羽生善治, 名人 apart): give the player's name"
        ),
        None => "no game matches the filters".to_string(),
    };
    Ok((NoGame::Matched, Some(why)))
}

/// The note for a list paged from `offset` when `total` games match, if the page starts past
/// the last of them.
pub fn offset_past_end(offset: usize, total: u64) -> Option<String> {
    if offset == 0 || (offset as u64) < total {
        return None;
    }
    let matching = match total {
        0 => "no game matches".to_string(),
        1 => "1 game matches (the last is at --offset 0)".to_string(),
        n => format!("{n} games match (the last is at --offset {})", n - 1),
    };
    Some(format!("--offset {offset} is past the end of the list: {matching}"))
}

/// The notes of the answer to `query`, which counts `games` games: the page past the end,
/// and for no game, why (see [`no_game_kept`]), how many games the filter keeps, none of
/// which reaches the position, and where a handicap's games start when the moves start from
/// the even game's.
///
/// # Errors
///
/// Any database failure.
pub fn query_notes(snapshot: &Snapshot<'_>, query: &Query, games: u64) -> db::Result<Vec<String>> {
    let mut notes: Vec<String> = offset_past_end(query.offset, games).into_iter().collect();
    if games > 0 {
        return Ok(notes);
    }
    match no_game_kept(snapshot, &query.filter)? {
        (_, Some(why)) => notes.push(why),
        (_, None) if query.filter.is_empty() => {}
        (_, None) => notes.push(match snapshot.kept_game_count(&query.filter)? {
            1 => "the filters keep 1 game, and it does not reach this position".to_string(),
            n => format!("the filters keep {n} games, and none of them reaches this position"),
        }),
    }
    notes.extend(handicap_start(&query.target, query.filter.handicap));
    Ok(notes)
}

/// A handicap game never reaches a position of the even game, so a handicap filter with
/// moves from the even start finds none: says where those games start, and which start option
/// asks about them, since the answer alone reads as if the database held no such game. Only
/// for moves from the start option: a position given otherwise names its own start.
fn handicap_start(target: &Target, handicap: Option<Handicap>) -> Option<String> {
    let handicap = handicap.filter(|&h| h != Handicap::Even)?;
    let (start, _) = target.sequence.as_ref().filter(|_| target.from_start_option)?;
    if start.position_text() != Position::startpos().setup().position_text() {
        return None;
    }
    let name = handicap.japanese();
    Some(format!(
        "the moves start from the even game's start, and --handicap {name} games start from their own \
         position: give --start {name} to start the moves there"
    ))
}
