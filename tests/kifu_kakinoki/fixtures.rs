//! The hard cases of the corpus, one named test each, on fixtures copied into
//! `tests/data/kifu/` (see its `SOURCES.md`). Expected plies, final positions, winners and
//! terminations are the oracle's (`tests/data/corpus/expected.tsv`: cshogi and rsshogi, or
//! decided by hand where they disagree); tree shapes and headers were read off the files by
//! hand.

use std::path::Path;

use kifudex::{
    kifu::{Game, Outcome, Start, Termination, encoding, ki2, kif},
    replay::{ReplayedGame, Status, StopReason, replay},
    shogi::{Color, Handicap},
};

use super::round_trip;

/// Reads a fixture with the reader its extension names.
pub fn load(name: &str) -> Game {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/kifu").join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let text = encoding::decode(&bytes).unwrap_or_else(|e| panic!("{name}: {e}")).text;
    let games = if name.contains(".ki2") { ki2::read(&text) } else { kif::read(&text) };
    assert_eq!(games.len(), 1, "{name}");
    games.into_iter().next().expect("one game")
}

/// The oracle file's winner column: `b`, `w`, `d` or `-`.
pub fn winner(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        Some(Outcome::Win(Color::Black)) => "b",
        Some(Outcome::Win(Color::White)) => "w",
        Some(Outcome::Draw) => "d",
        None => "-",
    }
}

/// Reads and replays a fixture and checks it against the oracle's row: plies, final position,
/// winner (`b`, `w`, `d`, `-`), termination and status (`ok` or `stop:N`). Games that replay
/// in full must also survive the KIF (and KI2) round trip.
pub fn expect(
    name: &str,
    plies: usize,
    sfen: &str,
    win: &str,
    termination: &str,
    status: &str,
) -> (Game, ReplayedGame) {
    let game = load(name);
    let r = kifudex::replay::replay(&game);
    let got_status = status_text(&r);
    let got =
        (r.plies(), r.end.position_text(), winner(r.outcome), r.termination.map_or("none", |t| t.name()));
    assert_eq!(got, (plies, sfen.to_string(), win, termination), "{name}: {}", r.status);
    assert_eq!(got_status, status, "{name}");
    round_trip::check(&game, name.contains(".ki2")).unwrap_or_else(|e| panic!("{name}: {e}"));
    (game, r)
}

/// The oracle file's status column: `ok`, or `stop:N` for a game that stops at move N.
pub fn status_text(r: &ReplayedGame) -> String {
    match &r.status {
        Status::Complete => "ok".to_string(),
        Status::Stopped(StopReason::Move { ply, .. }) => format!("stop:{ply}"),
        Status::Stopped(_) => format!("stop:{}", r.plies() + 1),
    }
}

fn usi(moves: &[kifudex::shogi::Move]) -> String {
    moves.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
}

const EVEN_AFTER_76_34_26: &str = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL w -";

#[test]
fn kif_variations_nested_with_every_ending() {
    let (game, r) = expect("fork.kif", 3, EVEN_AFTER_76_34_26, "b", "resign", "ok");
    let plies: Vec<usize> = game.variations.iter().map(|v| v.ply).collect();
    assert_eq!(plies, [2, 1, 0]);
    let endings: Vec<Termination> =
        game.variations.iter().filter_map(|v| v.ending.as_ref()).map(|e| e.termination).collect();
    assert_eq!(endings, [Termination::Interrupted, Termination::Impasse, Termination::IllegalMove]);
    let first = &game.variations[2];
    assert_eq!(first.variations.iter().map(|v| v.ply).collect::<Vec<_>>(), [2, 1]);
    assert_eq!(first.variations[1].variations[0].ending.as_ref().unwrap().termination, Termination::NoMate);
    // 変化：1手 ends 反則勝ち for White: Black fouled.
    let foul = first.ending.as_ref().unwrap();
    assert_eq!((foul.side, foul.stated), (Some(Color::Black), Some(Outcome::Win(Color::White))));
    assert_eq!(usi(&r.variations[0].moves), "2g2f 3c3d 2f2e");
    assert_eq!(game.moves[0].seconds, Some(2));
}

#[test]
fn kif_variation_after_a_misnumbered_row() {
    let (game, _) = expect("fork-test.kif", 3, EVEN_AFTER_76_34_26, "-", "none", "ok");
    // `5 ６六歩` then `5 ４二銀`: numbers are not trusted, both are moves of the variation.
    assert_eq!(game.variations[0].moves.len(), 5);
}

/// Rows numbered back from the row before them (`4` after `5`) are the moves of a variation
/// whose `変化` line is missing or could not be read: they are no moves of the line they
/// follow, which keeps its own; a warning says so, at the first, and the next `変化` line is
/// read as ever. By hand: ４四歩(43) and ４八銀(39) would be legal after the main line's five
/// moves, so only their numbers tell them.
#[test]
fn kif_rows_numbered_back_are_read_past_with_a_warning() {
    let main = "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n\
                \x20  4 ８四歩(83)\n   5 ２五歩(26)\n";
    let headless = "\n   4 ４四歩(43)\n   5 ４八銀(39)\n";
    let variation = "\n変化：4手\n   4 ３二金(41)\n";
    for text in [format!("{main}{headless}"), format!("{main}{headless}{variation}")] {
        let game = kif::read(&text).remove(0);
        let r = replay(&game);
        assert_eq!(usi(&r.moves), "7g7f 3c3d 2g2f 8c8d 2f2e", "{text}");
        let warned: Vec<(u32, &str)> = game.warnings.iter().map(|w| (w.line, w.code)).collect();
        assert_eq!(warned, [(9, "row_out_of_order")], "{text}");
        let variations: Vec<String> = r.variations.iter().map(|v| usi(&v.moves)).collect();
        let want: &[&str] = if text.contains("変化") { &["4a3b"] } else { &[] };
        assert_eq!(variations, want, "{text}");
    }
    // After a `まで` line the game has ended: a row after it is a move after the end, as
    // ever (the record goes on with another game it cannot read), however it is numbered.
    let ended = format!("{main}まで5手で中断\n\n   1 ７六歩(77)   ( 0:03/00:00:03)\n");
    let game = kif::read(&ended).remove(0);
    assert!(game.warnings.is_empty(), "{:?}", game.warnings);
    assert_eq!(game.problem.as_ref().map(|p| p.line), Some(10), "{:?}", game.problem);
}

#[test]
fn kif_last_move_branches() {
    let (game, _) = expect(
        "last-fork.kifu",
        10,
        "lnsgk1snl/1r4gb1/p1ppppppp/7R1/1p7/9/PPPPPPP1P/1BG6/LNS1KGSNL b P",
        "-",
        "interrupted",
        "ok",
    );
    assert_eq!(game.variations.len(), 1);
    assert_eq!(game.variations[0].ply, 9);
}

#[test]
fn kif_variations_and_bookmarks() {
    let sfen = "ln1gk1snl/1r1s2g2/p1pppp1pp/6p2/1p7/2P4P1/PPSPPPP1P/2G4R1/LN2KGSNL b Bb";
    let (game, r) = expect("henka.kif", 12, sfen, "-", "interrupted", "ok");
    assert_eq!(game.variations.iter().map(|v| v.ply).collect::<Vec<_>>(), [2, 2, 1, 0]);
    assert_eq!(r.variations.len(), 4);
}

#[test]
fn kif_branch_starting_with_same() {
    let (game, r) = expect("doh_branch.kifu", 3, EVEN_AFTER_76_34_26, "-", "interrupted", "ok");
    let v3 = &r.variations[0];
    assert_eq!((v3.ply, usi(&v3.moves)), (2, "8h2b+ 3a2b".to_string()));
    // 変化：4手 `同　飛(82)` is an alternative to 4.同銀 inside 変化：3手.
    assert_eq!((v3.variations[0].ply, usi(&v3.variations[0].moves)), (1, "8b2b".to_string()));
    assert_eq!(
        game.variations[0].variations[0].ending.as_ref().unwrap().termination,
        Termination::Interrupted
    );
}

#[test]
fn kif_same_square_without_the_space() {
    expect(
        "shogidb2.kifu",
        110,
        "l5kn1/5l2p/7p1/b1pbPpp1l/pKNp3N1/2P3PP1/P2g1P3/2R6/LN1S5 b RG2S2P2gs3p",
        "w",
        "resign",
        "ok",
    );
}

/// The 9fu diagram: nine white pawns on file 2, against 二歩 but a real problem.
const NINE_PAWNS: &str = "7pk/7p1/7p1/7p1/7p1/7p1/7p1/7p1/7p1 b 2R4L4s4n 1";

#[test]
fn kif_custom_start_with_nine_pawns() {
    let game = load("9fu.kif");
    assert!(matches!(&game.start, Start::Custom(s) if s.to_string() == NINE_PAWNS));
    assert_eq!(game.header("手合割"), Some("その他　"));
    assert_eq!((game.moves.len(), game.ending.as_ref().unwrap().termination), (61, Termination::Checkmate));
    assert_eq!(game.moves[60].seconds, Some(1));
}

#[test]
fn ki2_custom_start_with_nine_pawns() {
    let game = load("9fu.ki2");
    assert!(matches!(&game.start, Start::Custom(s) if s.to_string() == NINE_PAWNS));
    assert_eq!((game.moves.len(), game.ending.as_ref().unwrap().termination), (61, Termination::Checkmate));
}

#[test]
fn ki2_left_seven_piece_handicap() {
    let (game, _) = expect(
        "7mai.ki2u",
        2,
        "3gkg3/1s7/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -",
        "-",
        "interrupted",
        "ok",
    );
    assert_eq!(game.start, Start::Standard(Handicap::LeftSevenPieces));
    assert_eq!(game.info.black.as_ref().unwrap().name, "shitate");
}

const EIGHT_PIECE_END: &str = "9/6g2/ppp1p1p1p/4gpkS1/3p5/2P6/PP1PPPP1P/1B5R1/LNSGKG1NL b Pp";

#[test]
fn kif_eight_piece_handicap() {
    let (game, _) = expect("8mai.kif", 25, EIGHT_PIECE_END, "-", "interrupted", "ok");
    assert_eq!(game.start, Start::Standard(Handicap::EightPieces));
}

#[test]
fn ki2_eight_piece_handicap() {
    expect("8mai.ki2", 25, EIGHT_PIECE_END, "-", "interrupted", "ok");
}

#[test]
fn kif_lance_handicap_with_cr_cr_lf() {
    let sfen = "k1b6/ll5PP/NSnp1gr2/Ppp1s1p+R1/4l4/4p4/2PP1PP2/1K2G4/2SG3N1 w GPbsn5p";
    let (game, _) = expect("20081220kyoochi.kif", 142, sfen, "b", "resign", "ok");
    assert_eq!(game.start, Start::Standard(Handicap::Lance));
    assert_eq!(game.info.white.as_ref().unwrap().name, "深浦康市");
    assert_eq!(game.info.start.unwrap().to_string(), "2008-12-20");
}

#[test]
fn kif_hands_with_half_width_spaces() {
    expect("kifu_for_iphone.kif", 3, "4ks3/3Ss4/4+P4/9/9/9/9/9/9 w 2r2b4gs4n4l17p", "b", "checkmate", "ok");
}

#[test]
fn kif_board_diagram_overrides_handicap() {
    let (game, _) =
        expect("taichitsume.kif", 7, "7Sl/6+Pk1/6spn/9/8P/9/9/9/9 w 2r2b4g2s3n3l15p", "b", "checkmate", "ok");
    assert!(matches!(game.start, Start::Custom(_)));
    expect(
        "hashimoto-sos.kif",
        7,
        "9/9/3ppP3/3r5/3nk+B3/5R3/3sgG3/9/9 w b2g3s3n4l15p",
        "b",
        "checkmate",
        "ok",
    );
}

#[test]
fn kif_move_count_header_is_not_a_move() {
    let (game, _) = expect(
        "fu-10.kif",
        9,
        "4SSknl/7g1/4+R1ppp/3pp4/9/5pr2/7PP/9/8L w S2b3gs3n2l10p",
        "b",
        "resign",
        "ok",
    );
    assert_eq!(game.header("手数"), Some("9"));
}

#[test]
fn kif_tsume_without_black_king() {
    let game = load("kanju-kemuri.kif");
    let r = kifudex::replay::replay(&game);
    assert_eq!(
        (r.plies(), r.end.position_text().as_str()),
        (117, "7k1/7+B1/7+P1/9/9/9/9/9/9 w 2rb4g4s4n4l17p")
    );
    assert_eq!(game.ending, None);
}

#[test]
fn kif_illegal_endings() {
    let (game, _) = expect(
        "illegal.kif",
        2,
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b -",
        "w",
        "illegal_move",
        "ok",
    );
    let v = &game.variations[0];
    assert_eq!(v.ending.as_ref().unwrap().stated, Some(Outcome::Win(Color::Black)));
}

#[test]
fn ki2_illegal_endings() {
    let (game, _) = expect(
        "illegal.ki2",
        2,
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b -",
        "w",
        "illegal_move",
        "ok",
    );
    assert_eq!(game.variations[0].ending.as_ref().unwrap().side, Some(Color::White));
}

const CHUDAN_END: &str = "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B";

#[test]
fn kif_interrupted() {
    expect("chudan.kif", 3, CHUDAN_END, "-", "interrupted", "ok");
}

#[test]
fn ki2_interrupted() {
    expect("chudan.ki2", 3, CHUDAN_END, "-", "interrupted", "ok");
}

#[test]
fn kif_without_final_newline() {
    expect("noeol.kif", 3, CHUDAN_END, "-", "interrupted", "ok");
}

#[test]
fn ki2_without_final_newline() {
    expect("noeol.ki2", 3, CHUDAN_END, "-", "interrupted", "ok");
}

#[test]
fn kif_comment_on_the_last_move() {
    let (game, _) = expect("last_comment.kif", 3, EVEN_AFTER_76_34_26, "-", "none", "ok");
    assert_eq!(game.moves[1].comments, ["コメント"]);
}

#[test]
fn kif_pro_game_with_times() {
    let sfen = "l5+P1l/1Sp6/pRnk2g2/4pbppp/3sNp3/1pPSP1P2/P2G2+s1P/1KG6/LN5RL w GPbn3p";
    let (game, _) = expect("jt201409130101.kif", 107, sfen, "b", "resign", "ok");
    assert_eq!(game.info.start.unwrap().to_string(), "2014-09-13T14:59:00");
    assert_eq!(game.info.black.as_ref().unwrap().full, "渡辺明");
}

#[test]
fn kif_sealed_move() {
    let sfen = "lr4knl/4g1g2/p1ns1psp1/3bp3p/PpPp1PBP1/2S1P3P/1PGP1SN2/3K1G3/LN5RL b P2p";
    let (game, _) = expect("meijinsen_20180508.kif", 52, sfen, "-", "sealed", "ok");
    let black = game.info.black.unwrap();
    assert_eq!((black.name.as_str(), black.title.as_deref()), ("羽生 善治", Some("竜王")));
    assert_eq!(game.moves[21].seconds, Some(25 * 60));
}

#[test]
fn ki2_sealed_move() {
    expect(
        "fuujite.ki2u",
        2,
        "4kg3/2g6/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -",
        "-",
        "sealed",
        "ok",
    );
}

#[test]
fn ki2_variations() {
    let (game, _) = expect("fork.ki2", 3, EVEN_AFTER_76_34_26, "b", "resign", "ok");
    assert_eq!(game.variations.iter().map(|v| v.ply).collect::<Vec<_>>(), [2, 1, 0]);
    let (game, _) = expect(
        "ki2u-utf8.ki2u",
        15,
        "ln1g2snl/2s1k1gb1/p1ppppppp/9/7P1/1rP3P2/P2PPP2P/1BGK2SR1/LNS2G1NL w Pp",
        "-",
        "none",
        "ok",
    );
    assert_eq!((game.variations[0].ply, game.variations[0].moves.len()), (8, 15));
}

#[test]
fn ki2_comment_before_the_moves() {
    let sfen = "lr7/5+P3/4p+N2g/2pp3pp/P6k1/1PP1NGp1R/LG1G2+n+b1/1KS2P3/8L b Sb2snl7p";
    let (game, _) = expect("20091203.ki2", 172, sfen, "w", "resign", "ok");
    let black = game.info.black.unwrap();
    assert_eq!((black.name.as_str(), black.title.as_deref()), ("伊奈祐介", Some("六段")));
}

#[test]
fn ki2_diagram_without_turn_line_and_final_newline() {
    expect(
        "kobayashi_kinsho196702.ki2",
        49,
        "k8/4l4/r+R+B2ln2/4pp2p/3l4n/2lp5/6p2/9/7+p1 w b4g4s2n12p",
        "b",
        "checkmate",
        "ok",
    );
}

#[test]
fn kif_crlf_pro_game() {
    let sfen = "+L5s2/4Skgb1/2+Rpp2pp/2p2pp2/7N1/2n2PP1L/1PNPP4/1SG1+r4/2KN5 b G6Pbgs2l";
    let (game, _) = expect("oui202106290101.kif", 104, sfen, "w", "resign", "ok");
    assert_eq!(game.header("振り駒"), Some("3,0,藤"));
    assert_eq!(game.info.black.as_ref().unwrap().title.as_deref(), Some("王位"));
}

#[test]
fn kif_and_kifu_of_the_same_game_agree() {
    let sfen = "1p5n1/1+BsP+P4/+Rs1p4p/2p2Bp2/pk3p3/1G4P2/PL3PN1P/LKGG1S1+pR/1N6L w GSN3Pp";
    // The loser resigned in a mated position (cshogi: in check, no legal move): checkmate.
    let (a, _) = expect("piyo-shogi_KY.kif", 104, sfen, "b", "checkmate", "ok");
    let (b, _) = expect("piyo-shogi_KY.kifu", 104, sfen, "b", "checkmate", "ok");
    assert_eq!(a.start, Start::Standard(Handicap::Lance));
    assert_eq!((a.headers, a.moves), (b.headers, b.moves));
    let sfen = "lnsgk2nl/1r4gs1/p1pppp1pp/6p2/1p7/2P4P1/PPSPPPP1P/2G4R1/LN2KGSNL b Bb";
    let (a, _) = expect("forks.kif", 12, sfen, "-", "none", "ok");
    let (b, _) = expect("forks.kifu", 12, sfen, "-", "none", "ok");
    assert_eq!((a.moves, a.variations), (b.moves, b.variations));
}

#[test]
fn kif_board_diagram_start_with_nested_variations() {
    let (game, r) = expect(
        "everyday_20211107.kif",
        11,
        "6l1+N/6n1+B/8k/5Lppp/9/9/9/9/9 w 2rb4g4s2n2l15p",
        "b",
        "checkmate",
        "ok",
    );
    assert_eq!(game.variations.iter().map(|v| v.ply).collect::<Vec<_>>(), [6, 1]);
    // 変化：9手 belongs to 変化：2手, the nearest line with a move 9.
    assert_eq!(game.variations[1].variations[0].ply, 7);
    assert_eq!(r.variations.len(), 2);
}

#[test]
fn kif_no_moves() {
    let (game, _) = expect(
        "empty.kif",
        0,
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -",
        "-",
        "none",
        "ok",
    );
    assert_eq!(game.ending, None);
}

#[test]
fn kif_shift_jis_and_utf8_files_are_the_same_game() {
    let sfen = "lnsgkgsnl/1r5b1/p1ppppppp/9/1p7/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL b -";
    let (a, _) = expect("sjis.kif", 4, sfen, "-", "none", "ok");
    let (b, _) = expect("utf8.kif", 4, sfen, "-", "none", "ok");
    assert_eq!(a, b);
    // Engine lines (`**…`) and annotations (`*#…`) are comments; mate-search results in them
    // are not endings.
    assert_eq!(a.moves[1].comments, ["*評価値=80", "", "#評価値=-60"]);
    let (c, _) = expect("sjis.ki2", 4, sfen, "-", "none", "ok");
    let (d, _) = expect("utf8.ki2", 4, sfen, "-", "none", "ok");
    assert_eq!((c.moves.len(), c.moves[3].comments.clone()), (4, d.moves[3].comments.clone()));
}

#[test]
fn kif_engine_endings_from_a_server() {
    let even = "lnsgkgsnl/1r5b1/p1pppp1pp/6p2/1p5P1/9/PPPPPPP1P/1BG4R1/LNS1KGSNL b -";
    expect("scenario9-timeout.kifu", 6, even, "w", "timeout", "ok");
    expect("scenario10-hansoku-win.kifu", 6, even, "b", "illegal_move", "ok");
    expect("scenario11-jishogi.kifu", 6, even, "d", "impasse", "ok");
    expect("scenario12-chudan.kifu", 6, even, "-", "interrupted", "ok");
    expect(
        "scenario5-sennichite.kifu",
        12,
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -",
        "d",
        "repetition",
        "ok",
    );
}

/// The server wrote 反則負け for a perpetual check; the moves say which: the position after
/// move 12 is the fourth occurrence of the start's, and every move of the checking side since
/// gave check (by hand: the rook checks on each move, the king only steps aside), so the
/// checking side loses by 連続王手の千日手, as the server's word also says.
#[test]
fn kif_perpetual_check_written_as_a_foul() {
    expect("scenario6-perpetual.kifu", 12, "4k4/9/9/9/9/9/9/5R3/4K4 b -", "w", "perpetual_check", "ok");
    expect("scenario7-perpetual.kifu", 12, "4k4/5r3/9/9/9/9/9/9/4K4 w -", "b", "perpetual_check", "ok");
}

#[test]
fn kif_endings_at_the_first_row() {
    expect(
        "scenario3-nyugyoku.kifu",
        0,
        "4K4/9/9/9/9/9/+r+bgggg+b+r1/ssssk4/9 w -",
        "w",
        "entering_king",
        "ok",
    );
    expect("scenario4-hansoku-first.kifu", 0, "4K4/9/9/9/9/9/9/4k4/9 w -", "b", "illegal_move", "ok");
}

#[test]
fn kif_score_annotations_are_comments() {
    let sfen = "ln1g1gsnl/1r1s1k1b1/p1pppp1pp/6p2/1p7/2PP4P/PPB1PPPP1/3R5/LNSGKGSNL b -";
    let (game, _) = expect("book-src03.kifu", 10, sfen, "-", "none", "ok");
    assert!(game.moves.iter().flat_map(|m| &m.comments).any(|c| c.starts_with('#')));
}

#[test]
fn kif_illegal_move_then_hansoku_win() {
    let sfen = "l1g2G1Sl/2G4+N1/p6Np/2k1GS3/P3P3S/1p1pN2PB/2n2PS2/5pRlP/2brK2+l1 b 8P";
    let (game, r) = expect("shogigui-illegal-281.kif", 280, sfen, "w", "illegal_move", "ok");
    assert_eq!(game.moves.len(), 281);
    assert!(r.illegal_ending.is_some());
    let sfen = "lnsgkg1nl/7s1/ppppp+B1pp/9/9/2P3p+b1/PP1PP1N1P/2G3S2/LNS1KG2L b R3Prp";
    expect("mog-017.kif", 26, sfen, "w", "illegal_move", "ok");
}

/// Black, checkmated by move 156 (cshogi: in check, no legal move), writes a move anyway and
/// the record marks it a foul: the mate came first, so White wins by checkmate.
#[test]
fn kif_illegal_move_marked_by_a_comment() {
    let sfen = "l1g3G2/3ks4/pL1p1N2+L/1pGs1p1p1/9/1PP1P1+R2/P2P1PN2/2S1g1+r2/L3K4 b B4Pbs2n3p";
    let (game, _) = expect("mog-014.kif", 156, sfen, "w", "checkmate", "ok");
    assert_eq!(game.ending.unwrap().text, "反則手にて終局");
}

#[test]
fn kif_remarks_after_values() {
    let sfen = "lns1kgsnl/1r1g3b1/ppppppppp/9/9/1P7/P1PPPPPPP/1B5R1/LNSGKGSNL b -";
    let (game, _) = expect("handmade-comment.kifu", 2, sfen, "w", "illegal_move", "ok");
    // Raw headers keep the remark; normalized fields do not.
    assert_eq!(game.header("先手"), Some("Sente-san#コメント3"));
    assert_eq!(game.info.black.unwrap().full, "Sente-san");
    assert_eq!(game.comments, ["歩を突いた。#コメント6"]);
    // A remark after a row is a comment of its move or ending, as is a bookmark (line 9); the
    // remark after the まで line is the ending's too, and the one after 変化 comes before the
    // variation's first move. The remarks on lines of their own and the header line's are
    // notes on the file.
    assert_eq!(game.moves[0].comments, ["#コメント7"]);
    assert_eq!(game.moves[1].comments, ["#コメント8", "&しおり１#コメント9"]);
    assert_eq!(game.ending.as_ref().unwrap().comments, ["#コメント10", "#コメント11"]);
    assert_eq!(game.variations[0].moves[0].comments, ["#コメント13", "#コメント14"]);
}

#[test]
fn kif_bookmarks() {
    let sfen = "lnsgkg1nl/1r5s1/p1pppp1pp/1p4p2/9/2P4P1/PP1PPPP1P/1S5R1/LN1GKGSNL w Bb";
    let (game, _) = expect("shogigui-bookmark.kifu", 7, sfen, "-", "none", "ok");
    // Each `&` line is a comment of the position before it, as written: the file's lines 5,
    // 7, 9 and 21, and 29 in its variation.
    assert_eq!(game.comments, ["&しおり１"]);
    assert_eq!(game.moves[0].comments, ["&しおり２"]);
    assert_eq!(game.moves[1].comments[0], "&角換わりの形");
    assert_eq!((game.moves[1].comments.len(), game.moves[2].comments.len()), (5, 2));
    assert_eq!(game.moves[5].comments, ["&同銀"]);
    assert_eq!(game.variations[0].moves[1].comments, ["&同銀", "強く同銀。"]);
    assert_eq!(game.variations.iter().map(|v| v.ply).collect::<Vec<_>>(), [2]);
    assert_eq!(game.variations[0].variations[0].ply, 2);
    let (broken, _) = expect("shogigui-bookmark-broken-henka.kifu", 7, sfen, "-", "none", "ok");
    assert_eq!(broken.variations.iter().map(|v| v.ply).collect::<Vec<_>>(), [2]);
    assert_eq!(broken.variations[0].variations[0].ply, 2);
}

#[test]
fn kif_windows95_example() {
    expect(
        "kfw95-example.kifu",
        2,
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b -",
        "-",
        "interrupted",
        "ok",
    );
}

#[test]
fn kif_shogi_extend_export() {
    let sfen = "ln7/1kSs5/1+R7/1pps5/1P1pP4/p8/2PP+B1P1P/P1G3RP1/LN3KSNL w BGN5P2glp";
    let (game, _) = expect("shogiextend.kifu", 149, sfen, "b", "checkmate", "ok");
    let white = game.info.white.unwrap();
    assert_eq!((white.name.as_str(), white.title.as_deref()), ("muzudho", Some("1級")));
}

#[test]
fn kif_unknown_handicap_name_is_the_even_game() {
    let sfen = "ln1kB2+Rl/rgsGs+P3/pp1pppp1p/2p6/9/2P6/PP1PPPP1P/1B7/LNSGKGSNL w NP";
    // Resigned in a mated position (cshogi: in check, no legal move): checkmate.
    let (game, _) = expect("floodgate-unknown-handicap.kifu", 23, sfen, "b", "checkmate", "ok");
    assert_eq!(game.header("手合割"), Some("handicap"));
}

#[test]
fn kif_made_up_headers_are_kept() {
    let game = load("handmade-any-game-info.kifu");
    let keys: Vec<&str> = game.headers.iter().map(|h| h.key.as_str()).collect();
    assert_eq!(
        keys,
        ["足合割", "説明しよう", "キーワード１", "キーワード２", "キーワード３", "キーワード４"]
    );
    assert_eq!(game.header("キーワード４"), Some("値４ # コメント４"));
}

#[test]
fn kif_iso_date_and_same_without_space() {
    let sfen = "3p2+Lrl/7+N1/p1+S3+B1p/6p2/1p1P1gkpP/8+r/PP2pPPP1/4G1S2/5GKNs w BGS2NL3Plp";
    let (game, _) = expect("mog-001.kif", 111, sfen, "b", "resign", "ok");
    assert_eq!(game.info.start.unwrap().to_string(), "2017-03-22T01:00:00");
    let black = game.info.black.unwrap();
    assert_eq!((black.name.as_str(), black.title.as_deref()), ("鈴木大介", Some("九段")));
    expect("mog-001.ki2", 111, sfen, "b", "resign", "ok");
}

#[test]
fn kif_time_up() {
    let sfen = "ln2l4/1pkss4/p1p2p2p/3p5/4PPB2/PP1PK4/2g2Gp2/4G4/L2rG1P2 w RBS3NL2Ps3p";
    let (game, _) = expect("mog-002-time-up.kif", 193, sfen, "b", "timeout", "ok");
    assert_eq!((game.moves[0].seconds, game.ending.unwrap().text.as_str()), (Some(7), "Time-up"));
}

const MOG_END: &str = "lnsg1g2l/1r3skb1/ppppppnpp/9/9/9/PPPPPP1PP/1B5R1/LNSGKGSNL b Pp";

#[test]
fn kif_several_variations_at_one_move() {
    let (game, r) = expect("mog-005.kif", 8, MOG_END, "-", "none", "ok");
    assert_eq!(game.variations.iter().map(|v| v.ply).collect::<Vec<_>>(), [7, 7, 7]);
    assert_eq!(r.variations.iter().map(|v| v.moves.len()).collect::<Vec<_>>(), [1, 16, 2]);
}

#[test]
fn kif_variations_repeating_the_main_line() {
    let (game, _) = expect("mog-006.kif", 8, MOG_END, "-", "none", "ok");
    assert_eq!(game.variations.iter().map(|v| v.ply).collect::<Vec<_>>(), [0, 2, 4, 6]);
}

#[test]
fn kif_board_diagram_without_turn_line() {
    let game = load("mog-007.kif");
    let r = kifudex::replay::replay(&game);
    assert_eq!(
        (r.plies(), r.end.position_text().as_str()),
        (13, "6sk+L/9/6+B2/7rP/9/9/9/9/6K2 w rb4g3s4n3l17p")
    );
    assert_eq!(game.info.black.unwrap().full, "Mate in 13");
}

#[test]
fn kif_impasse() {
    let sfen = "3+P1G1+R+B/2+N1K4/1+P1+SGG1+L1/2+R6/P2S5/2G+n1+p+p2/7+p1/3+p+p4/5k3 b B2S2N3L10P";
    expect("mog-010-jishogi.kif", 258, sfen, "d", "impasse", "ok");
}

#[test]
fn kif_first_terminal_row_wins() {
    let sfen = "l4S2l/5bS2/2n1g1p2/p1p1pp2p/3P2k2/PrPg1G2P/1P1n1P1p1/1K2P4/LN6L w RNPbg2s3p";
    let (game, _) = expect("mog-012.kif", 121, sfen, "b", "resign", "ok");
    assert_eq!(game.ending.unwrap().text, "投了");
}

#[test]
fn kif_us_date_in_cp932_with_crlf() {
    let (game, _) =
        expect("mog-013.kif", 0, "4k4/9/9/9/9/9/+p+p+p6/2+p6/K1+p6 b 2r2b4g4s4n4l13p", "-", "none", "ok");
    assert_eq!(game.info.start.unwrap().to_string(), "2018-12-30T22:29:48");
}

#[test]
fn kif_abbreviated_promoted_pieces() {
    let game = load("mog-016.kif");
    let r = kifudex::replay::replay(&game);
    let sfen = "2k+R+L+S2+B/1sg4+N1/lgnppp1pp/1pp3p2/p8/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B";
    assert_eq!((r.plies(), r.end.position_text().as_str()), (37, sfen));
    let sfen = "ln6l/3+R5/1pppp2+r1/p5g1p/1kS3p2/PPP5P/2SPPpPp1/2G1K1S2/LN3PGNL w P2bgsn";
    expect("narigin_abbrev.kif", 81, sfen, "b", "checkmate", "ok");
    let sfen = "+R5+Snl/4b4/4pksp1/p5p1p/6gn1/P5nKP/1P1PPPPP1/4G1Sr1/+b4G1NL b GL4Pslp";
    expect("narikei_abbrev.kif", 118, sfen, "w", "checkmate", "ok");
}

#[test]
fn ki2_several_moves_a_line_without_final_newline() {
    expect(
        "mog-003.ki2",
        34,
        "ln5nl/1r2pk1b1/p1pp1g1pp/4Ppp2/1p7/2P6/PPBP1PPPP/4R1K2/LN1G1GSNL b G3s",
        "-",
        "none",
        "ok",
    );
}

#[test]
fn ki2_hollow_triangle_marks() {
    expect(
        "mog-004.ki2",
        27,
        "lnsg1g1nl/4r4/3k1sbpp/ppppppp2/7P1/PBPPP4/1P2SPP1P/2SR5/LNKG1G1NL w -",
        "-",
        "none",
        "ok",
    );
}

#[test]
fn kif_title_games_of_2025() {
    let sfen = "4+RBSnl/4n2g1/2gs1p1pk/3p2p1p/2S2P1P1/2pP2P1P/L3KG3/1p2N4/4+r3L w BL3Pgsn3p";
    let (game, _) = expect("sbq-oui2025.kif", 151, sfen, "b", "resign", "ok");
    assert!(game.info.event.unwrap().contains("王位戦"));
    let sfen = "l5knl/6gs1/2ng3p1/2pnsrP1p/P2p3P1/1SP1PP2P/pP1SG2R1/2G6/LNK5L b B5Pb";
    expect("sbq-kiou-comments.kif", 96, sfen, "d", "repetition", "ok");
}

#[test]
fn kif_variation_header_with_moku() {
    let sfen = "lnsgkgsnl/1r5b1/p1pppp1pp/6p2/1p5P1/2P6/PP1PPPP1P/1BG4R1/LNS1KGSNL w -";
    let (game, _) = expect("sbq-branch.kif", 7, sfen, "-", "none", "ok");
    assert_eq!(game.variations.iter().map(|v| v.ply).collect::<Vec<_>>(), [2, 4]);
    let (game, _) = expect("sbq-comments.kif", 7, sfen, "-", "none", "ok");
    assert_eq!(game.comments, ["開始局面のコメント"]);
}

#[test]
fn kif_online_games() {
    let sfen = "lr5nl/2kg5/2ns3+B1/2pp4p/Pp3S3/1S2PPP1P/1PP2S3/1KGG5/LN6L b GN2Prb5p";
    expect("wars_game1.kif", 90, sfen, "w", "resign", "ok");
    let sfen = "1l6l/k1+R6/p1s3+P2/3pps1Gp/spp2n3/N4p+b1P/1L1P4N/KGG2P3/1N6L w GPrbs6p";
    expect("habu-fujii-2006.kif", 181, sfen, "b", "resign", "ok");
}

#[test]
fn kif_move_numbers_start_at_two() {
    let sfen = "lnsgkgsnl/1r5b1/pppp1pppp/4p4/9/2P3P2/PP1PPP1PP/1B5R1/LNSGKGSNL w -";
    let (game, _) = expect("bio-KIF_2手目から始まる.kif", 2, sfen, "b", "resign", "ok");
    let Start::Custom(setup) = &game.start else { panic!("a diagram start") };
    assert_eq!((setup.turn, setup.move_number), (Color::White, 2));
    // 'まで5手で先手の勝ち' has the count wrong; its winner agrees.
    assert_eq!(game.ending.unwrap().stated, Some(Outcome::Win(Color::Black)));
}

#[test]
fn kif_move_numbers_are_not_trusted() {
    expect(
        "bio-基本_KIF_手数は見ない.kif",
        2,
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b -",
        "-",
        "none",
        "ok",
    );
}

#[test]
fn kif_other_handicap_with_uwate_to_move() {
    let sfen = "4k4/1r5b1/p1ppppppp/1p7/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -";
    let (game, _) = expect("bio-ぴよ将棋_KIF_その他_八枚落ちトンボ.kif", 2, sfen, "-", "none", "ok");
    assert_eq!(game.info.white.unwrap().full, "Lv17 ひよえ(R910)");
    let (game, _) =
        expect("bio-ぴよ将棋_KIF_その他_王vs飛角.kif", 3, "9/7+R1/2k6/9/9/9/9/1B7/9 b -", "-", "none", "ok");
    assert_eq!(game.moves[0].comments, ["#形勢[1944]△６二玉  ▲２二飛成  "]);
    assert_eq!(game.info.start.unwrap().to_string(), "2022-01-09T14:52:22");
}

#[test]
fn kif_two_pawns_from_a_diagram() {
    expect("bio-基本_KIF_反則_二歩.kif", 2, "4k4/4p4/9/9/9/9/9/4P4/4K4 b P", "-", "none", "stop:3");
}

#[test]
fn kif_bishop_jumping_over_a_pawn() {
    expect(
        "bio-基本_KIF_反則_角ワープ.kif",
        1,
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL w -",
        "-",
        "none",
        "stop:2",
    );
}

const AFTER_76: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -";

#[test]
fn kif_club24_fouls() {
    expect("bio-将棋倶楽部24_KIF_反則1.kif", 1, AFTER_76, "w", "illegal_move", "ok");
    let sfen = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b -";
    expect("bio-将棋倶楽部24_KIF_反則2.kif", 2, sfen, "b", "illegal_move", "ok");
}

#[test]
fn kif_loser_named_out_of_turn() {
    let (game, _) = expect("bio-将棋倶楽部24_KIF_手番外投了反則.kif", 1, AFTER_76, "w", "illegal_move", "ok");
    let ending = game.ending.unwrap();
    assert_eq!((ending.text.as_str(), ending.side), ("先手 反則負け", Some(Color::Black)));
}

#[test]
fn kif_partial_tsume_board() {
    let game = load("bio-柿木将棋_KIF_詰将棋なのに上手下手表記.kif");
    let Start::Custom(setup) = &game.start else { panic!("a diagram start") };
    assert_eq!(setup.to_string(), "8k/9/8G/9/9/9/9/9/9 b G 1");
    let r = kifudex::replay::replay(&game);
    assert_eq!((r.plies(), r.end.position_text().as_str()), (1, "8k/8G/8G/9/9/9/9/9/9 w -"));
    assert_eq!(game.ending, None);
}

#[test]
fn kif_separator_and_analysis_comment() {
    let sfen = "lnsgkg1nl/1r3s1b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b -";
    let (game, _) = expect("bio-激指_KIF_分岐あり.kif", 2, sfen, "-", "none", "ok");
    assert_eq!(game.comments, ["<analyze>0</analyze>"]);
    assert_eq!((game.variations[0].ply, game.variations[0].moves.len()), (2, 2));
}

#[test]
fn ki2_every_marker_form() {
    let sfen = "3+p+p+p1+B+R/3+p1+p1+B+R/3+p+p+p3/9/9/9/3+P+P+P3/3+P1+P3/3+P+P+P3 b 4g4s4n4l2p";
    let (game, _) = expect("bio-基本_KI2_難しい表記多用.ki2", 114, sfen, "w", "resign", "ok");
    assert_eq!(game.header("先手の備考"), Some("飛車不成, 角不成, 居飛車, 相居飛車, 対居飛車, 相居玉"));
}

#[test]
fn ki2_clipboard_export_with_half_width_headers() {
    let sfen = "lnsgkg1nl/1r3s1b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b -";
    let (game, _) = expect("bio-激指定跡道場4_不明_クリップボード書き出し.ki2", 2, sfen, "-", "none", "ok");
    assert_eq!((game.header("先手"), game.header("後手")), (Some("先手"), Some("後手")));
}

#[test]
fn ki2_summary_line_alone_states_the_winner() {
    let game = load("4.ki2");
    let r = kifudex::replay::replay(&game);
    let sfen = "1n5+S1/4S+B1G1/p1g2p2p/1p1pp1p1n/2P2S1k1/P1p3P1R/1PGP2N1P/3S1G3/5K2L w L3Pnp";
    assert_eq!(
        (r.plies(), r.end.position_text().as_str(), r.outcome),
        (102, sfen, Some(Outcome::Win(Color::Black)))
    );
    assert_eq!(game.ending.unwrap().text, "まで102手で下手の勝ち");
}

#[test]
fn ki2_without_ending() {
    let game = load("simple.ki2");
    let r = kifudex::replay::replay(&game);
    assert_eq!(r.plies(), 167);
    assert_eq!(game.ending, None);
}

#[test]
fn kif_every_standard_handicap_name() {
    for h in Handicap::ALL {
        for name in [h.japanese(), h.japanese().trim_end_matches('ち')] {
            let game = &kif::read(&format!("手合割：{name}\n手数----指手---------消費時間--\n"))[0];
            assert_eq!(game.start, Start::Standard(h), "{name}");
        }
    }
}

#[test]
fn kif_unreadable_move_stops_the_main_line() {
    let text = "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六X(27)\n   4 ８四歩(83)\n   5 投了\n\n変化：2手\n   2 ８四歩(83)\n";
    let game = &kif::read(text)[0];
    assert_eq!(game.moves.len(), 2);
    let problem = game.problem.as_ref().unwrap();
    assert_eq!(problem.line, 5);
    assert!(problem.kind.to_string().starts_with("move 3:"), "{problem}");
    assert_eq!(problem.code(), "bad_move_text");
    // Moves 3 and 4 are not kept, but the 投了 row after them is the game's: Black, to move
    // after four moves, resigned.
    assert_eq!(game.unread, 2);
    assert_eq!(game.ending.as_ref().map(|e| (e.termination, e.line)), Some((Termination::Resign, 7)));
    // The variations after the problem are still read.
    assert_eq!(game.variations.len(), 1);
    let r = kifudex::replay::replay(game);
    assert!(matches!(&r.status, Status::Stopped(StopReason::Read(p)) if p.line == 5));
    assert_eq!(r.outcome, Some(Outcome::Win(Color::White)));
    // A row cut short after its number.
    let game = &kif::read("手数----指手--\n   1 ７六歩(77)\n   2")[0];
    assert_eq!((game.moves.len(), game.problem.as_ref().map(|p| p.line)), (1, Some(3)));
    assert_eq!(game.problem.as_ref().map(|p| p.code()), Some("bad_move_text"));
}

#[test]
fn ki2_unreadable_move_stops_the_main_line() {
    let game = &ki2::read("▲７六歩 △３四歩 ▲２六X △８四歩\n▲２五歩\nまで5手で中断\n")[0];
    assert_eq!((game.moves.len(), game.problem.as_ref().map(|p| p.line)), (2, Some(1)));
    // The moves after the unreadable one are counted, and the まで line is the game's.
    assert_eq!(game.unread, 3);
    assert_eq!(game.ending.as_ref().map(|e| (e.termination, e.line)), Some((Termination::Interrupted, 3)));
}

#[test]
fn kif_malformed_diagram_is_a_problem_of_the_game() {
    let text = "後手の持駒：なし\n+---+\n| ・x|一\n+---+\n手数----指手--\n   1 １一玉打\n";
    let game = &kif::read(text)[0];
    assert_eq!((game.moves.len(), game.problem.as_ref().map(|p| p.line)), (0, Some(3)));
    let text = "手合割：その他\n手数----指手--\n   1 ７六歩(77)\n";
    let game = &kif::read(text)[0];
    assert_eq!((game.moves.len(), game.problem.as_ref().map(|p| p.line)), (0, Some(1)));
}

#[test]
fn ki2_an_ending_word_without_a_mark_ends_the_game() {
    // After the third move, on its line or on a line of its own: White, to move, resigned.
    for text in [
        "▲７六歩 △３四歩 ▲２六歩 投了\n",
        "▲７六歩 △３四歩 ▲２六歩\n投了\n",
        "▲７六歩　△３四歩　▲２六歩　投了\n",
    ] {
        let game = &ki2::read(&format!("先手：A\n後手：B\n\n{text}"))[0];
        assert_eq!((game.moves.len(), game.problem.as_ref().map(|p| p.line)), (3, None), "{text}");
        assert!(game.warnings.is_empty(), "{text}: {:?}", game.warnings);
        assert_eq!(game.ending.as_ref().map(|e| e.termination), Some(Termination::Resign), "{text}");
        let r = kifudex::replay::replay(game);
        assert_eq!(r.outcome, Some(Outcome::Win(Color::Black)), "{text}");
    }
}

/// A bookmark or a remark kept as a comment names or notes; unlike a comment about a foul
/// (`*反則手にて終局`), it says no end of the game.
#[test]
fn kif_bookmarks_and_remarks_about_a_foul_end_nothing() {
    for note in ["&反則手", "   2 ３四歩(33)   ( 0:01/00:00:01)#二歩の反則"] {
        let text = format!("手数----指手--\n   1 ７六歩(77)   ( 0:01/00:00:01)\n{note}\n");
        let game = &kif::read(&text)[0];
        assert_eq!(game.ending, None, "{text}");
        let last = game.moves.last().unwrap();
        assert!(last.comments[0].contains("反則"), "{:?}", last.comments);
    }
    let said = &kif::read("手数----指手--\n   1 ７六歩(77)\n*反則手にて終局\n")[0];
    assert!(said.ending.is_some());
}
