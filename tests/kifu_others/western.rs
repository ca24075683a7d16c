//! Western game text: tags, numbered Hodges moves, comments, results.
//!
//! The replayed results come from the corpus expectations, worked out by hand (no oracle
//! reads PSN).

use kifudex::{
    kifu::{self, Format, Game, Outcome, Start, Termination, western},
    replay::replay,
    shogi::{Color, Handicap},
};

use super::{expect, only_game, tokens};

/// Checks the replayed game once Western moves resolve.
#[track_caller]
fn replays_to(game: &Game, plies: usize, end: &str, winner: &str, termination: &str) {
    expect(&replay(game), plies, end, winner, termination);
}

#[test]
fn psn_numbering_glitch_and_drops_written_with_at() {
    // `61. P4dx4c+ 52. S4bx4c 63. B@6a`: numbers are skipped, not trusted.
    let game = only_game(Format::Western, "western/numbered_no_tags_at_drops.psn");
    let moves = tokens(&game);
    assert_eq!(moves.len(), 85);
    assert_eq!(moves[60..63], ["P4dx4c+", "S4bx4c", "B*6a"]);
    assert!(game.headers.is_empty());
    // `1-0` says who won, not how: replay decides between mate and resignation.
    let ending = game.ending.as_ref().expect("1-0 ends the moves");
    assert_eq!((ending.stated, ending.termination), (Some(Outcome::Win(Color::Black)), Termination::Unknown));
    replays_to(
        &game,
        85,
        "l6kl/6+R2/nP1p1s+Bpp/p1S1ppP2/2P4P1/5RG1P/P+spPP1N2/3K2+b2/LNG5L w GN3Pgs",
        "b",
        "resign",
    );
}

#[test]
fn psn_short_hodges_with_nags() {
    let game = only_game(Format::Western, "western/road_to_shodan_short_hodges_nag.psn");
    let moves = tokens(&game);
    assert_eq!(moves.len(), 15);
    assert_eq!(moves[7..10], ["P-8f", "Px8f", "Rx8f"]);
    assert_eq!(moves[14], "B*9e");
    // The NAGs are comments of the moves they follow, as written.
    let marked: Vec<(usize, &[String])> = game
        .moves
        .iter()
        .enumerate()
        .filter(|(_, m)| !m.comments.is_empty())
        .map(|(i, m)| (i, &m.comments[..]))
        .collect();
    assert_eq!(marked, [(7, &["$2".to_string()][..]), (14, &["$18".to_string()][..])]);
    assert_eq!(game.info.black.as_ref().map(|p| p.full.as_str()), Some("Karolina"));
    assert_eq!(game.info.start, None);
    assert_eq!(game.header("Date"), Some("?"));
    replays_to(
        &game,
        15,
        "lnsgkg1nl/7s1/p2ppp1pp/2p3p2/B8/1r7/P2PPPPPP/2R2K3/LNSG1GSNL w Pb2p",
        "b",
        "resign",
    );
}

#[test]
fn psn_tags_comments_and_result_tag() {
    // The comments' text was rewritten for the fixture; their `~` line breaks were kept.
    let game = only_game(Format::Western, "western/europe1997_boekschoten_lamb_comments.psn");
    assert_eq!(tokens(&game).len(), 76);
    let info = &game.info;
    assert_eq!(info.event.as_deref(), Some("European Championships 1997"));
    assert_eq!(info.site.as_deref(), Some("Brussels"));
    assert_eq!(info.start.map(|d| d.to_string()).as_deref(), Some("1997-08-22"));
    assert_eq!(info.black.as_ref().map(|p| p.full.as_str()), Some("Boekschoten Michiel"));
    assert_eq!(info.white.as_ref().map(|p| p.full.as_str()), Some("Lamb Stephen"));
    assert_eq!(game.header("SenteGrade"), Some("3dan"));
    let commented: Vec<(usize, Vec<String>)> = game
        .moves
        .iter()
        .enumerate()
        .filter(|(_, m)| !m.comments.is_empty())
        .map(|(i, m)| (i, m.comments.clone()))
        .take(3)
        .collect();
    assert_eq!(
        commented,
        [
            (39, vec!["note 1".to_string()]),
            (48, vec!["note 2".to_string(), "line 2".to_string()]),
            (49, vec!["note 3".to_string(), "line 2".to_string(), "line 3".to_string()]),
        ]
    );
    let ending = game.ending.as_ref().expect("the Result tag");
    assert_eq!((ending.stated, ending.text.as_str()), (Some(Outcome::Win(Color::White)), "0-1"));
    replays_to(
        &game,
        76,
        "ln2+R3l/1ksGs4/ppp1g4/3p4p/5p1n1/2P1P3P/PPKP1P3/1S1b1+r3/LN3b1NL b G3Pgs2p",
        "w",
        "resign",
    );
}

#[test]
fn psn_sfen_tag_without_side_or_hands() {
    let game = only_game(Format::Western, "western/oshosen26_g3_oyama_nakahara_1976.psn");
    assert_eq!(game.start, Start::Standard(Handicap::Even));
    assert_eq!(tokens(&game).len(), 161);
    assert_eq!(game.header("PlyCount"), Some("176"));
    assert_eq!(game.info.site.as_deref(), Some("Gamagori City, Aichi Prefecture"));
    replays_to(
        &game,
        161,
        "5Sg1l/9/n3b1G1k/p5ppS/2p1NN2p/P3SPPPP/3P2gS1/8K/L1+p3G1L w L3P2rbn3p",
        "b",
        "resign",
    );
    // A board alone that is a handicap's: White moves first.
    let text = "[SFEN \"lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL\"]\n1... K-4b *";
    assert_eq!(western::read(text)[0].start, Start::Standard(Handicap::TwoPieces));
}

#[test]
fn psn_bare_moves_and_blank_first_line() {
    let bare = only_game(Format::Western, "western/bare_short_hodges.psn");
    assert_eq!(tokens(&bare), ["P-7f", "P-8d", "G-7h", "P-8e"]);
    assert_eq!(bare.ending, None);
    replays_to(&bare, 4, "lnsgkgsnl/1r5b1/p1ppppppp/9/1p7/2P6/PP1PPPPPP/1BG4R1/LNS1KGSNL b -", "-", "none");
    let lamb = only_game(Format::Western, "western/europe1997_hosking_lamb.psn");
    assert_eq!((lamb.line, tokens(&lamb).len()), (2, 54));
    replays_to(
        &lamb,
        54,
        "ln1p1g1nl/2g2k3/p5spp/5p1l1/4p1p1n/1P4S1P/P3PPPP1/4G1SK1/+r3SG1NL b B2Prb2p",
        "w",
        "resign",
    );
}

#[test]
fn psn_problems_keep_what_came_before() {
    let games = western::read("[Event \"x\"]\n1. P-7f 2. P-3d\n3. Q-9z 4. P-2f\n[Event \"y\"]\nP-2f\n");
    assert_eq!(games.len(), 2);
    assert_eq!(tokens(&games[0]), ["P-7f", "P-3d"]);
    assert_eq!(games[0].problem.as_ref().map(|p| p.line), Some(3));
    assert_eq!((games[1].problem.as_ref(), tokens(&games[1]).len()), (None, 1));
    // A game that stops in its tags ends where the next game's tags start.
    let games = western::read(
        "[Event \"x\"]\n[Bad tag\n1. P-7f 1-0\n[Event \"y\"]\n1. P-2f\n[Event \"z\"]\n1. P-5f\n",
    );
    assert_eq!(games.len(), 3);
    assert_eq!(games[0].problem.as_ref().map(|p| (p.line, p.code())), Some((2, "bad_header")));
    assert_eq!((tokens(&games[1]), tokens(&games[2])), (vec!["P-2f".to_string()], vec!["P-5f".to_string()]));
    // So does one that stops at a move: untagged games after its result are read.
    let games = western::read("1. P-7f Zz (1. P-2f 1-0) 1-0\n1. P-2f P-8d 0-1\n1. P-5f *\n");
    assert_eq!(games.len(), 3);
    assert_eq!(games[0].problem.as_ref().map(|p| (p.line, p.code())), Some((1, "bad_move_text")));
    assert_eq!(
        (tokens(&games[1]), tokens(&games[2])),
        (vec!["P-2f".to_string(), "P-8d".to_string()], vec!["P-5f".to_string()])
    );
    // A result inside a variation that could not be opened is no end of the game.
    let games = western::read("[Event \"c\"]\n( 1. P-7f 1-0 ) 1. P-7f P-3d 0-1\n1. P-5f P-5d 0-1\n");
    assert_eq!(games.len(), 2);
    assert_eq!(tokens(&games[1]), ["P-5f".to_string(), "P-5d".to_string()]);
    let game = &western::read("[Event \"x\"]\n[Handicap \"queen\"]\nP-7f")[0];
    assert!(game.moves.is_empty());
    assert_eq!(game.problem.as_ref().map(|p| (p.line, p.code())), Some((2, "bad_header")));
    let game = &western::read(&"P-7f (".repeat(40))[0];
    assert!(
        game.problem.as_ref().is_some_and(|p| p.kind.to_string().contains("nested")),
        "{:?}",
        game.problem
    );
    assert_eq!(game.problem.as_ref().map(|p| p.code()), Some("bad_variation"));
}

/// A `{` or `(` left open: the moves after it cannot be told from its text, so the game
/// stops there with the reason, and the games after it are read. A comment never runs into
/// the next game's tags.
#[test]
fn psn_open_comments_and_variations_stop_the_game_and_lose_no_later_game() {
    let text = concat!(
        "[Event \"G1\"]\n",
        "1. P-7f {unclosed comment P-3d 2. P-2f 1-0\n", // 2
        "\n",
        "[Event \"G2\"]\n", // 4
        "1. P-2f P-8d 2. P-2e 0-1\n",
        "\n", // 6
        "[Event \"G3\"]\n",
        "1. P-5f P-5d 1-0\n", // 8
    );
    let games = western::read(text);
    assert_eq!(games.len(), 3);
    assert_eq!(tokens(&games[0]), ["P-7f"]);
    assert_eq!(games[0].problem.as_ref().map(|p| (p.line, p.code())), Some((2, "bad_comment")));
    assert_eq!((games[1].header("Event"), tokens(&games[1]).len()), (Some("G2"), 3));
    assert_eq!((games[2].header("Event"), tokens(&games[2]).len()), (Some("G3"), 2));
    assert!(games[1].problem.is_none() && games[2].problem.is_none());
    // Left open to the end of the text.
    let game = &western::read("1. P-7f P-3d {to be continued")[0];
    assert_eq!(tokens(game), ["P-7f", "P-3d"]);
    assert_eq!(game.problem.as_ref().map(|p| (p.line, p.code())), Some((1, "bad_comment")));

    // Before a game's tags, or after its result, no move can be in it: a comment, warned of.
    let text = "{ intro\n[Event \"A\"]\n[Sente \"X\"]\n1. P-7f P-3d 1-0\n\n[Event \"B\"]\n1. P-2f 0-1\n";
    let games = western::read(text);
    assert_eq!(games.len(), 2);
    assert_eq!((games[0].header("Event"), tokens(&games[0]).len()), (Some("A"), 2));
    assert_eq!(games[0].comments, ["intro"]);
    let warned = |g: &Game| g.warnings.iter().map(|w| (w.line, w.code)).collect::<Vec<_>>();
    assert_eq!(warned(&games[0]), [(1, "unclosed_comment")]);
    assert!(games.iter().all(|g| g.problem.is_none()));
    assert!(kifu::looks_like(Format::Western, text));
    let text =
        "[Event \"A\"]\n1. P-7f P-3d 2. P-2f 1-0 {Next: the replay\n\n\u{3000}[Event \"B\"]\n1. P-2f 0-1\n";
    let games = western::read(text);
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].problem, None);
    assert_eq!(games[0].ending.as_ref().map(|e| e.stated), Some(Some(Outcome::Win(Color::Black))));
    assert_eq!(
        games[0].ending.as_ref().map(|e| e.comments.clone()),
        Some(vec!["Next: the replay".to_string()])
    );
    assert_eq!(warned(&games[0]), [(2, "unclosed_comment")]);
    assert_eq!((games[1].header("Event"), tokens(&games[1])), (Some("B"), vec!["P-2f".to_string()]));

    // A variation left open: the main line stops at its `(`; its moves and the result after
    // it are no part of the game.
    let text = "[Event \"G1\"]\n1. P-7f P-3d 2. P-2f (2. P-2f?!\n2... P-8d 3. P-2e P-8e 1-0\n";
    let game = western::read(text).remove(0);
    assert_eq!(tokens(&game), ["P-7f", "P-3d", "P-2f"]);
    assert!(game.variations.is_empty());
    assert_eq!(game.ending, None);
    let problem = game.problem.as_ref().expect("the game stops");
    assert_eq!((problem.line, problem.code()), (2, "bad_variation"));
    assert!(problem.to_string().contains("no ')'"), "{problem}");
}

/// Comments before the first tag are the comments of the game the tags start: they make no
/// game of their own.
#[test]
fn psn_comments_before_the_first_tag_belong_to_its_game() {
    for text in [
        "; exported by SomeTool\n[Event \"Real\"]\n[Sente \"A\"]\n1. P-7f P-3d 1-0\n",
        "{exported by SomeTool}\n[Event \"Real\"]\n[Sente \"A\"]\n1. P-7f P-3d 1-0\n",
    ] {
        let games = western::read(text);
        assert_eq!(games.len(), 1, "{text}");
        let game = &games[0];
        assert_eq!(game.header("Event"), Some("Real"), "{text}");
        assert_eq!(game.comments, ["exported by SomeTool"], "{text}");
        assert_eq!(tokens(game), ["P-7f", "P-3d"], "{text}");
        assert_eq!(game.line, 1);
    }
    // After tags, a comment is the game's; tags after it start the next game.
    let games = western::read("[Event \"a\"]\n{no moves}\n[Event \"b\"]\n1. P-7f *\n");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].comments, ["no moves"]);
}

/// A move that could promote or not must write `+` or `=` (seed 001: "When promotion is
/// possible, then the promotion status is obligatorily notated"). Without either it is read as
/// not promoting, and the replay says so; with one, or where no choice exists, nothing is said.
#[test]
fn psn_a_promotion_left_unmarked_is_read_as_declined_and_warned() {
    let moves = "1. P-7f P-3d 2. P-2f P-4d 3. P-2e P-4e 4. P-2d P-4f 5. ";
    for (last, usi, warned) in [("Px2c", "2d2c", true), ("Px2c=", "2d2c", false), ("Px2c+", "2d2c+", false)] {
        let game = western::read(&format!("{moves}{last} 1-0\n")).remove(0);
        let replayed = replay(&game);
        assert_eq!(replayed.moves.last().map(ToString::to_string).as_deref(), Some(usi), "{last}");
        let codes: Vec<_> = replayed.warnings.iter().map(|w| (w.code, w.ply, w.line)).collect();
        let expected = if warned { vec![("promotion_unmarked", Some(9), 1)] } else { vec![] };
        assert_eq!(codes, expected, "{last}");
    }
    // A pawn reaching the last rank has no choice: `P-1a` needs no mark.
    let game = western::read("[SFEN \"4k4/8P/9/9/9/9/9/9/4K4 b - 1\"]\nP-1a\n").remove(0);
    let replayed = replay(&game);
    assert_eq!(replayed.moves.iter().map(ToString::to_string).collect::<Vec<_>>(), ["1b1a+"]);
    assert!(replayed.warnings.is_empty(), "{:?}", replayed.warnings);
}

/// A `[Termination]` that names no ending kifudex knows is an `unknown_ending` warning on its
/// tag's line: the game ends as `[Result]` says, and the tag stays among the headers.
#[test]
fn a_termination_tag_that_names_no_ending_is_a_warning() {
    let text = "[Sente \"A\"]\n[Gote \"B\"]\n[Result \"1-0\"]\n[Termination \"adjudication\"]\n\n1. P-7f P-3d 2. P-2f 1-0\n";
    let games = kifu::read_as(Format::Western, text, None);
    let game = &games[0];
    let warned: Vec<(u32, &str)> = game.warnings.iter().map(|w| (w.line, w.code)).collect();
    assert_eq!(warned, [(4, "unknown_ending")]);
    assert!(game.warnings[0].message.contains("'adjudication'"), "{}", game.warnings[0].message);
    assert_eq!(game.header("Termination"), Some("adjudication"));
    let ending = game.ending.as_ref().expect("1-0 ends the moves");
    assert_eq!(ending.stated, Some(Outcome::Win(Color::Black)));
    // A tag that names one says nothing to warn about, and neither does `unknown`, which says
    // what no tag says.
    for word in ["time forfeit", "unknown", "Unknown"] {
        let known = text.replace("adjudication", word);
        assert!(kifu::read_as(Format::Western, &known, None)[0].warnings.is_empty(), "{word}");
    }
    let unknown = kifu::read_as(Format::Western, &text.replace("adjudication", "unknown"), None).remove(0);
    let ending = unknown.ending.expect("1-0 ends the moves");
    assert_eq!((ending.termination, ending.stated), (Termination::Unknown, Some(Outcome::Win(Color::Black))));
}

/// The `[Result]` tag repeats the result written after the moves. Where the two differ, the
/// word after the moves stands, the tag stays among the headers, and the game says so at the
/// tag's line; a tag of `*` (not yet known) says nothing against it.
#[test]
fn a_result_tag_that_contradicts_the_result_after_the_moves_is_a_warning() {
    let game = |tag: &str, word: &str| {
        let text = format!("[Sente \"A\"]\n[Result \"{tag}\"]\n\n1. P-7f P-3d 2. P-2f {word}\n");
        kifu::read_as(Format::Western, &text, None).remove(0)
    };
    for (tag, word, stated) in [
        ("1-0", "0-1", Some(Outcome::Win(Color::White))),
        ("1/2-1/2", "1-0", Some(Outcome::Win(Color::Black))),
        ("0-1", "*", None),
    ] {
        let g = game(tag, word);
        let warned: Vec<(u32, &str)> = g.warnings.iter().map(|w| (w.line, w.code)).collect();
        assert_eq!(warned, [(2, "second_ending")], "{tag} {word}");
        assert!(g.warnings[0].message.contains(&format!("says {tag} where")), "{}", g.warnings[0].message);
        assert_eq!(g.ending.as_ref().and_then(|e| e.stated), stated, "{tag} {word}");
        assert_eq!(g.header("Result"), Some(tag));
    }
    for (tag, word) in [("1-0", "1-0"), ("*", "0-1"), ("1/2", "1/2-1/2")] {
        assert!(game(tag, word).warnings.is_empty(), "{tag} {word}");
    }
}

/// Marks on a move (`P-7f!?`, `P-3d$2`) and standing alone after it (`?!`) are comments of the
/// move, as written; a check or mate mark (`#`, `ch`) is the move's own, and no comment, and so
/// is a full stop.
#[test]
fn psn_annotation_marks_are_comments_of_their_moves() {
    let text = "1. P-7f!? P-3d$2 2. P-2f ?! P-8d 3. P-2e# P-8e!ch 4. P-2d!?$1 Px2d.\n";
    let game = kifu::read_as(Format::Western, text, None).remove(0);
    assert_eq!(tokens(&game).len(), 8);
    let comments: Vec<&[String]> = game.moves.iter().map(|m| &m.comments[..]).collect();
    let want: [&[&str]; 8] = [&["!?"], &["$2"], &["?!"], &[], &[], &["!"], &["!?$1"], &[]];
    assert_eq!(comments, want.map(|c| c.iter().map(|s| s.to_string()).collect::<Vec<_>>()));
}
