//! Pieces in hand (持ち駒).

use super::{PieceKind, Variant};

/// The pieces one side holds in hand: a count per unpromoted kind (king excluded).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hand([u8; 7]);

impl Hand {
    /// An empty hand.
    pub const EMPTY: Hand = Hand([0; 7]);

    /// How many pieces of `kind` the hand holds (0 for kinds that cannot be held).
    pub const fn count(&self, kind: PieceKind) -> u8 {
        match kind.hand_index() {
            Some(i) => self.0[i],
            None => 0,
        }
    }

    /// The counts of the kinds in [`PieceKind::HAND`]'s order (pawn to rook).
    pub const fn counts(&self) -> [u8; 7] {
        self.0
    }

    /// Sets the count of `kind`.
    ///
    /// # Panics
    ///
    /// If `kind` cannot be held in hand (a king or a promoted kind). Callers pass hand kinds.
    pub fn set(&mut self, kind: PieceKind, count: u8) {
        let i = kind.hand_index().expect("only unpromoted non-king kinds go in hand");
        self.0[i] = count;
    }

    /// Adds one piece of `kind`, unpromoting it first. Returns the new count, or `None` (and
    /// changes nothing) for a king or when the count would pass the full set's size.
    pub fn add(&mut self, kind: PieceKind) -> Option<u8> {
        self.add_in(Variant::Standard, kind)
    }

    /// Adds one piece of `kind` as [`Hand::add`] does, against `variant`'s full set (yari
    /// shogi has four yari bishops and four yari rooks, where shogi has two).
    pub fn add_in(&mut self, variant: Variant, kind: PieceKind) -> Option<u8> {
        let kind = kind.unpromote();
        let i = kind.hand_index()?;
        if self.0[i] >= variant.max_count(kind) {
            return None;
        }
        self.0[i] += 1;
        Some(self.0[i])
    }

    /// Takes one piece of `kind` out of the hand. Returns the new count, or `None` when the
    /// hand holds none.
    pub fn remove(&mut self, kind: PieceKind) -> Option<u8> {
        let i = kind.hand_index()?;
        self.0[i] = self.0[i].checked_sub(1)?;
        Some(self.0[i])
    }

    /// Whether the hand holds nothing.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&n| n == 0)
    }

    /// The total number of pieces in hand.
    pub fn total(&self) -> u32 {
        self.0.iter().map(|&n| u32::from(n)).sum()
    }

    /// The kinds held, with their counts, in [`PieceKind::HAND`] order (pawn first).
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (PieceKind, u8)> + '_ {
        PieceKind::HAND.into_iter().zip(self.0).filter(|&(_, n)| n > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_unpromotes_and_respects_the_set() {
        let mut hand = Hand::EMPTY;
        assert_eq!(hand.add(PieceKind::Dragon), Some(1));
        assert_eq!(hand.count(PieceKind::Rook), 1);
        assert_eq!(hand.add(PieceKind::Rook), Some(2));
        assert_eq!(hand.add(PieceKind::Rook), None);
        assert_eq!(hand.add(PieceKind::King), None);
        assert_eq!(hand.remove(PieceKind::Pawn), None);
        assert_eq!(hand.remove(PieceKind::Rook), Some(1));
        assert_eq!(hand.total(), 1);
        assert!(!hand.is_empty());
    }
}
