//! Yari shogi records: Western text (Hodges and Hosking) and USI-like lines, read and written;
//! the variant found from a tag, an SFEN or the moves.

use kifudex::{
    kifu::{self, Format, Game, MoveEntry, Start},
    notation::{MoveToken, Style},
    replay::{self, Status},
    shogi::{Move, Setup, Variant},
};

use super::start;
use crate::util::{Rng, random_playout};

/// A yari game of these moves from the yari start, as a reader would give it.
fn game_of(moves: &[Move]) -> Game {
    Game {
        start: Start::Custom(Setup::start(Variant::Yari)),
        moves: moves
            .iter()
            .map(|&mv| MoveEntry { token: MoveToken::Usi(mv), line: 1, seconds: None, comments: Vec::new() })
            .collect(),
        ..Game::default()
    }
}

fn read_one(format: Format, text: &str) -> Game {
    let mut games = kifu::read(format, text);
    assert_eq!(games.len(), 1, "{text}");
    games.remove(0)
}

/// Every generated game, written in Hodges, in Hosking and in the USI-like form, reads back
/// (with its format and variant found from the text alone) to the same moves.
#[test]
fn generated_games_round_trip_in_every_yari_form() {
    let mut rng = Rng::new(2024);
    let mut plies = 0;
    for _ in 0..300 {
        let mut p = start();
        let mut moves = Vec::new();
        let length = 20 + rng.below(180);
        random_playout(&mut p, &mut rng, length, |_, mv| moves.push(mv));
        plies += moves.len();
        let game = game_of(&moves);
        let replayed = replay::replay(&game);
        assert_eq!(replayed.status, Status::Complete);
        assert_eq!(replayed.moves, moves);
        for (name, text) in [
            ("Hodges", kifudex::write::western::write_in(&game, &replayed, Style::Western)),
            ("Hosking", kifudex::write::western::write_in(&game, &replayed, Style::Hosking)),
            ("USI-like", kifudex::write::write(Format::Usi, &game, &replayed)),
        ] {
            let parsed =
                kifu::read_file(None, text.as_bytes()).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
            assert_eq!(parsed.games.len(), 1);
            let again = &parsed.games[0];
            assert_eq!(again.start.variant(), Variant::Yari, "{name}");
            let back = replay::replay(again);
            assert_eq!(back.status, Status::Complete, "{name}:\n{text}");
            assert_eq!(back.moves, moves, "{name}:\n{text}");
            assert_eq!(back.keys, replayed.keys, "{name}");
        }
    }
    assert!(plies > 20_000, "{plies} plies");
}

#[test]
fn the_variant_tag_and_players() {
    let text = "[Variant \"Yari shogi\"]\n[Black \"Alice\"]\n[White \"Bob\"]\n[Date \"2024.05.01\"]\n\
                [Result \"1-0\"]\n\n1. P-7f P-3d 2. G-4h G-4b 1-0\n";
    let game = read_one(Format::Western, text);
    assert_eq!(game.start, Start::Custom(Setup::start(Variant::Yari)));
    assert_eq!(game.info.black.as_ref().map(|p| p.name.as_str()), Some("Alice"));
    assert_eq!(game.info.white.as_ref().map(|p| p.name.as_str()), Some("Bob"));
    let replayed = replay::replay(&game);
    let usi: Vec<String> = replayed.moves.iter().map(ToString::to_string).collect();
    assert_eq!(usi, ["7g7f", "3c3d", "4i4h", "4a4b"], "G is the general");
    let written = kifudex::write::western::write(&game, &replayed);
    assert!(
        written.starts_with(
            "[Variant \"Yari shogi\"]\n[Date \"2024.05.01\"]\n[Black \"Alice\"]\n[White \"Bob\"]\n"
        ),
        "{written}"
    );
    assert!(written.contains("1. P-7f P-3d 2. G-4h G-4b 1-0"), "{written}");
    assert_eq!(written.matches("[Variant").count(), 1);
}

/// Without a tag, a move naming a yari piece makes the game yari shogi's, and the moves before
/// it are read again as yari moves (`G` is then the general).
#[test]
fn the_variant_from_the_moves() {
    let game = read_one(Format::Western, "1. G-4h G-4b 2. YB6i-5h YB2a-3b\n");
    assert_eq!(game.start.variant(), Variant::Yari);
    let usi: Vec<String> = replay::replay(&game).moves.iter().map(ToString::to_string).collect();
    assert_eq!(usi, ["4i4h", "4a4b", "6i5h", "2a3b"]);
    // Pawn moves alone are shogi's, unless the reader is told otherwise.
    assert_eq!(read_one(Format::Western, "1. P-7f P-3d\n").start.variant(), Variant::Standard);
    let games = kifu::western::read_as("1. P-7f P-3d\n", Some(Variant::Yari));
    assert_eq!(games[0].start.variant(), Variant::Yari);
    assert!(kifu::looks_like(Format::Western, "1. YB6i-5h"));
}

#[test]
fn a_seven_file_sfen_is_yari_shogi() {
    let sfen = "1nnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR w - 1";
    let game = read_one(Format::Western, &format!("[SFEN \"{sfen}\"]\n\n1... P-3d 2. P-7f\n"));
    let replayed = replay::replay(&game);
    assert_eq!(replayed.status, Status::Complete);
    let written = kifudex::write::western::write(&game, &replayed);
    assert!(written.contains(&format!("[SFEN \"{sfen}\"]")), "{written}");
    assert!(written.contains("1... P-3d 2. P-7f"), "White moves first: {written}");
    let usi = read_one(Format::Usi, &format!("position sfen {sfen} moves 3c3d 7g7f\n"));
    assert_eq!(usi.start.variant(), Variant::Yari);
    assert_eq!(replay::replay(&usi).moves, replayed.moves);
    // `startpos` is the yari start only when the reader is told the game.
    let yari = kifu::usi::read_as("startpos moves 7g7f\n", Some(Variant::Yari));
    assert_eq!(yari[0].start.variant(), Variant::Yari);
    assert_eq!(kifu::usi::read("startpos moves 7g7f\n")[0].start.variant(), Variant::Standard);
}

/// A `[Handicap]` tag that names the even game (`Even`, `none`, `平手`), as tools that write
/// every tag put on any record, says no handicap: it neither makes a yari game shogi's nor
/// loses it. Only a real handicap is refused (below).
#[test]
fn an_even_handicap_tag_is_no_handicap_in_yari_shogi() {
    let sfen = "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1";
    for (text, usi) in [
        ("[Variant \"Yari shogi\"]\n[Handicap \"Even\"]\n\n1. P-7f P-3d\n", "7g7f 3c3d"),
        ("[Handicap \"平手\"]\n[Variant \"yari\"]\n\n1. P-7f P-3d\n", "7g7f 3c3d"),
        ("[Handicap \"none\"]\n\n1. P-7f P-3d 2. YB6i-5h\n", "7g7f 3c3d 6i5h"),
        (&format!("[Handicap \"Even\"]\n[SFEN \"{sfen}\"]\n\n1. P-7f\n"), "7g7f"),
    ] {
        let game = read_one(Format::Western, text);
        assert_eq!(game.problem.as_ref().map(ToString::to_string), None, "{text}");
        assert_eq!(game.start, Start::Custom(Setup::start(Variant::Yari)), "{text}");
        let replayed = replay::replay(&game);
        assert_eq!(replayed.status, Status::Complete, "{text}");
        let moves: Vec<String> = replayed.moves.iter().map(ToString::to_string).collect();
        assert_eq!(moves.join(" "), usi, "{text}");
    }
    // On a shogi game the tag is what it always was.
    let shogi = read_one(Format::Western, "[Handicap \"Even\"]\n\n1. P-7f P-3d\n");
    assert_eq!(shogi.start.variant(), Variant::Standard);
    assert_eq!(shogi.problem, None);
}

#[test]
fn contradictions_stop_the_game_with_the_reason() {
    for (text, why) in [
        (
            "[Variant \"Yari shogi\"]\n[SFEN \"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\"]\n\nP-7f\n",
            "line 2: the game is yari shogi, but its SFEN is shogi",
        ),
        (
            "[Variant \"Chu shogi\"]\n\nP-7f\n",
            "line 1: unknown variant 'Chu shogi' (kifudex plays shogi and yari shogi)",
        ),
        (
            "[Variant \"Yari shogi\"]\n[Handicap \"2-piece\"]\n\nP-7f\n",
            "line 2: there are no yari shogi handicaps (give the start as a seven-file [SFEN])",
        ),
        (
            "[Variant \"Shogi\"]\n\nYB6i-5h\n",
            "line 3: cannot read move 'YB6i-5h': YN, YB and YR are yari shogi pieces, not shogi's",
        ),
    ] {
        let game = read_one(Format::Western, text);
        let problem = game.problem.as_ref().map(ToString::to_string);
        assert_eq!(problem.as_deref(), Some(why), "{text}");
    }
    let forced = kifu::western::read_as("[Variant \"Yari shogi\"]\n\nP-7f\n", Some(Variant::Standard));
    assert!(forced[0].problem.is_some());
    // 平手 names the even game of any game: asked for yari shogi, the record is a yari game.
    let asked = kifu::read_file_as(
        None,
        "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n".as_bytes(),
        Some(Variant::Yari),
    )
    .expect("a KIF record holds yari shogi");
    assert_eq!(asked.games[0].start.variant(), Variant::Yari);
    assert!(matches!(
        kifu::read_file_as(None, "PI\n+\n+7776FU\n".as_bytes(), Some(Variant::Yari)),
        Err(kifu::FileError::WrongVariant { format: Format::Csa, variant: Variant::Yari })
    ));
}
