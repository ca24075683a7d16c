//! Counts of games and their results: the one shape every statistic here adds up.

use std::ops::AddAssign;

use crate::db::GameResult;

/// Games and their results: black's wins, white's wins and draws (the other games have no
/// known result).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub games: u64,
    pub black_wins: u64,
    pub white_wins: u64,
    pub draws: u64,
}

impl From<GameResult> for Tally {
    /// One game with this result.
    fn from(result: GameResult) -> Tally {
        Tally {
            games: 1,
            black_wins: u64::from(result == GameResult::BlackWin),
            white_wins: u64::from(result == GameResult::WhiteWin),
            draws: u64::from(result == GameResult::Draw),
        }
    }
}

impl AddAssign for Tally {
    fn add_assign(&mut self, other: Tally) {
        self.games += other.games;
        self.black_wins += other.black_wins;
        self.white_wins += other.white_wins;
        self.draws += other.draws;
    }
}

impl AddAssign<GameResult> for Tally {
    fn add_assign(&mut self, result: GameResult) {
        *self += Tally::from(result);
    }
}

impl Tally {
    /// The games won by the side `black` says (Black when true), from that side's view:
    /// (wins, losses).
    pub fn wins_and_losses(&self, black: bool) -> (u64, u64) {
        if black { (self.black_wins, self.white_wins) } else { (self.white_wins, self.black_wins) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tallies_add_up() {
        let mut t = Tally::default();
        for r in [
            GameResult::BlackWin,
            GameResult::BlackWin,
            GameResult::WhiteWin,
            GameResult::Draw,
            GameResult::Unknown,
        ] {
            t += r;
        }
        assert_eq!(t, Tally { games: 5, black_wins: 2, white_wins: 1, draws: 1 });
        assert_eq!(t.wins_and_losses(true), (2, 1));
        assert_eq!(t.wins_and_losses(false), (1, 2));
        let mut u = t;
        u += t;
        assert_eq!(u.games, 10);
    }
}
