//! What the hardening tests share: generated games, running the command, and the checks that
//! a database is sound.

use std::{
    collections::BTreeSet,
    fs,
    path::{Path, PathBuf},
    process::{Command, Output},
};

use kifudex::shogi::{Move, Position};

use crate::util::{Rng, command, random_playout, wrapper};

/// Writes `files` USI files of `per_file` random legal games each (40 to 160 plies) under
/// `dir`, in two subdirectories; the same seed gives the same files.
pub fn write_games(dir: &Path, files: usize, per_file: usize, seed: u64) -> Vec<PathBuf> {
    write_games_of(dir, files, per_file, 40..160, seed)
}

/// The same, with games of `plies` plies (a number in the range).
pub fn write_games_of(
    dir: &Path,
    files: usize,
    per_file: usize,
    plies: std::ops::Range<usize>,
    seed: u64,
) -> Vec<PathBuf> {
    let mut rng = Rng::new(seed);
    (0..files)
        .map(|i| {
            let path = dir.join(format!("part{}", i % 2)).join(format!("g{i:05}.usi"));
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            let text: String = (0..per_file).map(|_| usi_line_of(&mut rng, plies.clone())).collect();
            fs::write(&path, text).unwrap();
            path
        })
        .collect()
}

/// One random legal game as a USI line.
pub fn usi_line(rng: &mut Rng) -> String {
    usi_line_of(rng, 40..160)
}

fn usi_line_of(rng: &mut Rng, plies: std::ops::Range<usize>) -> String {
    let mut moves: Vec<Move> = Vec::new();
    let plies = plies.start + rng.below(plies.len());
    random_playout(&mut Position::startpos(), rng, plies, |_, mv| moves.push(mv));
    let words: Vec<String> = moves.iter().map(Move::to_string).collect();
    format!("position startpos moves {}\n", words.join(" "))
}

/// Runs `kifudex index DIR --db DB --quiet`.
pub fn index(dir: &Path, db: &Path) -> Output {
    command().arg("index").arg(dir).arg("--db").arg(db).arg("--quiet").output().unwrap()
}

/// Runs `kifudex export games --db DB` and returns the CSV.
pub fn export_games(db: &Path) -> String {
    let out = command().args(["export", "games", "--db"]).arg(db).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    String::from_utf8(out.stdout).unwrap()
}

/// Drops root's right to write any file, so that a read-only file is read-only to the run.
pub fn unprivileged(cmd: &mut Command) -> &mut Command {
    // setpriv (util-linux) runs the command as nobody.
    if is_root() {
        let program = cmd.get_program().to_owned();
        let args: Vec<_> = cmd.get_args().map(ToOwned::to_owned).collect();
        *cmd = wrapper("setpriv");
        cmd.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"]).arg(program).args(args);
    }
    cmd
}

/// Whether the tests run as root (whose writes no file mode stops).
pub fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.starts_with(b"0\n"))
}

/// The ids of the games that `export games` lists, or `None` when there is no kifudex
/// database yet (no file, or a file that a run killed before its first commit left).
pub fn listed_games(db: &Path) -> Option<BTreeSet<i64>> {
    let out = command().args(["export", "games", "--db"]).arg(db).output().unwrap();
    let message = stderr(&out);
    if out.status.code() == Some(2)
        && (message.contains("no kifudex database in") || message.contains("no database at"))
    {
        return None;
    }
    assert!(out.status.success(), "{}", stderr(&out));
    Some(csv_column(&out.stdout, "game_id").into_iter().map(|id| id.parse().unwrap()).collect())
}

/// [`listed_games`] of a database that a run may be making meanwhile: until its first
/// commit, a file that does not yet say it is kifudex's is refused as none (as a reader
/// finds while a database is made afresh), and is no database yet here.
pub fn listed_games_once_made(db: &Path) -> Option<BTreeSet<i64>> {
    let out = command().args(["games", "--limit", "1", "--db"]).arg(db).output().unwrap();
    if out.status.code() == Some(2) && stderr(&out).starts_with("kifudex: not a kifudex database: ") {
        return None;
    }
    listed_games(db)
}

/// The ids of the games that `query` finds at the start position.
pub fn games_at_start(db: &Path) -> BTreeSet<i64> {
    let out = command()
        .args(["query", "--format", "csv", "--csv", "games", "--limit", "100000000", "--db"])
        .arg(db)
        .output()
        .unwrap();
    assert!(matches!(out.status.code(), Some(0 | 1)), "{}", stderr(&out));
    csv_column(&out.stdout, "id").into_iter().map(|id| id.parse().unwrap()).collect()
}

/// The number of games that `export tree` says reach the start position.
pub fn tree_games_at_start(db: &Path) -> u64 {
    let out = command().args(["export", "tree", "--max-ply", "0", "--db"]).arg(db).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    csv_column(&out.stdout, "games").first().map_or(0, |n| n.parse().unwrap())
}

/// The values of one column of a CSV text with a header row.
fn csv_column(text: &[u8], name: &str) -> Vec<String> {
    let mut reader = csv::Reader::from_reader(text);
    let at = reader.headers().unwrap().iter().position(|h| h == name).unwrap();
    reader.records().map(|r| r.unwrap()[at].to_string()).collect()
}

/// Checks that the position answers cover exactly the stored games, all of which start from
/// the even-game start: `query` of the start position finds the games `export games` lists,
/// and `export tree` counts them. Returns the number of games.
pub fn assert_answers_cover_the_stored_games(db: &Path, context: &str) -> usize {
    let Some(listed) = listed_games(db) else {
        let out = command().args(["query", "--db"]).arg(db).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{context}: {}", stderr(&out));
        return 0;
    };
    assert_eq!(games_at_start(db), listed, "{context}: query and export games disagree");
    assert_eq!(
        tree_games_at_start(db),
        listed.len() as u64,
        "{context}: export tree and export games disagree"
    );
    listed.len()
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
