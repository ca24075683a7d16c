//! The CSA words for the end of a game (`%TORYO`, `%+ILLEGAL_ACTION` …), which JKF's
//! `special` shares, and what each says about who lost.
//!
//! The protocol defines every word from the side to move when the word is written:
//! `%TORYO`, `%TSUMI`, `%TIME_UP` and `%ILLEGAL_MOVE` mean the side to move lost, `%KACHI`
//! that it declared a win; `%+ILLEGAL_ACTION` and `%-ILLEGAL_ACTION` name the side that
//! fouled. `%OUTE_SENNICHITE` is lost by the side that gave the perpetual checks, which the
//! word does not name: the fourth occurrence may come after a check or after the reply to
//! one, so the checking side may be either the side to move or the last mover. The moves
//! tell which (replay judges the repetition), and without them the winner is not known.
//! [`Ending::side`] records the side when the word's meaning differs from replay's default
//! for the termination (see `crate::replay`).

use crate::{
    kifu::{Ending, Header, Outcome, Termination},
    shogi::Color,
};

/// Which side an ending word names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Named {
    /// None: replay's default reading of the termination holds.
    Nobody,
    /// The side to move when the word is written.
    ToMove,
    Side(Color),
}

/// An ending word, read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct EndingWord {
    pub termination: Termination,
    named: Named,
}

/// Every word, as CSA writes it after `%` (and JKF as `special`), with its meaning.
const WORDS: [(&str, Termination, Named); 18] = [
    ("TORYO", Termination::Resign, Named::Nobody),
    ("CHUDAN", Termination::Interrupted, Named::Nobody),
    ("SENNICHITE", Termination::Repetition, Named::Nobody),
    ("OUTE_SENNICHITE", Termination::PerpetualCheck, Named::Nobody),
    ("JISHOGI", Termination::Impasse, Named::Nobody),
    ("KACHI", Termination::EnteringKing, Named::Nobody),
    ("HIKIWAKE", Termination::Draw, Named::Nobody),
    ("TSUMI", Termination::Checkmate, Named::Nobody),
    ("FUZUMI", Termination::NoMate, Named::Nobody),
    ("ERROR", Termination::Error, Named::Nobody),
    ("ILLEGAL_MOVE", Termination::IllegalMove, Named::ToMove),
    ("+ILLEGAL_ACTION", Termination::IllegalMove, Named::Side(Color::Black)),
    ("-ILLEGAL_ACTION", Termination::IllegalMove, Named::Side(Color::White)),
    ("TIME_UP", Termination::Timeout, Named::Nobody),
    ("MAX_MOVES", Termination::MaxMoves, Named::Nobody),
    ("MATTA", Termination::TakeBack, Named::Nobody),
    // Floodgate's summary words that are not `%` words.
    ("ABNORMAL", Termination::Interrupted, Named::Nobody),
    ("UCHIFUZUME", Termination::IllegalMove, Named::ToMove),
];

impl EndingWord {
    /// The word (without `%`), if it is one.
    pub(crate) fn parse(word: &str) -> Option<EndingWord> {
        let word = word.trim();
        WORDS
            .iter()
            .find(|(w, ..)| *w == word)
            .map(|&(_, termination, named)| EndingWord { termination, named })
    }

    /// The side [`Ending::side`] records, given the side to move when the word is written.
    pub(crate) fn side(self, to_move: Color) -> Option<Color> {
        match self.named {
            Named::Nobody => None,
            Named::ToMove => Some(to_move),
            Named::Side(color) => Some(color),
        }
    }
}

/// The word that writes an ending, given how replay judged it and who was to move at the end.
/// `None` when CSA has no word for it: a sealed move, a forfeit, an unknown cause, and an
/// ending whose word would name the other side (a resignation or a loss on time of the side
/// that has just moved, written `先手 投了` on White's turn; an entering-king win declared out of
/// turn), since every such word means the side to move.
pub(crate) fn word_for(
    termination: Termination,
    outcome: Option<Outcome>,
    to_move: Color,
) -> Option<&'static str> {
    let winner = match outcome {
        Some(Outcome::Win(winner)) => Some(winner),
        _ => None,
    };
    let to_move_lost = winner != Some(to_move);
    let to_move_won = winner != Some(to_move.flip());
    Some(match termination {
        Termination::Resign | Termination::Checkmate | Termination::Timeout if !to_move_lost => return None,
        Termination::EnteringKing if !to_move_won => return None,
        Termination::Resign => "TORYO",
        Termination::Checkmate => "TSUMI",
        Termination::Timeout => "TIME_UP",
        Termination::IllegalMove => match outcome {
            Some(Outcome::Win(winner)) if winner == to_move => {
                if winner == Color::White {
                    "+ILLEGAL_ACTION"
                } else {
                    "-ILLEGAL_ACTION"
                }
            }
            _ => "ILLEGAL_MOVE",
        },
        Termination::Repetition => "SENNICHITE",
        Termination::PerpetualCheck => "OUTE_SENNICHITE",
        Termination::Impasse => "JISHOGI",
        Termination::EnteringKing => "KACHI",
        Termination::Interrupted => "CHUDAN",
        Termination::MaxMoves => "MAX_MOVES",
        Termination::NoMate => "FUZUMI",
        Termination::Draw => "HIKIWAKE",
        Termination::Error => "ERROR",
        Termination::TakeBack => "MATTA",
        Termination::Sealed | Termination::Forfeit | Termination::Stalemate | Termination::Unknown => {
            return None;
        }
    })
}

/// The ending a floodgate summary comment tells: `summary:toryo:alice lose:bob win`, or
/// `summary:max_moves:alice draw:bob draw`. The winner comes from the names the `N+`/`N-`
/// headers give.
pub(crate) fn summary_ending(summary: &str, headers: &[Header], to_move: Color, line: u32) -> Option<Ending> {
    let mut fields = summary.split(':');
    let word = EndingWord::parse(&fields.next()?.to_ascii_uppercase())?;
    let name_of = |key: &str| headers.iter().find(|h| h.key == key).map(|h| h.value.trim());
    let mut stated = None;
    for field in fields {
        let Some((name, result)) = field.trim().rsplit_once(' ') else { continue };
        let side = if Some(name) == name_of("N+") {
            Color::Black
        } else if Some(name) == name_of("N-") {
            Color::White
        } else {
            continue;
        };
        stated = match result {
            "win" => Some(Outcome::Win(side)),
            "lose" => Some(Outcome::Win(side.flip())),
            "draw" => Some(Outcome::Draw),
            _ => stated,
        };
    }
    Some(Ending {
        termination: word.termination,
        side: word.side(to_move),
        stated,
        text: format!("summary:{summary}"),
        line,
        seconds: None,
        comments: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_sides() {
        let w = EndingWord::parse("ILLEGAL_MOVE").unwrap();
        assert_eq!((w.termination, w.side(Color::White)), (Termination::IllegalMove, Some(Color::White)));
        let w = EndingWord::parse("-ILLEGAL_ACTION").unwrap();
        assert_eq!(w.side(Color::Black), Some(Color::White));
        assert_eq!(EndingWord::parse("TORYO").unwrap().side(Color::Black), None);
        assert_eq!(EndingWord::parse("OUTE_SENNICHITE").unwrap().side(Color::Black), None);
        assert_eq!(EndingWord::parse("MATTA").unwrap().termination, Termination::TakeBack);
        assert_eq!(EndingWord::parse("GOTE_WIN_CHECKMATE"), None);
    }

    #[test]
    fn every_word_is_written_back() {
        for (word, termination, _) in WORDS.iter().take(16) {
            if *termination != Termination::IllegalMove {
                assert_eq!(word_for(*termination, None, Color::Black), Some(*word), "{word}");
            }
        }
        let illegal =
            |winner, to_move| word_for(Termination::IllegalMove, Some(Outcome::Win(winner)), to_move);
        assert_eq!(illegal(Color::White, Color::Black), Some("ILLEGAL_MOVE"));
        assert_eq!(illegal(Color::Black, Color::Black), Some("-ILLEGAL_ACTION"));
        assert_eq!(illegal(Color::White, Color::White), Some("+ILLEGAL_ACTION"));
        assert_eq!(word_for(Termination::Sealed, None, Color::Black), None);
        // Words that would name the side to move where the other side lost or declared.
        let white = Some(Outcome::Win(Color::White));
        assert_eq!(word_for(Termination::Resign, white, Color::Black), Some("TORYO"));
        assert_eq!(word_for(Termination::Resign, white, Color::White), None);
        assert_eq!(word_for(Termination::Timeout, white, Color::White), None);
        assert_eq!(word_for(Termination::EnteringKing, white, Color::White), Some("KACHI"));
        assert_eq!(word_for(Termination::EnteringKing, white, Color::Black), None);
    }

    #[test]
    fn summaries_name_the_winner() {
        let headers = [
            Header { key: "N+".into(), value: "alice".into() },
            Header { key: "N-".into(), value: "bob".into() },
        ];
        let e = summary_ending("toryo:alice lose:bob win", &headers, Color::Black, 9).unwrap();
        assert_eq!((e.termination, e.stated), (Termination::Resign, Some(Outcome::Win(Color::White))));
        let e = summary_ending("max_moves:alice draw:bob draw", &headers, Color::Black, 9).unwrap();
        assert_eq!((e.termination, e.stated), (Termination::MaxMoves, Some(Outcome::Draw)));
        assert!(summary_ending("nonsense:x", &headers, Color::Black, 9).is_none());
    }
}
