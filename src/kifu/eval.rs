//! Engine evaluations that records carry in their comments.
//!
//! # Forms read
//!
//! - KIF (ShogiHome, ShogiGUI and the programs that share their comments): `*#評価値=123`
//!   and `**評価値=123` (the comments `#評価値=123` and `*評価値=123`); a mate as
//!   `*#詰み=先手勝ち:15手` or `*#詰み=後手勝ち` (the plies may be left out).
//! - CSA (floodgate's records and the CSA protocol's extended mode): `'** 123 -3334FU …` and
//!   `'* 123 …` (the comments `** 123 …` and `* 123 …`), the number followed by the
//!   expected line, if any.
//!
//! Both forms write the value in centipawns from Black's side (positive when Black is
//! better), whichever side's engine wrote it: in floodgate's records the comments of both
//! engines go negative together as White wins, and in ShogiHome's they keep one sign from
//! move to move of either side. A comment follows the move it was written after, so it
//! evaluates the position that move leaves.
//!
//! # Mates
//!
//! A mate is an evaluation beyond any centipawn value: `MATE − n` when Black mates in `n`
//! plies, `−(MATE − n)` when White does, with [`MATE`] = 1,000,000,000 and `n` = 0 when the
//! record does not say in how many plies. So `abs(eval) > 900_000_000` tells a mate, and the
//! plies are `MATE − abs(eval)`. A written value that large is not an evaluation and is
//! left out.

/// The evaluation of a mate in 0 plies (see the module documentation).
pub const MATE: i64 = 1_000_000_000;

/// The largest centipawn value read as one; beyond it, values are mates.
pub const MAX_CENTIPAWNS: i64 = 900_000_000;

/// The evaluation a comment states, in centipawns from Black's side (mates encoded as the
/// module documentation says), if it is one of the forms read.
///
/// ```
/// use kifudex::kifu::eval::{MATE, evaluation};
/// assert_eq!(evaluation("#評価値=-102"), Some(-102));
/// assert_eq!(evaluation("** 113 -3334FU +2625FU"), Some(113));
/// assert_eq!(evaluation("#詰み=後手勝ち:8手"), Some(-(MATE - 8)));
/// assert_eq!(evaluation("互角"), None);
/// ```
pub fn evaluation(comment: &str) -> Option<i64> {
    let text = comment.trim();
    let kif = text.strip_prefix('#').or_else(|| text.strip_prefix('*')).unwrap_or(text);
    if let Some(value) = kif.strip_prefix("評価値=") {
        return centipawns(value.trim());
    }
    if let Some(mate) = kif.strip_prefix("詰み=") {
        return mate_of(mate.trim());
    }
    // CSA: `* N` or `** N`, then the expected line.
    let csa = text.strip_prefix("**").or_else(|| text.strip_prefix('*'))?;
    if !csa.starts_with(' ') {
        return None;
    }
    centipawns(csa.split_whitespace().next()?)
}

fn centipawns(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('+').unwrap_or(text);
    let value: i64 = digits.parse().ok()?;
    // `unsigned_abs`: the absolute value of i64::MIN is no i64.
    (value.unsigned_abs() <= MAX_CENTIPAWNS.unsigned_abs()).then_some(value)
}

/// `先手勝ち:15手`, `後手勝ち`.
fn mate_of(text: &str) -> Option<i64> {
    let (side, plies) = match text.split_once([':', '：']) {
        Some((side, plies)) => (side.trim(), Some(plies.trim())),
        None => (text, None),
    };
    let sign = match side {
        "先手勝ち" | "下手勝ち" => 1,
        "後手勝ち" | "上手勝ち" => -1,
        _ => return None,
    };
    let n = match plies {
        None | Some("") => 0,
        Some(p) => p
            .strip_suffix('手')
            .unwrap_or(p)
            .trim()
            .parse::<i64>()
            .ok()
            .filter(|n| (0..1_000_000).contains(n))?,
    };
    Some(sign * (MATE - n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kif_forms() {
        assert_eq!(evaluation("#評価値=-102"), Some(-102));
        assert_eq!(evaluation("*評価値=80"), Some(80));
        assert_eq!(evaluation("評価値=+35"), Some(35));
        assert_eq!(evaluation("#評価値=abc"), None);
        assert_eq!(evaluation("#評価値=2000000000"), None);
        assert_eq!(evaluation("#評価値=-9223372036854775808"), None);
        assert_eq!(evaluation("#詰み=先手勝ち"), Some(MATE));
        assert_eq!(evaluation("*詰み=先手勝ち:15手"), Some(MATE - 15));
        assert_eq!(evaluation("#詰み=後手勝ち:8手"), Some(-(MATE - 8)));
        assert_eq!(evaluation("#詰み=引き分け"), None);
        assert_eq!(evaluation("#読み筋=△８五歩▲７七角"), None);
        assert_eq!(evaluation("#深さ=21"), None);
    }

    #[test]
    fn csa_forms() {
        assert_eq!(evaluation("** 41 -4132KI"), Some(41));
        assert_eq!(evaluation("** -20964 -0067GI"), Some(-20964));
        assert_eq!(evaluation("* 30 -3334FU +2726FU"), Some(30));
        assert_eq!(evaluation("** 0"), Some(0));
        assert_eq!(evaluation("**対局 深さ 2 評価値 100"), None);
        assert_eq!(evaluation("*comment 5"), None);
        assert_eq!(evaluation("summary:toryo:a lose:b win"), None);
        assert_eq!(evaluation("** x"), None);
        // Past the range, at the ends of i64 too: no value passes for a mate.
        assert_eq!(evaluation("** -9223372036854775808"), None);
        assert_eq!(evaluation("** 9223372036854775807"), None);
        assert_eq!(evaluation("** -900000001"), None);
        assert_eq!(evaluation("** -900000000"), Some(-900_000_000));
    }
}
