//! Exports as a reader of them meets them: text that is hard for CSV (commas, quotes, line
//! breaks, control characters, formula-like starts) read back by other readers exactly as the
//! database holds it; where the rows go (a closed pipe, a full device, a descriptor named as
//! a file); and the exit status of filters that keep no game.

use std::{
    fs,
    io::Read,
    path::PathBuf,
    process::{Command, Stdio},
};

use crate::util::{command, kifudex, wrapper};

/// A CSA record of `black` and `white` in `event`, playing `moves`, each followed by its
/// comment lines.
fn csa(black: &str, white: &str, event: &str, moves: &[(&str, &[&str])]) -> String {
    let mut text = format!("V2.2\nN+{black}\nN-{white}\n$EVENT:{event}\nPI\n+\n");
    for (mv, comments) in moves {
        text.push_str(mv);
        text.push('\n');
        for c in *comments {
            text.push_str(&format!("'{c}\n"));
        }
    }
    text.push_str("%TORYO\n");
    text
}

/// Indexes `files` (name, bytes) in a new directory; returns it and the database.
fn indexed(files: &[(&str, Vec<u8>)]) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("games");
    fs::create_dir_all(&dir).unwrap();
    for (name, bytes) in files {
        fs::write(dir.join(name), bytes).unwrap();
    }
    let db = tmp.path().join("k.sqlite");
    let out = kifudex(["index", dir.to_str().unwrap(), "--quiet"]).db(&db).output();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    (tmp, db)
}

/// Whether `python3` runs; without it the test is skipped, saying so, unless CI=true.
fn python_present() -> bool {
    let ok = Command::new("python3").arg("-V").output().is_ok_and(|o| o.status.success());
    if !ok {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "CI=true but there is no python3");
        eprintln!("skipping: no python3 to read the exports with");
    }
    ok
}

/// Reads the exports with Python's own `csv`, `json` and `sqlite3` modules, and prints each
/// value that differs from the database's `games_v`, then the comments of the moves export.
const READ_BACK: &str = r#"
import csv, json, sqlite3, sys
csv.field_size_limit(1 << 30)
db, games_csv, games_jsonl, moves_csv = sys.argv[1:5]
con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
con.row_factory = sqlite3.Row
truth = con.execute("SELECT * FROM games_v ORDER BY source_path, game_index").fetchall()
from_csv = list(csv.DictReader(open(games_csv, newline="", encoding="utf-8")))
from_json = [json.loads(line) for line in open(games_jsonl, encoding="utf-8")]
print("rows", len(truth), len(from_csv), len(from_json))
for t, c, j in zip(truth, from_csv, from_json):
    for name in ["game_id", "source_path", "event", "black", "white", "plies", "result"]:
        want = t[name]
        if c[name] != ("" if want is None else str(want)):
            print("csv", t["game_id"], name, repr(c[name]), repr(want))
        if j[name] != want:
            print("json", t["game_id"], name, repr(j[name]), repr(want))
for m in csv.DictReader(open(moves_csv, newline="", encoding="utf-8")):
    if m["comment"]:
        print("comment", m["game_id"], m["ply"], json.dumps(m["comment"]))
"#;

/// Names, events and comments that CSV must quote or that a spreadsheet would take for a
/// formula come back from the CSV and JSON Lines exports, read by Python, as the database
/// holds them, and as the records wrote them: nothing is escaped, cut or prefixed.
#[test]
fn text_hard_for_csv_reads_back_as_stored() {
    if !python_present() {
        return;
    }
    let long = "長".repeat(50_000);
    let opening: &[(&str, &[&str])] = &[
        ("+7776FU", &["comma, \"quoted\"", "second line"]),
        ("-3334FU", &["=1+1", "tab\there"]),
        ("+2726FU", &["\u{1}\u{1b}[31m bell\u{7}"]),
    ];
    let other: &[(&str, &[&str])] = &[("+2726FU", &[]), ("-8384FU", &["@SUM(A1)"])];
    let third: &[(&str, &[&str])] = &[("+5756FU", &[])];
    let files = [
        ("a.csa", csa("Doe, John", "He said \"hi\"", "=HYPERLINK(\"http://x\",\"y\")", opening).into_bytes()),
        ("b.csa", csa("+1+2", "-cmd|' /C calc'!A0", "nul\0and\u{7f}del", other).into_bytes()),
        ("c.csa", csa(&long, "@white", "\tevent", third).into_bytes()),
    ];
    let (tmp, db) = indexed(&files);
    let out = |table: &str, format: &str| {
        let path = tmp.path().join(format!("{table}.{format}"));
        let run =
            kifudex(["export", table, "--format", format, "--out", path.to_str().unwrap()]).db(&db).output();
        assert_eq!(run.status.code(), Some(0), "{}", String::from_utf8_lossy(&run.stderr));
        path
    };
    let (games_csv, games_jsonl, moves_csv) =
        (out("games", "csv"), out("games", "jsonl"), out("moves", "csv"));
    let run = Command::new("python3")
        .args(["-c", READ_BACK])
        .arg(&db)
        .args([&games_csv, &games_jsonl, &moves_csv])
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let said = String::from_utf8(run.stdout).unwrap();
    // Each comment as the record wrote it, its lines joined by a line break (JSON-quoted
    // here, so that the expected text is plain to read).
    let expected = [
        "rows 3 3 3",
        r#"comment 1 1 "comma, \"quoted\"\nsecond line""#,
        r#"comment 1 2 "=1+1\ntab\there""#,
        r#"comment 1 3 "\u0001\u001b[31m bell\u0007""#,
        r#"comment 2 2 "@SUM(A1)""#,
    ];
    assert_eq!(said.lines().collect::<Vec<_>>(), expected, "{said}");
    // And the database holds the text as written (so the comparison above is no tautology).
    let games = fs::read_to_string(&games_csv).unwrap();
    for raw in ["\"=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"", ",+1+2,", ",-cmd|' /C calc'!A0,", ",@white,"] {
        assert!(games.contains(raw), "{raw} is written as it is");
    }
}

/// The reader of the rows going away (`| head -1`) ends the export quietly with status 0, in
/// every format: Parquet written to a pipe too.
#[test]
fn a_closed_pipe_ends_an_export_quietly() {
    let (_tmp, db) = indexed(&[("games.usi", many_games())]);
    for format in ["csv", "jsonl", "parquet"] {
        let mut export = command()
            .args(["export", "moves", "--format", format, "--out", "/dev/stdout", "--db"])
            .arg(&db)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // A few bytes read, then the pipe closed: more than a pipe holds is still to come.
        let mut head = [0u8; 4];
        export.stdout.take().unwrap().read_exact(&mut head).unwrap();
        let mut stderr = String::new();
        export.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
        let status = export.wait().unwrap();
        assert_eq!(status.code(), Some(0), "{format}: {stderr}");
        assert_eq!(stderr, "", "{format}");
    }
}

/// 400 generated games as USI lines: exports of some megabytes.
fn many_games() -> Vec<u8> {
    crate::util::games::generate(400, 5).iter().map(|g| g.usi_line()).collect::<String>().into_bytes()
}

/// A write that fails (a full device) ends the export with status 2 and one line saying where
/// it could not write and why: the file named, or stdout.
#[test]
fn a_failed_write_says_where() {
    let (_tmp, db) = indexed(&[("games.usi", many_games())]);
    let full = || fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    for format in ["csv", "jsonl", "parquet"] {
        let (code, _, stderr) =
            kifudex(["export", "moves", "--format", format, "--out", "/dev/full"]).db(&db).run();
        assert_eq!(code, 2, "{format}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{format}: {stderr}");
        assert!(
            stderr.starts_with("kifudex: cannot write the export to /dev/full: No space left on device"),
            "{format}: {stderr}"
        );
        if format == "parquet" {
            continue;
        }
        let mut cmd = command();
        cmd.args(["export", "moves", "--format", format, "--db"]).arg(&db).stdout(full());
        let out = cmd.output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{format}: {stderr}");
        assert!(
            stderr.starts_with("kifudex: cannot write the export to stdout: No space left on device"),
            "{format}: {stderr}"
        );
    }
    // The rejects of an index run, in the same words.
    let dir = db.parent().unwrap().join("games");
    let (code, _, stderr) =
        kifudex(["index", dir.to_str().unwrap(), "--quiet", "--rejects", "/dev/full"]).db(&db).run();
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(
        stderr,
        "kifudex: cannot write the rejects to /dev/full: No space left on device (os error 28)\n"
    );
}

/// Messages that cannot be written (stderr on a full device) are lost, never the work: an index
/// run with a reject to report still stores its games and exits 1, and a command that fails
/// still exits 2, never in a panic (101).
#[test]
fn a_stderr_that_cannot_be_written_loses_only_the_messages() {
    let full = || fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("games");
    fs::create_dir(&dir).unwrap();
    fs::write(dir.join("games.usi"), many_games()).unwrap();
    fs::write(dir.join("bad.csa"), "PI\n+\n+7775FU\n").unwrap();
    let db = tmp.path().join("k.sqlite");
    let mut index = command();
    index.arg("index").arg(&dir).arg("--db").arg(&db).stderr(full());
    assert_eq!(index.output().unwrap().status.code(), Some(1));
    let (code, stdout, stderr) = kifudex(["games", "--all", "--format", "csv"]).db(&db).run();
    assert_eq!(code, 0, "{stderr}");
    // A header, the 400 games and the one kept up to its illegal move.
    assert_eq!(stdout.lines().count(), 402, "{stdout}");
    for args in [&["games", "--db", "missing.sqlite"][..], &["moves", "zz"], &["show", "9999", "--db"]] {
        let mut cmd = command();
        cmd.args(args).current_dir(tmp.path()).stdout(std::process::Stdio::null()).stderr(full());
        if args.last() == Some(&"--db") {
            cmd.arg(&db);
        }
        assert_eq!(cmd.output().unwrap().status.code(), Some(2), "{args:?}");
    }
}

/// Help and the version are output too: on a full device they fail as an export does, and a
/// usage error still says what was wrong (its words go to stderr).
#[test]
fn help_written_to_a_full_device_fails() {
    for args in [&["--help"][..], &["--version"], &["help", "query"], &["query", "--help"], &["-V"]] {
        let mut cmd = command();
        cmd.args(args).stdout(fs::OpenOptions::new().write(true).open("/dev/full").unwrap());
        let out = cmd.output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(
            stderr, "kifudex: cannot write to stdout: No space left on device (os error 28)\n",
            "{args:?}"
        );
        let mut cmd = command();
        cmd.args(args);
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(!out.stdout.is_empty() && out.stderr.is_empty(), "{args:?}");
    }
    let mut cmd = command();
    cmd.args(["query", "--no-such-flag"])
        .stdout(fs::OpenOptions::new().write(true).open("/dev/full").unwrap());
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--no-such-flag"));
}

/// `--out /dev/stdout` (or `/dev/fd/1`, `/proc/self/fd/1`) writes where standard output goes,
/// after what is there: `>> log` keeps the log's lines, where it used to be replaced by the
/// export alone.
#[test]
fn out_dev_stdout_adds_to_what_is_there() {
    let (tmp, db) = indexed(&[("games.usi", many_games())]);
    let (code, export, _) = kifudex(["export", "games"]).db(&db).run();
    assert_eq!(code, 0);
    let log = tmp.path().join("log.csv");
    for name in ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"] {
        fs::write(&log, "the line that was there\n").unwrap();
        let script = r#"exec "$1" export games --db "$2" --out "$3" >> "$4""#;
        let out = wrapper("sh")
            .args(["-c", script, "sh"])
            .arg(crate::util::exe())
            .arg(&db)
            .arg(name)
            .arg(&log)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let got = fs::read_to_string(&log).unwrap();
        assert!(
            got == format!("the line that was there\n{export}"),
            "{name}: {}",
            &got[..got.len().min(200)]
        );
        let left: Vec<_> = fs::read_dir(tmp.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left.len(), 3, "{name}: nothing beside the log: {left:?}");
    }
    // Written by another shell redirection into the same file: the export follows it.
    fs::write(&log, "").unwrap();
    let script = r##"{ echo "# games"; "$1" export games --db "$2" --out /dev/stdout; } > "$3""##;
    let out =
        wrapper("sh").args(["-c", script, "sh"]).arg(crate::util::exe()).arg(&db).arg(&log).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(fs::read_to_string(&log).unwrap() == format!("# games\n{export}"));
    // And what the shell writes after it follows it, where it used to be written over it.
    let script =
        r##"{ echo "# games"; "$1" export games --db "$2" --out /dev/stdout; echo "# end"; } > "$3""##;
    let out =
        wrapper("sh").args(["-c", script, "sh"]).arg(crate::util::exe()).arg(&db).arg(&log).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let got = fs::read_to_string(&log).unwrap();
    assert!(got == format!("# games\n{export}# end\n"), "{}", &got[..got.len().min(300)]);
}

/// `index --rejects` to stdout (`-`, `/dev/stdout`, `/dev/fd/1`) with `--json`, both into a
/// file the shell opened with `>`: the rejects' CSV, then the summary, each whole. The
/// rejects were written from the file's end and the summary from its start, over them.
#[test]
fn index_rejects_to_stdout_come_before_the_summary() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("games");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("good.usi"), many_games()).unwrap();
    // White's move first: a rejected game.
    fs::write(dir.join("bad.csa"), "PI\n+\n-3334FU\n").unwrap();
    let out_file = tmp.path().join("out.txt");
    for name in ["-", "/dev/stdout", "/dev/fd/1"] {
        let db = tmp.path().join(format!("k{}.sqlite", name.len()));
        let script = r#"exec "$1" index "$2" --db "$3" --rejects "$4" --json --quiet > "$5""#;
        let out = wrapper("sh")
            .args(["-c", script, "sh"])
            .arg(crate::util::exe())
            .arg(&dir)
            .arg(&db)
            .arg(name)
            .arg(&out_file)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let (_, rejects, _) = kifudex(["export", "rejects"]).db(&db).run();
        assert_eq!(rejects.lines().count(), 2, "{name}: one reject: {rejects}");
        let got = fs::read_to_string(&out_file).unwrap();
        let summary = got.strip_prefix(rejects.as_str()).unwrap_or_else(|| panic!("{name}: {got}"));
        let json: serde_json::Value =
            serde_json::from_str(summary).unwrap_or_else(|e| panic!("{name}: {e}: {got}"));
        assert_eq!(json["games_rejected"], 1, "{name}: {summary}");
        assert_eq!(summary.lines().count(), 1, "{name}: {summary}");
        assert!(!tmp.path().join("-").exists(), "{name}: no file named -");
    }
}

/// Filters that keep no game are "nothing matched" (status 1, a note on stderr), as for
/// `games` and `query`; the export is written all the same, with its header and no row.
/// Filters that keep a game are status 0 even when its table has no row (a game without
/// moves), and so is an export of an empty database, which no filter narrowed.
#[test]
fn filters_that_keep_no_game_exit_1() {
    let no_moves = "V2.2\nN+Alone\nN-Other\nPI\n+\n%CHUDAN\n";
    let (tmp, db) = indexed(&[
        ("a.csa", csa("Habu", "Sato", "Cup", &[("+7776FU", &[])]).into_bytes()),
        ("b.csa", no_moves.as_bytes().to_vec()),
    ]);
    for table in ["games", "moves", "positions", "tree"] {
        for format in ["csv", "jsonl"] {
            let (code, out, err) =
                kifudex(["export", table, "--format", format, "--player", "Nobody"]).db(&db).run();
            assert_eq!(code, 1, "{table} {format}: {err}");
            assert!(err.contains("no game matches the filters"), "{table} {format}: {err}");
            let lines = if format == "csv" { 1 } else { 0 };
            assert_eq!(out.lines().count(), lines, "{table} {format}: {out}");
        }
        // Into a file, which is written.
        let file = tmp.path().join(format!("{table}.csv"));
        let (code, _, _) =
            kifudex(["export", table, "--player", "Nobody", "--out", file.to_str().unwrap()]).db(&db).run();
        assert_eq!(code, 1, "{table}");
        assert_eq!(fs::read_to_string(&file).unwrap().lines().count(), 1, "{table}");
    }
    let (code, out, err) = kifudex(["export", "moves", "--player", "Alone"]).db(&db).run();
    assert_eq!((code, out.lines().count()), (0, 1), "{err}");
    let (code, out, err) = kifudex(["export", "games", "--player", "Habu"]).db(&db).run();
    assert_eq!((code, out.lines().count()), (0, 2), "{err}");
    // An empty database is said to be empty, as `games` says it, but with status 0; rejects
    // and warnings, of files, say nothing of games.
    let empty = indexed(&[]);
    // Filters or not: a shard of a small archive may hold none.
    for table in ["games", "moves", "positions", "tree"] {
        for filters in [&[][..], &["--player", "Habu"]] {
            let (code, _, err) = kifudex(["export", table].iter().chain(filters)).db(&empty.1).run();
            assert_eq!(code, 0, "{table} {filters:?}: {err}");
            assert!(err.contains("the database holds no game"), "{table} {filters:?}: {err}");
        }
    }
    for table in ["rejects", "warnings"] {
        let (code, _, err) = kifudex(["export", table]).db(&empty.1).run();
        assert_eq!((code, err.as_str()), (0, ""), "{table}");
    }
}
