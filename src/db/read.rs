//! The reader: consistent snapshots for queries, streams for exports, file states for ingest.

use crate::text::path_text;
use std::{collections::HashSet, path::Path};

use rusqlite::{Connection, OptionalExtension, Row, params_from_iter};

pub use super::filter::GameFilter;
use super::{
    GameId, GameResult, Result,
    codec::{decode_comments, decode_headers, decode_moves, decode_times},
    filter::{Conditions, any_record_of_a_kept_game, shown_record},
    index::{self, Run},
    migrate,
    signature::{Signature, moves_tell_apart},
};
use crate::shogi::{Handicap, Move, Setup, Variant};

/// The reader: one connection, used from one thread.
pub struct Reader {
    conn: Connection,
}

/// What the database knows of a file, for deciding whether it changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileState {
    pub size: u64,
    pub mtime_ns: i64,
    /// The status change time seen when the file was last read or found unchanged by its
    /// content (`None` for a file recorded before it was kept).
    pub ctime_ns: Option<i64>,
    /// The device of the filesystem it was on (see [`crate::walk::SourceFile::device`]);
    /// `None` for a file recorded before it was kept.
    pub device: Option<i64>,
    pub hash: Vec<u8>,
    /// The reject code when the file yielded no game.
    pub error: Option<String>,
    /// Games in it that stopped early.
    pub stopped: u64,
}

/// One row of the games export: a game as one file holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OccurrenceRow {
    pub game: GameId,
    pub path: String,
    pub index: u32,
    pub format: Option<String>,
    pub encoding: Option<String>,
    pub event: Option<String>,
    pub date: Option<String>,
    pub black: Option<String>,
    pub white: Option<String>,
    pub handicap: Option<Handicap>,
    pub start_sfen: String,
    /// The start, read from `start_sfen`, and the moves of the game: what makes it the same
    /// game in any database.
    pub start: Setup,
    pub moves: Vec<Move>,
    pub plies: u32,
    pub end_sfen: String,
    pub result: GameResult,
    pub termination: Option<String>,
    /// `None` when this source was replayed to the end, else the stop reason code.
    pub status: Option<String>,
    /// Set when an earlier source (in path order) holds the same game: that game's id.
    pub duplicate_of: Option<GameId>,
    /// The rest of what this file's record says.
    pub info: RecordInfo,
    /// The game it is a game of.
    pub variant: Variant,
    /// This file's seconds per move, when known, then its ending's (see [`StoredGame`]).
    pub times: Vec<Option<u32>>,
    /// This file's comments by ply, those after its ending included (see [`StoredGame`]).
    pub comments: Vec<(u32, String)>,
    /// This file's foul written as a move (see [`StoredGame::foul`]).
    pub foul: Option<String>,
    /// For a game whose moves tell it from no other (no move, or a record stopped early),
    /// what tells it apart, which its key holds ([`crate::export::game_key`]): black's and
    /// white's name keys, the day, the result and the termination, joined by tabs.
    pub told_apart: Option<String>,
}

/// What one file's record of a game says beyond its list entry ([`GameRow`]): the titles
/// written after the players' names, the site, the end date, the time control, the opening,
/// and every header as written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordInfo {
    pub black_title: Option<String>,
    pub white_title: Option<String>,
    pub site: Option<String>,
    pub end_date: Option<String>,
    pub time_control: Option<String>,
    pub opening: Option<String>,
    pub headers: Vec<(String, String)>,
}

/// The columns [`record_info`] reads, of the record aliased `s`.
const RECORD_INFO_COLUMNS: &str =
    "s.black_title, s.white_title, s.site, s.end_date, s.time_control, s.opening, s.headers";

/// The column of a record's foul written as a move: NULL in a file from before
/// [`migrate::FOULS`], which kept none.
fn foul_column(conn: &Connection) -> Result<&'static str> {
    Ok(if migrate::version(conn)? < migrate::FOULS { "NULL" } else { "s.foul" })
}

/// The [`RECORD_INFO_COLUMNS`] of row `r`, from column `at` on.
fn record_info(r: &Row<'_>, at: usize) -> Result<RecordInfo> {
    let headers: Option<String> = r.get(at + 6)?;
    Ok(RecordInfo {
        black_title: r.get(at)?,
        white_title: r.get(at + 1)?,
        site: r.get(at + 2)?,
        end_date: r.get(at + 3)?,
        time_control: r.get(at + 4)?,
        opening: r.get(at + 5)?,
        headers: headers.as_deref().map(decode_headers).transpose()?.unwrap_or_default(),
    })
}

/// The columns [`told_apart`] reads, of the record aliased `s` (with its players `pb` and `pw`)
/// of the game aliased `g`; a file before [`migrate::OWN_ENDINGS`] keeps no record's own
/// ending, and its records end as their games do.
fn told_apart_columns(conn: &Connection) -> Result<&'static str> {
    Ok(if migrate::version(conn)? < migrate::OWN_ENDINGS {
        "g.plies, s.status, pb.name, pw.name, s.date, g.result, g.termination, NULL, NULL"
    } else {
        "g.plies, s.status, pb.name, pw.name, s.date, g.result, g.termination, s.own_result, s.own_termination"
    })
}

/// What tells apart a game whose moves tell it from no other, from its record in the
/// [`told_apart_columns`] of row `r` from column `at` on: the text of the record's
/// [`Signature`], which the game's key holds (any record of such a game says the same). `None`
/// for a game its moves tell apart.
fn told_apart(r: &Row<'_>, at: usize) -> Result<Option<String>> {
    let plies: u32 = r.get(at)?;
    if moves_tell_apart(plies, r.get_ref(at + 1)?.as_str_or_null()?.is_some()) {
        return Ok(None);
    }
    let (result, termination) = match r.get::<_, Option<GameResult>>(at + 7)? {
        Some(own) => (own, r.get(at + 8)?),
        None => (r.get(at + 5)?, r.get(at + 6)?),
    };
    let name = |i| r.get_ref(at + i).and_then(|v| Ok(v.as_str_or_null()?));
    let signature = Signature::of_names(name(2)?, name(3)?, name(4)?, result, termination);
    Ok(Some(signature.text()))
}

/// A reject row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RejectRow {
    pub path: String,
    pub game_index: Option<u32>,
    pub line: Option<u32>,
    pub ply: Option<u32>,
    pub code: String,
    pub message: String,
}

/// A warning row: the same columns as a reject's.
pub type WarningRow = RejectRow;

/// A game's list entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: GameId,
    pub date: Option<String>,
    pub event: Option<String>,
    pub black: Option<String>,
    pub white: Option<String>,
    pub result: GameResult,
}

/// A stored game, whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    pub row: GameRow,
    pub start: Setup,
    pub handicap: Option<Handicap>,
    pub moves: Vec<Move>,
    /// Seconds per move, when known (empty when the record gave none); then the foul's, when
    /// the record wrote one ([`StoredGame::foul`]); then the ending's, when the record timed
    /// its ending (`投了` after 95 moves: the 96th).
    pub times: Vec<Option<u32>>,
    /// Comments by ply: 0 before the first move, n after move n; then, at the plies after the
    /// last move, the foul's and the ending's, as for the times.
    pub comments: Vec<(u32, String)>,
    /// The move the record wrote after the last one stored, when the game ended by it being
    /// illegal (`２五歩打`, a second pawn on a file, then `反則勝ち`), as written.
    pub foul: Option<String>,
    pub termination: Option<String>,
    /// The rest of what the record shown for it says.
    pub info: RecordInfo,
    /// The ending of the record shown, its result and termination, when it is not the game's
    /// (a game found in several records ends as the first of them says: see the
    /// documentation of duplicates in `db`).
    pub own_ending: Option<(GameResult, Option<String>)>,
    /// Where and why the record shown stopped, when it could not be read or played to its end:
    /// the game is stored up to there.
    pub stop: Option<RecordStop>,
}

/// Why a record stopped early, as its reject says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordStop {
    /// The reason's code (`no_such_move`, `bad_move_text`, …).
    pub code: String,
    /// The ply of the move it stopped at, when a move.
    pub ply: Option<u32>,
    /// The reject's message.
    pub message: Option<String>,
}

/// A stored game's moves, as the moves and positions exports read them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameMoves {
    pub id: GameId,
    pub result: GameResult,
    pub start: Setup,
    pub moves: Vec<Move>,
    /// Seconds per move, then the ending's, as in [`StoredGame`].
    pub times: Vec<Option<u32>>,
    /// Comments by ply, those after the ending included, as in [`StoredGame`].
    pub comments: Vec<(u32, String)>,
    /// For a game whose moves tell it from no other, what tells it apart, as
    /// [`OccurrenceRow::told_apart`] says.
    pub told_apart: Option<String>,
}

/// The ply after which a record's ending comes, as its times and comments count them: after
/// its `plies` moves, and after its foul when it wrote one (see [`StoredGame`]).
pub fn ending_ply(plies: usize, foul: Option<&str>) -> u32 {
    (plies + usize::from(foul.is_some())) as u32
}

/// The comments at `ply` of `comments` (by ply, as [`StoredGame`] holds them), joined by line
/// breaks; `None` when there is none.
pub fn comments_at(comments: &[(u32, String)], ply: u32) -> Option<String> {
    let texts: Vec<&str> =
        comments.iter().filter(|(at, _)| *at == ply).map(|(_, text)| text.as_str()).collect();
    (!texts.is_empty()).then(|| texts.join("\n"))
}

/// The SFEN of the start, from its stored form (`None` is the even game).
pub(super) fn start_setup(start: Option<&str>) -> Result<Setup> {
    match start {
        None => Ok(Handicap::Even.setup()),
        Some(s) => s.parse().map_err(|_| super::Corrupt("a stored start is not SFEN").into()),
    }
}

impl Reader {
    /// Opens the kifudex database at `path` read-only: it must exist, and nothing in it is
    /// created, migrated or changed (see the [module documentation](super) for a file in
    /// WAL mode).
    ///
    /// # Errors
    ///
    /// [`super::Error::Missing`] when there is no file there; [`super::Error::NotKifudex`]
    /// when it is not a kifudex database; [`super::Error::TooNew`] or
    /// [`super::Error::TooOld`] for a schema this build does not read; any other failure to
    /// open it.
    pub fn open(path: &Path) -> Result<Reader> {
        let conn = super::open::open_read(path)?;
        // Readers touch few pages per answer and stream exports once: a small page cache
        // keeps their memory the same whatever the size of the database.
        conn.execute_batch("PRAGMA query_only = ON; PRAGMA cache_size = -8192")?;
        rusqlite::vtab::array::load_module(&conn)?;
        Ok(Reader { conn })
    }

    /// The process id of an index run that has not finished: one writing now, or one that
    /// was killed, interrupted or failed (and no complete run came after it). Answers then
    /// cover only the files such runs committed.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn unfinished_run(&self) -> Result<Option<UnfinishedRun>> {
        unfinished_run(&self.conn)
    }

    /// Sets the connection's page cache to about `kib` KiB (it is 8 MiB otherwise). A
    /// reader that looks files up in path order, as indexing does, needs little.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn set_cache_kib(&self, kib: u32) -> Result<()> {
        self.conn.pragma_update(None, "cache_size", -i64::from(kib))?;
        Ok(())
    }

    /// Whether any file is recorded.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn has_files(&self) -> Result<bool> {
        Ok(self.conn.query_row("SELECT EXISTS(SELECT 1 FROM files)", [], |r| r.get(0))?)
    }

    /// How many files are recorded at or under `roots` (none of which is under another).
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn files_under(&self, roots: &[String]) -> Result<u64> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT count(*) FROM files WHERE path = ?1 OR (path > ?2 AND path < ?3)")?;
        let mut total = 0;
        for root in roots {
            let (lo, hi) = super::paths::range_under(root);
            total += stmt.query_row(rusqlite::params![root, lo, hi], |r| r.get::<_, i64>(0))? as u64;
        }
        Ok(total)
    }

    /// Calls `each` with the path of every file recorded at or under `root`, in path order.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn for_each_file_under(&self, root: &str, each: &mut dyn FnMut(&str)) -> Result<()> {
        let (lo, hi) = super::paths::range_under(root);
        let mut stmt = self
            .conn
            .prepare("SELECT path FROM files WHERE path = ?1 OR (path > ?2 AND path < ?3) ORDER BY path")?;
        let mut rows = stmt.query(rusqlite::params![root, lo, hi])?;
        while let Some(row) = rows.next()? {
            each(row.get_ref(0)?.as_str()?);
        }
        Ok(())
    }

    /// The state recorded for the file at `path`, if any.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn file_state(&self, path: &str) -> Result<Option<FileState>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT size, mtime_ns, hash, error, stopped, ctime_ns, device FROM files WHERE path = ?1",
        )?;
        let state = stmt
            .query_row([path], |r| {
                Ok(FileState {
                    size: r.get::<_, i64>(0)? as u64,
                    mtime_ns: r.get(1)?,
                    ctime_ns: r.get(5)?,
                    device: r.get(6)?,
                    hash: r.get(2)?,
                    error: r.get(3)?,
                    stopped: r.get::<_, i64>(4)? as u64,
                })
            })
            .optional()?;
        Ok(state)
    }

    /// Starts a consistent read: everything read through the snapshot sees one state of
    /// the database, whatever a writer commits meanwhile.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn snapshot(&mut self) -> Result<Snapshot<'_>> {
        let tx = self.conn.transaction()?;
        let depth = index::check_depth(&tx)?;
        let runs = index::live_runs(&tx)?;
        let mut dead = HashSet::new();
        {
            let mut stmt = tx.prepare_cached("SELECT game FROM dead")?;
            let mut rows = stmt.query([])?;
            while let Some(row) = rows.next()? {
                // A row that is no game id would leave a deleted game's postings live.
                let id = row.get_ref(0)?.as_i64().map_err(|_| super::Corrupt("a dead row is no game id"))?;
                dead.insert(GameId(id));
            }
        }
        let hot = super::names::has_table(&tx, "hot")?;
        Ok(Snapshot { tx, runs, dead, hot, depth })
    }
}

/// A consistent view of the database (see [`Reader::snapshot`]).
pub struct Snapshot<'a> {
    pub(super) tx: rusqlite::Transaction<'a>,
    pub(super) runs: Vec<Run>,
    /// The deleted games whose postings some run still holds.
    pub(super) dead: HashSet<GameId>,
    /// Whether the file has hot positions (an older one counts everything from the postings).
    pub(super) hot: bool,
    /// The ply up to which early occurrences were checked when indexed (see the position index).
    pub(super) depth: u32,
}

pub(super) fn game_row(r: &Row<'_>) -> rusqlite::Result<GameRow> {
    Ok(GameRow {
        id: r.get(0)?,
        date: r.get(1)?,
        event: r.get(2)?,
        black: r.get(3)?,
        white: r.get(4)?,
        result: r.get(5)?,
    })
}

/// The columns [`game_row`] reads, and the joins they need: the game aliased `g`, the
/// record shown for it aliased `s`.
pub(super) const GAME_COLUMNS: &str = "g.id, s.date, e.name, pb.name, pw.name, g.result";
pub(super) const RECORD_JOINS: &str = "LEFT JOIN events e ON e.id = s.event
     LEFT JOIN players pb ON pb.id = s.black
     LEFT JOIN players pw ON pw.id = s.white";

/// An index run that has not finished, as its mark in the database and the process it names
/// say (see [`Reader::unfinished_run`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnfinishedRun {
    /// A process of that id runs this program on this machine: it is writing.
    Writing(u32),
    /// It was killed, interrupted or failed.
    Stopped,
    /// Whether it still runs cannot be told (no `/proc`, or a mark of an older kifudex).
    Unknown,
    /// A run of another machine (a database on a shared disk), or of another container: its
    /// process cannot be looked at from here.
    Elsewhere { host: String, pid: u32 },
}

/// The name of this machine (of its UTS namespace: a container has its own), where Linux
/// tells it.
fn this_host() -> Option<String> {
    let name = std::fs::read_to_string("/proc/sys/kernel/hostname").ok()?;
    Some(name.trim().to_string()).filter(|n| !n.is_empty() && !n.contains(char::is_whitespace))
}

/// The mark a run leaves in the database while it is under way: its process id, and the name
/// of the machine it runs on, after a space (a reader elsewhere cannot look at the process).
pub(super) fn run_mark() -> String {
    let pid = std::process::id();
    this_host().map_or_else(|| pid.to_string(), |host| format!("{pid} {host}"))
}

/// Whether process `pid` runs, as `/proc` tells: it exists and is no zombie (a process that
/// has ended, waiting for its parent to take its exit status: a run killed under a parent
/// that never does stays one). Where its state cannot be read (`/proc` mounted with
/// `hidepid`), a process that exists runs.
fn alive(proc: &Path, pid: u32) -> bool {
    let dir = proc.join(pid.to_string());
    let stat = match std::fs::read_to_string(dir.join("stat")) {
        Ok(stat) => stat,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return false,
        Err(_) => return dir.exists(),
    };
    // `pid (name) state …`: the name may hold spaces and parentheses, the state follows the
    // last of them.
    let state = stat.rsplit_once(')').and_then(|(_, rest)| rest.trim_start().chars().next());
    !matches!(state, Some('Z' | 'X' | 'x') | None)
}

/// Whether process `pid` runs kifudex, by the name the kernel gives it: this program's name
/// (a binary renamed), or one that starts `kifudex` (this program may be another that uses the
/// library); true where it cannot be read.
pub(super) fn runs_this_program(pid: u32) -> bool {
    let name = |process: &str| std::fs::read(format!("/proc/{process}/comm")).ok();
    match name(&pid.to_string()) {
        Some(theirs) => theirs.starts_with(b"kifudex") || name("self").is_none_or(|ours| theirs == ours),
        None => true,
    }
}

impl UnfinishedRun {
    /// What a run's mark ([`run_mark`]) says, looked at from here.
    fn of(mark: &str) -> UnfinishedRun {
        let (pid, host) = mark.split_once(' ').map_or((mark, None), |(pid, host)| (pid, Some(host)));
        let pid = match pid.parse() {
            Ok(0) | Err(_) => return UnfinishedRun::Unknown,
            Ok(pid) => pid,
        };
        let proc = Path::new("/proc");
        if let Some(host) = host.filter(|&h| this_host().as_deref() != Some(h)) {
            UnfinishedRun::Elsewhere { host: host.to_string(), pid }
        } else if !proc.join("self").exists() {
            UnfinishedRun::Unknown
        // A process of another program has the id of a run that ended (ids are given again).
        } else if pid != std::process::id() && alive(proc, pid) && runs_this_program(pid) {
            UnfinishedRun::Writing(pid)
        } else {
            UnfinishedRun::Stopped
        }
    }

    /// What it means for the answers over the database at `db`, in a sentence.
    pub fn warning(&self, db: &Path) -> String {
        let db = path_text(db);
        match self {
            UnfinishedRun::Unknown => {
                format!(
                    "an index run on {db} is under way or did not finish: answers cover only the files it committed"
                )
            }
            UnfinishedRun::Writing(pid) => format!(
                "an index run (process {pid}) is writing {db}: answers cover the files it has committed so far"
            ),
            UnfinishedRun::Stopped => format!(
                "the last index run on {db} did not finish (it was killed, stopped or failed): answers cover only \
                 the files it committed; an index run on it (the same PATH, --db {db}) finishes it"
            ),
            UnfinishedRun::Elsewhere { host, pid } => format!(
                "an index run on {db} from the machine {host} (process {pid} there) is under way or did not \
                 finish: answers cover only the files it committed"
            ),
        }
    }
}

/// What readers say of a database that holds no game, when no index run on it is under way
/// or unfinished (whose warning says why).
pub const NO_GAME_WARNING: &str =
    "the database holds no game: index records into it first (kifudex index PATH)";

/// What readers say of `missing` stored games that the position index of the database at
/// `db` (as shown) lacks (see [`Snapshot::unindexed_games`]), when there are any.
pub fn unindexed_warning(missing: u64, db: &str) -> Option<String> {
    let games = match missing {
        0 => return None,
        1 => "1 stored game that is".to_string(),
        n => format!("{n} stored games that are"),
    };
    Some(format!(
        "answers by position leave out {games} not in the position index yet (an index run was killed \
         before writing them); an index run on {db} brings them in"
    ))
}

fn unfinished_run(conn: &Connection) -> Result<Option<UnfinishedRun>> {
    let value: Option<String> = conn
        .query_row("SELECT value FROM meta WHERE key = ?1", [super::write::RUN_KEY], |r| r.get(0))
        .optional()?;
    Ok(value.map(|v| UnfinishedRun::of(&v)))
}

impl Snapshot<'_> {
    /// [`Reader::unfinished_run`], as of the snapshot.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn unfinished_run(&self) -> Result<Option<UnfinishedRun>> {
        unfinished_run(&self.tx)
    }

    /// The stored games that the position index lacks: none, unless a run of an older
    /// kifudex (which committed games before their postings) was killed, and no run since
    /// has rebuilt them. Position answers leave these games out.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn unindexed_games(&self) -> Result<u64> {
        let n: i64 = self.tx.query_row(
            "SELECT count(*) FROM games
             WHERE id > (SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'indexed_through')",
            [],
            |r| r.get(0),
        )?;
        Ok(n as u64)
    }

    /// The number of games stored.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn game_count(&self) -> Result<u64> {
        Ok(self.tx.query_row("SELECT count(*) FROM games", [], |r| r.get::<_, i64>(0))? as u64)
    }

    /// The games `filter` keeps, or `None` when it keeps every game (see [`GameFilter`]).
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn filter_games(&self, filter: &GameFilter) -> Result<Option<HashSet<GameId>>> {
        if filter.is_empty() {
            return Ok(None);
        }
        let (sql, c) = self.kept_games(filter)?;
        let mut stmt = self.tx.prepare(&sql)?;
        let ids = stmt.query_map(params_from_iter(c.args.iter()), |r| r.get(0))?;
        Ok(Some(ids.collect::<rusqlite::Result<_>>()?))
    }

    /// Whether `filter` keeps any game (every stored game, for an empty filter), found
    /// without listing them.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn keeps_any_game(&self, filter: &GameFilter) -> Result<bool> {
        let (sql, c) = self.kept_games(filter)?;
        let sql = format!("SELECT EXISTS({sql})");
        Ok(self.tx.query_row(&sql, params_from_iter(c.args.iter()), |r| r.get(0))?)
    }

    /// How many games `filter` keeps (every stored game, for an empty filter).
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn kept_game_count(&self, filter: &GameFilter) -> Result<u64> {
        let (sql, c) = self.kept_games(filter)?;
        let sql = format!("SELECT count(*) FROM (SELECT DISTINCT * FROM ({sql}))");
        Ok(self.tx.query_row(&sql, params_from_iter(c.args.iter()), |r| r.get::<_, i64>(0))? as u64)
    }

    /// A query of the ids of the games `filter` keeps (some more than once), with its
    /// arguments.
    fn kept_games(&self, filter: &GameFilter) -> Result<(String, Conditions)> {
        let c = Conditions::new(&self.tx, filter, "s", "g")?;
        let sql = match (c.record.is_empty(), c.game.is_empty()) {
            (true, _) => format!("SELECT g.id FROM games g WHERE 1{}", c.game),
            (false, true) => format!("SELECT s.game FROM sources s WHERE 1{}", c.record),
            (false, false) => {
                format!(
                    "SELECT s.game FROM sources s JOIN games g ON g.id = s.game WHERE 1{}{}",
                    c.record, c.game
                )
            }
        };
        Ok((sql, c))
    }

    /// The whole stored game with this id, with its first record in path order.
    ///
    /// # Errors
    ///
    /// Any database failure, or [`super::Corrupt`] when its blobs do not decode.
    pub fn game(&self, id: GameId) -> Result<Option<StoredGame>> {
        self.game_matching(id, &GameFilter::default())
    }

    /// The whole stored game with this id, with the record shown for it under `filter` (the
    /// first in path order that matches; see [`GameFilter`]); `None` when there is no such
    /// game or `filter` does not keep it.
    ///
    /// # Errors
    ///
    /// Any database failure, or [`super::Corrupt`] when its blobs do not decode.
    pub fn game_matching(&self, id: GameId, filter: &GameFilter) -> Result<Option<StoredGame>> {
        let c = Conditions::new(&self.tx, filter, "r", "g")?;
        let id_arg = c.next_arg();
        // A game always has a record; the left join still shows one that lost them all.
        let required = if c.record.is_empty() { "" } else { " AND s.id IS NOT NULL" };
        // A file before the records' own endings has none: its records end as their games do.
        let own = if migrate::version(&self.tx)? < migrate::OWN_ENDINGS {
            "NULL, NULL"
        } else {
            "s.own_result, s.own_termination"
        };
        let sql = format!(
            "SELECT {GAME_COLUMNS}, g.start, g.handicap, g.moves, s.times, s.comments, g.termination,
               {RECORD_INFO_COLUMNS}, {own}, {foul}, s.status,
               (SELECT r.ply FROM rejects r WHERE r.file = s.file AND r.game_index = s.idx AND r.code = s.status),
               (SELECT r.message FROM rejects r WHERE r.file = s.file AND r.game_index = s.idx AND r.code = s.status)
             FROM games g LEFT JOIN sources s ON s.id = {shown} {RECORD_JOINS}
             WHERE g.id = ?{id_arg}{game}{required}",
            shown = shown_record("g", &c.record),
            game = c.game,
            foul = foul_column(&self.tx)?,
        );
        let mut stmt = self.tx.prepare_cached(&sql)?;
        let mut rows = stmt.query(params_from_iter(c.args_with(&[&id])))?;
        let Some(r) = rows.next()? else {
            return Ok(None);
        };
        let start: Option<String> = r.get(6)?;
        let handicap: Option<String> = r.get(7)?;
        let times: Option<Vec<u8>> = r.get(9)?;
        let comments: Option<Vec<u8>> = r.get(10)?;
        Ok(Some(StoredGame {
            row: game_row(r)?,
            start: start_setup(start.as_deref())?,
            handicap: handicap.as_deref().and_then(Handicap::from_name),
            moves: decode_moves(r.get_ref(8)?.as_blob()?)?,
            times: times.as_deref().map(decode_times).transpose()?.unwrap_or_default(),
            comments: comments.as_deref().map(decode_comments).transpose()?.unwrap_or_default(),
            foul: r.get(21)?,
            termination: r.get(11)?,
            info: record_info(r, 12)?,
            own_ending: match r.get::<_, Option<GameResult>>(19)? {
                Some(result) => Some((result, r.get(20)?)),
                None => None,
            },
            stop: match r.get::<_, Option<String>>(22)? {
                Some(code) => Some(RecordStop { code, ply: r.get(23)?, message: r.get(24)? }),
                None => None,
            },
        }))
    }

    /// Calls `each` for every game occurrence (source file and index) of the games `filter`
    /// keeps, each with its own record, in path order then index order, reading one row at a
    /// time. Every occurrence of a kept game comes, whichever of its records matched.
    ///
    /// # Errors
    ///
    /// Any database failure, or the first error `each` returns.
    pub fn for_each_occurrence<E: From<super::Error>>(
        &self,
        filter: &GameFilter,
        mut each: impl FnMut(&OccurrenceRow) -> Result<(), E>,
    ) -> Result<(), E> {
        let c = Conditions::new(&self.tx, filter, "r", "g").map_err(super::Error::from)?;
        let kept = any_record_of_a_kept_game(&c.record);
        let mut stmt = self
            .tx
            .prepare(&format!(
                "SELECT s.game, f.path, s.idx, f.format, f.encoding, e.name, s.date, pb.name, pw.name, g.handicap,
                   g.start, g.plies, g.end_sfen, g.result, g.termination, s.status,
                   EXISTS(SELECT 1 FROM sources s2 JOIN files f2 ON f2.id = s2.file
                          WHERE s2.game = s.game AND (f2.path < f.path OR (f2.path = f.path AND s2.idx < s.idx))),
                   g.variant, g.moves, {RECORD_INFO_COLUMNS}, s.times, s.comments, {foul}, {apart}
                 FROM files f
                 JOIN sources s ON s.file = f.id
                 JOIN games g ON g.id = s.game
                 {RECORD_JOINS}
                 WHERE 1{kept}{game}
                 ORDER BY f.path, s.idx",
                game = c.game,
                apart = told_apart_columns(&self.tx)?,
                foul = foul_column(&self.tx)?,
            ))
            .map_err(super::Error::from)?;
        let mut rows = stmt.query(params_from_iter(c.args.iter())).map_err(super::Error::from)?;
        while let Some(r) = rows.next().map_err(super::Error::from)? {
            let row = occurrence_row(r)?;
            each(&row)?;
        }
        Ok(())
    }

    /// Calls `each` with the moves of every game `filter` keeps, by id, reading one game at a
    /// time; the times and comments are those of the record shown for it (see
    /// [`GameFilter`]).
    ///
    /// # Errors
    ///
    /// Any database failure, [`super::Corrupt`] when a game's blobs do not decode, or the first
    /// error `each` returns.
    pub fn for_each_game<E: From<super::Error>>(
        &self,
        filter: &GameFilter,
        mut each: impl FnMut(GameMoves) -> Result<(), E>,
    ) -> Result<(), E> {
        let c = Conditions::new(&self.tx, filter, "r", "g").map_err(super::Error::from)?;
        let required = if c.record.is_empty() { "" } else { " AND s.id IS NOT NULL" };
        let sql = format!(
            "SELECT g.id, g.start, g.moves, s.times, s.comments, g.result, {apart}
             FROM games g LEFT JOIN sources s ON s.id = {shown}
             LEFT JOIN players pb ON pb.id = s.black LEFT JOIN players pw ON pw.id = s.white
             WHERE 1{game}{required} ORDER BY g.id",
            apart = told_apart_columns(&self.tx)?,
            shown = shown_record("g", &c.record),
            game = c.game,
        );
        let mut stmt = self.tx.prepare(&sql).map_err(super::Error::from)?;
        let mut rows = stmt.query(params_from_iter(c.args.iter())).map_err(super::Error::from)?;
        while let Some(r) = rows.next().map_err(super::Error::from)? {
            let game = (|| -> Result<GameMoves> {
                let start: Option<String> = r.get(1)?;
                let times: Option<Vec<u8>> = r.get(3)?;
                let comments: Option<Vec<u8>> = r.get(4)?;
                Ok(GameMoves {
                    id: r.get(0)?,
                    result: r.get(5)?,
                    start: start_setup(start.as_deref())?,
                    moves: decode_moves(r.get_ref(2)?.as_blob()?)?,
                    times: times.as_deref().map(decode_times).transpose()?.unwrap_or_default(),
                    comments: comments.as_deref().map(decode_comments).transpose()?.unwrap_or_default(),
                    told_apart: told_apart(r, 6)?,
                })
            })()?;
            each(game)?;
        }
        Ok(())
    }

    /// The stored start (`None` for the even game) and move blob of game `id`, if it exists.
    pub(super) fn start_and_moves(&self, id: GameId) -> Result<Option<(Option<String>, Vec<u8>)>> {
        self.view().start_and_moves(id)
    }

    /// Whether the game `id` starts from `start` and its first moves are `moves`.
    ///
    /// # Errors
    ///
    /// Any database failure, or [`super::Corrupt`] when its blobs do not decode.
    pub fn plays_sequence(&self, id: GameId, start: &Setup, moves: &[Move]) -> Result<bool> {
        let Some((stored_start, blob)) = self.start_and_moves(id)? else {
            return Ok(false);
        };
        if 2 * moves.len() > blob.len()
            || start_setup(stored_start.as_deref())?.position_text() != start.position_text()
        {
            return Ok(false);
        }
        Ok(decode_moves(&blob[..2 * moves.len()])? == moves)
    }

    /// Calls `each` for every reject, in path order.
    ///
    /// # Errors
    ///
    /// Any database failure, or the first error `each` returns.
    pub fn for_each_reject<E: From<super::Error>>(
        &self,
        each: impl FnMut(&RejectRow) -> Result<(), E>,
    ) -> Result<(), E> {
        self.for_each_note("rejects", each)
    }

    /// Calls `each` for every warning, in path order, then game order. A database
    /// from before warnings were kept has none.
    ///
    /// # Errors
    ///
    /// Any database failure, or the first error `each` returns.
    pub fn for_each_warning<E: From<super::Error>>(
        &self,
        each: impl FnMut(&WarningRow) -> Result<(), E>,
    ) -> Result<(), E> {
        let kept: bool = self
            .tx
            .query_row("SELECT EXISTS(SELECT 1 FROM sqlite_schema WHERE name = 'warnings')", [], |r| r.get(0))
            .map_err(super::Error::from)?;
        if !kept {
            return Ok(());
        }
        self.for_each_note("warnings", each)
    }

    /// The rows of `table` (`rejects` or `warnings`, which share their columns) in path order.
    fn for_each_note<E: From<super::Error>>(
        &self,
        table: &str,
        mut each: impl FnMut(&RejectRow) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut stmt = self
            .tx
            .prepare(&format!(
                "SELECT path, game_index, line, ply, code, message FROM {table}
                 ORDER BY path, game_index IS NOT NULL, game_index, id"
            ))
            .map_err(super::Error::from)?;
        let mut rows = stmt.query([]).map_err(super::Error::from)?;
        while let Some(r) = rows.next().map_err(super::Error::from)? {
            let row = RejectRow {
                path: r.get(0).map_err(super::Error::from)?,
                game_index: r.get(1).map_err(super::Error::from)?,
                line: r.get(2).map_err(super::Error::from)?,
                ply: r.get(3).map_err(super::Error::from)?,
                code: r.get(4).map_err(super::Error::from)?,
                message: r.get(5).map_err(super::Error::from)?,
            };
            each(&row)?;
        }
        Ok(())
    }
}

fn occurrence_row(r: &Row<'_>) -> Result<OccurrenceRow> {
    let game: GameId = r.get(0)?;
    let handicap: Option<String> = r.get(9)?;
    let start: Option<String> = r.get(10)?;
    let earlier: bool = r.get(16)?;
    let setup = start_setup(start.as_deref())?;
    Ok(OccurrenceRow {
        game,
        path: r.get(1)?,
        index: r.get(2)?,
        format: r.get(3)?,
        encoding: r.get(4)?,
        event: r.get(5)?,
        date: r.get(6)?,
        black: r.get(7)?,
        white: r.get(8)?,
        handicap: handicap.as_deref().and_then(Handicap::from_name),
        start_sfen: start.unwrap_or_else(|| Handicap::Even.sfen()),
        start: setup,
        moves: decode_moves(r.get_ref(18)?.as_blob()?)?,
        plies: r.get(11)?,
        end_sfen: r.get(12)?,
        result: r.get(13)?,
        termination: r.get(14)?,
        status: r.get(15)?,
        duplicate_of: earlier.then_some(game),
        variant: variant_of(r.get_ref(17)?.as_str_or_null()?)?,
        info: record_info(r, 19)?,
        times: r.get_ref(26)?.as_blob_or_null()?.map(decode_times).transpose()?.unwrap_or_default(),
        comments: r.get_ref(27)?.as_blob_or_null()?.map(decode_comments).transpose()?.unwrap_or_default(),
        foul: r.get(28)?,
        told_apart: told_apart(r, 29)?,
    })
}

/// The game a `games.variant` value names: NULL is shogi.
fn variant_of(name: Option<&str>) -> Result<Variant> {
    match name {
        None => Ok(Variant::Standard),
        Some(name) => {
            Variant::from_name(name).ok_or_else(|| super::Corrupt("a stored variant is unknown").into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::{Error, Writer};

    #[test]
    fn a_run_s_mark_is_read_as_far_as_it_can_be_told_here() {
        let Some(here) = this_host() else {
            eprintln!("skipped: this system does not tell its host name");
            return;
        };
        // A process of kifudex's name that runs (`sleep` under that name) is writing.
        let tmp = tempfile::tempdir().unwrap();
        let program = tmp.path().join("kifudex-sleep");
        std::fs::copy("/bin/sleep", &program).unwrap();
        // A thread of another test that forks while the copy is open keeps it busy a moment.
        let spawn = || std::process::Command::new(&program).arg("60").spawn();
        let mut running = (0..50)
            .find_map(|_| {
                spawn().inspect_err(|_| std::thread::sleep(std::time::Duration::from_millis(20))).ok()
            })
            .expect("the copy of sleep runs");
        let pid = running.id();
        assert_eq!(UnfinishedRun::of(&pid.to_string()), UnfinishedRun::Writing(pid));
        assert_eq!(UnfinishedRun::of(&format!("{pid} {here}")), UnfinishedRun::Writing(pid));
        running.kill().unwrap();
        running.wait().unwrap();
        // Process 1 runs wherever there is a /proc, another program: a run's id given again.
        // No process has an id past 2^22.
        assert_eq!(UnfinishedRun::of(&format!("1 {here}")), UnfinishedRun::Stopped);
        assert_eq!(UnfinishedRun::of(&format!("4194305 {here}")), UnfinishedRun::Stopped);
        let elsewhere = UnfinishedRun::of("1 far-away");
        assert_eq!(elsewhere, UnfinishedRun::Elsewhere { host: "far-away".into(), pid: 1 });
        assert_eq!(
            elsewhere.warning(Path::new("k.sqlite")),
            "an index run on k.sqlite from the machine far-away (process 1 there) is under way or did not \
             finish: answers cover only the files it committed"
        );
        assert_eq!(UnfinishedRun::of("not a mark"), UnfinishedRun::Unknown);
        // What a run writes names it and this machine.
        assert_eq!(run_mark(), format!("{} {here}", std::process::id()));
    }

    /// A run killed under a parent that never takes its exit status stays a zombie: it runs no
    /// more, and its run is stopped, not writing.
    #[test]
    fn a_run_whose_process_is_a_zombie_is_stopped() {
        let Some(here) = this_host() else {
            eprintln!("skipped: this system does not tell its host name");
            return;
        };
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let mark = format!("{} {here}", child.id());
        let stat = Path::new("/proc").join(child.id().to_string()).join("stat");
        // Not waited for, the child is a zombie once it has ended.
        let ended = (0..500).any(|_| {
            std::thread::sleep(std::time::Duration::from_millis(10));
            std::fs::read_to_string(&stat).is_ok_and(|s| s.contains(") Z"))
        });
        let seen = UnfinishedRun::of(&mark);
        child.wait().unwrap();
        assert!(ended, "the child never became a zombie");
        assert_eq!(seen, UnfinishedRun::Stopped);
    }

    #[test]
    fn a_dead_row_that_is_no_game_id_is_corrupt_data() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("k.sqlite");
        Writer::open(&path).unwrap().finish().unwrap();
        // A damaged file: the table holds a text where a game id belongs.
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(
            "DROP TABLE dead; CREATE TABLE dead(game, postings INTEGER NOT NULL);
             INSERT INTO dead VALUES ('seven', 3);",
        )
        .unwrap();
        drop(conn);
        let mut reader = Reader::open(&path).unwrap();
        match reader.snapshot() {
            Err(Error::Corrupt(e)) => assert_eq!(e.0, "a dead row is no game id"),
            other => panic!("{:?}", other.map(|_| ())),
        }
    }
}
