//! Round trips: every legal move, written in every notation and read back, is the same move.
//!
//! [`round_trip_every_move`] is the check itself; the tests here feed it positions from random
//! games from every standard start (checking the Japanese against rsshogi's on the way), and
//! crowded positions where many pieces of one kind can reach one square. The corpus tests feed
//! both checks every position of the real games (`corpus::corpus_positions_round_trip_…`).

use kifudex::{
    notation::{MoveToken, Previous, Style, write},
    shogi::{Color, Handicap, Piece, PieceKind, Position, Setup, Square},
};

use super::oracle::{Tally, cross_check};
use crate::util::{Rng, random_playout};

/// Every notation a move can be written in.
pub const STYLES: [Style; 5] = [Style::Japanese, Style::Western, Style::Hosking, Style::Usi, Style::Csa];

/// Writes every legal move of `pos` in every notation, reads each text back (with the
/// notation detected from the text alone) and checks it names the same move. `previous` is
/// the destination of the move that led to `pos`, for 同. Returns the number of moves checked.
///
/// # Panics
///
/// On the first move that does not come back, with the position and the text.
pub fn round_trip_every_move(pos: &Position, previous: Previous) -> usize {
    let moves = pos.legal_moves();
    for &mv in &moves {
        for style in STYLES {
            let text = write(pos, mv, previous, style);
            let back = MoveToken::parse(&text)
                .map_err(|e| e.to_string())
                .and_then(|token| token.resolve(pos, previous).map_err(|e| e.to_string()));
            assert_eq!(back, Ok(mv), "{style} '{text}' for {mv} in {} (previous {previous:?})", pos.sfen());
        }
    }
    moves.len()
}

/// Calls `each` with `count` positions (and the previous move's destination) from random games
/// that start at `start`; each game lasts up to 150 plies.
pub fn random_positions(start: Handicap, seed: u64, count: usize, mut each: impl FnMut(&Position, Previous)) {
    let mut rng = Rng::new(seed);
    let mut seen = 0;
    while seen < count {
        let mut pos = Position::handicap(start);
        each(&pos, None);
        seen += 1;
        let mut game = Vec::new();
        random_playout(&mut pos, &mut rng, 150, |p, mv| game.push((p.clone(), mv.to())));
        for (p, to) in game.into_iter().take(count - seen) {
            each(&p, Some(to));
            seen += 1;
        }
    }
}

/// Positions per start: 16 starts × 1,300 = 20,800 positions.
const PER_START: usize = 1_300;

/// Round trips every move of [`PER_START`] positions from `start`, and checks the Japanese
/// against rsshogi's.
fn round_trip_from(start: Handicap) -> (usize, usize, Tally) {
    let (mut positions, mut moves, mut tally) = (0, 0, Tally::default());
    random_positions(start, start as u64 + 1, PER_START, |pos, previous| {
        positions += 1;
        moves += round_trip_every_move(pos, previous);
        cross_check(pos, &mut tally);
        // Without a previous move, 同 is not written: the squares are.
        if previous.is_some() && positions % 4 == 0 {
            moves += round_trip_every_move(pos, None);
        }
    });
    (positions, moves, tally)
}

macro_rules! round_trip_tests {
    ($($name:ident: $start:expr,)*) => {$(
        #[test]
        fn $name() {
            let (positions, moves, tally) = round_trip_from($start);
            assert_eq!(positions, PER_START);
            assert!(moves > positions * 10, "{moves} moves in {positions} positions");
            eprintln!(
                "round trip from {}: {positions} positions, {moves} moves, {} notations; rsshogi {tally:?}",
                $start,
                STYLES.len()
            );
        }
    )*};
}

round_trip_tests! {
    round_trip_even: Handicap::Even,
    round_trip_lance: Handicap::Lance,
    round_trip_right_lance: Handicap::RightLance,
    round_trip_bishop: Handicap::Bishop,
    round_trip_rook: Handicap::Rook,
    round_trip_rook_lance: Handicap::RookLance,
    round_trip_two_pieces: Handicap::TwoPieces,
    round_trip_three_pieces: Handicap::ThreePieces,
    round_trip_four_pieces: Handicap::FourPieces,
    round_trip_five_pieces: Handicap::FivePieces,
    round_trip_left_five_pieces: Handicap::LeftFivePieces,
    round_trip_six_pieces: Handicap::SixPieces,
    round_trip_left_seven_pieces: Handicap::LeftSevenPieces,
    round_trip_right_seven_pieces: Handicap::RightSevenPieces,
    round_trip_eight_pieces: Handicap::EightPieces,
    round_trip_ten_pieces: Handicap::TenPieces,
}

#[test]
fn every_start_has_a_round_trip_test() {
    // The tests above, one per start (16 × 1,300 = 20,800 positions), must name every start.
    let source = include_str!("round_trip.rs");
    for start in Handicap::ALL {
        assert!(source.contains(&format!("Handicap::{start:?},")), "no round trip test from {start}");
    }
}

/// Random positions where several pieces of one kind crowd round one square, so that the
/// movement words (上 引 寄 右 左 直) and Western origins are needed in every combination. Each
/// has both kings, and pieces of the other side scattered to pin, check and be captured.
pub fn crowded_positions(seed: u64, count: usize, mut each: impl FnMut(&Position)) {
    const KINDS: [PieceKind; 10] = [
        PieceKind::Gold,
        PieceKind::Silver,
        PieceKind::ProPawn,
        PieceKind::ProSilver,
        PieceKind::Knight,
        PieceKind::Dragon,
        PieceKind::Horse,
        PieceKind::Rook,
        PieceKind::Bishop,
        PieceKind::Lance,
    ];
    let mut rng = Rng::new(seed);
    let mut made = 0;
    while made < count {
        let mut setup = Setup::default();
        let turn = if rng.below(2) == 0 { Color::Black } else { Color::White };
        setup.turn = turn;
        let kind = KINDS[rng.below(KINDS.len())];
        let target = Square::from_index(rng.below(81)).expect("an index below 81");
        let near = |rng: &mut Rng| target.offset(rng.below(5) as i8 - 2, rng.below(5) as i8 - 2);
        for _ in 0..2 + rng.below(6) {
            if let Some(sq) = near(&mut rng) {
                setup.set(sq, Some(Piece::new(turn, kind)));
            }
        }
        for _ in 0..rng.below(6) {
            let other = KINDS[rng.below(KINDS.len())];
            let color = if rng.below(3) == 0 { turn } else { turn.flip() };
            if let Some(sq) = Square::from_index(rng.below(81)) {
                setup.set(sq, Some(Piece::new(color, other)));
            }
        }
        for color in Color::ALL {
            if let Some(sq) = Square::from_index(rng.below(81)) {
                setup.set(sq, Some(Piece::new(color, PieceKind::King)));
            }
        }
        if rng.below(2) == 0 && kind.hand_index().is_some() {
            setup.hand_mut(turn).add(kind);
        }
        if let Ok(pos) = Position::from_setup(setup) {
            each(&pos);
            made += 1;
        }
    }
}

#[test]
fn round_trip_crowded_positions() {
    let (mut positions, mut moves) = (0, 0);
    crowded_positions(7, 3_000, |pos| {
        positions += 1;
        moves += round_trip_every_move(pos, None);
    });
    eprintln!("round trip in crowded positions: {positions} positions, {moves} moves");
}
