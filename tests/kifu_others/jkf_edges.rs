//! JKF at the edges of its schema: the nulls it allows, forks that cannot be read, the start's
//! hands and cells, the piece before a move, times that are no times or hold fractions of a second. Expected values are the
//! schema's (json-kifu-format.schema.json) and hand counts stated beside them.

use kifudex::{
    kifu::{Game, Outcome, Start, Termination, jkf},
    replay::replay,
    shogi::{Color, PieceKind},
};

/// An entry of a board move in JKF: `piece` (the piece before the move) from `from` to `to`,
/// with `more` (`, "key": value` text) after the move.
fn entry(color: u8, from: (u8, u8), to: (u8, u8), piece: &str, more: &str) -> String {
    format!(
        r#"{{"move": {{"color": {color}, "from": {{"x": {}, "y": {}}}, "to": {{"x": {}, "y": {}}}, "piece": "{piece}"}}{more}}}"#,
        from.0, from.1, to.0, to.1
    )
}

/// A board move's entry with nothing more.
fn mv(color: u8, from: (u8, u8), to: (u8, u8), piece: &str) -> String {
    entry(color, from, to, piece, "")
}

/// A JKF text of `entries` after the start's empty one.
fn moves(entries: &[String]) -> String {
    format!("{{\"moves\": [{{}},\n{}]}}", entries.join(",\n"))
}

/// The one game of a JKF text.
fn game(text: &str) -> Game {
    let mut games = jkf::read(text);
    assert_eq!(games.len(), 1);
    games.remove(0)
}

fn codes(game: &Game) -> Vec<&'static str> {
    game.warnings.iter().map(|w| w.code).collect()
}

/// A start of the two kings alone (5九 and 5一), black to move, with `hands` and `board`
/// cells set by `cells` (`(x, y, cell JSON)`).
fn kings(hands: &str, cells: &[(usize, usize, &str)]) -> String {
    let mut board = vec![vec!["{}".to_string(); 9]; 9];
    board[4][8] = r#"{"color": 0, "kind": "OU"}"#.into();
    board[4][0] = r#"{"color": 1, "kind": "OU"}"#.into();
    for &(x, y, cell) in cells {
        board[x - 1][y - 1] = cell.into();
    }
    let board: Vec<String> = board.iter().map(|column| format!("[{}]", column.join(","))).collect();
    format!(
        r#"{{"initial": {{"preset": "OTHER", "data": {{"board": [{}], "color": 0, "hands": {hands}}}}}, "moves": [{{}}]}}"#,
        board.join(",")
    )
}

#[test]
fn jkf_a_fork_that_cannot_be_read_is_cut_and_the_main_line_goes_on() {
    // Three main-line moves; move 2 has a fork of one good move, then one with no piece code.
    let bad = r#"{"move": {"color": 0, "to": {"x": 9, "y": 9}, "piece": "ZZ"}}"#;
    let fork = format!(
        r#", "forks": [[{},
{bad}]]"#,
        mv(1, (8, 3), (8, 4), "FU")
    );
    let text = moves(&[
        mv(0, (7, 7), (7, 6), "FU"),
        entry(1, (3, 3), (3, 4), "FU", &fork),
        mv(0, (2, 7), (2, 6), "FU"),
    ]);
    let g = game(&text);
    assert_eq!(g.problem, None);
    assert_eq!(g.moves.len(), 3);
    assert_eq!(g.variations.len(), 1);
    assert_eq!((g.variations[0].ply, g.variations[0].moves.len()), (1, 1));
    assert_eq!(codes(&g), ["variation_cut"]);
    assert_eq!(g.warnings[0].line, 4);
    assert!(g.warnings[0].message.contains("ZZ"), "{}", g.warnings[0]);
    assert!(replay(&g).status.is_complete());

    // A fork whose first move cannot be read holds nothing: it is left out, said so.
    let fork = format!(r#", "forks": [[{bad}]]"#);
    let text = moves(&[entry(0, (7, 7), (7, 6), "FU", &fork), mv(1, (3, 3), (3, 4), "FU")]);
    let g = game(&text);
    assert_eq!((g.problem.as_ref(), g.moves.len(), g.variations.len()), (None, 2, 0));
    assert_eq!(codes(&g), ["variation_cut"]);

    // An empty fork holds nothing to keep.
    let text = moves(&[entry(0, (7, 7), (7, 6), "FU", r#", "forks": [[]]"#)]);
    let g = game(&text);
    assert_eq!((g.problem.as_ref(), g.moves.len(), g.variations.len()), (None, 1, 0));
}

#[test]
fn jkf_forks_nested_too_deep_are_left_out_and_the_main_line_goes_on() {
    // 40 forks, each nested in the one before, on the first move; then a second main move.
    let mut fork = mv(0, (7, 7), (7, 6), "FU");
    for _ in 0..40 {
        fork = entry(0, (7, 7), (7, 6), "FU", &format!(r#", "forks": [[{fork}]]"#));
    }
    let text = moves(&[fork, mv(1, (3, 3), (3, 4), "FU")]);
    let g = game(&text);
    assert_eq!(g.problem, None);
    assert_eq!(g.moves.len(), 2);
    assert_eq!(codes(&g), ["variation_left_out"]);
    let mut depth = 0;
    let mut v = &g.variations;
    while let Some(first) = v.first() {
        depth += 1;
        v = &first.variations;
    }
    assert_eq!(depth, 32);
}

#[test]
fn jkf_reads_the_nulls_its_schema_allows() {
    // The schema allows null for comments, forks, special, from, promote and an hour.
    let text = r#"{"header": {}, "initial": null, "moves": [{"comments": null},
        {"move": {"color": 0, "from": {"x": 7, "y": 7}, "to": {"x": 7, "y": 6}, "piece": "FU",
                  "promote": null, "same": null, "capture": null, "relative": null},
         "time": {"now": {"h": null, "m": 1, "s": 5}, "total": {"h": null, "m": 1, "s": 5}},
         "comments": null, "forks": null, "special": null}]}"#;
    let g = game(text);
    assert_eq!(g.problem, None);
    assert_eq!(g.moves.len(), 1);
    assert_eq!(g.moves[0].seconds, Some(65));
    assert!(g.warnings.is_empty(), "{:?}", g.warnings);
}

#[test]
fn jkf_a_time_that_is_no_time_is_left_out_and_said_so() {
    for now in [r#"{"m": -1, "s": 5}"#, r#"{"m": 0, "s": "5"}"#, r#"{"h": 99999999999, "m": 0, "s": 5}"#] {
        let time = format!(r#", "time": {{"now": {now}}}"#);
        let text = moves(&[entry(0, (7, 7), (7, 6), "FU", &time), mv(1, (3, 3), (3, 4), "FU")]);
        let g = game(&text);
        assert_eq!(g.problem, None, "{now}");
        assert_eq!(g.moves.len(), 2, "{now}");
        assert_eq!(g.moves[0].seconds, None, "{now}");
        assert_eq!(codes(&g), ["bad_time"], "{now}");
    }
}

#[test]
fn jkf_fractions_of_a_second_are_rounded_down_and_said_so_once() {
    // Move 2's time is 6 s (0.1 min, which a sum of floats makes 6.000000000000001): whole.
    // Moves 1 and 3 and the ending hold fractions: 62.5 s, 0.9999995 s and 3.25 s.
    let text = moves(&[
        entry(0, (7, 7), (7, 6), "FU", r#", "time": {"now": {"m": 1, "s": 2.5}}"#),
        entry(1, (3, 3), (3, 4), "FU", r#", "time": {"now": {"m": 0.1}}"#),
        entry(0, (2, 7), (2, 6), "FU", r#", "time": {"now": {"s": 0.9999995}}"#),
        r#"{"special": "TORYO", "time": {"now": {"s": 3.25}}}"#.to_string(),
    ]);
    let g = game(&text);
    let seconds: Vec<_> = g.moves.iter().map(|m| m.seconds).collect();
    assert_eq!(seconds, [Some(62), Some(6), Some(0)]);
    assert_eq!(g.ending.as_ref().and_then(|e| e.seconds), Some(3));
    assert_eq!(codes(&g), ["time_rounded"]);
    let w = &g.warnings[0];
    assert_eq!((w.line, w.ply), (2, Some(1)), "{w:?}");
    assert!(w.message.contains("and 2 other times"), "{}", w.message);
    // Whole seconds written as such are no fraction.
    let text = moves(&[entry(0, (7, 7), (7, 6), "FU", r#", "time": {"now": {"m": 1, "s": 2.0}}"#)]);
    let g = game(&text);
    assert_eq!((g.moves[0].seconds, codes(&g)), (Some(62), vec![]));
}

#[test]
fn jkf_hands_are_read_exactly_or_refused() {
    let hand = |black: &str| game(&kings(&format!("[{black}, {{}}]"), &[]));
    for bad in [r#"{"FU": -3}"#, r#"{"FU": 19}"#, r#"{"FU": "3"}"#, r#"{"FU": 2.5}"#, r#"{"OU": 1}"#] {
        let g = hand(bad);
        assert_eq!(g.problem.as_ref().map(|p| p.code()), Some("bad_board"), "{bad}");
    }
    // The schema lists every piece code as a hand key: a count of none is no piece.
    let g = hand(r#"{"FU": 2, "OU": 0, "TO": 0}"#);
    assert_eq!(g.problem, None);
    assert_eq!(g.start.setup().hand(Color::Black).count(PieceKind::Pawn), 2);
    // Hands are [black, white]: a third is no hand of either.
    let g = game(&kings(r#"[{}, {}, {"FU": 5}]"#, &[]));
    assert_eq!(g.problem.as_ref().map(|p| p.code()), Some("bad_board"));
}

#[test]
fn jkf_a_cell_needs_both_color_and_kind() {
    for cell in [r#"{"kind": "FU"}"#, r#"{"color": 0}"#, r#"{"color": null, "kind": "KI"}"#] {
        let g = game(&kings("[{}, {}]", &[(1, 5, cell)]));
        assert_eq!(g.problem.as_ref().map(|p| p.code()), Some("bad_board"), "{cell}");
    }
    let g = game(&kings("[{}, {}]", &[(1, 5, r#"{"color": null, "kind": null}"#)]));
    assert_eq!(g.problem, None);
}

#[test]
fn jkf_initial_data_without_a_preset_is_the_start() {
    let text = kings("[{}, {}]", &[]).replace(r#""preset": "OTHER", "#, "");
    let g = game(&text);
    assert_eq!(g.problem, None);
    assert!(matches!(g.start, Start::Custom(_)), "{:?}", g.start);
    assert_eq!(replay(&g).end.to_string().split(' ').next(), Some("4k4/9/9/9/9/9/9/9/4K4"));
}

#[test]
fn jkf_piece_is_the_piece_before_the_move() {
    let opening = [mv(0, (7, 7), (7, 6), "FU"), mv(1, (3, 3), (3, 4), "FU")].join(",");
    let with = |rest: &str| game(&format!("{{\"moves\": [{{}}, {opening}, {rest}]}}"));
    // The bishop on 8八 promoting on 2二, written right: KA with promote.
    let right = r#"{"move": {"color": 0, "from": {"x": 8, "y": 8}, "to": {"x": 2, "y": 2}, "piece": "KA", "promote": true}}"#;
    let r = replay(&with(right));
    assert!(r.status.is_complete());
    assert_eq!(r.moves.last().map(ToString::to_string).as_deref(), Some("8h2b+"));
    // A horse (UM) cannot promote.
    let g = with(&right.replace("\"KA\"", "\"UM\""));
    assert_eq!(g.problem.as_ref().map(|p| p.code()), Some("bad_move_text"));
    assert_eq!(g.moves.len(), 2);
    // The piece on 8八 is a bishop, not a horse: the record contradicts the board.
    let r = replay(&with(&right.replace("\"KA\", \"promote\": true", "\"UM\"")));
    assert_eq!(r.plies(), 2);
    assert!(!r.status.is_complete());
    let r = replay(&with(&right.replace("\"KA\", \"promote\": true", "\"UM\", \"promote\": false")));
    assert_eq!(r.plies(), 2);
    // After 8八角成 and 4二金, the horse on 2二 is no bishop that could promote again.
    let horse = |piece: &str| {
        let last = format!(
            r#"{{"move": {{"color": 0, "from": {{"x": 2, "y": 2}}, "to": {{"x": 1, "y": 1}}, "piece": {piece}}}}}"#
        );
        replay(&with(&[right.to_string(), mv(1, (4, 1), (4, 2), "KI"), last].join(",")))
    };
    let r = horse(r#""KA", "promote": true"#);
    assert_eq!(r.plies(), 4);
    assert!(!r.status.is_complete());
    let r = horse(r#""UM""#);
    assert_eq!(r.plies(), 5);
    assert!(r.status.is_complete());
}

#[test]
fn jkf_a_move_with_a_special_keeps_both() {
    let text = moves(&[entry(0, (7, 7), (7, 6), "FU", r#", "special": "TORYO""#)]);
    let g = game(&text);
    assert_eq!(g.problem, None);
    assert_eq!(g.moves.len(), 1);
    assert_eq!(g.ending.as_ref().map(|e| e.termination), Some(Termination::Resign));
    // White, to move after 7六歩, resigned.
    assert_eq!(replay(&g).outcome, Some(Outcome::Win(Color::Black)));
}

#[test]
fn jkf_comments_before_a_forks_first_move_and_the_schemas_start_comment_are_kept() {
    let fork = format!(
        r#", "forks": [[{{"comments": ["lead"]}}, {}]]"#,
        entry(0, (2, 7), (2, 6), "FU", r#", "comments": ["own"]"#)
    );
    let text = moves(&[entry(0, (7, 7), (7, 6), "FU", &fork)]).replacen("[{}", r#"[{"comment": "start"}"#, 1);
    let g = game(&text);
    assert_eq!(g.problem, None);
    assert_eq!(g.comments, ["start"]);
    assert_eq!(g.variations[0].moves[0].comments, ["lead", "own"]);
}

#[test]
fn jkf_an_unknown_special_ends_the_game_with_a_warning_as_csa_does() {
    // CSA's `%GOTE_WIN_CHECKMATE` ends its game without a stated ending and warns; the same
    // word as a JKF special does too, and a move after it is a move after the end.
    let csa = kifudex::kifu::csa::read("V2.2\nPI\n+\n+7776FU\n-3334FU\n%GOTE_WIN_CHECKMATE\n");
    let text = moves(&[
        mv(0, (7, 7), (7, 6), "FU"),
        mv(1, (3, 3), (3, 4), "FU"),
        r#"{"special": "GOTE_WIN_CHECKMATE"}"#.to_string(),
    ]);
    for g in [&csa[0], &game(&text)] {
        assert_eq!(g.problem, None);
        assert_eq!(g.moves.len(), 2);
        assert_eq!(g.ending, None);
        assert_eq!(codes(g), ["unknown_ending"]);
        assert!(replay(g).status.is_complete());
    }
    let after = moves(&[
        mv(0, (7, 7), (7, 6), "FU"),
        r#"{"special": "GOTE_WIN_CHECKMATE"}"#.to_string(),
        mv(1, (3, 3), (3, 4), "FU"),
    ]);
    let g = game(&after);
    assert_eq!(g.moves.len(), 1);
    assert_eq!(g.problem.as_ref().map(|p| p.code()), Some("move_after_end"));
}

/// A JKF time's `total` is the mover's running total. The totals are not kept (a KIF or JKF
/// written from the game gives the sums of the moves' times), so a total that is not that sum
/// is said, once a game, at the first, unless it is at most a second a move above it (the
/// sum of times with fractions, each cut to whole seconds); the sums by hand beside each
/// entry.
#[test]
fn jkf_running_totals_that_are_not_the_sums_are_warned_of_once() {
    let time =
        |now: u32, total: u32| format!(r#", "time": {{"now": {{"s": {now}}}, "total": {{"s": {total}}}}}"#);
    let with = |totals: [u32; 4]| {
        moves(&[
            entry(0, (7, 7), (7, 6), "FU", &time(1, totals[0])),
            entry(1, (3, 3), (3, 4), "FU", &time(2, totals[1])),
            entry(0, (2, 7), (2, 6), "FU", &time(3, totals[2])),
            format!(r#"{{"special": "TORYO"{}}}"#, time(4, totals[3])),
        ])
    };
    // Black 1, then 1 + 3 = 4; White 2, then the ending 2 + 4 = 6.
    assert_eq!(codes(&game(&with([1, 2, 4, 6]))), Vec::<&str>::new());
    // At most a second a move above: Black 2 after one move (1), 6 after two (1 + 3); White 3
    // after one (2), 8 after two (2 + 4). White's 4 after one move is two over.
    assert_eq!(codes(&game(&with([2, 3, 6, 8]))), Vec::<&str>::new());
    assert_eq!(codes(&game(&with([1, 4, 4, 6]))), ["time_totals"]);
    // Move 3 says 7 (three over in two moves), and the ending 60: one warning, on move 3's line.
    let g = game(&with([1, 2, 7, 60]));
    assert_eq!(codes(&g), ["time_totals"]);
    assert_eq!(g.warnings[0].line, 4);
    assert!(g.warnings[0].message.contains("move 3 is 0:00:07 where the times read sum to 0:00:04"));
    let seconds: Vec<_> = g.moves.iter().map(|m| m.seconds).collect();
    assert_eq!(seconds, [Some(1), Some(2), Some(3)]);
    // The ending's alone: 5, below the sum.
    let g = game(&with([1, 2, 4, 5]));
    assert_eq!(codes(&g), ["time_totals"]);
    assert!(g.warnings[0].message.contains("the ending is 0:00:05 where the times read sum to 0:00:06"));
}

/// What a JKF record says that has no place in the game is said, not dropped: a fork of
/// comments alone is left out with a warning that quotes them; a `special` after the first
/// that says another end is read past with a warning (the same word again is none).
#[test]
fn jkf_a_fork_of_comments_alone_and_a_second_special_are_said() {
    let forked = entry(0, (7, 7), (7, 6), "FU", r#", "forks": [[{"comments": ["only words"]}]]"#);
    let g = game(&moves(&[forked, r#"{"special": "TORYO"}"#.to_string()]));
    assert_eq!((g.moves.len(), g.variations.len()), (1, 0));
    let [warning] = g.warnings.as_slice() else { panic!("{:?}", g.warnings) };
    assert_eq!(
        (warning.code, warning.message.as_str()),
        ("variation_left_out", "a fork holds no move: it is left out, with its comments ('only words')")
    );

    let two = [
        mv(0, (7, 7), (7, 6), "FU"),
        r#"{"special": "TORYO"}"#.to_string(),
        r#"{"special": "CHUDAN"}"#.to_string(),
    ];
    let g = game(&moves(&two));
    assert_eq!(codes(&g), ["second_ending"]);
    assert_eq!(g.ending.map(|e| e.termination), Some(Termination::Resign));
    let echoed = [
        mv(0, (7, 7), (7, 6), "FU"),
        r#"{"special": "TORYO"}"#.to_string(),
        r#"{"special": "TORYO"}"#.to_string(),
    ];
    assert_eq!(codes(&game(&moves(&echoed))), Vec::<&str>::new());
}

/// A key JKF does not define (a tool's own: at the top, on an entry, on a move) is skipped
/// with an `unknown_line` warning that names it and its value; the game reads as without it.
#[test]
fn jkf_keys_the_schema_does_not_define_are_said() {
    let text = format!(
        "{{\"header\": {{}}, \"engine\": \"x\",\n\"moves\": [{{}},\n{},\n{{\"special\": \"TORYO\"}}]}}",
        entry(0, (7, 7), (7, 6), "FU", r#", "score": 35"#).replacen(
            r#""piece": "FU""#,
            r#""piece": "FU", "pv": "3c3d""#,
            1
        )
    );
    let g = game(&text);
    assert_eq!((g.moves.len(), g.problem.is_none()), (1, true));
    let said: Vec<_> = g.warnings.iter().map(|w| (w.line, w.code, w.message.as_str())).collect();
    assert_eq!(
        said,
        [
            (1, "unknown_line", r#"the key 'engine' ("x") is no part of JKF: it is skipped"#),
            (3, "unknown_line", "the key 'score' (35) is no part of JKF: it is skipped"),
            (3, "unknown_line", r#"the key 'pv' ("3c3d") is no part of JKF: it is skipped"#),
        ]
    );
}

/// A key written on every move is said once, with how often; past eight keys, the others are
/// counted.
#[test]
fn jkf_keys_the_schema_does_not_define_are_said_once_each() {
    let scored: Vec<String> = [((7, 7), (7, 6), 0), ((3, 3), (3, 4), 1), ((2, 7), (2, 6), 0)]
        .iter()
        .map(|&(from, to, color)| entry(color, from, to, "FU", r#", "score": 35"#))
        .collect();
    let g = game(&moves(&scored));
    let said: Vec<_> = g.warnings.iter().map(|w| (w.line, w.message.as_str())).collect();
    assert_eq!(said, [(2, "the key 'score' (35, and 2 more times) is no part of JKF: it is skipped")]);

    let keys: String = (0..20).map(|i| format!("\"k{i:02}\": {i}, ")).collect();
    let g = game(&format!("{{{keys}\"moves\": [{{}}]}}"));
    let messages: Vec<_> = g.warnings.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(messages.len(), 9, "{messages:?}");
    assert_eq!(messages[0], "the key 'k00' (0) is no part of JKF: it is skipped");
    assert_eq!(messages[8], "12 more keys JKF does not define are skipped");
}
