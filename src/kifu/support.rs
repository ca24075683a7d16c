//! Small pieces the readers share: how deep variations may nest, and the side to move after
//! some plies.

use crate::shogi::Color;

/// How deep variations may nest. No record nests nearly so deep; a deeper nesting is refused
/// rather than walked, since every walk over variations (replay, the writers) recurses.
pub(crate) const MAX_DEPTH: usize = 32;

/// The side to move after `plies` moves from a position where `start` moves.
pub(crate) fn turn_after(start: Color, plies: usize) -> Color {
    if plies % 2 == 0 { start } else { start.flip() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_alternate() {
        assert_eq!(turn_after(Color::White, 3), Color::Black);
        assert_eq!(turn_after(Color::Black, 0), Color::Black);
    }
}
