//! A folder of yari shogi games beside a shogi game, indexed: `query --variant yari` and the
//! exports answer over the yari games alone, with the counts this test finds by replaying the
//! games itself.
//!
//! The games are random (kifudex's legal moves, which `playouts.rs` checks against
//! Fairy-Stockfish's), written as Western records in Hodges notation. A third of them
//! open 7g7f 3c3d; a third reach the same position by another order, the generals stepping
//! out and back (7g7f 4a4b 4i4h 4b4a 4h4i 3c3d); a third play at random from the start. The
//! expected counts come from a board this file keeps itself: a grid of SFEN letters that
//! moves, captures, promotes and drops as the moves say, with no rule of the game in it.

use std::{
    collections::{BTreeMap, BTreeSet, HashMap},
    fs,
    path::Path,
};

use kifudex::{
    notation::{self, Style},
    shogi::{Position, Variant},
};
use serde_json::Value;

use crate::{
    query::csv_rows,
    util::{Rng, assert_every_read_works, kifudex},
};

const GAMES: u64 = 60;
const PLIES: usize = 14;
const RESULTS: [(&str, &str); 3] = [("1-0", "black"), ("0-1", "white"), ("1/2-1/2", "draw")];

/// A board kept by hand: squares by (file, rank letter), each holding an SFEN piece (`P`, `+r`);
/// the pieces in hand as uppercase letters for Black, lowercase for White; the side to move.
#[derive(Clone, PartialEq, Eq)]
struct Board {
    squares: BTreeMap<(u8, u8), String>,
    hands: BTreeMap<char, u32>,
    black_to_move: bool,
}

impl Board {
    /// Yari shogi's start, from the rules: Black's back rank from file 7 to 1 is R B B K N N R,
    /// pawns on the third rank; White's mirrors it.
    fn start() -> Board {
        let mut squares = BTreeMap::new();
        for (i, piece) in "RBBKNNR".chars().enumerate() {
            let file = 7 - i as u8;
            squares.insert((file, b'i'), piece.to_string());
            squares.insert((8 - file, b'a'), piece.to_ascii_lowercase().to_string());
            squares.insert((file, b'g'), "P".to_string());
            squares.insert((file, b'c'), "p".to_string());
        }
        Board { squares, hands: BTreeMap::new(), black_to_move: true }
    }

    /// Plays a move in the USI-like form: `7g7f`, `2c2b+`, `N*5e`.
    fn play(&mut self, usi: &str) {
        let b = usi.as_bytes();
        let mine = |c: char| if self.black_to_move { c.to_ascii_uppercase() } else { c.to_ascii_lowercase() };
        if b[1] == b'*' {
            let piece = mine(char::from(b[0]));
            let left = self.hands.get_mut(&piece).expect("a dropped piece is in hand");
            *left -= 1;
            if *left == 0 {
                self.hands.remove(&piece);
            }
            self.squares.insert((b[2] - b'0', b[3]), piece.to_string());
        } else {
            let mut piece = self.squares.remove(&(b[0] - b'0', b[1])).expect("a piece on the origin");
            if let Some(taken) = self.squares.remove(&(b[2] - b'0', b[3])) {
                let kind = taken.trim_start_matches('+').chars().next().expect("a piece letter");
                *self.hands.entry(mine(kind)).or_default() += 1;
            }
            if b.get(4) == Some(&b'+') {
                piece.insert(0, '+');
            }
            self.squares.insert((b[2] - b'0', b[3]), piece);
        }
        self.black_to_move = !self.black_to_move;
    }

    /// The position as SFEN without the move number: `rnnkbbr/7/…/RBBKNNR b 2Pn`.
    fn sfen(&self) -> String {
        let mut ranks = Vec::new();
        for rank in b'a'..=b'i' {
            let (mut row, mut empty) = (String::new(), 0);
            for file in (1..=7).rev() {
                match self.squares.get(&(file, rank)) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push_str(p);
                    }
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            ranks.push(row);
        }
        // SFEN lists the hands Black's first, rook, bishop, knight, pawn.
        let mut hands = String::new();
        for piece in "RBNPrbnp".chars() {
            match self.hands.get(&piece) {
                None => {}
                Some(1) => hands.push(piece),
                Some(n) => hands.push_str(&format!("{n}{piece}")),
            }
        }
        let side = if self.black_to_move { 'b' } else { 'w' };
        format!("{} {side} {}", ranks.join("/"), if hands.is_empty() { "-" } else { &hands })
    }
}

/// A game: its moves in the USI-like form and in Hodges notation, its result tag and result.
struct Game {
    usi: Vec<String>,
    hodges: Vec<String>,
    tag: &'static str,
    result: &'static str,
}

fn games() -> Vec<Game> {
    (0..GAMES)
        .map(|g| {
            let prefix: &[&str] = match g % 3 {
                0 => &["7g7f", "3c3d"],
                1 => &["7g7f", "4a4b", "4i4h", "4b4a", "4h4i", "3c3d"],
                _ => &[],
            };
            let mut pos = Position::start(Variant::Yari);
            let (mut usi, mut hodges) = (Vec::new(), Vec::new());
            let mut rng = Rng::new(g);
            for ply in 0..PLIES {
                let mv = match prefix.get(ply) {
                    Some(text) => text.parse().expect("a move"),
                    None => {
                        let legal = pos.legal_moves();
                        if legal.is_empty() {
                            break;
                        }
                        legal[rng.below(legal.len())]
                    }
                };
                hodges.push(notation::write(&pos, mv, None, Style::Western));
                usi.push(mv.to_string());
                pos.play(mv).expect("a legal move");
            }
            let (tag, result) = RESULTS[(g % 3) as usize];
            // Another result order than the openings', so that each opening has every result.
            let (tag, result) = if g % 2 == 0 { (tag, result) } else { RESULTS[((g + 1) % 3) as usize] };
            Game { usi, hodges, tag, result }
        })
        .collect()
}

/// What the query and the tree must say about `target` (SFEN without the move number).
#[derive(Debug, Default, PartialEq, Eq)]
struct Expected {
    games: u64,
    occurrences: u64,
    results: BTreeMap<&'static str, u64>,
    /// Per next move: (games that played it here, games that reach the position after it).
    moves: BTreeMap<String, (u64, u64)>,
}

fn expected(games: &[Game], target: &Board) -> Expected {
    let want = target.sfen();
    let seen: Vec<(Vec<String>, BTreeSet<String>)> = games
        .iter()
        .map(|game| {
            let mut board = Board::start();
            let mut line = vec![board.sfen()];
            for m in &game.usi {
                board.play(m);
                line.push(board.sfen());
            }
            let set = line.iter().cloned().collect();
            (line, set)
        })
        .collect();
    let mut e = Expected::default();
    let mut played: HashMap<String, BTreeSet<usize>> = HashMap::new();
    for (g, ((line, _), game)) in seen.iter().zip(games).enumerate() {
        let at: Vec<usize> = (0..line.len()).filter(|&i| line[i] == want).collect();
        if at.is_empty() {
            continue;
        }
        e.games += 1;
        e.occurrences += at.len() as u64;
        *e.results.entry(game.result).or_default() += 1;
        for &i in at.iter().filter(|&&i| i < game.usi.len()) {
            played.entry(game.usi[i].clone()).or_default().insert(g);
        }
    }
    for (mv, by) in played {
        let mut after = target.clone();
        after.play(&mv);
        let reached = seen.iter().filter(|(_, set)| set.contains(&after.sfen())).count() as u64;
        e.moves.insert(mv, (by.len() as u64, reached));
    }
    e
}

/// Writes the games as Western records, one per file, and a shogi game that opens 7g7f 3c3d.
fn write_folder(dir: &Path, games: &[Game]) {
    for (g, game) in games.iter().enumerate() {
        let tag = game.tag;
        let text = format!(
            "[Variant \"Yari shogi\"]\n[Black \"Black {g}\"]\n[White \"White {g}\"]\n[Result \"{tag}\"]\n\n{} {tag}\n",
            game.hodges.join(" ")
        );
        fs::write(dir.join(format!("yari-{g:02}.psn")), text).unwrap();
    }
    fs::write(dir.join("shogi.usi"), "startpos moves 7g7f 3c3d 2g2f\n").unwrap();
}

fn json(db: &Path, args: &[&str]) -> Value {
    let out = kifudex(args).db(db).output();
    assert!(matches!(out.status.code(), Some(0 | 1)), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON")
}

fn csv(db: &Path, args: &[&str]) -> Vec<HashMap<String, String>> {
    let out = kifudex(args).db(db).output();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    csv_rows(&out.stdout)
}

#[test]
fn yari_games_are_indexed_queried_and_exported_apart_from_shogi_games() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("games");
    fs::create_dir(&dir).unwrap();
    let games = games();
    write_folder(&dir, &games);
    let db = tmp.path().join("k.sqlite");
    let out = kifudex(["index", dir.to_str().unwrap(), "--json"]).db(&db).output();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        summary["games_added"].as_u64().unwrap() + summary["games_duplicate"].as_u64().unwrap(),
        GAMES + 1
    );
    assert_eq!(
        (summary["games_rejected"].as_u64(), summary["warnings"].as_u64()),
        (Some(0), Some(0)),
        "{summary}"
    );

    let mut target = Board::start();
    target.play("7g7f");
    target.play("3c3d");
    let want = expected(&games, &target);
    assert!(want.games >= 2 * GAMES / 3, "both openings reach it: {want:?}");
    eprintln!("yari index: the position after P-7f P-3d: {want:?}");

    // The query, in Hodges and in the USI-like form, and with the variant named or shown.
    for args in [
        &["query", "--variant", "yari", "--moves", "P-7f P-3d", "--format", "json", "--limit", "0"][..],
        &["query", "--variant", "yari", "--moves", "7g7f 3c3d", "--format", "json", "--limit", "0"],
        &["query", "--sfen", &format!("{} 1", target.sfen()), "--format", "json", "--limit", "0"],
    ] {
        let answer = json(&db, args);
        let p = &answer["position"];
        let count = |v: &Value| v.as_u64().unwrap();
        let mut results = BTreeMap::new();
        for (name, key) in [("black", "black_wins"), ("white", "white_wins"), ("draw", "draws")] {
            if count(&p[key]) > 0 {
                results.insert(name, count(&p[key]));
            }
        }
        let moves = answer["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (m["usi"].as_str().unwrap().to_string(), (count(&m["played"]), count(&m["reached"]))))
            .collect();
        let got =
            Expected { games: count(&p["games"]), occurrences: count(&p["occurrences"]), results, moves };
        assert_eq!(got, want, "{args:?}");
    }

    // The shogi position of the same moves is the shogi game's alone.
    let shogi = json(&db, &["query", "--moves", "7g7f 3c3d", "--format", "json"]);
    assert_eq!(shogi["position"]["games"], 1);
    assert_eq!(shogi["games"][0]["white"], Value::Null);
    // A filter on the other game, or a position of the other game, is refused.
    let out = kifudex(["query", "--variant", "standard", "--sfen", &format!("{} 1", target.sfen())])
        .db(&db)
        .output();
    assert_eq!(out.status.code(), Some(2));

    // The exports: every yari game once, each move once, and the tree's counts.
    let rows = csv(&db, &["export", "games", "--variant", "yari"]);
    assert_eq!(rows.len() as u64, GAMES);
    assert!(rows.iter().all(|r| r["variant"] == "yari" && r["start_sfen"].starts_with("rnnkbbr/7/")));
    let shogi_rows = csv(&db, &["export", "games", "--variant", "standard"]);
    assert_eq!(shogi_rows.len(), 1);
    assert_eq!(shogi_rows[0]["variant"], "standard");
    let moves = csv(&db, &["export", "moves", "--variant", "yari"]);
    assert_eq!(moves.len(), games.iter().map(|g| g.usi.len()).sum::<usize>());
    // Japanese notation writes each yari piece as the shogi piece of its letter.
    assert!(moves.iter().all(|r| r["japanese"].starts_with(['▲', '△']) && !r["western"].is_empty()));
    let tree = csv(&db, &["export", "tree", "--variant", "yari", "--max-ply", "6"]);
    assert!(tree.iter().all(|r| r["japanese"].starts_with(['▲', '△'])));
    let here: Vec<_> =
        tree.iter().filter(|r| r["sfen"].rsplit_once(' ').map(|(p, _)| p) == Some(&target.sfen())).collect();
    let tree_moves: BTreeMap<String, (u64, u64)> = here
        .iter()
        .map(|r| (r["usi"].clone(), (r["played"].parse().unwrap(), r["reached"].parse().unwrap())))
        .collect();
    assert_eq!(tree_moves, want.moves);
    assert!(here.iter().all(|r| r["games"].parse::<u64>().unwrap() == want.games));

    // Every export, and the show of every game (Western by default for yari games), reads.
    assert_every_read_works(&db, "a folder of yari games", usize::MAX);
    let csa = kifudex(["show", &rows[0]["game_id"], "--to", "csa"]).db(&db).output();
    assert_eq!(csa.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&csa.stderr).contains("which a CSA record cannot hold"));
}
