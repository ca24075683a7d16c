//! The KIF and KI2 writers: the exact text of small games (written by hand in Kifu for
//! Windows' layout), headers from other formats, custom starts, written fouls, CP932.

use kifudex::{
    kifu::{Ending, Format, Game, Header, MoveEntry, Start, Termination, bod, encoding, info, kif},
    notation::MoveToken,
    shogi::{Color, Handicap},
    write,
};

use super::fixtures::load;

fn kif_text(game: &Game) -> String {
    let replayed = kifudex::replay::replay(game);
    write::kif::write(game, &replayed)
}

#[test]
fn kif_layout_of_a_small_game() {
    // As the file has it, the time of its ending row included.
    let want = "\
開始日時：2014/10/12 14:46:51
終了日時：2014/10/12 14:47:55
手合割：平手　　
先手：sente
後手：gote
手数----指手---------消費時間--
   1 ７六歩(77)   ( 0:02/00:00:02)
   2 ３四歩(33)   ( 0:05/00:00:05)
   3 ２二角成(88) ( 0:06/00:00:08)
   4 中断         ( 0:51/00:00:56)
まで3手で中断
";
    assert_eq!(kif_text(&load("chudan.kif")), want);
}

#[test]
fn kif_layout_of_variations() {
    // As the file has it, but for its headers.
    let want = "\
開始日時：2017/10/03 01:12:24
終了日時：2017/10/03 01:12:54
手合割：平手　　
先手：
後手：
手数----指手---------消費時間--
   1 ７六歩(77)   ( 0:00/00:00:00)
   2 ３四歩(33)   ( 0:00/00:00:00)
   3 ２六歩(27)   ( 0:00/00:00:00)+
   4 中断         ( 0:00/00:00:00)
まで3手で中断

変化：3手
   3 ２二角成(88) ( 0:00/00:00:00)
   4 同　銀(31)   ( 0:00/00:00:00)+
   5 中断         ( 0:00/00:00:00)
まで4手で中断

変化：4手
   4 同　飛(82)   ( 0:00/00:00:00)
   5 中断         ( 0:00/00:00:00)
まで4手で中断
";
    assert_eq!(kif_text(&load("doh_branch.kifu")), want);
}

#[test]
fn kif_custom_start_keeps_its_move_number_and_side() {
    let text = kif_text(&load("bio-KIF_2手目から始まる.kif"));
    let tail = "\
先手の持駒：なし
手数＝1
後手番
手数----指手---------消費時間--
   2 ５四歩(53)
   3 ３六歩(37)
   4 投了
まで3手で先手の勝ち
";
    assert!(text.ends_with(tail), "{text}");
    assert!(text.starts_with(
        "後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n|v香v桂v銀"
    ));
}

fn entry(usi: &str) -> MoveEntry {
    MoveEntry { token: MoveToken::Usi(usi.parse().unwrap()), line: 1, seconds: None, comments: Vec::new() }
}

#[test]
fn kif_headers_from_other_formats_and_a_handicap_start() {
    let h = |k: &str, v: &str| Header { key: k.to_string(), value: v.to_string() };
    let headers = vec![
        h("$EVENT", "floodgate"),
        h("N+", "alice"),
        h("N-", "bob 3dan"),
        h("$START_TIME", "2021/12/13 13:43:40"),
    ];
    let game = Game {
        info: info::normalize(&headers, info::Remarks::AfterHash),
        headers,
        start: Start::Standard(Handicap::Lance),
        moves: vec![entry("5a4b"), entry("7g7f")],
        ending: Some(Ending {
            termination: Termination::Resign,
            side: Some(Color::White),
            stated: None,
            text: "%TORYO".into(),
            line: 9,
            seconds: None,
            comments: Vec::new(),
        }),
        ..Game::default()
    };
    let want = "\
棋戦：floodgate
下手：alice
上手：bob 3dan
開始日時：2021/12/13 13:43:40
手合割：香落ち
手数----指手---------消費時間--
   1 ４二玉(51)
   2 ７六歩(77)
   3 投了
まで2手で下手の勝ち
";
    let text = kif_text(&game);
    assert_eq!(text, want);
    let again = &kif::read(&text)[0];
    assert_eq!(again.info, game.info);
    assert_eq!(again.start, game.start);
}

#[test]
fn kif_a_written_foul_from_another_notation() {
    // 2b8h is no move for White's bishop with the pawn on 3c in the way: the foul that ended
    // the game.
    let game = Game {
        moves: vec![entry("7g7f"), entry("2b8h")],
        ending: Some(Ending {
            termination: Termination::IllegalMove,
            side: None,
            stated: None,
            text: "%ILLEGAL_MOVE".into(),
            line: 3,
            seconds: None,
            comments: Vec::new(),
        }),
        ..Game::default()
    };
    let replayed = kifudex::replay::replay(&game);
    assert!(replayed.illegal_ending.is_some());
    let text = write::kif::write(&game, &replayed);
    assert!(text.contains("   2 ８八角(22)\n   3 反則勝ち\nまで2手で後手の反則負け\n"), "{text}");
    let again = kifudex::replay::replay(&kif::read(&text)[0]);
    assert_eq!((again.outcome, again.illegal_ending.is_some()), (replayed.outcome, true));
}

#[test]
fn kif_text_encodes_to_cp932_and_back() {
    let text = kif_text(&load("jt201409130101.kif"));
    let bytes = encoding::encode_cp932(&text).unwrap();
    let d = encoding::decode(&bytes).unwrap();
    assert_eq!((d.text.as_ref(), d.encoding), (text.as_str(), encoding::Encoding::ShiftJis));
}

#[test]
fn ki2_layout_six_moves_a_line_and_summary() {
    let game = load("8mai.kif");
    let replayed = kifudex::replay::replay(&game);
    let text = write::ki2::write(&game, &replayed);
    let move_lines: Vec<&str> = text.lines().filter(|l| l.starts_with(['▲', '△'])).collect();
    let counts: Vec<usize> = move_lines.iter().map(|l| l.matches(['▲', '△']).count()).collect();
    assert_eq!(counts, [6, 6, 6, 6, 1]);
    assert!(move_lines[0].starts_with('△'), "上手 moves first");
    assert!(text.ends_with("まで25手で中断\n"), "{text}");
    assert!(
        text.starts_with("開始日時：2014/10/13 18:51:20\n終了日時：2014/10/13 18:53:37\n手合割：八枚落ち\n")
    );
    {
        assert!(text.contains("△７二金"), "{text}");
    }
}

#[test]
fn board_diagrams_round_trip() {
    for sfen in [
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "8k/9/8G/9/9/9/9/9/9 w RB2G3S4N4L18Prb2g 7",
        "+P+L+N+S+B+R3/9/9/9/9/9/9/9/3+p+l+n+s+b+r w - 1",
    ] {
        let setup = sfen.parse().unwrap();
        assert_eq!(bod::parse_bod(bod::write_bod(&setup).lines()), Ok(setup), "{sfen}");
    }
}

/// Bookmarks (`&` lines) are written back as bookmarks where they were read: before the first
/// move, after a move, in a variation. A comment that only starts with `&` after a space stays
/// a `*` line.
#[test]
fn kif_bookmarks_are_written_back_as_bookmarks() {
    let mut game = load("shogigui-bookmark.kifu");
    let text = kif_text(&game);
    for lines in [
        "&しおり１\n   1 ７六歩(77)",
        "   1 ７六歩(77)   ( 0:00/00:00:00)\n&しおり２\n",
        "&角換わりの形\n*ここで、歩を突いた。\n",
        "   4 同　銀(31)   ( 0:00/00:00:00)\n&同銀\n*強く同銀。\n",
    ] {
        assert!(text.contains(lines), "{lines:?} in\n{text}");
    }
    game.moves[0].comments = vec![" &not a bookmark".to_string()];
    assert!(kif_text(&game).contains("\n* &not a bookmark\n"), "{}", kif_text(&game));
}

/// A second header of a field (`棋戦名` after `棋戦`, a second `先手`) that says another value
/// than the field's is written as it was: KIF writes every header, and CSA, which has one
/// key a field, writes it as a comment. One that says the same is written once, as the field.
#[test]
fn second_headers_of_a_field_that_say_more_are_written() {
    let text = "棋戦：名人戦\n棋戦名：第81期名人戦七番勝負\n先手：甲\n先手：乙\n場所：東京\n場所：東京\n\
                手数----指手--\n   1 ７六歩(77)\n   2 投了\n";
    let game = &kif::read(text)[0];
    assert_eq!(game.info.event.as_deref(), Some("名人戦"));
    let kif = kif_text(game);
    for line in ["棋戦：名人戦\n", "棋戦名：第81期名人戦七番勝負\n", "先手：甲\n", "先手：乙\n"]
    {
        assert_eq!(kif.matches(line).count(), 1, "{line:?} in\n{kif}");
    }
    let replayed = kifudex::replay::replay(game);
    let csa = write::csa::write(game, &replayed);
    for (line, count) in [
        ("$EVENT:名人戦\n", 1),
        ("'棋戦名:第81期名人戦七番勝負\n", 1),
        ("N+甲\n", 1),
        ("'先手:乙\n", 1),
        ("東京", 1),
    ] {
        assert_eq!(csa.matches(line).count(), count, "{line:?} in\n{csa}");
    }
    // A JKF header holds one value a key: the second 先手 is left out, and said so.
    let jkf = write::jkf::write(game, &replayed);
    assert!(jkf.contains("\"棋戦名\": \"第81期名人戦七番勝負\"") && !jkf.contains("乙"), "{jkf}");
    let lost = write::lost::Lost::of(Format::Jkf, game, &replayed).warnings;
    assert!(matches!(&lost[..], [one] if one.starts_with("1 header is left out")), "{lost:?}");
    assert!(write::lost::Lost::of(Format::Csa, game, &replayed).warnings.is_empty());

    // An empty header says nothing more: no `'棋戦:` comment, no JKF warning.
    let game = &kif::read("棋戦：\n表題：竜王戦\n手数----指手--\n   1 ７六歩(77)\n   2 投了\n")[0];
    let replayed = kifudex::replay::replay(game);
    assert!(!write::csa::write(game, &replayed).contains("'棋戦:"));
    assert!(write::lost::Lost::of(Format::Jkf, game, &replayed).warnings.is_empty());
    // In a CSA record a `#` is part of the value: `Cup #3` says more than `Cup`.
    let game = &kifudex::kifu::csa::read("V2.2\n$EVENT:Cup\n$EVENT:Cup #3\nPI\n+\n+7776FU\n%TORYO\n")[0];
    let replayed = kifudex::replay::replay(game);
    let csa = write::csa::write(game, &replayed);
    assert!(csa.contains("$EVENT:Cup\n") && csa.contains("Cup #3"), "{csa}");
    assert!(write::jkf::write(game, &replayed).contains("\"Cup #3\""));
}
