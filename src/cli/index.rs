//! `kifudex index [PATH]...`: progress bar, reject messages, summary and exit code.
//!
//! Ctrl-C (SIGINT) or SIGTERM stops the run cleanly: it keeps what it committed, says how
//! many files it indexed, and exits with 128 + the signal's number (130 for Ctrl-C). A second
//! signal ends the process at once, saying so, with 128 + its number; the database is then as
//! sound as after any kill.

use kifudex::ingest::path_text;
use std::{
    io::IsTerminal,
    path::{Path, PathBuf},
    process::ExitCode,
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicUsize, Ordering},
    },
    time::Instant,
};

use anyhow::{Context, anyhow, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use super::db::DbOpt;
use kifudex::{
    db::{self, NewReject},
    export, ingest,
    shard::Shard,
    walk::{GlobError, GlobKind, GlobProblem, Globs},
};
use serde::Serialize;

/// Index files and directories of game records into the database.
///
/// Files read before are read again only when they changed. Exit status 0 when nothing read
/// in the run was rejected (warnings or not), 1 when some file or game was (it is reported,
/// and the run goes on), 2 on a usage or database error, 130 when interrupted by Ctrl-C (143
/// by SIGTERM): what it wrote is committed, and the next run reads the rest.
#[derive(Debug, Args)]
pub struct IndexArgs {
    /// Files and directories to index [default: samples/ in the current directory]
    #[arg(value_name = "PATH")]
    paths: Vec<PathBuf>,
    #[command(flatten)]
    db: DbOpt,
    /// Worker threads reading and replaying games, one per CPU at most [default: one per CPU]
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..), allow_negative_numbers = true)]
    jobs: Option<u16>,
    /// Remove the games of files under PATH that no longer exist (a file the run does not
    /// reach but that is still there is kept)
    #[arg(long)]
    prune: bool,
    /// Read every file under PATH again, changed or not: after an upgrade, to have what a newer
    /// version reads in records indexed by an older one (their games keep their ids)
    #[arg(long)]
    reread: bool,
    /// Write the rejects under PATH as CSV to FILE (`-` is stdout, before the --json summary)
    #[arg(long, value_name = "FILE")]
    rejects: Option<PathBuf>,
    /// No progress bar, reject messages or summary on stderr
    #[arg(long, short = 'q')]
    quiet: bool,
    /// Print the summary as one JSON object on stdout
    #[arg(long)]
    json: bool,
    /// Follow symbolic links (a link back to a directory that holds it is counted, never
    /// followed)
    #[arg(long)]
    follow_links: bool,
    /// Under the directories given, take only the files GLOB matches, whatever their names
    /// (repeatable; matched like ripgrep's -g: `*.kif` at any depth, `pro/**` from the top; a
    /// directory matched, `pro` or `pro/`, takes every file under it)
    #[arg(long, value_name = "GLOB")]
    include: Vec<String>,
    /// Leave out the files and directories GLOB matches (repeatable; wins over --include)
    #[arg(long, value_name = "GLOB")]
    exclude: Vec<String>,
    /// Index only shard I of N (1/4 to 4/4 for four): the files whose path under the PATH
    /// given hashes to it, so that N machines with the same tree share it out without
    /// overlap. The database records its shard and refuses any other
    #[arg(long, value_name = "I/N")]
    shard: Option<Shard>,
    /// Games of one run that make a position hot, its counts then kept per position and
    /// move (a tuning knob: lower keeps more rows and answers more positions from them)
    #[arg(long, value_name = "N", hide = true, value_parser = clap::value_parser!(u32).range(1..))]
    hot_games: Option<u32>,
    /// Positions held in memory before they are written as a run of the position index (a
    /// tuning knob: fewer make more runs, for the merges to join)
    #[arg(long, value_name = "N", hide = true, value_parser = clap::value_parser!(u32).range(1..))]
    run_postings: Option<u32>,
}

/// Progress and messages on stderr.
struct Console {
    bar: ProgressBar,
    quiet: bool,
    started: Instant,
}

/// Steps of the progress bar per file: a large file read in parts moves it part by part.
const FILE_STEPS: u64 = 1_000;

impl Console {
    /// Shows `position` steps done (of [`FILE_STEPS`] per file), and the games so far.
    fn show(&self, position: u64, s: &ingest::Summary) {
        if self.bar.is_hidden() {
            return;
        }
        let games = s.games_added + s.games_kept + s.games_duplicate;
        let rate = games as f64 / self.started.elapsed().as_secs_f64().max(1e-3);
        self.bar.set_position(position);
        self.bar.set_message(format!("{games} games, {rate:.0} games/s"));
    }
}

impl ingest::Observer for Console {
    fn wants_total(&self) -> bool {
        !self.bar.is_hidden()
    }

    fn start(&self, files: u64) {
        // Each change may draw a frame, and every frame must read whole.
        self.bar.set_length(files.saturating_mul(FILE_STEPS));
        // The bar moves by steps of a file, so that a large file read in parts moves it as
        // its parts are read; the count shown is of whole files.
        let files = |state: &ProgressState, w: &mut dyn std::fmt::Write| {
            let (done, all) = (state.pos() / FILE_STEPS, state.len().unwrap_or(0) / FILE_STEPS);
            let _ = write!(w, "{done}/{all}");
        };
        self.bar.set_style(
            ProgressStyle::with_template("{elapsed_precise} {wide_bar} {files} files, {msg}, ETA {eta}")
                .expect("the progress template is valid")
                .with_key("files", files),
        );
        self.bar.set_message("0 games, 0 games/s");
    }

    fn progress(&self, done: u64, s: &ingest::Summary) {
        self.show(done.saturating_mul(FILE_STEPS), s);
    }

    fn within_file(&self, done: u64, read: usize, parts: usize, s: &ingest::Summary) {
        let within = FILE_STEPS * read as u64 / parts.max(1) as u64;
        self.show(done.saturating_mul(FILE_STEPS).saturating_add(within), s);
    }

    fn waiting(&self, longest: std::time::Duration) {
        if !self.quiet {
            let message = format!(
                "kifudex: other programs are using the database (reading or writing it); waiting up to {} s \
                 for them to finish (Ctrl-C stops)",
                longest.as_secs()
            );
            self.bar.suspend(|| say!("{message}"));
        }
    }

    fn reject(&self, path: &str, r: &NewReject) {
        if self.quiet {
            return;
        }
        let mut place = String::new();
        if let Some(i) = r.game_index {
            place.push_str(&format!(" game {i}"));
        }
        if let Some(ply) = r.ply {
            place.push_str(&format!(" ply {ply}"));
        }
        // A game that stopped at a move is stored up to it: said, since it is counted as added
        // (or kept, or duplicate) as well as rejected. One stopped at ply 0 has no start to
        // store.
        let kept = match (r.game_index, r.ply) {
            (Some(_), Some(0)) => "; the game is not kept".to_owned(),
            (Some(_), Some(1)) => "; the game is kept with its start position and no move".to_owned(),
            (Some(_), Some(ply)) => format!("; the game is kept up to ply {}", ply - 1),
            _ => String::new(),
        };
        // A file name or a line of a record may hold control characters: shown, not sent.
        let message = super::table::visible(format!(
            "kifudex: rejected {path}{place} [{}]: {}{kept}",
            r.code, r.message
        ));
        self.bar.suspend(|| say!("{message}"));
    }
}

pub fn run(args: IndexArgs) -> anyhow::Result<ExitCode> {
    let roots = if args.paths.is_empty() {
        let samples = PathBuf::from("samples");
        if !samples.is_dir() {
            let cwd = std::env::current_dir().unwrap_or_default();
            bail!(
                "no PATH given, and there is no samples/ directory in {} to index by default; \
                 give the files or directories to index",
                path_text(&cwd)
            );
        }
        vec![samples]
    } else {
        args.paths.clone()
    };
    if let Some(file) = args.rejects.as_ref().filter(|f| f.as_os_str() != "-") {
        super::db::refuse_database_as_output(file, "--rejects", Some(&args.db.path()))?;
        super::db::refuse_records_as_output(file, "--rejects")?;
        // Here, not after the run has indexed everything.
        super::out::check_writable(file)?;
    }
    let jobs = ingest::jobs(args.jobs.map(usize::from));
    if let Some(asked) = args.jobs.filter(|&n| usize::from(n) > jobs && !args.quiet) {
        let (cpus, workers) = if jobs == 1 { ("CPU", "worker indexes") } else { ("CPUs", "workers index") };
        say!(
            "kifudex: note: --jobs {asked} is more than the {jobs} {cpus} here, so {jobs} {workers} \
             (more would only take turns on the same cores)"
        );
    }
    let (stop, signal) = stop_on_signals()?;
    let globs = Globs::new(&args.include, &args.exclude).map_err(glob_error)?;
    let options = ingest::Options {
        jobs,
        prune: args.prune,
        reread: args.reread,
        follow_links: args.follow_links,
        stop: Some(stop),
        globs: Arc::new(globs),
        shard: args.shard,
        hot_games: args.hot_games.unwrap_or(db::HOT_GAMES),
        run_postings: args.run_postings.map_or(db::RUN_POSTINGS, |n| n as usize),
        ..ingest::Options::new(roots.clone(), args.db.path())
    };
    let show_bar = !args.quiet && std::io::stderr().is_terminal();
    let bar = if show_bar { ProgressBar::new(0) } else { ProgressBar::hidden() };
    if show_bar {
        bar.set_draw_target(ProgressDrawTarget::stderr());
        // Until the files are counted (see `Console::start`).
        bar.set_style(
            ProgressStyle::with_template("{elapsed_precise} {msg}").expect("the template is valid"),
        );
        bar.set_message("counting the files to index");
    }
    let console = Console { bar, quiet: args.quiet, started: Instant::now() };
    let gone: Vec<&PathBuf> =
        roots.iter().filter(|r| args.prune && std::fs::symlink_metadata(r).is_err()).collect();
    let summary = ingest::run(&options, &console);
    // The hint for a path gone under --prune, on a line of its own after the error.
    if let Err(e @ ingest::Error::MissingPath(_)) = &summary {
        if !gone.is_empty() {
            super::note(format_args!("{e}"));
            super::note(format_args!("{}", prune_hint(&gone, args.db.given())));
            return Ok(ExitCode::from(2));
        }
    }
    let summary = summary.map_err(|e| match e {
        // Before the messages that name the file: a full disk may stop the run as it opens it.
        ingest::Error::Db(e) if e.is_disk_full() || e.is_io() && no_room_beside(&options.db) => anyhow!(
            "indexing into {} stopped: the disk is full (that of the database, or of the temporary \
             files SQLite sorts in). What the run committed before stays indexed, and the database is \
             consistent: free some space and run the same command again to go on",
            path_text(&options.db)
        ),
        ingest::Error::Db(e) if e.names_database() => super::db::explain(e),
        e => shard_refusal(e).context(format!("indexing into {} failed", path_text(&options.db))),
    })?;
    console.bar.finish_and_clear();
    if let Some(file) = &args.rejects {
        write_rejects(&options.db, &roots, file)?;
    }
    if summary.interrupted {
        if args.json {
            super::print(&json(&summary)?)?;
        }
        say!("kifudex: interrupted: {} files indexed; run again to finish", summary.files_indexed);
        let code = 128 + signal.load(Ordering::Relaxed).clamp(1, 127);
        return Ok(ExitCode::from(code as u8));
    }
    // The last step (the log copied into the file) is not stopped: the run then ends whole.
    if let Some(name) = signal_name(signal.load(Ordering::Relaxed)) {
        say!(
            "kifudex: note: {name} came as the run was copying its log into {}; it finished that, and \
             with it the run: nothing is left to run again",
            super::shown_path(&options.db)
        );
    }
    for before in &summary.unfinished_before {
        // The command as a shell takes it: each root and glob one word, whatever it holds.
        let roots: Vec<String> =
            before.roots.iter().map(|r| shell_word(ingest::text_path(r).as_os_str())).collect();
        let globs: String = before
            .globs
            .iter()
            .map(|g| match g.split_once(' ') {
                Some((flag, glob)) => format!(" {flag} {}", shell_word(glob.as_ref())),
                None => format!(" {}", shell_word(g.as_ref())),
            })
            .collect();
        say!(
            "kifudex: warning: an earlier index run on {db} did not finish, and this one did not read all it was \
             to read: answers still cover only part of it; `kifudex index {}{globs} --db {}` finishes it",
            roots.join(" "),
            shell_word(options.db.as_os_str()),
            db = super::shown_path(&options.db)
        );
    }
    if summary.wal_kept && !args.quiet {
        say!(
            "kifudex: note: other programs had {} open as the run ended, so it stays in WAL mode until the \
             next run; until then, reading it needs the right to write its directory",
            super::shown_path(&options.db)
        );
    }
    if !args.quiet {
        if !gone.is_empty() {
            say!("kifudex: {}", prune_hint(&gone, args.db.given()));
        }
        for (kind, glob) in &summary.globs_unmatched {
            say!("kifudex: {} matched nothing", given_glob(*kind, glob));
        }
        let (shard, others) = match args.shard {
            Some(s) => {
                (format!("shard {s}: "), format!(", {} files of other shards", summary.files_other_shards))
            }
            None => (String::new(), String::new()),
        };
        let pruned = if args.prune { format!(", {} pruned", summary.files_pruned) } else { String::new() };
        // Only when a file changed or went: most runs neither keep nor remove a game.
        let kept = match summary.games_kept {
            0 => String::new(),
            n => format!(", {n} kept"),
        };
        let removed = match (summary.games_removed, summary.games_renumbered) {
            (0, 0) => String::new(),
            (n, 0) => format!(", {n} removed"),
            (n, r) => format!(", {n} removed, {r} renumbered"),
        };
        let links = match summary.links_not_followed {
            0 => String::new(),
            n if args.follow_links => format!(", {n} symbolic links leading nowhere"),
            n => format!(", {n} symbolic links not followed"),
        };
        let loops = match summary.links_to_ancestors {
            0 => String::new(),
            n => format!(", {n} symbolic links back to a directory above"),
        };
        let names = match summary.other_names {
            0 => String::new(),
            n => format!(", {n} other names of the same files"),
        };
        say!(
            "kifudex: {shard}{} files ({} indexed, {} unchanged, {} rejected, {} skipped{pruned}){others}{links}{loops}{names}, \
             {} games added{kept}, {} duplicate{removed}, {} rejected, {} warnings, {} positions, {:.2} s",
            summary.files_seen,
            summary.files_indexed,
            summary.files_unchanged,
            summary.files_rejected,
            summary.files_skipped,
            summary.games_added,
            summary.games_duplicate,
            summary.games_rejected,
            summary.warnings,
            summary.positions,
            summary.seconds
        );
        if summary.links_not_followed > 0 {
            say!("kifudex: {}", links_note(&summary, args.follow_links));
        }
        if summary.links_to_ancestors > 0 {
            say!(
                "kifudex: {} symbolic links lead back to a directory that holds them, and were not followed: \
                 following them would go round in a circle",
                summary.links_to_ancestors
            );
        }
        if summary.not_files_named_as_records > 0 {
            say!(
                "kifudex: {} entries named as records are pipes, sockets or devices, not files, and were passed \
                 over unread: save the records in a file and index that",
                summary.not_files_named_as_records
            );
        }
        if summary.files_unwalked > 0 {
            say!(
                "kifudex: --prune kept {} files recorded under the paths given that this run did not reach but \
                 that are still there (left out by --include or --exclude, behind a link not followed without \
                 --follow-links, or in a directory that cannot be read)",
                summary.files_unwalked
            );
        }
        if summary.files_unmounted > 0 {
            say!("kifudex: {}", unmounted_note(&summary));
        }
        if summary.files_gone > 0 {
            let files =
                if summary.files_gone == 1 { "1 file" } else { &format!("{} files", summary.files_gone) };
            say!(
                "kifudex: {files} recorded under the paths given {} gone, and {} games are still in every \
                 answer: the same command with --prune forgets them",
                if summary.files_gone == 1 { "is" } else { "are" },
                if summary.files_gone == 1 { "its" } else { "their" },
            );
        }
        if summary.files_to_read_again > 0 {
            say!(
                "kifudex: note: {} files of records were indexed by an earlier version, which read past KIF \
                 bookmarks and remarks and Western annotation marks, took KIF rows numbered back as moves, \
                 and did not warn of rounded or stray times or of running totals that are no sums, and have \
                 not been read since: `kifudex index PATH... --reread` reads them again (their games keep \
                 their ids)",
                summary.files_to_read_again
            );
        }
    }
    if args.json {
        super::print(&json(&summary)?)?;
    }
    Ok(if summary.has_rejects() { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// The symbolic links a run found and did not follow: with `--follow-links`, only those that
/// lead nowhere.
fn links_note(summary: &ingest::Summary, follow_links: bool) -> String {
    let nowhere = "what they name does not exist or cannot be looked at";
    if follow_links {
        return format!("{} symbolic links lead nowhere: {nowhere}", summary.links_broken);
    }
    let broken = match summary.links_broken {
        0 => String::new(),
        n => format!(" ({n} of them broken: {nowhere})"),
    };
    format!(
        "{} symbolic links were not followed{broken}; --follow-links indexes the files and directories they \
         lead to",
        summary.links_not_followed
    )
}

/// What `--prune` did not do under the paths given that do not exist, and how to forget the
/// files of a path that is gone for good (renamed, deleted): the directory that held it,
/// with an include glob that takes nothing else, so that its files are pruned and the others
/// are left as they are. A path that does not exist never empties the database by itself,
/// since it may be a typo or a disk not mounted. The command is written to be pasted into a
/// shell as it is, whatever the names hold, with the `--db` given (`db`), if one was.
fn prune_hint(gone: &[&PathBuf], db: Option<&Path>) -> String {
    let first = gone[0];
    let name = first.file_name().unwrap_or(first.as_os_str());
    let parent = match first.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.as_os_str(),
        _ => std::ffi::OsStr::new("."),
    };
    let include = format!("/{}/**", name_glob(name));
    let paths: Vec<String> = gone.iter().map(|p| path_text(p)).collect();
    super::table::visible(format!(
        "--prune removed nothing under {}: what does not exist may be a typo or a disk not mounted. \
         To forget the files that were there, give the directory that held them: \
         kifudex index {} --prune --include {}{}",
        paths.join(", "),
        shell_word(parent),
        shell_word(std::ffi::OsStr::new(&include)),
        db.map(|db| format!(" --db {}", shell_word(db.as_os_str()))).unwrap_or_default(),
    ))
}

/// A glob that matches the file name `name` itself: its glob characters escaped, and each
/// byte that is not UTF-8 (which a glob cannot hold) matched by `?`, which matches one byte
/// of such a name.
fn name_glob(name: &std::ffi::OsStr) -> String {
    let mut glob = String::with_capacity(name.len());
    for chunk in name.as_encoded_bytes().utf8_chunks() {
        for c in chunk.valid().chars() {
            if "*?[]{}\\".contains(c) {
                glob.push('\\');
            }
            glob.push(c);
        }
        glob.extend(std::iter::repeat_n('?', chunk.invalid().len()));
    }
    glob
}

/// `word` as one word of a shell command: as it is when no shell reads any of its characters
/// specially; in single quotes when it is text without control characters (a quote in it
/// written `'\''`); else in the `$'…'` quotes of bash and zsh, each byte that is not
/// printable text written `\xNN`.
fn shell_word(word: &std::ffi::OsStr) -> String {
    let bytes = word.as_encoded_bytes();
    let plain = |c: char| c.is_ascii_alphanumeric() || "_@%+=:,./-".contains(c);
    match std::str::from_utf8(bytes) {
        Ok(text) if !text.is_empty() && text.chars().all(plain) => text.to_string(),
        Ok(text) if !text.chars().any(char::is_control) => format!("'{}'", text.replace('\'', r"'\''")),
        _ => {
            let mut out = String::from("$'");
            for chunk in bytes.utf8_chunks() {
                for c in chunk.valid().chars() {
                    match c {
                        '\\' | '\'' => {
                            out.push('\\');
                            out.push(c);
                        }
                        c if c.is_control() => {
                            let mut buf = [0; 4];
                            for b in c.encode_utf8(&mut buf).bytes() {
                                out.push_str(&format!("\\x{b:02x}"));
                            }
                        }
                        c => out.push(c),
                    }
                }
                for b in chunk.invalid() {
                    out.push_str(&format!("\\x{b:02x}"));
                }
            }
            out.push('\'');
            out
        }
    }
}

/// What `--prune` kept because a disk seems not mounted, and how to forget the files if they
/// were removed on purpose.
fn unmounted_note(summary: &ingest::Summary) -> String {
    let dirs = &summary.unmounted_dirs;
    let shown: Vec<&str> = dirs.iter().take(3).map(String::as_str).collect();
    let more = match dirs.len() {
        0..=3 => String::new(),
        n => format!(" and {} more", n - 3),
    };
    let (it, them) = if dirs.len() == 1 { ("it is", "it") } else { ("they are", "them") };
    super::table::visible(format!(
        "--prune kept {} files recorded under {}{more}: {it} empty and on another filesystem than the files \
         were, as the mount point of a disk not mounted is. Mount the disk and run again; if the files \
         were removed on purpose, remove {them} too (rmdir) and run again",
        summary.files_unmounted,
        shown.join(", "),
    ))
}

/// A glob as the command takes it: `--include '*.kif'`.
fn given_glob(kind: GlobKind, glob: &str) -> String {
    format!("--{kind} '{glob}'")
}

/// A glob that cannot be read, in the command's words: the option that gave it, and how to
/// leave a name out.
fn glob_error(e: GlobError) -> anyhow::Error {
    let problem = match e.problem {
        GlobProblem::Negated => {
            "a leading '!' negates nothing here: give --exclude or --include the glob itself \
             (\\! for a name that starts with '!')"
                .to_string()
        }
        other => other.to_string(),
    };
    anyhow!("{} is not a glob: {problem}", given_glob(e.kind, &e.glob))
}

/// The summary as `--json` prints it, on one line: the run's counts, then the globs that
/// matched nothing as the command took them.
fn json(summary: &ingest::Summary) -> anyhow::Result<String> {
    #[derive(Serialize)]
    struct Printed<'a> {
        #[serde(flatten)]
        summary: &'a ingest::Summary,
        globs_unmatched: Vec<String>,
    }
    let globs_unmatched =
        summary.globs_unmatched.iter().map(|(kind, glob)| given_glob(*kind, glob)).collect();
    let printed = Printed { summary, globs_unmatched };
    Ok(serde_json::to_string(&printed).context("cannot write the summary")? + "\n")
}

/// A failed run's error in the command's words: where the database refuses the share of the
/// files asked for, the message names `--shard`, the way to ask for the share it holds.
fn shard_refusal(e: ingest::Error) -> anyhow::Error {
    match e {
        ingest::Error::Db(db::Error::Shard { recorded: Some(r), asked: None }) => anyhow!(
            "it holds shard {r} of the files: index it with --shard {r} (a database holds one shard, or every file)"
        ),
        ingest::Error::Db(db::Error::Shard { recorded: None, asked: Some(a) }) => {
            anyhow!("it holds files indexed without --shard: shard {a} needs a database of its own")
        }
        e => e.into(),
    }
}

/// The name of signal `number` that [`stop_on_signals`] handles, or `None` (none came).
fn signal_name(number: usize) -> Option<&'static str> {
    match number as i32 {
        signal_hook::consts::SIGINT => Some("Ctrl-C (SIGINT)"),
        signal_hook::consts::SIGTERM => Some("SIGTERM"),
        _ => None,
    }
}

/// Makes SIGINT and SIGTERM set the returned stop flag (and record which signal came), and a
/// second one end the process at once, saying so: a run may take a while to stop cleanly (a
/// batch to commit, a file to finish), and a user who presses Ctrl-C again wants to know that
/// it is over and what is left.
fn stop_on_signals() -> anyhow::Result<(Arc<AtomicBool>, Arc<AtomicUsize>)> {
    use std::{io::Read, os::unix::net::UnixStream};

    use signal_hook::{
        consts::{SIGINT, SIGTERM},
        flag,
        low_level::pipe,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let signal = Arc::new(AtomicUsize::new(0));
    // Each signal delivered writes a byte (from the handler, so that two in a row are two):
    // the second ends the process.
    let (mut delivered, handler_end) = UnixStream::pair().context("cannot set up the signal handlers")?;
    handler_end.set_nonblocking(true).context("cannot set up the signal handlers")?;
    for sig in [SIGINT, SIGTERM] {
        // The signal is recorded before the flag is set, for whoever sees the flag to find it.
        flag::register_usize(sig, Arc::clone(&signal), sig as usize)
            .and_then(|_| flag::register(sig, Arc::clone(&stop)))
            .and_then(|_| pipe::register(sig, handler_end.try_clone()?))
            .context("cannot set up the signal handlers")?;
    }
    let last = Arc::clone(&signal);
    std::thread::Builder::new()
        .name("kifudex-signals".into())
        .spawn(move || {
            let mut byte = [0u8; 1];
            let mut seen = 0;
            while delivered.read_exact(&mut byte).is_ok() {
                seen += 1;
                if seen == 2 {
                    let line = if std::io::stderr().is_terminal() { "\n" } else { "" };
                    say!(
                        "{line}kifudex: stopped at once by a second signal: the files committed so far \
                         stay indexed, and running the same command again finishes the rest"
                    );
                    // As a kill would: the database is as sound as after one.
                    signal_hook::low_level::exit(128 + last.load(Ordering::SeqCst) as i32);
                }
            }
        })
        .context("cannot set up the signal handlers")?;
    Ok((stop, signal))
}

/// Writes the rejects recorded for `roots` (and under them) to `file`.
fn write_rejects(db: &Path, roots: &[PathBuf], file: &Path) -> anyhow::Result<()> {
    let roots: Vec<String> = ingest::absolute_roots(roots)?.iter().map(|r| ingest::path_text(r)).collect();
    let under = |path: &str| roots.iter().any(|r| kifudex::db::is_under(path, r));
    let mut reader = super::db::open_reader(db)?;
    let snapshot = reader.snapshot()?;
    let (replacing, out) = super::out::Replacing::create(file)?;
    export::rejects(&snapshot, std::io::BufWriter::new(out), under).map_err(|e| {
        // A failed write is said as the system says it, without the export's own words.
        let e = match e {
            export::Error::Write(io) => anyhow::Error::new(io),
            e => anyhow::Error::new(e),
        };
        e.context(format!("cannot write the rejects to {}", path_text(file)))
    })?;
    replacing.commit()
}

/// Whether the file system that holds `db` has no room left for a run: less than 64 KiB of
/// blocks, or fewer than the 4 files a run makes beside the database (its lock, log, shared
/// memory and journal), for this user. SQLite reports some writes that fail for want of room
/// (the `-shm` file's, a file it cannot create) as I/O errors, not as a full disk.
fn no_room_beside(db: &std::path::Path) -> bool {
    let dir = match db.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => std::path::Path::new("."),
    };
    rustix::fs::statvfs(dir)
        .is_ok_and(|s| s.f_bavail.saturating_mul(s.f_frsize) < 64 * 1024 || s.f_favail < 4)
}
