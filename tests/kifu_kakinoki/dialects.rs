//! Small dialect points of KIF and KI2 that the corpus files show only in passing: every
//! side-to-move line under a diagram, hands in kanji counts or `なし`, every side mark of KI2,
//! 同 with and without its space, and engine lines. Expected positions were written by hand.

use kifudex::{
    kifu::{Start, ki2, kif},
    replay::replay,
    shogi::Color,
};

/// A board with the two kings alone, White's on 5一 and Black's on 5九.
const KINGS: &str = concat!(
    "  ９ ８ ７ ６ ５ ４ ３ ２ １\n",
    "+---------------------------+\n",
    "| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n",
    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n",
    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|三\n",
    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n",
    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n",
    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n",
    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n",
    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n",
    "| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n",
    "+---------------------------+\n",
);

#[test]
fn kif_side_to_move_lines_and_hands_of_every_kind() {
    let cases = [
        ("先手番", "後手の持駒：なし", "先手の持駒：飛　金二　歩十二", Color::Black, "R2G12P"),
        ("下手番", "上手の持駒：なし", "下手の持駒：歩十八", Color::Black, "18P"),
        ("後手番", "後手の持駒：角　銀四", "先手の持駒：なし", Color::White, "b4s"),
        ("上手番", "上手の持駒：香二　桂", "下手の持駒：なし", Color::White, "n2l"),
    ];
    for (turn_line, white_hand, black_hand, turn, hands) in cases {
        let text =
            format!("手合割：その他\n{white_hand}\n{KINGS}{black_hand}\n{turn_line}\n手数----指手--\n");
        let game = kif::read(&text).remove(0);
        assert_eq!(game.problem, None, "{turn_line}");
        let Start::Custom(setup) = &game.start else { panic!("{turn_line}: a diagram start") };
        assert_eq!(setup.turn, turn, "{turn_line}");
        let side = if turn == Color::Black { 'b' } else { 'w' };
        assert_eq!(setup.position_text(), format!("4k4/9/9/9/9/9/9/9/4K4 {side} {hands}"), "{turn_line}");
    }
}

#[test]
fn ki2_every_side_mark_and_same_with_or_without_its_space() {
    let text = "手合割：平手\n▲２六歩　▽８四歩▼２五歩 △８五歩\n☗２四歩☖同　歩▲同飛\n";
    let game = ki2::read(text).remove(0);
    assert_eq!(game.problem, None);
    let r = replay(&game);
    assert!(r.status.is_complete(), "{}", r.status);
    let moves: Vec<String> = r.moves.iter().map(ToString::to_string).collect();
    assert_eq!(moves, ["2g2f", "8c8d", "2f2e", "8d8e", "2e2d", "2c2d", "2h2d"]);
    assert_eq!(r.end.position_text(), "lnsgkgsnl/1r5b1/p1ppppp1p/7R1/1p7/9/PPPPPPP1P/1B7/LNSGKGSNL w Pp");
    // A mark for the side not to move is a stop, not a silent change of sides.
    let game = ki2::read("▲２六歩　▲８四歩\n").remove(0);
    assert_eq!(replay(&game).plies(), 1);
}

#[test]
fn kif_engine_lines_are_comments_of_their_move() {
    let text = concat!(
        "手数----指手---------消費時間--\n",
        "   1 ７六歩(77)\n",
        "**解析 0 ▲候補1 時間 00:01.0 深さ 12/20 ノード 1000 評価値 50 読み筋 △３四歩(33)\n",
        "*普通の一手\n",
        "   2 ３四歩(33)\n",
        "**対局 時間 00:02.0 深さ 10/15 評価値 -30 読み筋 ▲２六歩(27)\n",
    );
    let game = kif::read(text).remove(0);
    assert_eq!(game.problem, None);
    assert_eq!(game.moves.len(), 2);
    assert_eq!(
        game.moves[0].comments,
        ["*解析 0 ▲候補1 時間 00:01.0 深さ 12/20 ノード 1000 評価値 50 読み筋 △３四歩(33)", "普通の一手"]
    );
    assert_eq!(game.moves[1].comments, ["*対局 時間 00:02.0 深さ 10/15 評価値 -30 読み筋 ▲２六歩(27)"]);
}

/// A KI2 move that could promote or not writes 成 or 不成 (seed 001: "If a piece does not
/// promote, this is indicated with 不成"). Without either it is read as not promoting, and
/// replay says so with its line and ply; with one, or in KIF, whose move names its origin
/// (`(88)`) and so is exact without a mark, nothing is said. By hand: after ７六歩 ３四歩,
/// Black's bishop takes on 2二, inside White's camp, and may promote or not.
#[test]
fn ki2_a_promotion_left_unmarked_is_read_as_declined_and_warned() {
    for (third, usi, warned) in
        [("２二角", "8h2b", true), ("２二角不成", "8h2b", false), ("２二角成", "8h2b+", false)]
    {
        let game = ki2::read(&format!("手合割：平手\n\n▲７六歩 △３四歩\n▲{third} △同銀\n")).remove(0);
        let replayed = replay(&game);
        let moves: Vec<String> = replayed.moves.iter().map(ToString::to_string).collect();
        assert_eq!(moves, ["7g7f", "3c3d", usi, "3a2b"], "{third}");
        let codes: Vec<_> = replayed.warnings.iter().map(|w| (w.code, w.ply, w.line)).collect();
        let expected = if warned { vec![("promotion_unmarked", Some(3), 4)] } else { vec![] };
        assert_eq!(codes, expected, "{third}");
        if warned {
            assert!(
                replayed.warnings[0].message.contains("neither 成 nor 不成"),
                "{}",
                replayed.warnings[0].message
            );
        }
    }
    let kif =
        "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角(88)\n";
    let replayed = replay(&kif::read(kif).remove(0));
    assert_eq!(replayed.moves.last().map(ToString::to_string).as_deref(), Some("8h2b"));
    assert!(replayed.warnings.is_empty(), "{:?}", replayed.warnings);
}

/// A variation of comments alone (a `変化` line, then only `*` lines) has no move to keep them
/// on: it is left out with a `variation_left_out` warning on its `変化` line that quotes them.
#[test]
fn a_variation_of_comments_alone_is_left_out_with_them_quoted() {
    let kif = kif::read(
        "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n\n変化：2手\n*ただの感想\n",
    )
    .remove(0);
    let ki2 = ki2::read("手合割：平手\n▲７六歩 △３四歩\n\n変化：2手\n*ただの感想\n").remove(0);
    for (game, line) in [(kif, 6), (ki2, 4)] {
        assert_eq!((game.moves.len(), game.variations.len()), (2, 0));
        let warnings: Vec<_> = game.warnings.iter().map(|w| (w.line, w.code, w.message.as_str())).collect();
        let said = "変化：2手 holds no move: the variation is left out, with its comments ('ただの感想')";
        assert_eq!(warnings, [(line, "variation_left_out", said)]);
    }
    // Many are quoted a few at a time.
    let many = format!("手合割：平手\n▲７六歩 △３四歩\n\n変化：2手\n{}", "*感想\n".repeat(50));
    let game = ki2::read(&many).remove(0);
    let said = "変化：2手 holds no move: the variation is left out, with its comments ('感想', '感想', '感想' and 47 more)";
    assert_eq!(game.warnings.iter().map(|w| w.message.as_str()).collect::<Vec<_>>(), [said]);
    // Before an ending, they are the ending's, and the variation is kept.
    let kif = "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n\n変化：2手\n*投げる前に\n   2 投了\n";
    let game = kif::read(kif).remove(0);
    assert_eq!(game.warnings, []);
    let [variation] = game.variations.as_slice() else { panic!("{:?}", game.variations) };
    let ending = variation.ending.as_ref().unwrap();
    assert_eq!(
        (variation.moves.len(), ending.comments.as_slice()),
        (0, ["投げる前に".to_string()].as_slice())
    );
}

/// Text on the line of KIF's move-table heading besides its words and dashes (a remark
/// aside) is no part of the record: an `unknown_line` warning says it is skipped.
#[test]
fn text_on_the_move_table_heading_is_said_to_be_skipped() {
    let game = kif::read("手数----指手---------消費時間--ZQ4\n   1 ７六歩(77)\n   2 投了\n").remove(0);
    let warnings: Vec<_> = game.warnings.iter().map(|w| (w.line, w.code, w.message.as_str())).collect();
    let said = "'手数----指手---------消費時間--ZQ4' is more than the move table's heading: the rest of the line is skipped";
    assert_eq!(warnings, [(1, "unknown_line", said)]);
    assert_eq!(game.moves.len(), 1);
    for heading in [
        "手数----指手---------消費時間--",
        "手数----指手--",
        "手数----指手---------消費時間--#note",
        " 手数-----指手-----消費時間- ",
    ] {
        let game = kif::read(&format!("{heading}\n   1 ７六歩(77)\n")).remove(0);
        assert_eq!(game.warnings, [], "{heading}");
    }
}
