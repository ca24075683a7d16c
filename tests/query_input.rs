//! What `kifudex query` makes of its input at the edges: the ply after `--position FILE:`,
//! moves given from the other start of a handicap; and long names in the tables of `query`,
//! `games` and `players`.

use std::path::Path;

use serde_json::Value;

use crate::util::{indexed, kifudex};

/// Two games from the even start that share their first move: `name` (7g7f 3c3d 2g2f) and
/// other.usi (7g7f 8c8d).
fn two_games(name: &str) -> [(&str, &'static str); 2] {
    [(name, "position startpos moves 7g7f 3c3d 2g2f\n"), ("other.usi", "position startpos moves 7g7f 8c8d\n")]
}

/// `query --format json --position SPEC`: the status, the answer (null when refused) and
/// stderr.
fn by_position(spec: &Path, db: &Path) -> (i32, Value, String) {
    let out = kifudex(["query", "--format", "json", "--position"]).args([spec]).db(db).output();
    let answer = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out.status.code().unwrap(), answer, String::from_utf8(out.stderr).unwrap())
}

const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
/// After 7g7f 3c3d 2g2f, by hand.
const AFTER_THREE: &str = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL w - 4";

/// Every form of `FILE:PLY`: a ply from 0 to the game's end, one past it, and selectors that
/// are no ply (negative, signed, spaced, full-width, empty, not a number, too large), each
/// refused with words about the ply; a missing file is still said to be missing.
#[test]
fn a_position_selector_that_is_no_ply_says_so() {
    let (_tmp, dir, db) = indexed(&two_games("g.usi"));
    let game = dir.join("g.usi");
    let at = |selector: &str| format!("{}:{selector}", game.display());
    // Both games start from the even start and play 7g7f; only g.usi plays on to 2g2f.
    for (spec, games, sfen) in [
        (at("0"), 2, Some(START)),
        (at("1"), 2, None),
        (at("3"), 1, Some(AFTER_THREE)),
        (game.display().to_string(), 1, Some(AFTER_THREE)),
    ] {
        let (code, answer, err) = by_position(Path::new(&spec), &db);
        assert_eq!(code, 0, "{spec}: {err}");
        assert_eq!(answer["position"]["games"], games, "{spec}");
        if let Some(sfen) = sfen {
            assert_eq!(answer["position"]["sfen"], sfen, "{spec}");
        }
    }
    for selector in ["-1", "-0", "+1", " 1", "1 ", "１", "1.5", "x", "", "3a"] {
        let (code, _, err) = by_position(Path::new(&at(selector)), &db);
        assert_eq!(code, 2, "{selector:?}: {err}");
        assert!(err.contains(&format!("'{selector}' after the colon is no ply")), "{selector:?}: {err}");
        assert!(!err.contains("cannot read") && !err.contains("no file"), "{selector:?}: {err}");
    }
    let (code, _, err) = by_position(Path::new(&at("99999999999999999999999")), &db);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("ply 99999999999999999999999 is past the end of any game"), "{err}");
    let (code, _, err) = by_position(Path::new(&at("4")), &db);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("game 0 has 3 moves, so there is no ply 4"), "{err}");
    let out = kifudex(["query", "--position"]).args([&game]).args(["--game", "1"]).db(&db).output();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("there is no game 1: the file holds 1 (game 0 is the first)"), "{err}");
    // A file that is not there is missing, whatever follows the colon.
    let none = dir.join("none.usi");
    for (spec, named) in [
        (none.display().to_string(), none.display().to_string()),
        (format!("{}:3", none.display()), none.display().to_string()),
        (format!("{}:-1", none.display()), format!("{}:-1", none.display())),
    ] {
        let (code, _, err) = by_position(Path::new(&spec), &db);
        assert_eq!(code, 2, "{spec}: {err}");
        assert!(err.starts_with(&format!("kifudex: cannot read {named}: ")), "{spec}: {err}");
    }
}

/// A game that stops early (here at its third move, 2b3c, which the bishop cannot make behind
/// its own pawn) has no end to give: without a ply the query is refused, naming the last ply
/// it can give; with that ply it is answered.
#[test]
fn a_game_that_stops_early_has_no_last_position_to_give() {
    let (_tmp, dir, db) = indexed(&two_games("g.usi"));
    let stops = dir.join("stops.usi");
    std::fs::write(&stops, "position startpos moves 7g7f 3c3d 2b3c\n").unwrap();
    let (code, answer, err) = by_position(&stops, &db);
    assert_eq!((code, &answer), (2, &Value::Null), "{err}");
    assert!(err.contains("game 0 cannot be played to its end: it stops after 2 moves"), "{err}");
    assert!(err.contains(&format!("{}:2 is the position there", stops.display())), "{err}");
    let (code, answer, err) = by_position(Path::new(&format!("{}:2", stops.display())), &db);
    assert_eq!(code, 0, "{err}");
    assert_eq!(answer["position"]["games"], 1);
}

/// A file whose own name holds a colon is taken whole, and with a ply after one more.
#[cfg(unix)]
#[test]
fn a_position_file_with_a_colon_in_its_name() {
    let (_tmp, dir, db) = indexed(&two_games("a:b.usi"));
    let odd = dir.join("a:b.usi");
    let at = |selector: &str| format!("{}:{selector}", odd.display());
    for (spec, games) in [(odd.display().to_string(), 1), (at("1"), 2), (at("3"), 1)] {
        let (code, answer, err) = by_position(Path::new(&spec), &db);
        assert_eq!((code, &answer["position"]["games"]), (0, &Value::from(games)), "{spec}: {err}");
    }
    let (code, _, err) = by_position(Path::new(&at("z")), &db);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("'z' after the colon is no ply"), "{err}");
}

/// Moves that cannot be played from the start they are given from, and can from the other
/// start a handicap gives, are refused with a word on where they can be played.
#[test]
fn moves_from_the_other_start_of_a_handicap_say_where_they_play() {
    // In a lance game 上手 (White) moves first: 3c3d, then Black's 7g7f.
    let lance =
        "手合割：香落ち\n上手：A\n下手：B\n手数----指手--\n   1 ３四歩(33)\n   2 ７六歩(77)\n   3 投了\n";
    let (_tmp, _, db) =
        indexed(&[("lance.kifu", lance), ("even.usi", "position startpos moves 7g7f 3c3d\n")]);
    let query = |args: &[&str]| kifudex([&["query"], args].concat()).db(&db).run();
    let to_lance = "give --start 香落ち to start them there";
    let to_even = "leave out --start to start them there";
    // From the even start (no --start), 3c3d is White's move out of turn.
    let (code, _, err) = query(&["--handicap", "lance", "--moves", "3c3d 7g7f"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.starts_with("kifudex: move 1 (3c3d"), "{err}");
    assert!(err.contains(to_lance) && !err.contains(to_even), "{err}");
    // From there they are the lance game's moves.
    let (code, _, err) = query(&["--handicap", "lance", "--start", "香落ち", "--moves", "3c3d 7g7f"]);
    assert_eq!((code, err.as_str()), (0, ""));
    // The other way round: the even game's moves from the lance start, with a handicap
    // filter or without one.
    for args in [
        &["--start", "lance", "--moves", "7g7f 3c3d"][..],
        &["--handicap", "香落ち", "--start", "香落ち", "--moves", "7g7f 3c3d"],
    ] {
        let (code, _, err) = query(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(to_even) && !err.contains(to_lance), "{args:?}: {err}");
    }
    // Moves that play from neither start, or no handicap in question: no word on starts.
    for args in [
        &["--handicap", "lance", "--moves", "7g7f 7g7f"][..],
        &["--moves", "3c3d"],
        // White's rook is not on 8b in a two-piece game either.
        &["--handicap", "2-piece", "--moves", "8b8c"],
    ] {
        let (code, _, err) = query(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(!err.contains("--start"), "{args:?}: {err}");
    }
}

/// `--start` says where moves start: given with a position of its own (an SFEN, a diagram,
/// a record's ply) it would be ignored, so it is refused; the default start is no conflict.
#[test]
fn a_start_given_with_a_position_of_its_own_is_refused() {
    let (_tmp, dir, db) = indexed(&two_games("g.usi"));
    let game = dir.join("g.usi");
    let game = game.to_str().unwrap();
    for args in [&["--sfen", START][..], &["--position", game], &["--bod", game]] {
        let out = kifudex([&["query", "--start", "香落ち"][..], args].concat()).db(&db).run();
        assert_eq!(out.0, 2, "{args:?}");
        assert!(out.2.contains("cannot be used with") && out.2.contains("--start"), "{args:?}: {}", out.2);
    }
    // So is --game, which picks a game of the record --position reads, with any other
    // position; alone it still needs --position.
    for args in [&["--sfen", START][..], &["--moves", "7g7f"], &["--bod", game], &[]] {
        let out = kifudex([&["query", "--game", "1"][..], args].concat()).db(&db).run();
        assert_eq!(out.0, 2, "{args:?}");
        let why = if args.is_empty() { "--position" } else { "cannot be used with" };
        assert!(out.2.contains("--game") && out.2.contains(why), "{args:?}: {}", out.2);
    }
    // The even start's SFEN without --start: both games reach it.
    let (code, answer, err) = by_position(&dir.join("g.usi:0"), &db);
    assert_eq!((code, answer["position"]["games"].as_u64(), err.as_str()), (0, Some(2), ""));
    let out = kifudex(["query", "--format", "json", "--sfen", START]).db(&db).run();
    assert_eq!(out.0, 0, "{}", out.2);
}

/// A long name or event is written whole into a pipe, by every command that lists it, in
/// tables as in JSON and CSV: only a terminal's tables are cut.
#[test]
fn long_names_are_never_cut_in_a_pipe() {
    let black = format!("{}Z", "長".repeat(60));
    let event = format!("{}!", "Event ".repeat(30));
    let record = format!(
        "開始日時：2020/01/02\n棋戦：{event}\n手合割：平手\n先手：{black}\n後手：短\n\
         手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n"
    );
    let (_tmp, _, db) = indexed(&[("long.kifu", &record)]);
    for args in [
        &["query", "--moves", "7g7f"][..],
        &["query", "--format", "json"],
        &["query", "--format", "csv", "--csv", "games"],
        &["games"],
        &["games", "--format", "csv"],
        &["players"],
        &["players", "--format", "json"],
    ] {
        let (code, out, err) = kifudex(args).db(&db).run();
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(out.contains(&black) && !out.contains('…'), "{args:?}: {out}");
        if args[0] != "players" {
            assert!(out.contains(event.trim_end()), "{args:?}: {out}");
        }
    }
}

/// Filters sent empty or as spaces, as a script or a form sends every filter: `--result` and
/// `--variant` filter nothing, as the others do, and a result is read in any case. When the
/// filters keep no game, `games`, `players` and `query` say so on stderr (a misspelled name
/// would read as an archive without such games), and a database with no game says that.
#[test]
fn blank_filters_filter_nothing_and_filters_that_keep_no_game_say_so() {
    // 甲 wins a.kif as black (乙 resigns at ply 2); 甲 wins b.kif as white (丙 resigns at ply 3).
    let (_tmp, _dir, db) = indexed(&[
        ("a.kif", "先手：甲\n後手：乙\n手数----指手--\n   1 ７六歩(77)\n   2 投了\n"),
        ("b.kif", "先手：丙\n後手：甲\n手数----指手--\n   1 ２六歩(27)\n   2 ８四歩(83)\n   3 投了\n"),
    ]);
    let run = |args: &[&str]| {
        let out = kifudex(args).db(&db).output();
        (
            out.status.code().unwrap(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    for command in ["games", "players", "query"] {
        let plain = run(&[command, "--format", "json"]);
        assert_eq!((plain.0, plain.2.as_str()), (0, ""), "{command}");
        for flag in ["--result", "--variant"] {
            for blank in ["", " ", "\u{3000}"] {
                assert_eq!(
                    run(&[command, "--format", "json", flag, blank]),
                    plain,
                    "{command} {flag} {blank:?}"
                );
            }
        }
        let (code, _, err) = run(&[command, "--player", "丁"]);
        assert_eq!((code, err.as_str()), (1, "kifudex: no game matches the filters\n"), "{command}");
    }
    let white_won: Value =
        serde_json::from_str(&run(&["games", "--format", "json", "--result", " White "]).1).unwrap();
    let paths: Vec<&str> =
        white_won["games"].as_array().unwrap().iter().map(|g| g["path"].as_str().unwrap()).collect();
    assert!(matches!(paths.as_slice(), [p] if p.ends_with("b.kif")), "{white_won}");
    let (code, _, err) = run(&["games", "--result", "won"]);
    assert_eq!(code, 2, "{err}");
    // Games kept, but none reaches the position: the note says how many the filters keep,
    // which the answer alone does not tell from a filter that keeps none.
    let (code, out, err) = run(&["query", "--player", "甲", "--moves", "1g1f"]);
    let none = "kifudex: the filters keep 2 games, and none of them reaches this position\n";
    assert_eq!((code, err.as_str()), (1, none), "{out}");
    let (code, out, err) = run(&["query", "--player", "乙", "--moves", "2g2f"]);
    let one = "kifudex: the filters keep 1 game, and it does not reach this position\n";
    assert_eq!((code, err.as_str()), (1, one), "{out}");
    // Or meets the player: only the answer says so.
    let (code, _, err) = run(&["players", "--vs", "丁"]);
    assert_eq!((code, err.as_str()), (1, "kifudex: no player met 丁 in the games the filters keep\n"));
    // --player that keeps the opponent alone, and one that keeps others, none of whom met them.
    let (code, _, err) = run(&["players", "--vs", "甲", "--player", "甲"]);
    let alone = "kifudex: --player 甲 keeps only 甲's own row, and --vs 甲 leaves it out: give --player another name, \
                 or leave it out\n";
    assert_eq!((code, err.as_str()), (1, alone));
    let (code, _, err) = run(&["players", "--vs", "乙", "--player", "丙"]);
    assert_eq!(
        (code, err.as_str()),
        (1, "kifudex: no player that --player 丙 keeps met 乙 in the games the filters keep\n")
    );
    // `--limit 0` lists no game, and says of no range listed.
    let (code, _, err) = run(&["query", "--limit", "0", "--format", "csv", "--csv", "games"]);
    assert_eq!((code, err.as_str()), (0, ""));
    // A table that lists no game writes every row, whatever --limit and --offset say: said.
    let (_, every, _) = run(&["query", "--csv", "moves"]);
    let (code, out, err) = run(&["query", "--csv", "moves", "--limit", "1", "--offset", "1"]);
    assert_eq!((code, out), (0, every));
    assert_eq!(
        err,
        "kifudex: --limit pages the list of games, which --csv moves does not write: it writes every row \
         (--csv games writes the list)\nkifudex: --offset pages the list of games, which --csv moves does not \
         write: it writes every row (--csv games writes the list)\n"
    );

    // Games kept whose records name no player.
    let (_tmp, _dir, unnamed) = indexed(&[("c.kif", "手数----指手--\n   1 ７六歩(77)\n")]);
    let (code, out, err) = kifudex(["players", "--format", "json"]).db(&unnamed).run();
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (1, "[]\n", "kifudex: the games the filters keep name no player\n")
    );

    let (_tmp, _dir, empty) = indexed(&[]);
    for command in [
        &["games"][..],
        &["players"],
        &["query"],
        &["games", "--player", "甲"],
        &["query", "--event", "棋聖戦"],
    ] {
        let out = kifudex(command).db(&empty).output();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(1), "{command:?}: {err}");
        assert!(err.starts_with("kifudex: the database holds no game"), "{command:?}: {err}");
    }
    // While a first run writes (the mark of a kifudex process that runs: one waiting on its
    // stdin), or after one was killed before its first commit, no game is "yet", and nothing
    // says to index. A mark whose process id another program now has (a run killed, its id
    // given again) is a run that did not finish.
    let stdin = std::process::Stdio::piped();
    let mut running = crate::util::command().args(["convert", "-"]).stdin(stdin).spawn().unwrap();
    let mut other = std::process::Command::new("sleep").arg("60").spawn().unwrap();
    let conn = rusqlite::Connection::open(&empty).unwrap();
    for (mark, warning) in
        [(running.id(), "is writing"), (other.id(), "did not finish"), (4_194_305, "did not finish")]
    {
        conn.execute(
            "INSERT OR REPLACE INTO meta(key, value) VALUES ('run_unfinished', ?1)",
            [mark.to_string()],
        )
        .unwrap();
        for command in ["games", "players", "query"] {
            let out = kifudex([command]).db(&empty).output();
            let err = String::from_utf8(out.stderr).unwrap();
            assert_eq!(out.status.code(), Some(1), "{command}: {err}");
            assert!(err.contains(warning), "{command}: {err}");
            let last = err.lines().last().unwrap_or_default();
            assert_eq!(
                last, "kifudex: the database holds no game yet: the index run has committed none",
                "{command}"
            );
        }
    }
    for child in [&mut running, &mut other] {
        child.kill().unwrap();
        child.wait().unwrap();
    }
}

/// A Western move that could promote and writes neither `+` nor `=`, which that notation must
/// write there, is read as not promoting, as in a record (a Japanese move without 成 or 不成
/// the same); `moves` and `query --moves` say so
/// on stderr, as a record's `promotion_unmarked` warning does. A marked move, or one that
/// cannot promote, says nothing.
#[test]
fn an_unmarked_move_that_could_promote_is_noted() {
    let (_tmp, _dir, db) = indexed(&two_games("a.usi"));
    let note = "kifudex: note: move 3 (Bx2b) could promote, and writes neither '+' nor '=' (as Western notation \
                must there): read as not promoting\n";
    assert_eq!(kifudex(["moves", "P-7f P-3d Bx2b"]).run(), (0, "7g7f 3c3d 8h2b\n".into(), note.into()));
    for marked in ["P-7f P-3d Bx2b+", "P-7f P-3d Bx2b=", "P-7f P-3d P-2f"] {
        let (code, _, err) = kifudex(["moves", marked]).run();
        assert_eq!((code, err.as_str()), (0, ""), "{marked}");
    }
    let (code, _, err) = kifudex(["query", "--moves", "P-7f P-3d Bx2b", "--limit", "0"]).db(&db).run();
    assert_eq!((code, err.as_str()), (1, note));
    // The same in Japanese notation, whose mark of a declined promotion is 不成.
    let note = "kifudex: note: move 3 (２二角) could promote, and writes neither 成 nor 不成 (as Japanese notation \
                must there): read as not promoting\n";
    assert_eq!(kifudex(["moves", "７六歩 ３四歩 ２二角"]).run(), (0, "7g7f 3c3d 8h2b\n".into(), note.into()));
    for marked in ["７六歩 ３四歩 ２二角不成", "７六歩 ３四歩 ２二角成", "７六歩 ３四歩 ２六歩"]
    {
        let (code, _, err) = kifudex(["moves", marked]).run();
        assert_eq!((code, err.as_str()), (0, ""), "{marked}");
    }
}

/// A capture no piece on the board can make is named as such, not as a drop: after
/// ７六歩 ３四歩 ２二角成 同銀, Black's bishop is gone and the one in hand cannot capture, so
/// ２二 is beyond every Black 角 (by hand: a 角 in hand may only drop, on an empty square).
#[test]
fn a_capture_no_piece_can_make_is_not_called_a_drop() {
    for last in ["同角成", "２二角成", "同角"] {
        let (code, out, err) = kifudex(["moves", &format!("７六歩 ３四歩 ２二角成 同銀 {last}")]).run();
        assert_eq!((code, out.as_str()), (2, ""), "{last}: {err}");
        assert!(
            err.contains(&format!("move 5 ({last}, black to move): no such move: no legal 角 to ２二")),
            "{err}"
        );
        assert!(!err.contains("drop"), "{err}");
    }
    // Where a drop is what the text can mean (an empty square, no promotion), the rules'
    // reason for refusing it stays: Black's pawn on 9g cannot reach 9e, and one dropped there
    // would be a second unpromoted pawn on the file.
    let start = "4k4/9/9/9/9/9/P8/9/4K4 b P 1";
    let (code, _, err) = kifudex(["moves", "--start", start, "９五歩"]).run();
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("move 1 (９五歩, black to move): no such move: 二歩"), "{err}");
}

/// Names are stored without their titles, so a name filter that is a title alone matches no
/// player's name: the answer (no game) says why, rather than leave it to be guessed.
#[test]
fn a_name_filter_that_is_a_title_alone_says_why_it_finds_nothing() {
    let (_tmp, _dir, db) = indexed(&two_games("g.usi"));
    for (args, title) in [
        (["query", "--player", "名人"].as_slice(), "名人"),
        (&["games", "--black", "九段"], "九段"),
        (&["players", "--white", "女流二段"], "女流二段"),
        (&["export", "games", "--player", " 名人 "], " 名人 "),
    ] {
        let out = kifudex(args).db(&db).output();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains(&format!("'{title}' is a title, and names are compared without their titles")),
            "{args:?}: {err}"
        );
    }
    // A name that finds nothing is only that.
    let out = kifudex(["query", "--player", "羽生"]).db(&db).output();
    assert_eq!(String::from_utf8_lossy(&out.stderr), "kifudex: no game matches the filters\n");
}

/// A text argument that is not UTF-8 (a name typed in a Shift_JIS terminal) is refused with
/// the argument named, whether it is an option's value (`--event V`, `--player=V`) or stands
/// alone, even after a path that is not UTF-8 either (paths may hold any bytes).
#[test]
fn a_text_argument_that_is_not_utf8_is_named() {
    use std::{ffi::OsStr, os::unix::ffi::OsStrExt};
    let (_tmp, _dir, db) = indexed(&two_games("g.usi"));
    let why = "is not UTF-8 text: names, events, dates and moves are read as UTF-8 (text in Shift_JIS can be \
               converted with iconv -f SHIFT_JIS -t UTF-8); only paths may hold other bytes";
    let sjis_a = OsStr::from_bytes(b"\x82\xa0");
    for (args, what) in [
        (vec![OsStr::new("games"), OsStr::new("--event"), sjis_a], r"the value of --event '\x82\xa0'"),
        (vec![OsStr::new("players"), OsStr::from_bytes(b"--player=\xff")], r"the value of --player '\xff'"),
        (vec![OsStr::new("alias"), OsStr::new("add"), sjis_a, OsStr::new("y")], r"the argument '\x82\xa0'"),
        (
            vec![
                OsStr::new("export"),
                OsStr::new("games"),
                OsStr::new("--out"),
                OsStr::from_bytes(b"/tmp/\xff.csv"),
                OsStr::new("--white"),
                sjis_a,
            ],
            r"the value of --white '\x82\xa0'",
        ),
    ] {
        let (code, out, err) = kifudex(&args).db(&db).run();
        assert_eq!((code, out.as_str(), err), (2, "", format!("kifudex: {what} {why}\n")), "{args:?}");
    }
}
