//! The rules against Fairy-Stockfish's (variant `yarishogi`): perft, the start position and
//! repetition. The numbers were computed once by
//! `tests/data/yari/oracle.py` (pyffish) and are committed beside it; where Fairy-Stockfish's
//! rules differ from the published ones (it ends a game at the third occurrence of a position),
//! the data says so and these tests check that kifudex follows the published rules instead.

use kifudex::shogi::{Color, Position, Repetition, Variant};

use super::{pos, start};
use crate::util::perft;

/// `perft.txt`: the start position at depths 1 to 4, three positions of random play (pieces in
/// hand on both sides, promoted pieces, one in check) at depths 1 to 3.
#[test]
fn perft_equals_fairy_stockfish() {
    let mut rows = 0;
    let mut depths = [0; 5];
    for line in include_str!("../data/yari/perft.txt").lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split(" ; ").collect();
        let [sfen, depth, nodes] = fields[..] else { panic!("bad line {line}") };
        let depth: u32 = depth.parse().expect("a depth");
        let mut p = pos(sfen);
        assert_eq!(perft(&mut p, depth), nodes.parse::<u64>().expect("a count"), "{sfen} depth {depth}");
        assert_eq!(p.sfen(), sfen, "undo restores the position");
        depths[depth as usize] += 1;
        rows += 1;
    }
    assert_eq!(rows, 13);
    assert_eq!(depths, [0, 4, 4, 4, 1], "the start to depth 4, three more positions to depth 3");
}

/// Fairy-Stockfish's start FEN is `rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR[-] w 0 1` (its
/// `w`, the first player, is Black): the same board as the SFEN-like text.
#[test]
fn the_start_board_is_fairy_stockfishs() {
    let p = start();
    assert_eq!(p.sfen(), "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1");
    assert_eq!(p.turn(), Color::Black);
}

/// `repetition.txt`: Fairy-Stockfish ends a repeating game at the third occurrence; the
/// published rules, and kifudex, at the fourth: a draw, or a loss for the side whose every
/// move gave check. The verdict agrees; only the ply differs, by one cycle.
#[test]
fn repetition_ends_at_the_fourth_occurrence_not_fairy_stockfishs_third() {
    let data = include_str!("../data/yari/repetition.txt");
    let mut sequences = 0;
    for line in data.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split(" ; ").collect();
        let [name, sfen, moves, verdicts] = fields[..] else { panic!("bad line {line}") };
        let mut p = pos(sfen);
        let verdicts: Vec<&str> = verdicts.split_whitespace().collect();
        let mut fsf_ended_at = None;
        let mut ours = None;
        for (i, (m, verdict)) in moves.split_whitespace().zip(&verdicts).enumerate() {
            p.play(m.parse().expect("a move")).unwrap_or_else(|e| panic!("{name}: {m}: {e}"));
            let ply = i + 1;
            if *verdict != "-" && fsf_ended_at.is_none() {
                fsf_ended_at = Some((ply, *verdict));
                assert_eq!(p.repetition(), Repetition::Repeated { times: 3 }, "{name}: ply {ply}");
            }
            match p.repetition() {
                Repetition::Draw => ours = ours.or(Some((ply, "draw".to_string()))),
                Repetition::PerpetualCheck { loser } => ours = ours.or(Some((ply, loser.flip().to_string()))),
                _ => {}
            }
        }
        let (fsf_ply, fsf_verdict) =
            fsf_ended_at.unwrap_or_else(|| panic!("{name}: Fairy-Stockfish ends it"));
        let (our_ply, our_verdict) = ours.unwrap_or_else(|| panic!("{name}: the fourth occurrence ends it"));
        assert_eq!(our_verdict, fsf_verdict, "{name}: the same verdict");
        // One cycle of the sequence later: four plies here.
        assert_eq!(our_ply, fsf_ply + 4, "{name}: the fourth occurrence, one cycle after the third");
        sequences += 1;
    }
    assert_eq!(sequences, 2);
}

/// Yari shogi is played by kifudex's own rules, and standard shogi still by the rules crate:
/// the two never meet in one position.
#[test]
fn a_position_plays_by_its_own_game() {
    assert_eq!(start().variant(), Variant::Yari);
    assert_eq!(Position::startpos().variant(), Variant::Standard);
    assert_eq!(start().legal_moves().len(), 20);
    assert_eq!(Position::startpos().legal_moves().len(), 30);
}

/// An impasse needs both generals in their promotion zones; kifudex tells when they are, and
/// leaves the rest to the record.
#[test]
fn generals_in_camp() {
    assert!(!start().kings_in_camp());
    assert!(pos("3K3/7/7/7/7/7/7/7/3k3 b - 1").kings_in_camp());
    assert!(pos("3K3/7/7/7/7/7/3k3/7/7 b - 1").kings_in_camp(), "rank g is in White's zone");
    assert!(!pos("3K3/7/7/7/7/3k3/7/7/7 b - 1").kings_in_camp(), "rank f is not");
    assert!(!pos("7/7/7/3K3/7/7/7/7/3k3 b - 1").kings_in_camp());
}
