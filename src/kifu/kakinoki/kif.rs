//! The KIF reader (`.kif`, `.kifu`): Kakinoki's numbered move table.
//!
//! ```text
//! 手合割：平手
//! 先手：羽生善治
//! 手数----指手---------消費時間--
//!    1 ７六歩(77)   ( 0:01/00:00:01)
//! *a comment on 1.７六歩
//!    2 同　歩(23)   ( 0:02/00:00:02)+
//!    3 投了
//! まで2手で後手の勝ち
//!
//! 変化：2手
//!    2 ３四歩(33)
//! ```
//!
//! Flow: the header section (`key：value` headers, kept raw and in order; 手合割; a board
//! diagram, see [`bod`](super::bod), which overrides 手合割; `*` comments on the start) runs up
//! to the `手数----指手--` line or the first move row; then every row is `number move [time] [+]`,
//! where the move is a Japanese move with its origin in parentheses (read by
//! [`japanese::parse`]) or a word that ends the game (`投了`, `先手 反則負け`, …). Move numbers
//! are not trusted: moves are counted. `*` lines are comments on the move before them, and so
//! are `&` lines (bookmarks) and a `#` remark at the end of a row, kept as written; `#` lines
//! are skipped, `まで…` gives the stated result and `変化：N手` starts a variation.
//! A row whose move cannot be read stops its line there ([`Game::problem`] for the main line);
//! a number with no move after it does the same; any other line, in the header section or
//! among the moves, is skipped with an `unknown_line` warning ([`Game::warnings`]). KIF
//! writes the origin of every board move, so a move without origin, 打 or 同 (`12金`, as
//! Kakinoki's own tsume files write drops) is a drop.

use super::{
    Boundary, KakinokiError, Preamble, Tree, games, opens_summary, read_pieces, shared_body_line, start_turn,
    starts_as_move, strip_remark, terminal, variation_start, without_moves,
};
use crate::{
    kifu::{Format, Game, MoveEntry, Piece, encoding::head_lines},
    notation::{
        MoveToken,
        japanese::{self, Destination},
    },
    shogi::Variant,
    text::{ascii_digit, is_space, trim_end_space, trim_space, trim_start_space},
};

/// Whether `text` looks like a KIF record: a `手数----` line, or rows like `1 ７六歩(77)`, or
/// headers alone.
pub fn looks_like(text: &str) -> bool {
    let has_moves = head_lines(text).any(|(_, line)| {
        let t = line.trim_start();
        t.starts_with("手数--")
            || row(line).is_some_and(|r| {
                terminal(r.text).is_some()
                    || japanese::parse(r.text).is_ok_and(|m| m.origin.is_some() || m.drop)
            })
    });
    // A record of headers and a `まで` line, with no move table, is KI2's: in KIF the line
    // belongs after the table.
    has_moves || (without_moves(text) && !head_lines(text).any(|(_, line)| opens_summary(line)))
}

/// Reads a KIF record: its game, or each of its games when files were put one after the
/// other: a game starts again where a header section follows moves. The `Vec` is empty only
/// for text with nothing in it.
pub fn read(text: &str) -> Vec<Game> {
    read_as(text, None)
}

/// Reads a KIF record as [`read`] does, its games as games of `variant` when given: a game
/// whose 手合割 names no game is read as one of `variant`, and one whose 手合割 names another
/// game (or, for yari shogi, a handicap) is stopped with the reason (`wrong_variant`).
pub fn read_as(text: &str, variant: Option<Variant>) -> Vec<Game> {
    read_after(text, 0, variant)
}

/// Reads the games of `text`, a piece of a KIF record after its line `lines_before` that
/// starts where a game does (see [`game_pieces`]), as [`read_as`] reads them in the whole.
pub(crate) fn read_after(text: &str, lines_before: u32, variant: Option<Variant>) -> Vec<Game> {
    read_pieces(game_pieces(text), lines_before, |piece| read_game(piece, variant))
}

/// The games of a KIF text, each a piece of it (see [`games`]).
pub(crate) fn game_pieces(text: &str) -> Vec<Piece<'_>> {
    games(text, Format::Kif, starts_as_row, ends_game)
}

fn read_game(piece: Piece<'_>, variant: Option<Variant>) -> Option<Game> {
    let (mut preamble, body) = Preamble::read(piece, |line| {
        if trim_start_space(line).starts_with("手数--") {
            Boundary::Closing
        } else if row(line).is_some() || variation_start(line).is_some() {
            Boundary::Body
        } else {
            Boundary::Header
        }
    })?;
    let first = body.clone().map_while(|(_, l)| (variation_start(l).is_none()).then_some(l)).find_map(row);
    preamble.variant = variant;
    let (mut game, previous) = preamble.finish(first.map(|r| r.number), None);
    if game.problem.is_some() {
        return Some(game);
    }
    let (turn, first_number) = start_turn(&game.start);
    // A row a move, of some thirty bytes.
    let mut tree = Tree::new(turn, first.map_or(first_number, |r| r.number), previous, piece.text.len() / 30);
    for (n, line) in body {
        body_line(&mut tree, n, line);
    }
    tree.finish(&mut game);
    Some(game)
}

/// Reads one line of the move section into the tree.
fn body_line(tree: &mut Tree, n: u32, line: &str) {
    // A row in the usual layout starts with its number: none of the lines both formats share.
    if let Some(r) = plain_row(line) {
        return body_row(tree, n, r);
    }
    if shared_body_line(tree, n, line) {
        return;
    }
    let Some(r) = row(line) else {
        // A number with nothing readable after it (a row cut short) stops the line; other
        // lines (a tool's stray text, a header out of place) are skipped, with a warning.
        let t = line.trim_start_matches(is_space);
        if t.starts_with(|c: char| c.is_ascii_digit()) && !tree.closed() {
            let number = t.split(|c: char| !c.is_ascii_digit()).next().unwrap_or_default();
            tree.fail(n, KakinokiError::EmptyRow { number: number.to_string() });
        } else {
            tree.skip(n, line);
        }
        return;
    };
    body_row(tree, n, r);
}

/// Reads a move row into the tree.
fn body_row(tree: &mut Tree, n: u32, r: Row<'_>) {
    if !tree.row_in_order(n, r.number) {
        return;
    }
    if let Some(block) = r.unread_time {
        tree.unread_time(n, r.text, block);
    }
    tree.time_total(n, r.text, r.seconds, r.total);
    if let Some(end) = terminal(r.text) {
        // A remark on an ending read past (a second one) goes with it.
        if tree.end(end, r.text, n, r.seconds) {
            for comment in r.after_time.into_iter().chain(r.remark) {
                tree.comment(comment);
            }
        }
        return;
    }
    if tree.closed() {
        tree.unread_move();
        return;
    }
    match japanese::parse(r.text) {
        Ok(mut m) => {
            // KIF gives every board move its origin: a move with neither origin nor 同 is a
            // drop even when 打 is left out (`12金` in Kakinoki's own tsume files).
            if !m.drop
                && m.origin.is_none()
                && m.destination != Destination::Same
                && m.piece.is_some()
                && m.promotion.is_none()
            {
                (m.drop, m.drop_unwritten) = (true, true);
            }
            let token = MoveToken::Japanese(m);
            let comments = r.after_time.into_iter().chain(r.remark).map(str::to_string).collect();
            tree.push(MoveEntry { token, line: n, seconds: r.seconds, comments });
        }
        Err(error) => tree.fail(n, KakinokiError::Row { number: r.number.to_string(), error }),
    }
}

/// Whether a line starts as a move row does, with its number and a space (what [`row`] reads,
/// told at the cost of a look at its first bytes).
fn starts_as_row(line: &str) -> bool {
    let (digits, after, text) = number_and_text(line);
    // Spaces after the number, then something.
    (1..=9).contains(&digits) && text.len() < after.len() && !text.is_empty()
}

/// A line's leading number as the count of its ASCII digits (after white space), what follows
/// them, and that without the white space it starts with: a row's text. Told by bytes, as
/// every line of a file is when it is cut into games.
fn number_and_text(line: &str) -> (usize, &str, &str) {
    let t = trim_start_space(line);
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let after = &t[digits..];
    (digits, after, trim_start_space(after))
}

/// Whether a line is a row whose move is a word that ends the game (`  95 投了`). A row whose
/// text starts as a move does ([`starts_as_move`]) is told by that character, before the row
/// is read: a row's text starts at the first character after its number and the spaces
/// that follow it.
fn ends_game(line: &str) -> bool {
    let (_, _, after_number) = number_and_text(line);
    !after_number.starts_with(starts_as_move) && any_row(line).is_some_and(|r| terminal(r.text).is_some())
}

/// [`row`], read in one pass ([`plain_row`]) when the line has the usual layout.
fn any_row(line: &str) -> Option<Row<'_>> {
    plain_row(line).or_else(|| row(line))
}

/// A move row: its number, the move text and the time spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Row<'a> {
    number: u32,
    text: &'a str,
    seconds: Option<u32>,
    /// The time block's second part, the running total of the mover's times, in seconds.
    total: Option<u32>,
    /// The inside of a time block that holds no time (`( 0:xx/00:00:00)`).
    unread_time: Option<&'a str>,
    /// Text after the time block (besides the `+` that marks a move with variations), which
    /// no writer means as part of the move: kept as a comment of the move or ending, as
    /// written.
    after_time: Option<&'a str>,
    /// The text after a `#` at the end of the row (a dialect some tools write), kept as a
    /// comment of the move or ending, `#` and all.
    remark: Option<&'a str>,
}

/// Splits `  12 ７六歩(77)   ( 0:01/00:00:01)+#remark` into its parts.
fn row(line: &str) -> Option<Row<'_>> {
    let t = trim_start_space(line);
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 9 {
        return None;
    }
    let rest = &t[digits..];
    if !rest.starts_with(is_space) {
        return None;
    }
    let number = t[..digits].parse().ok()?;
    let remark = rest.find('#').map(|at| trim_end_space(&rest[at..])).filter(|r| r.len() > 1);
    let rest = strip_remark(rest).trim_matches(is_space);
    let rest = rest.strip_suffix('+').unwrap_or(rest).trim_end_matches(is_space);
    if rest.is_empty() {
        return None;
    }
    let (text, seconds, total, unread_time, after_time) = match time_block(rest) {
        Some((at, inside, end)) => {
            let seconds = time_spent(inside);
            let text = rest[..at].trim_end_matches(is_space);
            let after = trim_space(&rest[end..]);
            (
                text,
                seconds,
                time_total(inside),
                seconds.is_none().then_some(inside),
                Some(after).filter(|a| !a.is_empty()),
            )
        }
        None => (rest, None, None, None, None),
    };
    Some(Row { number, text, seconds, total, unread_time, after_time, remark })
}

/// [`row`] for the layout nearly every KIF writer uses, `  12 ７六歩(77)   ( 0:01/00:00:01)`, in
/// one pass over its bytes: ASCII spaces, the number, the move, and a time block at the end of
/// the line (then perhaps a `+`) with ASCII digits, spaces, `:` and `/` in it. `None` for
/// any other line, which [`row`] reads; where this gives a row, it is the one [`row`] gives.
fn plain_row(line: &str) -> Option<Row<'_>> {
    let b = line.as_bytes();
    let start = b.iter().take_while(|&&c| c == b' ').count();
    let digits = b[start..].iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || digits > 9 || b.get(start + digits) != Some(&b' ') {
        return None;
    }
    let number = b[start..start + digits].iter().fold(0, |n, &d| n * 10 + u32::from(d - b'0'));
    let from = start + digits + b[start + digits..].iter().take_while(|&&c| c == b' ').count();
    let end = if b.last() == Some(&b'+') { b.len() - 1 } else { b.len() };
    let body = &line[from..end];
    // The time block: back from its `)` over ASCII digits, spaces, `:` and `/` (one of those
    // two at least) to its `(`.
    let timed = body.strip_suffix(')').and_then(|before| {
        let b = before.as_bytes();
        let open = b.iter().rposition(|&c| !(c.is_ascii_digit() || matches!(c, b' ' | b':' | b'/')))?;
        let inside = &before[open + 1..];
        let time = b[open] == b'(' && inside.bytes().any(|c| matches!(c, b':' | b'/'));
        let spaces = b[..open].iter().rev().take_while(|&&c| c == b' ').count();
        time.then(|| (&before[..open - spaces], inside))
    });
    let (text, seconds, total, unread_time) = match timed {
        Some((text, inside)) => {
            let (seconds, total) = plain_time(inside);
            (text, seconds, total, seconds.is_none().then_some(inside))
        }
        None => (body, None, None, None),
    };
    plain_move(text).then_some(Row {
        number,
        text,
        seconds,
        total,
        unread_time,
        after_time: None,
        remark: None,
    })
}

/// [`time_spent`] and [`time_total`] for a time block of ASCII digits, spaces, `:` and `/`:
/// the time used (before the first `/`) and the total after it, each read by [`plain_clock`].
fn plain_time(block: &str) -> (Option<u32>, Option<u32>) {
    let b = block.as_bytes();
    match b.iter().position(|&c| c == b'/') {
        Some(slash) => (plain_clock(&b[..slash]), plain_clock(&b[slash + 1..])),
        None => (plain_clock(b), None),
    }
}

/// [`clock`] in one pass over ASCII bytes: two or three parts between `:`, each digits with
/// spaces around them.
fn plain_clock(b: &[u8]) -> Option<u32> {
    // The running total as nearly every writer gives it, `hh:mm:ss`, at a glance.
    if let [h1, h2, b':', m1, m2, b':', s1, s2] = *b {
        let digits = [h1, h2, m1, m2, s1, s2];
        if digits.iter().all(u8::is_ascii_digit) {
            let [h1, h2, m1, m2, s1, s2] = digits.map(|d| u32::from(d - b'0'));
            return Some(((h1 * 10 + h2) * 60 + m1 * 10 + m2) * 60 + s1 * 10 + s2);
        }
    }
    let (mut total, mut value, mut parts) = (0u32, 0u32, 0);
    // Whether the part has digits, and whether a space came after them.
    let (mut digits, mut ended) = (false, false);
    for &c in b {
        match c {
            b'0'..=b'9' if !ended => {
                value = value.checked_mul(10)?.checked_add(u32::from(c - b'0'))?;
                digits = true;
            }
            b' ' => ended = digits,
            b':' if digits => {
                total = total.checked_mul(60)?.checked_add(value)?;
                (value, parts, digits, ended) = (0, parts + 1, false, false);
            }
            _ => return None,
        }
    }
    if !digits {
        return None;
    }
    total = total.checked_mul(60)?.checked_add(value)?;
    (1..=2).contains(&parts).then_some(total)
}

/// Whether [`row`] reads `text`, a row's move as [`plain_row`] cut it, as that move: it has no
/// space at either end, no remark, nothing a time block holds (`:` `/` `：` `／`), no
/// full-width parenthesis, and each `(` in it closes in it.
fn plain_move(text: &str) -> bool {
    let (Some(first), Some(last)) = (text.chars().next(), text.chars().next_back()) else {
        return false;
    };
    if is_space(first) || is_space(last) {
        return false;
    }
    // One pass over the bytes: the full-width characters refused are EF BC 9A (：), 8F (／),
    // 88 (（) and 89 (）).
    let b = text.as_bytes();
    let mut open = false;
    for (i, &c) in b.iter().enumerate() {
        if c.is_ascii() {
            if c == b'#' || c == b':' || c == b'/' {
                return false;
            }
            open = (open || c == b'(') && c != b')';
        } else if c == 0xEF
            && b.get(i + 1) == Some(&0xBC)
            && matches!(b.get(i + 2), Some(0x9A | 0x8F | 0x88 | 0x89))
        {
            return false;
        }
    }
    !open
}

/// The time block of a row: the first parenthesized part (half- or full-width parentheses)
/// with a `:` or `/` (either width) in it, as its start, its inside and its end (past its
/// closing parenthesis, if it has one); `(77)` is an origin.
/// Moves are read by the million, so this looks at bytes: every character it looks for is
/// ASCII or starts with the bytes EF BC.
fn time_block(rest: &str) -> Option<(usize, &str, usize)> {
    const OPEN: &str = "（";
    let bytes = rest.as_bytes();
    let mut from = 0;
    while let Some(found) = bytes[from..].iter().position(|&b| b == b'(' || b == 0xEF) {
        let at = from + found;
        let open = if bytes[at] == b'(' {
            1
        } else if rest[at..].starts_with(OPEN) {
            OPEN.len()
        } else {
            from = at + 1;
            continue;
        };
        let inner = &rest[at + open..];
        let first = inner.as_bytes().iter().position(|&b| b == b')' || b == 0xEF).unwrap_or(inner.len());
        let end = if first == inner.len() || inner[first..].starts_with([')', '）']) {
            first
        } else {
            // Another full-width character (a digit, a colon): look on for the parenthesis.
            inner.find([')', '）']).unwrap_or(inner.len())
        };
        let inside = &inner[..end];
        let separator = inside.bytes().any(|b| b == b':' || b == b'/') || inside.contains(['：', '／']);
        if separator {
            let close =
                inner[end..].chars().next().filter(|c| matches!(c, ')' | '）')).map_or(0, char::len_utf8);
            return Some((at, inside, at + open + end + close));
        }
        from = at + open;
    }
    None
}

/// The seconds of a time block's first part: `m:ss`, `h:mm:ss`, with or without padding,
/// in half- or full-width digits.
fn time_spent(block: &str) -> Option<u32> {
    clock(block.split(['/', '／']).next()?)
}

/// The seconds of a time block's second part, after its `/`: the running total, read as
/// [`time_spent`] reads the first.
fn time_total(block: &str) -> Option<u32> {
    clock(block.split_once(['/', '／'])?.1)
}

/// The seconds of `m:ss` or `h:mm:ss`, spaces around.
fn clock(text: &str) -> Option<u32> {
    let text = text.trim_matches(is_space);
    let mut total: u32 = 0;
    let mut parts = 0;
    for part in text.split([':', '：']) {
        let part = part.trim_matches(is_space);
        // What `str::parse` takes: an optional `+`, then at least one digit.
        let digits = part.strip_prefix('+').unwrap_or(part);
        let mut value: u32 = 0;
        for c in digits.chars() {
            let digit = ascii_digit(c).to_digit(10)?;
            value = value.checked_mul(10)?.checked_add(digit)?;
        }
        if digits.is_empty() {
            return None;
        }
        total = total.checked_mul(60)?.checked_add(value)?;
        parts += 1;
    }
    (2..=3).contains(&parts).then_some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record after lines of notes is told as one while its first lines lie within the
    /// bytes looked at (64 KiB), however many lines the notes take; past them, it is not.
    #[test]
    fn a_record_after_many_lines_of_notes_is_told_by_the_first_64_kib() {
        let kif = "先手：甲\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 投了\n";
        let ki2 = "先手：甲\n▲７六歩    △３四歩\nまで2手で後手の勝ち\n";
        for lines in [391, 392, 5_000] {
            let notes = "ab\n".repeat(lines);
            assert!(looks_like(&format!("{notes}{kif}")), "{lines} lines");
            assert!(crate::kifu::ki2::looks_like(&format!("{notes}{ki2}")), "{lines} lines");
        }
        let notes = "ab\n".repeat(crate::kifu::encoding::LOOK_BYTES / 3 + 1);
        assert!(!looks_like(&format!("{notes}{kif}")));
        assert!(!crate::kifu::ki2::looks_like(&format!("{notes}{ki2}")));
    }

    #[test]
    fn rows_in_every_layout_seen() {
        let r = row("   1 ７六歩(77)   ( 0:01/00:00:01)").unwrap();
        assert_eq!((r.number, r.text, r.seconds), (1, "７六歩(77)", Some(1)));
        let r = row("1 ７六歩(77)    ( 0:01/00:00:01)+").unwrap();
        assert_eq!((r.text, r.seconds), ("７六歩(77)", Some(1)));
        let r = row("  21 ２五歩(26)   (17:00/00:40:00)").unwrap();
        assert_eq!(r.seconds, Some(1020));
        let r = row(" 169 投了          (00:01 / 01:21:06)").unwrap();
        assert_eq!((r.text, r.seconds), ("投了", Some(1)));
        let r = row("   2 ８四歩(83)   ( 0:7/)").unwrap();
        assert_eq!(r.seconds, Some(7));
        let r = row("36   ４三金(42)   (1:47/0:7:45)").unwrap();
        assert_eq!((r.text, r.seconds), ("４三金(42)", Some(107)));
        let r = row("   1 ８四歩(83)( 0:01/00:00:01)").unwrap();
        assert_eq!(r.text, "８四歩(83)");
        let r = row("   1 ７六歩(77)   +").unwrap();
        assert_eq!((r.text, r.seconds), ("７六歩(77)", None));
        let r = row("   1 ８六歩(87)    (00:00 / 00:00:00)#コメント7").unwrap();
        assert_eq!(r.text, "８六歩(87)");
        let r = row("2 先手 反則負け ( 0:22/00:04:53)").unwrap();
        assert_eq!((r.text, r.seconds), ("先手 反則負け", Some(22)));
        assert_eq!(row("   1 12金").unwrap().text, "12金");
        let r = row("   3 ２六歩(27)   ( 0:01/00:00:0").unwrap();
        assert_eq!((r.text, r.seconds), ("２六歩(27)", Some(1)));
        let r = row("   1 ７六歩(77)   （ 0:01/00:00:01）").unwrap();
        assert_eq!((r.text, r.seconds), ("７六歩(77)", Some(1)));
        let r = row("   1 ７六歩（77）( ０：０５／００：００：０５)").unwrap();
        assert_eq!((r.text, r.seconds), ("７六歩（77）", Some(5)));
        assert_eq!(row("   1 ７六歩(77) ( x:01/00:00:01)").unwrap().seconds, None);
        assert_eq!(row("   1 ７六歩(77) ( :01/00:00:01)").unwrap().seconds, None);
        assert_eq!(row("   1 ７六歩(77) ( 99999999:01/)").unwrap().seconds, None);
        assert_eq!(row("手数----指手--"), None);
        assert_eq!(row("  ９ ８ ７"), None);
        assert_eq!(row("12"), None);
        assert_eq!(row("12金"), None);
    }

    /// Every line made of the parts rows are seen in, and of the parts that come near them:
    /// where the one-pass reading gives a row, it is the row the general reading gives.
    #[test]
    fn the_one_pass_reading_of_a_row_is_the_general_one() {
        let leads = ["", "   ", " \t", "\u{3000}", "12"];
        let numbers = ["1", "  21", "123456789", "1234567890", "0", "x"];
        let gaps = [" ", "   ", "\t", "\u{3000}", ""];
        let moves = [
            "７六歩(77)",
            "同　歩(23)",
            "投了",
            "先手 反則負け",
            "12金",
            "７六歩(77",
            "７六歩(77)#remark",
            "７六歩（77）",
            "７六歩（77",
            "(",
            "７六(77)歩(1",
            "7:6歩(77)",
            "",
            "７六歩(77) ",
            "７六歩\t(77)",
            "76歩(77)",
            "七六歩",
            "中断",
            "Time-up",
            "後手の投了",
            "\u{3000}投了",
        ];
        let times = [
            "",
            "   ( 0:01/00:00:01)",
            "( 0:01/00:00:01)",
            " (00:00 / 00:00:00)",
            " ( 0:7/)",
            " (1:47/0:7:45)",
            " ( x:01/00:00:01)",
            " （ 0:01/00:00:01）",
            " ( 0:01/00:00:0",
            "\u{3000}( 0:01/00:00:01)",
            " ( 99999999:01/)",
            " (77)",
            " ( :01/)",
            " ( 1 2:01/)",
            " (0:01:02:03/)",
            " (5/)",
            " (71582789:00/)",
            " (0:4294967295/)",
        ];
        let ends = ["", "+", " +", "   ", "\u{3000}", "++"];
        let (mut lines, mut plain) = (0, 0);
        for lead in leads {
            for number in numbers {
                for gap in gaps {
                    for mv in moves {
                        for time in times {
                            for end in ends {
                                let line = format!("{lead}{number}{gap}{mv}{time}{end}");
                                lines += 1;
                                assert_eq!(any_row(&line), row(&line), "{line:?}");
                                let general = row(&line).is_some_and(|r| terminal(r.text).is_some());
                                assert_eq!(ends_game(&line), general, "{line:?}");
                                if let Some(r) = plain_row(&line) {
                                    plain += 1;
                                    assert_eq!(Some(r), row(&line), "{line:?}");
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(plain > 3_000, "only {plain} of {lines} lines read in one pass");
        // The usual layouts are.
        for line in [
            "   1 ７六歩(77)   ( 0:01/00:00:01)",
            "   2 同　歩(23)   ( 0:02/00:00:02)+",
            " 169 投了          (00:01 / 01:21:06)",
            "   1 ７六歩(77)",
        ] {
            assert!(plain_row(line).is_some(), "{line}");
        }
    }

    #[test]
    fn kif_is_told_from_other_text() {
        assert!(looks_like("手合割：平手\n手数----指手---------消費時間--\n"));
        assert!(looks_like("1 ７六歩(77)\n2 ３四歩(33)\n"));
        assert!(!looks_like("▲７六歩 △３四歩\n"));
        assert!(!looks_like("position startpos moves 7g7f\n"));
    }
}
