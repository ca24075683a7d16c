//! Files of several KIF or KI2 games put one after the other: each game is read, with its
//! own headers, start comments, variations and ending, and its lines numbered as in the file.
//! The expected moves were written by hand from the rows.

use kifudex::{
    kifu::{Game, Outcome, ki2, kif},
    replay::replay,
    shogi::Color,
};

fn usi(game: &Game) -> String {
    let replayed = replay(game);
    assert!(replayed.status.is_complete(), "{:?}", replayed.status);
    replayed.moves.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
}

const TWO_KIF: &str = concat!(
    "# ---- Kifu for Windows V7 ----\n",    // 1
    "開始日時：2020/01/01\n",               // 2
    "先手：甲\n",                           // 3
    "後手：乙\n",                           // 4
    "手数----指手---------消費時間--\n",    // 5
    "   1 ７六歩(77)   ( 0:01/00:00:01)\n", // 6
    "   2 ３四歩(33)   ( 0:01/00:00:01)+\n",
    "*the last move of the first game\n", // 8
    "   3 投了\n",
    "まで2手で後手の勝ち\n", // 10
    "\n",
    "変化：2手\n", // 12
    "   2 ８四歩(83)\n",
    "*the variation's comment\n", // 14
    "\n",
    "# ---- Kifu for Windows V7 ----\n", // 16
    "開始日時：2020/01/02\n",
    "*a comment on the second game's start\n", // 18
    "先手：丙\n",
    "後手：丁\n", // 20
    "手数----指手---------消費時間--\n",
    "   1 ２六歩(27)\n", // 22
    "   2 ８四歩(83)\n",
    "   3 ２五歩(26)\n", // 24
    "   4 中断\n",
    "まで3手で中断\n", // 26
);

#[test]
fn kif_games_one_after_the_other_are_each_read() {
    let games = kif::read(TWO_KIF);
    assert_eq!(games.len(), 2);
    let (first, second) = (&games[0], &games[1]);
    for game in &games {
        assert_eq!(game.problem, None);
        assert_eq!(game.warnings, []);
    }

    assert_eq!(first.line, 1);
    assert_eq!(first.header("先手"), Some("甲"));
    assert_eq!(first.header("開始日時"), Some("2020/01/01"));
    assert_eq!(usi(first), "7g7f 3c3d");
    assert_eq!(first.moves[1].comments, ["the last move of the first game"]);
    assert_eq!(first.ending.as_ref().map(|e| e.line), Some(9));
    assert_eq!(replay(first).outcome, Some(Outcome::Win(Color::White)));
    assert_eq!(first.variations.len(), 1);
    assert_eq!(first.variations[0].moves[0].line, 13);
    assert_eq!(first.variations[0].moves[0].comments, ["the variation's comment"]);
    assert_eq!(first.comments, Vec::<String>::new());

    assert_eq!(second.line, 16);
    assert_eq!(second.header("先手"), Some("丙"));
    assert_eq!(second.header("開始日時"), Some("2020/01/02"));
    assert_eq!(second.comments, ["a comment on the second game's start"]);
    assert_eq!(usi(second), "2g2f 8c8d 2f2e");
    assert_eq!(second.moves.iter().map(|m| m.line).collect::<Vec<_>>(), [22, 23, 24]);
    assert_eq!(second.variations.len(), 0);
    assert_eq!(replay(second).outcome, None);
}

#[test]
fn a_kif_game_with_a_move_table_and_no_headers_starts_at_its_table() {
    let text = concat!(
        "手数----指手--\n",
        "   1 ７六歩(77)\n",
        "   2 投了\n",
        "手数----指手--\n",
        "   1 ２六歩(27)\n",
        "   2 ３四歩(33)\n",
    );
    let games = kif::read(text);
    assert_eq!(games.iter().map(usi).collect::<Vec<_>>(), ["7g7f", "2g2f 3c3d"]);
    assert_eq!(games[1].line, 4);
    assert!(games.iter().all(|g| g.warnings.is_empty()));
}

#[test]
fn ki2_games_one_after_the_other_are_each_read() {
    let text = concat!(
        "手合割：平手\n",
        "先手：甲\n",
        "▲７六歩    △３四歩\n",
        "*a comment on △３四歩\n",
        "まで2手で中断\n",
        "\n",
        "手合割：平手\n",
        "先手：丙\n",
        "▲２六歩    △８四歩    ▲２五歩\n",
        "まで3手で後手の勝ち\n",
    );
    let games = ki2::read(text);
    assert_eq!(games.len(), 2);
    assert_eq!(games.iter().map(usi).collect::<Vec<_>>(), ["7g7f 3c3d", "2g2f 8c8d 2f2e"]);
    assert_eq!(games[0].moves[1].comments, ["a comment on △３四歩"]);
    assert_eq!((games[0].header("先手"), games[1].header("先手")), (Some("甲"), Some("丙")));
    assert_eq!(games[1].line, 7);
    assert!(games.iter().all(|g| g.warnings.is_empty() && g.problem.is_none()));
}

/// Lines after the moves that do not open a game stay with the game: a footer of times, an
/// end date, an unknown line.
#[test]
fn lines_after_the_moves_that_open_no_game_stay_in_it() {
    let text = concat!(
        "開始日時：2020/01/01\n",
        "手合割：平手\n",
        "▲７六歩    △３四歩\n",
        "まで2手で中断\n",
        "終了日時：2020/01/01\n",
        "消費時間：▲1分△1分\n",
    );
    let games = ki2::read(text);
    assert_eq!(games.len(), 1);
    assert_eq!(usi(&games[0]), "7g7f 3c3d");
    // Lines KI2 has no place for after the moves are skipped, each named.
    assert_eq!(games[0].warnings.iter().map(|w| w.line).collect::<Vec<_>>(), [5, 6]);
}

/// Headers before any move are the first game's, however many: a second game needs moves
/// before it.
#[test]
fn headers_before_the_first_move_open_no_second_game() {
    let text = concat!(
        "先手：甲\n",
        "後手：乙\n",
        "手合割：平手\n",
        "先手：甲2\n",
        "手数----指手--\n",
        "   1 ７六歩(77)\n",
    );
    let games = kif::read(text);
    assert_eq!(games.len(), 1);
    assert_eq!(usi(&games[0]), "7g7f");
}

/// A header among the moves of a game that has not ended is a stray line of that game, as is
/// one after a game ended that opens none (`終了日時`).
#[test]
fn a_header_among_the_moves_of_a_game_not_ended_opens_no_game() {
    let text = concat!(
        "先手：甲\n",
        "手数----指手--\n",
        "   1 ７六歩(77)\n",
        "棋戦：順位戦\n",
        "   2 ３四歩(33)\n",
        "   3 投了\n",
        "終了日時：2020/01/01\n",
    );
    let games = kif::read(text);
    assert_eq!(games.len(), 1);
    assert_eq!(usi(&games[0]), "7g7f 3c3d");
    assert_eq!(games[0].warnings.iter().map(|w| w.line).collect::<Vec<_>>(), [4, 7]);
}

/// What follows a game's end before the next game's first header stays with it: a footer
/// (`終了日時`), a comment after a blank line (the ending's). The next game starts at its first `#` line or
/// header that opens a game, whatever byte order mark the file put after another brings.
#[test]
fn a_footer_and_a_late_comment_stay_with_their_game_and_a_byte_order_mark_is_dropped() {
    let text = concat!(
        "先手：甲\n",
        "手数----指手--\n",
        "   1 ７六歩(77)\n",
        "   2 投了\n",
        "まで1手で先手の勝ち\n",
        "\n",
        "*感想：良い将棋\n",
        "終了日時：2024/01/01 10:00\n",
        "\n",
        "\u{FEFF}# ---- Kifu for Windows V7 ----\n",
        "開始日時：2024/02/02\n",
        "先手：乙\n",
        "手数----指手--\n",
        "   1 ２六歩(27)\n",
    );
    let games = kif::read(text);
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].ending.as_ref().unwrap().comments, ["感想：良い将棋"], "a comment after the end");
    assert_eq!(games[0].moves[0].comments, Vec::<String>::new());
    assert_eq!(games[0].warnings.iter().map(|w| w.line).collect::<Vec<_>>(), [8], "the footer, skipped");
    assert_eq!(games[1].line, 10);
    assert_eq!(games[1].header("開始日時"), Some("2024/02/02"));
    assert_eq!(games[1].comments, Vec::<String>::new());
    assert_eq!(usi(&games[1]), "2g2f");
}

/// A game without moves, then another: the second move table opens the second game.
#[test]
fn a_game_without_moves_then_another_are_two_games() {
    let text = concat!(
        "先手：甲\n",
        "手数----指手--\n",
        "\n",
        "手合割：香落ち\n",
        "下手：乙\n",
        "手数----指手--\n",
        "   1 ３四歩(33)\n",
    );
    let games = kif::read(text);
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].moves.len(), 0);
    assert_eq!(games[0].header("先手"), Some("甲"));
    assert_eq!(games[1].header("下手"), Some("乙"));
    // The lance handicap: White (上手) moves first.
    assert_eq!(usi(&games[1]), "3c3d");
    assert!(games.iter().all(|g| g.warnings.is_empty()));
}

/// KI2 headers with half-width colons open a game as the full-width ones do.
#[test]
fn ki2_headers_with_half_width_colons_open_a_game() {
    let text = "先手: 甲 / 後手: 乙\n▲７六歩 △３四歩\nまで2手で中断\n先手: 丙 / 後手: 丁\n▲２六歩\n";
    let games = ki2::read(text);
    assert_eq!(games.iter().map(usi).collect::<Vec<_>>(), ["7g7f 3c3d", "2g2f"]);
    assert_eq!(games[1].header("先手"), Some("丙"));
}

/// Two real files put one after the other read as each does alone: the same record (its JKF
/// text, which holds headers, start, moves, times, comments, variations and ending) and the
/// same warnings, their lines moved by the first file's lines.
#[test]
fn real_files_put_one_after_the_other_read_as_each_alone() {
    use kifudex::{
        kifu::{Format, encoding},
        write,
    };
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/kifu");
    let mut texts: Vec<(String, String, bool)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter_map(|path| {
            let ext = path.extension()?.to_str()?.to_string();
            let ki2 = ext.starts_with("ki2");
            (ext.starts_with("kif") || ki2).then_some(())?;
            let text = encoding::decode(&std::fs::read(&path).unwrap()).ok()?.text.into_owned();
            let read = if ki2 { ki2::read(&text) } else { kif::read(&text) };
            (read.len() == 1).then(|| (path.display().to_string(), text, ki2))
        })
        .collect();
    texts.sort();
    let seen = |game: &Game, shift: u32| {
        let replayed = replay(game);
        let warnings: Vec<_> = game.warnings.iter().map(|w| (w.code, w.line - shift)).collect();
        (write::write(Format::Jkf, game, &replayed), warnings, game.problem.as_ref().map(|p| p.line - shift))
    };
    let mut pairs = 0;
    for ki2 in [false, true] {
        let files: Vec<_> = texts.iter().filter(|t| t.2 == ki2).collect();
        for pair in files.windows(2) {
            let (a, b) = (&pair[0].1, &pair[1].1);
            let a = if a.ends_with('\n') { a.clone() } else { format!("{a}\n") };
            let shift = encoding::lines(&a).count() as u32 + 1;
            let both = format!("{a}\n{b}");
            let read = |text: &str| if ki2 { ki2::read(text) } else { kif::read(text) };
            let games = read(&both);
            let what = format!("{} then {}", pair[0].0, pair[1].0);
            // A file whose game has no end, or whose header opens no game, is read as one
            // with the next (see `games`): only pairs that split are compared.
            if games.len() != 2 {
                continue;
            }
            // Compared without printing whole records on a failure.
            assert!(seen(&games[0], 0) == seen(&read(&a)[0], 0), "{what}: the first game differs");
            assert!(seen(&games[1], shift) == seen(&read(b)[0], 0), "{what}: the second game differs");
            pairs += 1;
        }
    }
    assert!(pairs >= 40, "only {pairs} pairs split");
}

/// A move after a `まで` line is a move after the end of the game, as one after a word that
/// ends it is: the game stops there, and says so.
#[test]
fn a_move_after_the_summary_line_is_after_the_end() {
    for (text, ki2) in [
        ("手合割：平手\n▲７六歩 △３四歩\nまで2手で中断\n▲２六歩\n", true),
        ("手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\nまで2手で中断\n   3 ２六歩(27)\n", false),
    ] {
        let game = if ki2 { ki2::read(text) } else { kif::read(text) }.remove(0);
        assert_eq!(game.moves.len(), 2, "{text}");
        let problem = game.problem.as_ref().expect("the game stops");
        assert_eq!((problem.line, problem.code()), (4 + u32::from(!ki2), "move_after_end"), "{text}");
    }
}

/// In KIF a `まで` line before the move table is a line of the header section, as its reader
/// takes it (`まで…：…` a header): it ends no game, so the headers after it open none. KIF
/// writes such a header back before its `手合割`, and the record must read back as one game.
#[test]
fn a_kif_summary_line_before_the_move_table_ends_no_game() {
    let text =
        concat!("まで98手詰：4\n", "手合割：平手\n", "手数----指手--\n", "   1 ７六歩(77)\n", "   2 投了\n",);
    let games = kif::read(text);
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].header("まで98手詰"), Some("4"));
    assert_eq!(usi(&games[0]), "7g7f");
    assert_eq!(games[0].warnings, []);

    // Put after itself, each game keeps its own header.
    let games = kif::read(&[text, text].concat());
    assert_eq!(games.len(), 2);
    assert!(games.iter().all(|g| g.header("まで98手詰") == Some("4") && usi(g) == "7g7f"));
    // KI2 reads the header as KIF does.
    let games = ki2::read("まで98手詰：4\n手合割：平手\n▲７六歩\nまで1手で中断\n");
    assert_eq!(games.len(), 1);
    assert_eq!((games[0].header("まで98手詰"), usi(&games[0]).as_str()), (Some("4"), "7g7f"));
    // Without a colon it is a line the header section does not know, and still one game.
    let games = kif::read(&text.replace("まで98手詰：4", "まで0手で中断"));
    assert_eq!(games.len(), 1);
    assert_eq!(usi(&games[0]), "7g7f");
    assert_eq!(games[0].warnings.iter().map(|w| w.line).collect::<Vec<_>>(), [1]);
}
