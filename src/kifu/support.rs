//! Small pieces the readers share: how deep variations may nest, how many moves a game may
//! hold, the side to move after some plies, the game a start header names, and the times
//! that held fractions of a second.

use crate::{
    kifu::{Ending, MoveEntry, Warning},
    shogi::{Color, Variant},
    text::{excerpt, is_space},
};

/// The warning for a second ending of a game, `text` on line `line_no`, after `first`, which
/// stands: a terminal word or `%` word or `special` after another, or a `まで` line that says
/// another kind of end.
pub(crate) fn second_ending(line_no: u32, text: &str, first: &Ending) -> Warning {
    let message = format!(
        "{} says another end after the game's ({}, line {}): read past, the first stands",
        excerpt(text.trim_matches(is_space)),
        excerpt(first.text.trim_matches(is_space)),
        first.line
    );
    Warning { line: line_no, ply: None, code: "second_ending", message }
}

/// Comments quoted in a warning about text that has no place in the game, each cut short:
/// at most this many, then how many more.
const QUOTED_COMMENTS: usize = 3;

/// `comments`, quoted for a warning (see [`QUOTED_COMMENTS`]): `'a', 'b', 'c' and 4 more`.
pub(crate) fn quoted_comments(comments: &[String]) -> String {
    let quoted: Vec<String> =
        comments.iter().take(QUOTED_COMMENTS).map(|c| format!("'{}'", excerpt(c.trim()))).collect();
    match comments.len().saturating_sub(QUOTED_COMMENTS) {
        0 => quoted.join(", "),
        more => format!("{} and {more} more", quoted.join(", ")),
    }
}

/// How deep variations may nest. No record nests nearly so deep; a deeper nesting is refused
/// rather than walked, since every walk over variations (replay, the writers) recurses.
pub(crate) const MAX_DEPTH: usize = 32;

/// The most moves a line of one game (its main line or a variation) may hold. The longest
/// real games and problems hold a few thousand; a game of a million plies is still read in
/// full. Past it, a reader stops collecting moves: each move read takes several times the bytes
/// of its text, so one game of tens of millions of moves in a single file (a USI line of
/// 150 MB) would otherwise take gigabytes, where files of many games are read in parts.
pub const MAX_PLIES: usize = 1_000_000;

/// Why a game's line stopped being read: it already holds [`MAX_PLIES`] moves. The reject
/// code is `too_many_moves`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the game holds more than {MAX_PLIES} moves; the moves past them are not read")]
pub struct TooManyMoves;

/// Whether one more move may be added to `moves`: an error once they hold [`MAX_PLIES`].
pub(crate) fn room_for_move(moves: &[MoveEntry]) -> Result<(), TooManyMoves> {
    if moves.len() < MAX_PLIES { Ok(()) } else { Err(TooManyMoves) }
}

/// A header that names a game kifudex does not play (`手合割：中将棋`, `[Variant "Chu shogi"]`).
/// The reject code is `bad_header`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant '{0}' (kifudex plays shogi and yari shogi)")]
pub struct UnknownVariant(pub String);

/// The game a start header names: KIF's and KI2's `手合割`, a JKF `preset` or `手合割` header,
/// a Western `[Handicap]` or `[Variant]` tag. `None` when the value names no game (a handicap,
/// `平手`, or text nobody defines); the game when it is one [`Variant::from_name`] knows;
/// [`UnknownVariant`] when it is written as a game's name (it ends in `将棋`, `しょうぎ` or
/// `shogi`) and is none of them.
pub(crate) fn named_variant(value: &str) -> Option<Result<Variant, UnknownVariant>> {
    let name = value.trim();
    if let Some(variant) = Variant::from_name(name) {
        return Some(Ok(variant));
    }
    let game = ["将棋", "しょうぎ", "ショウギ"].iter().any(|end| name.ends_with(end))
        || name.to_ascii_lowercase().trim_end_matches([' ', '-']).ends_with("shogi");
    game.then(|| Err(UnknownVariant(excerpt(name))))
}

/// A game read as one variant whose record says it is another: asked for on the command line
/// (`--variant`) or fixed by an earlier header, and contradicted by `what`. The reject code is
/// `wrong_variant`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the game is {}, but {what} is {}", .fixed.title().to_lowercase(), .other.title().to_lowercase())]
pub struct VariantConflict {
    /// The variant the game was read as.
    pub fixed: Variant,
    /// What says otherwise (`its 手合割`, `its SFEN`).
    pub what: &'static str,
    /// The variant that says.
    pub other: Variant,
}

/// The side to move after `plies` moves from a position where `start` moves.
pub(crate) fn turn_after(start: Color, plies: usize) -> Color {
    if plies % 2 == 0 { start } else { start.flip() }
}

/// The times of one game that held a fraction of a second (CSA's `T1.250`, a JKF `"s": 1.25`),
/// which a time here, in whole seconds, does not hold: each is rounded down, and the game
/// gets one `time_rounded` warning, at the first of them.
#[derive(Debug, Default)]
pub(crate) struct RoundedTimes {
    count: usize,
    /// The first one's line, move (none for an ending's time) and text.
    first: Option<(u32, Option<u32>, String)>,
}

impl RoundedTimes {
    pub(crate) fn add(&mut self, line: u32, ply: Option<usize>, text: &str) {
        self.count += 1;
        self.first.get_or_insert_with(|| (line, ply.map(|p| p as u32), excerpt(text)));
    }

    /// The warning, when some time was rounded.
    pub(crate) fn warning(self) -> Option<Warning> {
        let (line, ply, text) = self.first?;
        let what = match ply {
            Some(ply) => format!("the time of move {ply} ({text})"),
            None => format!("the time of the ending ({text})"),
        };
        let others = match self.count - 1 {
            0 => String::new(),
            1 => " and 1 other time".to_string(),
            n => format!(" and {n} other times"),
        };
        let message = format!(
            "{what}{others} held a fraction of a second: times are kept in whole seconds, rounded down"
        );
        Some(Warning { line, ply, code: "time_rounded", message })
    }
}

/// `seconds` as `h:mm:ss`, for messages about times.
fn clock_text(seconds: u32) -> String {
    format!("{}:{:02}:{:02}", seconds / 3600, seconds / 60 % 60, seconds % 60)
}

/// The running totals a KIF or JKF record gives each side's times, checked against the sums
/// of the times read: the totals are not kept (every KIF or JKF written from the game gives
/// the sums), so a total that is not its sum is said, once a game (`time_totals`). A total
/// at most a second a move above the sum is the sum of times with fractions of a second, each
/// cut to whole seconds as the record writes them (and the total rounded or cut): what whole
/// seconds hold. A block of
/// zeros (`( 0:00/00:00:00)`, the ending row of some servers) says no time.
#[derive(Clone, Debug)]
pub(crate) struct Totals {
    /// Each side's sum of times and count of timed moves so far (black's, white's, or by the
    /// parity of the ply): `None` from a move without a time on, and both once a total was
    /// warned of.
    sums: [Option<(u32, u32)>; 2],
}

impl Default for Totals {
    fn default() -> Totals {
        Totals { sums: [Some((0, 0)); 2] }
    }
}

impl Totals {
    /// Adds `seconds`, the time of `what` (a move or an ending) of `side` (0 or 1), and
    /// checks `total`, the record's running total there: the warning's message when it is
    /// not the sum.
    pub fn check(
        &mut self,
        side: usize,
        seconds: Option<u32>,
        total: Option<u32>,
        what: &str,
    ) -> Option<String> {
        let now = self.sums[side].zip(seconds).and_then(|((sum, n), s)| Some((sum.checked_add(s)?, n + 1)));
        self.sums[side] = now;
        let ((sum, moves), total) = (now?, total?);
        if (sum..=sum.saturating_add(moves)).contains(&total) || total == 0 && seconds == Some(0) {
            return None;
        }
        self.sums = [None; 2];
        Some(format!(
            "the running total of the times at {what} is {} where the times read sum to {}: each move's own \
             time is kept, the totals are not (a KIF or JKF written from the game gives the sums)",
            clock_text(total),
            clock_text(sum)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_headers_name_games() {
        assert_eq!(named_variant("槍将棋"), Some(Ok(Variant::Yari)));
        assert_eq!(named_variant(" Yari Shogi "), Some(Ok(Variant::Yari)));
        assert_eq!(named_variant("本将棋"), Some(Ok(Variant::Standard)));
        for unknown in ["中将棋", "5五将棋", "どうぶつしょうぎ", "Chu shogi", "minishogi"] {
            assert_eq!(named_variant(unknown), Some(Err(UnknownVariant(unknown.to_string()))), "{unknown}");
        }
        for handicap in ["平手", "香落ち", "その他", "Even", "ha", ""] {
            assert_eq!(named_variant(handicap), None, "{handicap}");
        }
    }

    /// A game of a million and one moves, in each format's own words: every reader keeps
    /// the first million and stops at the next, as `too_many_moves` on that move's line.
    #[test]
    fn a_line_holds_at_most_a_million_moves() {
        use crate::kifu::{Format, read};
        let pairs = 500_000;
        let json_moves = r#"{"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU","color":0}},"#;
        let kif: String = (1..=2 * pairs + 1)
            .map(|n| format!("{n:>4} {}\n", if n % 2 == 1 { "７六歩(77)" } else { "３四歩(33)" }))
            .collect();
        let cases = [
            (Format::Kif, format!("手合割：平手\n手数----指手---------消費時間--\n{kif}"), 1_000_003),
            (Format::Usi, format!("position startpos moves {}7g7f\n", "7g7f 3c3d ".repeat(pairs)), 1),
            (Format::Csa, format!("PI\n+\n{}+7776FU\n", "+7776FU\n-3334FU\n".repeat(pairs)), 1_000_003),
            (Format::Ki2, format!("手合割：平手\n{}▲７六歩\n", "▲７六歩 △３四歩\n".repeat(pairs)), 500_002),
            (Format::Western, format!("[Event \"x\"]\n\n{}P-7f\n", "P-7f P-3d\n".repeat(pairs)), 500_003),
            (
                Format::Jkf,
                format!(
                    r#"{{"header":{{}},"moves":[{{}},{}{}]}}"#,
                    json_moves.repeat(2 * pairs),
                    &json_moves[..json_moves.len() - 1]
                ),
                1,
            ),
        ];
        for (format, text, line) in cases {
            let games = read(format, &text);
            assert_eq!(games.len(), 1, "{format}");
            assert_eq!(games[0].moves.len(), 1_000_000, "{format}");
            let problem = games[0].problem.as_ref().unwrap_or_else(|| panic!("{format}: no problem"));
            assert_eq!((problem.code(), problem.line), ("too_many_moves", line), "{format}");
            assert!(problem.to_string().contains("more than 1000000 moves"), "{format}: {problem}");
        }
    }

    #[test]
    fn turns_alternate() {
        assert_eq!(turn_after(Color::White, 3), Color::Black);
        assert_eq!(turn_after(Color::Black, 0), Color::Black);
    }
}
