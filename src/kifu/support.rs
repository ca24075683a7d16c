//! Small pieces the readers share: how deep variations may nest, how many moves a game may
//! hold, and the side to move after some plies.

use crate::{kifu::MoveEntry, shogi::Color};

/// How deep variations may nest. No record nests nearly so deep; a deeper nesting is refused
/// rather than walked, since every walk over variations (replay, the writers) recurses.
pub(crate) const MAX_DEPTH: usize = 32;

/// The most moves a line of one game (its main line or a variation) may hold. The longest
/// real games and problems hold a few thousand; a game of a million plies is still read in
/// full. Past it, a reader stops collecting moves: each move read takes several times the bytes
/// of its text, so one game of tens of millions of moves in a single file (a USI line of
/// 150 MB) would otherwise take gigabytes, where files of many games are read in parts.
pub const MAX_PLIES: usize = 1_000_000;

/// Why a game's line stopped being read: it already holds [`MAX_PLIES`] moves. The reject
/// code is `too_many_moves`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the game holds more than {MAX_PLIES} moves; the moves past them are not read")]
pub struct TooManyMoves;

/// Whether one more move may be added to `moves`: an error once they hold [`MAX_PLIES`].
pub(crate) fn room_for_move(moves: &[MoveEntry]) -> Result<(), TooManyMoves> {
    if moves.len() < MAX_PLIES { Ok(()) } else { Err(TooManyMoves) }
}

/// The side to move after `plies` moves from a position where `start` moves.
pub(crate) fn turn_after(start: Color, plies: usize) -> Color {
    if plies % 2 == 0 { start } else { start.flip() }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game of a million and one moves, in each format's own words: every reader keeps
    /// the first million and stops at the next, as `too_many_moves` on that move's line.
    #[test]
    fn a_line_holds_at_most_a_million_moves() {
        use crate::kifu::{Format, read};
        let pairs = 500_000;
        let json_moves = r#"{"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU","color":0}},"#;
        let kif: String = (1..=2 * pairs + 1)
            .map(|n| format!("{n:>4} {}\n", if n % 2 == 1 { "７六歩(77)" } else { "３四歩(33)" }))
            .collect();
        let cases = [
            (Format::Kif, format!("手合割：平手\n手数----指手---------消費時間--\n{kif}"), 1_000_003),
            (Format::Usi, format!("position startpos moves {}7g7f\n", "7g7f 3c3d ".repeat(pairs)), 1),
            (Format::Csa, format!("PI\n+\n{}+7776FU\n", "+7776FU\n-3334FU\n".repeat(pairs)), 1_000_003),
            (Format::Ki2, format!("手合割：平手\n{}▲７六歩\n", "▲７六歩 △３四歩\n".repeat(pairs)), 500_002),
            (Format::Western, format!("[Event \"x\"]\n\n{}P-7f\n", "P-7f P-3d\n".repeat(pairs)), 500_003),
            (
                Format::Jkf,
                format!(
                    r#"{{"header":{{}},"moves":[{{}},{}{}]}}"#,
                    json_moves.repeat(2 * pairs),
                    &json_moves[..json_moves.len() - 1]
                ),
                1,
            ),
        ];
        for (format, text, line) in cases {
            let games = read(format, &text);
            assert_eq!(games.len(), 1, "{format}");
            assert_eq!(games[0].moves.len(), 1_000_000, "{format}");
            let problem = games[0].problem.as_ref().unwrap_or_else(|| panic!("{format}: no problem"));
            assert_eq!((problem.code(), problem.line), ("too_many_moves", line), "{format}");
            assert!(problem.to_string().contains("more than 1000000 moves"), "{format}: {problem}");
        }
    }

    #[test]
    fn turns_alternate() {
        assert_eq!(turn_after(Color::White, 3), Color::Black);
        assert_eq!(turn_after(Color::Black, 0), Color::Black);
    }
}
