//! Stand-ins for the header normalization that `info.rs` owns: dates and player names.
//!
//! To be replaced by `info::parse_date(text) -> Option<DateTime>` and
//! `info::parse_player(text) -> Player` once that module is merged: the CSA, JKF and Western
//! readers call them only through `support::normalize` (and the Western reader's `Date` plus
//! `Time`), so the swap is an import change. Until then they cover what those readers meet: `2003/05/03 10:30:00`,
//! `2017-03-22T01:00:00.000Z`, `19970822`, `1997.08.22`, `2008/12/20(土)`,
//! `2022年01月09日(日) 14:48:46`, and names with a title or rank after them.

use super::{DateTime, Player};

/// The date (and time) in `text`, as precise as it is written. `None` when no year is found.
pub(crate) fn parse_date(text: &str) -> Option<DateTime> {
    let mut numbers = Vec::with_capacity(6);
    let mut current: Option<(u32, usize)> = None;
    for c in text.chars() {
        match c.to_digit(10) {
            Some(d) => {
                let (value, len) = current.unwrap_or((0, 0));
                current = Some((value.saturating_mul(10).saturating_add(d), len + 1));
            }
            None => numbers.extend(current.take()),
        }
    }
    numbers.extend(current);
    // The first number is the year (or the compact date); a time written alone (`15:35:06`)
    // has no year to hang on.
    let mut fields: Vec<u32> = match numbers.first() {
        // 19970822: the compact form.
        Some(&(n, 8)) => [n / 10000, n / 100 % 100, n % 100]
            .into_iter()
            .chain(numbers[1..].iter().map(|&(v, _)| v))
            .collect(),
        Some(&(_, 4)) => numbers.iter().map(|&(v, _)| v).collect(),
        _ => return None,
    };
    fields.truncate(6);
    let year = i32::try_from(fields[0]).ok()?;
    let month = fields.get(1).and_then(|&m| u8::try_from(m).ok()).filter(|m| (1..=12).contains(m));
    let day = month.and(fields.get(2)).and_then(|&d| u8::try_from(d).ok()).filter(|d| (1..=31).contains(d));
    let time = match (day, fields.get(3), fields.get(4)) {
        (Some(_), Some(&h), Some(&m)) if h < 24 && m < 60 => {
            let s = fields.get(5).copied().filter(|&s| s < 60).unwrap_or(0);
            Some((h as u8, m as u8, s as u8))
        }
        _ => None,
    };
    Some(DateTime { year, month, day, time })
}

/// Titles and ranks written after a name.
const TITLES: [&str; 12] =
    ["名人", "竜王", "龍王", "王位", "王座", "棋王", "王将", "棋聖", "叡王", "女王", "女流", "アマ"];

/// The player named in `text`, with a title or rank written after the name split off.
pub(crate) fn parse_player(text: &str) -> Player {
    let full = text.trim().to_string();
    let split = |name: &str, title: &str| Player {
        full: full.clone(),
        name: name.trim_end_matches([' ', '\u{3000}']).to_string(),
        title: Some(title.to_string()),
    };
    // A space before the last word that is a rank or title: `鈴木大介 九段`, `alice 2級`.
    if let Some(i) = full.rfind([' ', '\u{3000}']) {
        let last = full[i..].trim_start_matches([' ', '\u{3000}']);
        if is_title(last) {
            return split(&full[..i], last);
        }
    }
    // Glued: `藤井聡太棋王`, `増田康宏八段`.
    for (i, _) in full.char_indices().skip(1) {
        let tail = &full[i..];
        if is_title(tail) && !tail.is_ascii() {
            return split(&full[..i], tail);
        }
    }
    Player { name: full.clone(), full, title: None }
}

fn is_title(word: &str) -> bool {
    if word.is_empty() {
        return false;
    }
    if TITLES.iter().any(|t| word.starts_with(t)) {
        return true;
    }
    // Ranks: 九段, 初段, 2級, 四段, 3dan, 30kyu.
    let stem = word.trim_end_matches(['段', '級']);
    let stem = if stem.len() < word.len() {
        stem
    } else {
        let lower = word.to_ascii_lowercase();
        match lower.strip_suffix("dan").or_else(|| lower.strip_suffix("kyu")) {
            Some(s) => return !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()),
            None => return false,
        }
    };
    !stem.is_empty() && stem.chars().all(|c| c.is_ascii_digit() || "一二三四五六七八九十初".contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(text: &str) -> Option<String> {
        parse_date(text).map(|d| d.to_string())
    }

    #[test]
    fn dates_in_the_forms_records_use() {
        assert_eq!(date("2003/05/03 10:30:00").as_deref(), Some("2003-05-03T10:30:00"));
        assert_eq!(date("2017-03-22T01:00:00.000Z").as_deref(), Some("2017-03-22T01:00:00"));
        assert_eq!(date("19970822").as_deref(), Some("1997-08-22"));
        assert_eq!(date("1997.08.22").as_deref(), Some("1997-08-22"));
        assert_eq!(date("1997.??.??").as_deref(), Some("1997"));
        assert_eq!(date("2008/12/20(土)").as_deref(), Some("2008-12-20"));
        assert_eq!(date("2022年01月09日(日) 14:48:46").as_deref(), Some("2022-01-09T14:48:46"));
        assert_eq!(date(" 15:35:06"), None);
        assert_eq!(date("?"), None);
        assert_eq!(date(""), None);
    }

    #[test]
    fn players_and_titles() {
        let p = parse_player("鈴木大介 九段");
        assert_eq!((p.name.as_str(), p.title.as_deref()), ("鈴木大介", Some("九段")));
        let p = parse_player("藤井聡太棋王");
        assert_eq!((p.name.as_str(), p.title.as_deref()), ("藤井聡太", Some("棋王")));
        let p = parse_player("alice 2級");
        assert_eq!((p.name.as_str(), p.title.as_deref()), ("alice", Some("2級")));
        let p = parse_player("NAKAHARA");
        assert_eq!((p.full.as_str(), p.name.as_str(), p.title), ("NAKAHARA", "NAKAHARA", None));
    }
}
