//! Searching without a position, names as people write them, aliases, player and year
//! statistics, engine evaluations, the SQL views, and the Parquet and JSON Lines exports.
//!
//! The archive of these tests is written here by hand: CSA records whose players, events,
//! dates, openings, first moves and endings are listed in [`records`], each player given an
//! identity label by hand (`habu`, `fujii`, …) beside the spelling the record uses. Every
//! expected count is worked out from that list by the test itself, never from kifudex.

mod evals;
mod formats;
mod games;
mod names;
mod players;
mod views;
mod years;

use std::{
    collections::HashMap,
    fs,
    path::{Path, PathBuf},
    process::Output,
    sync::OnceLock,
};

use kifudex::shogi::{Color, Handicap, Move, Position};

pub use crate::util::kifudex;
use crate::{query::csv_rows, util::Rng};

/// How a record ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// `%TORYO`: the side to move resigns.
    Resign,
    /// `%JISHOGI`: a draw by impasse.
    Draw,
    /// `%CHUDAN`: interrupted, no result.
    Interrupted,
}

/// A hand-made record: the spellings it uses and who they are.
#[derive(Clone, Debug)]
pub struct Rec {
    /// The file (under the archive), and the game's index in it is 0.
    pub file: &'static str,
    /// (identity label, spelling) of each side.
    pub black: (&'static str, &'static str),
    pub white: (&'static str, &'static str),
    pub event: &'static str,
    /// `YYYY/MM/DD`, or empty for none.
    pub date: &'static str,
    pub opening: &'static str,
    /// The first moves, in USI; random legal moves follow (seeded by `tail`).
    pub first: &'static str,
    /// The seed of the moves after `first`; records with the same `first` and `tail` are one
    /// game (copies in several files).
    pub tail: u64,
    pub end: End,
}

// One row of the table in `records`: positional, so that each record stays one line.
#[allow(clippy::too_many_arguments)]
const fn rec(
    file: &'static str,
    black: (&'static str, &'static str),
    white: (&'static str, &'static str),
    event: &'static str,
    date: &'static str,
    opening: &'static str,
    first: &'static str,
    tail: u64,
    end: End,
) -> Rec {
    Rec { file, black, white, event, date, opening, first, tail, end }
}

/// The archive. Game `tail` 7 is in two files, spelled two ways; the rest are one file each.
pub fn records() -> &'static [Rec] {
    use End::*;
    const RECORDS: &[Rec] = &[
        rec(
            "a/01.csa",
            ("habu", "羽生善治"),
            ("sato", "佐藤康光"),
            "第６２期名人戦",
            "2013/04/10",
            "矢倉",
            "7g7f 3c3d",
            1,
            Resign,
        ),
        rec(
            "a/02.csa",
            ("sato", "佐藤康光"),
            ("habu", "羽生 善治"),
            "第62期王位戦",
            "2013/07/01",
            "角換わり",
            "2g2f 8c8d",
            2,
            Resign,
        ),
        rec(
            "a/03.csa",
            ("habu", "羽生善治 名人"),
            ("fujii", "藤井聡太"),
            "第６２期王位戦",
            "2014/07/02",
            "相矢倉",
            "7g7f 8c8d",
            3,
            Resign,
        ),
        rec(
            "a/04.csa",
            ("fujii", "藤井聡太竜王・名人"),
            ("habu", "羽生善治"),
            "竜王戦",
            "2014/10/15",
            "四間飛車",
            "7g7f 3c3d",
            4,
            Draw,
        ),
        rec(
            "a/05.csa",
            ("watanabe", "渡辺明"),
            ("fujii", "藤井 聡太"),
            "ＮＨＫ杯",
            "2014/12/01",
            "",
            "5g5f 3c3d",
            5,
            Resign,
        ),
        rec(
            "a/06.csa",
            ("habu_en", "Habu Yoshiharu"),
            ("watanabe_en", "Watanabe Akira"),
            "NHK Cup",
            "2015/02/11",
            "Yagura",
            "7g7f 3c3d",
            6,
            Resign,
        ),
        rec(
            "b/07.csa",
            ("habu", "羽生善治"),
            ("watanabe", "渡辺明"),
            "棋聖戦",
            "2015/06/01",
            "矢倉",
            "2g2f 3c3d",
            7,
            Resign,
        ),
        rec(
            "c/07.csa",
            ("habu_en", "HABU YOSHIHARU"),
            ("watanabe", "渡辺 明"),
            "Kisei-sen",
            "2015/06/01",
            "Yagura",
            "2g2f 3c3d",
            7,
            Resign,
        ),
        rec(
            "a/08.csa",
            ("watanabe", "渡辺明"),
            ("habu", "羽生善治"),
            "棋聖戦",
            "2015/06/20",
            "角換わり",
            "7g7f 3c3d",
            8,
            Interrupted,
        ),
        rec(
            "a/09.csa",
            ("fujii", "藤井聡太"),
            ("watanabe", "渡辺明"),
            "ｎｈｋ杯",
            "2016/01/10",
            "四間飛車",
            "7g7f 8c8d",
            9,
            Resign,
        ),
        rec(
            "a/10.csa",
            ("sato", "佐藤康光"),
            ("fujii", "藤井聡太"),
            "竜王戦",
            "",
            "",
            "2g2f 8c8d",
            10,
            Resign,
        ),
        rec(
            "a/11.csa",
            ("fujii_en", "ＦＵＪＩＩ　Ｓｏｕｔａ"),
            ("sato", "佐藤康光"),
            "Ryuo-sen",
            "2016/03/03",
            "",
            "7g7f 3c3d",
            11,
            Resign,
        ),
    ];
    RECORDS
}

/// The identity labels the alias `Habu Yoshiharu` → 羽生善治 joins.
pub fn joined(label: &str) -> &str {
    if label == "habu_en" { "habu" } else { label }
}

/// The moves of a record: its first moves, then random legal moves to 12 plies.
pub fn moves_of(r: &Rec) -> Vec<Move> {
    let mut pos = Position::startpos();
    let mut moves: Vec<Move> = Vec::new();
    for m in r.first.split_whitespace() {
        let mv: Move = m.parse().unwrap();
        pos.play(mv).unwrap();
        moves.push(mv);
    }
    let mut rng = Rng::new(1000 + r.tail);
    while moves.len() < 12 {
        let legal = pos.legal_moves();
        let mv = legal[rng.below(legal.len())];
        pos.play(mv).unwrap();
        moves.push(mv);
    }
    assert!(!pos.legal_moves().is_empty(), "no record here ends in mate");
    moves
}

/// The result of a record, as `export games` names it: a resignation is lost by the side to
/// move after the last move.
pub fn result_of(r: &Rec) -> &'static str {
    match r.end {
        End::Draw => "draw",
        End::Interrupted => "unknown",
        End::Resign if moves_of(r).len() % 2 == 0 => "white",
        End::Resign => "black",
    }
}

/// The winner of a record's game, if any.
pub fn winner(r: &Rec) -> Option<Color> {
    match result_of(r) {
        "black" => Some(Color::Black),
        "white" => Some(Color::White),
        _ => None,
    }
}

/// A player's name as stored: the spelling without a title after it (the records here use
/// 名人 and 竜王・名人).
pub fn stored(spelling: &str) -> &str {
    spelling.trim_end_matches("竜王・名人").trim_end_matches("名人").trim_end()
}

/// A record as CSA text.
pub fn csa(r: &Rec) -> String {
    let mut headers =
        vec![format!("N+{}", r.black.1), format!("N-{}", r.white.1), format!("$EVENT:{}", r.event)];
    if !r.date.is_empty() {
        headers.push(format!("$START_TIME:{}", r.date));
    }
    if !r.opening.is_empty() {
        headers.push(format!("$OPENING:{}", r.opening));
    }
    let ending = match r.end {
        End::Resign => "%TORYO",
        End::Draw => "%JISHOGI",
        End::Interrupted => "%CHUDAN",
    };
    crate::util::games::csa(&headers, Handicap::Even, &moves_of(r), ending)
}

/// The archive written and indexed once: its directory and database.
pub struct Archive {
    _dir: tempfile::TempDir,
    pub root: PathBuf,
    pub db: PathBuf,
    /// The game id of each record (in the order of [`records`]).
    pub ids: Vec<i64>,
}

/// Writes the archive under `dir` and indexes it into `db`.
pub fn build(dir: &Path, db: &Path) -> Vec<i64> {
    for r in records() {
        let path = dir.join(r.file);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, csa(r)).unwrap();
    }
    let out = kifudex(["index", dir.to_str().unwrap(), "--quiet"]).db(db).output();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let root = fs::canonicalize(dir).unwrap();
    let by_path: HashMap<String, i64> = csv_rows(&kifudex(["export", "games"]).db(db).output().stdout)
        .into_iter()
        .map(|row| (row["source_path"].clone(), row["game_id"].parse().unwrap()))
        .collect();
    records().iter().map(|r| by_path[&root.join(r.file).to_string_lossy().to_string()]).collect()
}

/// The shared archive, without aliases (tests that add aliases make their own copy).
pub fn archive() -> &'static Archive {
    static ARCHIVE: OnceLock<Archive> = OnceLock::new();
    ARCHIVE.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let (root, db) = (dir.path().join("archive"), dir.path().join("k.sqlite"));
        let ids = build(&root, &db);
        Archive { root: fs::canonicalize(&root).unwrap(), db, ids, _dir: dir }
    })
}

/// The standard output of a run that exited 0 or 1.
pub fn stdout(out: &Output) -> String {
    assert!(matches!(out.status.code(), Some(0 | 1)), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap()
}
