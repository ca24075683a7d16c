//! CSA: the corpus's hard cases, each on a copied fixture.

use kifudex::{
    kifu::{Format, Outcome, Start, Termination, csa},
    replay::replay,
    shogi::{Color, Handicap, PieceKind},
};

use super::{BRIDGE_GAME_END, expect, fixture, only_game, tokens};

#[test]
fn csa_multi_game_file() {
    // Three games separated by `/`: shogihome's src04.csa, a game broken at its sixth line,
    // and ShogiBoardQ's test_basic.csa.
    let games = csa::read(&fixture("csa/multi_game.csa"));
    assert_eq!(games.len(), 3);
    assert_eq!(games.iter().map(|g| g.line).collect::<Vec<_>>(), [1, 12, 21]);
    expect(
        &replay(&games[0]),
        6,
        "ln1gkgsnl/1r1s3b1/p1pppp1pp/1p4p2/9/2P1P4/PP1P1PPPP/1B2R4/LNSGKGSNL b -",
        "-",
        "none",
    );
    // The game with a stray `XYZ` (line 18) reads on past it, with a warning for the line.
    let broken = &games[1];
    assert_eq!(tokens(broken), ["+7776FU", "-3334FU", "+2726FU"]);
    assert_eq!(broken.problem, None);
    let [warning] = broken.warnings.as_slice() else { panic!("{:?}", broken.warnings) };
    assert_eq!((warning.line, warning.code), (18, "unknown_line"));
    assert!(warning.message.contains("XYZ"), "{warning}");
    assert_eq!(broken.header("N+"), Some("first"));
    // Reading resumed with the next game.
    assert_eq!(games[2].problem, None);
    expect(
        &replay(&games[2]),
        7,
        "lnsgkgsnl/1r5b1/p1pppp1pp/6p2/1p5P1/2P6/PP1PPPP1P/1BG4R1/LNS1KGSNL w -",
        "-",
        "none",
    );
    assert_eq!(games[2].info.black.as_ref().map(|p| p.full.as_str()), Some("テスト先手"));
}

/// Each game's list of moves is made from a guess at its length. The guess must be the game's:
/// a file of 2,000 one-move games, whose text as a whole would make room for 1,024 moves (48
/// kB), held that much for each game (98 MB for a 30 kB file).
#[test]
fn csa_many_short_games_hold_little_room_for_moves() {
    let text = "PI\n+\n+7776FU\n/\n".repeat(2_000);
    let games = csa::read(&text);
    assert_eq!(games.len(), 2_000);
    assert!(games.iter().all(|g| g.moves.len() == 1));
    let room: usize = games.iter().map(|g| g.moves.capacity()).sum();
    // The first game may take the text's guess; the others, a few moves each.
    assert!(room <= 1_024 + 8 * 2_000, "room for {room} moves");
}

#[test]
fn csa_euc_jp_padded_moves() {
    // EUC-JP, moves padded with spaces and followed on the same line by `,T` and `,'`
    // comments: `+7776FU  ,T0       ,'T0      ,'7776   ,'   1手目  ▲7六歩`.
    let bytes = std::fs::read(super::data().join("csa/2005_YAMADA_GPS.csa")).expect("fixture");
    let (text, _, bad) = encoding_rs::EUC_JP.decode(&bytes);
    assert!(!bad);
    let game = csa::read(&text).remove(0);
    assert_eq!(game.problem, None);
    assert_eq!(game.info.white.as_ref().map(|p| p.full.as_str()), Some("山田将棋 Version 2.18 (LEVEL5)"));
    let first = &game.moves[0];
    assert_eq!((first.token.to_string(), first.seconds), ("+7776FU".to_string(), Some(0)));
    assert_eq!(first.comments, ["T0", "7776", "   1手目  ▲7六歩"]);
    assert_eq!(game.moves[12].seconds, Some(16));
    // %TORYO in a mated position (cshogi: in check, no legal move): checkmate.
    expect(
        &replay(&game),
        107,
        "ln1g4l/1Rs3+P2/k1p2p1pp/p1N+B5/1N2P+S3/1PPPGs3/P4P1P1/1pK1G1b2/L1S4RL w N3Pgp",
        "b",
        "checkmate",
    );
}

#[test]
fn csa_per_piece_board_lines() {
    // Only `P-11OU21FU…29FU`, `P+00HI00HI00KY…` and `P-00GI…00KE` lines: counted by hand,
    // White's king on 1a and pawns down file 2, Black holding two rooks and four lances,
    // White four silvers and four knights; Black to move.
    // 9fu.csa gives the same position as P1–P9 rows with the same hand lines.
    for name in ["csa/9fu_komabetsu.csa", "csa/9fu.csa"] {
        let game = only_game(Format::Csa, name);
        let Start::Custom(setup) = &game.start else { panic!("a custom start") };
        assert_eq!(setup.to_string(), "7pk/7p1/7p1/7p1/7p1/7p1/7p1/7p1/7p1 b 2R4L4s4n 1", "{name}");
    }
    let game = only_game(Format::Csa, "csa/9fu_komabetsu.csa");
    assert_eq!(game.moves.len(), 61);
    assert_eq!(game.moves[0].token.to_string(), "+0013KY");
    assert_eq!(game.ending.as_ref().map(|e| e.termination), Some(Termination::Checkmate));
}

#[test]
fn csa_remaining_pieces_00al() {
    // `P-00AL`: every piece not on the board, kings excepted, goes to White's hand
    // (4G 4S 4N 3L 14P by hand count; tsumeshogi.json, the shipped conversion, agrees).
    let game = only_game(Format::Csa, "csa/tsumeshogi_00al.csa");
    let setup = game.start.setup();
    let white = setup.hand(Color::White);
    let counts: Vec<u8> = PieceKind::HAND.iter().map(|&k| white.count(k)).collect();
    assert_eq!(counts, [14, 3, 4, 4, 4, 0, 0]);
    assert!(setup.hand(Color::Black).is_empty());
    expect(&replay(&game), 3, "9/2+L6/2+Rpp4/+r2k1p3/4+p4/1n7/B8/B8/9 w 4g4s3n3l14p", "b", "checkmate");
}

#[test]
fn csa_short_board_rows() {
    // `P2 * * * * * * * * *`: two-character cells. The board is 二枚落ち's, White to move.
    let game = only_game(Format::Csa, "csa/test_handicap_2piece.csa");
    assert_eq!(game.start, Start::Standard(Handicap::TwoPieces));
    expect(&replay(&game), 2, "lnsgkgsnl/9/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -", "-", "none");
}

#[test]
fn csa_illegal_action_endings() {
    // %-ILLEGAL_ACTION: White fouled, Black wins.
    let win = only_game(Format::Csa, "csa/illegal_win.csa");
    let end = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b -";
    expect(&replay(&win), 2, end, "b", "illegal_move");
    // %ILLEGAL_MOVE: the side to move (Black) fouled.
    let lose = only_game(Format::Csa, "csa/illegal_lose.csa");
    expect(&replay(&lose), 2, end, "w", "illegal_move");
    // The same after 52 moves, with the time of the foul on the next line (`T24`).
    let wcsc = only_game(Format::Csa, "csa/wcsc31_illegal_move.csa");
    assert_eq!(wcsc.info.white.as_ref().map(|p| p.full.as_str()), Some("きふわらべ"));
    expect(
        &replay(&wcsc),
        52,
        "1n4kn1/1rs2s1bl/l1p1gpp1p/pp1pg2p1/7P1/2PP1PG1P/P1B1p1P1N/2GR4L/LNS1K1S2 b Pp",
        "w",
        "illegal_move",
    );
}

#[test]
fn csa_bishop_jumping_over_a_knight_stops_the_game_or_is_its_foul() {
    // test_various_pieces.csa ends with `+8855KA`, a bishop jumping over the knight on 7g,
    // and no ending: replay stops at move 11.
    let game = only_game(Format::Csa, "csa/test_various_pieces.csa");
    let r = replay(&game);
    expect(&r, 10, "lns3snl/1r2gkgb1/p1ppppppp/9/1p7/2P4PP/PPNPPPP2/LB5R1/2SGKGSNL b -", "-", "none");
    assert_eq!(r.status.to_string().split(':').next(), Some("line 14"));
    // With a written ending, the same illegal move is the foul that ended the game.
    let mut text = fixture("csa/test_various_pieces.csa");
    text.push_str("%ILLEGAL_MOVE\n");
    let r = replay(&csa::read(&text)[0]);
    assert_eq!((r.plies(), r.illegal_ending.as_deref()), (10, Some("+8855KA")));
    assert_eq!(
        (r.termination, r.outcome),
        (Some(Termination::IllegalMove), Some(Outcome::Win(Color::White)))
    );
}

#[test]
fn csa_pi_with_removals() {
    // `PI11KY21KE22KA31GI71GI81KE82HI91KY`: 八枚落ち.
    let game = only_game(Format::Csa, "csa/8mai_hirate.csa");
    assert_eq!(game.start, Start::Standard(Handicap::EightPieces));
    assert_eq!(game.moves[0].seconds, Some(3));
    expect(
        &replay(&game),
        25,
        "9/6g2/ppp1p1p1p/4gpkS1/3p5/2P6/PP1PPPP1P/1B5R1/LNSGKG1NL b Pp",
        "-",
        "interrupted",
    );
}

#[test]
fn csa_headers_and_comments() {
    // The CSA specification's example: every `$` header, comments everywhere.
    let game = only_game(Format::Csa, "csa/example.csa");
    let info = &game.info;
    assert_eq!(info.event.as_deref(), Some("13th World Computer Shogi Championship"));
    assert_eq!(info.site.as_deref(), Some("KAZUSA ARC"));
    assert_eq!(info.start.map(|d| d.to_string()).as_deref(), Some("2003-05-03T10:30:00"));
    assert_eq!(info.end.map(|d| d.to_string()).as_deref(), Some("2003-05-03T11:11:05"));
    assert_eq!(info.time_control.as_deref(), Some("00:25+00"));
    assert_eq!(info.opening.as_deref(), Some("YAGURA"));
    assert_eq!(info.black.as_ref().map(|p| p.name.as_str()), Some("NAKAHARA"));
    assert_eq!(game.header("V"), Some("2.2"));
    assert_eq!(game.header("$OPENING"), Some("YAGURA"));
    assert_eq!(
        game.comments.first().map(String::as_str),
        Some("----------棋譜ファイルの例\"example.csa\"-----------------")
    );
    assert_eq!(game.comments.last().map(String::as_str), Some("指し手と消費時間"));
    // The comment after the ending is the ending's.
    let ending = game.ending.as_ref().unwrap();
    assert_eq!(ending.comments, ["---------------------------------------------------------"]);
    assert_eq!(game.moves[1].comments, Vec::<String>::new());
    assert_eq!(game.moves.iter().map(|m| m.seconds).collect::<Vec<_>>(), [Some(12), Some(6)]);
}

#[test]
fn csa_engine_comments_and_time_after_the_end() {
    let game = only_game(Format::Csa, "csa/engine_comments.csa");
    assert_eq!(game.moves[1].comments[..2], ["*互角".to_string(), "**評価値=-35".to_string()]);
    // `$START_TIME: 15:35:06` has no date; `$END_TIME:` is empty. Both stay raw.
    assert_eq!(game.info.start, None);
    assert_eq!(game.header("$END_TIME"), Some(""));
    assert_eq!(game.info.time_control.as_deref(), Some("30+0+5"));
    expect(&replay(&game), 6, BRIDGE_GAME_END, "w", "resign");
}

#[test]
fn csa_v3_encoding_line() {
    let game = only_game(Format::Csa, "csa/v3_encoding_line.csa");
    assert_eq!(game.header("V"), Some("3.0"));
    assert!(game.comments.is_empty(), "the encoding declaration is not a comment: {:?}", game.comments);
    expect(
        &replay(&game),
        6,
        "lnsgk1snl/1r4gb1/p1ppppppp/9/1p5P1/9/PPPPPPP1P/1BG4R1/LNS1KGSNL b -",
        "w",
        "resign",
    );
}

#[test]
fn csa_summary_comment_gives_a_missing_ending() {
    // No `%` line; floodgate's trailer says the move limit drew the game.
    let game = only_game(Format::Csa, "csa/summary_max_moves.csa");
    let r = replay(&game);
    assert_eq!((r.termination, r.outcome), (Some(Termination::MaxMoves), Some(Outcome::Draw)));
}

#[test]
fn csa_floodgate_summary_gives_a_missing_ending() {
    // The game stopped at the move limit without a `%` line; its trailer comment reads
    // `'summary:max_moves:Titanda_L draw:SILENT_MAJORITY_sf170225_6950XEE draw`.
    let game = only_game(Format::Csa, "csa/floodgate_max_moves.csa");
    expect(
        &replay(&game),
        256,
        "4K4/1+B2+N+NSp1/1+P2+P4/p8/3g4p/2+r2p3/6+n2/5S2+l/1+r4G1k b GNL6Pbg2s2l6p",
        "d",
        "max_moves",
    );
}

#[test]
fn csa_every_ending_word() {
    // After +7776FU -3334FU, Black is to move. Each word's meaning, from the protocol.
    let black = Some(Outcome::Win(Color::Black));
    let white = Some(Outcome::Win(Color::White));
    let cases = [
        ("%TORYO", Termination::Resign, white),
        ("%TSUMI", Termination::Checkmate, white),
        ("%TIME_UP", Termination::Timeout, white),
        ("%ILLEGAL_MOVE", Termination::IllegalMove, white),
        ("%+ILLEGAL_ACTION", Termination::IllegalMove, white),
        ("%-ILLEGAL_ACTION", Termination::IllegalMove, black),
        ("%KACHI", Termination::EnteringKing, black),
        ("%SENNICHITE", Termination::Repetition, Some(Outcome::Draw)),
        ("%JISHOGI", Termination::Impasse, Some(Outcome::Draw)),
        ("%HIKIWAKE", Termination::Draw, Some(Outcome::Draw)),
        ("%MAX_MOVES", Termination::MaxMoves, Some(Outcome::Draw)),
        ("%CHUDAN", Termination::Interrupted, None),
        ("%FUZUMI", Termination::NoMate, None),
        ("%ERROR", Termination::Error, None),
        // Not a repetition on the board, and the word does not say which side gave the
        // checks: the winner is not known.
        ("%OUTE_SENNICHITE", Termination::PerpetualCheck, None),
        ("#RESIGN", Termination::Resign, white),
    ];
    for (word, termination, outcome) in cases {
        let text = format!("V2.2\nPI\n+\n+7776FU\n-3334FU\n{word}\nT3\n");
        let game = csa::read(&text).remove(0);
        assert_eq!(game.problem, None, "{word}");
        let r = replay(&game);
        assert_eq!((r.termination, r.outcome), (Some(termination), outcome), "{word}");
    }
    // `%MATTA` (待った, a move taken back) ends the record with no result: CSA defines the
    // word, so no warning.
    let game = csa::read("PI\n+\n+7776FU\n%MATTA\n").remove(0);
    assert_eq!((&game.problem, game.warnings.len()), (&None, 0), "{:?}", game.warnings);
    let r = replay(&game);
    assert_eq!((r.termination, r.outcome), (Some(Termination::TakeBack), None));
    // A word CSA does not define ends the game with no stated ending, and a warning.
    let game = csa::read("PI\n+\n+7776FU\n%SENTE_WIN_TORYO\n").remove(0);
    assert_eq!((game.problem, game.ending), (None, None));
    assert_eq!(game.warnings.iter().map(|w| (w.line, w.code)).collect::<Vec<_>>(), [(4, "unknown_ending")]);
}

#[test]
fn csa_written_says_the_version_that_defines_its_ending() {
    // `%MAX_MOVES` came with V3.0 (CSA's record format, 7th edition); V2.2 defines
    // `%TORYO`, `%SENNICHITE` and the other words used here.
    let written = |word: &str| {
        let game = csa::read(&format!("PI\n+\n+7776FU\n-3334FU\n{word}\n")).remove(0);
        kifudex::write::write(Format::Csa, &game, &replay(&game))
    };
    for (word, version) in [("%MAX_MOVES", "V3.0"), ("%TORYO", "V2.2"), ("%SENNICHITE", "V2.2"), ("", "V2.2")]
    {
        let text = written(word);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[..2], ["'CSA encoding=UTF-8", version], "{word}: {text}");
        assert_eq!(lines.last().copied(), Some(if word.is_empty() { "-3334FU" } else { word }), "{text}");
    }
}

#[test]
fn csa_perpetual_check_is_lost_by_the_checking_side_whoever_moved_last() {
    // Black's rook checks from the 5th and the 4th file in turn, and the king steps aside:
    // the start position occurs for the fourth time after 12 plies. Started with Black to
    // move, the king's step makes it, and the checking side is to move; started with White
    // in check, the check makes it, and the checking side moved last. Black gave every check
    // and loses both times, without a word against the record's ending.
    let board = |rook: &str| {
        format!(
            "P1 *  *  *  * -OU *  *  *  * \nP2{e}\nP3{e}\nP4{e}\nP5{e}\nP6{e}\nP7{e}\nP8{rook}\n\
             P9 *  *  *  * +OU *  *  *  * \n",
            e = " * ".repeat(9)
        )
    };
    let starts = [
        (board(" *  *  *  *  * +HI *  *  * "), "+", ["+4858HI", "-5141OU", "+5848HI", "-4151OU"]),
        (board(" *  *  *  * +HI *  *  *  * "), "-", ["-5141OU", "+5848HI", "-4151OU", "+4858HI"]),
    ];
    for (board, turn, cycle) in &starts {
        let moves: Vec<&str> = cycle.iter().cycle().take(12).copied().collect();
        let text = format!("V2.2\n{board}{turn}\n{}\n%OUTE_SENNICHITE\n", moves.join("\n"));
        let game = csa::read(&text).remove(0);
        let r = replay(&game);
        assert_eq!(r.plies(), 12, "{text}");
        assert_eq!(
            (r.termination, r.outcome),
            (Some(Termination::PerpetualCheck), Some(Outcome::Win(Color::White))),
            "{text}"
        );
        assert_eq!(r.warnings, [], "{text}");
    }
}

#[test]
fn csa_resyncs_after_junk() {
    for text in ["", "\n\n", "'only a comment\n"] {
        assert!(csa::read(text).is_empty(), "{text:?}");
    }
    // Text with nothing of a game in it is no game, as a part of only comments is not.
    let games = csa::read("garbage\n/\nPI\n+\n+7776FU\n");
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].moves.len(), 1);
    // A separator after a comma is junk, read past with a warning.
    let game = csa::read("PI\n+\n+7776FU,/\n-3334FU\n").remove(0);
    assert_eq!((game.moves.len(), game.problem), (2, None));
    assert_eq!(game.warnings.iter().map(|w| (w.line, w.code)).collect::<Vec<_>>(), [(3, "unknown_line")]);
    // A position statement after the first move is an error at its line.
    let game = csa::read("PI\n+\n+7776FU\nP1 *  *  *  *  *  *  *  *  * \n").remove(0);
    assert_eq!((game.moves.len(), game.problem.map(|p| p.line)), (1, Some(4)));
}

#[test]
fn csa_engine_pv_comments_and_kachi() {
    // 電竜戦: `'**` evaluation and PV lines after every move, then `%KACHI`.
    let game = only_game(Format::Csa, "csa/dr1_engine_pv_kachi.csa");
    assert_eq!(game.moves[0].comments[0], "** 130 7g7f 8c8d 7i6h 3c3d");
    assert_eq!(game.moves[0].seconds, Some(10));
    expect(
        &replay(&game),
        400,
        "+S+P1+B1G3/K1pGP+PPP1/+Pp7/9/6k2/5l3/1n1+p1+l+p+pp/4+pg1+p1/1+p+p6 b 2RBG3S3N2L2P",
        "b",
        "entering_king",
    );
}

#[test]
fn csa_no_final_newline() {
    let game = only_game(Format::Csa, "csa/noeol.csa");
    let ending = game.ending.as_ref().unwrap();
    assert_eq!(ending.comments, ["---------------------------------------------------------"]);
    expect(
        &replay(&game),
        2,
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL b -",
        "-",
        "interrupted",
    );
}

#[test]
fn csa_trailing_dot_rows_and_empty_piece_lines() {
    // `P2 * -HI *  *  *  *  * -KA *.`, empty `P+` and `P-` lines, `%JISHOGI,T1`.
    let game = only_game(Format::Csa, "csa/trailing_dot_rows_jishogi.csa");
    assert_eq!(game.start, Start::Standard(Handicap::Even));
    expect(
        &replay(&game),
        258,
        "3+P1G1+R+B/2+N1K4/1+P1+SGG1+L1/2+R6/P2S5/2G+n1+p+p2/7+p1/3+p+p4/5k3 b B2S2N3L10P",
        "d",
        "impasse",
    );
}

#[test]
fn csa_comma_times_and_tsumi() {
    // 将棋ウォーズ: 六枚落ち board, `,T` times on the move lines, `%TSUMI`.
    let game = only_game(Format::Csa, "csa/wars_six_piece_tsumi.csa");
    assert_eq!(game.start, Start::Standard(Handicap::SixPieces));
    assert_eq!(game.comments, [" 手合割:六枚落ち"]);
    assert_eq!(game.moves[..3].iter().map(|m| m.seconds).collect::<Vec<_>>(), [Some(1), Some(2), Some(2)]);
    assert_eq!(
        game.info.black.as_ref().map(|p| (p.name.as_str(), p.title.as_deref())),
        Some(("alice", Some("2級")))
    );
    expect(
        &replay(&game),
        89,
        "9/9/p2p+S2+L1/2g2p+R2/1p2p1P2/2pP1ks2/PP2P+p3/1BGKs4/LN1g5 b GSN6P",
        "w",
        "checkmate",
    );
}

#[test]
fn csa_hand_lines_and_quirky_comments() {
    // `P+00KI` … one piece per line, `P-00GI00GI`, comments around the header.
    let game = only_game(Format::Csa, "csa/kinoa_hand_lines.csa");
    let start = game.start.setup();
    let counts = |color| PieceKind::HAND.iter().map(|&k| start.hand(color).count(k)).collect::<Vec<_>>();
    assert_eq!(counts(Color::Black), [1, 1, 1, 1, 1, 0, 0]);
    assert_eq!(counts(Color::White), [0, 0, 1, 2, 1, 0, 0]);
    assert_eq!(
        game.comments[..3],
        ["-- syougi kifu --".to_string(), "format=csa_v2".into(), "make=QinoaSyougiConverter".into()]
    );
    // %TORYO in a mated position (cshogi: in check, no legal move): checkmate.
    expect(
        &replay(&game),
        14,
        "k8/2+P6/+P+P+P6/7g1/3b1P1K1/4P1PPP/4+b4/5+r3/8L b RG3SNL2P2gsn",
        "w",
        "checkmate",
    );
}

#[test]
fn csa_tournament_game_with_engine_lines_after_every_move() {
    // WCSC32: every move is followed by its time and a `'**` line with the engine's score and
    // principal variation; the time used on the last turn follows `%TORYO`.
    let game = only_game(Format::Csa, "csa/WCSC32_F7_NBS_DLS.csa");
    assert_eq!(game.info.black.as_ref().map(|p| p.name.as_str()), Some("NBS"));
    assert_eq!(game.moves[0].seconds, Some(41));
    assert_eq!(game.moves[0].comments, ["** 41 -4132KI"]);
    expect(
        &replay(&game),
        176,
        "k1gl4l/9/3+P2+Rp1/p1p2N2p/1P1pG4/PNPg1P1PP/K1L1P4/2B2+n3/LNrP1b3 b S4Pg3s",
        "w",
        "resign",
    );
}

#[test]
fn csa_interrupted_from_a_full_board_with_times_on_the_move_lines() {
    // chudan.csa: a Shift_JIS file from Kifu for Windows, `P1`…`P9` rows, `+7776FU,T2`.
    let game = only_game(Format::Csa, "csa/chudan.csa");
    assert_eq!(game.moves.iter().map(|m| m.seconds).collect::<Vec<_>>(), [Some(2), Some(5), Some(6)]);
    expect(
        &replay(&game),
        3,
        "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B",
        "-",
        "interrupted",
    );
}

#[test]
fn csa_server_lines_are_kept_and_tell_a_missing_ending() {
    // A server log: `#TIME_UP` then `#LOSE` after Black's turn came, no `%` line. The lines are
    // kept as comments; the first that names an ending gives it.
    let game = csa::read("V2.2\nPI\n+\n+7776FU\n-3334FU\n#TIME_UP\n#LOSE\n").remove(0);
    assert_eq!(game.problem, None);
    let comments: Vec<&str> = game.moves.iter().flat_map(|m| &m.comments).map(String::as_str).collect();
    assert_eq!(comments, ["#TIME_UP", "#LOSE"]);
    let r = replay(&game);
    assert_eq!((r.termination, r.outcome), (Some(Termination::Timeout), Some(Outcome::Win(Color::White))));
    // A `%` line says it first; the server's word does not override it.
    let game = csa::read("PI\n+\n+7776FU\n%TORYO\n#RESIGN\n#WIN\n").remove(0);
    assert_eq!(game.ending.map(|e| e.termination), Some(Termination::Resign));
}

/// A part between `/` lines that holds no game loses nothing it holds: its comments, quoted
/// in a warning, and its own warnings go to the game before it (before the first game, to the
/// first). An ending word after another that says something else is a `second_ending`
/// warning, the first standing; the same word again (a server's echo) is none.
#[test]
fn csa_text_of_no_game_and_a_second_ending_are_said() {
    let warnings = |game: &kifudex::kifu::Game| {
        game.warnings.iter().map(|w| (w.line, w.code, w.message.clone())).collect::<Vec<_>>()
    };
    let games = csa::read("PI\n+\n+7776FU\n%TORYO\n/\n'after the game\n");
    assert_eq!(games.len(), 1);
    let skipped = "a part between '/' lines holds no game: its comments ('after the game') are skipped";
    assert_eq!(warnings(&games[0]), [(6, "unknown_line", skipped.to_string())]);
    // Many comments are quoted a few at a time.
    let many = format!("PI\n+\n+7776FU\n/\n{}", "'note\n".repeat(10));
    let skipped = "a part between '/' lines holds no game: its comments ('note', 'note', 'note' and 7 more) are skipped";
    assert_eq!(warnings(&csa::read(&many)[0]), [(5, "unknown_line", skipped.to_string())]);
    let games = csa::read("PI\n+\n+7776FU\n/\ngarbage\n/\nPI\n+\n+2726FU\n");
    assert_eq!(games.len(), 2);
    assert_eq!(warnings(&games[0]).iter().map(|w| (w.0, w.1)).collect::<Vec<_>>(), [(5, "unknown_line")]);
    assert_eq!(warnings(&games[1]), []);
    let games = csa::read("garbage\n/\nPI\n+\n+7776FU\n");
    assert_eq!(warnings(&games[0]).iter().map(|w| (w.0, w.1)).collect::<Vec<_>>(), [(1, "unknown_line")]);

    let game = csa::read("PI\n+\n+7776FU\n%TORYO\n%CHUDAN\n").remove(0);
    let second = "%CHUDAN says another end after the game's (%TORYO, line 4): read past, the first stands";
    assert_eq!(warnings(&game), [(5, "second_ending", second.to_string())]);
    assert_eq!(game.ending.map(|e| e.termination), Some(Termination::Resign));
    let echoed = csa::read("PI\n+\n+7776FU\n%TORYO\n%TORYO\n").remove(0);
    assert_eq!(warnings(&echoed), []);
}

#[test]
fn csa_times_with_fractions_are_rounded_down_and_stray_times_are_told() {
    // CSA V3 writes times to the millisecond; a time here is in whole seconds. A time that
    // follows no move, or a move that already has one, is no time of the game.
    let text = "V3.0\nPI\n+\nT5\n+7776FU,T1.250\n-3334FU\nT3.000\nT4\n+2726FU\nT0.5\n%TORYO\nT16.75\nT17\n";
    let games = csa::read(text);
    let [game] = games.as_slice() else { panic!("{games:?}") };
    assert_eq!(game.problem, None);
    let seconds: Vec<_> = game.moves.iter().map(|m| m.seconds).collect();
    assert_eq!(seconds, [Some(1), Some(3), Some(0)]);
    assert_eq!(game.ending.as_ref().and_then(|e| e.seconds), Some(16));
    let told: Vec<_> = game.warnings.iter().map(|w| (w.line, w.ply, w.code)).collect();
    let stray = [(4, None, "stray_time"), (8, Some(2), "stray_time"), (13, None, "stray_time")];
    assert_eq!(told, [&stray[..], &[(5, Some(1), "time_rounded")]].concat());
    assert!(game.warnings[1].message.contains("'T4' follows move 2"), "{}", game.warnings[1].message);
    assert!(game.warnings[2].message.contains("'T17' follows the ending"), "{}", game.warnings[2].message);
    assert!(
        game.warnings[3].message.contains("T1.250") && game.warnings[3].message.contains("2 other times")
    );
    for bad in ["T1.", "T1.2x", "T.5"] {
        let game = &csa::read(&format!("PI\n+\n+7776FU\n{bad}\n-3334FU\n"))[0];
        assert_eq!((game.moves.len(), game.moves[0].seconds), (2, None), "{bad}");
        assert_eq!(game.warnings.iter().map(|w| w.code).collect::<Vec<_>>(), ["unknown_line"], "{bad}");
    }
}
