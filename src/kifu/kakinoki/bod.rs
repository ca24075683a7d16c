//! Board diagrams (BOD): the position picture KIF and KI2 files carry for a custom start, and
//! that a query may give as a position.
//!
//! ```text
//! 後手の持駒：飛　角　金四　歩十二
//!   ９ ８ ７ ６ ５ ４ ３ ２ １
//! +---------------------------+
//! |v香v桂 ・ ・ ・ ・ ・ ・ ・|一
//! …
//! +---------------------------+
//! 先手の持駒：なし
//! 後手番
//! ```
//!
//! Reading policy: cells are a side mark (`v` for White, a space for Black) and a piece
//! character (`・` when empty); hands are kanji or digit counts after each piece, `なし` or
//! nothing for an empty hand; 上手/下手 name White and Black. A diagram may be partial (a
//! tsume corner): its files come from the column line when there is one, otherwise they are
//! the rightmost files; its ranks come from the rank kanji after each row, otherwise they
//! count from the top. What a partial diagram cannot be is a board with a row lost: its rows
//! go down one rank at a time, a frame opened above them is closed below them, and a board
//! nine files wide whose rows have no rank kanji has nine rows. The side to move comes from a `先手番`/`後手番`/`上手番`/`下手番` line,
//! else Black (readers apply the move numbering rule on top: see [`Bod::turn`]); `手数＝N`
//! sets the move number to N + 1. Lines that are not part of a diagram are ignored, so a
//! whole record can be given to [`parse_bod`].

use std::fmt::Write as _;

use crate::{
    shogi::{Color, Hand, Piece, PieceKind, Setup, Square},
    text::{ascii_digit, is_space},
};

/// Why a diagram cannot be read. The messages leave the line out; [`BodError::line`] has it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BodError {
    #[error("the board row has a character that is not a piece, 'v' or '・'")]
    BadCell { line: u32 },
    #[error("the row has {found} squares, the rows above have {expected}")]
    RowWidth { line: u32, found: usize, expected: usize },
    #[error("a board row must have 1 to 9 squares")]
    BadWidth { line: u32 },
    #[error("a board has at most 9 ranks")]
    TooManyRows { line: u32 },
    #[error("rank {rank} appears twice")]
    DuplicateRank { line: u32, rank: u8 },
    #[error("rank {rank} follows rank {after}: a row of the board is missing or out of order")]
    RankGap { line: u32, rank: u8, after: u8 },
    #[error("the board is nine files wide but has {rows} rows, and no rank numbers to say which they are")]
    MissingRows { line: u32, rows: usize },
    #[error("the board's frame is not closed below its last row")]
    Unclosed { line: u32 },
    #[error("the column line names {files} files but the rows have {width} squares")]
    ColumnCount { line: u32, files: usize, width: usize },
    #[error("the hand is not pieces with counts (like 飛　角　歩十二, or なし)")]
    BadHand { line: u32 },
    #[error("手数＝ is not followed by the number of moves played (like 手数＝24)")]
    BadMoveCount { line: u32 },
    #[error("no board diagram found")]
    NoBoard,
}

impl BodError {
    /// The 1-based line the error is about, when there is one.
    pub fn line(&self) -> Option<u32> {
        match *self {
            BodError::BadCell { line }
            | BodError::RowWidth { line, .. }
            | BodError::BadWidth { line }
            | BodError::TooManyRows { line }
            | BodError::DuplicateRank { line, .. }
            | BodError::RankGap { line, .. }
            | BodError::MissingRows { line, .. }
            | BodError::Unclosed { line }
            | BodError::ColumnCount { line, .. }
            | BodError::BadHand { line }
            | BodError::BadMoveCount { line } => Some(line),
            BodError::NoBoard => None,
        }
    }
}

/// A diagram read line by line. Readers offer every line of a record's header section to
/// [`Bod::feed`] and call [`Bod::finish`] at the end; [`parse_bod`] does both.
#[derive(Clone, Debug, Default)]
pub struct Bod {
    rows: Vec<Row>,
    files: Option<(u32, Vec<u8>)>,
    hands: [Hand; 2],
    turn: Option<Color>,
    plies: Option<u32>,
    /// The line of a `手数＝` line whose number could not be read.
    unread_plies: Option<u32>,
    previous: Option<Square>,
    board_seen: bool,
    /// The line of the frame's top, when a frame line came before the rows.
    opened: Option<u32>,
    /// A frame line came after the rows.
    closed: bool,
    handicap_names: bool,
}

#[derive(Clone, Debug)]
struct Row {
    line: u32,
    cells: Vec<Option<Piece>>,
    rank: Option<u8>,
}

impl Bod {
    /// An empty diagram.
    pub fn new() -> Bod {
        Bod::default()
    }

    /// Offers a line. Returns whether it belongs to a diagram (a hand, the column line, the
    /// frame, a row, a side-to-move line or a `手数＝` line).
    ///
    /// # Errors
    ///
    /// [`BodError`] for a diagram line that is malformed.
    pub fn feed(&mut self, line_no: u32, line: &str) -> Result<bool, BodError> {
        let t = line.trim_matches(is_space);
        if let Some((color, names, value)) = hand_line(t) {
            self.hands[color.index()] = parse_hand(value).ok_or(BodError::BadHand { line: line_no })?;
            self.handicap_names |= names;
            return Ok(true);
        }
        if let Some(color) = turn_line(t) {
            self.turn = Some(color);
            self.handicap_names |= t.starts_with(['上', '下']);
            return Ok(true);
        }
        if let Some(rest) = t.strip_prefix("手数＝").or_else(|| t.strip_prefix("手数=")) {
            // The number in ASCII or full-width digits.
            let end = rest.find(|c| !ascii_digit(c).is_ascii_digit()).unwrap_or(rest.len());
            let digits: String = rest[..end].chars().map(ascii_digit).collect();
            // The next move's number must be one too.
            self.plies = digits.parse().ok().filter(|&n| n < u32::MAX);
            if self.plies.is_none() {
                self.unread_plies.get_or_insert(line_no);
            }
            self.previous = destination_in(&rest[end..]);
            return Ok(true);
        }
        if t.starts_with('+') && t.len() > 1 && t.chars().all(|c| matches!(c, '+' | '-' | 'ー' | '－')) {
            self.board_seen = true;
            if self.rows.is_empty() {
                self.opened.get_or_insert(line_no);
            } else {
                self.closed = true;
            }
            return Ok(true);
        }
        if let Some(body) = t.strip_prefix(['|', '｜']) {
            self.board_seen = true;
            let row = parse_row(line_no, body)?;
            if self.rows.len() == 9 {
                return Err(BodError::TooManyRows { line: line_no });
            }
            self.rows.push(row);
            return Ok(true);
        }
        if !t.is_empty() && t.chars().all(|c| c == ' ' || c == '\u{3000}' || file_number(c).is_some()) {
            let files = t.chars().filter_map(file_number).collect();
            self.files = Some((line_no, files));
            return Ok(true);
        }
        Ok(false)
    }

    /// Whether a board (a frame or a row) has been seen: hands alone are no diagram.
    pub fn has_board(&self) -> bool {
        self.board_seen
    }

    /// The side to move a `先手番`/`後手番`/`上手番`/`下手番` line gave, if any. Without one
    /// [`Bod::finish`] says Black; a reader whose first move is numbered even (the diagram
    /// shows the position after an odd number of moves) should give the move to White.
    pub fn turn(&self) -> Option<Color> {
        self.turn
    }

    /// The destination of the move that led to the diagram, from `手数＝N  ▲７六歩  まで`:
    /// what a 同 in the first move refers to.
    pub fn previous_destination(&self) -> Option<Square> {
        self.previous
    }

    /// The position.
    ///
    /// # Errors
    ///
    /// [`BodError::NoBoard`] when no board was seen, or a board that does not fit together.
    pub fn finish(self) -> Result<Setup, BodError> {
        if !self.board_seen {
            return Err(BodError::NoBoard);
        }
        let mut setup =
            Setup { hands: self.hands, turn: self.turn.unwrap_or(Color::Black), ..Setup::default() };
        if let Some(plies) = self.plies {
            setup.move_number = plies + 1;
        }
        let Some(width) = self.rows.first().map(|r| r.cells.len()) else {
            return match self.opened {
                Some(line) => Err(BodError::Unclosed { line }),
                None => Ok(setup),
            };
        };
        let last = self.rows.last().map_or(0, |r| r.line);
        if self.opened.is_some() && !self.closed {
            return Err(BodError::Unclosed { line: last });
        }
        if width == 9 && self.rows.len() < 9 && self.rows.iter().all(|r| r.rank.is_none()) {
            return Err(BodError::MissingRows { line: last, rows: self.rows.len() });
        }
        let files: Vec<u8> = match self.files {
            Some((line, files)) if files.len() != width => {
                return Err(BodError::ColumnCount { line, files: files.len(), width });
            }
            Some((_, files)) => files,
            None => (1..=width as u8).rev().collect(),
        };
        let mut seen = [false; 10];
        for (i, row) in self.rows.iter().enumerate() {
            if row.cells.len() != width {
                return Err(BodError::RowWidth { line: row.line, found: row.cells.len(), expected: width });
            }
            let rank = row.rank.unwrap_or(i as u8 + 1);
            if std::mem::replace(&mut seen[usize::from(rank)], true) {
                return Err(BodError::DuplicateRank { line: row.line, rank });
            }
            if let Some(after) = i.checked_sub(1).map(|j| self.rows[j].rank.unwrap_or(j as u8 + 1)) {
                if rank != after + 1 {
                    return Err(BodError::RankGap { line: row.line, rank, after });
                }
            }
            for (&file, &cell) in files.iter().zip(&row.cells) {
                let sq = Square::from_numbers(file, rank).expect("files and ranks are 1 to 9");
                setup.set(sq, cell);
            }
        }
        Ok(setup)
    }
}

/// Reads the diagram among `lines` (other lines are ignored).
///
/// # Errors
///
/// [`BodError`] when there is no board or a diagram line is malformed, a `手数＝` line with
/// no number of moves among them. (A record's diagram is read past such a line: its number
/// only numbers the moves.)
///
/// ```
/// use kifudex::kifu::bod::parse_bod;
/// let text = "後手の持駒：なし\n+------+\n| ・v玉|\n| ・ ・|\n| ・ 金|\n+------+\n先手の持駒：金\n";
/// let setup = parse_bod(text.lines()).unwrap();
/// assert_eq!(setup.to_string(), "8k/9/8G/9/9/9/9/9/9 b G 1");
/// ```
pub fn parse_bod<'a>(lines: impl IntoIterator<Item = &'a str>) -> Result<Setup, BodError> {
    let mut bod = Bod::new();
    for (i, line) in lines.into_iter().enumerate() {
        bod.feed(u32::try_from(i + 1).unwrap_or(u32::MAX), line)?;
    }
    if let Some(line) = bod.unread_plies {
        return Err(BodError::BadMoveCount { line });
    }
    bod.finish()
}

/// `先手の持駒：…` and its kin: the side, whether it used 上手/下手, and the value. Spaces may
/// come before the colon, as in any header (a header line's key is read without them).
fn hand_line(t: &str) -> Option<(Color, bool, &str)> {
    for (key, color, names) in [
        ("先手の持駒", Color::Black, false),
        ("後手の持駒", Color::White, false),
        ("下手の持駒", Color::Black, true),
        ("上手の持駒", Color::White, true),
    ] {
        if let Some(rest) = t.strip_prefix(key) {
            let value = rest.trim_start_matches(is_space).strip_prefix(['：', ':'])?;
            return Some((color, names, value));
        }
    }
    None
}

fn turn_line(t: &str) -> Option<Color> {
    match t {
        "先手番" | "下手番" => Some(Color::Black),
        "後手番" | "上手番" => Some(Color::White),
        _ => None,
    }
}

/// A file number in a column line: `９` or `9`.
fn file_number(c: char) -> Option<u8> {
    ascii_digit(c).to_digit(10).filter(|&d| d > 0).map(|d| d as u8)
}

/// The first square (`７六`, `76`) in `text`.
fn destination_in(text: &str) -> Option<Square> {
    let chars: Vec<char> = text.chars().collect();
    chars.windows(2).find_map(|w| {
        let file = file_number(w[0])?;
        let rank = rank_number(w[1]).or_else(|| file_number(w[1]))?;
        Square::from_numbers(file, rank)
    })
}

fn rank_number(c: char) -> Option<u8> {
    "一二三四五六七八九".chars().position(|k| k == c).map(|i| i as u8 + 1)
}

/// The piece a diagram cell shows.
fn cell_kind(c: char) -> Option<PieceKind> {
    Some(match c {
        '歩' => PieceKind::Pawn,
        '香' => PieceKind::Lance,
        '桂' => PieceKind::Knight,
        '銀' => PieceKind::Silver,
        '金' => PieceKind::Gold,
        '角' => PieceKind::Bishop,
        '飛' => PieceKind::Rook,
        '玉' | '王' => PieceKind::King,
        'と' => PieceKind::ProPawn,
        '杏' => PieceKind::ProLance,
        '圭' => PieceKind::ProKnight,
        '全' => PieceKind::ProSilver,
        '馬' => PieceKind::Horse,
        '龍' | '竜' => PieceKind::Dragon,
        _ => return None,
    })
}

fn parse_row(line: u32, body: &str) -> Result<Row, BodError> {
    let (cells_text, label) = match body.rfind(['|', '｜']) {
        Some(i) => (&body[..i], body[i..].trim_start_matches(['|', '｜']).trim()),
        None => (body, ""),
    };
    let mut cells = Vec::with_capacity(9);
    let mut white = false;
    for c in cells_text.chars() {
        match c {
            'v' | 'V' | 'ｖ' => white = true,
            ' ' | '\u{3000}' | '^' => {}
            '・' | '･' => {
                cells.push(None);
                white = false;
            }
            _ => {
                let kind = cell_kind(c).ok_or(BodError::BadCell { line })?;
                let color = if white { Color::White } else { Color::Black };
                cells.push(Some(Piece::new(color, kind)));
                white = false;
            }
        }
    }
    if cells.is_empty() || cells.len() > 9 {
        return Err(BodError::BadWidth { line });
    }
    let rank = label.chars().next().and_then(|c| rank_number(c).or_else(|| file_number(c)));
    Ok(Row { line, cells, rank })
}

/// Reads a hand: `飛　角二　歩十二`, `歩17 金`, `なし` or nothing.
fn parse_hand(value: &str) -> Option<Hand> {
    let mut hand = Hand::EMPTY;
    let value = value.trim_matches(is_space);
    if value.is_empty() || value == "なし" {
        return Some(hand);
    }
    let mut current: Option<(PieceKind, u32)> = None;
    let commit = |hand: &mut Hand, entry: Option<(PieceKind, u32)>| -> Option<()> {
        if let Some((kind, n)) = entry {
            let total = u32::from(hand.count(kind)) + n.max(1);
            hand.set(kind, u8::try_from(total).ok()?);
        }
        Some(())
    };
    for c in value.chars() {
        if let Some(kind) = cell_kind(c).filter(|k| k.hand_index().is_some()) {
            commit(&mut hand, current.take())?;
            current = Some((kind, 0));
            continue;
        }
        if matches!(c, ' ' | '\u{3000}' | '、' | ',' | '\t') {
            continue;
        }
        let (_, n) = current.as_mut()?;
        *n = match c {
            '十' => *n + 10,
            '0'..='9' | '０'..='９' => *n * 10 + u32::from(file_number(c).unwrap_or(0)),
            _ => *n - *n % 10 + u32::from(rank_number(c)?),
        };
        if *n > 99 {
            return None;
        }
    }
    commit(&mut hand, current)?;
    Some(hand)
}

/// The kanji for a count in a hand: `二` to `十八`.
fn count_text(n: u8) -> String {
    const DIGITS: [&str; 10] = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
    let tens = match n / 10 {
        0 => "",
        1 => "十",
        _ => return n.to_string(),
    };
    format!("{tens}{}", DIGITS[usize::from(n % 10)])
}

/// The diagram cell character of a kind.
fn kind_char(kind: PieceKind) -> char {
    match kind {
        PieceKind::Pawn => '歩',
        PieceKind::Lance => '香',
        PieceKind::Knight => '桂',
        PieceKind::Silver => '銀',
        PieceKind::Gold => '金',
        PieceKind::Bishop => '角',
        PieceKind::Rook => '飛',
        PieceKind::King => '玉',
        PieceKind::ProPawn => 'と',
        PieceKind::ProLance => '杏',
        PieceKind::ProKnight => '圭',
        PieceKind::ProSilver => '全',
        PieceKind::Horse => '馬',
        PieceKind::Dragon => '龍',
    }
}

/// The hand as a diagram writes it: `飛　角二　歩十二　`, or `なし`.
pub fn hand_text(hand: &Hand) -> String {
    if hand.is_empty() {
        return "なし".to_string();
    }
    let mut out = String::new();
    for (kind, n) in hand.iter().rev() {
        out.push(kind_char(kind));
        if n > 1 {
            out.push_str(&count_text(n));
        }
        out.push('\u{3000}');
    }
    out
}

/// Writes a full 9×9 diagram with both hands, the side to move, and `手数＝N` when the move
/// number is past 1. Each line ends with a line feed.
///
/// ```
/// use kifudex::kifu::bod::{parse_bod, write_bod};
/// let setup = "8k/9/8G/9/9/9/9/9/9 w G2p 1".parse().unwrap();
/// assert_eq!(parse_bod(write_bod(&setup).lines()).unwrap(), setup);
/// ```
pub fn write_bod(setup: &Setup) -> String {
    let mut out = String::with_capacity(640);
    let _ = writeln!(out, "後手の持駒：{}", hand_text(setup.hand(Color::White)));
    out.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n");
    for rank in 1..=9 {
        out.push('|');
        for file in (1..=9).rev() {
            let sq = Square::from_numbers(file, rank).expect("files and ranks are 1 to 9");
            match setup.piece_at(sq) {
                None => out.push_str(" ・"),
                Some(p) => {
                    out.push(if p.color == Color::White { 'v' } else { ' ' });
                    out.push(kind_char(p.kind));
                }
            }
        }
        out.push('|');
        out.push("一二三四五六七八九".chars().nth(usize::from(rank) - 1).expect("ranks are 1 to 9"));
        out.push('\n');
    }
    out.push_str("+---------------------------+\n");
    let _ = writeln!(out, "先手の持駒：{}", hand_text(setup.hand(Color::Black)));
    if setup.move_number > 1 {
        let _ = writeln!(out, "手数＝{}", setup.move_number - 1);
    }
    out.push_str(if setup.turn == Color::White { "後手番\n" } else { "先手番\n" });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hands_in_every_written_form() {
        let h = parse_hand("飛二 角 金四 銀 桂四 香四 歩十七 ").unwrap();
        assert_eq!(
            (h.count(PieceKind::Rook), h.count(PieceKind::Pawn), h.count(PieceKind::Silver)),
            (2, 17, 1)
        );
        let h = parse_hand("歩十七　香三　桂四　銀四　金四　").unwrap();
        assert_eq!((h.count(PieceKind::Pawn), h.count(PieceKind::Lance)), (17, 3));
        assert_eq!(parse_hand("歩十").unwrap().count(PieceKind::Pawn), 10);
        assert_eq!(parse_hand("歩18").unwrap().count(PieceKind::Pawn), 18);
        assert_eq!(parse_hand("金角二").unwrap().count(PieceKind::Bishop), 2);
        assert_eq!(parse_hand("なし"), Some(Hand::EMPTY));
        assert_eq!(parse_hand(""), Some(Hand::EMPTY));
        assert_eq!(parse_hand("玉"), None);
        assert_eq!(parse_hand("二"), None);
        assert_eq!(parse_hand("歩x"), None);
        assert_eq!(count_text(18), "十八");
        assert_eq!(count_text(10), "十");
        assert_eq!(count_text(4), "四");
    }

    #[test]
    fn partial_board_with_a_column_line() {
        let text = "  ３ ２ １\n+---------+\n| ・ ・v玉|二\n| ・ 金 ・|三\n+---------+\n後手番\n手数＝5\n";
        let setup = parse_bod(text.lines()).unwrap();
        assert_eq!(setup.to_string(), "9/8k/7G1/9/9/9/9/9/9 w - 6");
    }

    /// Spaces before the colon of a hand line, as a header line may have them: still the
    /// hand (it was read as a header, and written back as a hand line that read as the hand).
    #[test]
    fn a_hand_line_with_spaces_before_its_colon_is_the_hand() {
        let text = "上手の持駒\t\t ：金\n+------+\n| ・v玉|\n| ・ ・|\n+------+\n下手の持駒　：なし\n";
        let setup = parse_bod(text.lines()).unwrap();
        assert_eq!(setup.to_string(), "8k/9/9/9/9/9/9/9/9 b g 1");
    }

    #[test]
    fn malformed_diagrams_are_refused() {
        assert_eq!(parse_bod(["先手の持駒：なし"]), Err(BodError::NoBoard));
        assert_eq!(parse_bod(["| ・x|"]), Err(BodError::BadCell { line: 1 }));
        assert!(matches!(parse_bod(["| ・ ・|", "| ・|"]), Err(BodError::RowWidth { line: 2, .. })));
        assert!(matches!(parse_bod(["| ・|一", "| ・|一"]), Err(BodError::DuplicateRank { .. })));
        assert!(matches!(parse_bod(["  ２ １", "| ・|"]), Err(BodError::ColumnCount { .. })));
        assert!(matches!(parse_bod(["先手の持駒：金x", "| ・|"]), Err(BodError::BadHand { line: 1 })));
        assert_eq!(parse_bod(["| ・v玉|", "手数＝abc"]), Err(BodError::BadMoveCount { line: 2 }));
        assert_eq!(parse_bod(["| ・v玉|", "手数＝"]), Err(BodError::BadMoveCount { line: 2 }));
        assert_eq!(
            parse_bod(["| ・v玉|", "手数=99999999999  ▲７六歩  まで"]),
            Err(BodError::BadMoveCount { line: 2 })
        );
        // 2^32 - 1 moves played: the next would be move 2^32, past what an SFEN's number holds.
        assert_eq!(parse_bod(["| ・v玉|", "手数＝4294967295"]), Err(BodError::BadMoveCount { line: 2 }));
        assert_eq!(parse_bod(["| ・v玉|", "手数＝4294967294"]).unwrap().move_number, 4_294_967_295);
    }

    /// The number of moves played, in either width, numbers the next move; the move after it
    /// names the square a 同 refers to.
    #[test]
    fn the_move_count_in_either_width() {
        for line in ["手数＝24  ▲７六歩  まで", "手数＝２４  ▲７六歩  まで"] {
            let mut bod = Bod::new();
            for (n, l) in ["+------+", "| ・v玉|", "+------+", line].into_iter().enumerate() {
                assert_eq!(bod.feed(n as u32 + 1, l), Ok(true), "{l}");
            }
            assert_eq!(bod.previous_destination(), Some("7f".parse().unwrap()), "{line}");
            assert_eq!(bod.finish().unwrap().move_number, 25, "{line}");
        }
    }

    /// A full board with a row lost, or cut short, is refused: read, it would be another board.
    #[test]
    fn a_board_with_a_row_lost_is_refused() {
        let rows: Vec<String> = "一二三四五六七八九"
            .chars()
            .map(|rank| {
                format!("| ・ ・ ・ ・ ・ ・ ・ ・{}|{rank}", if rank == '一' { "v玉" } else { " ・" })
            })
            .collect();
        let frame = "+---------------------------+".to_string();
        let board = |rows: &[String], closed: bool| {
            let mut lines = vec![frame.clone()];
            lines.extend_from_slice(rows);
            lines.extend(closed.then(|| frame.clone()));
            parse_bod(lines.iter().map(String::as_str))
        };
        assert_eq!(board(&rows, true).unwrap().to_string(), "8k/9/9/9/9/9/9/9/9 b - 1");
        let without_8 = [&rows[..7], &rows[8..]].concat();
        assert_eq!(board(&without_8, true), Err(BodError::RankGap { line: 9, rank: 9, after: 7 }));
        assert_eq!(board(&rows[..2], false), Err(BodError::Unclosed { line: 3 }));
        assert_eq!(board(&[], false), Err(BodError::Unclosed { line: 1 }));
        let unlabelled: Vec<String> =
            rows.iter().map(|r| r[..r.rfind('|').unwrap() + 1].to_string()).collect();
        assert!(board(&unlabelled, true).is_ok());
        assert_eq!(board(&unlabelled[..8], true), Err(BodError::MissingRows { line: 9, rows: 8 }));
        // A corner, with rank numbers, need not start at the top or go to the bottom.
        assert_eq!(board(&rows[1..4], true).unwrap().to_string(), "9/9/9/9/9/9/9/9/9 b - 1");
    }
}
