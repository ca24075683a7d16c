//! Playing a stored game back: the one replayer of stored moves, for every reader of them
//! (position lookups that must check an occurrence, the per-ply exports, `show`, the page's
//! game viewer) and for the writer (the early positions of a new game, the postings it
//! rebuilds).
//!
//! Every move is checked as it is played, so a damaged move list is an error where it goes
//! wrong, never a position that no game reached.

use super::Corrupt;
use crate::shogi::{Move, Position, PositionError, Setup};

/// Why a stored game cannot be played back. A database this version writes holds neither: an
/// older version stored games with an impossible start (as rejects, with no moves).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unplayable {
    #[error(
        "its start is not a legal position ({0}): an older kifudex stored it; a database this version builds keeps such a game as a reject only"
    )]
    Start(PositionError),
    #[error("its move {ply} ({mv}) is illegal: the database is damaged")]
    Move { ply: usize, mv: Move },
}

/// Plays `moves` from `start`, calling `each(ply, position, next move)` for the position at
/// every ply from 0 (the start) to the end, where the next move is `None`; `each` returns
/// false to stop there.
///
/// # Errors
///
/// [`Unplayable`] when the start is not a legal position or a move is illegal (which no
/// database this version writes holds: for the database, that is [`Corrupt`]), or the first
/// error `each` returns.
pub fn play_stored<E: From<Unplayable>>(
    start: &Setup,
    moves: &[Move],
    mut each: impl FnMut(usize, &Position, Option<Move>) -> Result<bool, E>,
) -> Result<(), E> {
    let mut pos = Position::from_setup(start.clone()).map_err(Unplayable::Start)?;
    for ply in 0..=moves.len() {
        let next = moves.get(ply).copied();
        if !each(ply, &pos, next)? {
            return Ok(());
        }
        if let Some(mv) = next {
            pos.play(mv).map_err(|_| Unplayable::Move { ply: ply + 1, mv })?;
        }
    }
    Ok(())
}

/// What the position index makes of a game played back with [`play_stored`]: whether it
/// reached its positions. A game whose start is not a legal position reaches none (only an
/// older kifudex stored such games, and no answer can be about them); an illegal move is
/// damaged data.
///
/// # Errors
///
/// [`Corrupt`] for an illegal move.
pub fn reached(played: Result<(), Unplayable>) -> Result<bool, Corrupt> {
    match played {
        Ok(()) => Ok(true),
        Err(Unplayable::Start(_)) => Ok(false),
        Err(Unplayable::Move { .. }) => Err(Corrupt("a stored move is illegal")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(text: &str) -> Vec<Move> {
        text.split_whitespace().map(|m| m.parse().unwrap()).collect()
    }

    #[test]
    fn every_position_comes_once_with_its_next_move_and_a_stop_is_kept() {
        let start = Position::startpos().setup().clone();
        let line = moves("7g7f 3c3d 8h2b+");
        let mut seen = Vec::new();
        play_stored(&start, &line, |ply, pos, next| -> Result<bool, Unplayable> {
            seen.push((ply, pos.ply(), next));
            Ok(true)
        })
        .unwrap();
        assert_eq!(seen, [(0, 0, Some(line[0])), (1, 1, Some(line[1])), (2, 2, Some(line[2])), (3, 3, None)]);
        let mut last = 0;
        play_stored(&start, &line, |ply, _, _| -> Result<bool, Unplayable> {
            last = ply;
            Ok(ply < 1)
        })
        .unwrap();
        assert_eq!(last, 1);
    }

    #[test]
    fn an_illegal_move_or_start_is_unplayable_where_it_goes_wrong() {
        let start = Position::startpos().setup().clone();
        let line = moves("7g7f 3c3d 7f7e 8c8d 7e7d 2b2a");
        let mut reached = 0;
        let played = play_stored(&start, &line, |ply, _, _| -> Result<bool, Unplayable> {
            reached = ply;
            Ok(true)
        });
        assert_eq!(played, Err(Unplayable::Move { ply: 6, mv: line[5] }));
        assert_eq!(reached, 5, "the positions before the illegal move are played");
        let two_kings: Setup = "4k4/9/9/9/9/9/9/9/3KK4 b - 1".parse().unwrap();
        let played = play_stored(&two_kings, &[], |_, _, _| -> Result<bool, Unplayable> { Ok(true) });
        assert!(matches!(played, Err(Unplayable::Start(_))), "{played:?}");
    }
}
