//! The rules against Fairy-Stockfish's (variant `yarishogi`): the legal moves at every ply of
//! 10,000 random games. `tests/data/yari/oracle.py` played them with pyffish and committed a
//! digest of each game (`tests/data/yari/playouts.txt` says how it is made); these tests play
//! the same games with kifudex and compare. Where a game reaches a third occurrence of a
//! position, Fairy-Stockfish ends it and kifudex, following the published rules, plays on to
//! the fourth: the data names that ply, and the tests check that kifudex saw a third
//! occurrence there and did not stop.

use kifudex::shogi::{Move, Repetition};

use super::start;
use crate::util::Rng;

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

fn fnv(mut h: u64, text: &str) -> u64 {
    for b in text.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
    }
    h
}

/// One game of `playouts.txt`, as the data file says.
#[derive(Debug, PartialEq, Eq)]
struct Playout {
    plies: usize,
    end: String,
    digest: String,
    /// The ply of the first third occurrence, where Fairy-Stockfish ends the game.
    fsf_end: Option<usize>,
    drops: u64,
    promotions: u64,
    captures: u64,
}

/// Plays game `game` as `oracle.py` does: at every ply the legal moves, sorted as text, and the
/// move the game's generator picks; until no move is left, a fourth occurrence, or 100 plies.
fn playout(game: u64) -> Playout {
    let mut rng = Rng::new(game);
    let mut p = start();
    let mut digest = FNV_OFFSET;
    let (mut drops, mut promotions, mut captures) = (0, 0, 0);
    let mut fsf_end = None;
    let end = loop {
        let mut moves: Vec<(String, Move)> =
            p.legal_moves().into_iter().map(|m| (m.to_string(), m)).collect();
        moves.sort();
        let listed: Vec<&str> = moves.iter().map(|(text, _)| text.as_str()).collect();
        let text = p.setup().position_text();
        digest = fnv(digest, &format!("{text}|{}\n", listed.join(" ")));
        let repetition = p.repetition();
        if repetition == (Repetition::Repeated { times: 3 }) && fsf_end.is_none() {
            fsf_end = Some(p.ply());
        }
        match repetition {
            Repetition::Draw => break "draw".to_string(),
            Repetition::PerpetualCheck { loser } => break format!("perpetual-{loser}"),
            _ => {}
        }
        if moves.is_empty() {
            break if p.is_check() { "mate" } else { "stuck" }.to_string();
        }
        if p.ply() == 100 {
            break "cap".to_string();
        }
        let mv = moves[(rng.next() % moves.len() as u64) as usize].1;
        if mv.is_drop() {
            drops += 1;
        } else {
            captures += u64::from(p.piece_at(mv.to()).is_some());
            promotions += u64::from(mv.is_promotion());
        }
        p.play_unchecked(mv);
    };
    Playout { plies: p.ply(), end, digest: format!("{digest:016x}"), fsf_end, drops, promotions, captures }
}

/// `playouts.txt`: at every ply of 10,000 random games, the legal moves (and the board) equal
/// Fairy-Stockfish's; the totals of drops, promotions and captures played agree too.
#[test]
fn random_games_have_fairy_stockfishs_legal_moves_at_every_ply() {
    let data = include_str!("../data/yari/playouts.txt");
    let totals = data.lines().find_map(|l| l.strip_prefix("# totals: ")).expect("a totals line");
    let total = |name: &str| -> u64 {
        totals
            .split_whitespace()
            .find_map(|kv| kv.strip_prefix(&format!("{name}=")))
            .map_or(0, |v| v.parse().expect("a count"))
    };
    let rows: Vec<&str> = data.lines().filter(|l| !l.starts_with('#') && !l.is_empty()).collect();
    assert_eq!(rows.len(), 10_000);
    let games: Vec<Playout> = std::thread::scope(|scope| {
        let halves: Vec<_> = rows
            .chunks(rows.len() / 2)
            .map(|chunk| {
                scope.spawn(move || chunk.iter().map(|row| check_row(row)).collect::<Vec<Playout>>())
            })
            .collect();
        halves.into_iter().flat_map(|h| h.join().expect("a playout thread")).collect()
    });
    let sum = |f: fn(&Playout) -> u64| games.iter().map(f).sum::<u64>();
    assert_eq!(sum(|g| g.plies as u64), total("plies"));
    assert_eq!(sum(|g| g.drops), total("drops"));
    assert_eq!(sum(|g| g.promotions), total("promotions"));
    assert_eq!(sum(|g| g.captures), total("captures"));
    assert_eq!(sum(|g| u64::from(g.fsf_end.is_some())), total("fsf_third_occurrence"));
    assert!(total("drops") > 100_000 && total("promotions") > 10_000, "the games drop and promote: {totals}");
    eprintln!("playouts.txt: 10,000 games, {} plies, the legal moves equal at every ply", total("plies"));
}

/// Replays one row of `playouts.txt` and checks it.
fn check_row(row: &str) -> Playout {
    let fields: Vec<&str> = row.split_whitespace().collect();
    let [game, plies, end, digest, fsf_end, fsf_result] = fields[..] else { panic!("bad row {row}") };
    let got = playout(game.parse().expect("a game number"));
    let want_fsf = match (fsf_end, fsf_result) {
        ("-", "-") => None,
        (ply, "draw" | "black" | "white") => Some(ply.parse().expect("a ply")),
        _ => panic!("bad row {row}"),
    };
    assert_eq!(
        (got.plies, got.end.as_str(), got.digest.as_str()),
        (plies.parse().expect("plies"), end, digest),
        "game {game} differs from Fairy-Stockfish's (python3 tests/data/yari/oracle.py --show {game} prints its plies)"
    );
    assert_eq!(got.fsf_end, want_fsf, "game {game}: the third occurrence, where Fairy-Stockfish stops");
    got
}
