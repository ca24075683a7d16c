//! The position key: pinned vectors, transpositions, sensitivity, incremental updates.

use kifudex::shogi::{Color, Handicap, Move, Piece, PieceKind, Position, PositionKey, Square};

use crate::util::{Rng, random_playout};

/// `tests/data/position_keys.csv` was written by `tests/data/position_keys.py`, an independent
/// implementation of the documented key format. Every row must match.
#[test]
fn pinned_vectors() {
    let csv = include_str!("data/position_keys.csv");
    let mut rows = 0;
    for line in csv.lines().skip(1) {
        let (position, key) = line.rsplit_once(',').expect("position,key");
        let p = replay(position);
        assert_eq!(p.key().to_string(), key, "{position}");
        assert_eq!(PositionKey::of(p.setup()), p.key(), "{position}");
        rows += 1;
    }
    assert!(rows >= 50, "the file pins {rows} keys");
    eprintln!("position_keys.csv: {rows} keys match");
}

fn replay(text: &str) -> Position {
    let (start, moves) = match text.split_once(" moves ") {
        Some((start, moves)) => (start, moves),
        None => (text, ""),
    };
    let mut p = match start {
        "startpos" => Position::startpos(),
        sfen => Position::from_setup(sfen.parse().expect("SFEN")).expect("position"),
    };
    for m in moves.split_whitespace() {
        p.play(m.parse().expect("USI move")).expect("legal move");
    }
    p
}

#[test]
fn move_orders_that_transpose_share_a_key() {
    let a = replay("startpos moves 7g7f 3c3d 2g2f 8c8d");
    let b = replay("startpos moves 2g2f 8c8d 7g7f 3c3d");
    assert_eq!(a.key(), b.key());
    assert_eq!(a.sfen(), b.sfen());
    // A bishop exchange reached in two orders.
    let c = replay("startpos moves 7g7f 3c3d 8h2b+ 3a2b 2g2f 8c8d");
    let d = replay("startpos moves 2g2f 3c3d 7g7f 8c8d 8h2b+ 3a2b");
    assert_eq!(c.key(), d.key());
    // The move number is not part of the key: a shuffle back returns the start key.
    assert_eq!(replay("startpos moves 2h3h 8b7b 3h2h 7b8b").key(), Position::startpos().key());
}

#[test]
fn any_single_change_changes_the_key() {
    let mut rng = Rng::new(3);
    for game in 0..200 {
        let mut p = Position::handicap(Handicap::ALL[game % 16]);
        let plies = rng.below(150);
        random_playout(&mut p, &mut rng, plies, |_, _| {});
        let base = p.setup().clone();
        let key = PositionKey::of(&base);

        let mut side = base.clone();
        side.turn = side.turn.flip();
        assert_ne!(PositionKey::of(&side), key);

        for color in Color::ALL {
            for kind in PieceKind::HAND {
                let mut more = base.clone();
                let n = more.hand(color).count(kind);
                more.hand_mut(color).set(kind, n + 1);
                assert_ne!(PositionKey::of(&more), key, "one more {kind} for {color}");
                if n > 0 {
                    let mut fewer = base.clone();
                    fewer.hand_mut(color).set(kind, n - 1);
                    assert_ne!(PositionKey::of(&fewer), key, "one {kind} fewer for {color}");
                }
            }
        }

        for sq in Square::all() {
            let mut changed = base.clone();
            match base.piece_at(sq) {
                Some(piece) => {
                    changed.set(sq, None);
                    assert_ne!(PositionKey::of(&changed), key, "{sq} emptied");
                    let other = Piece::new(piece.color.flip(), piece.kind);
                    changed.set(sq, Some(other));
                    assert_ne!(PositionKey::of(&changed), key, "{sq} changed side");
                    // Promoted, unpromoted, or (gold, king) another kind.
                    let kind = match piece.kind.promote() {
                        Some(promoted) => promoted,
                        None if piece.kind.is_promoted() => piece.kind.unpromote(),
                        None if piece.kind == PieceKind::Gold => PieceKind::Silver,
                        None => PieceKind::Gold,
                    };
                    changed.set(sq, Some(Piece::new(piece.color, kind)));
                    assert_ne!(PositionKey::of(&changed), key, "{sq} changed kind");
                }
                None => {
                    changed.set(sq, Some(Piece::new(Color::Black, PieceKind::Gold)));
                    assert_ne!(PositionKey::of(&changed), key, "{sq} filled");
                }
            }
        }
    }
}

/// The key kept up move by move equals the key computed from scratch, at every ply of 10,000
/// random games from every start position; so do undone keys.
#[test]
fn incremental_keys_match_full_computation() {
    let mut rng = Rng::new(2024);
    let mut plies = 0usize;
    for game in 0..10_000 {
        let mut p = Position::handicap(Handicap::ALL[game % 16]);
        let length = 1 + rng.below(160);
        random_playout(&mut p, &mut rng, length, |p, _| {
            assert_eq!(p.key(), PositionKey::of(p.setup()), "{}", p.sfen());
            plies += 1;
        });
        if game % 100 == 0 {
            while p.undo().is_some() {
                assert_eq!(p.key(), PositionKey::of(p.setup()));
            }
        }
    }
    assert!(plies > 500_000, "{plies} plies checked");
    eprintln!("incremental keys: 10000 games, {plies} plies, each equal to the key from scratch");
}

#[test]
fn key_after_predicts_the_key() {
    let mut rng = Rng::new(99);
    let mut p = Position::startpos();
    for _ in 0..300 {
        let moves: Vec<Move> = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        let predicted = p.key().after(p.setup(), m);
        p.play(m).unwrap();
        assert_eq!(p.key(), predicted);
    }
}
