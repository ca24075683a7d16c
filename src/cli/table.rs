//! Aligned text tables for the terminal, Japanese text included: columns are measured in
//! terminal cells (a kanji takes two), not in characters.
//!
//! A cell's control characters (a tab or line break in a name, an escape sequence in a
//! downloaded record's header) are shown as `\xNN`: a record's text never reaches the
//! terminal as a command to it, nor breaks a table's lines. Its bidirectional controls
//! (U+202E and the like) are shown as `<U+202E>`: sent as they are, they reorder the rest of
//! the line, so that one player's name can be made to look like another's. So are the line
//! and paragraph separators (U+2028, U+2029), which some terminals break a line at and others
//! show as nothing. CSV and JSON keep text as it is.
//!
//! On a terminal, a column is at most [`MAX_CELLS`] wide: a longer cell (a downloaded
//! record's name or event can run to hundreds of characters) is cut, and `…` shows where.
//! A table written into a pipe or a file is never cut, so that nothing is lost to a program
//! that reads it.

use std::{
    borrow::Cow,
    io::{self, IsTerminal},
};

use clap::ValueEnum;
use unicode_width::UnicodeWidthStr;

/// The widest a column of a table on a terminal is, in terminal cells (a kanji takes two):
/// room for a long event name, and half of a terminal of 80.
pub const MAX_CELLS: usize = 40;

/// The output formats of the commands that list rows (`games`, `players`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    /// An aligned table
    Table,
    /// JSON (see the command's description)
    Json,
    /// A CSV table with a header row
    Csv,
}

/// A table of text, written with every column aligned.
pub struct TextTable {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
    /// Columns from this one on are right-aligned (numbers).
    right_from: usize,
    /// A column whose cells, when cut, keep their end (a file's path, whose name is last).
    keep_end: Option<usize>,
}

impl TextTable {
    pub fn new(header: &[&str]) -> TextTable {
        TextTable {
            header: header.iter().map(|h| h.to_string()).collect(),
            rows: Vec::new(),
            right_from: usize::MAX,
            keep_end: None,
        }
    }

    /// Right-aligns column `column` and those after it.
    pub fn right_from(&mut self, column: usize) {
        self.right_from = column;
    }

    /// Cuts the cells of column `column` at their start, not their end, when they are too
    /// wide: a path keeps the file's name.
    pub fn keep_end(&mut self, column: usize) {
        self.keep_end = Some(column);
    }

    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// The table, a line a row, columns two spaces apart, no trailing spaces; for a terminal
    /// (when stdout is one), each cell at most [`MAX_CELLS`] wide.
    pub fn render(&self) -> String {
        self.render_within(io::stdout().is_terminal().then_some(MAX_CELLS))
    }

    /// Cell `cell` of column `column` as [`visible`] shows it, at most `max` cells wide when
    /// `max` is given.
    fn fit<'a>(&self, cell: &'a str, column: usize, max: Option<usize>) -> Cow<'a, str> {
        match max {
            Some(max) => cut(cell, max, self.keep_end == Some(column)),
            None if cell.chars().any(needs_showing) => Cow::Owned(visible(cell.to_string())),
            None => Cow::Borrowed(cell),
        }
    }

    /// The table, each cell at most `max` cells wide when `max` is given.
    fn render_within(&self, max: Option<usize>) -> String {
        let rows: Vec<Vec<Cow<'_, str>>> = self
            .rows
            .iter()
            .map(|row| row.iter().enumerate().map(|(i, cell)| self.fit(cell, i, max)).collect())
            .collect();
        let header: Vec<Cow<'_, str>> = self.header.iter().map(|h| Cow::Borrowed(h.as_str())).collect();
        let mut widths: Vec<usize> = header.iter().map(|h| h.width()).collect();
        for row in &rows {
            for (i, cell) in row.iter().enumerate() {
                if i < widths.len() {
                    widths[i] = widths[i].max(cell.width());
                }
            }
        }
        let mut out = String::new();
        for row in std::iter::once(&header).chain(&rows) {
            let mut line = String::new();
            for (i, cell) in row.iter().enumerate().take(widths.len()) {
                if i > 0 {
                    line.push_str("  ");
                }
                let pad = " ".repeat(widths[i] - cell.width());
                if i >= self.right_from {
                    line.push_str(&pad);
                    line.push_str(cell);
                } else {
                    line.push_str(cell);
                    line.push_str(&pad);
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

/// `cell` as [`visible`] shows it, in at most `max` terminal cells: whole when it fits, else
/// cut, with `…` where text was left out: at the end, or with `keep_end` at the start. A
/// character shown as several (`<U+202E>`, `\x1b`) is kept or left out whole, never cut
/// through.
fn cut(cell: &str, max: usize, keep_end: bool) -> Cow<'_, str> {
    let whole = if cell.chars().any(needs_showing) {
        Cow::Owned(visible(cell.to_string()))
    } else {
        Cow::Borrowed(cell)
    };
    if whole.width() <= max {
        return whole;
    }
    // The ellipsis takes one cell; a wide character that would not fit whole is left out.
    let room = max.saturating_sub(1);
    let mut used = 0;
    let mut kept: Vec<String> = Vec::new();
    let chars: Box<dyn Iterator<Item = char>> =
        if keep_end { Box::new(cell.chars().rev()) } else { Box::new(cell.chars()) };
    for c in chars {
        let mut unit = String::new();
        push_visible(&mut unit, c.encode_utf8(&mut [0; 4]));
        used += unit.width();
        if used > room {
            break;
        }
        kept.push(unit);
    }
    if keep_end {
        kept.reverse();
        Cow::Owned(format!("…{}", kept.concat()))
    } else {
        Cow::Owned(format!("{}…", kept.concat()))
    }
}

/// `text` with each control character written as `\xNN` (C0 and C1 controls, DEL) and each
/// bidirectional control or line separator as `<U+NNNN>`.
pub fn visible(text: String) -> String {
    if !text.chars().any(needs_showing) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 8);
    push_visible(&mut out, &text);
    out
}

/// Whole lines of text (a record `show` prints) as a terminal should get them: each line as
/// [`visible`] shows it, the line breaks kept. Text for a pipe or a file is written as it is.
pub fn visible_lines(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(|c| c != '\n' && needs_showing(c)) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        push_visible(&mut out, line);
    }
    std::borrow::Cow::Owned(out)
}

/// Adds `text` to `out` as [`visible`] shows it.
fn push_visible(out: &mut String, text: &str) {
    for c in text.chars() {
        if c.is_control() {
            out.push_str(&format!("\\x{:02x}", u32::from(c)));
        } else if is_bidi_control(c) || is_line_separator(c) {
            out.push_str(&format!("<U+{:04X}>", u32::from(c)));
        } else {
            out.push(c);
        }
    }
}

/// Whether [`visible`] writes `c` otherwise than as itself.
fn needs_showing(c: char) -> bool {
    c.is_control() || is_bidi_control(c) || is_line_separator(c)
}

/// The line and paragraph separators (U+2028, U+2029): not control characters to Unicode,
/// but line breaks to some terminals and nothing visible to others.
fn is_line_separator(c: char) -> bool {
    matches!(c, '\u{2028}' | '\u{2029}')
}

/// The invisible characters that change the display order of the text after them: the
/// embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) and the marks
/// (U+200E, U+200F, U+061C).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_shown_not_sent() {
        let mut t = TextTable::new(&["name", "n"]);
        t.row(vec!["\u{1b}]0;title\u{7}\u{1b}[31m赤".to_string(), "1".to_string()]);
        t.row(vec!["a\tb\nc\u{9b}d\u{7f}".to_string(), "2".to_string()]);
        let text = t.render();
        assert!(!text.chars().any(|c| c.is_control() && c != '\n'), "{text:?}");
        assert_eq!(text.lines().count(), 3, "{text}");
        assert!(text.contains("\\x1b]0;title\\x07\\x1b[31m赤"), "{text}");
        assert!(text.contains("a\\x09b\\x0ac\\x9bd\\x7f"), "{text}");
    }

    #[test]
    fn bidirectional_controls_are_shown_not_sent() {
        let mut t = TextTable::new(&["black", "white"]);
        t.row(vec!["\u{202e}中田".to_string(), "a\u{202a}b\u{202b}c\u{202c}d\u{202d}e".to_string()]);
        t.row(vec![
            "\u{2066}x\u{2067}y\u{2068}z\u{2069}".to_string(),
            "\u{200e}p\u{200f}q\u{061c}".to_string(),
        ]);
        assert_eq!(
            t.render(),
            "black                                white\n\
             <U+202E>中田                         a<U+202A>b<U+202B>c<U+202C>d<U+202D>e\n\
             <U+2066>x<U+2067>y<U+2068>z<U+2069>  <U+200E>p<U+200F>q<U+061C>\n"
        );
    }

    #[test]
    fn line_separators_are_shown_not_sent() {
        let mut t = TextTable::new(&["black", "n"]);
        t.row(vec!["花子\u{2028}次郎".to_string(), "1".to_string()]);
        t.row(vec!["名人\u{2029}戦".to_string(), "2".to_string()]);
        assert_eq!(t.render(), "black             n\n花子<U+2028>次郎  1\n名人<U+2029>戦    2\n");
    }

    #[test]
    fn lines_for_a_terminal_keep_their_breaks() {
        let record = "先手：\u{202e}太郎\n後手：\u{1b}[31m赤\t\u{2028}\n   1 ７六歩(77)\n";
        assert_eq!(
            visible_lines(record),
            "先手：<U+202E>太郎\n後手：\\x1b[31m赤\\x09<U+2028>\n   1 ７六歩(77)\n"
        );
        let plain = "先手：太郎\n";
        assert!(matches!(visible_lines(plain), std::borrow::Cow::Borrowed(t) if t == plain));
    }

    /// On a terminal a long cell is cut to [`MAX_CELLS`] with `…`, a kanji counting two cells;
    /// elsewhere it is kept whole.
    #[test]
    fn long_cells_are_cut_on_a_terminal_only() {
        let mut t = TextTable::new(&["event", "black", "path", "n"]);
        t.right_from(3);
        t.keep_end(2);
        t.row(vec!["a".repeat(45), "名".repeat(25), format!("{}/g.kif", "d".repeat(50)), "1".into()]);
        t.row(vec!["short".into(), "x名".repeat(3), "p.kif".into(), "22".into()]);
        // By hand: 39 a's and the ellipsis are 40 cells; 19 名 (38 cells) and the ellipsis are
        // 39, since a 20th would make 41; the path keeps its last 39 characters.
        let event = format!("{}…", "a".repeat(39));
        let black = format!("{}…", "名".repeat(19));
        let path = format!("…{}/g.kif", "d".repeat(33));
        let expected = format!(
            "event{}  black{}  path{}   n\n{event}  {black}  {path}   1\nshort{}  x名x名x名{}  p.kif{}  22\n",
            " ".repeat(35),
            " ".repeat(34),
            " ".repeat(36),
            " ".repeat(35),
            " ".repeat(30),
            " ".repeat(35),
        );
        assert_eq!(t.render_within(Some(MAX_CELLS)), expected);
        let whole = t.render_within(None);
        assert!(whole.contains(&"a".repeat(45)) && whole.contains(&"名".repeat(25)), "{whole}");
        assert!(whole.contains(&format!("{}/g.kif", "d".repeat(50))), "{whole}");
        // Nothing is cut that fits, and a column too narrow for one wide character keeps the
        // ellipsis alone.
        assert_eq!(cut("名人", 4, false), "名人");
        assert_eq!(cut("名人戦", 4, false), "名…");
        assert_eq!(cut("名人戦", 2, false), "…");
        assert_eq!(cut("名人戦", 2, true), "…");
        assert_eq!(cut("名人戦", 4, true), "…戦");
    }

    /// A cell cut on a terminal keeps or leaves out each shown control whole: cut through,
    /// `<U+2` would show no control at all, and the reader could not tell one was there.
    #[test]
    fn a_cut_never_splits_a_shown_control() {
        // The one cell of a one-column table on a terminal.
        let shown = |cell: String, keep_end: bool| {
            let mut t = TextTable::new(&["x"]);
            if keep_end {
                t.keep_end(0);
            }
            t.row(vec![cell]);
            t.render_within(Some(MAX_CELLS)).lines().nth(1).unwrap_or_default().to_string()
        };
        // By hand: 36 a's take 36 of the 39 cells before the ellipsis; `<U+202E>` takes 8.
        let cell = format!("{}\u{202e}{}", "a".repeat(36), "b".repeat(10));
        assert_eq!(shown(cell, false), format!("{}…", "a".repeat(36)));
        // 31 a's and the marker are 39 cells.
        let cell = format!("{}\u{202e}{}", "a".repeat(31), "b".repeat(10));
        assert_eq!(shown(cell, false), format!("{}<U+202E>…", "a".repeat(31)));
        // From the end: 36 b's, and the escape before them (4 cells) does not fit.
        let cell = format!("x\u{1b}{}", "b".repeat(36));
        assert_eq!(shown(cell, true), format!("…{}", "b".repeat(36)));
        let cell = format!("{}\u{1b}{}", "x".repeat(9), "b".repeat(35));
        assert_eq!(shown(cell, true), format!("…\\x1b{}", "b".repeat(35)));
        // Whole when the shown form fits.
        assert_eq!(shown("a\u{202e}b".to_string(), false), "a<U+202E>b");
    }

    #[test]
    fn kanji_take_two_cells() {
        let mut t = TextTable::new(&["usi", "japanese", "n"]);
        t.right_from(2);
        t.row(vec!["7g7f".into(), "▲７六歩".into(), "8".into()]);
        t.row(vec!["2g2f".into(), "x".into(), "10".into()]);
        // ▲ is one cell and each full-width character two: ▲７六歩 is 7 cells wide.
        assert_eq!(t.render(), "usi   japanese   n\n7g7f  ▲７六歩    8\n2g2f  x         10\n");
    }
}
