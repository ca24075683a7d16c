//! Games counted with their results: the one count that positions, the moves played from
//! them, query answers, the counts by year, players' records and the tree export all report.
//! A game's result makes a count of one game; counts add up.

use std::ops::AddAssign;

use super::GameResult;
use crate::shogi::Color;

/// A number of games, and how many of them each side won or drew (the rest have no known
/// result).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub games: u64,
    pub black_wins: u64,
    pub white_wins: u64,
    pub draws: u64,
}

impl From<GameResult> for Stats {
    /// One game with this result.
    fn from(result: GameResult) -> Stats {
        let is = |r: GameResult| u64::from(result == r);
        Stats {
            games: 1,
            black_wins: is(GameResult::BlackWin),
            white_wins: is(GameResult::WhiteWin),
            draws: is(GameResult::Draw),
        }
    }
}

impl AddAssign for Stats {
    fn add_assign(&mut self, other: Stats) {
        self.games += other.games;
        self.black_wins += other.black_wins;
        self.white_wins += other.white_wins;
        self.draws += other.draws;
    }
}

impl AddAssign<GameResult> for Stats {
    fn add_assign(&mut self, result: GameResult) {
        *self += Stats::from(result);
    }
}

impl Stats {
    /// The games `side` won and lost, from that side's view.
    pub fn wins_and_losses(&self, side: Color) -> (u64, u64) {
        match side {
            Color::Black => (self.black_wins, self.white_wins),
            Color::White => (self.white_wins, self.black_wins),
        }
    }

    /// The score of `side` over the games with a known result (a win 1, a draw ½), from 0 to
    /// 1; `None` when no result is known.
    pub fn score(&self, side: Color) -> Option<f64> {
        let (wins, losses) = self.wins_and_losses(side);
        let decided = wins + losses + self.draws;
        (decided > 0).then(|| (wins as f64 + self.draws as f64 / 2.0) / decided as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_add_up_and_score_from_either_side() {
        let mut s = Stats::default();
        for r in [
            GameResult::BlackWin,
            GameResult::BlackWin,
            GameResult::WhiteWin,
            GameResult::Draw,
            GameResult::Unknown,
        ] {
            s += r;
        }
        assert_eq!(s, Stats { games: 5, black_wins: 2, white_wins: 1, draws: 1 });
        assert_eq!(s.wins_and_losses(Color::Black), (2, 1));
        assert_eq!(s.wins_and_losses(Color::White), (1, 2));
        // Black: 2 wins and a draw of 4 decided games, 2.5 / 4; White: 1.5 / 4.
        assert_eq!(s.score(Color::Black), Some(0.625));
        assert_eq!(s.score(Color::White), Some(0.375));
        let mut twice = s;
        twice += s;
        assert_eq!(twice, Stats { games: 10, black_wins: 4, white_wins: 2, draws: 2 });
        assert_eq!(Stats::from(GameResult::Unknown).score(Color::Black), None);
    }
}
