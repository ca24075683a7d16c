//! Every example of the notation sources kifudex started from (its seed documents), read and
//! written.
//!
//! The sources' diagrams were lost; each test builds a position that makes its example mean
//! what the text says. Expected moves are worked out by hand from the text.

use kifudex::{
    notation::{MoveToken, ResolveError, Style, read_sequence},
    shogi::{Color, Handicap, Position},
};

use super::{board, mv, read, read_usi, sequence_usi, sq, written};

/// Checks that each text reads as the USI move beside it.
fn reads(pos: &Position, cases: &[(&str, &str)]) {
    for &(text, usi) in cases {
        assert_eq!(read_usi(pos, text, None), usi, "{text}");
    }
}

/// Checks that each USI move is written as the text beside it.
fn writes(pos: &Position, style: Style, cases: &[(&str, &str)]) {
    for &(usi, text) in cases {
        assert_eq!(written(pos, usi, None, style), text, "{usi}");
    }
}

#[test]
fn fifteen_moves_of_aigakari_in_both_notations() {
    // The Russian source's example, in Western and in Japanese notation; worked out by hand.
    // Each ends its sentence with a full stop.
    let usi = [
        "2g2f", "8c8d", "2f2e", "8d8e", "6i7h", "4a3b", "2e2d", "2c2d", "2h2d", "P*2c", "2d2h", "8e8f",
        "8g8f", "8b8f", "P*8g",
    ];
    let start = Position::startpos();
    let western =
        "1.P2f 2.P8d 3.P2e 4.P8e 5.G7h 6.G3b 7.P2d 8.Px 9.Rx 10.P'2c 11.R2h 12.P8f 13.Px 14.Rx 15.P'8g.";
    let japanese = "☗2六歩 ☖8四歩 ☗2五歩 ☖8五歩 ☗7八金 ☖3二金 ☗2四歩 ☖同歩 ☗同飛 ☖2三歩 ☗2八飛 ☖8六歩 ☗同歩 ☖同飛 ☗8七歩.";
    assert_eq!(sequence_usi(&start, western), usi);
    assert_eq!(sequence_usi(&start, japanese), usi);
}

#[test]
fn hodges_and_hosking_name_the_same_pawn_move() {
    let start = Position::startpos();
    reads(&start, &[("P-7f", "7g7f"), ("P76", "7g7f"), ("P26", "2g2f"), ("P-2f", "2g2f")]);
    // "A typical move might be notated P86 or P-8f"; "8六歩 (equivalent to western P-86)".
    reads(&start, &[("P86", "8g8f"), ("P-8f", "8g8f"), ("P-86", "8g8f"), ("8六歩", "8g8f")]);
    writes(&start, Style::Western, &[("7g7f", "P-7f"), ("8g8f", "P-8f")]);
    writes(&start, Style::Hosking, &[("7g7f", "P76"), ("8g8f", "P86")]);
    writes(&start, Style::Japanese, &[("8g8f", "▲８六歩")]);
}

#[test]
fn corners_are_11_top_right_and_99_bottom_left() {
    // 11 (Hodges 1a) is the top right corner from Black's side, 99 (9i) the bottom left: the
    // lances stand there at the start.
    let start = Position::startpos();
    reads(&start, &[("L-98", "9i9h"), ("L-9h", "9i9h"), ("9八香", "9i9h"), ("L-18", "1i1h")]);
    let mut game = start.clone();
    game.play(mv("7g7f")).unwrap();
    reads(&game, &[("L-12", "1a1b"), ("L-1b", "1a1b"), ("1二香", "1a1b"), ("L-92", "9a9b")]);
    writes(&game, Style::Western, &[("1a1b", "L-1b")]);
    writes(&game, Style::Hosking, &[("1a1b", "L12")]);
}

#[test]
fn move_capture_and_drop_symbols() {
    // "P-24 moves one's pawn to 2d without capture, Px24 captures the piece on 24, and P*24
    // drops a pawn in hand on the empty 24."
    let empty = board("K59 k51 P25", "b", "-");
    reads(&empty, &[("P-24", "2e2d"), ("P-2d", "2e2d")]);
    assert_eq!(read(&empty, "Px24", None), Err(ResolveError::NothingToCapture(sq("2d"))));
    writes(&empty, Style::Hosking, &[("2e2d", "P24")]);
    let capture = board("K59 k51 P25 p24", "b", "-");
    reads(&capture, &[("Px24", "2e2d"), ("Px2d", "2e2d")]);
    writes(&capture, Style::Hosking, &[("2e2d", "Px24")]);
    writes(&capture, Style::Western, &[("2e2d", "Px2d")]);
    let drop = board("K59 k51", "b", "P");
    reads(&drop, &[("P*24", "P*2d"), ("P'24", "P*2d"), ("P*2d", "P*2d")]);
    writes(&drop, Style::Hosking, &[("P*2d", "P'24")]);
    writes(&drop, Style::Western, &[("P*2d", "P*2d")]);
}

#[test]
fn three_golds_reaching_78() {
    // Golds on 7七, 6八 and 7九 can all go to 7八.
    let p = board("K59 k51 G77 G68 G79", "b", "-");
    let cases =
        [("7g7h", "G77-78", "７八金引"), ("6h7h", "G68-78", "７八金寄"), ("7i7h", "G79-78", "７八金上")];
    for (usi, western, japanese) in cases {
        assert_eq!(read_usi(&p, western, None), usi);
        assert_eq!(read_usi(&p, japanese, None), usi);
        assert_eq!(written(&p, usi, None, Style::Hosking), western);
        assert_eq!(written(&p, usi, None, Style::Japanese), format!("▲{japanese}"));
    }
    assert_eq!(written(&p, "7g7h", None, Style::Western), "G7g-7h");
    for vague in ["G-78", "7八金"] {
        let Err(ResolveError::Ambiguous(candidates)) = read(&p, vague, None) else {
            panic!("{vague} should be ambiguous");
        };
        assert_eq!(candidates.len(), 3, "{vague}");
    }
}

#[test]
fn two_pieces_told_apart_by_their_origin() {
    // The Hodges source's example in its own variant: two pieces on 6i and 5i can both go to
    // 5h, "distinguished as 6i-5h (moving the left one) and 5i-5h (moving the right one)". Here
    // with golds, which Japanese tells apart as 左 and 直.
    let p = board("K19 k51 G69 G59", "b", "-");
    reads(&p, &[("G6i-5h", "6i5h"), ("G5i-5h", "5i5h"), ("G69-58", "6i5h"), ("G59-58", "5i5h")]);
    writes(&p, Style::Western, &[("6i5h", "G6i-5h"), ("5i5h", "G5i-5h")]);
    writes(&p, Style::Hosking, &[("6i5h", "G69-58"), ("5i5h", "G59-58")]);
    writes(&p, Style::Japanese, &[("6i5h", "▲５八金左"), ("5i5h", "▲５八金直")]);
    assert!(matches!(read(&p, "G-5h", None), Err(ResolveError::Ambiguous(ref c)) if c.len() == 2));
    // From the start, P-7f P-3d P-2f (the source's opening) reads as written.
    assert_eq!(sequence_usi(&Position::startpos(), "1. P-7f P-3d 2. P-2f"), ["7g7f", "3c3d", "2g2f"]);
}

#[test]
fn bishops_up_and_down() {
    // Bishops on 4四 (coming down to 6六) and 8八 (going up).
    let p = board("K59 k51 B44 B88", "b", "-");
    reads(&p, &[("6六角引", "4d6f"), ("6六角上", "8h6f")]);
    writes(&p, Style::Japanese, &[("4d6f", "▲６六角引"), ("8h6f", "▲６六角上")]);
}

#[test]
fn dragon_and_horse_write_up_as_go_or_enter() {
    // Dragons on 5八 (going up to 5五) and 5二 (coming down); horses on 7七 and 3三.
    let p = board("K99 k91 +R58 +R52", "b", "-");
    reads(
        &p,
        &[
            ("5五龍上", "5h5e"),
            ("5五龍行", "5h5e"),
            ("5五龍入", "5h5e"),
            ("5五竜行", "5h5e"),
            ("5五龍引", "5b5e"),
        ],
    );
    writes(&p, Style::Japanese, &[("5h5e", "▲５五龍上"), ("5b5e", "▲５五龍引")]);
    let p = board("K99 k91 +B77 +B33", "b", "-");
    reads(&p, &[("5五馬行", "7g5e"), ("5五馬入", "7g5e"), ("5五馬引", "3c5e")]);
    // "Not 5五金行 or 5五金入".
    for text in ["5五金行", "5五金入", "5五銀入", "5五飛行", "5五角入"] {
        assert!(MoveToken::parse(text).is_err(), "{text}");
    }
    // The Russian source lists 行 as the advance of the bishop or the horse: 角行 is read as
    // 角上 (and never written).
    let p = board("K99 k91 B77 B33", "b", "-");
    reads(&p, &[("5五角行", "7g5e"), ("5五角上", "7g5e"), ("5五角引", "3c5e")]);
    writes(&p, Style::Japanese, &[("7g5e", "▲５五角上")]);
}

#[test]
fn silvers_right_and_left() {
    let p = board("K59 k51 S68 S48", "b", "-");
    reads(&p, &[("5七銀右", "4h5g"), ("5七銀左", "6h5g")]);
    writes(&p, Style::Japanese, &[("4h5g", "▲５七銀右"), ("6h5g", "▲５七銀左")]);
}

#[test]
fn right_and_left_are_the_movers_own() {
    // △5二金右 is White's right: the gold on 6一, on Black's left.
    let p = board("K59 k91 g61 g41", "w", "-");
    reads(&p, &[("△5二金右", "6a5b"), ("△5二金左", "4a5b")]);
    writes(&p, Style::Japanese, &[("6a5b", "△５二金右"), ("4a5b", "△５二金左")]);
    // The text speaks of "the silver on the right from White's perspective": the same with
    // silvers.
    let p = board("K59 k91 s61 s41", "w", "-");
    reads(&p, &[("△5二銀右", "6a5b"), ("△5二銀左", "4a5b")]);
    writes(&p, Style::Japanese, &[("6a5b", "△５二銀右"), ("4a5b", "△５二銀左")]);
    // The diagram "player's perspective": ☗5八右 ☖5二右, each the mover's right-hand gold,
    // from the start position (the piece is left out in the caption).
    let start = Position::startpos();
    assert_eq!(sequence_usi(&start, "☗5八右 ☖5二右"), ["4i5h", "6a5b"]);
    assert_eq!(sequence_usi(&start, "☗5八金右 ☖5二金右"), ["4i5h", "6a5b"]);
}

#[test]
fn three_golds_left_straight_right() {
    let p = board("K59 k51 G66 G56 G46", "b", "-");
    reads(&p, &[("5五金左", "6f5e"), ("5五金直", "5f5e"), ("5五金右", "4f5e")]);
    writes(&p, Style::Japanese, &[("6f5e", "▲５五金左"), ("5f5e", "▲５五金直"), ("4f5e", "▲５五金右")]);
}

#[test]
fn three_gold_like_promoted_pieces_left_straight_right() {
    // "Golds and silvers as well as promoted pieces with gold-like movements (成銀, 成桂, 成香,
    // と)" may be three-way ambiguous going up: 左, 直, 右.
    for (letter, name) in [("+S", "成銀"), ("+N", "成桂"), ("+L", "成香"), ("+P", "と"), ("S", "銀")]
    {
        let p = board(&format!("K59 k51 {letter}66 {letter}56 {letter}46"), "b", "-");
        let cases = [("6f5e", "左"), ("5f5e", "直"), ("4f5e", "右")];
        for (usi, word) in cases {
            let text = format!("５五{name}{word}");
            assert_eq!(read_usi(&p, &text, None), usi, "{text}");
            assert_eq!(written(&p, usi, None, Style::Japanese), format!("▲{text}"), "{usi}");
        }
        let vague = format!("5五{name}");
        assert!(matches!(read(&p, &vague, None), Err(ResolveError::Ambiguous(ref c)) if c.len() == 3));
    }
}

#[test]
fn straight_is_for_golds_and_silvers() {
    // Silvers on 6七 and 5七 can go to 5六; dragons on 6四 and 5五 to 5三. The piece going
    // straight up is a silver 直 but a dragon 右.
    let p = board("K59 k91 S67 S57 +R64 +R55", "b", "-");
    reads(&p, &[("5六銀左", "6g5f"), ("5六銀直", "5g5f"), ("5三龍左", "6d5c"), ("5三龍右", "5e5c")]);
    writes(
        &p,
        Style::Japanese,
        &[("6g5f", "▲５六銀左"), ("5g5f", "▲５六銀直"), ("6d5c", "▲５三龍左"), ("5e5c", "▲５三龍右")],
    );
    // "直 tends to be used even when 右 and 左 would suffice": 右 is read too.
    reads(&p, &[("5六銀右", "5g5f")]);
}

#[test]
fn silver_retreats_and_promotes_on_83() {
    // Silvers on 7二 (coming down to 8三) and 8四 (going up). ☗8三銀引成 is S72-83+ when 8三 is
    // empty and S72x83+ when it holds a piece.
    for (pieces, western, hodges) in
        [("K59 k51 S72 S84", "S72-83+", "S7b-8c+"), ("K59 k51 S72 S84 p83", "S72x83+", "S7bx8c+")]
    {
        let p = board(pieces, "b", "-");
        reads(&p, &[("☗8三銀引成", "7b8c+"), (western, "7b8c+"), (hodges, "7b8c+")]);
        writes(&p, Style::Japanese, &[("7b8c+", "▲８三銀引成")]);
        writes(&p, Style::Hosking, &[("7b8c+", western)]);
        writes(&p, Style::Western, &[("7b8c+", hodges)]);
    }
    // Hyphen for a capture is accepted; x onto an empty square is not.
    let p = board("K59 k51 S72 S84 p83", "b", "-");
    reads(&p, &[("S72-83+", "7b8c+")]);
    let p = board("K59 k51 S72 S84", "b", "-");
    assert_eq!(read(&p, "S72x83+", None), Err(ResolveError::NothingToCapture(sq("8c"))));
}

#[test]
fn knight_promotes_or_not() {
    let p = board("K59 k51 N65", "b", "-");
    reads(
        &p,
        &[
            ("N-73+", "6e7c+"),
            ("N-73=", "6e7c"),
            ("N-7c=", "6e7c"),
            ("7三桂成", "6e7c+"),
            ("7三桂不成", "6e7c"),
            ("7三桂生", "6e7c"),
        ],
    );
    writes(&p, Style::Western, &[("6e7c+", "N-7c+"), ("6e7c", "N-7c=")]);
    writes(&p, Style::Hosking, &[("6e7c+", "N73+"), ("6e7c", "N73=")]);
    writes(&p, Style::Japanese, &[("6e7c+", "▲７三桂成"), ("6e7c", "▲７三桂不成")]);
    // Nx73= and Nx73+: capturing on 7三.
    let p = board("K59 k51 N65 p73", "b", "-");
    reads(&p, &[("Nx73=", "6e7c"), ("Nx73+", "6e7c+")]);
    writes(&p, Style::Hosking, &[("6e7c", "Nx73="), ("6e7c+", "Nx73+")]);
    // The Hodges source's "Nx7c= indicates a knight capturing on 7c without promoting".
    reads(&p, &[("Nx7c=", "6e7c"), ("Nx7c+", "6e7c+")]);
    writes(&p, Style::Western, &[("6e7c", "Nx7c="), ("6e7c+", "Nx7c+")]);
}

#[test]
fn recaptures_on_24() {
    // Black's pawn on 2五 goes to 2四; White's pawn on 2三 takes; Black's bishop (4六), White's
    // bishop (3三) and Black's rook (2八) take in turn.
    let p = board("K59 k51 P25 B46 R28 p23 b33", "b", "-");
    let usi = ["2e2d", "2c2d", "4f2d", "3c2d", "2h2d"];
    assert_eq!(sequence_usi(&p, "☗2四歩 ☖同歩 ☗同角 ☖同角 ☗同飛"), usi);
    assert_eq!(sequence_usi(&p, "1.P-24 Px24 2.Bx24 Bx24 3.Rx24"), usi);
    assert_eq!(sequence_usi(&p, "☗2四歩 ☖2四同歩 ☗仝角 ☖同　角 ☗24同飛"), usi);
    let mut game = p.clone();
    let mut japanese = Vec::new();
    let mut previous = None;
    for m in usi {
        japanese.push(written(&game, m, previous, Style::Japanese));
        game.play(m.parse().unwrap()).unwrap();
        previous = Some(sq(&m[2..4]));
    }
    assert_eq!(japanese, ["▲２四歩", "△同　歩", "▲同　角", "△同　角", "▲同　飛"]);
    let mut game = p.clone();
    let mut hosking = Vec::new();
    for m in usi {
        hosking.push(written(&game, m, None, Style::Hosking));
        game.play(mv(m)).unwrap();
    }
    assert_eq!(hosking, ["P24", "Px24", "Bx24", "Bx24", "Rx24"]);
}

#[test]
fn handicap_games_start_with_an_ellipsis() {
    // In a handicap game White moves first: 1...G-32 2.P-76 G-72 (here in 二枚落ち).
    let start = Position::handicap(Handicap::TwoPieces);
    assert_eq!(sequence_usi(&start, "1...G-32 2.P-76 G-72"), ["4a3b", "7g7f", "6a7b"]);
    assert_eq!(sequence_usi(&start, "1. ... G-32 2. P-76 G-72"), ["4a3b", "7g7f", "6a7b"]);
}

#[test]
fn numbered_pairs_and_numbered_plies() {
    let start = Position::startpos();
    let usi = ["7g7f", "3c3d", "2g2f", "4c4d", "3i4h", "3a3b"];
    assert_eq!(sequence_usi(&start, "1.P-76 P-34 2.P-26 P-44 3.S-48 S-32"), usi);
    assert_eq!(sequence_usi(&start, "1. P-7f P-3d 2. P-2f P-4d 3. S-4h S-3b"), usi);
    assert_eq!(sequence_usi(&start, "P-76 ...P-34 P-26 ...P-44"), usi[..4]);
    // "...P-55 indicates a move by White while P-55 indicates a move by Black."
    let e = read_sequence(&start, "...P-76").unwrap_err();
    assert_eq!(
        e.to_string(),
        "move 1 (P-76, black to move): the move is marked for white, but it is black's turn"
    );
    let e = read_sequence(&start, "1.P-76 P-34 2...P-26").unwrap_err();
    assert_eq!((e.place, e.turn), (3, Color::Black));
    assert_eq!(sequence_usi(&start, "1.P-76 1...P-34"), usi[..2]);
    assert_eq!(sequence_usi(&start, "1.P-76! P-34?! 2.P-26?? P-44!!"), usi[..4]);
}

#[test]
fn side_marks_with_and_without_spaces() {
    let start = Position::startpos();
    let usi = ["7g7f", "3c3d", "2g2f", "4a3b"];
    for text in [
        "▲7六歩△3四歩▲2六歩△3二金",
        "☗7六歩☖3四歩☗2六歩☖3二金",
        "7六歩 3四歩 2六歩 3二金",
        "７六歩３四歩２六歩３二金",
    ] {
        assert_eq!(sequence_usi(&start, text), usi, "{text}");
    }
}

#[test]
fn coordinates_in_every_form() {
    let start = Position::startpos();
    reads(
        &start,
        &[("7六歩", "7g7f"), ("７六歩", "7g7f"), ("76歩", "7g7f"), ("七六歩", "7g7f"), ("☗26歩", "2g2f")],
    );
    reads(&start, &[("2六兵", "2g2f"), ("5八王", "5i5h"), ("5八玉", "5i5h"), ("5八○", "5i5h")]);
}

#[test]
fn edo_period_forms() {
    // "Earlier, only Japanese numerals were used for both file and rank", and "in older books
    // of the Edo period, the notation may be written from right to left": 歩六七 is 七六歩.
    // (Vertical writing puts the same characters in the same order.)
    let start = Position::startpos();
    reads(&start, &[("七六歩", "7g7f"), ("歩六七", "7g7f"), ("歩六七▲", "7g7f"), ("右金八五", "4i5h")]);
    assert_eq!(sequence_usi(&start, "歩六七 歩四三"), ["7g7f", "3c3d"]);
    let p = board("K59 k51 S72 S84", "b", "-");
    reads(&p, &[("成引銀三八", "7b8c+")]);
}

#[test]
fn drops() {
    // A bishop in hand: Hosking B'56 is Hodges B*5f.
    let p = board("K59 k51", "b", "B");
    reads(
        &p,
        &[("B'56", "B*5f"), ("B*5f", "B*5f"), ("B’56", "B*5f"), ("5六角", "B*5f"), ("5六角打", "B*5f")],
    );
    writes(&p, Style::Western, &[("B*5f", "B*5f")]);
    writes(&p, Style::Hosking, &[("B*5f", "B'56")]);
    // 打 only when a piece on the board could also go there: P*23 is plain 2三歩 here...
    let p = board("K59 k51", "b", "P");
    writes(&p, Style::Japanese, &[("P*2c", "▲２三歩")]);
    reads(&p, &[("2三歩", "P*2c"), ("P*23", "P*2c"), ("P*24", "P*2d"), ("P'2c", "P*2c")]);
    // ...but with a gold on the board that can reach 5五, dropping a gold needs 打.
    let p = board("K59 k51 G56", "b", "G");
    writes(&p, Style::Japanese, &[("G*5e", "▲５五金打"), ("5f5e", "▲５五金")]);
    reads(&p, &[("5五金打", "G*5e"), ("5五金", "5f5e")]);
}

#[test]
fn promoted_pieces_and_81dojo_letters() {
    let p = board("K59 k51 +P57 +R28 +B88", "b", "-");
    reads(&p, &[("+P-56", "5g5f"), ("T-56", "5g5f"), ("5六と", "5g5f"), ("+R-24", "2h2d"), ("D-24", "2h2d")]);
    reads(
        &p,
        &[("+B-66", "8h6f"), ("H-66", "8h6f"), ("2四龍", "2h2d"), ("2四竜", "2h2d"), ("6六馬", "8h6f")],
    );
    writes(&p, Style::Western, &[("5g5f", "+P-5f"), ("2h2d", "+R-2d")]);
    writes(&p, Style::Japanese, &[("5g5f", "▲５六と"), ("2h2d", "▲２四龍"), ("8h6f", "▲６六馬")]);
    let p = board("K59 k51 +L17 +N27 +S37", "b", "-");
    reads(
        &p,
        &[("1六成香", "1g1f"), ("1六杏", "1g1f"), ("2六成桂", "2g2f"), ("2六圭", "2g2f"), ("3六全", "3g3f")],
    );
    writes(&p, Style::Japanese, &[("1g1f", "▲１六成香"), ("2g2f", "▲２六成桂"), ("3g3f", "▲３六成銀")]);
}

#[test]
fn interposed_drops() {
    // White's rook on 5一 checks Black's king on 5九; 5八合 interposes whatever is in hand.
    let p = board("K59 k91 r51", "b", "P");
    reads(&p, &[("5八合", "P*5h"), ("5八歩合", "P*5h"), ("5八歩", "P*5h")]);
    let p = board("K59 k91 r51", "b", "PS");
    assert!(matches!(read(&p, "5八合", None), Err(ResolveError::Ambiguous(ref c)) if c.len() == 2));
    reads(&p, &[("5八銀合", "S*5h")]);
}

#[test]
fn shorthand_symbols() {
    let start = Position::startpos();
    for pawn in ["丶", "フ", "ゝ", "・"] {
        reads(&start, &[(&format!("7六{pawn}"), "7g7f")]);
    }
    reads(
        &start,
        &[("9八キ", "9i9h"), ("9八禾", "9i9h"), ("9八↑", "9i9h"), ("7八人", "6i7h"), ("5八○", "5i5h")],
    );
    reads(&start, &[("1八ヒ", "2h1h"), ("1八乙", "2h1h"), ("3八ヨ", "3i3h")]);
    let p = board("K59 k51 N65 +R28 +B88", "b", "-");
    reads(
        &p,
        &[
            ("7三土ナ", "6e7c+"),
            ("7三土フナ", "6e7c"),
            ("7三土不ナ", "6e7c"),
            ("2四立", "2h2d"),
            ("2四リ", "2h2d"),
        ],
    );
    reads(&p, &[("6六マ", "8h6f"), ("6六ウ", "8h6f")]);
    let p = board("K59 k51 B88", "b", "-");
    reads(&p, &[("6六ク", "8h6f")]);
    // - for 同.
    let mut game = Position::startpos();
    game.play("7g7f".parse().unwrap()).unwrap();
    game.play("3c3d".parse().unwrap()).unwrap();
    game.play("8h2b+".parse().unwrap()).unwrap();
    assert_eq!(read_usi(&game, "-ヨ", Some(sq("2b"))), "3a2b");
}

#[test]
fn game_end_words_are_not_moves() {
    let start = Position::startpos();
    for end in ["投了", "千日手", "持将棋", "反則手"] {
        assert_eq!(sequence_usi(&start, &format!("▲７六歩 △３四歩 {end}")), ["7g7f", "3c3d"], "{end}");
    }
}

/// A record writes the ending in the turn of the side it is said by (`△投了`), and may run it
/// into the move before it, as KI2 does; the words are those a KIF record ends with.
#[test]
fn game_end_words_with_a_side_mark_are_not_moves() {
    let start = Position::startpos();
    for end in
        ["△投了", "▽投了", "△詰み", "△反則負け", "△切れ負け", "△時間切れ", "△不戦敗", "△中断", "千日手"]
    {
        assert_eq!(sequence_usi(&start, &format!("▲７六歩 {end}")), ["7g7f"], "{end}");
        assert_eq!(sequence_usi(&start, &format!("▲７六歩{end}")), ["7g7f"], "{end}");
        let e = read_sequence(&start, &format!("▲７六歩 {end} △３四歩")).unwrap_err();
        assert_eq!((e.place, e.text.as_str()), (2, "△３四歩"), "{end}");
    }
}

/// CSA's ending words (`%TORYO`), the times it writes after a move (`+7776FU,T10`) and
/// KIF's closing summary (`まで2手で後手の勝ち`) are what records end with, not moves.
#[test]
fn csa_and_kif_endings_and_csa_times_are_not_moves() {
    let start = Position::startpos();
    for end in ["%TORYO", "%CHUDAN", "%SENNICHITE", "%TSUMI", "%KACHI", "%HIKIWAKE", "%+ILLEGAL_ACTION"] {
        assert_eq!(sequence_usi(&start, &format!("+7776FU -3334FU {end}")), ["7g7f", "3c3d"], "{end}");
        let e = read_sequence(&start, &format!("+7776FU {end} -3334FU")).unwrap_err();
        assert_eq!((e.place, e.text.as_str()), (2, "-3334FU"), "{end}");
    }
    assert_eq!(sequence_usi(&start, "+7776FU,T10\n-3334FU,T9.5\n%TORYO,T3"), ["7g7f", "3c3d"]);
    assert_eq!(sequence_usi(&start, "▲７六歩 △３四歩 まで2手で後手の勝ち"), ["7g7f", "3c3d"]);
    // A word like them that is not one is still an error in its place.
    for word in ["%RESIGN", "T", "T1.", "T-1", "TT10"] {
        let e = read_sequence(&start, &format!("+7776FU,{word}")).unwrap_err();
        assert_eq!((e.place, e.text.as_str()), (2, word), "{word}");
    }
    // Nor is a time one but after a CSA move and a comma: `T10` apart, or after another
    // notation's move, is a word of its own (`T55` is a Hosking move of a tokin, 81Dojo's `T`).
    for text in ["+7776FU T10", "7g7f,T10", "▲７六歩,T10"] {
        let e = read_sequence(&start, text).unwrap_err();
        assert_eq!((e.place, e.text.as_str()), (2, "T10"), "{text}");
    }
}

#[test]
fn a_move_after_the_game_ended_is_an_error_not_a_move() {
    let start = Position::startpos();
    for end in ["投了", "resign", "1-0", "0-1", "1/2-1/2", "*", "詰み"] {
        let e = read_sequence(&start, &format!("7g7f 3c3d {end} 2g2f")).unwrap_err();
        assert_eq!((e.place, e.text.as_str()), (3, "2g2f"), "{end}");
        assert_eq!(e.to_string(), "move 3 (2g2f, black to move): a move after the game ended", "{end}");
        // A glyph, a move number or another ending word after it is no move.
        assert_eq!(
            sequence_usi(&start, &format!("7g7f $1 3c3d {end} $2 2. 投了")),
            ["7g7f", "3c3d"],
            "{end}"
        );
    }
    let e = read_sequence(&start, "▲７六歩 投了 △３四歩").unwrap_err();
    assert_eq!((e.place, e.text.as_str()), (2, "△３四歩"));
}
