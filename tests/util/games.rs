//! Generated games for the index and query tests: random legal games from the even start and
//! from handicaps, with players, an event, a date and a result, written as real CSA records;
//! and every position they reach, worked out here by replaying them with the rules engine,
//! without the database ([`truth`]), as the answers of the index are checked against.

use std::{
    collections::HashMap,
    fs,
    path::{Path, PathBuf},
};

use kifudex::{
    db::GameResult,
    notation::{Style, write},
    shogi::{Color, Handicap, Move, Position, Setup},
};

use super::{Rng, random_playout};

/// A generated game.
#[derive(Clone, Debug)]
pub struct Spec {
    pub start: Handicap,
    pub moves: Vec<Move>,
    /// The side to move after the last move resigns, or the game is a draw (an impasse).
    pub result: GameResult,
    pub black: String,
    pub white: String,
    pub event: String,
    /// `YYYY/MM/DD`.
    pub date: String,
}

impl Spec {
    /// The game as a CSA record with its players, event, date and ending.
    pub fn csa(&self) -> String {
        let headers = [
            format!("N+{}", self.black),
            format!("N-{}", self.white),
            format!("$EVENT:{}", self.event),
            format!("$START_TIME:{}", self.date),
        ];
        let ending = if self.result == GameResult::Draw { "%JISHOGI" } else { "%TORYO" };
        csa(&headers, self.start, &self.moves, ending)
    }

    /// The game as one USI line, without anything else: `position sfen … moves …`.
    pub fn usi_line(&self) -> String {
        let moves: Vec<String> = self.moves.iter().map(Move::to_string).collect();
        format!("position sfen {} moves {}\n", self.start.sfen(), moves.join(" "))
    }

    /// The setup after each ply, 0 to the end.
    pub fn setups(&self) -> Vec<Setup> {
        let mut pos = Position::handicap(self.start);
        let mut out = vec![pos.setup().clone()];
        for &mv in &self.moves {
            pos.play(mv).expect("generated moves are legal");
            out.push(pos.setup().clone());
        }
        out
    }
}

/// A CSA record: the header lines given (`N+…`, `$EVENT:…`), the start (`PI` with the
/// pieces a handicap removes), the moves and the ending line (`%TORYO`).
pub fn csa(headers: &[String], start: Handicap, moves: &[Move], ending: &str) -> String {
    let mut text = String::from("V2.2\n");
    for h in headers {
        text.push_str(h);
        text.push('\n');
    }
    // CSA names a handicap by the squares of the pieces the giver (White, who moves first)
    // takes off.
    let (removed, first) = match start {
        Handicap::Even => ("", '+'),
        Handicap::Lance => ("11KY", '-'),
        Handicap::Bishop => ("22KA", '-'),
        Handicap::Rook => ("82HI", '-'),
        Handicap::TwoPieces => ("82HI22KA", '-'),
        other => panic!("no CSA start written here for {other:?}"),
    };
    text.push_str(&format!("PI{removed}\n{first}\n"));
    let mut pos = Position::handicap(start);
    for &mv in moves {
        text.push_str(&write(&pos, mv, None, Style::Csa));
        text.push('\n');
        pos.play(mv).expect("the moves are legal");
    }
    text.push_str(ending);
    text.push('\n');
    text
}

/// Openings that transpose into each other, so positions are reached by several orders.
const OPENINGS: &[&str] = &[
    "7g7f 3c3d 2g2f 8c8d",
    "2g2f 8c8d 7g7f 3c3d",
    "2g2f 3c3d 7g7f 8c8d",
    "7g7f 8c8d 2g2f 3c3d",
    "7g7f 3c3d 6g6f 8c8d",
    "5g5f 3c3d 7g7f 8c8d",
    "",
];

/// `n` generated games: even games from the openings above, and one game in ten from a
/// handicap, each continued by random legal moves; the same `seed` gives the same games.
pub fn generate(n: usize, seed: u64) -> Vec<Spec> {
    let mut rng = Rng::new(seed);
    let handicaps = [Handicap::Lance, Handicap::TwoPieces, Handicap::Bishop];
    (0..n)
        .map(|i| {
            let start = if i % 10 == 9 { handicaps[rng.below(handicaps.len())] } else { Handicap::Even };
            let mut pos = Position::handicap(start);
            let mut moves = Vec::new();
            if start == Handicap::Even {
                for m in OPENINGS[rng.below(OPENINGS.len())].split_whitespace() {
                    let mv: Move = m.parse().expect("opening moves are USI");
                    pos.play(mv).expect("opening moves are legal");
                    moves.push(mv);
                }
            }
            let plies = 20 + rng.below(50);
            random_playout(&mut pos, &mut rng, plies, |_, mv| moves.push(mv));
            // One game in three a draw, unless it ended in mate; the others resigned by the
            // side to move (or mated).
            let result = match (rng.below(3), pos.turn()) {
                (2, _) if !pos.legal_moves().is_empty() => GameResult::Draw,
                (_, Color::Black) => GameResult::WhiteWin,
                (_, Color::White) => GameResult::BlackWin,
            };
            Spec {
                start,
                moves,
                result,
                black: format!("Player {}", rng.below(12)),
                white: format!("Player {}", rng.below(12)),
                event: format!("Cup {}", rng.below(4)),
                date: format!(
                    "20{:02}/{:02}/{:02}",
                    10 + rng.below(15),
                    1 + rng.below(12),
                    1 + rng.below(28)
                ),
            }
        })
        .collect()
}

/// Writes each game to its own file, `d<i/50>/g<i>.csa`. Returns the paths.
pub fn write_games(dir: &Path, specs: &[Spec]) -> Vec<PathBuf> {
    specs
        .iter()
        .enumerate()
        .map(|(i, spec)| {
            let path = dir.join(format!("d{:02}", i / 50)).join(format!("g{i:04}.csa"));
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(&path, spec.csa()).unwrap();
            path
        })
        .collect()
}

/// Every occurrence of every position: position text → (game index, ply, next move).
pub type Truth = HashMap<String, Vec<(usize, usize, Option<Move>)>>;

/// Every position the games reach, found by replaying them here, and the setup of each.
pub fn truth(specs: &[Spec]) -> (Truth, HashMap<String, Setup>) {
    let mut occ: Truth = HashMap::new();
    let mut setups = HashMap::new();
    for (g, spec) in specs.iter().enumerate() {
        for (ply, setup) in spec.setups().into_iter().enumerate() {
            let text = setup.position_text();
            occ.entry(text.clone()).or_default().push((g, ply, spec.moves.get(ply).copied()));
            setups.entry(text).or_insert(setup);
        }
    }
    (occ, setups)
}
