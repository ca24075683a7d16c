//! What writing a game in a format loses or changes, said in words: for `convert`, `show`
//! and the page's downloads alike.

use super::EndingLost;
use crate::{
    kifu::{Format, Game, Outcome, Termination},
    replay::ReplayedGame,
    shogi::Color,
};

/// What writing a game in a format loses or changes, as messages.
pub struct Lost {
    /// What this game loses: each a warning, and exit status 1.
    pub warnings: Vec<String>,
    /// What the format has no place for at all, of what the game has ([`parts_note`]).
    pub parts: Vec<&'static str>,
}

impl Lost {
    /// What `game`, replayed as `replayed`, loses written in `format`.
    pub fn of(format: Format, game: &Game, replayed: &ReplayedGame) -> Lost {
        let mut warnings = Vec::new();
        let dropped = super::variations_left_out(format, replayed);
        if dropped > 0 {
            let name = format.name().to_uppercase();
            let why = match format {
                Format::Csa | Format::Usi => format!("a {name} file holds none"),
                Format::Western => {
                    "Western text holds none after the last move of a line, nor one of no move".to_string()
                }
                _ => format!("a {name} file holds none after the last move of another variation"),
            };
            let are = if dropped == 1 { " is" } else { "s are" };
            warnings.push(format!("its {dropped} variation{are} left out: {why}"));
        }
        let endings = super::variation_endings_left_out(format, game, replayed);
        if endings > 0 {
            warnings.push(format!(
                "the ending{} of {endings} variation{} left out: Western text ends no variation",
                if endings == 1 { "" } else { "s" },
                if endings == 1 { " is" } else { "s are" },
            ));
        }
        let changed = super::comments_changed(format, game);
        if changed > 0 {
            warnings.push(format!(
                "{changed} comment{} a '~' or a '}}', which Western text reads as a line break and writes as ')'",
                if changed == 1 { " holds" } else { "s hold" },
            ));
        }
        let changed = super::headers_changed(format, game);
        if changed > 0 {
            let written = match format {
                Format::Kif | Format::Ki2 => "a KIF or KI2 file writes as a literal \\n",
                Format::Western => "Western text writes as a space",
                _ => "a CSA file writes as a space",
            };
            let hold = if changed == 1 { " holds" } else { "s hold" };
            warnings.push(format!("{changed} header{hold} a line break, which {written}"));
        }
        let left_out = if format == Format::Jkf { super::jkf::headers_left_out(game) } else { 0 };
        if left_out > 0 {
            let are = if left_out == 1 { " is" } else { "s are" };
            warnings.push(format!(
                "{left_out} header{are} left out: a JKF header holds one value a key, and the record gives \
                 the key another before"
            ));
        }
        let cut = super::headers_cut(format, game);
        if cut > 0 {
            let hold = if cut == 1 { " holds" } else { "s hold" };
            warnings.push(format!(
                "{cut} header{hold} a '#', after which a KIF or KI2 file reads a remark: the value reads back \
                 cut there"
            ));
        }
        let name = format.name().to_uppercase();
        if let (Some(foul), Format::Csa | Format::Jkf | Format::Western) = (&replayed.illegal_ending, format)
        {
            let file =
                if format == Format::Western { "Western text".to_string() } else { format!("a {name} file") };
            warnings.push(format!(
                "its last move ({foul}), the illegal one that ended it, is written as a comment, with its time: \
                 {file} has no move for one that cannot be played, so the record read back names no foul move"
            ));
        }
        if let (Some(foul), true) =
            (&replayed.illegal_ending, format == Format::Ki2 && super::ki2::writes_foul_as_comment(replayed))
        {
            warnings.push(format!(
                "its last move ({foul}), the illegal one that ended it, is written as a comment, with its time: \
                 a KI2 move names no origin, and without one it names a move that can be played, so the \
                 record read back names no foul move"
            ));
        }
        if let Some(lost) = super::ending_lost(format, game, replayed) {
            let ending = ending_text(replayed.termination, replayed.outcome);
            // What the record gives the ending goes with it.
            let with = match game.ending.as_ref().map(|e| (e.seconds, e.comments.len())) {
                Some((Some(seconds), 0)) => format!(", with its time ({seconds} s)"),
                Some((Some(seconds), n)) => {
                    format!(", with its time ({seconds} s) and comment{}", if n == 1 { "" } else { "s" })
                }
                Some((None, n)) if n > 0 => format!(", with its comment{}", if n == 1 { "" } else { "s" }),
                _ => String::new(),
            };
            warnings.push(match lost {
                EndingLost::NoWord => {
                    format!("its ending ({ending}) is left out{with}: a {name} file has no word for it")
                }
                EndingLost::AfterStop => format!(
                    "its ending ({ending}) is left out{with}: the record stops before it, and a {name} file \
                     would read a result after the last move kept as a resignation there"
                ),
                EndingLost::ReadsBackAs(termination, outcome) => format!(
                    "its ending ({ending}) reads back from a {name} file as {}: the file's word for it does not \
                     say it all, and the moves do not show the rest",
                    ending_text(termination, outcome),
                ),
            });
        }
        if let Some((word, read)) = super::ending_changed(format, game, replayed) {
            warnings.push(format!(
                "its ending ({}) is written as {word}, which reads back as {}: a {name} file has no word for it",
                replayed.termination.map_or("unknown", |t| t.name()),
                read.name(),
            ));
        }
        Lost { warnings, parts: super::parts_left_out(format, game) }
    }
}

/// The note on what a `format` text has no place for at all, of `parts`: `the move times and
/// comments are left out: a KI2 file holds no move times`.
pub fn parts_note(format: Format, parts: &[&str]) -> String {
    let holds = match format {
        Format::Usi => "a USI line holds the start, the moves and a few endings only",
        Format::Western => "Western text holds no move times",
        Format::Csa | Format::Jkf => {
            "a CSA or JKF record numbers no start position: its first move is the first"
        }
        _ => "a KI2 file holds no move times",
    };
    format!("the {} left out: {holds}", and_list(parts))
}

/// An ending as messages name it: `perpetual_check, a win for White`.
fn ending_text(termination: Option<Termination>, outcome: Option<Outcome>) -> String {
    let result = match outcome {
        Some(Outcome::Win(Color::Black)) => "a win for Black",
        Some(Outcome::Win(Color::White)) => "a win for White",
        Some(Outcome::Draw) => "a draw",
        None => "no result",
    };
    format!("{}, {result}", termination.map_or("unknown", |t| t.name()))
}

/// `a are`, `a and b are`, `a, b and c are`: the parts are plural words.
fn and_list(parts: &[&str]) -> String {
    match parts {
        [one] => format!("{one} are"),
        [rest @ .., last] => format!("{} and {last} are", rest.join(", ")),
        [] => String::new(),
    }
}
