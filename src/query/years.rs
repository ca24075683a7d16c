//! Trends: the counts of a position and of each move played from it, year by year.
//!
//! A game's year is the year of the date of the record shown for it, the one the game list
//! shows (the first record in path order that the filter matches; see
//! [`crate::db::GameFilter`]), so a game is counted in one year only, even when its copies
//! give other dates. A game whose shown record has no date is counted under
//! [`UNKNOWN_YEAR`].

use std::collections::{BTreeMap, HashMap};

use crate::{
    db::{self, GameFilter, GameId, Occurrence, Snapshot, Stats},
    shogi::Move,
};

/// The year of games whose shown record has no date.
pub const UNKNOWN_YEAR: &str = "unknown";

/// Counts by year (`2014`, …, then [`UNKNOWN_YEAR`], which sorts after the digits).
pub type Years = BTreeMap<String, Stats>;

/// A position's games by year, and those of each move played from it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ByYear {
    /// The games that reach the position (`games`) and their results.
    pub position: Years,
    /// For each next move, in the answer's order: the games that played it (`games`) and
    /// their results.
    pub moves: Vec<Years>,
}

/// The year of an ISO 8601 date, or [`UNKNOWN_YEAR`].
pub fn year_of(date: Option<&str>) -> String {
    match date.and_then(|d| d.get(..4)).filter(|y| y.bytes().all(|b| b.is_ascii_digit())) {
        Some(year) => year.to_string(),
        None => UNKNOWN_YEAR.to_string(),
    }
}

/// The year of each of `ids` (sorted, without repeats), as `filter` shows the games.
///
/// # Errors
///
/// Any database failure.
pub fn years_of(
    snapshot: &Snapshot<'_>,
    ids: &[GameId],
    filter: &GameFilter,
) -> Result<HashMap<GameId, String>, db::Error> {
    Ok(snapshot
        .shown_dates(ids, filter)?
        .into_iter()
        .map(|(game, date)| (game, year_of(date.as_deref())))
        .collect())
}

/// The counts by year of `occ` (the occurrences of one position, sorted by game and ply):
/// each game once for the position, and once for each move it played from there; `moves`
/// gives the order of the moves.
pub fn by_year(occ: &[Occurrence], moves: &[Move], years: &HashMap<GameId, String>) -> ByYear {
    let mut out = ByYear { position: Years::new(), moves: vec![Years::new(); moves.len()] };
    let unknown = UNKNOWN_YEAR.to_string();
    let mut credited: Vec<Move> = Vec::new();
    let mut current = None;
    for o in occ {
        let year = years.get(&o.game).unwrap_or(&unknown);
        if current != Some(o.game) {
            current = Some(o.game);
            credited.clear();
            *out.position.entry(year.clone()).or_default() += o.result;
        }
        let Some(mv) = o.next.filter(|mv| !credited.contains(mv)) else {
            continue;
        };
        credited.push(mv);
        if let Some(i) = moves.iter().position(|m| *m == mv) {
            *out.moves[i].entry(year.clone()).or_default() += o.result;
        }
    }
    out
}

/// The distinct games of `occ` (sorted by game) by year.
pub fn games_by_year(occ: &[Occurrence], years: &HashMap<GameId, String>) -> Years {
    by_year(occ, &[], years).position
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::GameResult;

    #[test]
    fn each_game_counts_once_a_year_for_the_position_and_once_for_each_move() {
        let m1: Move = "7g7f".parse().unwrap();
        let m2: Move = "2g2f".parse().unwrap();
        let occ = |game: i64, ply: u32, next: Option<Move>, result: GameResult| Occurrence {
            game: GameId(game),
            ply,
            next,
            result,
        };
        let occs = [
            occ(1, 0, Some(m1), GameResult::BlackWin),
            occ(1, 4, Some(m1), GameResult::BlackWin),
            occ(1, 8, Some(m2), GameResult::BlackWin),
            occ(2, 0, Some(m1), GameResult::Draw),
            occ(3, 0, None, GameResult::WhiteWin),
        ];
        let years: HashMap<GameId, String> =
            [(GameId(1), "2014".to_string()), (GameId(2), "2014".to_string())].into_iter().collect();
        let by = by_year(&occs, &[m1, m2], &years);
        assert_eq!(by.position["2014"], Stats { games: 2, black_wins: 1, white_wins: 0, draws: 1 });
        assert_eq!(by.position[UNKNOWN_YEAR], Stats { games: 1, black_wins: 0, white_wins: 1, draws: 0 });
        assert_eq!(by.moves[0]["2014"], Stats { games: 2, black_wins: 1, white_wins: 0, draws: 1 });
        assert_eq!(by.moves[1]["2014"], Stats { games: 1, black_wins: 1, white_wins: 0, draws: 0 });
        assert_eq!(by.moves[1].len(), 1);
        assert_eq!(year_of(Some("2014-05-01T10:00:00")), "2014");
        assert_eq!(year_of(Some("20")), UNKNOWN_YEAR);
        assert_eq!(year_of(None), UNKNOWN_YEAR);
    }
}
