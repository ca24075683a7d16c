//! The KI2 reader (`.ki2`, `.ki2u`): Kakinoki's moves in Japanese notation, several a line.
//!
//! ```text
//! 手合割：平手
//! 先手：羽生善治
//!
//! ▲７六歩    △３四歩    ▲２六歩    △８四歩
//! ▲２五歩△８五歩▲７八金
//! *a comment on ▲７八金
//! まで7手で中断
//! ```
//!
//! Flow: the header section is the same as KIF's (see [`kif`](super::kif)) and runs up to the
//! first line that starts with a side mark (▲ △ ▽ ▼ ☗ ☖). A move line is cut into
//! moves at every side mark, whatever the spacing (none, half- or full-width spaces); each
//! move is read by [`japanese::parse`], 同 with or without the space. A mark followed by a word
//! that ends the game (`△投了`) ends it. `*` comments, `まで…` and `変化：N手` are read as in
//! KIF; any other line (a tool's footer, stray text) is skipped with an `unknown_line`
//! warning ([`Game::warnings`]). A move that cannot be read stops its line there
//! ([`Game::problem`] for the main line).

use super::{
    Boundary, Preamble, Terminal, Tree, games, opens_summary, read_pieces, shared_body_line, start_turn,
    terminal, variation_start, without_moves,
};
use crate::{
    kifu::{Format, Game, MoveEntry, Piece, encoding::head_lines},
    notation::{MoveToken, japanese},
    shogi::{Color, Variant},
    text::{is_space, trim_space, trim_start_space},
};

/// The side a mark names: ▲ ☗ ▼ for Black, △ ☖ ▽ for White.
fn mark(c: char) -> Option<Color> {
    match c {
        '▲' | '☗' | '▼' => Some(Color::Black),
        '△' | '☖' | '▽' => Some(Color::White),
        _ => None,
    }
}

/// Whether a line is a move line: it starts with a side mark.
fn is_move_line(line: &str) -> bool {
    trim_start_space(line).chars().next().is_some_and(|c| mark(c).is_some())
}

/// The moves of a move line, each with its side mark: `▲７六歩△同　歩` gives `▲７六歩`,
/// `△同　歩`.
fn tokens(line: &str) -> impl Iterator<Item = (Color, &str)> {
    let t = trim_space(line);
    let mut starts = t.char_indices().filter(|&(_, c)| mark(c).is_some()).map(|(i, _)| i).peekable();
    std::iter::from_fn(move || {
        let start = starts.next()?;
        let end = starts.peek().copied().unwrap_or(t.len());
        let token = t[start..end].trim_end_matches(is_space);
        let color = token.chars().next().and_then(mark).expect("a token starts with its mark");
        Some((color, token))
    })
}

/// A token split before an ending word with no mark that follows its move after a space:
/// `▲２六歩 投了` gives `▲２六歩` and the ending.
fn split_ending(token: &str) -> (&str, Option<(Terminal, &str)>) {
    let Some((i, c)) = token.char_indices().rev().find(|&(_, c)| is_space(c)) else { return (token, None) };
    let word = &token[i + c.len_utf8()..];
    match terminal(word) {
        Some(end) => (token[..i].trim_end_matches(is_space), Some((end, word))),
        None => (token, None),
    }
}

/// A move of a move line without its side mark: `▲７六歩` gives `７六歩`.
fn after_mark(token: &str) -> &str {
    token[token.chars().next().map_or(0, char::len_utf8)..].trim_matches(is_space)
}

/// Whether `text` looks like a KI2 record: move lines with side marks, and no KIF move table;
/// or a record with no moves yet (headers, a board diagram, comments, a `まで` line), which
/// KIF and KI2 write alike.
pub fn looks_like(text: &str) -> bool {
    let mut found = false;
    for (_, line) in head_lines(text) {
        if line.trim_start_matches(is_space).starts_with("手数--") {
            return false;
        }
        found |= is_move_line(line) && tokens(line).any(|(_, t)| japanese::parse(t).is_ok());
    }
    found || without_moves(text)
}

/// Reads a KI2 record: its game, or each of its games when files were put one after the
/// other: a game starts again where a header section follows moves. The `Vec` is empty only
/// for text with nothing in it.
pub fn read(text: &str) -> Vec<Game> {
    read_as(text, None)
}

/// Reads a KI2 record as [`read`] does, its games as games of `variant` when given: a game
/// whose 手合割 names no game is read as one of `variant`, and one whose 手合割 names another
/// game (or, for yari shogi, a handicap) is stopped with the reason (`wrong_variant`).
pub fn read_as(text: &str, variant: Option<Variant>) -> Vec<Game> {
    read_after(text, 0, variant)
}

/// Reads the games of `text`, a piece of a KI2 record after its line `lines_before` that
/// starts where a game does (see [`game_pieces`]), as [`read_as`] reads them in the whole.
pub(crate) fn read_after(text: &str, lines_before: u32, variant: Option<Variant>) -> Vec<Game> {
    read_pieces(game_pieces(text), lines_before, |piece| read_game(piece, variant))
}

/// The games of a KI2 text, each a piece of it (see [`games`]).
pub(crate) fn game_pieces(text: &str) -> Vec<Piece<'_>> {
    games(text, Format::Ki2, is_move_line, |line| {
        tokens(line).any(|(_, token)| terminal(after_mark(token)).is_some())
    })
}

fn read_game(piece: Piece<'_>, variant: Option<Variant>) -> Option<Game> {
    let (mut preamble, body) = Preamble::read(piece, |line| {
        if is_move_line(line) || variation_start(trim_space(line)).is_some() || opens_summary(line) {
            Boundary::Body
        } else {
            Boundary::Header
        }
    })?;
    let first_turn =
        body.clone().find_map(|(_, l)| is_move_line(l).then(|| tokens(l).next().map(|(c, _)| c))?);
    preamble.variant = variant;
    let (mut game, previous) = preamble.finish(None, first_turn);
    if game.problem.is_some() {
        return Some(game);
    }
    let (turn, first_number) = start_turn(&game.start);
    // Several moves a line, each of about eight bytes.
    let mut tree = Tree::new(turn, first_number, previous, piece.text.len() / 8);
    for (n, line) in body {
        if shared_body_line(&mut tree, n, line) {
            continue;
        }
        if !is_move_line(line) {
            // An ending word with no mark, on a line of its own, is the side to move's.
            match terminal(line) {
                Some(end) => {
                    tree.end(end, line.trim_matches(is_space), n, None);
                }
                None => tree.skip(n, line),
            }
            continue;
        }
        for (color, token) in tokens(line) {
            // An ending word with no mark after a move (`▲２六歩 投了`) ends the game there.
            let (token, unmarked_end) = split_ending(token);
            let body = after_mark(token);
            if body.is_empty() {
                continue;
            }
            if let Some(mut end) = terminal(body) {
                end.named = end.named.or(Some(color));
                tree.end(end, body, n, None);
                break;
            }
            if tree.closed() {
                tree.unread_move();
            } else {
                match japanese::parse(token) {
                    Ok(m) => {
                        let entry = MoveEntry {
                            token: MoveToken::Japanese(m),
                            line: n,
                            seconds: None,
                            comments: Vec::new(),
                        };
                        tree.push(entry);
                    }
                    Err(e) => tree.fail(n, e.into()),
                }
            }
            if let Some((end, text)) = unmarked_end {
                tree.end(end, text, n, None);
                break;
            }
        }
    }
    tree.finish(&mut game);
    Some(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_lines_split_at_every_mark() {
        let got: Vec<_> = tokens("▲７六歩    △同　歩    ▲同　飛  ").map(|(_, t)| t).collect();
        assert_eq!(got, ["▲７六歩", "△同　歩", "▲同　飛"]);
        let got: Vec<_> = tokens("▲７三桂不成△５一玉▽３四歩").collect();
        assert_eq!(
            got,
            [(Color::Black, "▲７三桂不成"), (Color::White, "△５一玉"), (Color::White, "▽３四歩")]
        );
        assert!(is_move_line("  ▲７六歩"));
        assert!(!is_move_line("*▲７六歩"));
        assert!(!is_move_line("消費時間：▲4時間39分△4時間01分"));
    }

    #[test]
    fn ki2_is_told_from_other_text() {
        assert!(looks_like("手合割：平手\n▲７六歩 △３四歩\n"));
        assert!(!looks_like("手数----指手--\n   1 ７六歩(77)\n*▲７六歩\n"));
        assert!(!looks_like("position startpos moves 7g7f\n"));
    }
}
