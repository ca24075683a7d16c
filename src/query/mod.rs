//! Position queries: which games reach a position, what was played next and how it went.
//!
//! A query names a position ([`Target`]: moves in any notation, an SFEN, a board diagram, or
//! a game of a record file and a ply) and a [`GameFilter`]. The answer counts the games that
//! reach the position by any move order (each game once, however often it returns there),
//! the moves played from it with how many games played each, how many reach the position
//! after it by any order, and the results; and it lists the games, newest first.
//!
//! With [`Query::exact_sequence`] the question changes: the games that played exactly the
//! given moves from the given start, and the moves they played next.
//!
//! The filter restricts everything: the counts, the next moves, the `reached` counts and the
//! list. Answers come from the position index, never from a scan of the games.
//!
//! Every front end reads its options with [`filter_from_text`] and [`target_from_text`] and prints
//! the answer with [`to_json`], so the command line and the HTTP API accept the same input,
//! refuse it with the same words and answer with the same object. A refusal names the options
//! it concerns as data ([`QueryOption`]); each front end spells them its own way
//! ([`NamesOptions::message`]).

pub mod games;
mod json;
mod notes;
mod options;
pub mod players;
mod target;
pub mod years;

use std::collections::HashSet;

pub use self::{
    json::to_json,
    notes::{NoGame, no_game_kept, offset_past_end},
    options::{
        NamesOptions, OptionError, QueryOption, RESULT_NAMES, StartHint, filter_from_text, fit_variant,
        parse_by, parse_count, parse_handicap, parse_result, parse_variant, start_for, target_from_text,
    },
    target::{Target, TargetError, start_position},
    years::ByYear,
};
use crate::{
    db::{self, GameFilter, GameId, GameRow, Occurrence, Snapshot, Stats},
    notation::{Style, write},
    shogi::{Color, Move},
};

/// A position query.
#[derive(Clone, Debug)]
pub struct Query {
    pub target: Target,
    pub filter: GameFilter,
    /// At most this many games are listed (the counts cover them all).
    pub limit: usize,
    /// The listed games start after this many of the newest, for paging through them all.
    pub offset: usize,
    /// Only the games that played exactly the target's moves from its start.
    pub exact_sequence: bool,
    /// Count the games year by year too ([`Answer::by_year`]).
    pub by_year: bool,
}

/// Why a query has no answer.
#[derive(Debug, thiserror::Error)]
pub enum QueryError {
    /// An exact sequence is asked for, and the position is not given by moves.
    #[error("{}", no_sequence(&QueryOption::ExactSequence.plain()))]
    NoSequence,
    #[error(transparent)]
    Db(#[from] db::Error),
}

/// The exact-sequence option is named in [`QueryError::NoSequence`].
impl NamesOptions for QueryError {
    fn message(&self, name: &dyn Fn(QueryOption) -> String) -> String {
        match self {
            QueryError::NoSequence => no_sequence(&name(QueryOption::ExactSequence)),
            other => other.to_string(),
        }
    }
}

/// The message of [`QueryError::NoSequence`], the option named `exact_sequence`.
fn no_sequence(exact_sequence: &str) -> String {
    format!("{exact_sequence} needs the position given by moves (or a file and ply), not an SFEN or diagram")
}

/// The fields of a [`NextMove`] in tables: its notations, counts and score.
pub const NEXT_MOVE_COLUMNS: [&str; 9] =
    ["usi", "japanese", "western", "played", "reached", "black_wins", "white_wins", "draws", "score"];

/// A move played from the position, with its counts.
#[derive(Clone, Debug, PartialEq)]
pub struct NextMove {
    pub mv: Move,
    /// The move in USI, Japanese (KI2 style) and Western (Hodges) notation.
    pub usi: String,
    pub japanese: String,
    pub western: String,
    /// The games that played the move from the position, with their results.
    pub played: Stats,
    /// Games that reach the position after the move, by any order.
    pub reached: u64,
    /// The mover's score over those of them with a known result (a win 1, a draw ½), from 0 to
    /// 1; `None` when no result is known.
    pub score: Option<f64>,
}

/// A game that reaches the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedGame {
    pub game: GameRow,
    /// The first ply at which it reaches the position.
    pub ply: u32,
}

/// The answer to a query.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The position, as SFEN.
    pub sfen: String,
    pub turn: Color,
    /// The games that reach the position, with their results.
    pub games: Stats,
    /// Times it occurs in them (a game may return to it).
    pub occurrences: u64,
    /// The next moves, most played first.
    pub moves: Vec<NextMove>,
    /// The newest games that reach the position, at most the query's limit.
    pub list: Vec<ListedGame>,
    /// With [`Query::by_year`]: the position's games and each move's by year.
    pub by_year: Option<ByYear>,
    /// What the counts alone do not tell, in the words the command line says it on stderr:
    /// why no game is counted, or that the page of the list starts past its end.
    pub notes: Vec<String>,
}

/// Answers `query` from `snapshot`.
///
/// # Errors
///
/// [`QueryError::NoSequence`] for an exact-sequence query without moves; any database failure.
pub fn run(snapshot: &Snapshot<'_>, query: &Query) -> Result<Answer, QueryError> {
    let mut answer = counts(snapshot, query)?;
    answer.notes = notes::query_notes(snapshot, query, answer.games.games)?;
    Ok(answer)
}

/// [`run`] without its notes.
fn counts(snapshot: &Snapshot<'_>, query: &Query) -> Result<Answer, QueryError> {
    let pos = &query.target.position;
    let setup = pos.setup();
    let games = snapshot.filter_games(&query.filter)?;
    if games.is_none() && !query.exact_sequence && !query.by_year {
        if let Some(stats) = snapshot.hot_stats(setup)? {
            return hot_answer(snapshot, query, stats);
        }
    }
    let mut occ = snapshot.exact_occurrences(setup, games.as_ref())?;
    if query.exact_sequence {
        let (start, moves) = query.target.sequence.as_ref().ok_or(QueryError::NoSequence)?;
        let ply = moves.len() as u32;
        let mut keep: HashSet<GameId> = HashSet::new();
        for o in occ.iter().filter(|o| o.ply == ply) {
            if snapshot.plays_sequence(o.game, start, moves)? {
                keep.insert(o.game);
            }
        }
        occ.retain(|o| o.ply == ply && keep.contains(&o.game));
    }
    let stats = snapshot.stats(setup, &occ, games.as_ref())?;
    let by_year = if query.by_year {
        let mut ids: Vec<GameId> = occ.iter().map(|o| o.game).collect();
        ids.dedup();
        let years = years::years_of(snapshot, &ids, &query.filter)?;
        let order: Vec<Move> = stats.moves.iter().map(|m| m.mv).collect();
        Some(years::by_year(&occ, &order, &years))
    } else {
        None
    };
    let list = list(snapshot, &occ, &query.filter, query.offset, query.limit)?;
    Ok(answer(query, &stats, list, by_year))
}

/// The answer to an unfiltered query about a hot position (see [`Snapshot::hot_stats`]): the
/// counts as they are kept, and the list from the newest games kept for the position when
/// they reach as far as the page asked (they are most of the time); past them, the list found
/// by playing games back when the position's games are too many to read their postings.
fn hot_answer(
    snapshot: &Snapshot<'_>,
    query: &Query,
    stats: db::PositionStats,
) -> Result<Answer, QueryError> {
    let setup = query.target.position.setup();
    let wanted = query.offset.saturating_add(query.limit);
    if let Some(mut first) = snapshot.hot_newest(setup, wanted)? {
        first.sort_unstable();
        let list = list_of(snapshot, &first, &query.filter, query.offset, query.limit)?;
        return Ok(answer(query, &stats, list, None));
    }
    let all = snapshot.game_count_bound()?.max(1) as u128;
    let reaching = u128::from(stats.games.games);
    // Walking the newest games plays back about wanted × all / reaching of them; reading the
    // postings decodes `reaching`, each some thousand times cheaper than a game played back.
    let list = if reaching * reaching > WALK_COST * wanted as u128 * all {
        snapshot
            .newest_reaching(setup, query.offset, query.limit)?
            .into_iter()
            .map(|(game, ply)| ListedGame { game, ply })
            .collect()
    } else {
        let occ = snapshot.exact_occurrences(setup, None)?;
        list(snapshot, &occ, &query.filter, query.offset, query.limit)?
    };
    Ok(answer(query, &stats, list, None))
}

/// How many postings read cost as much as one game played back, roughly.
const WALK_COST: u128 = 2_000;

fn answer(
    query: &Query,
    stats: &db::PositionStats,
    list: Vec<ListedGame>,
    by_year: Option<ByYear>,
) -> Answer {
    let pos = &query.target.position;
    let moves = stats
        .moves
        .iter()
        .map(|m| NextMove {
            mv: m.mv,
            usi: m.mv.to_string(),
            japanese: write(pos, m.mv, None, Style::Japanese),
            western: write(pos, m.mv, None, Style::Western),
            played: m.played,
            reached: m.reached,
            score: m.played.score(pos.turn()),
        })
        .collect();
    Answer {
        sfen: pos.sfen(),
        turn: pos.turn(),
        games: stats.games,
        occurrences: stats.occurrences,
        moves,
        list,
        by_year,
        notes: Vec::new(),
    }
}

/// The newest of the games of `occ` (sorted by game and ply) after the first `offset`, at most
/// `limit`, each with the first ply it has there and the record `filter` shows for it.
fn list(
    snapshot: &Snapshot<'_>,
    occ: &[Occurrence],
    filter: &GameFilter,
    offset: usize,
    limit: usize,
) -> Result<Vec<ListedGame>, db::Error> {
    list_of(snapshot, &db::first_plies(occ), filter, offset, limit)
}

/// The list of the games of `first` (each with the first ply it has there, sorted by game),
/// as [`list`] makes it.
fn list_of(
    snapshot: &Snapshot<'_>,
    first: &[(GameId, u32)],
    filter: &GameFilter,
    offset: usize,
    limit: usize,
) -> Result<Vec<ListedGame>, db::Error> {
    let ids: Vec<GameId> = first.iter().map(|&(g, _)| g).collect();
    let rows = snapshot.newest_games(&ids, filter, offset, limit)?;
    Ok(rows
        .into_iter()
        .map(|game| {
            let ply = ids.binary_search(&game.id).map_or(0, |i| first[i].1);
            ListedGame { ply, game }
        })
        .collect())
}
