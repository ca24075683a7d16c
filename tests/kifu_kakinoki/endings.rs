//! Every word that ends a KIF or KI2 game, and the `まで…` summary, read into the termination
//! and the outcome they mean. Expected values are the words' meanings (the rules of the
//! corpus expectations, `tests/data/corpus/hand_decisions.md`, rule 2): after 投了, 詰み,
//! 切れ負け and 反則負け the side to move lost; after 反則勝ち, 入玉勝ち and 不戦勝 it won;
//! 千日手 and 持将棋 are draws; 中断 and 封じ手 have no winner; a side written before the
//! word names whom it is about.

use kifudex::{
    kifu::{Outcome, Termination, ki2, kif},
    replay::replay,
    shogi::Color,
};

const BLACK: Option<Outcome> = Some(Outcome::Win(Color::Black));
const WHITE: Option<Outcome> = Some(Outcome::Win(Color::White));
const DRAW: Option<Outcome> = Some(Outcome::Draw);

/// After ７六歩 ３四歩 (Black to move), a row with `word` as move 3.
fn kif_after_two(word: &str) -> String {
    format!("手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 {word}\n")
}

#[test]
fn kif_every_terminal_word() {
    let cases = [
        ("投了", Termination::Resign, WHITE),
        ("詰み", Termination::Checkmate, WHITE),
        ("中断", Termination::Interrupted, None),
        ("千日手", Termination::Repetition, DRAW),
        ("持将棋", Termination::Impasse, DRAW),
        ("切れ負け", Termination::Timeout, WHITE),
        ("反則勝ち", Termination::IllegalMove, BLACK),
        ("反則負け", Termination::IllegalMove, WHITE),
        ("入玉勝ち", Termination::EnteringKing, BLACK),
        ("封じ手", Termination::Sealed, None),
        ("不戦勝", Termination::Forfeit, BLACK),
        ("不戦敗", Termination::Forfeit, WHITE),
        // Black is to move, but the row names White as the one who fouled.
        ("後手 反則負け", Termination::IllegalMove, BLACK),
        ("後手の反則負け", Termination::IllegalMove, BLACK),
    ];
    for (word, termination, outcome) in cases {
        let game = kif::read(&kif_after_two(word)).remove(0);
        assert_eq!(game.problem, None, "{word}");
        assert_eq!(game.moves.len(), 2, "{word}: a terminal row is not a move");
        let ending = game.ending.as_ref().unwrap_or_else(|| panic!("{word}: no ending"));
        assert_eq!((ending.text.as_str(), ending.line), (word, 5), "{word}");
        let r = replay(&game);
        assert!(r.status.is_complete(), "{word}: {}", r.status);
        assert_eq!((r.termination, r.outcome), (Some(termination), outcome), "{word}");
    }
}

#[test]
fn kif_loser_named_before_the_word_on_the_other_side_s_row() {
    // Move 4 would be White's, but the row says Black lost by a foul (将棋倶楽部24 writes a
    // resignation out of turn so).
    let text = "手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n   4 先手 反則負け\n";
    let r = replay(&kif::read(text)[0]);
    assert_eq!((r.plies(), r.termination, r.outcome), (3, Some(Termination::IllegalMove), WHITE));
}

#[test]
fn kif_variations_after_the_ending_are_kept() {
    let text = concat!(
        "手合割：平手\n",
        "手数----指手---------消費時間--\n",
        "   1 ７六歩(77)   ( 0:01/00:00:01)\n",
        "   2 ３四歩(33)   ( 0:02/00:00:02)+\n",
        "   3 投了\n",
        "まで2手で後手の勝ち\n",
        "\n",
        "変化：2手\n",
        "   2 ８四歩(83)   ( 0:03/00:00:03)\n",
        "   3 ２六歩(27)   ( 0:01/00:00:02)\n",
        "   4 中断\n",
        "\n",
        "変化：3手\n",
        "   3 ２六歩(27)\n",
        "   4 千日手\n",
    );
    let game = kif::read(text).remove(0);
    assert_eq!(game.problem, None);
    assert_eq!(game.ending.as_ref().map(|e| e.termination), Some(Termination::Resign));
    // 変化：2手 replaces move 2; 変化：3手 comes after it in the file and belongs to it (the
    // nearest line with a move 3).
    let [var] = game.variations.as_slice() else { panic!("{:?}", game.variations) };
    assert_eq!((var.ply, var.moves.len()), (1, 2));
    assert_eq!(var.ending.as_ref().map(|e| e.termination), Some(Termination::Interrupted));
    let [sub] = var.variations.as_slice() else { panic!("{:?}", var.variations) };
    assert_eq!((sub.ply, sub.moves.len()), (1, 1));
    assert_eq!(sub.ending.as_ref().map(|e| e.termination), Some(Termination::Repetition));
    let r = replay(&game);
    assert_eq!((r.termination, r.outcome), (Some(Termination::Resign), WHITE));
    assert_eq!(r.variations[0].moves.iter().map(ToString::to_string).collect::<Vec<_>>(), ["8c8d", "2g2f"]);
    assert_eq!(
        r.variations[0].variations[0].moves.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["2g2f"]
    );
}

#[test]
fn ki2_every_summary_line_and_terminal_token() {
    // After ▲７六歩 △３四歩 Black is to move.
    let cases = [
        ("まで2手で後手の勝ち", Termination::Resign, WHITE),
        ("まで2手で時間切れにより後手の勝ち", Termination::Timeout, WHITE),
        ("まで2手で先手の反則負け", Termination::IllegalMove, WHITE),
        ("まで2手で先手の反則勝ち", Termination::IllegalMove, BLACK),
        ("まで2手で先手の入玉勝ち", Termination::EnteringKing, BLACK),
        ("まで2手で千日手", Termination::Repetition, DRAW),
        ("まで2手で持将棋", Termination::Impasse, DRAW),
        ("まで2手で中断", Termination::Interrupted, None),
        ("まで2手で封じ手", Termination::Sealed, None),
        ("▲投了", Termination::Resign, WHITE),
        ("▲投了\nまで2手で後手の勝ち", Termination::Resign, WHITE),
    ];
    for (ending, termination, outcome) in cases {
        let text = format!("手合割：平手\n▲７六歩　△３四歩\n{ending}\n");
        let game = ki2::read(&text).remove(0);
        assert_eq!((game.problem.as_ref(), game.moves.len()), (None, 2), "{ending}");
        let r = replay(&game);
        assert_eq!((r.termination, r.outcome), (Some(termination), outcome), "{ending}");
    }
}

/// A record that ends twice keeps its first ending, and says that it read the second past: a
/// terminal row after another, or a `まで` line that names another kind of end. A `まで` line
/// that says the same end in other words, or only who won, is no second ending.
#[test]
fn kif_a_second_ending_is_read_past_with_a_warning() {
    let two = |after: &str| format!("{}   4 {after}\n", kif_after_two("投了"));
    let cases: [(String, &[u32]); 6] = [
        // The second row is line 6, a `まで` line after it line 7.
        (two("中断"), &[6]),
        (format!("{}まで2手で中断\n", two("中断")), &[6, 7]),
        (format!("{}まで2手で中断\n", kif_after_two("投了")), &[6]),
        (format!("{}まで2手で千日手\n", kif_after_two("投了")), &[6]),
        (format!("{}まで2手で後手の勝ち\n", kif_after_two("投了")), &[]),
        (format!("{}まで2手で時間切れにより後手の勝ち\n", kif_after_two("切れ負け")), &[]),
    ];
    for (text, lines) in cases {
        let game = kif::read(&text).remove(0);
        assert_eq!(game.problem, None, "{text}");
        let warned: Vec<(u32, &str)> = game.warnings.iter().map(|w| (w.line, w.code)).collect();
        let want: Vec<(u32, &str)> = lines.iter().map(|&l| (l, "second_ending")).collect();
        assert_eq!(warned, want, "{text}");
        let ending = game.ending.as_ref().unwrap();
        assert_eq!(ending.line, 5, "{text}: the first ending stands");
        let r = replay(&game);
        assert_eq!(r.outcome, WHITE, "{text}");
    }
}

/// A time that is no time leaves its row's move read without one, and the game says so once,
/// at the first such row: it is not dropped in silence.
#[test]
fn kif_a_time_that_is_no_time_is_warned_of_once() {
    let text = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:xx/00:00:01)\n   2 \
                ３四歩(33)   ( 0:02/00:00:02)\n   3 ２六歩(27)   ( 1:2:3:4/00:00:03)\n   4 投了\n";
    let game = kif::read(text).remove(0);
    assert_eq!(game.problem, None);
    let seconds: Vec<Option<u32>> = game.moves.iter().map(|m| m.seconds).collect();
    assert_eq!(seconds, [None, Some(2), None]);
    let warned: Vec<(u32, &str)> = game.warnings.iter().map(|w| (w.line, w.code)).collect();
    assert_eq!(warned, [(3, "bad_time")]);
    let message = &game.warnings[0].message;
    assert!(message.contains("( 0:xx/00:00:01)") && !message.contains("  "), "{message}");
    // A readable time, or none, is no warning.
    assert!(kif::read(&kif_after_two("投了")).remove(0).warnings.is_empty());
}

/// A KIF time block's second part is the mover's running total. The totals are not kept (a KIF
/// or JKF written from the game gives the sums of the moves' times), so a total that is not
/// that sum is said, once a game, at the first; totals that are the sums, or at most a
/// second a move above them (times with fractions of a second, each cut to whole ones), a
/// side's totals after one of its moves without a time, and an ending's block of zeros are no
/// warning. The sums are counted by hand beside each row.
#[test]
fn kif_running_totals_that_are_not_the_sums_are_warned_of_once() {
    let head = "手合割：平手\n手数----指手---------消費時間--\n";
    let read = |rows: &str| kif::read(&format!("{head}{rows}")).remove(0);
    let warned = |game: &kifudex::kifu::Game| -> Vec<(u32, &str)> {
        game.warnings.iter().map(|w| (w.line, w.code)).collect()
    };
    // Black 1 + 3 = 4 s, White 2 + 4 = 6 s: the totals are the sums.
    let summed = "   1 ７六歩(77)   ( 0:01/00:00:01)\n   2 ３四歩(33)   ( 0:02/00:00:02)\n\
                  \x20  3 ２六歩(27)   ( 0:03/00:00:04)\n   4 ８四歩(83)   ( 0:04/00:00:06)\n";
    assert_eq!(warned(&read(&format!("{summed}   5 投了   ( 0:05/00:00:09)\n"))), []);
    // The ending's block of zeros, as some servers write it, says no time.
    assert_eq!(warned(&read(&format!("{summed}   5 投了   ( 0:00/00:00:00)\n"))), []);
    // Black's totals 2 and 6 where 1 and 1 + 3 make 4, White's 3 and 8 where 2 and 2 + 4 make
    // 6: at most a second a move above the sums, the sums of times with fractions.
    let cut = "   1 ７六歩(77)   ( 0:01/00:00:02)\n   2 ３四歩(33)   ( 0:02/00:00:03)\n\
               \x20  3 ２六歩(27)   ( 0:03/00:00:06)\n   4 ８四歩(83)   ( 0:04/00:00:08)\n";
    assert_eq!(warned(&read(cut)), []);
    // White's second total says 9 where 2 + 4 make 6, three seconds over in two moves (line 6),
    // and Black's ending 1:00:00 where 1 + 3 + 5 make 9 s: one warning, at the first.
    let game = read(
        "   1 ７六歩(77)   ( 0:01/00:00:01)\n   2 ３四歩(33)   ( 0:02/00:00:02)\n\
         \x20  3 ２六歩(27)   ( 0:03/00:00:04)\n   4 ８四歩(83)   ( 0:04/00:00:09)\n\
         \x20  5 投了   ( 0:05/01:00:00)\n",
    );
    assert_eq!(warned(&game), [(6, "time_totals")]);
    let message = &game.warnings[0].message;
    assert!(message.contains("８四歩(83) is 0:00:09 where the times read sum to 0:00:06"), "{message}");
    // The moves keep their own times.
    let seconds: Vec<Option<u32>> = game.moves.iter().map(|m| m.seconds).collect();
    assert_eq!(seconds, [Some(1), Some(2), Some(3), Some(4)]);
    // A game resumed from a diagram whose totals hold the time before it: 1:31:00 against 1:00.
    let resumed = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 1:00/01:31:00)\n";
    let game = kif::read(resumed).remove(0);
    assert_eq!(warned(&game), [(3, "time_totals")]);
    assert!(game.warnings[0].message.contains("is 1:31:00 where the times read sum to 0:01:00"));
    // Black's first move has no time: Black's sum is unknown from there, White's is checked
    // (5 where 2 + 4 make 6: a total below the sum).
    let untimed = "   1 ７六歩(77)\n   2 ３四歩(33)   ( 0:02/00:00:02)\n\
                   \x20  3 ２六歩(27)   ( 0:03/00:00:09)\n   4 ８四歩(83)   ( 0:04/00:00:05)\n";
    assert_eq!(warned(&read(untimed)), [(6, "time_totals")]);
}

/// A foul written as a move is kept with its text as the record writes it, but for the side
/// mark a KI2 move carries: the writers mark the side themselves, and the foul's text is
/// the same whichever format gave it (▲, and ☗ as KI2 writers also mark Black).
#[test]
fn a_written_foul_keeps_its_text_without_a_side_mark() {
    // Black's rook on 2h cannot reach 2d: its own pawn on 2g stands in the way.
    let ki2 = |mark: &str| format!("手合割：平手\n▲７六歩 △３四歩 {mark}２四飛\nまで3手で後手の反則勝ち\n");
    let kif =
        "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２四飛(28)\n   4 反則勝ち\n";
    let from_kif = replay(&kif::read(kif).remove(0));
    assert_eq!((from_kif.illegal_ending.as_deref(), from_kif.outcome), (Some("２四飛(28)"), WHITE));
    for mark in ["▲", "☗"] {
        let text = ki2(mark);
        let r = replay(&ki2::read(&text).remove(0));
        assert_eq!((r.illegal_ending.as_deref(), r.outcome), (Some("２四飛"), WHITE), "{text}");
    }
}
