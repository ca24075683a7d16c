//! Parquet and JSON Lines read back against the CSV exports, and DuckDB (the Python
//! package) as a second reader of the Parquet files: row counts, column types, and the
//! next-move counts of one position as `kifudex query` gives them.
//!
//! The DuckDB test is skipped, saying so, when `python3 -c "import duckdb"` fails, unless
//! `CI=true`, which makes it required (`.ci/run` installs the package).

use std::{
    collections::HashMap,
    fs::{self, File},
    path::Path,
    process::Command,
};

use parquet::{
    file::reader::{FileReader, SerializedFileReader},
    record::Field,
};
use serde_json::Value;

use super::{archive, kifudex, stdout};
use crate::query::csv_rows;

const TABLES: [&str; 4] = ["games", "moves", "positions", "tree"];

fn csv_of(table: &str, db: &Path) -> Vec<HashMap<String, String>> {
    csv_rows(stdout(&kifudex(["export", table]).db(db).output()).as_bytes())
}

/// A Parquet value as the CSV export writes it (keys as 16 hexadecimal digits).
fn text(field: &Field) -> String {
    match field {
        Field::Null => String::new(),
        Field::Long(n) => n.to_string(),
        Field::ULong(k) => format!("{k:016x}"),
        Field::Str(s) => s.clone(),
        other => panic!("a column of an unexpected type: {other:?}"),
    }
}

#[test]
fn parquet_reads_back_as_the_csv_export_with_typed_columns() {
    let a = archive();
    let tmp = tempfile::tempdir().unwrap();
    for table in TABLES {
        let path = tmp.path().join(format!("{table}.parquet"));
        let out = kifudex(["export", table, "--format", "parquet", "--out", path.to_str().unwrap()])
            .db(&a.db)
            .output();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        let csv = csv_of(table, &a.db);
        let reader = SerializedFileReader::new(File::open(&path).unwrap()).unwrap();
        assert_eq!(reader.metadata().file_metadata().num_rows() as usize, csv.len(), "{table}");
        for (row, want) in reader.get_row_iter(None).unwrap().zip(&csv) {
            for (name, field) in row.unwrap().get_column_iter() {
                // A date is a DATE column beside its ISO text, `NAME_iso`, which CSV's holds.
                if let Field::Date(_) = field {
                    continue;
                }
                let csv_name = name.strip_suffix("_iso").unwrap_or(name);
                if matches!(field, Field::Null) && want[csv_name].is_empty() {
                    continue;
                }
                assert_eq!(text(field), want[csv_name], "{table}.{name}");
            }
        }
    }
}

/// `--out`'s extension names the format when `--format` does not, and a `--format` it
/// contradicts is refused, writing nothing: a file named `.parquet` holds Parquet.
#[test]
fn the_out_extension_names_the_format_and_a_contradiction_is_refused() {
    let a = archive();
    let tmp = tempfile::tempdir().unwrap();
    let out = |name: &str, format: Option<&str>| {
        let path = tmp.path().join(name);
        let mut args = vec!["export", "games", "--out", path.to_str().unwrap()];
        args.extend(format.iter().flat_map(|f| ["--format", f]));
        (kifudex(args).db(&a.db).output(), path)
    };
    let (run, path) = out("games.parquet", None);
    assert_eq!(run.status.code(), Some(0), "{}", String::from_utf8_lossy(&run.stderr));
    assert!(fs::read(&path).unwrap().starts_with(b"PAR1"));
    let (run, path) = out("games.JSONL", None);
    assert_eq!(run.status.code(), Some(0));
    assert!(fs::read_to_string(&path).unwrap().starts_with("{\"game_id\":"));
    // An extension that names no format: CSV, or the format given.
    let (_, path) = out("games.txt", None);
    assert!(fs::read_to_string(&path).unwrap().starts_with("game_id,"));
    let (_, path) = out("games.dat", Some("jsonl"));
    assert!(fs::read_to_string(&path).unwrap().starts_with('{'));
    let (run, path) = out("games.csv", Some("parquet"));
    assert_eq!(run.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&run.stderr).trim_end(),
        format!(
            "kifudex: --out {} names a CSV file, and --format parquet writes Parquet: give --format csv, or a name with another extension",
            path.display()
        )
    );
    assert!(!path.exists());
}

/// A pseudo-terminal's two ends: the one a program reads, and the terminal's device, its path.
fn terminal() -> (File, File, std::path::PathBuf) {
    use std::os::fd::FromRawFd;
    // SAFETY: plain calls on a descriptor this function opens and owns; `ptsname` is read at
    // once, before any other call could reuse its buffer.
    unsafe {
        let master = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
        assert!(master >= 0 && libc::grantpt(master) == 0 && libc::unlockpt(master) == 0);
        let name = std::ffi::CStr::from_ptr(libc::ptsname(master)).to_str().unwrap().to_string();
        let master = File::from_raw_fd(master);
        let device = fs::OpenOptions::new().write(true).open(&name).unwrap();
        (master, device, name.into())
    }
}

/// Parquet goes wherever the other formats go but a terminal: into stdout by each of its
/// names (none, `-`, `/dev/stdout`), the same bytes as into a file; a terminal is refused by
/// each of its names too (stdout, `/dev/stdout`, the terminal's device), with nothing written.
#[test]
fn parquet_is_written_to_stdout_by_any_name_but_never_to_a_terminal() {
    let a = archive();
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("games.parquet");
    let (code, _, err) = kifudex(["export", "games", "--out", file.to_str().unwrap()]).db(&a.db).run();
    assert_eq!(code, 0, "{err}");
    let whole = fs::read(&file).unwrap();
    for out in [&[][..], &["--out", "-"], &["--out", "/dev/stdout"]] {
        let run = kifudex(["export", "games", "--format", "parquet"]).args(out).db(&a.db).output();
        assert_eq!(run.status.code(), Some(0), "{out:?}: {}", String::from_utf8_lossy(&run.stderr));
        assert!(run.stdout == whole, "{out:?}: {} bytes, the file {}", run.stdout.len(), whole.len());
    }
    let (_master, device, name) = terminal();
    let refused = |to: &str| {
        format!(
            "kifudex: --format parquet writes binary data, and {to} is a terminal: give a file with --out FILE \
             (or --out-dir DIR), or send stdout to a file or a pipe"
        )
    };
    let name = name.to_str().unwrap();
    for (out, to) in [(None, "stdout"), (Some("/dev/stdout"), "/dev/stdout"), (Some(name), name)] {
        let mut cmd = kifudex(["export", "games", "--format", "parquet"]);
        cmd.args(out.map(|o| ["--out", o]).iter().flatten()).db(&a.db);
        let run = cmd.cmd().stdout(device.try_clone().unwrap()).output().unwrap();
        assert_eq!(run.status.code(), Some(2), "{out:?}");
        assert_eq!(String::from_utf8_lossy(&run.stderr).trim_end(), refused(to), "{out:?}");
    }
}

#[test]
fn json_lines_read_back_as_the_csv_export() {
    let a = archive();
    for table in TABLES {
        let jsonl = stdout(&kifudex(["export", table, "--format", "jsonl"]).db(&a.db).output());
        let csv = csv_of(table, &a.db);
        assert_eq!(jsonl.lines().count(), csv.len(), "{table}");
        for (line, want) in jsonl.lines().zip(&csv) {
            let object: serde_json::Map<String, Value> = serde_json::from_str(line).unwrap();
            assert_eq!(object.len(), want.len(), "{table}: {line}");
            for (name, value) in object {
                let got = match value {
                    Value::Null => String::new(),
                    Value::String(s) => s,
                    Value::Number(n) => n.to_string(),
                    other => panic!("{table}.{name}: {other}"),
                };
                assert_eq!(got, want[&name], "{table}.{name}");
            }
        }
    }
}

/// Whether DuckDB's Python package can be imported; without it the test is skipped unless
/// CI=true.
fn duckdb_present() -> bool {
    let ok = Command::new("python3").args(["-c", "import duckdb"]).output().is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true but DuckDB's Python package is missing (pip install duckdb)"
        );
        eprintln!(
            "skipping the DuckDB test: python3 cannot import duckdb (pip install duckdb; required when CI=true)"
        );
    }
    ok
}

/// The DuckDB script: every file's row count, the types of the key and date columns, one
/// game's date, and the next moves of the position `key` from positions.parquet.
const SCRIPT: &str = r#"
import duckdb, json, sys
d, key = sys.argv[1], int(sys.argv[2])
con = duckdb.connect()
out = {}
for t in ["games", "moves", "positions", "tree"]:
    out[t] = con.execute(f"SELECT count(*) FROM '{d}/{t}.parquet'").fetchone()[0]
out["key_type"] = con.execute(f"SELECT typeof(key) FROM '{d}/positions.parquet' LIMIT 1").fetchone()[0]
out["dates"] = [str(r[0]) for r in con.execute(f"SELECT date FROM '{d}/games.parquet' WHERE date IS NOT NULL ORDER BY date LIMIT 1").fetchall()]
rows = con.execute(f"""
    SELECT usi, count(DISTINCT game_id) AS played
    FROM '{d}/positions.parquet'
    WHERE key = {key} AND usi IS NOT NULL
    GROUP BY usi ORDER BY usi""").fetchall()
out["next"] = {u: n for u, n in rows}
print(json.dumps(out))
"#;

#[test]
fn duckdb_reads_the_parquet_exports_and_counts_next_moves_as_query_does() {
    if !duckdb_present() {
        return;
    }
    let a = archive();
    let tmp = tempfile::tempdir().unwrap();
    for table in TABLES {
        let path = tmp.path().join(format!("{table}.parquet"));
        let out = kifudex(["export", table, "--format", "parquet", "--out", path.to_str().unwrap()])
            .db(&a.db)
            .output();
        assert_eq!(out.status.code(), Some(0));
    }
    // The key of the position after 7g7f, from the CSV export of positions.
    let positions = csv_of("positions", &a.db);
    let after = positions.iter().find(|r| r["ply"] == "1" && r["sfen"].contains("/2P6/")).unwrap();
    let key = u64::from_str_radix(&after["key"], 16).unwrap();
    let out = Command::new("python3")
        .args(["-c", SCRIPT, tmp.path().to_str().unwrap(), &key.to_string()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();
    for table in TABLES {
        assert_eq!(got[table].as_u64().unwrap() as usize, csv_of(table, &a.db).len(), "{table}");
    }
    assert_eq!(got["key_type"], "UBIGINT");
    assert_eq!(got["dates"][0], "2013-04-10", "the oldest game's date, as a date");
    let answer: Value = serde_json::from_str(&stdout(
        &kifudex(["query", "--moves", "7g7f", "--format", "json"]).db(&a.db).output(),
    ))
    .unwrap();
    let want: serde_json::Map<String, Value> = answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["usi"].as_str().unwrap().to_string(), m["played"].clone()))
        .collect();
    assert!(!want.is_empty());
    assert_eq!(got["next"], Value::Object(want));
}
