//! An archive as people keep one: records beside notes, `package.json`, saved web pages,
//! READMEs, a record saved as `.txt`, huge files, a directory named like a record, a link,
//! and a path that does not exist. Every count below is the hand count of the files this
//! test writes.

use std::{
    fs,
    path::{Path, PathBuf},
};

use serde_json::Value;

use crate::util::kifudex;

fn data(path: &str) -> Vec<u8> {
    fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

fn write(path: &Path, bytes: &[u8]) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, bytes).unwrap();
}

/// A file of `size` bytes that takes no room (a sparse file of zeros).
fn sparse(path: &Path, size: u64) {
    fs::File::create(path).unwrap().set_len(size).unwrap();
}

/// `kifudex index ARGS --json`: the exit status, the summary and the messages. The run may
/// use at most 512 MiB of data (`ulimit -d`), so reading one of the huge files whole would
/// make it fail.
fn index(args: &[&str], db: &Path) -> (Option<i32>, Value, String) {
    let out = crate::util::wrapper("sh")
        .args(["-c", "ulimit -d 524288; exec \"$0\" index --json --db \"$@\""])
        .arg(crate::util::exe())
        .arg(db)
        .args(args)
        .output()
        .expect("the kifudex binary runs");
    let summary = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out.status.code(), summary, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// The counts of a summary: seen, indexed, unchanged, rejected, skipped, games added,
/// duplicate.
fn counts(summary: &Value) -> [u64; 7] {
    [
        "files_seen",
        "files_indexed",
        "files_unchanged",
        "files_rejected",
        "files_skipped",
        "games_added",
        "games_duplicate",
    ]
    .map(|k| summary[k].as_u64().unwrap_or(u64::MAX))
}

fn export(what: &str, db: &Path) -> String {
    let out = kifudex(["export", what]).db(db).output();
    assert_eq!(out.status.code(), Some(0));
    String::from_utf8(out.stdout).unwrap()
}

/// The archive: 17 files, a link, and what each should come to.
fn archive(root: &Path) {
    // Records: a KIF file; a KIF file (Shift_JIS) saved as .txt; a JKF record saved as .json;
    // inside a directory named like a record, a CSA file holding the game the .txt file holds.
    write(&root.join("pro/habu.kifu"), &data("tests/data/duplicates/kif/habu.kifu"));
    write(&root.join("pro/saved-as.txt"), &data("tests/data/index/game.kif"));
    write(&root.join("pro/meijin.json"), &data("samples/pro/2018-05-08_meijin-3.jkf"));
    write(&root.join("dir.kif/inner.csa"), &data("tests/data/index/same-game.csa"));
    // Not records, and need not be: notes in Shift_JIS, and a memo whose lines all read as
    // KIF headers (a record with no move is no record here); a package.json, a README, a
    // saved page with its files, a node_modules directory, and two huge files (3 GiB, sparse)
    // that must not be read.
    let (notes, _, _) = encoding_rs::SHIFT_JIS.encode("研究会のメモ\n角換わりの感想\n次回は四間飛車\n");
    write(&root.join("notes.txt"), &notes);
    let (memo, _, _) = encoding_rs::SHIFT_JIS.encode("# 研究会\n先手：研究会のメモ\n後手：角換わりの感想\n");
    write(&root.join("memo.txt"), &memo);
    write(&root.join("package.json"), br#"{"name": "kifu-viewer", "version": "1.0.0", "dependencies": {}}"#);
    write(&root.join("README.md"), "# 棋譜\nGames of 2006.\n".as_bytes());
    write(&root.join("page.html"), b"<html><body>1. P-7f P-3d</body></html>");
    write(&root.join("page_files/viewer.js"), b"function show() {}");
    write(&root.join("node_modules/pkg/package.json"), br#"{"name": "pkg"}"#);
    write(&root.join("node_modules/pkg/readme.txt"), b"A package.\n");
    sparse(&root.join("huge.txt"), 3 << 30);
    sparse(&root.join("huge.html"), 3 << 30);
    // Record extensions that hold no readable record: rejects. The 2 GiB one is too large
    // to be read at all.
    write(&root.join("empty.kif"), b"");
    write(&root.join("broken.csa"), b"hello, this is no record\n");
    sparse(&root.join("huge.kif"), 2 << 30);
    #[cfg(unix)]
    std::os::unix::fs::symlink(root.join("pro/habu.kifu"), root.join("link.kif")).unwrap();
}

#[test]
fn files_that_hold_no_record_are_skipped_and_a_rerun_reports_what_it_did() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("archive");
    archive(&root);
    let root = fs::canonicalize(&root).unwrap();
    let db = tmp.path().join("k.sqlite");
    let root_s = root.to_str().unwrap();

    let (code, summary, messages) = index(&[root_s], &db);
    assert_eq!(code, Some(1), "{messages}");
    // Seen 17 (the link is not followed), each counted once more: 4 records indexed; 3
    // rejected (2 read, huge.kif unread); 10 skipped. 3 games and one duplicate (inner.csa
    // holds the game of saved-as.txt).
    assert_eq!(counts(&summary), [17, 4, 0, 3, 10, 3, 1], "{summary}");
    for name in ["empty.kif", "broken.csa", "huge.kif"] {
        assert!(messages.contains(&format!("rejected {}", root.join(name).display())), "{name}: {messages}");
    }
    for name in ["notes.txt", "memo.txt", "package.json", "README", "page", "node_modules", "huge.txt"] {
        assert!(!messages.contains(name), "{name}: {messages}");
    }
    assert!(messages.contains("17 files (4 indexed, 0 unchanged, 3 rejected, 10 skipped)"), "{messages}");
    let games = export("games", &db);
    for name in ["pro/habu.kifu", "pro/saved-as.txt", "pro/meijin.json", "dir.kif/inner.csa"] {
        assert!(games.contains(&root.join(name).display().to_string()), "{name}: {games}");
    }
    assert_eq!(games.lines().count(), 5, "{games}");
    let rejects = export("rejects", &db);
    assert!(
        rejects.contains("empty.kif,,,,empty,") && rejects.contains("broken.csa,,,,unknown_format,"),
        "{rejects}"
    );
    assert!(rejects.contains("huge.kif,,,,too_large,"), "{rejects}");
    assert_eq!(rejects.lines().count(), 4, "{rejects}");

    // Globs leave out node_modules, the web pages and the huge record; a path that does not
    // exist is a reject of its own, and the run goes on.
    let missing = tmp.path().join("missing-dir");
    let excludes = ["--exclude", "node_modules", "--exclude", "*.html", "--exclude", "/huge.kif"];
    let args: Vec<&str> = [root_s, missing.to_str().unwrap()].into_iter().chain(excludes).collect();
    let (code, summary, messages) = index(&args, &db);
    assert_eq!(code, Some(1), "{messages}");
    // 17 - 2 - 2 - 1 files and the missing path: 6 unchanged, 1 rejected, 6 skipped.
    assert_eq!(counts(&summary), [13, 0, 6, 1, 6, 0, 0], "{summary}");
    assert!(messages.contains(&format!("rejected {} [missing]", missing.display())), "{messages}");
    assert_eq!(messages.lines().filter(|l| l.contains("rejected /")).count(), 1, "{messages}");

    // The same run again, without the missing path: nothing is read, nothing rejected.
    let args: Vec<&str> = [root_s].into_iter().chain(excludes).collect();
    let (code, summary, messages) = index(&args, &db);
    assert_eq!(code, Some(0), "{messages}");
    assert_eq!(counts(&summary), [12, 0, 6, 0, 6, 0, 0], "{summary}");
    assert!(!messages.contains("rejected /"), "{messages}");
    // The rejects recorded for files are still there to export; that of huge.kif, an entry no
    // longer walked, is gone; that of the missing path stays until the path is given again.
    let rejects = export("rejects", &db);
    assert!(rejects.contains("empty.kif,") && rejects.contains("broken.csa,"), "{rejects}");
    assert!(rejects.contains("missing-dir,,,,missing,") && !rejects.contains("huge.kif"), "{rejects}");

    // A .txt file that held a record and now holds notes is skipped, and its game goes (the
    // CSA copy keeps it).
    fs::write(root.join("pro/saved-as.txt"), "just notes now\n").unwrap();
    let (code, summary, _) = index(&args, &db);
    assert_eq!((code, summary["files_skipped"].as_u64()), (Some(0), Some(7)), "{summary}");
    let games = export("games", &db);
    assert!(!games.contains("saved-as.txt") && games.contains("inner.csa"), "{games}");
    assert_eq!(games.lines().count(), 4, "{games}");

    // Links are followed when asked: link.kif leads to pro/habu.kifu, which the run indexes
    // under its own path, so the link is another name of it, not read.
    let (code, summary, _) = index(&[&[root_s, "--follow-links"][..], &excludes].concat(), &db);
    assert_eq!(code, Some(0));
    let keys = ["files_indexed", "games_duplicate", "other_names"];
    assert_eq!(keys.map(|k| summary[k].as_u64()), [Some(0), Some(0), Some(1)], "{summary}");
}

#[test]
fn include_globs_choose_files_whatever_their_names() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("archive");
    archive(&root);
    write(&root.join("old/game.dat"), &data("tests/data/duplicates/kif/other.kifu"));
    write(&root.join("old/other.dat"), b"binary \x00\x01\x02 data");
    let db = tmp.path().join("k.sqlite");
    let root_s = root.to_str().unwrap();
    // Only the .dat files: one holds a record, the other is skipped.
    let (code, summary, messages) = index(&[root_s, "--include", "*.dat"], &db);
    assert_eq!(code, Some(0), "{messages}");
    assert_eq!(counts(&summary), [2, 1, 0, 0, 1, 1, 0], "{summary}");
    // Globs are matched from the top of each directory given, and case counts: '*.KIF'
    // matches nothing here, and the run says so.
    let (code, summary, messages) = index(&[root_s, "--include", "pro/*.kifu", "--include", "*.KIF"], &db);
    assert_eq!(code, Some(0), "{messages}");
    assert_eq!(counts(&summary), [1, 1, 0, 0, 0, 1, 0], "{summary}");
    assert!(messages.contains("--include '*.KIF' matched nothing"), "{messages}");
    assert_eq!(summary["globs_unmatched"], serde_json::json!(["--include '*.KIF'"]));
    // An exclude wins over an include.
    let (_, summary, _) = index(&[root_s, "--include", "pro/**", "--exclude", "*.json"], &db);
    assert_eq!(summary["files_seen"], 2, "{summary}");
    // A glob that is not one is a usage error.
    let (code, _, messages) = index(&[root_s, "--include", "pro/[a"], &db);
    assert_eq!(code, Some(2));
    assert!(messages.contains("--include 'pro/[a' is not a glob"), "{messages}");
}

#[test]
fn a_run_over_paths_none_of_which_exists_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("k.sqlite");
    let missing: Vec<PathBuf> = ["a", "b"].iter().map(|n| tmp.path().join(n)).collect();
    let (code, _, messages) = index(&missing.iter().map(|p| p.to_str().unwrap()).collect::<Vec<_>>(), &db);
    assert_eq!(code, Some(2), "{messages}");
    assert!(messages.contains("nothing to index: no path given exists"), "{messages}");
    assert!(!db.exists(), "no database is made for nothing");
}

#[test]
fn a_path_that_does_not_exist_is_never_pruned() {
    let tmp = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(tmp.path()).unwrap();
    write(&root.join("a/habu.kifu"), &data("tests/data/duplicates/kif/habu.kifu"));
    write(&root.join("b/other.kifu"), &data("tests/data/duplicates/kif/other.kifu"));
    let db = root.join("k.sqlite");
    let (a, b) = (root.join("a"), root.join("b"));
    let (code, summary, _) = index(&[a.to_str().unwrap(), b.to_str().unwrap()], &db);
    assert_eq!((code, summary["games_added"].as_u64()), (Some(0), Some(2)));
    // The disk that held a/ is not mounted, say: with --prune, a/ is a reject, not a reason to
    // forget its games.
    fs::rename(&a, root.join("elsewhere")).unwrap();
    let (code, summary, messages) = index(&[a.to_str().unwrap(), b.to_str().unwrap(), "--prune"], &db);
    assert_eq!(code, Some(1), "{messages}");
    assert_eq!((summary["files_rejected"].as_u64(), summary["files_pruned"].as_u64()), (Some(1), Some(0)));
    assert!(export("games", &db).contains("a/habu.kifu"));
    // Once it is back, the reject goes.
    fs::rename(root.join("elsewhere"), &a).unwrap();
    let (code, _, _) = index(&[a.to_str().unwrap(), b.to_str().unwrap(), "--prune"], &db);
    assert_eq!(code, Some(0));
    assert_eq!(export("rejects", &db).lines().count(), 1, "only the header row");
}

/// A JKF record saved as `.json` is a record even with no move (a handicap start with its
/// players, as JKF tools save one): its structure says so. A `package.json` beside it is not.
#[test]
fn a_jkf_record_without_moves_saved_as_json_is_indexed() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("archive");
    write(
        &root.join("two-piece.json"),
        r#"{"header": {"先手": "下手の人", "後手": "上手の人"}, "initial": {"preset": "2"}, "moves": [{}]}"#
            .as_bytes(),
    );
    write(&root.join("package.json"), br#"{"name": "kifu-viewer", "moves": "not a list"}"#);
    let db = tmp.path().join("k.sqlite");
    let (code, summary, messages) = index(&[root.to_str().unwrap()], &db);
    assert_eq!(code, Some(0), "{messages}");
    assert_eq!(counts(&summary), [2, 1, 0, 0, 1, 1, 0], "{summary}");
    let games = export("games", &db);
    let row = games.lines().nth(1).unwrap_or_default();
    assert!(row.contains("two-piece.json") && row.contains(",二枚落ち,"), "{games}");
    assert!(row.contains("下手の人") && row.contains("上手の人"), "{games}");
}

/// A pipe given as a path (a named one, or a shell's `<(…)`) is a rejected entry that says
/// what it is, never a wait for a writer that never comes nor a run that reads nothing and
/// says it went well. Among the files of a directory, a pipe not named is passed over unread,
/// counted as skipped, and one named as a record is said once on stderr.
#[test]
fn a_pipe_or_device_given_as_a_path_is_rejected_and_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = fs::canonicalize(tmp.path()).unwrap().join("in");
    let kifu = data("samples/pro/2021-06-29_oui-1.kifu");
    write(&dir.join("game.kifu"), &kifu);
    let fifo = dir.join("pipe.kif");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    assert!(std::process::Command::new("mkfifo").arg(dir.join("pipe.dat")).status().unwrap().success());
    let db = tmp.path().join("k.sqlite");
    let said = |path: &str| format!("rejected {path} [not_a_file]: a pipe, socket or device, not a file");

    // game.kifu is indexed; the two pipes are skipped (a run that opened one would wait for
    // good), and only pipe.kif, named as a record, is said; the same again when nothing changed.
    for (run, indexed, unchanged, added) in [(1, 1, 0, 1), (2, 0, 1, 0)] {
        let (code, summary, messages) = index(&[dir.to_str().unwrap()], &db);
        let want = [3, indexed, unchanged, 0, 2, added, 0];
        assert_eq!((code, counts(&summary)), (Some(0), want), "run {run}: {messages}");
        let pipes = ["not_files", "not_files_named_as_records"].map(|k| summary[k].as_u64());
        assert_eq!(pipes, [Some(2), Some(1)], "run {run}: {summary}");
        let skipped = format!("3 files ({indexed} indexed, {unchanged} unchanged, 0 rejected, 2 skipped)");
        assert!(messages.contains(&skipped), "run {run}: {messages}");
        let note: Vec<&str> = messages.lines().filter(|l| l.contains("pipes, sockets or devices")).collect();
        assert_eq!(note.len(), 1, "run {run}: {messages}");
        assert!(
            note[0].starts_with("kifudex: 1 entries named as records are pipes"),
            "run {run}: {messages}"
        );
        assert!(!messages.contains("rejected /"), "run {run}: {messages}");
    }

    // A link to a device given as a path is rejected under the name given.
    let null = tmp.path().join("null.kif");
    std::os::unix::fs::symlink("/dev/null", &null).unwrap();
    for args in [
        vec![fifo.to_str().unwrap()],
        vec![fifo.to_str().unwrap(), dir.to_str().unwrap()],
        vec!["/dev/null"],
        vec![null.to_str().unwrap()],
    ] {
        let (code, summary, messages) = index(&args, &db);
        assert_eq!(code, Some(1), "{args:?}: {messages}");
        assert_eq!(summary["files_rejected"].as_u64(), Some(1), "{args:?}: {summary}");
        let named = if args[0] == fifo.to_str().unwrap() { fifo.to_str().unwrap() } else { args[0] };
        assert!(messages.contains(&said(named)), "{messages}");
    }

    let game = dir.join("game.kifu");
    let out = crate::util::wrapper("bash")
        .args(["-c", "exec \"$0\" index --json --db \"$1\" <(cat \"$2\")"])
        .arg(crate::util::exe())
        .arg(&db)
        .arg(&game)
        .output()
        .unwrap();
    let messages = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{messages}");
    assert!(messages.contains("[not_a_file]"), "{messages}");
    assert!(!messages.contains("no path given exists"), "{messages}");
}

#[test]
fn a_path_given_inside_another_is_indexed_whatever_the_globs_say_of_the_one_above() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("kifu");
    write(&root.join("keep.kifu"), &data("tests/data/duplicates/kif/habu.kifu"));
    write(&root.join("old/other.kifu"), &data("tests/data/duplicates/kif/other.kifu"));
    write(&root.join("old/habu.kifu"), &data("tests/data/duplicates/kif/habu.kifu"));
    let db = tmp.path().join("k.sqlite");
    let (root_s, named) = (root.to_str().unwrap(), root.join("old/other.kifu"));
    // `old/` leaves out the directory under kifu/, not the file named inside it: two files
    // (keep.kifu and other.kifu), two games.
    let (code, summary, messages) = index(&[root_s, named.to_str().unwrap(), "--exclude", "old/"], &db);
    assert_eq!(code, Some(0), "{messages}");
    assert_eq!(counts(&summary), [2, 2, 0, 0, 0, 2, 0], "{summary}");
    // Nor does it leave out the directory given: its two files come in, one of them the same
    // game as keep.kifu.
    let old = root.join("old");
    let (code, summary, messages) = index(&[root_s, old.to_str().unwrap(), "--exclude", "old/"], &db);
    assert_eq!(code, Some(0), "{messages}");
    assert_eq!(counts(&summary), [3, 1, 2, 0, 0, 0, 1], "{summary}");
    let games = export("games", &db);
    assert!(games.contains(&root.join("old/habu.kifu").display().to_string()), "{games}");
}

#[test]
fn prune_of_a_directory_gone_says_how_to_forget_its_files() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("kifu");
    write(&root.join("old/habu.kifu"), &data("tests/data/duplicates/kif/habu.kifu"));
    write(&root.join("new/other.kifu"), &data("tests/data/duplicates/kif/other.kifu"));
    let db = tmp.path().join("k.sqlite");
    let (old, new) = (root.join("old"), root.join("new"));
    let (code, summary, messages) = index(&[old.to_str().unwrap(), new.to_str().unwrap()], &db);
    assert_eq!((code, summary["games_added"].as_u64()), (Some(0), Some(2)), "{messages}");
    fs::remove_dir_all(&old).unwrap();
    // The directory gone prunes nothing, alone (a usage error) or beside another; the run
    // says what to give instead.
    let hint = format!("kifudex index {} --prune --include '/old/**'", root.display());
    let (code, _, messages) = index(&[old.to_str().unwrap(), "--prune"], &db);
    assert_eq!(code, Some(2), "{messages}");
    assert!(messages.contains(&hint), "{messages}");
    let (code, summary, messages) = index(&[new.to_str().unwrap(), old.to_str().unwrap(), "--prune"], &db);
    assert_eq!((code, summary["files_pruned"].as_u64()), (Some(1), Some(0)), "{messages}");
    assert!(messages.contains(&hint), "{messages}");
    assert!(export("games", &db).contains("old/habu.kifu"));
    // What it says forgets the files of old/, and only those.
    let (code, summary, messages) = index(&[root.to_str().unwrap(), "--prune", "--include", "/old/**"], &db);
    assert_eq!(code, Some(0), "{messages}");
    assert_eq!((summary["files_pruned"].as_u64(), summary["files_unwalked"].as_u64()), (Some(1), Some(1)));
    let games = export("games", &db);
    assert!(!games.contains("old/habu.kifu") && games.contains("new/other.kifu"), "{games}");
}

/// The command the run gives for a directory gone runs in a shell as it is pasted, whatever
/// the names hold: a quote in the directory's name, and a byte that is no UTF-8 in the name
/// of the directory that held it (bash's `$'\xNN'`; the glob matches such a byte with `?`).
#[test]
fn the_command_that_forgets_a_directory_gone_runs_in_a_shell_whatever_its_names() {
    use std::os::unix::ffi::OsStrExt;
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join(std::ffi::OsStr::from_bytes(b"kifu \xff$x"));
    let old = root.join("Habu's old games");
    write(&old.join("habu.kifu"), &data("tests/data/duplicates/kif/habu.kifu"));
    write(&root.join("new/other.kifu"), &data("tests/data/duplicates/kif/other.kifu"));
    let db = tmp.path().join("k.sqlite");
    let out = kifudex(["index", "--quiet"]).args([&root]).db(&db).output();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    fs::remove_dir_all(&old).unwrap();
    let out = kifudex(["index", "--prune"]).args([&old]).db(&db).output();
    let messages = String::from_utf8(out.stderr).unwrap();
    let (_, command) = messages.split_once("held them: ").expect("the run says what to give");
    let command = command.lines().next().unwrap();
    let at = tmp.path().display();
    // The database given is named, so that the command forgets them there.
    let want = format!(
        "kifudex index $'{at}/kifu \\xff$x' --prune --include '/Habu'\\''s old games/**' --db {}",
        db.display()
    );
    assert_eq!(command, want);
    // Run as it is, but for the binary (without the --db the default would be another file).
    let out = crate::util::wrapper("bash")
        .arg("-c")
        .arg(command.replacen("kifudex", "\"$0\"", 1))
        .arg(crate::util::exe())
        .current_dir(tmp.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let games = export("games", &db);
    assert!(!games.contains("habu.kifu") && games.contains("new/other.kifu"), "{games}");
}

/// A record saved as `.txt` with a stray byte in it is still told a record, as its `.kif`
/// copy is, and read with a warning on that line: the look at a file's head reads it as the
/// file is read, a bad line included. Notes with a stray byte are still no record.
#[test]
fn a_record_saved_as_txt_with_a_stray_byte_is_read_with_a_warning() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("archive");
    // In its first line, `# ---- Kifu for Windows …`, after `# `.
    let mut record = data("tests/data/index/game.kif");
    record.insert(2, 0xFF);
    write(&root.join("saved-as.txt"), &record);
    let (mut notes, _, _) = encoding_rs::SHIFT_JIS.encode("研究会のメモ\n角換わりの感想\n");
    notes.to_mut().insert(3, 0xFF);
    write(&root.join("notes.txt"), &notes);
    let db = tmp.path().join("k.sqlite");
    let (code, summary, messages) = index(&[root.to_str().unwrap()], &db);
    assert_eq!(code, Some(0), "{messages}");
    // Seen 2: 1 indexed, 0 unchanged, 0 rejected, 1 skipped; 1 game.
    assert_eq!(counts(&summary)[..5], [2, 1, 0, 0, 1], "{summary}");
    assert_eq!(summary["warnings"].as_u64(), Some(1), "{summary}");
    let warnings = export("warnings", &db);
    assert!(warnings.contains("saved-as.txt") && warnings.contains("undecodable_bytes"), "{warnings}");
}
