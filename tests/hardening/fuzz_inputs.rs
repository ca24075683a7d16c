//! Every committed fuzz seed and every input a fuzzer once failed on, through the fuzz
//! targets' own checks (without the allocation meter, which only the fuzzers have), and the
//! fixes those inputs led to, pinned by hand-computed expectations.

use std::{fs, path::Path};

use kifudex::shogi::{PieceKind, Setup};

use super::checks::{self, Unmetered};

/// Runs each file under `dir/<target>/` through that target's check.
fn run_all(dir: &str) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut count = 0;
    for &target in checks::TARGETS {
        let Ok(entries) = fs::read_dir(root.join(target)) else { continue };
        for entry in entries {
            let path = entry.unwrap().path();
            let data = fs::read(&path).unwrap();
            let outcome = std::panic::catch_unwind(|| checks::run(target, &data, &Unmetered));
            assert!(outcome.is_ok(), "{target} fails on {}", path.display());
            count += 1;
        }
    }
    count
}

#[test]
fn every_seed_holds_the_invariants() {
    let n = run_all("fuzz/seeds");
    assert!(n > 500, "only {n} seeds found");
}

#[test]
fn every_past_finding_holds_the_invariants() {
    assert!(run_all("fuzz/regressions") >= 5);
}

#[test]
fn every_target_has_seeds() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds");
    for target in checks::TARGETS {
        assert!(
            fs::read_dir(root.join(target)).is_ok_and(|mut d| d.next().is_some()),
            "{target} has no seeds"
        );
    }
}

/// A hand of more pieces than a set holds, written with repeated letters, used to be written
/// back as a count SFEN reading refused (`108n`): every hand written must read back.
#[test]
fn a_hand_count_over_99_reads_back() {
    let sfen = format!("4k4/9/9/9/9/9/9/9/4K4 b {}b 1", "n".repeat(108));
    let setup: Setup = sfen.parse().unwrap();
    assert_eq!(setup.hand(kifudex::shogi::Color::White).count(PieceKind::Knight), 108);
    assert_eq!(setup.to_string(), "4k4/9/9/9/9/9/9/9/4K4 b b108n 1");
    assert_eq!(setup.to_string().parse::<Setup>(), Ok(setup));
    // What no hand can hold is still refused.
    assert!("4k4/9/9/9/9/9/9/9/4K4 b 256P 1".parse::<Setup>().is_err());
}

/// A record at odds with itself, a foul (反則勝ち) and then a summary stating a draw
/// (まで3手で千日手): the first ending is the game's, the summary is read past with a warning,
/// and written back the record reads the same (it once read as a draw, then as a win).
#[test]
fn a_foul_with_a_contradicting_summary_keeps_the_foul_through_writing() {
    use kifudex::{
        kifu::{self, Format},
        replay::replay,
    };
    let text = "手合割：平手\n手数----指手---------消費時間--\n   1 反則勝ち\nまで3手で千日手\n";
    for format in [Format::Kif, Format::Ki2] {
        let game = kifu::read(Format::Kif, text).remove(0);
        let codes: Vec<&str> = game.warnings.iter().map(|w| w.code).collect();
        assert_eq!(codes, ["second_ending"]);
        let first = replay(&game);
        // 反則勝ち: the side to move, Black at ply 0, wins.
        assert_eq!(first.outcome, Some(kifu::Outcome::Win(kifudex::shogi::Color::Black)));
        let written = kifudex::write::write(format, &game, &first);
        let again = replay(&kifu::read(format, &written).remove(0));
        assert_eq!(again.outcome, first.outcome, "{format}:\n{written}");
    }
}

/// A CSA game whose first move is the foul that ends it: the note on the foul is written
/// after the start, where it reads back as a comment before the first move; the game
/// comments used to be written before the start, so the text moved at every round trip.
#[test]
fn a_csa_game_ending_on_an_illegal_first_move_is_written_the_same_twice() {
    use kifudex::{
        kifu::{self, Format},
        replay::replay,
    };
    let text = "V2.2\n'a note\nPI\n+\n+1213RY\n%-ILLEGAL_ACTION\n";
    let game = kifu::read(Format::Csa, text).remove(0);
    let first = replay(&game);
    assert_eq!(first.illegal_ending.as_deref(), Some("+1213RY"));
    let written = kifudex::write::write(Format::Csa, &game, &first);
    assert_eq!(written, "'CSA encoding=UTF-8\nV2.2\nPI\n+\n'a note\n'illegal move: +1213RY\n%ILLEGAL_MOVE\n");
    let game2 = kifu::read(Format::Csa, &written).remove(0);
    assert_eq!(kifudex::write::write(Format::Csa, &game2, &replay(&game2)), written);
}
