//! Running the `kifudex` binary: the one place the tests start it.
//!
//! A test names what it runs and how ([`kifudex`], then [`TestCommand`]'s methods) and gets
//! the [`Output`] back, or the exit code and both texts ([`TestCommand::run`]); one that
//! drives the process itself takes it as a plain [`command`]. Every run has
//! the same environment: no database named by `KIFUDEX_DB` (a test names its database, with
//! [`TestCommand::db`] or in the arguments), whatever the environment of `cargo test` holds.
//! A test that runs kifudex through another program (a shell that sets limits, a namespace,
//! another user) starts that program with [`wrapper`] and gives it [`exe`].

use std::{
    ffi::OsStr,
    path::Path,
    process::{Command, Output},
};

/// The path of the kifudex binary under test.
pub fn exe() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_kifudex"))
}

/// `program`, with the environment every test runs kifudex in, for running kifudex through
/// it (or kifudex itself: [`kifudex`]).
pub fn wrapper(program: impl AsRef<OsStr>) -> Command {
    let mut cmd = Command::new(program);
    cmd.env_remove("KIFUDEX_DB");
    cmd
}

/// `kifudex ARGS`, to be run.
pub fn kifudex<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(args: I) -> TestCommand {
    let mut cmd = command();
    cmd.args(args);
    TestCommand { cmd }
}

/// A directory of the record files `files` (name, text), indexed: the temporary directory
/// that holds it all, the records' directory and the database.
pub fn indexed(files: &[(&str, &str)]) -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, db) = (tmp.path().join("archive"), tmp.path().join("k.sqlite"));
    std::fs::create_dir(&dir).unwrap();
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let (code, _, err) = kifudex(["index", dir.to_str().unwrap(), "--quiet"]).db(&db).run();
    assert_eq!(code, 0, "{err}");
    (tmp, dir, db)
}

/// The kifudex binary as a plain [`Command`], for a test that drives the process itself
/// (spawns it, kills it, pipes its output, runs it as another user).
pub fn command() -> Command {
    wrapper(exe())
}

/// A kifudex command line, built up and then run.
pub struct TestCommand {
    cmd: Command,
}

impl TestCommand {
    /// More arguments.
    pub fn args<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(&mut self, args: I) -> &mut TestCommand {
        self.cmd.args(args);
        self
    }

    /// `--db DB` after the arguments so far.
    pub fn db(&mut self, db: impl AsRef<OsStr>) -> &mut TestCommand {
        self.cmd.arg("--db").arg(db);
        self
    }

    /// Runs in `dir` (where the default database and `samples/` are looked for).
    pub fn dir(&mut self, dir: impl AsRef<Path>) -> &mut TestCommand {
        self.cmd.current_dir(dir);
        self
    }

    /// The command itself, for what the methods above do not cover (standard input and
    /// output, spawning).
    pub fn cmd(&mut self) -> &mut Command {
        &mut self.cmd
    }

    /// Runs it to the end.
    pub fn output(&mut self) -> Output {
        self.cmd.output().unwrap_or_else(|e| panic!("cannot run {:?}: {e}", self.cmd))
    }

    /// Runs it to the end: the exit code, standard output and standard error, as text.
    pub fn run(&mut self) -> (i32, String, String) {
        let out = self.output();
        let text = |b: Vec<u8>| String::from_utf8(b).expect("UTF-8 output");
        let code = out.status.code().unwrap_or_else(|| panic!("{:?} ended by a signal", self.cmd));
        (code, text(out.stdout), text(out.stderr))
    }
}
