//! Names, events and openings matched as people write them, and aliases: against sets of
//! records chosen by hand from the archive's list.

use std::{collections::BTreeSet, ffi::OsStr, fs};

use super::{archive, build, kifudex, records, stdout};
use crate::query::csv_rows;

/// The game ids `games --all` lists with `filters`.
fn listed(db: &std::path::Path, filters: &[&str]) -> BTreeSet<i64> {
    let mut args = vec!["games", "--all", "--format", "csv"];
    args.extend_from_slice(filters);
    csv_rows(stdout(&kifudex(&args).db(db).output()).as_bytes())
        .iter()
        .map(|r| r["id"].parse().unwrap())
        .collect()
}

/// The ids of the records with these numbers (their file names, `07` standing for both copies).
fn ids_of(ids: &[i64], numbers: &[&str]) -> BTreeSet<i64> {
    records()
        .iter()
        .zip(ids)
        .filter(|(r, _)| numbers.iter().any(|n| r.file.ends_with(&format!("/{n}.csa"))))
        .map(|(_, &id)| id)
        .collect()
}

#[test]
fn names_events_and_openings_match_without_widths_spaces_case_or_titles() {
    let a = archive();
    let cases: &[(&[&str], &[&str])] = &[
        // The three that used to miss: full-width digits, a space in the name, case.
        (&["--event", "62期"], &["01", "02", "03"]),
        (&["--player", "羽生善治"], &["01", "02", "03", "04", "07", "08"]),
        (&["--player", "habu"], &["06", "07"]),
        (&["--player", "Habu"], &["06", "07"]),
        // A title written after the name, in the filter or in the record.
        (&["--player", "羽生善治 名人"], &["01", "02", "03", "04", "07", "08"]),
        (&["--player", "藤井聡太竜王"], &["03", "04", "05", "09", "10"]),
        (&["--black", "羽生　善治"], &["01", "03", "07"]),
        (&["--white", "藤井 聡太"], &["03", "05", "10"]),
        // Full-width Latin letters, spaces of every width, and case.
        (&["--player", "fujii souta"], &["11"]),
        (&["--player", "ＦＵＪＩＩ"], &["11"]),
        (&["--event", "nhk"], &["05", "06", "09"]),
        (&["--event", "ＮＨＫ杯"], &["05", "09"]),
        (&["--player", "渡辺 明"], &["05", "07", "08", "09"]),
        // Openings, a part of the record's 戦型 header.
        (&["--opening", "矢倉"], &["01", "03", "07"]),
        (&["--opening", "YAGURA"], &["06", "07"]),
        (&["--opening", "四間"], &["04", "09"]),
        // Names and events together must hold in one record: 07's Japanese record names the
        // event 棋聖戦, its English one Habu.
        (&["--player", "habu", "--event", "棋聖"], &[]),
        (&["--player", "habu", "--event", "kisei"], &["07"]),
    ];
    for (filters, numbers) in cases {
        assert_eq!(listed(&a.db, filters), ids_of(&a.ids, numbers), "{filters:?}");
    }
    // The same filters hold for a position query and the games export.
    let query = |args: &[&str]| -> BTreeSet<i64> {
        let mut all = vec!["query", "--limit", "100", "--format", "csv", "--csv", "games"];
        all.extend_from_slice(args);
        csv_rows(stdout(&kifudex(&all).db(&a.db).output()).as_bytes())
            .iter()
            .map(|r| r["id"].parse().unwrap())
            .collect()
    };
    assert_eq!(query(&["--event", "62期"]), ids_of(&a.ids, &["01", "02", "03"]));
    assert_eq!(query(&["--player", "habu", "--moves", "2g2f"]), ids_of(&a.ids, &["07"]));
    let exported: BTreeSet<i64> =
        csv_rows(stdout(&kifudex(["export", "games", "--player", "羽生善治"]).db(&a.db).output()).as_bytes())
            .iter()
            .map(|r| r["game_id"].parse().unwrap())
            .collect();
    assert_eq!(exported, ids_of(&a.ids, &["01", "02", "03", "04", "07", "08"]));
}

#[test]
fn aliases_join_spellings_in_filters_and_are_stored_by_the_writer() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("k.sqlite");
    let ids = build(&tmp.path().join("archive"), &db);
    let habu = ids_of(&ids, &["01", "02", "03", "04", "06", "07", "08"]);
    let hash = || fs::read(&db).unwrap();

    // From a file, without writing the database: either spelling finds both.
    let file = tmp.path().join("aliases.csv");
    fs::write(&file, "alias,name\nHabu Yoshiharu,羽生善治\n\n\"Watanabe Akira\", 渡辺明\n").unwrap();
    let before = hash();
    let with_file = ["--aliases", file.to_str().unwrap()];
    assert_eq!(listed(&db, &[&["--player", "羽生"][..], &with_file].concat()), habu);
    assert_eq!(listed(&db, &[&["--player", "habu"][..], &with_file].concat()), habu);
    assert_eq!(
        listed(&db, &[&["--player", "渡辺明"][..], &with_file].concat()),
        ids_of(&ids, &["05", "06", "07", "08", "09"])
    );
    assert_eq!(hash(), before, "a read command with --aliases writes nothing");
    assert_eq!(listed(&db, &["--player", "羽生"]), ids_of(&ids, &["01", "02", "03", "04", "07", "08"]));

    // Stored: `alias add`, then every command goes through it.
    let out = kifudex(["alias", "add", "Habu Yoshiharu", "羽生善治"]).db(&db).output();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(listed(&db, &["--player", "羽生"]), habu);
    assert_eq!(listed(&db, &["--player", "HABU"]), habu);
    assert_eq!(listed(&db, &["--white", "Habu Yoshiharu"]), ids_of(&ids, &["02", "04", "08"]));
    // An alias of an alias names the player it stands for.
    assert_eq!(kifudex(["alias", "add", "はぶ", "habu yoshiharu"]).db(&db).output().status.code(), Some(0));
    assert_eq!(listed(&db, &["--player", "はぶ"]), habu);
    let list = stdout(&kifudex(["alias", "list", "--csv"]).db(&db).output());
    assert_eq!(list, "alias,name\nはぶ,habu yoshiharu\nHabu Yoshiharu,羽生善治\n");
    // `--db` may come before the action too.
    let db_first = kifudex([
        OsStr::new("alias"),
        OsStr::new("--db"),
        db.as_os_str(),
        OsStr::new("list"),
        OsStr::new("--csv"),
    ])
    .output();
    assert_eq!(stdout(&db_first), list);
    // The list reads back as an aliases file.
    fs::write(&file, &list).unwrap();
    assert_eq!(listed(&db, &[&["--player", "はぶ"][..], &with_file].concat()), habu);
    // One name twice, and texts that are no name, are refused, and leave the file as it was.
    let before = hash();
    let same = kifudex(["alias", "add", "羽生 善治 名人", "羽生善治"]).db(&db).output();
    assert_eq!(same.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&same.stderr).contains("already one name"), "{:?}", same);
    assert_eq!(kifudex(["alias", "add", "　", "羽生善治"]).db(&db).output().status.code(), Some(2));
    // The alias turned round: the message names both, and which one is the alias.
    let (code, _, stderr) = kifudex(["alias", "add", "羽生善治", "Habu Yoshiharu"]).db(&db).run();
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.starts_with(
            "kifudex: 'Habu Yoshiharu' is already an alias of '羽生善治', so '羽生善治' cannot be an alias of \
             'Habu Yoshiharu'"
        ),
        "{stderr}"
    );
    assert_eq!(hash(), before, "a refused alias writes nothing");
    let out = kifudex(["games"]).db(&db).output();
    assert!(
        out.stderr.is_empty(),
        "no run is said to be unfinished: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Removed by any spelling of the alias; a missing one exits 1.
    assert_eq!(kifudex(["alias", "remove", "HABU  YOSHIHARU"]).db(&db).output().status.code(), Some(0));
    let before = hash();
    assert_eq!(kifudex(["alias", "remove", "Habu Yoshiharu"]).db(&db).output().status.code(), Some(1));
    assert_eq!(hash(), before, "removing no alias writes nothing");
    assert_eq!(listed(&db, &["--player", "羽生"]), ids_of(&ids, &["01", "02", "03", "04", "07", "08"]));
    // The alias of the alias stands for what it was given for again.
    assert_eq!(
        stdout(&kifudex(["alias", "list", "--csv"]).db(&db).output()),
        "alias,name\nはぶ,habu yoshiharu\n"
    );

    // The writer's rules: left in rollback mode, with no lock or journal beside it.
    let header = fs::read(&db).unwrap();
    assert_eq!(&header[18..20], &[1, 1], "rollback-journal mode at rest");
    let mut beside: Vec<String> = fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    beside.sort();
    assert_eq!(beside, ["aliases.csv", "archive", "k.sqlite"]);
}

/// A spelling that is already one player's alias is not made another's without `--replace`:
/// the games of the first would stop being found by it. Another spelling of the same player,
/// or a name that stands for that player, is no change of player.
#[test]
fn an_alias_of_one_player_is_made_another_players_only_when_asked() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("k.sqlite");
    let ids = build(&tmp.path().join("archive"), &db);
    let habu = ids_of(&ids, &["01", "02", "03", "04", "06", "07", "08"]);
    let add = |args: &[&str]| kifudex([&["alias", "add"][..], args].concat()).db(&db).run();
    assert_eq!(add(&["Habu Yoshiharu", "羽生善治"]).0, 0);
    assert_eq!(add(&["hy", "羽生善治"]).0, 0);
    let hash = fs::read(&db).unwrap();
    let (code, _, stderr) = add(&["HY", "渡辺明"]);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(
        stderr,
        "kifudex: hy is already an alias of 羽生善治: give --replace to make it 渡辺明's instead, or choose \
         another spelling\n"
    );
    assert_eq!(fs::read(&db).unwrap(), hash, "a refused alias writes nothing");
    assert_eq!(listed(&db, &["--player", "hy"]), habu);
    // The same player, by another spelling of the alias or by a name that stands for them.
    // Said so: the stored spelling gives way to the new one.
    let respelled = "kifudex: alias HY → Habu Yoshiharu, an alias of 羽生善治 (in place of hy, the same alias spelled \
                     otherwise)\n";
    assert_eq!(add(&["HY", "Habu Yoshiharu"]), (0, String::new(), respelled.into()));
    let listed_aliases = stdout(&kifudex(["alias", "list", "--csv"]).db(&db).output());
    assert!(
        listed_aliases.contains("\nHY,Habu Yoshiharu\n") && !listed_aliases.contains("hy,"),
        "{listed_aliases}"
    );
    assert_eq!(listed(&db, &["--player", "hy"]), habu);
    let (code, _, stderr) = add(&["hy", "渡辺明", "--replace"]);
    assert_eq!((code, stderr.as_str()), (0, "kifudex: alias hy → 渡辺明 (it was 羽生善治's)\n"));
    let watanabe = listed(&db, &["--player", "渡辺明"]);
    assert!(!watanabe.is_empty() && watanabe != habu);
    assert_eq!(listed(&db, &["--player", "hy"]), watanabe);
    assert_eq!(listed(&db, &["--player", "Habu Yoshiharu"]), habu);
}

/// The `games` count of the player row named `name` in `players`.
fn games_of(db: &std::path::Path, name: &str) -> Option<u64> {
    let out = kifudex(["players", "--format", "csv"]).db(db).output();
    csv_rows(stdout(&out).as_bytes()).iter().find(|r| r["name"] == name).map(|r| r["games"].parse().unwrap())
}

/// An alias is kept as it was given: joining the player an alias names to another player
/// takes that alias along, says so, and removing the join gives it back, with the totals
/// as they were before.
#[test]
fn an_alias_follows_the_name_it_was_given_for_and_comes_back_when_that_is_undone() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("k.sqlite");
    let ids = build(&tmp.path().join("archive"), &db);
    let add = |args: &[&str]| kifudex([&["alias", "add"][..], args].concat()).db(&db).run();
    // Records 01–04, 07 and 08 name 羽生善治 (with spaces or a title); 06 and a copy of 07
    // name Habu Yoshiharu.
    let habu_kanji = ids_of(&ids, &["01", "02", "03", "04", "07", "08"]);
    let habu_all = ids_of(&ids, &["01", "02", "03", "04", "06", "07", "08"]);
    assert_eq!(games_of(&db, "羽生善治"), Some(6));
    let habu_en = listed(&db, &["--player", "Habu Yoshiharu"]);

    // Habu Yoshiharu → H. Yoshiharu, then H. Yoshiharu → 羽生善治: the first alias now stands
    // for 羽生善治 too, and the second says so.
    assert_eq!(
        add(&["Habu Yoshiharu", "H. Yoshiharu"]),
        (0, String::new(), "kifudex: alias Habu Yoshiharu → H. Yoshiharu\n".into())
    );
    assert_eq!(
        add(&["H. Yoshiharu", "羽生善治"]),
        (
            0,
            String::new(),
            "kifudex: alias H. Yoshiharu → 羽生善治\nkifudex: Habu Yoshiharu → H. Yoshiharu now stands for 羽生善治 (it \
             stood for H. Yoshiharu)\n"
                .into()
        )
    );
    assert_eq!(listed(&db, &["--player", "羽生善治"]), habu_all);
    assert_eq!(listed(&db, &["--player", "Habu Yoshiharu"]), habu_all);
    assert_eq!(games_of(&db, "羽生善治"), Some(7));
    // Stored as given, and listed with the player each stands for.
    assert_eq!(
        stdout(&kifudex(["alias", "list", "--csv"]).db(&db).output()),
        "alias,name\nHabu Yoshiharu,H. Yoshiharu\nH. Yoshiharu,羽生善治\n"
    );
    let table = stdout(&kifudex(["alias", "list"]).db(&db).output());
    let rows: Vec<Vec<&str>> =
        table.lines().map(|l| l.split("  ").filter(|c| !c.is_empty()).map(str::trim).collect()).collect();
    assert_eq!(
        rows,
        [
            vec!["alias", "name", "player"],
            vec!["Habu Yoshiharu", "H. Yoshiharu", "羽生善治"],
            vec!["H. Yoshiharu", "羽生善治", "羽生善治"]
        ]
    );
    // A loop through the chain is refused: 羽生善治 → Habu Yoshiharu would lead back.
    let (code, _, stderr) = add(&["羽生善治", "Habu Yoshiharu"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("'Habu Yoshiharu' is already an alias of '羽生善治'"), "{stderr}");

    // Undone: Habu Yoshiharu stands for H. Yoshiharu again, and the totals are those from
    // before the join.
    let (code, _, stderr) = kifudex(["alias", "remove", "H. Yoshiharu"]).db(&db).run();
    assert_eq!(
        (code, stderr.as_str()),
        (
            0,
            "kifudex: removed alias H. Yoshiharu → 羽生善治\nkifudex: Habu Yoshiharu → H. Yoshiharu now stands for H. \
             Yoshiharu (it stood for 羽生善治)\n"
        )
    );
    assert_eq!(listed(&db, &["--player", "羽生善治"]), habu_kanji);
    assert_eq!(listed(&db, &["--player", "Habu Yoshiharu"]), habu_en);
    assert_eq!(games_of(&db, "羽生善治"), Some(6));
    assert_eq!(
        stdout(&kifudex(["alias", "list", "--csv"]).db(&db).output()),
        "alias,name\nHabu Yoshiharu,H. Yoshiharu\n"
    );
}

/// The rows of an aliases file may chain, in any order; rows that contradict each other are
/// refused, naming both lines.
#[test]
fn aliases_of_a_file_chain_in_any_order_and_contradictions_are_refused() {
    let a = archive();
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("aliases.csv");
    let habu = ids_of(&a.ids, &["01", "02", "03", "04", "06", "07", "08"]);
    for rows in
        ["はぶ,Habu Yoshiharu\nHabu Yoshiharu,羽生善治\n", "Habu Yoshiharu,羽生善治\nはぶ,Habu Yoshiharu\n"]
    {
        fs::write(&file, rows).unwrap();
        for who in ["はぶ", "habu yoshiharu", "羽生"] {
            assert_eq!(
                listed(&a.db, &["--player", who, "--aliases", file.to_str().unwrap()]),
                habu,
                "{rows} {who}"
            );
        }
    }
    for (rows, message) in [
        ("A,B\nB,A\n", "line 2: 'B' cannot be an alias of 'A': line 1 made 'A' an alias of 'B'"),
        ("A,B\nB,C\nC,A\n", "line 3: 'C' cannot be an alias of 'A': line 1 made 'A' an alias of 'B'"),
        (
            "alias,name\nA,B\n\nA,C\n",
            "line 4: 'A' cannot be an alias of 'C': line 2 made 'A' an alias of 'B'",
        ),
        // Refused as `alias add` refuses it: a row with no name in it.
        ("A,B\n__,羽生\n", "line 2: '__' is no name"),
    ] {
        fs::write(&file, rows).unwrap();
        let (code, _, stderr) = kifudex(["games", "--aliases", file.to_str().unwrap()]).db(&a.db).run();
        assert_eq!(code, 2, "{rows}");
        assert!(stderr.contains(message), "{rows}: {stderr}");
    }
    // A row of two spellings of one name says what names say by themselves (`alias add`
    // refuses it, as a command that would do nothing): a file's such row is passed over, and
    // the answer is the one without it.
    for rows in ["Habu Yoshiharu, habu  yoshiharu\n", "羽生,羽生 名人\n羽生善治 九段,羽生善治\n"]
    {
        fs::write(&file, rows).unwrap();
        let with = listed(&a.db, &["--player", "羽生", "--aliases", file.to_str().unwrap()]);
        assert_eq!(with, listed(&a.db, &["--player", "羽生"]), "{rows}");
    }
    // Rows that agree are no contradiction: one player, two spellings of their name.
    fs::write(&file, "QQ,羽生善治\nQQ,羽生 善治\nXX,QQ\n").unwrap();
    let spelled = listed(&a.db, &["--player", "XX", "--aliases", file.to_str().unwrap()]);
    assert_eq!(spelled, ids_of(&a.ids, &["01", "02", "03", "04", "07", "08"]));
}

#[test]
fn alias_refuses_what_is_not_a_kifudex_database_and_leaves_it_untouched() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("none.sqlite");
    let out = kifudex(["alias", "add", "a", "b"]).db(&missing).output();
    assert_eq!(out.status.code(), Some(2));
    assert!(!missing.exists(), "no database is created");
    let foreign = tmp.path().join("other.sqlite");
    fs::write(&foreign, b"not a database at all").unwrap();
    for args in [&["alias", "add", "a", "b"][..], &["alias", "remove", "a"], &["alias", "list"]] {
        let out = kifudex(args).db(&foreign).output();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("not a kifudex database"), "{out:?}");
    }
    assert_eq!(fs::read(&foreign).unwrap(), b"not a database at all");
    let bad = tmp.path().join("bad.csv");
    fs::write(&bad, "one,two,three\n").unwrap();
    let out = kifudex(["games", "--aliases", bad.to_str().unwrap()]).db(&archive().db).output();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 1: an alias row is `alias,name`"), "{out:?}");
}

/// An alias longer than any name a record stores is refused, and one with a line break in it
/// is said on one line, so that it cannot pass for a message of its own.
#[test]
fn an_alias_is_bounded_and_said_on_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("k.sqlite");
    build(&tmp.path().join("archive"), &db);
    let add = |args: &[&str]| kifudex([&["alias", "add"][..], args].concat()).db(&db).run();
    let hash = fs::read(&db).unwrap();
    for (alias, name) in [("x".repeat(1_001), "羽生善治".to_string()), ("hy".to_string(), "羽".repeat(1_001))]
    {
        let (code, _, stderr) = add(&[&alias, &name]);
        assert_eq!(code, 2, "{stderr}");
        assert!(
            stderr.contains("is too long for a name: it has 1001 characters, and at most 1000 are"),
            "{stderr}"
        );
    }
    assert_eq!(fs::read(&db).unwrap(), hash, "a refused alias writes nothing");
    // As long as the longest stored name, it is taken.
    assert_eq!(add(&[&"x".repeat(1_000), "羽生善治"]).0, 0);
    let (code, _, stderr) = add(&["ab\ncd", "羽生善治"]);
    assert_eq!((code, stderr.as_str()), (0, "kifudex: alias ab\\x0acd → 羽生善治\n"));
    let (code, _, stderr) = kifudex(["alias", "remove", "no\nbody"]).db(&db).run();
    assert_eq!((code, stderr.as_str()), (1, "kifudex: no alias 'no\\x0abody'\n"));
}

/// An alias stored before kifudex knew a title its spelling ends with keeps the key that had
/// the title in it; it still joins the spellings, and `alias remove` still finds it.
#[test]
fn an_alias_stored_with_the_key_of_an_older_reading_still_holds() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("k.sqlite");
    let ids = build(&tmp.path().join("archive"), &db);
    let habu = ids_of(&ids, &["01", "02", "03", "04", "06", "07", "08"]);
    // The row an older build stored for `alias add "Habu Yoshiharu Meijin" 羽生善治`: its key
    // is the spelling's, title and all (widths, spaces and case aside).
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute(
        "INSERT INTO aliases(alias_key, alias, name, name_key)
         VALUES ('habuyoshiharumeijin', 'Habu Yoshiharu Meijin', '羽生善治', '羽生善治')",
        [],
    )
    .unwrap();
    drop(conn);
    // Read as it is (a reader does not write), and after a writer opened the database.
    assert_eq!(listed(&db, &["--player", "羽生"]), habu);
    let (code, _, stderr) = kifudex(["alias", "remove", "habu yoshiharu meijin"]).db(&db).run();
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout(&kifudex(["alias", "list", "--csv"]).db(&db).output()), "alias,name\n");
    assert_eq!(listed(&db, &["--player", "羽生"]), ids_of(&ids, &["01", "02", "03", "04", "07", "08"]));
}

/// CSA names write a space as `_`: `Ito_Chihiro` of a CSA record and `Ito Chihiro` of a KIF
/// one are one player, found by either spelling.
#[test]
fn an_underscore_in_a_name_is_a_space() {
    let tmp = tempfile::tempdir().unwrap();
    let (root, db) = (tmp.path().join("archive"), tmp.path().join("k.sqlite"));
    fs::create_dir_all(&root).unwrap();
    fs::write(root.join("a.csa"), "V2.2\nN+Ito_Chihiro\nN-Sato\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n").unwrap();
    let kif = "先手：Ito Chihiro\n後手：Tanaka\n手合割：平手\n手数----指手--\n   1 ２六歩(27)\n   2 投了\n";
    fs::write(root.join("b.kifu"), kif).unwrap();
    let out = kifudex(["index", root.to_str().unwrap(), "--quiet"]).db(&db).output();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    for spelling in ["Ito Chihiro", "Ito_Chihiro", "itochihiro"] {
        assert_eq!(listed(&db, &["--player", spelling]).len(), 2, "{spelling}");
    }
    let players = stdout(&kifudex(["players", "--player", "ito", "--format", "json"]).db(&db).output());
    let rows: Vec<serde_json::Value> = serde_json::from_str(&players).unwrap();
    assert_eq!(rows.len(), 1, "{players}");
    assert_eq!(rows[0]["games"], 2, "{players}");
    // A database of the version before keeps `_` in its stored keys: a reader makes the keys
    // itself, and the next writer makes them again.
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch("UPDATE players SET key = lower(name); ALTER TABLE files DROP COLUMN device; ALTER TABLE sources DROP COLUMN foul; PRAGMA user_version = 20;").unwrap();
    drop(conn);
    assert_eq!(listed(&db, &["--player", "Ito Chihiro"]).len(), 2);
    let out = kifudex(["index", root.to_str().unwrap(), "--quiet"]).db(&db).output();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let conn = rusqlite::Connection::open(&db).unwrap();
    let key: String =
        conn.query_row("SELECT key FROM players WHERE name = 'Ito_Chihiro'", [], |r| r.get(0)).unwrap();
    assert_eq!(key, "itochihiro");
    drop(conn);
    assert_eq!(listed(&db, &["--player", "Ito Chihiro"]).len(), 2);
}

/// A name, event or opening filter of nothing but `_` and spaces is an empty field: `_` is a
/// space in names, so it filters nothing, as `''` and `' '` do, rather than keeping the games
/// that name anyone.
#[test]
fn a_filter_of_underscores_and_spaces_filters_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let (root, db) = (tmp.path().join("archive"), tmp.path().join("k.sqlite"));
    fs::create_dir_all(&root).unwrap();
    // One game names its players, its event and its opening; the other names none of them.
    let named = "先手：Ito Chihiro\n後手：Tanaka\n棋戦：Open\n戦型：矢倉\n手合割：平手\n手数----指手--\n   1 ２六歩(27)\n   2 投了\n";
    fs::write(root.join("a.kifu"), named).unwrap();
    fs::write(root.join("b.kifu"), "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 投了\n").unwrap();
    let out = kifudex(["index", root.to_str().unwrap(), "--quiet"]).db(&db).output();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(listed(&db, &[]).len(), 2);
    for option in ["--player", "--black", "--white", "--event", "--opening"] {
        for value in ["_", "__", "_ _", "＿", " _　"] {
            assert_eq!(listed(&db, &[option, value]).len(), 2, "{option} {value:?}");
        }
        // A value with something in it still filters.
        assert_eq!(listed(&db, &[option, "_x_"]).len(), 0, "{option}");
    }
    // The position query and the exports read the filters the same way.
    let query = stdout(&kifudex(["query", "--player", "_", "--format", "json"]).db(&db).output());
    let answer: serde_json::Value = serde_json::from_str(&query).unwrap();
    assert_eq!(answer["position"]["games"], 2, "{query}");
    let export = stdout(&kifudex(["export", "games", "--event", "_"]).db(&db).output());
    assert_eq!(csv_rows(export.as_bytes()).len(), 2, "{export}");
}

/// An iteration mark and the kanji written again are one spelling in filters: `佐佐木` finds
/// `佐々木`'s games and the other way round, in names and events. Neither is read into the
/// other where it would add a name: `野村` does not find `野々村` (whose mark, read as the kanji,
/// would hold `野村`), and `田中` still finds `山田田中`, whose repeated kanji is no mark.
#[test]
fn an_iteration_mark_and_the_kanji_written_again_are_one_spelling_in_filters() {
    let tmp = tempfile::tempdir().unwrap();
    let (root, db) = (tmp.path().join("archive"), tmp.path().join("k.sqlite"));
    fs::create_dir_all(&root).unwrap();
    // File name, black, white, event, and a move of its own, so that each is a game.
    let records = [
        ("1.csa", "佐々木勇気", "a", "第1回佐々木杯", "+7776FU"),
        ("2.csa", "b", "佐佐木勇気", "第2回佐佐木杯", "+2726FU"),
        ("3.csa", "野村一郎", "c", "e", "+5756FU"),
        ("4.csa", "d", "野々村一郎", "e", "+1716FU"),
        ("5.csa", "山田田中", "f", "e", "+9796FU"),
    ];
    for (file, black, white, event, mv) in records {
        let text = format!("V2.2\nN+{black}\nN-{white}\n$EVENT:{event}\nPI\n+\n{mv}\n%TORYO\n");
        fs::write(root.join(file), text).unwrap();
    }
    let out = kifudex(["index", root.to_str().unwrap(), "--quiet"]).db(&db).output();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let files = |filters: &[&str]| -> BTreeSet<String> {
        let mut args = vec!["export", "games"];
        args.extend_from_slice(filters);
        csv_rows(stdout(&kifudex(&args).db(&db).output()).as_bytes())
            .iter()
            .map(|r| r["source_path"].rsplit('/').next().unwrap().to_string())
            .collect()
    };
    let set = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<BTreeSet<_>>();
    for (filters, want) in [
        (&["--player", "佐佐木勇気"][..], &["1.csa", "2.csa"][..]),
        (&["--player", "佐々木"][..], &["1.csa", "2.csa"][..]),
        (&["--white", "佐々木勇気"][..], &["2.csa"][..]),
        (&["--event", "佐佐木杯"][..], &["1.csa", "2.csa"][..]),
        (&["--player", "野村"][..], &["3.csa"][..]),
        (&["--player", "野村一郎"][..], &["3.csa"][..]),
        (&["--player", "野野村"][..], &["4.csa"][..]),
        (&["--player", "田中"][..], &["5.csa"][..]),
        (&["--player", "山田田中"][..], &["5.csa"][..]),
    ] {
        assert_eq!(files(filters), set(want), "{filters:?}");
    }
}

/// `query --handicap 香落ち` without a start asks about the even game's start, which no
/// handicap game reaches: the answer (no game) stands, and a note says where those games
/// start and how to ask about it.
#[test]
fn a_handicap_filter_from_the_even_start_says_where_its_games_start() {
    let tmp = tempfile::tempdir().unwrap();
    let (root, db) = (tmp.path().join("archive"), tmp.path().join("k.sqlite"));
    fs::create_dir_all(&root).unwrap();
    let lance =
        "手合割：香落ち\n上手：A\n下手：B\n手数----指手--\n   1 ３四歩(33)\n   2 ７六歩(77)\n   3 投了\n";
    fs::write(root.join("a.kifu"), lance).unwrap();
    let out = kifudex(["index", root.to_str().unwrap(), "--quiet"]).db(&db).output();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let (code, _, stderr) = kifudex(["query", "--handicap", "lance"]).db(&db).run();
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("--handicap 香落ち games start from their own position: give --start 香落ち"),
        "{stderr}"
    );
    // The JSON answer carries the same notes, for a program to read.
    let (code, json, _) = kifudex(["query", "--handicap", "lance", "--format", "json"]).db(&db).run();
    assert_eq!(code, 1);
    let answer: serde_json::Value = serde_json::from_str(&json).unwrap();
    let notes: Vec<String> = answer["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| format!("kifudex: {}\n", n.as_str().unwrap()))
        .collect();
    assert_eq!(notes.concat(), stderr, "{json}");
    // Asked from there, the game is found, and nothing is noted.
    let (code, _, stderr) = kifudex(["query", "--handicap", "lance", "--start", "香落ち"]).db(&db).run();
    assert_eq!((code, stderr.as_str()), (0, ""));
    let (code, _, stderr) =
        kifudex(["query", "--handicap", "香落ち", "--start", "lance", "--moves", "3c3d"]).db(&db).run();
    assert_eq!((code, stderr.as_str()), (0, ""));
    // Without a handicap filter, or from a position given otherwise, there is nothing to say
    // of where the games start (only, with the filter, that the game it keeps is not there).
    let (code, _, stderr) = kifudex(["query", "--moves", "9g9f"]).db(&db).run();
    assert_eq!((code, stderr.as_str()), (1, ""));
    let even = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    let (code, _, stderr) = kifudex(["query", "--handicap", "lance", "--sfen", even]).db(&db).run();
    let kept = "kifudex: the filters keep 1 game, and it does not reach this position\n";
    assert_eq!((code, stderr.as_str()), (1, kept));
}

/// Old and variant forms of kanji are the forms in use today: `渡邊明` of one record and
/// `渡辺明` of another are one player, found by either spelling, and so are `髙橋` and `高橋`.
#[test]
fn old_and_variant_kanji_in_a_name_are_their_form_of_today() {
    let tmp = tempfile::tempdir().unwrap();
    let (root, db) = (tmp.path().join("archive"), tmp.path().join("k.sqlite"));
    fs::create_dir_all(&root).unwrap();
    // Four games, each its own first move.
    let kif = |black: &str, white: &str, event: &str, first: &str| {
        format!(
            "棋戦：{event}\n先手：{black}\n後手：{white}\n手合割：平手\n手数----指手--\n   1 {first}\n   2 投了\n"
        )
    };
    fs::write(root.join("a.kif"), kif("渡邊明", "髙橋道雄", "第１期名人戰", "２六歩(27)")).unwrap();
    fs::write(root.join("b.kif"), kif("高橋道雄", "渡辺明", "第1期名人戦", "７六歩(77)")).unwrap();
    fs::write(root.join("c.kif"), kif("渡邉明", "斉藤", "王将戦", "５六歩(57)")).unwrap();
    fs::write(root.join("d.kif"), kif("斎藤", "羽生善治", "王将戦", "１六歩(17)")).unwrap();
    let out = kifudex(["index", root.to_str().unwrap(), "--quiet"]).db(&db).output();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let check = |db: &std::path::Path| {
        for spelling in ["渡辺明", "渡邊明", "渡邉", "watanabe"] {
            let want = if spelling == "watanabe" { 0 } else { 3 };
            assert_eq!(listed(db, &["--player", spelling]).len(), want, "{spelling}");
        }
        assert_eq!(listed(db, &["--player", "高橋"]).len(), 2);
        assert_eq!(listed(db, &["--player", "髙橋道雄"]).len(), 2);
        assert_eq!(listed(db, &["--event", "名人戦"]).len(), 2);
        // Two family names of today stay two.
        assert_eq!(listed(db, &["--player", "斎藤"]).len(), 1);
        assert_eq!(listed(db, &["--player", "斉藤"]).len(), 1);
        let players = stdout(&kifudex(["players", "--player", "渡辺", "--format", "json"]).db(db).output());
        let rows: Vec<serde_json::Value> = serde_json::from_str(&players).unwrap();
        assert_eq!(rows.len(), 1, "{players}");
        assert_eq!(rows[0]["games"], 3, "{players}");
    };
    check(&db);
    // A database of the version before made its keys with the old forms, and stored an alias
    // under its old key: a reader makes the keys itself, and the next writer makes them again.
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch(
        "UPDATE players SET key = name;
         UPDATE events SET key = name;
         INSERT INTO aliases(alias_key, alias, name, name_key) VALUES ('渡邊明', '渡邊明', 'Watanabe Akira', 'watanabeakira');
         ALTER TABLE files DROP COLUMN device;
         ALTER TABLE sources DROP COLUMN foul;
         PRAGMA user_version = 21;",
    )
    .unwrap();
    drop(conn);
    assert_eq!(listed(&db, &["--player", "渡辺明"]).len(), 3);
    let out = kifudex(["index", root.to_str().unwrap(), "--quiet"]).db(&db).output();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let conn = rusqlite::Connection::open(&db).unwrap();
    let keys: Vec<String> = conn
        .prepare("SELECT key FROM players WHERE name IN ('渡邊明', '渡邉明', '髙橋道雄') ORDER BY key")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(keys, ["渡辺明", "渡辺明", "高橋道雄"]);
    let alias: String = conn.query_row("SELECT alias_key FROM aliases", [], |r| r.get(0)).unwrap();
    assert_eq!(alias, "渡辺明");
    drop(conn);
    let out = kifudex(["alias", "remove", "渡辺明"]).db(&db).output();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    check(&db);
}

/// The old forms the 人名用漢字 list (`劍持` for `剣持`) are their form of today too, the
/// numbered and women's honorary titles (`実力制第四代名人`, `クイーン名人`) are cut off as
/// titles, and `・` between a name's parts and the two readings of a wave dash count no more
/// than a space: each pair of spellings is one player or event, found by either.
#[test]
fn old_forms_of_name_kanji_and_numbered_titles_are_one_player() {
    let tmp = tempfile::tempdir().unwrap();
    let (root, db) = (tmp.path().join("archive"), tmp.path().join("k.sqlite"));
    fs::create_dir_all(&root).unwrap();
    let kif = |black: &str, white: &str, first: &str| {
        format!("先手：{black}\n後手：{white}\n手合割：平手\n手数----指手--\n   1 {first}\n   2 投了\n")
    };
    fs::write(root.join("a.kif"), kif("劍持松二", "升田幸三 実力制第四代名人", "２六歩(27)")).unwrap();
    fs::write(root.join("b.kif"), kif("剣持松二", "升田幸三", "７六歩(77)")).unwrap();
    fs::write(root.join("c.kif"), kif("清水市代クイーン名人", "劍持松二", "５六歩(57)")).unwrap();
    fs::write(root.join("d.kif"), kif("清水市代", "剣持松二", "１六歩(17)")).unwrap();
    // The mark between the parts of a name, and the wave dash in JIS's (U+301C) and Windows'
    // (U+FF5E) readings of one Shift_JIS code.
    let event = |text: String, event: &str| format!("棋戦：{event}\n{text}");
    fs::write(root.join("e.kif"), event(kif("ｶﾛﾘｰﾅ･ｽﾃﾁｪﾝｽｶ", "清水市代", "９六歩(97)"), "春\u{301C}夏"))
        .unwrap();
    fs::write(
        root.join("f.kif"),
        event(kif("カロリーナ ステチェンスカ", "清水市代", "８六歩(87)"), "春\u{FF5E}夏"),
    )
    .unwrap();
    let out = kifudex(["index", root.to_str().unwrap(), "--quiet"]).db(&db).output();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    for spelling in ["剣持", "劍持松二"] {
        assert_eq!(listed(&db, &["--player", spelling]).len(), 4, "{spelling}");
    }
    assert_eq!(listed(&db, &["--black", "剣持"]).len(), 2);
    assert_eq!(listed(&db, &["--white", "升田幸三"]).len(), 2);
    assert_eq!(listed(&db, &["--player", "清水市代"]).len(), 4);
    assert_eq!(listed(&db, &["--player", "カロリーナ・ステチェンスカ"]).len(), 2);
    assert_eq!(listed(&db, &["--event", "春\u{301C}夏"]).len(), 2);
    let players = stdout(&kifudex(["players", "--format", "csv"]).db(&db).output());
    // Four players: 剣持 and 清水 of four games, 升田 and カロリーナ of two each.
    let mut games: Vec<String> = csv_rows(players.as_bytes()).iter().map(|r| r["games"].clone()).collect();
    games.sort();
    assert_eq!(games, ["2", "2", "4", "4"], "{players}");
}

/// An aliases file's row wins over a stored alias of the same spelling for the command, and
/// the command says so on stderr, naming both players; rows that leave every stored alias
/// with its player (a restatement, the reverse of a stored alias) say nothing.
#[test]
fn an_aliases_file_that_moves_a_stored_alias_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("k.sqlite");
    let ids = build(&tmp.path().join("archive"), &db);
    // Record 06 names him Habu Yoshiharu, which no alias here stands for until the last row.
    let named = ids_of(&ids, &["01", "02", "03", "04", "07", "08"]);
    let habu = ids_of(&ids, &["01", "02", "03", "04", "06", "07", "08"]);
    assert_eq!(kifudex(["alias", "add", "hy", "羽生善治"]).db(&db).run().0, 0);
    let file = tmp.path().join("aliases.csv");
    let aliases = file.to_str().unwrap();
    fs::write(&file, "hy,渡辺明\n").unwrap();
    let (code, _, stderr) = kifudex(["games", "--player", "hy", "--aliases", aliases]).db(&db).run();
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stderr,
        "kifudex: note: 'hy' is stored as an alias of '羽生善治'; with --aliases it names '渡辺明' in this \
         command's answers\n"
    );
    let watanabe = listed(&db, &["--player", "渡辺明"]);
    assert_eq!(listed(&db, &["--player", "hy", "--aliases", aliases]), watanabe);
    for (rows, games) in
        [("hy,羽生善治\n", &named), ("羽生善治,hy\n", &named), ("Habu Yoshiharu,羽生善治\n", &habu)]
    {
        fs::write(&file, rows).unwrap();
        let (code, _, stderr) = kifudex(["games", "--player", "hy", "--aliases", aliases]).db(&db).run();
        assert_eq!((code, stderr.as_str()), (0, ""), "{rows}");
        assert_eq!(&listed(&db, &["--player", "hy", "--aliases", aliases]), games, "{rows}");
    }
}

/// A `#` is part of a CSA, JKF or Western name or event (`N+user#1234`), which is stored,
/// found and written whole; in a KIF header it starts a remark (`先手：Sente-san#コメント`),
/// which is no part of the name. A KIF written from such a record says its names read back
/// cut.
#[test]
fn a_hash_is_part_of_a_csa_jkf_or_western_name_and_starts_a_remark_in_kif() {
    let csa = "V2.2\nN+user#1234\nN-bob\n$EVENT:Cup #3 final\nPI\n+\n+7776FU\n%TORYO\n";
    let jkf = r#"{"header": {"先手": "jkf#5", "後手": "carol"}, "moves": [{}, {"move": {"from": {"x": 2, "y": 7}, "to": {"x": 2, "y": 6}, "color": 0, "piece": "FU"}}]}"#;
    let western = "[Sente \"west#6\"]\n[Gote \"dave\"]\n\n1. P-5f\n";
    let kif = "先手：Sente-san#a remark\n後手：erin\n手数----指手--\n   1 １六歩(17)\n";
    let (_tmp, dir, db) =
        crate::util::indexed(&[("a.csa", csa), ("b.jkf", jkf), ("c.psn", western), ("d.kifu", kif)]);
    let rows = csv_rows(stdout(&kifudex(["export", "games"]).db(&db).output()).as_bytes());
    let got: Vec<(&str, &str)> = rows.iter().map(|r| (r["black"].as_str(), r["event"].as_str())).collect();
    assert_eq!(got, [("user#1234", "Cup #3 final"), ("jkf#5", ""), ("west#6", ""), ("Sente-san", "")]);
    assert_eq!(listed(&db, &["--player", "1234"]), BTreeSet::from([1]));
    assert_eq!(listed(&db, &["--event", "#3"]), BTreeSet::from([1]));
    let out = kifudex(["convert", dir.join("a.csa").to_str().unwrap(), "--to", "kif"]).output();
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("2 headers hold a '#', after which a KIF or KI2 file reads a remark"), "{said}");
    let out = kifudex(["convert", dir.join("a.csa").to_str().unwrap(), "--to", "csa"]).output();
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("\nN+user#1234\nN-bob\n$EVENT:Cup #3 final\n"), "{}", stdout(&out));
}
