//! Helpers shared by the integration tests.

use kifudex::shogi::{Move, Position};

/// A small deterministic generator (xorshift64*), so the tests need no RNG crate and give the
/// same games on every run.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E3779B97F4A7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545F4914F6CDD1D)
    }

    /// A number below `n` (which must not be 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Plays up to `plies` random legal moves from `pos`, calling `each` after every move.
pub fn random_playout(
    pos: &mut Position,
    rng: &mut Rng,
    plies: usize,
    mut each: impl FnMut(&Position, Move),
) {
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len())];
        pos.play(mv).expect("a generated move is legal");
        each(pos, mv);
    }
}

/// The number of legal move sequences of `depth` plies from `pos` (perft); `pos` ends as it
/// was.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for m in moves {
        pos.play_unchecked(m);
        nodes += perft(pos, depth - 1);
        pos.undo();
    }
    nodes
}

/// The invariant every database the tests build must keep, whatever went into it: every
/// export (`games`, `moves`, `positions`, `tree`, `rejects`, `warnings`) exits 0, and so does
/// `show` of every game, or of `shown_at_most` games spread evenly over the ids when there are
/// more: in its default format (KIF; Western for yari shogi), and in every format that holds
/// its game when it has at most 1,000 plies (a longer game's JKF text runs to hundreds of
/// megabytes) and is one of the first five shown or one of at most fifty.
/// Returns the number of games listed.
pub fn assert_every_read_works(db: &std::path::Path, context: &str, shown_at_most: usize) -> usize {
    use std::process::{Command, Stdio};
    let kifudex = || {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_kifudex"));
        cmd.env_remove("KIFUDEX_DB");
        cmd
    };
    let run = |args: &[&str]| {
        // The output is not kept: a million-ply game makes a million rows.
        let out = kifudex().args(args).arg("--db").arg(db).stdout(Stdio::null()).output();
        let out = out.expect("the kifudex binary runs");
        assert!(
            out.status.success(),
            "{context}: `kifudex {}` exited {:?}: {}",
            args.join(" "),
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        );
    };
    for table in ["games", "moves", "positions", "tree", "rejects", "warnings"] {
        run(&["export", table]);
    }
    let out = kifudex().args(["export", "games", "--db"]).arg(db).output().expect("the kifudex binary runs");
    let mut reader = csv::Reader::from_reader(out.stdout.as_slice());
    let headers = reader.headers().expect("a header row").clone();
    let column = |name: &str| headers.iter().position(|h| h == name).expect("a column of export games");
    let (id_at, plies_at, variant_at) = (column("game_id"), column("plies"), column("variant"));
    let mut games: Vec<(i64, u64, bool)> = reader
        .records()
        .map(|r| {
            let r = r.expect("a CSV row");
            let yari = &r[variant_at] == "yari";
            (r[id_at].parse().expect("a game id"), r[plies_at].parse().expect("a ply count"), yari)
        })
        .collect();
    games.sort_unstable();
    games.dedup();
    let step = games.len().div_ceil(shown_at_most.max(1)).max(1);
    let few = games.len().min(shown_at_most) <= 50;
    for (shown, &(id, plies, yari)) in games.iter().step_by(step).take(shown_at_most).enumerate() {
        run(&["show", &id.to_string()]);
        if (few || shown < 5) && plies <= 1_000 {
            let formats: &[&str] = match yari {
                false => &["kif", "ki2", "csa", "usi", "jkf", "western", "hosking"],
                true => &["usi", "western", "hosking"],
            };
            for to in formats {
                run(&["show", &id.to_string(), "--to", to]);
            }
        }
    }
    games.len()
}
