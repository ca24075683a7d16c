//! The yari position key: vectors pinned by an independent implementation, incremental
//! updates, and keys apart from standard shogi's.

use kifudex::shogi::{Position, PositionKey, Setup, Variant};

use super::{play, pos, start};
use crate::util::{Rng, random_playout};

/// `tests/data/yari/position_keys.csv` was written by `tests/data/yari/position_keys.py`, an
/// independent implementation of the documented yari key format. Every row must match.
#[test]
fn pinned_vectors() {
    let mut rows = 0;
    for line in include_str!("../data/yari/position_keys.csv").lines().skip(1) {
        let (position, key) = line.rsplit_once(',').expect("position,key");
        let (first, moves) = position.split_once(" moves ").unwrap_or((position, ""));
        let mut p = if first == "startpos" { start() } else { pos(first) };
        play(&mut p, moves);
        assert_eq!(p.key().to_string(), key, "{position}");
        assert_eq!(PositionKey::of(p.setup()), p.key(), "{position}");
        rows += 1;
    }
    assert!(rows >= 25, "the file pins {rows} keys");
}

#[test]
fn keys_follow_moves_and_undo() {
    let mut rng = Rng::new(17);
    for _ in 0..100 {
        let mut p = start();
        let mut keys = vec![p.key()];
        random_playout(&mut p, &mut rng, 150, |p, _| {
            assert_eq!(p.key(), PositionKey::of(p.setup()), "{}", p.sfen());
            keys.push(p.key());
        });
        while p.undo().is_some() {
            keys.pop();
            assert_eq!(Some(&p.key()), keys.last());
        }
    }
}

/// The same pieces on the same squares, or the same move sequence, give a yari key that is
/// not the standard key: the two games' positions never match.
#[test]
fn yari_keys_are_not_standard_keys() {
    let yari: Setup = "3k3/7/7/7/7/7/7/7/3K3 b P 1".parse().expect("yari SFEN");
    let standard: Setup = "5k3/9/9/9/9/9/9/9/5K3 b P 1".parse().expect("SFEN");
    assert_eq!(yari.variant, Variant::Yari);
    assert_eq!(yari.board, standard.board, "the same pieces on the same squares");
    assert_ne!(PositionKey::of(&yari), PositionKey::of(&standard));
    let mut a = start();
    let mut b = Position::startpos();
    play(&mut a, "7g7f 3c3d");
    play(&mut b, "7g7f 3c3d");
    assert_ne!(a.key(), b.key());
}
