//! `kifudex query`, `show` and the `moves`, `positions` and `tree` exports, run as the real
//! binary against a database of generated games, and checked against answers computed here
//! by replaying the games with the rules engine, without the database.

use std::{
    collections::{BTreeMap, BTreeSet, HashMap},
    path::{Path, PathBuf},
    sync::OnceLock,
};

use kifudex::{
    db::GameResult,
    kifu::{self, Outcome},
    notation::MoveToken,
    replay,
    shogi::{Color, Handicap, Move, Position, PositionKey, Setup},
};
use serde_json::Value;

use crate::{
    index::{index_with, options},
    util::{
        games::{Spec, Truth, generate, truth, write_games},
        kifudex,
    },
};

/// The test database: generated games, indexed, with their ids.
pub struct Fixture {
    pub dir: Option<tempfile::TempDir>,
    pub db: PathBuf,
    pub paths: Vec<PathBuf>,
    pub specs: Vec<Spec>,
    pub ids: Vec<i64>,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let (games, db) = (dir.path().join("games"), dir.path().join("k.sqlite"));
        let specs = generate(300, 11);
        let paths = write_games(&games, &specs);
        // Small runs, so that answers combine several runs.
        index_with(&kifudex::ingest::Options { run_postings: 3_000, ..options(&games, &db, 2) });
        let ids = ids_of(&db, &paths);
        Fixture { dir: Some(dir), db, paths, specs, ids }
    })
}

/// The id of the game of each of `paths` in `db`.
pub fn ids_of(db: &Path, paths: &[PathBuf]) -> Vec<i64> {
    let by_path: HashMap<String, i64> = csv_rows(&kifudex(["export", "games"]).db(db).output().stdout)
        .into_iter()
        .map(|r| (r["source_path"].clone(), r["game_id"].parse().unwrap()))
        .collect();
    paths.iter().map(|p| by_path[&std::fs::canonicalize(p).unwrap().to_string_lossy().to_string()]).collect()
}

/// The rows of a CSV table, each keyed by column name.
pub fn csv_rows(bytes: &[u8]) -> Vec<HashMap<String, String>> {
    let mut reader = csv::Reader::from_reader(bytes);
    let headers = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|r| headers.iter().zip(r.unwrap().iter()).map(|(h, v)| (h.to_string(), v.to_string())).collect())
        .collect()
}

/// A filter as given on the command line, and the same filter computed here.
struct Filter {
    args: Vec<&'static str>,
    keeps: fn(&Spec) -> bool,
}

fn filters() -> Vec<Filter> {
    vec![
        Filter { args: vec![], keeps: |_| true },
        Filter {
            args: vec!["--player", "Player 3"],
            keeps: |s| s.black.contains("Player 3") || s.white.contains("Player 3"),
        },
        Filter { args: vec!["--black", "Player 1"], keeps: |s| s.black.contains("Player 1") },
        Filter { args: vec!["--white", "Player 2"], keeps: |s| s.white.contains("Player 2") },
        Filter { args: vec!["--event", "Cup 2"], keeps: |s| s.event == "Cup 2" },
        Filter {
            args: vec!["--since", "2015-03", "--until", "2020"],
            keeps: |s| iso(&s.date).as_str() >= "2015-03" && &iso(&s.date)[..4] <= "2020",
        },
        Filter { args: vec!["--result", "black"], keeps: |s| s.result == GameResult::BlackWin },
        Filter { args: vec!["--result", "draw"], keeps: |s| s.result == GameResult::Draw },
        Filter { args: vec!["--handicap", "香落ち"], keeps: |s| s.start == Handicap::Lance },
    ]
}

/// `YYYY/MM/DD` as ISO 8601.
fn iso(date: &str) -> String {
    date.replace('/', "-")
}

/// The answer computed here for the position `text` over the games `keep` accepts.
pub struct Expected {
    pub games: BTreeMap<i64, usize>,
    occurrences: usize,
    wins: [usize; 3],
    moves: BTreeMap<String, (BTreeSet<i64>, usize, [usize; 3])>,
}

fn wins_of(results: impl Iterator<Item = GameResult>) -> [usize; 3] {
    let mut w = [0; 3];
    for r in results {
        match r {
            GameResult::BlackWin => w[0] += 1,
            GameResult::WhiteWin => w[1] += 1,
            GameResult::Draw => w[2] += 1,
            GameResult::Unknown => {}
        }
    }
    w
}

pub fn expected(fx: &Fixture, occ: &Truth, text: &str, keep: &dyn Fn(usize) -> bool) -> Expected {
    let mine: Vec<_> = occ.get(text).map(|o| o.iter().filter(|o| keep(o.0)).collect()).unwrap_or_default();
    let mut games: BTreeMap<i64, usize> = BTreeMap::new();
    for &&(g, ply, _) in &mine {
        let first = games.entry(fx.ids[g]).or_insert(ply);
        *first = (*first).min(ply);
    }
    let index_of: HashMap<i64, usize> = fx.ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
    let wins = wins_of(games.keys().map(|id| fx.specs[index_of[id]].result));
    let mut played: BTreeMap<String, BTreeSet<i64>> = BTreeMap::new();
    let mut child_text: HashMap<String, String> = HashMap::new();
    for &&(g, ply, next) in &mine {
        if let Some(mv) = next {
            played.entry(mv.to_string()).or_default().insert(fx.ids[g]);
            child_text.insert(mv.to_string(), fx.specs[g].setups()[ply + 1].position_text());
        }
    }
    let moves = played
        .into_iter()
        .map(|(usi, ids)| {
            let reached: BTreeSet<i64> =
                occ[&child_text[&usi]].iter().filter(|o| keep(o.0)).map(|o| fx.ids[o.0]).collect();
            let w = wins_of(ids.iter().map(|id| fx.specs[index_of[id]].result));
            (usi, (ids, reached.len(), w))
        })
        .collect();
    Expected { games, occurrences: mine.len(), wins, moves }
}

pub fn check(answer: &Value, want: &Expected, what: &str) {
    let p = &answer["position"];
    assert_eq!(p["games"], want.games.len(), "{what}");
    assert_eq!(p["occurrences"], want.occurrences, "{what}");
    assert_eq!(
        [&p["black_wins"], &p["white_wins"], &p["draws"]],
        want.wins.map(Value::from).each_ref(),
        "{what}"
    );
    let moves = answer["moves"].as_array().unwrap();
    assert_eq!(moves.len(), want.moves.len(), "{what}");
    let mut last_played = u64::MAX;
    for m in moves {
        let usi = m["usi"].as_str().unwrap();
        let (ids, reached, w) = &want.moves[usi];
        let played = m["played"].as_u64().unwrap();
        assert!(played <= last_played, "{what}: moves come most played first");
        last_played = played;
        assert_eq!(played, ids.len() as u64, "{what} {usi}");
        assert_eq!(m["reached"], *reached, "{what} {usi}");
        assert_eq!(
            [&m["black_wins"], &m["white_wins"], &m["draws"]],
            w.map(Value::from).each_ref(),
            "{what} {usi}"
        );
    }
    let listed: BTreeMap<i64, usize> = answer["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["id"].as_i64().unwrap(), g["ply"].as_u64().unwrap() as usize))
        .collect();
    assert_eq!(listed, want.games, "{what}");
    let dates: Vec<&str> =
        answer["games"].as_array().unwrap().iter().map(|g| g["date"].as_str().unwrap_or("")).collect();
    assert!(dates.windows(2).all(|w| w[0] >= w[1]), "{what}: newest first");
}

pub fn query_json(args: &[&str], db: &Path) -> (Value, i32) {
    let out = kifudex([&["query", "--format", "json", "--limit", "100000"], args].concat()).db(db).output();
    let code = out.status.code().unwrap();
    assert!(code < 2, "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    (serde_json::from_slice(&out.stdout).unwrap(), code)
}

#[test]
fn answers_match_an_independent_replay_with_every_filter() {
    let fx = fixture();
    let (occ, setups_by_text) = truth(&fx.specs);
    // Positions reached by several games (transpositions among them), every handicap start
    // and some plies after it, and late positions of single games.
    let mut asked: BTreeSet<String> =
        occ.iter().filter(|(_, o)| o.len() > 1).map(|(t, _)| t.clone()).take(70).collect();
    for spec in fx.specs.iter().filter(|s| s.start != Handicap::Even).take(6) {
        let s = spec.setups();
        asked.extend([0, 1, 3].map(|i| s[i].position_text()));
    }
    for spec in fx.specs.iter().step_by(15) {
        asked.insert(spec.setups().last().unwrap().position_text());
    }
    assert!(asked.len() >= 100, "{}", asked.len());
    let transposed = asked
        .iter()
        .filter(|t| {
            let o = &occ[*t];
            o.iter().any(|a| o.iter().any(|b| fx.specs[a.0].moves[..a.1] != fx.specs[b.0].moves[..b.1]))
        })
        .count();
    assert!(transposed >= 5, "{transposed} transposed positions");
    let handicap_starts = asked
        .iter()
        .filter(|t| Handicap::find(&setups_by_text[*t]).is_some_and(|h| h != Handicap::Even))
        .count();
    assert!(handicap_starts >= 2, "{handicap_starts} handicap starts");

    let filters = filters();
    for (i, text) in asked.iter().enumerate() {
        let sfen = setups_by_text[text].to_string();
        // Every position unfiltered, and again under one of the filters in turn.
        for filter in [&filters[0], &filters[1 + i % (filters.len() - 1)]] {
            let keep = |g: usize| (filter.keeps)(&fx.specs[g]);
            let want = expected(fx, &occ, text, &keep);
            let (answer, code) = query_json(&[&["--sfen", &sfen], filter.args.as_slice()].concat(), &fx.db);
            check(&answer, &want, &format!("{sfen} {:?}", filter.args));
            assert_eq!(code, if want.games.is_empty() { 1 } else { 0 });
        }
    }
}

#[test]
fn moves_in_any_notation_a_file_and_ply_and_exact_sequences() {
    let fx = fixture();
    let (occ, _) = truth(&fx.specs);
    let all = |_: usize| true;
    for g in [0, 4, 9, 21] {
        let spec = &fx.specs[g];
        let n = 6.min(spec.moves.len());
        let usi: Vec<String> = spec.moves[..n].iter().map(Move::to_string).collect();
        let text = spec.setups()[n].position_text();
        let want = expected(fx, &occ, &text, &all);
        let start = spec.start.japanese();
        let (by_moves, _) = query_json(&["--moves", &usi.join(" "), "--start", start], &fx.db);
        check(&by_moves, &want, &format!("--moves {usi:?}"));
        let spec_arg = format!("{}:{n}", fx.paths[g].display());
        let (by_file, _) = query_json(&["--position", &spec_arg], &fx.db);
        check(&by_file, &want, &spec_arg);

        // Exactly this sequence: the games whose first moves are these, from this start.
        let (exact, _) =
            query_json(&["--moves", &usi.join(" "), "--start", start, "--exact-sequence"], &fx.db);
        let same: BTreeSet<i64> = (0..fx.specs.len())
            .filter(|&i| {
                fx.specs[i].start == spec.start && fx.specs[i].moves.get(..n) == Some(&spec.moves[..n])
            })
            .map(|i| fx.ids[i])
            .collect();
        let got: BTreeSet<i64> =
            exact["games"].as_array().unwrap().iter().map(|g| g["id"].as_i64().unwrap()).collect();
        assert_eq!(got, same, "{usi:?}");
        assert!(exact["games"].as_array().unwrap().iter().all(|g| g["ply"] == n));
        let played: usize =
            exact["moves"].as_array().unwrap().iter().map(|m| m["played"].as_u64().unwrap() as usize).sum();
        let continuing = same
            .iter()
            .filter(|id| fx.specs[fx.ids.iter().position(|x| x == *id).unwrap()].moves.len() > n)
            .count();
        assert_eq!(played, continuing);
    }
}

/// The position after 7g7f 3c3d as a KIF board diagram, drawn by hand.
const DIAGRAM: &str = "後手の持駒：なし
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
|v香v桂v銀v金v玉v金v銀v桂v香|一
| ・v飛 ・ ・ ・ ・ ・v角 ・|二
|v歩v歩v歩v歩v歩v歩 ・v歩v歩|三
| ・ ・ ・ ・ ・ ・v歩 ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ 歩 ・ ・ ・ ・ ・ ・|六
| 歩 歩 ・ 歩 歩 歩 歩 歩 歩|七
| ・ 角 ・ ・ ・ ・ ・ 飛 ・|八
| 香 桂 銀 金 玉 金 銀 桂 香|九
+---------------------------+
先手の持駒：なし
先手番
";

#[test]
fn a_board_diagram_from_a_file_or_stdin_is_the_same_position() {
    let fx = fixture();
    let (by_moves, _) = query_json(&["--moves", "7g7f 3c3d"], &fx.db);
    let file = fx.dir.as_ref().unwrap().path().join("position.bod");
    std::fs::write(&file, DIAGRAM).unwrap();
    let (by_file, _) = query_json(&["--bod", file.to_str().unwrap()], &fx.db);
    assert_eq!(by_file["moves"], by_moves["moves"]);
    assert_eq!(by_file["games"], by_moves["games"]);
    assert_eq!(by_file["position"]["games"], by_moves["position"]["games"]);
    // Stdin, as a file, may be in any encoding a record file may have.
    for encoding in [encoding_rs::UTF_8, encoding_rs::SHIFT_JIS, encoding_rs::EUC_JP] {
        let mut child = crate::util::command()
            .args(["query", "--format", "json", "--limit", "100000", "--bod", "-", "--db"])
            .arg(&fx.db)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write as _;
        child.stdin.take().unwrap().write_all(&encoding.encode(DIAGRAM).0).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}: {}", encoding.name(), String::from_utf8_lossy(&out.stderr));
        let by_stdin: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(by_stdin["games"], by_moves["games"], "{}", encoding.name());
    }
}

#[test]
fn transposed_openings_count_each_game_once() {
    let fx = fixture();
    // The generated openings reach one position by four orders of the same four moves.
    let (a, _) = query_json(&["--moves", "7g7f 3c3d 2g2f 8c8d"], &fx.db);
    let (b, _) = query_json(&["--moves", "▲２六歩 △８四歩 ▲７六歩 △３四歩"], &fx.db);
    let (c, _) = query_json(&["--moves", "1.P-26 P-34 2.P-76 P-84"], &fx.db);
    assert_eq!(a, b);
    assert_eq!(a, c);
    let orders = [
        ["7g7f", "3c3d", "2g2f", "8c8d"],
        ["2g2f", "8c8d", "7g7f", "3c3d"],
        ["2g2f", "3c3d", "7g7f", "8c8d"],
        ["7g7f", "8c8d", "2g2f", "3c3d"],
    ];
    let reaching = fx
        .specs
        .iter()
        .filter(|s| {
            s.start == Handicap::Even
                && orders.iter().any(|o| {
                    s.moves.len() >= 4
                        && s.moves[..4].iter().map(Move::to_string).eq(o.iter().map(|m| m.to_string()))
                })
        })
        .count();
    assert!(reaching > 20);
    assert_eq!(a["position"]["games"], reaching);
}

#[test]
fn the_table_shows_the_board_and_both_notations_side_by_side() {
    let fx = fixture();
    let out = kifudex(["query", "--moves", "7g7f 3c3d"]).db(&fx.db).output();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("|v香v桂v銀v金v玉v金v銀v桂v香|一"), "{text}");
    let header = text.lines().find(|l| l.starts_with("usi")).unwrap();
    let row = text.lines().find(|l| l.starts_with("2g2f")).unwrap();
    assert!(row.contains("▲２六歩") && row.contains("P-2f"), "{row}");
    // Columns line up in terminal cells: "played" ends where its numbers end.
    let cells = |s: &str, upto: usize| unicode_cells(&s[..upto]);
    let played_end = header.find("played").unwrap() + "played".len();
    let after_western = row.find("P-2f").unwrap() + "P-2f".len();
    let number_start = after_western + row[after_western..].find(|c: char| c != ' ').unwrap();
    let number_end = number_start + row[number_start..].find(' ').unwrap();
    assert_eq!(cells(header, played_end), cells(row, number_end), "{header}\n{row}");
}

/// Terminal cells: a full-width character takes two, ▲△ and ASCII one.
fn unicode_cells(s: &str) -> usize {
    s.chars().map(|c| if c.is_ascii() || c == '▲' || c == '△' { 1 } else { 2 }).sum()
}

#[test]
fn nothing_matched_exits_1_and_bad_positions_exit_2() {
    let fx = fixture();
    let (answer, code) = query_json(&["--moves", "1g1f 9c9d 1f1e 9d9e 1e1d"], &fx.db);
    assert_eq!((code, &answer["position"]["games"]), (1, &Value::from(0)));
    for bad in [
        vec!["--moves", "7g7f 7g7f"],
        vec!["--sfen", "not an sfen"],
        vec!["--moves", "7g7f", "--sfen", "startpos"],
        vec!["--sfen", "startpos", "--exact-sequence"],
        vec!["--since", "last year"],
        vec!["--handicap", "no such"],
        vec!["--position", "/no/such/file.kif:3"],
    ] {
        let out = kifudex([&["query"], bad.as_slice()].concat()).db(&fx.db).output();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(!out.stderr.is_empty(), "{bad:?}");
    }
}

/// `--position` takes a file whose name is not UTF-8 (an old archive's CP932 bytes, say),
/// alone and with a ply.
#[cfg(unix)]
#[test]
fn a_position_file_whose_name_is_not_utf8_is_read() {
    use std::{ffi::OsString, os::unix::ffi::OsStringExt};
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("games");
    std::fs::create_dir(&dir).unwrap();
    let odd = dir.join(OsString::from_vec(b"game\xff.usi".to_vec()));
    std::fs::write(&odd, "position startpos moves 7g7f 3c3d 2g2f\n").unwrap();
    std::fs::write(dir.join("other.usi"), "position startpos moves 7g7f 8c8d\n").unwrap();
    let db = tmp.path().join("k.sqlite");
    let out = kifudex(["index", "--quiet"]).args([&dir]).db(&db).output();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let mut with_ply = odd.clone().into_os_string();
    with_ply.push(":1");
    // After all three moves only that game; after 7g7f both.
    for (spec, games) in [(odd.into_os_string(), 1), (with_ply, 2)] {
        let out = kifudex(["query", "--format", "json", "--position"]).args([&spec]).db(&db).output();
        assert_eq!(out.status.code(), Some(0), "{spec:?}: {}", String::from_utf8_lossy(&out.stderr));
        let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(answer["position"]["games"], games, "{spec:?}: {answer}");
    }
}

#[test]
fn show_writes_every_format_and_each_reads_back_as_the_stored_game() {
    let fx = fixture();
    for g in (0..fx.specs.len()).step_by(37) {
        let spec = &fx.specs[g];
        for (to, ext) in [
            ("kif", "kifu"),
            ("ki2", "ki2u"),
            ("csa", "csa"),
            ("usi", "usi"),
            ("jkf", "jkf"),
            ("western", "psn"),
        ] {
            let out = kifudex(["show", &fx.ids[g].to_string(), "--to", to]).db(&fx.db).output();
            // USI writes every draw `draw`, which names no kind (these moves show none): said,
            // with status 1.
            let stderr = String::from_utf8_lossy(&out.stderr);
            let kind_lost = to == "usi" && spec.result == GameResult::Draw;
            assert_eq!(out.status.code(), Some(i32::from(kind_lost)), "{to}: {stderr}");
            assert_eq!(stderr.contains("reads back from a USI file as draw, a draw"), kind_lost, "{stderr}");
            let path = PathBuf::from(format!("game.{ext}"));
            let parsed = kifu::read_file(Some(&path), &out.stdout).unwrap();
            let game = &parsed.games[0];
            let replayed = replay::replay(game);
            assert!(replayed.status.is_complete(), "{to}: {}", replayed.status);
            assert_eq!(replayed.moves, spec.moves, "{to}");
            assert_eq!(
                replayed.start.position_text(),
                Position::handicap(spec.start).setup().position_text(),
                "{to}"
            );
            let result = match replayed.outcome {
                Some(Outcome::Win(Color::Black)) => GameResult::BlackWin,
                Some(Outcome::Win(Color::White)) => GameResult::WhiteWin,
                Some(Outcome::Draw) => GameResult::Draw,
                None => GameResult::Unknown,
            };
            // The generated results ignore who is to move at the end. CSA, USI and JKF write a
            // resignation as the side to move resigning, so they cannot hold a win for the side
            // to move; the others state the winner.
            let to_move = Position::handicap(spec.start).turn() == Color::Black && spec.moves.len() % 2 == 0
                || Position::handicap(spec.start).turn() == Color::White && spec.moves.len() % 2 == 1;
            let side_to_move_won = match spec.result {
                GameResult::BlackWin => to_move,
                GameResult::WhiteWin => !to_move,
                _ => false,
            };
            if !(side_to_move_won && matches!(to, "csa" | "usi" | "jkf")) {
                assert_eq!(result, spec.result, "{to}");
            }
            if to != "usi" {
                let info = &game.info;
                assert_eq!(info.black.as_ref().map(|p| p.name.as_str()), Some(spec.black.as_str()), "{to}");
                assert_eq!(info.white.as_ref().map(|p| p.name.as_str()), Some(spec.white.as_str()), "{to}");
                assert_eq!(info.start.map(|d| d.to_string()), Some(iso(&spec.date)), "{to}");
            }
        }
    }
    let out = kifudex(["show", "999999"]).db(&fx.db).output();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_moves_and_positions_exports_replay_every_game() {
    let fx = fixture();
    let index_of: HashMap<i64, usize> = fx.ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
    let moves = csv_rows(&kifudex(["export", "moves"]).db(&fx.db).output().stdout);
    assert_eq!(moves.len(), fx.specs.iter().map(|s| s.moves.len()).sum::<usize>());
    for row in &moves {
        let spec = &fx.specs[index_of[&row["game_id"].parse::<i64>().unwrap()]];
        let ply: usize = row["ply"].parse().unwrap();
        let before = &spec.setups()[ply - 1];
        let mv = spec.moves[ply - 1];
        assert_eq!(row["usi"], mv.to_string());
        assert_eq!(row["sfen_before"].parse::<Setup>().unwrap().position_text(), before.position_text());
        assert_eq!(row["key_before"], PositionKey::of(before).to_string());
        // Both notations read back, in the position, as the move played.
        let pos = Position::from_setup(before.clone()).unwrap();
        let previous = (ply > 1).then(|| spec.moves[ply - 2].to());
        for text in [&row["japanese"], &row["western"]] {
            let token = MoveToken::parse(text).unwrap();
            assert_eq!(token.resolve(&pos, previous).unwrap(), mv, "{text}");
        }
    }
    let positions = csv_rows(&kifudex(["export", "positions"]).db(&fx.db).output().stdout);
    assert_eq!(positions.len(), fx.specs.iter().map(|s| s.moves.len() + 1).sum::<usize>());
    // A filter keeps exactly the rows of its games.
    let filtered = csv_rows(&kifudex(["export", "moves", "--event", "Cup 1"]).db(&fx.db).output().stdout);
    let want: usize = fx.specs.iter().filter(|s| s.event == "Cup 1").map(|s| s.moves.len()).sum();
    assert_eq!(filtered.len(), want);
    let games = csv_rows(&kifudex(["export", "games", "--result", "white"]).db(&fx.db).output().stdout);
    assert_eq!(games.len(), fx.specs.iter().filter(|s| s.result == GameResult::WhiteWin).count());
}

#[test]
fn the_tree_export_holds_every_position_up_to_the_ply_once() {
    let fx = fixture();
    let (occ, _) = truth(&fx.specs);
    // Past ply 24 a posting does not hold the move played: the game says it.
    for (max_ply, args, keeps) in [
        (4, vec![], (|_| true) as fn(&Spec) -> bool),
        (4, vec!["--player", "Player 5"], |s: &Spec| s.black == "Player 5" || s.white == "Player 5"),
        (60, vec![], |_| true),
    ] {
        let depth = max_ply.to_string();
        let out = kifudex([&["export", "tree", "--max-ply", depth.as_str()], args.as_slice()].concat())
            .db(&fx.db)
            .output();
        assert_eq!(out.status.code(), Some(0));
        let rows = csv_rows(&out.stdout);
        let keep = |g: usize| keeps(&fx.specs[g]);
        // Expected rows: positions first reached (by a kept game) at `max_ply` or earlier,
        // and each move played from them.
        let mut want: BTreeMap<(String, String), (usize, usize, usize)> = BTreeMap::new();
        for (text, o) in &occ {
            let Some(ply) = o.iter().filter(|o| keep(o.0)).map(|o| o.1).min() else { continue };
            if ply > max_ply {
                continue;
            }
            let e = expected(fx, &occ, text, &keep);
            for (usi, (ids, reached, _)) in &e.moves {
                want.insert((text.clone(), usi.clone()), (ply, ids.len(), *reached));
            }
        }
        let got: BTreeMap<(String, String), (usize, usize, usize)> = rows
            .iter()
            .map(|r| {
                let text = r["sfen"].parse::<Setup>().unwrap().position_text();
                let n = |k: &str| r[k].parse::<usize>().unwrap();
                ((text, r["usi"].clone()), (n("ply"), n("played"), n("reached")))
            })
            .collect();
        assert_eq!(got.len(), rows.len(), "every (position, move) once");
        assert_eq!(got, want, "{args:?}");
    }
}
