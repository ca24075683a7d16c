//! What tells apart the games whose moves tell them from no other.
//!
//! The moves of a whole record are one game's, whatever its records say. But no move at all
//! tells a game from another (two forfeits), nor do the moves kept of a record stopped early,
//! whose game goes on unseen. Such a record is one game with the records alone that say the
//! same of it: its [`Signature`]. The writer groups records by it, and a game's key
//! (`game_key` in the exports) holds it, so that any database tells such games apart alike.

use super::GameResult;

/// Whether a record of `plies` moves, stopped early when `stopped`, tells its game apart by
/// its moves alone.
pub(crate) fn moves_tell_apart(plies: u32, stopped: bool) -> bool {
    plies > 0 && !stopped
}

/// What a record whose moves tell its game from no other says of it: the keys of its players'
/// names ([`crate::name_key::key`]), its day, and its ending (its own, or its game's when it
/// ends as its game does). Records that say the same are one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Signature {
    black: Option<String>,
    white: Option<String>,
    day: Option<String>,
    result: GameResult,
    termination: Option<String>,
}

impl Signature {
    /// The signature of a record with these name keys, date (its first ten characters are
    /// the day: `2019-04-01`) and ending. An empty text is none.
    pub fn new(
        black: Option<String>,
        white: Option<String>,
        date: Option<&str>,
        result: GameResult,
        termination: Option<String>,
    ) -> Signature {
        let some = |s: Option<String>| s.filter(|s| !s.is_empty());
        let day = date.filter(|d| !d.is_empty()).map(|d| d.chars().take(10).collect());
        Signature { black: some(black), white: some(white), day, result, termination }
    }

    /// The signature of a record from its players' names (their keys are made here).
    pub fn of_names(
        black: Option<&str>,
        white: Option<&str>,
        date: Option<&str>,
        result: GameResult,
        termination: Option<String>,
    ) -> Signature {
        let key = |name: Option<&str>| name.map(crate::name_key::key);
        Signature::new(key(black), key(white), date, result, termination)
    }

    /// The text a game's key adds for it: black's and white's name keys, the day, the result
    /// (`black`, `white`, `draw`, `unknown`) and the termination, joined by tabs, each empty
    /// when the record says none.
    pub fn text(&self) -> String {
        let or_empty = |s: &Option<String>| s.clone().unwrap_or_default();
        [
            or_empty(&self.black),
            or_empty(&self.white),
            or_empty(&self.day),
            self.result.name().to_string(),
            or_empty(&self.termination),
        ]
        .join("\t")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_is_the_fields_by_tabs_with_the_day_of_the_date() {
        let s = Signature::new(
            Some("sato".into()),
            None,
            Some("2019-04-01 10:00"),
            GameResult::BlackWin,
            Some("forfeit".into()),
        );
        assert_eq!(s.text(), "sato\t\t2019-04-01\tblack\tforfeit");
        let empty = Signature::new(Some(String::new()), None, Some(""), GameResult::Unknown, None);
        assert_eq!(empty.text(), "\t\t\tunknown\t");
        assert_eq!(empty, Signature::new(None, None, None, GameResult::Unknown, None));
    }
}
