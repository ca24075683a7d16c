//! Writing a legal move: Japanese (KI2 style), Western (Hodges or Hosking), USI and CSA.
//!
//! Japanese follows the rules the notation sources give, as KI2 files write them:
//! - `▲`/`△`, the file as a full-width digit and the rank in kanji: `▲７六歩`;
//! - `同` for the previous move's destination, with a full-width space when only one character
//!   follows (`△同　歩`, but `▲同銀右`, `▲同歩成`, `▲同成銀`), so that every move is at least
//!   three characters after the mark;
//! - 打 only when a piece of the same kind on the board could also go there;
//! - the least disambiguation that tells the piece apart ([`relative::markers`]): 上/引/寄
//!   first, then 右/左 (直 for golds and silvers going straight up), both when needed;
//! - 成 for a promotion, 不成 when the piece could have promoted and did not.
//!
//! Western writes the origin only when another piece of the kind could reach the square, `x`
//! for a capture, `+` for a promotion and `=` for a declined one: Hodges `P-7f`, `Bx2b+`,
//! `B*4e`, `G7g-7h`, `N-7c=`; Hosking `P76`, `Bx22+`, `B'45`, `G77-78`.
//!
//! Both count, as "other pieces that could reach the square", pieces that are pinned: a reader
//! that does not look at pins still finds exactly one piece, and one that does is not misled.
//!
//! A yari shogi move is written in Western notation with yari letters (`YB6i-5h`, `YNx7c=`,
//! `+P-4c`, Hosking `YB69-58`) or in the USI-like form; Japanese and CSA notation have no yari
//! pieces, and for a yari position those styles write the USI-like form.

use std::fmt::Write as _;

use super::{
    Previous, Style,
    csa::CsaMove,
    japanese::{Motion, Relative, file_char, piece_name, rank_char},
    relative,
    western::letters,
};
use crate::shogi::{Color, Move, PieceKind, Position, Square, Variant};

/// Writes `mv`, a legal move in `pos`, in `style`. `previous` is the destination of the move
/// before (Japanese writes 同 when `mv` goes there).
///
/// A move that is not legal in `pos` gets text that may not read back, and no panic; a
/// board move from an empty square is written in USI. Japanese notation writes a yari shogi
/// piece with the kanji of the shogi piece its SFEN letter stands for (歩, 桂 for the yari
/// knight, 角 for the yari bishop, 飛 for the yari rook, 玉 for the general; と, 成桂, 馬, 龍
/// promoted), as KIF and KI2 records of yari shogi do. CSA holds no yari shogi game: a yari
/// shogi move in it is the empty text, so that a column of CSA moves never holds another
/// notation.
pub fn write(pos: &Position, mv: Move, previous: Previous, style: Style) -> String {
    if pos.variant() != Variant::Standard && style == Style::Csa {
        return String::new();
    }
    let Some(kind) = pos.moving_kind(mv) else {
        return mv.to_string();
    };
    match style {
        Style::Usi => mv.to_string(),
        Style::Csa => {
            let piece = if mv.is_promotion() { kind.promote().unwrap_or(kind) } else { kind };
            CsaMove { color: Some(pos.turn()), from: mv.from(), to: mv.to(), piece, before: None }.to_string()
        }
        Style::Japanese => japanese(pos, mv, kind, previous),
        Style::Western => western(pos, mv, kind, false),
        Style::Hosking => western(pos, mv, kind, true),
    }
}

/// Whether `mv` is a board move that could have promoted and did not.
fn declined_promotion(pos: &Position, mv: Move) -> bool {
    match mv {
        Move::Normal { from, to, promote: false } => pos.is_legal(Move::Normal { from, to, promote: true }),
        _ => false,
    }
}

fn japanese(pos: &Position, mv: Move, kind: PieceKind, previous: Previous) -> String {
    let us = pos.turn();
    let to = mv.to();
    let mut tail = String::with_capacity(16);
    tail.push_str(piece_name(kind));
    match mv {
        Move::Drop { .. } => {
            if !pos.movers_to(kind, to).is_empty() {
                tail.push('打');
            }
        }
        Move::Normal { from, promote, .. } => {
            let (side, motion) =
                relative::markers(us, kind, pos.variant(), from, to, &pos.movers_to(kind, to));
            if let Some(side) = side {
                tail.push(match side {
                    Relative::Right => '右',
                    Relative::Left => '左',
                    Relative::Straight => '直',
                });
            }
            if let Some(motion) = motion {
                tail.push(match motion {
                    Motion::Up => '上',
                    Motion::Down => '引',
                    Motion::Sideways => '寄',
                });
            }
            if promote {
                tail.push('成');
            } else if declined_promotion(pos, mv) {
                tail.push_str("不成");
            }
        }
    }
    let mut text = String::with_capacity(tail.len() + 9);
    text.push(if us == Color::Black { '▲' } else { '△' });
    if previous == Some(to) {
        text.push('同');
        if tail.chars().nth(1).is_none() {
            text.push('\u{3000}');
        }
    } else {
        text.push(file_char(to.file().get()));
        text.push(rank_char(to.rank().get()));
    }
    text.push_str(&tail);
    text
}

fn western(pos: &Position, mv: Move, kind: PieceKind, hosking: bool) -> String {
    let square = |text: &mut String, sq: Square| {
        let rank = if hosking { char::from(b'0' + sq.rank().get()) } else { sq.rank().letter() };
        let _ = write!(text, "{}{rank}", sq.file().get());
    };
    let to = mv.to();
    let mut text = String::with_capacity(10);
    text.push_str(letters(pos.variant(), kind));
    match mv {
        Move::Drop { .. } => text.push(if hosking { '\'' } else { '*' }),
        Move::Normal { from, .. } => {
            let origin = pos.movers_to(kind, to).len() > 1;
            if origin {
                square(&mut text, from);
            }
            if pos.piece_at(to).is_some() {
                text.push('x');
            } else if origin || !hosking {
                text.push('-');
            }
        }
    }
    square(&mut text, to);
    if mv.is_promotion() {
        text.push('+');
    } else if declined_promotion(pos, mv) {
        text.push('=');
    }
    text
}
