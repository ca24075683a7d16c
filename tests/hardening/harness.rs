//! What the hardening tests share: generated games, running the command, and the checks that
//! a database is sound.

use std::{
    fs,
    path::{Path, PathBuf},
    process::{Command, Output},
};

use kifudex::shogi::{Move, Position};

use crate::util::{Rng, random_playout};

/// Writes `files` USI files of `per_file` random legal games each (40 to 160 plies) under
/// `dir`, in two subdirectories; the same seed gives the same files.
pub fn write_games(dir: &Path, files: usize, per_file: usize, seed: u64) -> Vec<PathBuf> {
    let mut rng = Rng::new(seed);
    (0..files)
        .map(|i| {
            let path = dir.join(format!("part{}", i % 2)).join(format!("g{i:05}.usi"));
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            let text: String = (0..per_file).map(|_| usi_line(&mut rng)).collect();
            fs::write(&path, text).unwrap();
            path
        })
        .collect()
}

/// One random legal game as a USI line.
pub fn usi_line(rng: &mut Rng) -> String {
    let mut moves: Vec<Move> = Vec::new();
    let plies = 40 + rng.below(120);
    random_playout(&mut Position::startpos(), rng, plies, |_, mv| moves.push(mv));
    let words: Vec<String> = moves.iter().map(Move::to_string).collect();
    format!("position startpos moves {}\n", words.join(" "))
}

/// The `kifudex` command, with no database named by the environment.
pub fn kifudex() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kifudex"));
    cmd.env_remove("KIFUDEX_DB");
    cmd
}

/// Runs `kifudex index DIR --db DB --quiet`.
pub fn index(dir: &Path, db: &Path) -> Output {
    kifudex().arg("index").arg(dir).arg("--db").arg(db).arg("--quiet").output().unwrap()
}

/// Runs `kifudex export games --db DB` and returns the CSV.
pub fn export_games(db: &Path) -> String {
    let out = kifudex().args(["export", "games", "--db"]).arg(db).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    String::from_utf8(out.stdout).unwrap()
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Whether `db` is sound when no run writes to it: SQLite's own check passes, and no game or
/// file is there in part (every game has its moves and a source, every file the number of
/// games it says, every source a game). A database killed before its schema was made is
/// empty, and sound.
pub fn assert_sound(db: &Path) {
    let conn = rusqlite::Connection::open(db).unwrap();
    let check: String = conn.query_row("PRAGMA integrity_check", [], |r| r.get(0)).unwrap();
    assert_eq!(check, "ok", "{}", db.display());
    let tables: i64 =
        conn.query_row("SELECT count(*) FROM sqlite_schema WHERE name = 'games'", [], |r| r.get(0)).unwrap();
    if tables == 0 {
        return;
    }
    let broken: i64 = conn
        .query_row(
            "SELECT (SELECT count(*) FROM games g
                     WHERE length(g.moves) != 2 * g.plies
                        OR NOT EXISTS (SELECT 1 FROM sources s WHERE s.game = g.id))
                  + (SELECT count(*) FROM files f
                     WHERE f.games != (SELECT count(*) FROM sources s WHERE s.file = f.id))
                  + (SELECT count(*) FROM sources s
                     WHERE NOT EXISTS (SELECT 1 FROM games g WHERE g.id = s.game)
                        OR NOT EXISTS (SELECT 1 FROM files f WHERE f.id = s.file))",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(broken, 0, "{}: a game or a file was written in part", db.display());
}
