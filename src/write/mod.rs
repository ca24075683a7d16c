//! Records written again: a game as read, with its replay, as text in every format.
//!
//! Writing needs what only replay knows: the legal moves, the position before each (for 同,
//! the origin a KI2 move must name, CSA's piece after promotion), and the outcome the rules
//! judge. So the writers sit above [`crate::replay`], and [`crate::kifu`] stays syntax only.
//!
//! Policy: a writer writes what the replayed game holds, the legal moves replay found (and a
//! written foul that ended the game), so that a game written and read back replays to the
//! same game. A variation replay could not reach is left out; each replayed variation names
//! the variation it was read from ([`ReplayedVariation::source`]), so pairing the two never
//! depends on the order replay visits them in.
//!
//! [`ReplayedVariation::source`]: crate::replay::ReplayedVariation::source

pub mod csa;
pub mod jkf;
mod kakinoki;
pub mod lost;
mod support;
pub mod usi;
pub mod western;

pub use kakinoki::{ki2, kif};

use crate::{
    kifu::{Ending, Format, Game, MoveEntry, Outcome, Termination, Variation, info::STRUCTURE_KEYS},
    replay::{ReplayedGame, ReplayedVariation},
};

/// Writes `game`, replayed as `replayed`, in `format` (UTF-8 text; see
/// [`encode_cp932`](crate::kifu::encoding::encode_cp932) for Shift_JIS files).
pub fn write(format: Format, game: &Game, replayed: &ReplayedGame) -> String {
    match format {
        Format::Kif => kif::write(game, replayed),
        Format::Ki2 => ki2::write(game, replayed),
        Format::Csa => csa::write(game, replayed),
        Format::Jkf => jkf::write(game, replayed),
        Format::Usi => usi::write(game, replayed),
        Format::Western => western::write(game, replayed),
    }
}

/// How many of `replayed`'s variations (at any depth, each counted with those inside it) a
/// `format` text leaves out: every one in CSA and USI, which hold none; in Western text, one
/// that branches after the last move of its line, since a variation there follows the move it
/// replaces, and one of no move (an ending alone); in KIF and KI2, one that branches after
/// the last move of another variation (only the main line can be carried on past its end).
/// JKF holds every one. A variation that stopped at its first move is not counted itself:
/// it is no line to write, and replay says why it stopped.
pub fn variations_left_out(format: Format, replayed: &ReplayedGame) -> usize {
    fn counted(v: &ReplayedVariation) -> usize {
        usize::from(!(v.moves.is_empty() && v.stopped.is_some()))
    }
    fn all(variations: &[ReplayedVariation]) -> usize {
        variations.iter().map(|v| counted(v) + all(&v.variations)).sum()
    }
    /// Those of a line of `plies` moves (the main line when `main`).
    fn of_line(format: Format, variations: &[ReplayedVariation], plies: usize, main: bool) -> usize {
        variations
            .iter()
            .map(|v| match holds(format, v, plies, main) {
                true => of_line(format, &v.variations, v.moves.len(), false),
                false => counted(v) + all(&v.variations),
            })
            .sum()
    }
    of_line(format, &replayed.variations, replayed.moves.len(), true)
}

/// Whether a `format` text holds the variation `v` of a line of `plies` moves (the main line
/// when `main`); see [`variations_left_out`].
fn holds(format: Format, v: &ReplayedVariation, plies: usize, main: bool) -> bool {
    let after_end = v.ply >= plies;
    match format {
        Format::Csa | Format::Usi => false,
        Format::Western => !after_end && !v.moves.is_empty(),
        Format::Kif | Format::Ki2 => !after_end || main,
        Format::Jkf => true,
    }
}

/// How many of the variations a `format` text holds lose their ending (投了, 中断 …) in it:
/// in Western text, where a variation is moves alone, every one that ends so. The others
/// write a variation's ending as the main line's.
pub fn variation_endings_left_out(format: Format, game: &Game, replayed: &ReplayedGame) -> usize {
    fn of_line(
        format: Format,
        read: &[Variation],
        replayed: &[ReplayedVariation],
        plies: usize,
        main: bool,
    ) -> usize {
        support::paired_variations(read, replayed)
            .into_iter()
            .filter(|(_, r)| holds(format, r, plies, main))
            .map(|(v, r)| {
                let lost = format == Format::Western && v.ending.is_some() && r.stopped.is_none();
                usize::from(lost) + of_line(format, &v.variations, &r.variations, r.moves.len(), false)
            })
            .sum()
    }
    of_line(format, &game.variations, &replayed.variations, replayed.moves.len(), true)
}

/// How many of `game`'s comments a `format` text changes: in Western text, which puts a
/// comment in braces and joins its lines with `~`, each that holds a `~` (read back as a line
/// break) or a `}` (written `)`).
pub fn comments_changed(format: Format, game: &Game) -> usize {
    fn changed(comments: &[String]) -> usize {
        comments.iter().filter(|c| c.contains(['~', '}'])).count()
    }
    match format {
        Format::Western => {
            changed(&game.comments)
                + entries(&game.moves, &game.variations).map(|m| changed(&m.comments)).sum::<usize>()
                + game.ending.as_ref().map_or(0, |e| changed(&e.comments))
        }
        _ => 0,
    }
}

/// How many of `game`'s raw headers a `format` text changes: each whose key or value holds a
/// line break, which no header line can (KIF and KI2 write it as a literal `\n`, CSA and
/// Western text as a space). JKF keeps it; USI holds no headers at all, and says so apart.
pub fn headers_changed(format: Format, game: &Game) -> usize {
    let broken = |text: &str| text.contains(['\r', '\n']);
    match format {
        Format::Jkf | Format::Usi => 0,
        _ => game
            .headers
            .iter()
            .filter(|h| !STRUCTURE_KEYS.contains(&h.key.as_str()) && (broken(&h.key) || broken(&h.value)))
            .count(),
    }
}

/// The fields of `game` that a `format` file writes in headers and reads back shorter: those
/// holding a `#`, after which a KIF or KI2 header reads a remark (a CSA name `user#1234`).
pub fn headers_cut(format: Format, game: &Game) -> usize {
    if !matches!(format, Format::Kif | Format::Ki2) {
        return 0;
    }
    let info = &game.info;
    let players = [&info.black, &info.white].into_iter().flatten().map(|p| p.full.as_str());
    let texts = [&info.event, &info.site, &info.time_control, &info.opening].into_iter().flatten();
    players.chain(texts.map(String::as_str)).filter(|v| crate::kifu::info::cut_by_remark(v)).count()
}

/// The endings of a game's main line and of its variations, at any depth.
fn endings(game: &Game) -> impl Iterator<Item = &Ending> {
    fn of<'a>(variations: &'a [Variation]) -> Box<dyn Iterator<Item = &'a Ending> + 'a> {
        Box::new(variations.iter().flat_map(|v| v.ending.iter().chain(of(&v.variations))))
    }
    game.ending.iter().chain(of(&game.variations))
}

/// Every move entry of a line and of its variations, at any depth.
fn entries<'a>(
    moves: &'a [MoveEntry],
    variations: &'a [Variation],
) -> Box<dyn Iterator<Item = &'a MoveEntry> + 'a> {
    Box::new(moves.iter().chain(variations.iter().flat_map(|v| entries(&v.moves, &v.variations))))
}

/// How a `format` text loses a game's ending ([`ending_lost`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndingLost {
    /// The format has no word for it, so none is written.
    NoWord,
    /// The record stops before its ending, which states a result without how the game ended:
    /// KIF and KI2 would write it as a resignation after the last move kept, so none is written.
    AfterStop,
    /// A word is written, but the game read back ends otherwise: CSA's and JKF's word for a
    /// perpetual check names no side, so one that the moves do not show reads back with no
    /// winner; KIF's and KI2's is lost by a side, so one with no winner reads back with one.
    ReadsBackAs(Option<Termination>, Option<Outcome>),
}

/// Whether (and how) a `format` text loses `replayed`'s ending (`game` replayed): CSA and
/// JKF when no `%` word says it, a resignation out of turn among them (every such word but a
/// foul's means the side to move), or when the game read back and replayed ends otherwise;
/// USI when the line read back and replayed ends otherwise (it has the tokens `resign`,
/// `win` and `draw`, and a mate or a fourth repetition shows in the moves); KIF and KI2 when
/// a perpetual check read back and replayed ends otherwise. Read back, such a game has no
/// result rather than the wrong one, except in KIF and KI2, whose word for a perpetual check
/// always names the loser.
pub fn ending_lost(format: Format, game: &Game, replayed: &ReplayedGame) -> Option<EndingLost> {
    let read_back = |game: &Game| {
        let (termination, outcome) = ending_read_back(format, game, replayed);
        // USI has one word for every draw: a draw of another kind (an impasse, the move limit)
        // reads back as a draw of none, and that is said.
        let kept = outcome == replayed.outcome && termination == replayed.termination;
        (!kept).then_some(EndingLost::ReadsBackAs(termination, outcome))
    };
    match format {
        // What the moves show (a mate, a fourth repetition) needs no token: the line is read
        // back and replayed to know.
        // A draw of a kind the moves do not show is written as USI's one word for a draw.
        Format::Usi => read_back(&Game::default()).map(|lost| match lost {
            EndingLost::ReadsBackAs(_, Some(Outcome::Draw)) if replayed.outcome == Some(Outcome::Draw) => {
                lost
            }
            _ => EndingLost::NoWord,
        }),
        Format::Csa | Format::Jkf => {
            let word = if format == Format::Jkf { jkf::special } else { crate::kifu::csa::word_for };
            let written = match replayed.termination {
                Some(t) => word(t, replayed.outcome, replayed.end.turn).is_some(),
                None => replayed.outcome.is_none(),
            };
            if !written {
                return Some(EndingLost::NoWord);
            }
            // An ending JKF writes as another word reads back as that word says, which
            // [`ending_changed`] tells.
            let changed = ending_changed(format, game, replayed).map(|(_, read)| read);
            read_back(game).filter(|lost| {
                !matches!(lost, EndingLost::ReadsBackAs(t, o) if t.is_some() && *t == changed && *o == replayed.outcome)
            })
        }
        // Their word for a perpetual check is lost by the side it is about, the side to move
        // unless another is named: one that names no loser (from a CSA `%OUTE_SENNICHITE`)
        // reads back with a winner, unless the moves show the checks.
        Format::Kif | Format::Ki2 if replayed.termination == Some(Termination::PerpetualCheck) => {
            read_back(game)
        }
        Format::Kif | Format::Ki2 if kakinoki::leaves_ending_out(replayed) => Some(EndingLost::AfterStop),
        _ => None,
    }
}

/// The ending and result of `game` (`replayed`) written as a `format` text, read back and
/// replayed.
fn ending_read_back(
    format: Format,
    game: &Game,
    replayed: &ReplayedGame,
) -> (Option<Termination>, Option<Outcome>) {
    let text = write(format, game, replayed);
    let back = crate::kifu::read_as(format, &text, Some(replayed.start.variant));
    let again = back.first().map(crate::replay::replay);
    again.map_or((None, None), |a| (a.termination, a.outcome))
}

/// The word a `format` text writes for `replayed`'s ending in place of its own, when it has
/// none for it but writes another that reads back as another ending: KIF and KI2 write an
/// ending by error (`%ERROR`) as 中断, an interruption; JKF, which has CSA V2.2's words only,
/// writes a perpetual check as the foul of the side that gave the checks and the move limit
/// as a draw (`HIKIWAKE`). `None` when the ending is written as
/// it is (or left out: [`ending_lost`]). With the word, the ending it reads back as.
pub fn ending_changed(
    format: Format,
    game: &Game,
    replayed: &ReplayedGame,
) -> Option<(&'static str, Termination)> {
    match format {
        Format::Kif | Format::Ki2 => replayed.termination.and_then(kakinoki::word_read_as_other),
        // Moves that show a perpetual check keep it whatever the word.
        Format::Jkf => {
            let termination = replayed.termination?;
            let word = jkf::special_in_place(termination, replayed.outcome, replayed.end.turn)?;
            let (read, _) = ending_read_back(format, game, replayed);
            read.filter(|&read| read != termination).map(|read| (word, read))
        }
        _ => None,
    }
}

/// The parts of `game` that a `format` text has no place for, of those the game has: move
/// times in KI2, Western and USI text; headers and comments in USI, which holds the start,
/// the moves and a few endings only; the start's move number, when it is not 1, in CSA and
/// JKF, which number no start (read back, its first move is the first). (CSA keeps the
/// headers it has no key for as comments.)
pub fn parts_left_out(format: Format, game: &Game) -> Vec<&'static str> {
    let times = entries(&game.moves, &game.variations).any(|m| m.seconds.is_some())
        || endings(game).any(|e| e.seconds.is_some());
    // Those the start stands for (a handicap, an SFEN, the variant) and the ending are kept.
    let headers = game
        .headers
        .iter()
        .any(|h| !(STRUCTURE_KEYS.contains(&h.key.as_str()) || support::names_the_game(&h.key)));
    let comments = !game.comments.is_empty()
        || entries(&game.moves, &game.variations).any(|m| !m.comments.is_empty())
        || endings(game).any(|e| !e.comments.is_empty());
    let mut parts = Vec::new();
    if times && matches!(format, Format::Ki2 | Format::Western | Format::Usi) {
        parts.push("move times");
    }
    if headers && format == Format::Usi {
        parts.push("headers");
    }
    if comments && format == Format::Usi {
        parts.push("comments");
    }
    if game.start.move_number() != 1 && matches!(format, Format::Csa | Format::Jkf) {
        parts.push("start move numbers");
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{kifu::kif, replay::replay};

    /// KIF lists variations latest branch first, so replay, which goes by ply, meets them in
    /// the other order; the writer must still put each variation's moves under its own branch.
    #[test]
    fn variations_are_paired_by_source_not_position() {
        let text = "手数----指手---------消費時間--\n   1 ７六歩(77)+\n   2 ３四歩(33)\n   3 ２六歩(27)+\n   4 ８四歩(83)\n\n変化：3手\n   3 ６六歩(67)\n\n変化：1手\n   1 ２六歩(27)\n";
        let game = &kif::read(text)[0];
        assert_eq!(game.variations.iter().map(|v| v.ply).collect::<Vec<_>>(), [2, 0]);
        let replayed = replay(game);
        let sources: Vec<_> = replayed.variations.iter().map(|v| (v.ply, v.source)).collect();
        assert_eq!(sources, [(0, 1), (2, 0)]);

        let written = write(Format::Kif, game, &replayed);
        let at = |label: &str| written.find(label).expect(label);
        let (three, one) = (at("変化：3手"), at("変化：1手"));
        assert!(three < one, "latest branch first:\n{written}");
        assert!(written[three..one].contains("６六歩(67)"), "{written}");
        assert!(written[one..].contains("２六歩(27)"), "{written}");
        let again = &kif::read(&written)[0];
        assert_eq!(replay(again).variations, replayed.variations);
    }
}
