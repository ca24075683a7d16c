//! The board diagram `query` prints above its answer: a KIF board diagram (BOD) for shogi,
//! which every Japanese reader knows; for yari shogi, which has no Japanese piece names, a
//! grid of SFEN letters with Western coordinates (files 7 to 1, ranks a to i).

use kifudex::{
    kifu::bod::write_bod,
    shogi::{Color, Setup, Variant},
};

/// The diagram of `setup`.
pub fn diagram(setup: &Setup) -> String {
    if setup.variant == Variant::Standard {
        return write_bod(setup);
    }
    let sfen = setup.to_string();
    let mut fields = sfen.split(' ');
    let (board, hands) = (fields.next().unwrap_or(""), fields.nth(1).unwrap_or("-"));
    let files = setup.variant.files();
    let mut out = format!("White in hand: {}\n", hand(hands, char::is_ascii_lowercase));
    out.push(' ');
    for file in (1..=files).rev() {
        out.push_str(&format!("{file:>3}"));
    }
    out.push('\n');
    for (rank, row) in board.split('/').enumerate() {
        out.push(' ');
        let mut promoted = false;
        for c in row.chars() {
            match c {
                '+' => promoted = true,
                '1'..='9' => {
                    for _ in 0..c.to_digit(10).unwrap_or(0) {
                        out.push_str("  .");
                    }
                }
                _ => {
                    let piece = format!("{}{c}", if promoted { "+" } else { "" });
                    out.push_str(&format!("{piece:>3}"));
                    promoted = false;
                }
            }
        }
        out.push_str(&format!("  {}\n", char::from(b'a' + rank as u8)));
    }
    out.push_str(&format!("Black in hand: {}\n", hand(hands, char::is_ascii_uppercase)));
    out.push_str(&format!("{} to move\n", if setup.turn == Color::Black { "Black" } else { "White" }));
    out
}

/// One side's pieces in hand, from an SFEN hand field: `2P N`, or `-`.
fn hand(field: &str, side: fn(&char) -> bool) -> String {
    let mut pieces = Vec::new();
    let mut count = String::new();
    for c in field.chars() {
        if c.is_ascii_digit() {
            count.push(c);
        } else {
            if side(&c) {
                pieces.push(format!("{count}{}", c.to_ascii_uppercase()));
            }
            count.clear();
        }
    }
    if pieces.is_empty() { "-".to_string() } else { pieces.join(" ") }
}
