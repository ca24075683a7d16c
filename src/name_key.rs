//! Players' names and name keys: where a title written after a name starts, and the form in
//! which names and other header text are compared. The readers split the names they read
//! with it, and the database makes its keys and matches names with it.
//!
//! People write one name many ways: `羽生 善治` and `羽生善治`, `第６２期` and `第62期`,
//! `Habu` and `habu`, with a title after it or without. Two texts are compared through their
//! *keys*:
//! - Unicode NFKC, so full-width digits and letters are the ASCII ones (６２ is 62, ａ is a)
//!   and half-width katakana the full-width ones;
//! - every space of every width (and any other white space) left out, and `_`, which CSA
//!   names write for a space (`Ito_Chihiro` is `Ito Chihiro`);
//! - letters without case (lowercase);
//! - for a player, a title or rank written after the name left out ([`player_key`]), so
//!   `羽生善治 名人` and `羽生善治` have one key.
//!
//! A text *matches* another when its key is a part of the other's key: `--player 羽生`
//! finds `羽生善治 名人`, and `--event 62期` finds `第６２期名人戦`.
//!
//! Keys are stored (the `key` columns of `players` and `events`): changing how they are made
//! is a change of the stored format, and needs a migration that makes them again.

use unicode_normalization::UnicodeNormalization;

use crate::text::is_inline_space;

/// The key of a text: NFKC, without white space or `_`, lowercase.
///
/// ```
/// use kifudex::name_key::key;
/// assert_eq!(key("第６２期　名人戦"), "第62期名人戦");
/// assert_eq!(key("Habu  Yoshiharu"), "habuyoshiharu");
/// assert_eq!(key("Habu_Yoshiharu"), "habuyoshiharu");
/// assert_eq!(key("ﾊﾌﾞ"), "ハブ");
/// ```
pub fn key(text: &str) -> String {
    text.nfkc().filter(|&c| !c.is_whitespace() && c != '_').flat_map(char::to_lowercase).collect()
}

/// The key of a player's name as written, with a title or rank after it left out (see
/// [`split_title`]): `羽生善治 名人`, `羽生 善治` and `羽生善治` have one key.
///
/// ```
/// use kifudex::name_key::player_key;
/// assert_eq!(player_key("羽生 善治 名人"), "羽生善治");
/// assert_eq!(player_key("Hosking 3dan"), "hosking");
/// ```
pub fn player_key(text: &str) -> String {
    key(split_title(text.trim_matches(char::is_whitespace)).0)
}

/// Whether `part` matches `text`: the key of `part` is a part of the key of `text`.
pub fn matches(part: &str, text: &str) -> bool {
    key(text).contains(&key(part))
}

/// Where a player's name ends and a title or rank written after it starts: `羽生善治 名人`,
/// `渡辺明竜王`, `藤井聡太七段`, `羽生 善治竜王`, `里見香奈女流名人`, `藤井聡太竜王・名人`,
/// `surokiti0510 初段`, `稲葉聡アマ`, `Hosking 3dan`, `Ito_Chihiro_W2dan`,
/// `Habu_Yoshiharu_Meijin`. Returns the name and the title, if there is one; a title alone
/// (`名人`) is a name. `text` is taken as it is (trimmed).
///
/// ```
/// use kifudex::name_key::split_title;
/// assert_eq!(split_title("羽生 善治竜王"), ("羽生 善治", Some("竜王")));
/// assert_eq!(split_title("加藤一二三"), ("加藤一二三", None));
/// ```
pub fn split_title(text: &str) -> (&str, Option<&str>) {
    let full = text;
    let mut end = full.len();
    loop {
        let head = full[..end].trim_end_matches(is_inline_space);
        let Some(start) = title_start(head) else { break };
        let before = head[..start].trim_end_matches(is_inline_space);
        // `_` stands for a space where a name may hold none (CSA's `Ito_Chihiro_9dan`).
        let before = before.strip_suffix(['・', '、', '_']).unwrap_or(before);
        if before.trim_end_matches(is_inline_space).is_empty() {
            break;
        }
        end = before.len();
    }
    let name = full[..end].trim_end_matches(is_inline_space);
    if end == full.len() || name.is_empty() {
        return (full, None);
    }
    let title = full[end..].trim_matches(is_inline_space);
    let title = title.strip_prefix(['・', '、', '_']).unwrap_or(title).trim_start_matches(is_inline_space);
    (name, Some(title))
}

const TITLES: &[&str] = &[
    "女流名人",
    "女流王将",
    "女流王位",
    "女流王座",
    "倉敷藤花",
    "女王",
    "清麗",
    "白玲",
    "名人",
    "竜王",
    "龍王",
    "王位",
    "王座",
    "棋王",
    "王将",
    "棋聖",
    "叡王",
    "アマ",
];

const KANJI_DIGITS: &str = "一二三四五六七八九十";

/// Where a title or rank at the end of `text` starts, if one is there: one in brackets
/// (`(九段)`) included, and a rank or a number of titles held (`七冠`, `七冠王`) with the
/// lifetime or honorary form (`永世十段`, `永世七冠`).
fn title_start(text: &str) -> Option<usize> {
    for (open, close) in [('(', ')'), ('（', '）')] {
        if let Some(inner) = text.strip_suffix(close) {
            let start = inner.rfind(open)?;
            let title = &inner[start + open.len_utf8()..];
            return (title_start(title.trim_matches(is_inline_space)) == Some(0)).then_some(start);
        }
    }
    let held = |head: &str| {
        let (start, c) = head.char_indices().next_back()?;
        (KANJI_DIGITS.contains(c) || c.is_ascii_digit()).then_some(start)
    };
    let start = rank_start(text).or_else(|| {
        let head = text.strip_suffix('冠').or_else(|| text.strip_suffix("冠王"))?;
        held(head)
    });
    if let Some(start) = start {
        let head = &text[..start];
        return Some(["永世", "名誉"].iter().find_map(|p| head.strip_suffix(p)).map_or(start, str::len));
    }
    if let Some(start) = latin_title_start(text) {
        return Some(start);
    }
    let title = TITLES.iter().find(|t| text.ends_with(*t))?;
    let start = text.len() - title.len();
    // Lifetime and honorary forms: 永世竜王, 名誉王座, 十七世名人; former holders: 前名人.
    let head = &text[..start];
    for prefix in ["永世", "名誉", "前", "元"] {
        if let Some(h) = head.strip_suffix(prefix) {
            return Some(h.len());
        }
    }
    if let Some(h) = head.strip_suffix('世') {
        let digits =
            h.chars().rev().take_while(|&c| KANJI_DIGITS.contains(c)).map(char::len_utf8).sum::<usize>();
        if digits > 0 {
            return Some(h.len() - digits);
        }
    }
    Some(start)
}

/// The titles in Latin letters, lowercase, as CSA names write them (`Habu_Yoshiharu_Meijin`):
/// the eight titles, and `ama` for an amateur.
const LATIN_TITLES: &[&str] = &["meijin", "ryuo", "oi", "oza", "kio", "osho", "kisei", "eio", "ama"];

/// Where a title or a women's rank written in Latin letters (see [`LATIN_TITLES`]; `W2dan`,
/// `W1kyu`) at the end of `text` starts: a word of its own, in any case, after a name of two
/// words or more (`Kondo_Osamu_Ryuo`), each ended by `_` or a space. Inside a word
/// (`Tanakaoi`), or after a single word (`Takeshi_Oi`, a family name written last), it is part
/// of the name.
fn latin_title_start(text: &str) -> Option<usize> {
    let is_separator = |c: char| c == '_' || is_inline_space(c);
    let (before, c) = text.char_indices().rfind(|&(_, c)| is_separator(c))?;
    let start = before + c.len_utf8();
    // The name before it has two words or more.
    let name = text[..before].trim_end_matches(is_separator);
    if !name.trim_start_matches(is_separator).contains(is_separator) {
        return None;
    }
    let word = text[start..].to_ascii_lowercase();
    let womens_rank = || {
        let rank = word.strip_prefix('w')?;
        let digits = rank.strip_suffix("dan").or_else(|| rank.strip_suffix("kyu"))?;
        ((1..=2).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit())).then_some(())
    };
    (LATIN_TITLES.contains(&word.as_str()) || womens_rank().is_some()).then_some(start)
}

/// Where a rank (`七段`, `初段`, `1級`, `十五級`, `女流二段`, `アマ四段`, `3dan`) at the end of
/// `text` starts.
fn rank_start(text: &str) -> Option<usize> {
    let lower = text.to_ascii_lowercase();
    for unit in ["dan", "kyu"] {
        if let Some(head) = lower.strip_suffix(unit) {
            let head = head.trim_end_matches(['-', ' ']);
            let digits = head.bytes().rev().take_while(u8::is_ascii_digit).count();
            let start = head.len() - digits;
            let boundary = head[..start].chars().next_back().is_none_or(|c| !c.is_alphanumeric());
            if (1..=2).contains(&digits) && boundary {
                return Some(start);
            }
        }
    }
    let head = text.strip_suffix('段').or_else(|| text.strip_suffix('級'))?;
    let mut chars = head.char_indices().rev();
    let (mut start, last) = chars.next()?;
    if last.is_ascii_digit() || ('０'..='９').contains(&last) {
        if let Some((i, _)) = chars.next().filter(|&(_, c)| c.is_ascii_digit() || ('０'..='９').contains(&c))
        {
            start = i;
        }
    } else if last == '初' || KANJI_DIGITS.contains(last) {
        if let Some((i, '十')) = chars.next() {
            if last != '十' && text.ends_with('級') {
                start = i;
            }
        }
    } else {
        return None;
    }
    let head = &head[..start];
    for prefix in ["女流", "アマ", "奨励会"] {
        if let Some(h) = head.strip_suffix(prefix) {
            return Some(h.len());
        }
    }
    Some(start)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_spaces_and_case_do_not_count() {
        assert_eq!(key("羽生 善治"), key("羽生善治"));
        assert_eq!(key("羽生\u{3000}善治"), "羽生善治");
        assert_eq!(key(" a\tb\u{00a0}c\u{2003}d "), "abcd");
        assert_eq!(key("ＨＡＢＵ"), "habu");
        assert_eq!(key("Ｈａｂｕ Ｙｏｓｈｉｈａｒｕ"), "habuyoshiharu");
        assert_eq!(key("第６２期"), "第62期");
        assert_eq!(key("①"), "1");
        assert_eq!(key("ｶﾞ"), "ガ", "half-width kana with a voiced mark make one letter");
        assert_eq!(key("Ärger"), "ärger");
        assert_eq!(key(""), "");
        assert_eq!(key("　 "), "");
    }

    #[test]
    fn a_title_after_a_player_s_name_does_not_count() {
        assert_eq!(player_key("羽生善治 名人"), "羽生善治");
        assert_eq!(player_key("羽生善治名人"), "羽生善治");
        assert_eq!(player_key("羽生 善治竜王"), "羽生善治");
        assert_eq!(player_key("藤井聡太竜王・名人"), "藤井聡太");
        assert_eq!(player_key("羽生"), "羽生");
        // A title alone is a name.
        assert_eq!(player_key("名人"), "名人");
        // CSA names write spaces as `_`: the one before the rank is no part of the name.
        assert_eq!(split_title("Ito_Chihiro_9dan"), ("Ito_Chihiro", Some("9dan")));
        assert_eq!(split_title("Habu_Yoshiharu"), ("Habu_Yoshiharu", None));
    }

    #[test]
    fn a_title_or_rank_in_latin_letters_after_a_name_does_not_count() {
        // As CSA names write them: a word of its own after `_` or a space, in any case.
        assert_eq!(split_title("Habu_Yoshiharu_Meijin"), ("Habu_Yoshiharu", Some("Meijin")));
        assert_eq!(split_title("Kondo_Osamu_Ryuo"), ("Kondo_Osamu", Some("Ryuo")));
        assert_eq!(split_title("Kondo_Osamu_W2dan"), ("Kondo_Osamu", Some("W2dan")));
        assert_eq!(split_title("Aoki_Naoko_W10kyu"), ("Aoki_Naoko", Some("W10kyu")));
        assert_eq!(split_title("Tanaka_Taro_ama"), ("Tanaka_Taro", Some("ama")));
        assert_eq!(split_title("Habu Yoshiharu OSHO"), ("Habu Yoshiharu", Some("OSHO")));
        assert_eq!(
            split_title("Habu\u{3000}Yoshiharu\u{3000}Kisei"),
            ("Habu\u{3000}Yoshiharu", Some("Kisei"))
        );
        assert_eq!(split_title("西尾\u{3000}明"), ("西尾\u{3000}明", None));
        assert_eq!(split_title("Watanabe_Akira_Ryuo_Meijin"), ("Watanabe_Akira", Some("Ryuo_Meijin")));
        for name in ["Kondo_Osamu", "Kondo_Osamu_Oi", "KONDO OSAMU KIO", "Kondo_Osamu_W3dan"] {
            assert_eq!(player_key(name).replace('_', ""), "kondoosamu", "{name}");
        }
        // Inside a word, or a word of its own only in part, they are part of the name.
        // After a single word, the word may be a family name written last (大井 as `Oi`).
        for name in [
            "Tanakaoi",
            "Tanaka_Oizumi",
            "Tanaka_W2dans",
            "Tanaka_W123dan",
            "Tanaka_2dan_",
            "Takeshi_Oi",
            "Taro Ama",
            "_Oi",
        ] {
            assert_eq!(split_title(name), (name, None), "{name}");
        }
        // Alone, a title is a name.
        assert_eq!(split_title("Meijin"), ("Meijin", None));
    }

    #[test]
    fn matching_is_on_a_part_of_the_key() {
        assert!(matches("62期", "第６２期名人戦"));
        assert!(matches("羽生善治", "羽生 善治"));
        assert!(matches("habu", "Habu Yoshiharu"));
        assert!(matches("HABU YOSHI", "habu yoshiharu"));
        assert!(!matches("羽生善治", "羽生"));
        assert!(matches("", "anything"));
    }
}
