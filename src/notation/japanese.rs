//! Japanese move notation, KI2 style, and the KIF form with its origin in parentheses.
//!
//! A move is written `(side) destination piece (movement) (promotion)`:
//! `▲７六歩`, `☖同　歩`, `2四同歩`, `７八金寄`, `5五龍入`, `8三銀引成`, `7三桂生`, `５五角打`,
//! `２三歩合`, and in KIF `７六歩(77)`. This module reads the text into a [`JapaneseMove`]
//! without looking at any position; resolving it to a [`Move`](crate::shogi::Move) is
//! [`JapaneseMove::resolve`]'s work.
//!
//! Accepted forms, beyond the standard ones: full-width, half-width and kanji file numbers
//! (７六, 76, 七六), 仝 for 同 and `-` (the handwritten shorthand), with or without a space
//! after it; 兵 for 歩, 王 for 玉, 竜 for 龍, 杏 圭 全 for the promoted lance, knight and silver;
//! 生 and 不成 for non-promotion; 行 and 入 for 上 (dragon and horse; 行 also for the bishop,
//! as one of the notation sources has it, though writers keep it for the horse); the handwritten
//! shorthand symbols (フ 丶 ゝ ・ for 歩, キ 禾 ↑ for 香, 土 for 桂, ヨ for 銀, 人 for 金, ク for 角,
//! ヒ 乙 for 飛, マ ウ for 馬, 立 リ for 龍, ○ for 玉, ナ for 成, フナ 不ナ for 不成); 合 after a
//! piece (a drop interposed against check) or in place of it (any interposed drop); and the
//! piece left out when a movement word follows (`5八右`, as diagram captions write).
//!
//! Refused: 行 or 入 after any other piece (`5五金行`, `5五角入`), and a drop (打, 合) with
//! movement words, a promotion mark or an origin.
//!
//! [`parse_prefix`] reads a move at the start of a longer text and says where it ends, for moves
//! written together (`▲７六歩△３四歩`).

use super::MoveSyntaxError;
use crate::{
    shogi::{Color, PieceKind, Square},
    text::is_inline_space,
};

/// Where a Japanese move goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Destination {
    /// A square written out: `７六`.
    Square(Square),
    /// 同: the destination of the previous move.
    Same,
    /// A square followed by 同 (`2四同歩`): the previous move's destination, restated.
    SquareSame(Square),
}

/// The vertical movement a Japanese move names: 上 (行, 入), 引 or 寄.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Motion {
    /// 上: toward the opponent (行 and 入 for the dragon and horse).
    Up,
    /// 引: back toward the mover's side.
    Down,
    /// 寄: sideways, along the rank.
    Sideways,
}

/// Which of several pieces a Japanese move names: 右, 左 or 直, as the mover sees the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relative {
    /// 右: the piece on the mover's right.
    Right,
    /// 左: the piece on the mover's left.
    Left,
    /// 直: the piece straight behind the destination, moving straight up.
    Straight,
}

/// A Japanese move as written, not yet resolved against a position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct JapaneseMove {
    /// The side mark, when one was written (▲ ☗ ▼ for Black, △ ☖ ▽ for White).
    pub color: Option<Color>,
    pub destination: Destination,
    /// The piece as written (before the move). `None` for a bare 合 (any interposed drop,
    /// with `drop` set), or when only the movement was written (`5八右`, with `drop` unset).
    pub piece: Option<PieceKind>,
    pub motion: Option<Motion>,
    pub relative: Option<Relative>,
    /// 打 (or 合): a drop.
    pub drop: bool,
    /// 成 is `Some(true)`, 不成 and 生 are `Some(false)`, nothing written is `None`.
    pub promotion: Option<bool>,
    /// The origin KIF writes in parentheses: `７六歩(77)`.
    pub origin: Option<Square>,
    /// The movement was written with 行 or 入 rather than 上.
    pub motion_alias: bool,
    /// A drop read as one without 打 written: a KIF move with neither origin nor 同, as KIF
    /// writes every board move with its origin. The move is quoted as it was, without 打.
    pub drop_unwritten: bool,
}

/// A file or rank number in any of the forms records use: 1, １, 一.
fn number(c: char) -> Option<u8> {
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        '１'..='９' => Some((c as u32 - '１' as u32) as u8 + 1),
        '一' => Some(1),
        '二' => Some(2),
        '三' => Some(3),
        '四' => Some(4),
        '五' => Some(5),
        '六' => Some(6),
        '七' => Some(7),
        '八' => Some(8),
        '九' => Some(9),
        _ => None,
    }
}

/// Reads one Japanese move. Leading and trailing spaces are ignored; nothing else may follow
/// the move.
///
/// # Errors
///
/// [`MoveSyntaxError`] when the text is not a Japanese move.
pub fn parse(text: &str) -> Result<JapaneseMove, MoveSyntaxError> {
    let (mv, used) = parse_prefix(text)?;
    if text[used..].trim_matches(is_inline_space).is_empty() {
        Ok(mv)
    } else {
        Err(MoveSyntaxError::new(text, "unexpected text after the move"))
    }
}

/// Reads the Japanese move at the start of `text` and returns it with the number of bytes it
/// took (spaces before it included). Reading stops at the first character that cannot
/// continue the move, so moves written together (`▲７六歩△３四歩`, `７六歩３四歩`) are read one
/// at a time.
///
/// # Errors
///
/// [`MoveSyntaxError`] when `text` does not start with a Japanese move.
pub fn parse_prefix(text: &str) -> Result<(JapaneseMove, usize), MoveSyntaxError> {
    match parse_plain(text) {
        Some(found) => Ok(found),
        None => parse_any(text),
    }
}

/// [`parse_prefix`] for the forms nearly every move of a record takes, read without a loop
/// over the characters: ▲ or △ or no side mark; a file and a rank in one of their three-byte
/// forms (`７六`, `七六`), or 同 with one full-width space or none; a piece in one character;
/// 成, 不成, 打 or none of them; a KIF origin of two ASCII digits (`(77)`) or none; then the
/// end of the text, or (without an origin) an ASCII character other than `(`, which no move
/// goes on with. `None` for any other text, which [`parse_any`] reads; where this reads a
/// move, it is the one that gives.
fn parse_plain(text: &str) -> Option<(JapaneseMove, usize)> {
    let (color, mut rest) = match wide(text) {
        Some('▲') => (Some(Color::Black), &text[3..]),
        Some('△') => (Some(Color::White), &text[3..]),
        _ => (None, text),
    };
    let destination = match wide(rest)? {
        '同' => {
            rest = &rest[3..];
            if wide(rest) == Some('\u{3000}') {
                rest = &rest[3..];
            }
            Destination::Same
        }
        file => {
            let rank = wide(&rest[3..])?;
            rest = &rest[6..];
            Destination::Square(Square::from_numbers(number(file)?, number(rank)?)?)
        }
    };
    // A bare 合 (no piece) and 同 after the square are the general reading's.
    let (Some(kind), after) = piece(rest)? else { return None };
    rest = after;
    let mut mv = JapaneseMove {
        color,
        destination,
        piece: Some(kind),
        motion: None,
        relative: None,
        drop: false,
        promotion: None,
        origin: None,
        motion_alias: false,
        drop_unwritten: false,
    };
    match wide(rest) {
        Some('成') => (mv.promotion, rest) = (Some(true), &rest[3..]),
        Some('不') if wide(&rest[3..]) == Some('成') => (mv.promotion, rest) = (Some(false), &rest[6..]),
        Some('打') => (mv.drop, rest) = (true, &rest[3..]),
        _ => {}
    }
    match rest.as_bytes() {
        [b'(', f @ b'1'..=b'9', r @ b'1'..=b'9', b')', ..] => {
            mv.origin = Square::from_numbers(f - b'0', r - b'0');
            rest = &rest[4..];
        }
        [] => {}
        [c, ..] if c.is_ascii() && *c != b'(' => {}
        _ => return None,
    }
    check(&mv, None).ok()?;
    Some((mv, text.len() - rest.len()))
}

/// The character at the start of `text` when it takes three bytes in UTF-8 (every
/// full-width and kanji character a move is written with), else `None`.
fn wide(text: &str) -> Option<char> {
    match *text.as_bytes() {
        [lead @ 0xE0..=0xEF, second, third, ..] => char::from_u32(
            u32::from(lead & 0x0F) << 12 | u32::from(second & 0x3F) << 6 | u32::from(third & 0x3F),
        ),
        _ => None,
    }
}

/// [`parse_prefix`] for any form of a move, character by character.
fn parse_any(text: &str) -> Result<(JapaneseMove, usize), MoveSyntaxError> {
    let err = |why| MoveSyntaxError::new(text, why);
    let mut rest = text.trim_start_matches(is_inline_space);
    let mut color = None;
    if let Some(c) = rest.chars().next() {
        color = match c {
            '▲' | '☗' | '▼' => Some(Color::Black),
            '△' | '☖' | '▽' => Some(Color::White),
            _ => None,
        };
        if color.is_some() {
            rest = rest[c.len_utf8()..].trim_start_matches(is_inline_space);
        }
    }

    let destination;
    let mut chars = rest.chars();
    let first = chars.next().ok_or_else(|| err("empty move"))?;
    if matches!(first, '同' | '仝' | '-') {
        destination = Destination::Same;
        rest = rest[first.len_utf8()..].trim_start_matches(is_inline_space);
    } else {
        let second = chars.next().ok_or_else(|| err("expected a destination square"))?;
        let (Some(file), Some(rank)) = (number(first), number(second)) else {
            return Err(err("expected a destination square (like ７六) or 同"));
        };
        let sq = Square::from_numbers(file, rank).ok_or_else(|| err("files and ranks run from 1 to 9"))?;
        rest = &rest[first.len_utf8() + second.len_utf8()..];
        if let Some(after) = rest.strip_prefix('同').or_else(|| rest.strip_prefix('仝')) {
            destination = Destination::SquareSame(sq);
            rest = after.trim_start_matches(is_inline_space);
        } else {
            destination = Destination::Square(sq);
        }
    }

    let (piece, after) = match piece(rest) {
        Some(found) => found,
        // The piece may be left out when the movement names it: `5八右` in a diagram caption.
        None if rest.starts_with(['上', '引', '寄', '右', '左', '直']) => (None, rest),
        None => return Err(err("expected a piece (歩 香 桂 銀 金 角 飛 玉 と 成香 成桂 成銀 馬 龍)")),
    };
    let bare_interposition = piece.is_none() && after.len() < rest.len();
    rest = after;

    let mut mv = JapaneseMove {
        color,
        destination,
        piece,
        motion: None,
        relative: None,
        drop: bare_interposition,
        promotion: None,
        origin: None,
        motion_alias: false,
        drop_unwritten: false,
    };
    let mut alias = None;
    while let Some(c) = rest.chars().next() {
        let mut len = c.len_utf8();
        match c {
            '上' | '行' | '入' if mv.motion.is_none() => {
                mv.motion = Some(Motion::Up);
                mv.motion_alias = c != '上';
                alias = mv.motion_alias.then_some(c);
            }
            '引' if mv.motion.is_none() => mv.motion = Some(Motion::Down),
            '寄' if mv.motion.is_none() => mv.motion = Some(Motion::Sideways),
            '右' if mv.relative.is_none() => mv.relative = Some(Relative::Right),
            '左' if mv.relative.is_none() => mv.relative = Some(Relative::Left),
            '直' if mv.relative.is_none() => mv.relative = Some(Relative::Straight),
            '打' | '合' if !mv.drop => mv.drop = true,
            '成' | 'ナ' if mv.promotion.is_none() => mv.promotion = Some(true),
            '生' if mv.promotion.is_none() => mv.promotion = Some(false),
            '不' | 'フ' if mv.promotion.is_none() => {
                let next = rest[len..].chars().next();
                if !matches!(next, Some('成' | 'ナ')) {
                    if c == 'フ' {
                        // フ alone is the shorthand pawn: the start of another move, not 不成.
                        break;
                    }
                    return Err(err("不 must be followed by 成"));
                }
                len += next.map_or(0, char::len_utf8);
                mv.promotion = Some(false);
            }
            '(' | '（' => {
                let (origin, used) =
                    origin(&rest[len..]).ok_or_else(|| err("expected an origin like (77)"))?;
                match origin {
                    Some(sq) => mv.origin = Some(sq),
                    None => mv.drop = true,
                }
                len += used;
                rest = &rest[len..];
                break;
            }
            _ => break,
        }
        rest = &rest[len..];
    }
    check(&mv, alias).map_err(err)?;
    Ok((mv, text.len() - rest.len()))
}

/// The combinations of parts that no move can have; `alias` is the 行 or 入 written for 上.
fn check(mv: &JapaneseMove, alias: Option<char>) -> Result<(), &'static str> {
    let alias_fits = match (alias, mv.piece) {
        (None, _) | (Some(_), Some(PieceKind::Dragon | PieceKind::Horse)) => true,
        (Some(c), Some(PieceKind::Bishop)) => c == '行',
        _ => false,
    };
    if !alias_fits {
        return Err("行 and 入 (for 上) are written for the dragon and the horse (and 行 for the bishop)");
    }
    if mv.drop && (mv.motion.is_some() || mv.relative.is_some()) {
        return Err("a drop (打) has no movement (上 引 寄 右 左 直)");
    }
    if mv.drop && mv.promotion.is_some() {
        return Err("a drop (打) cannot promote");
    }
    if mv.drop && mv.origin.is_some() {
        return Err("a drop (打) has no origin");
    }
    if mv.piece.is_none() && !mv.drop && mv.motion.is_none() && mv.relative.is_none() {
        return Err("expected a piece");
    }
    Ok(())
}

/// Reads the piece at the start of `text`: `None` inside the result for a bare 合.
fn piece(text: &str) -> Option<(Option<PieceKind>, &str)> {
    let first = text.chars().next()?;
    let rest = &text[first.len_utf8()..];
    let kind = match first {
        // 成 and ナ name a piece only before 香, 桂 or 銀; else they are a promotion.
        '成' | 'ナ' => {
            let second = rest.chars().next()?;
            let kind = match second {
                '香' => PieceKind::ProLance,
                '桂' => PieceKind::ProKnight,
                '銀' => PieceKind::ProSilver,
                _ => return None,
            };
            return Some((Some(kind), &rest[second.len_utf8()..]));
        }
        // 合 interposes a piece it does not name.
        '合' => return Some((None, rest)),
        // Handwritten shorthand. フナ is 不成, so フ is a pawn only when ナ does not follow.
        'フ' if rest.starts_with('ナ') => return None,
        '歩' | '兵' | 'フ' | '丶' | 'ゝ' | '・' => PieceKind::Pawn,
        '香' | 'キ' | '禾' | '↑' => PieceKind::Lance,
        '桂' | '土' => PieceKind::Knight,
        '銀' | 'ヨ' => PieceKind::Silver,
        '金' | '人' => PieceKind::Gold,
        '角' | 'ク' => PieceKind::Bishop,
        '飛' | 'ヒ' | '乙' => PieceKind::Rook,
        '玉' | '王' | '○' => PieceKind::King,
        'と' => PieceKind::ProPawn,
        '杏' => PieceKind::ProLance,
        '圭' => PieceKind::ProKnight,
        '全' => PieceKind::ProSilver,
        '馬' | 'マ' | 'ウ' => PieceKind::Horse,
        '龍' | '竜' | '立' | 'リ' => PieceKind::Dragon,
        _ => return None,
    };
    Some((Some(kind), rest))
}

/// Reads `77)` or `77）` after an opening parenthesis: the origin square, or `None` for a
/// drop written as `(00)`. Returns the bytes used.
fn origin(text: &str) -> Option<(Option<Square>, usize)> {
    let mut chars = text.char_indices();
    let (_, f) = chars.next()?;
    let (_, r) = chars.next()?;
    let (i, close) = chars.next()?;
    if !matches!(close, ')' | '）') {
        return None;
    }
    let used = i + close.len_utf8();
    if matches!((f, r), ('0', '0') | ('０', '０')) {
        return Some((None, used));
    }
    Some((Some(Square::from_numbers(number(f)?, number(r)?)?), used))
}

/// The full-width digit for a file number, 1 to 9: `７`.
pub fn file_char(n: u8) -> char {
    char::from_u32('０' as u32 + u32::from(n)).expect("a digit")
}

/// The kanji for a rank number, 1 to 9: `六`.
pub fn rank_char(n: u8) -> char {
    "一二三四五六七八九".chars().nth(usize::from(n) - 1).expect("ranks are 1 to 9")
}

/// The kanji a record writes for a piece kind: 歩 香 桂 銀 金 角 飛 玉 と 成香 成桂 成銀 馬 龍.
pub const fn piece_name(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::Pawn => "歩",
        PieceKind::Lance => "香",
        PieceKind::Knight => "桂",
        PieceKind::Silver => "銀",
        PieceKind::Gold => "金",
        PieceKind::Bishop => "角",
        PieceKind::Rook => "飛",
        PieceKind::King => "玉",
        PieceKind::ProPawn => "と",
        PieceKind::ProLance => "成香",
        PieceKind::ProKnight => "成桂",
        PieceKind::ProSilver => "成銀",
        PieceKind::Horse => "馬",
        PieceKind::Dragon => "龍",
    }
}

/// The square in Japanese: `７六`.
pub fn square_text(sq: Square) -> String {
    format!("{}{}", file_char(sq.file().get()), rank_char(sq.rank().get()))
}

/// Writes the move back in the standard forms: `▲７六歩`, `同　歩`, `５五龍行`, `７六歩(77)`.
impl std::fmt::Display for JapaneseMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.color {
            Some(Color::Black) => f.write_str("▲")?,
            Some(Color::White) => f.write_str("△")?,
            None => {}
        }
        match self.destination {
            Destination::Square(sq) => f.write_str(&square_text(sq))?,
            Destination::Same => f.write_str("同　")?,
            Destination::SquareSame(sq) => write!(f, "{}同", square_text(sq))?,
        }
        match self.piece {
            Some(kind) => f.write_str(piece_name(kind))?,
            None if self.drop => f.write_str("合")?,
            None => {}
        }
        match self.relative {
            Some(Relative::Right) => f.write_str("右")?,
            Some(Relative::Left) => f.write_str("左")?,
            Some(Relative::Straight) => f.write_str("直")?,
            None => {}
        }
        match self.motion {
            Some(Motion::Up) if self.motion_alias => f.write_str("行")?,
            Some(Motion::Up) => f.write_str("上")?,
            Some(Motion::Down) => f.write_str("引")?,
            Some(Motion::Sideways) => f.write_str("寄")?,
            None => {}
        }
        if self.drop && !self.drop_unwritten && self.piece.is_some() && self.origin.is_none() {
            f.write_str("打")?;
        }
        match self.promotion {
            Some(true) => f.write_str("成")?,
            Some(false) => f.write_str("不成")?,
            None => {}
        }
        if let Some(origin) = self.origin {
            write!(f, "({}{})", origin.file().get(), origin.rank().get())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(f: u8, r: u8) -> Square {
        Square::from_numbers(f, r).unwrap()
    }

    /// Where the reading by bytes gives a move, the general reading gives the same move and
    /// length, over texts made of every form of each part, mistakes included.
    #[test]
    fn plain_moves_read_by_bytes_as_by_characters() {
        let marks = ["", "▲", "△", "☗", "▽", " ", "▲ ", "▲　"];
        let squares = [
            "７六",
            "１一",
            "９九",
            "七六",
            "７6",
            "76",
            "７七",
            "０六",
            "７十",
            "同",
            "同　",
            "同 ",
            "同　　",
            "仝",
            "同\t",
            "２四同",
            "",
        ];
        let pieces =
            ["歩", "と", "王", "竜", "龍", "成香", "成", "フ", "合", "杏", "金", "馬", "右", "上", ""];
        let marks_after =
            ["", "成", "不成", "不", "打", "生", "右", "上", "行", "成右", "打成", "成打", "合", "ナ"];
        let origins = ["", "(77)", "(00)", "(19)", "(10)", "（77）", "(７7)", "(7)", "(77", "(a7)"];
        let tails = ["", " ", "△３四歩", "x", "(", "　", "+"];
        let (mut plain, mut compared) = (0, 0);
        for mark in marks {
            for square in squares {
                for piece in pieces {
                    for after in marks_after {
                        for origin in origins {
                            for tail in tails {
                                let text = format!("{mark}{square}{piece}{after}{origin}{tail}");
                                compared += 1;
                                if let Some(found) = parse_plain(&text) {
                                    plain += 1;
                                    assert_eq!(parse_any(&text).ok(), Some(found), "{text:?}");
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(compared > 1_000_000 && plain > 10_000, "{plain} of {compared} read by bytes");
        // And by hand: a KIF row's move, a KI2 move before the next.
        let (m, used) = parse_plain("同　銀成(88)").unwrap();
        assert_eq!(
            (m.destination, m.piece, m.promotion, m.origin, used),
            (Destination::Same, Some(PieceKind::Silver), Some(true), Some(sq(8, 8)), 16)
        );
        let (m, used) = parse_plain("▲７六歩 △３四歩").unwrap();
        assert_eq!(
            (m.color, m.destination, m.piece, used),
            (Some(Color::Black), Destination::Square(sq(7, 6)), Some(PieceKind::Pawn), 12)
        );
        // Moves written together are the general reading's.
        assert_eq!(parse_plain("▲７六歩△３四歩"), None);
    }

    #[test]
    fn plain_moves_in_every_coordinate_form() {
        for text in ["７六歩", "76歩", "7六歩", "七六歩", "▲７六歩", "☗7六歩", "▼７六歩", " ７六歩 "]
        {
            let m = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(m.destination, Destination::Square(sq(7, 6)), "{text}");
            assert_eq!(m.piece, Some(PieceKind::Pawn));
        }
        assert_eq!(parse("△３四歩").unwrap().color, Some(Color::White));
        assert_eq!(parse("▽３四歩").unwrap().color, Some(Color::White));
    }

    #[test]
    fn same_square_forms() {
        for text in ["同歩", "同　歩", "同 歩", "仝歩", "☖同歩", "-フ"] {
            assert_eq!(parse(text).unwrap().destination, Destination::Same, "{text}");
        }
        assert_eq!(parse("☖2四同歩").unwrap().destination, Destination::SquareSame(sq(2, 4)));
    }

    #[test]
    fn movement_and_promotion() {
        let m = parse("☗8三銀引成").unwrap();
        assert_eq!(
            (m.motion, m.promotion, m.piece),
            (Some(Motion::Down), Some(true), Some(PieceKind::Silver))
        );
        let m = parse("5七銀右").unwrap();
        assert_eq!(m.relative, Some(Relative::Right));
        let m = parse("5五龍入").unwrap();
        assert_eq!((m.motion, m.motion_alias), (Some(Motion::Up), true));
        assert_eq!(parse("5五竜行").unwrap().piece, Some(PieceKind::Dragon));
        assert_eq!(parse("7三桂生").unwrap().promotion, Some(false));
        assert_eq!(parse("7三桂不成").unwrap().promotion, Some(false));
        assert_eq!(parse("7三桂フナ").unwrap().promotion, Some(false));
        assert_eq!(parse("7三桂ナ").unwrap().promotion, Some(true));
        let m = parse("５二金左寄").unwrap();
        assert_eq!((m.relative, m.motion), (Some(Relative::Left), Some(Motion::Sideways)));
        assert!(parse("５五角打").unwrap().drop);
        assert_eq!(parse("5五金直").unwrap().relative, Some(Relative::Straight));
    }

    #[test]
    fn promoted_pieces_and_aliases() {
        for (text, kind) in [
            ("１二成香", PieceKind::ProLance),
            ("１二杏", PieceKind::ProLance),
            ("１二圭", PieceKind::ProKnight),
            ("１二全", PieceKind::ProSilver),
            ("１二と", PieceKind::ProPawn),
            ("１二王", PieceKind::King),
            ("１二兵", PieceKind::Pawn),
            ("１二ウ", PieceKind::Horse),
            ("１二ヒ", PieceKind::Rook),
        ] {
            assert_eq!(parse(text).unwrap().piece, Some(kind), "{text}");
        }
    }

    #[test]
    fn kif_origins_and_interpositions() {
        let m = parse("７六歩(77)").unwrap();
        assert_eq!(m.origin, Some(sq(7, 7)));
        let m = parse("同　角成(88)").unwrap();
        assert_eq!((m.destination, m.promotion, m.origin), (Destination::Same, Some(true), Some(sq(8, 8))));
        assert!(parse("５五角打").unwrap().origin.is_none());
        let m = parse("２三歩合").unwrap();
        assert!(m.drop);
        assert_eq!(m.piece, Some(PieceKind::Pawn));
        let m = parse("２三合").unwrap();
        assert_eq!((m.piece, m.drop), (None, true));
    }

    #[test]
    fn not_japanese_moves() {
        for text in [
            "",
            "７",
            "７六",
            "７六X",
            "０六歩",
            "７六歩(7)",
            "７六歩(77",
            "７六歩 x",
            "７六歩不",
            "７六歩成成",
            "P-7f",
        ] {
            assert!(parse(text).is_err(), "{text:?}");
        }
    }
}
