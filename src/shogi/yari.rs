//! Yari shogi (槍将棋): its rules, and the move generator that plays them.
//!
//! Yari shogi is Christian Freeling's variant of shogi (1981). The rules here are the
//! published ones: the English Wikipedia article "Yari shogi" and Freeling's own page at
//! mindsports.nl. Where they say nothing, yari shogi keeps shogi's rule. Positions of both games
//! are [`Position`](super::Position)s; this module is what a yari position asks.
//!
//! # The board
//!
//! Seven files by nine ranks, in shogi's coordinates: files 1 to 7 from Black's right, ranks a
//! to i from the top, so 1a is the top right corner as Black sees the board and 7i the bottom
//! left. Black moves first. Black's back rank (rank i), from file 7 to file 1: yari rook, yari
//! bishop, yari bishop, general, yari knight, yari knight, yari rook; Black's seven pawns stand
//! on its third rank (rank g). White's pieces stand the same way from its side.
//!
//! ```text
//!   7  6  5  4  3  2  1
//!   YR YN YN G  YB YB YR   a   (White's, pointing down)
//!   .  .  .  .  .  .  .    b
//!   P  P  P  P  P  P  P    c
//!   .  .  .  .  .  .  .    d … f
//!   P  P  P  P  P  P  P    g
//!   .  .  .  .  .  .  .    h
//!   YR YB YB G  YN YN YR   i   (Black's)
//! ```
//!
//! # The pieces
//!
//! | piece | moves | Western | SFEN, USI | [`PieceKind`] |
//! |---|---|---|---|---|
//! | general | one step in any direction, as shogi's king | `G` | `K` | `King` |
//! | yari rook | any distance forward or sideways | `YR` | `R` | `Rook` |
//! | yari bishop | one step diagonally forward, or any distance forward | `YB` | `B` | `Bishop` |
//! | yari knight | shogi's knight's jump (two forward and one aside), or any distance forward | `YN` | `N` | `Knight` |
//! | pawn | one step forward | `P` | `P` | `Pawn` |
//!
//! Only the yari knight's jump passes over pieces; every other move stops at the first piece
//! in its way (and may capture it). No unpromoted piece but the general moves backward.
//!
//! # Promotion
//!
//! The promotion zone is the three far ranks. A piece may promote at the end of a move that
//! ends in the zone (Freeling's wording) or moves into, within or out of it (Wikipedia's): the
//! two agree, since no unpromoted yari piece ever moves backward, so none can leave the zone.
//! A drop never promotes. What each piece becomes:
//!
//! | piece | promoted | moves | Western | SFEN, USI | [`PieceKind`] |
//! |---|---|---|---|---|---|
//! | pawn | yari silver | one step to any of the three squares ahead, or any distance straight backward | `+P` | `+P` | `ProPawn` |
//! | yari knight | yari gold | a gold general's steps (the three squares ahead, the two beside, one back), or any distance straight backward | `+YN` | `+N` | `ProKnight` |
//! | yari bishop | yari gold | the same | `+YB` | `+B` | `Horse` |
//! | yari rook | rook | any distance orthogonally | `+YR` | `+R` | `Dragon` |
//!
//! The two yari golds move alike but stay apart: a captured one goes to hand as what it was
//! before promoting. A piece that could never move again must promote: a pawn, yari knight or
//! yari bishop reaching the last rank. A yari knight on the second-to-last rank still moves (a
//! square forward), so, unlike shogi's knight, it need not promote there. A yari rook always
//! moves sideways and never has to promote.
//!
//! # Drops
//!
//! As in shogi, a captured piece changes sides and goes to its captor's hand unpromoted; on
//! its turn a player may drop a piece from hand, unpromoted, on any empty square instead of
//! moving. Hands hold at most the whole set: 14 pawns, 4 yari knights, 4 yari bishops, 4 yari
//! rooks. The restrictions, with each difference from shogi:
//! - no piece may be dropped where it could never move: a pawn, yari knight or yari bishop
//!   not on the last rank. A yari knight may be dropped on the second-to-last rank (shogi
//!   forbids that to its knight); a yari rook may be dropped anywhere;
//! - the two-pawn rule (二歩) holds, as in shogi: no pawn may be dropped on a file that holds
//!   an unpromoted pawn of the same side;
//! - a pawn drop may give checkmate. Wikipedia says so outright ("unlike shogi"), and so
//!   there is no 打ち歩詰め in yari shogi.
//!
//! # Game end
//!
//! - **Checkmate** (詰み): the side to move is in check and has no legal move. It loses.
//! - **Stalemate**: the side to move is not in check and has no legal move. It loses too:
//!   the published rules say nothing of it, shogi has no draw by stalemate, and
//!   Fairy-Stockfish scores it so ([`Position::is_stalemate`](super::Position::is_stalemate)).
//! - **Repetition** (千日手): as in shogi, the same position (board, both hands, side to move)
//!   occurring for the fourth time ends the game in a draw, unless every move one side made
//!   since its first occurrence gave check: that side loses (perpetual check). See
//!   [`Position::repetition`](super::Position::repetition).
//! - **Impasse** (持将棋): both generals have entered their promotion zones and neither side
//!   can hope to mate. As in shogi the players agree on it; kifudex takes an impasse from the
//!   record, never declares one, and tells whether both generals have entered
//!   ([`Position::kings_in_camp`](super::Position::kings_in_camp)).
//!
//! # Fairy-Stockfish
//!
//! Fairy-Stockfish's variant `yarishogi` (through the Python package `pyffish`) is the test
//! oracle: its perft counts and legal-move sets are committed in `tests/data/yari/`, with the
//! script that computed them. It plays the same moves, promotions and drops. It differs in how
//! a game ends: it stops at the third occurrence of a position (a draw, or a loss for the side
//! giving perpetual check) where the published rules wait for the fourth, and it has no
//! impasse. kifudex follows the published rules, and the tests say where they part. Both
//! score a side left with no legal move and not in check as lost.

use super::{
    Color, Move, Piece, PieceKind, Setup, Square, Variant,
    rules::{attacked, has_pawn_on_file, in_promotion_zone, is_dead, movement_error, offset, slides, steps},
};

const YARI: Variant = Variant::Yari;

/// The square of `color`'s general, if it has one.
fn general(setup: &Setup, color: Color) -> Option<Square> {
    let general = Some(Piece::new(color, PieceKind::King));
    YARI.squares().find(|&sq| setup.piece_at(sq) == general)
}

/// Whether `color`'s general (if it has one) is attacked.
pub(super) fn in_check(setup: &Setup, color: Color) -> bool {
    general(setup, color).is_some_and(|sq| attacked(setup, sq, color.flip()))
}

/// Whether playing `mv` (which obeys every rule of movement) leaves the mover's general safe.
fn leaves_general_safe(setup: &Setup, mv: Move) -> bool {
    let mut after = setup.clone();
    let us = setup.turn;
    after.play_legal(mv);
    !in_check(&after, us)
}

/// Whether `mv` is legal in `setup`.
pub(super) fn is_legal(setup: &Setup, mv: Move) -> bool {
    movement_error(setup, mv).is_none() && leaves_general_safe(setup, mv)
}

/// Appends every legal move of the side to move to `out`: each board move once per promotion
/// choice the rules allow, then the drops.
pub(super) fn legal_moves(setup: &Setup, out: &mut Vec<Move>) {
    let us = setup.turn;
    let sign: i8 = if us == Color::Black { 1 } else { -1 };
    let king = general(setup, us);
    let checked = king.is_some_and(|sq| attacked(setup, sq, us.flip()));
    // Yari shogi has no diagonal slider, so a piece off its general's file and rank cannot be
    // pinned: out of check, its moves (and every drop) keep the general safe without a look.
    let exposed = |from: Square| {
        checked || king.is_some_and(|k| k == from || k.file() == from.file() || k.rank() == from.rank())
    };
    let push = |out: &mut Vec<Move>, mv: Move, look: bool| {
        if !look || leaves_general_safe(setup, mv) {
            out.push(mv);
        }
    };
    for from in YARI.squares() {
        let Some(piece) = setup.piece_at(from).filter(|p| p.color == us) else {
            continue;
        };
        let look = exposed(from);
        let to_square = |out: &mut Vec<Move>, to: Square| {
            if in_promotion_zone(us, from, to) && piece.kind.can_promote() {
                push(out, Move::Normal { from, to, promote: true }, look);
            }
            if !is_dead(YARI, us, piece.kind, to) {
                push(out, Move::Normal { from, to, promote: false }, look);
            }
        };
        for &(df, dr) in steps(YARI, piece.kind) {
            if let Some(to) = offset(YARI, from, df, dr * sign) {
                if setup.piece_at(to).is_none_or(|p| p.color != us) {
                    to_square(out, to);
                }
            }
        }
        for &(df, dr) in slides(YARI, piece.kind) {
            let mut at = from;
            while let Some(to) = offset(YARI, at, df, dr * sign) {
                match setup.piece_at(to) {
                    None => to_square(out, to),
                    Some(p) => {
                        if p.color != us {
                            to_square(out, to);
                        }
                        break;
                    }
                }
                at = to;
            }
        }
    }
    for &kind in YARI.hand_kinds() {
        if setup.hand(us).count(kind) == 0 {
            continue;
        }
        for to in YARI.squares() {
            if setup.piece_at(to).is_none()
                && !is_dead(YARI, us, kind, to)
                && !(kind == PieceKind::Pawn && has_pawn_on_file(setup, us, to))
            {
                push(out, Move::Drop { kind, to }, checked);
            }
        }
    }
}

/// Whether the side to move has a legal move.
pub(super) fn has_legal_moves(setup: &Setup) -> bool {
    let mut moves = Vec::new();
    legal_moves(setup, &mut moves);
    !moves.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(sfen: &str) -> Setup {
        sfen.parse().expect("test SFEN")
    }

    fn moves(sfen: &str) -> Vec<String> {
        let mut out = Vec::new();
        legal_moves(&setup(sfen), &mut out);
        let mut text: Vec<String> = out.iter().map(Move::to_string).collect();
        text.sort();
        text
    }

    #[test]
    fn twenty_moves_from_the_start() {
        let start = moves(YARI.start_sfen());
        assert_eq!(start.len(), 20);
        // Both yari bishops reach 5h: the seed's YB6i-5h and YB5i-5h.
        assert!(start.contains(&"6i5h".to_string()) && start.contains(&"5i5h".to_string()));
    }

    /// The squares a lone black piece on 4e moves to (promotion marks aside), the generals out
    /// of the way on 1a and 7i.
    fn destinations(piece: &str) -> Vec<String> {
        let mut to: Vec<String> = moves(&format!("6k/7/7/7/3{piece}3/7/7/7/K6 b - 1"))
            .into_iter()
            .filter_map(|m| m.strip_prefix("4e").map(|t| t.trim_end_matches('+').to_string()))
            .collect();
        to.dedup();
        to
    }

    #[test]
    fn each_piece_moves_as_written() {
        let cases: [(&str, &[&str]); 7] = [
            ("P", &["4d"]),
            ("R", &["1e", "2e", "3e", "4a", "4b", "4c", "4d", "5e", "6e", "7e"]),
            ("B", &["3d", "4a", "4b", "4c", "4d", "5d"]),
            ("N", &["3c", "4a", "4b", "4c", "4d", "5c"]),
            ("+P", &["3d", "4d", "4f", "4g", "4h", "4i", "5d"]),
            ("+N", &["3d", "3e", "4d", "4f", "4g", "4h", "4i", "5d", "5e"]),
            ("+R", &["1e", "2e", "3e", "4a", "4b", "4c", "4d", "4f", "4g", "4h", "4i", "5e", "6e", "7e"]),
        ];
        for (piece, want) in cases {
            assert_eq!(destinations(piece), want, "{piece}");
        }
        assert_eq!(destinations("+B"), destinations("+N"), "both yari golds");
    }

    #[test]
    fn forced_promotion_and_drops_on_far_ranks() {
        let got = moves("6k/3P3/7/7/7/7/7/7/K6 b NBRP 1");
        assert!(got.contains(&"4b4a+".to_string()) && !got.contains(&"4b4a".to_string()));
        assert!(!got.iter().any(|m| m.starts_with("P*") && m.ends_with('a')));
        assert!(!got.iter().any(|m| m.starts_with("B*") && m.ends_with('a')));
        assert!(!got.iter().any(|m| m.starts_with("N*") && m.ends_with('a')));
        assert!(got.contains(&"N*5b".to_string()), "a yari knight may be dropped on the second-to-last rank");
        assert!(got.contains(&"R*5a".to_string()), "a yari rook may be dropped on the last rank");
        assert!(!got.contains(&"P*4c".to_string()), "two pawns on file 4");
    }

    #[test]
    fn a_pawn_drop_may_mate() {
        // White's general on 1a, boxed in by its own yari rook; Black's yari silver on 1c
        // guards 1b and 2b.
        let drop = Move::Drop { kind: PieceKind::Pawn, to: "1b".parse().expect("square") };
        let s = setup("5rk/7/6+P/7/7/7/7/7/K6 b P 1");
        assert!(is_legal(&s, drop));
        let mut after = s.clone();
        after.play_legal(drop);
        assert!(in_check(&after, Color::White) && !has_legal_moves(&after));
    }
}
