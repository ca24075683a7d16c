//! Name keys: the form in which names and other header text are compared.
//!
//! People write one name many ways: `羽生 善治` and `羽生善治`, `第６２期` and `第62期`,
//! `Habu` and `habu`, with a title after it or without. Two texts are compared through their
//! *keys*:
//! - Unicode NFKC, so full-width digits and letters are the ASCII ones (６２ is 62, ａ is a)
//!   and half-width katakana the full-width ones;
//! - every space of every width (and any other white space) left out;
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

use super::info::parse_player;

/// The key of a text: NFKC, without white space, lowercase.
///
/// ```
/// use kifudex::kifu::name_key::key;
/// assert_eq!(key("第６２期　名人戦"), "第62期名人戦");
/// assert_eq!(key("Habu  Yoshiharu"), "habuyoshiharu");
/// assert_eq!(key("ﾊﾌﾞ"), "ハブ");
/// ```
pub fn key(text: &str) -> String {
    text.nfkc().filter(|c| !c.is_whitespace()).flat_map(char::to_lowercase).collect()
}

/// The key of a player's name as written, with a title or rank after it left out (see
/// [`parse_player`]): `羽生善治 名人`, `羽生 善治` and `羽生善治` have one key.
///
/// ```
/// use kifudex::kifu::name_key::player_key;
/// assert_eq!(player_key("羽生 善治 名人"), "羽生善治");
/// assert_eq!(player_key("Hosking 3dan"), "hosking");
/// ```
pub fn player_key(text: &str) -> String {
    let player = parse_player(text);
    let name = if player.name.trim().is_empty() { &player.full } else { &player.name };
    key(name)
}

/// Whether `part` matches `text`: the key of `part` is a part of the key of `text`.
pub fn matches(part: &str, text: &str) -> bool {
    key(text).contains(&key(part))
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
