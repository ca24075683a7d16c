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
//! - the old and variant forms of kanji that names keep in the form in use today (`髙橋` is
//!   `高橋`, `渡邊` is `渡辺`, `名人戰` is `名人戦`), and without variation
//!   selectors;
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

/// The key of a text: NFKC, without white space, `_` or variation selectors, old and
/// variant kanji in their form of today, lowercase.
///
/// ```
/// use kifudex::name_key::key;
/// assert_eq!(key("第６２期　名人戦"), "第62期名人戦");
/// assert_eq!(key("Habu  Yoshiharu"), "habuyoshiharu");
/// assert_eq!(key("Habu_Yoshiharu"), "habuyoshiharu");
/// assert_eq!(key("ﾊﾌﾞ"), "ハブ");
/// assert_eq!(key("髙橋道雄"), key("高橋道雄"));
/// assert_eq!(key("渡邊明"), "渡辺明");
/// assert_eq!(key("山﨑隆之"), "山崎隆之");
/// assert_eq!(key("第１期名人戰"), "第1期名人戦");
/// ```
pub fn key(text: &str) -> String {
    text.nfkc()
        .filter(|&c| !c.is_whitespace() && c != '_' && !is_variation_selector(c))
        .map(standard_form)
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether `c` only chooses how the character before it is drawn (a variation selector, as
/// in `葛󠄀`, U+845B U+E0100): it changes no name.
fn is_variation_selector(c: char) -> bool {
    matches!(c, '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}')
}

/// The form in use today of a kanji written in an old or variant form that names and event
/// titles often keep (see [`VARIANTS`]); any other character as it is.
///
/// ```
/// use kifudex::name_key::key;
/// assert_eq!(key("髙橋道雄"), key("高橋道雄"));
/// assert_eq!(key("渡邊明"), "渡辺明");
/// assert_eq!(key("山﨑隆之"), "山崎隆之");
/// assert_eq!(key("第１期名人戰"), "第1期名人戦");
/// ```
fn standard_form(c: char) -> char {
    VARIANTS.binary_search_by_key(&c, |&(variant, _)| variant).map_or(c, |i| VARIANTS[i].1)
}

/// Old and variant forms of kanji, each with the form in use today, in the order of their code
/// points: the old forms (旧字体) that the 常用漢字表 lists beside its characters and that
/// names keep (`澤`, `邊`, `齋`, `廣`, `龍`, `將`, `戰`), and the variant forms (異体字) of
/// family names (`髙`, `﨑`, `邉`, `濵`, `嶋`, `冨`, `𠮷`). Two characters in use today that
/// only look alike stay apart: `斎` and `斉` are two family names (`齋` is the old form of the
/// first, `齊` of the second). The forms that Unicode NFKC already joins (the compatibility
/// ideographs, as U+FA10 for `塚`) are not listed.
const VARIANTS: &[(char, char)] = &[
    ('亞', '亜'),
    ('假', '仮'),
    ('傳', '伝'),
    ('價', '価'),
    ('兒', '児'),
    ('冨', '富'),
    ('參', '参'),
    ('國', '国'),
    ('圍', '囲'),
    ('圓', '円'),
    ('團', '団'),
    ('增', '増'),
    ('壹', '壱'),
    ('壽', '寿'),
    ('學', '学'),
    ('實', '実'),
    ('寶', '宝'),
    ('將', '将'),
    ('對', '対'),
    ('峯', '峰'),
    ('嵜', '崎'),
    ('嶋', '島'),
    ('嶌', '島'),
    ('巖', '巌'),
    ('廣', '広'),
    ('廳', '庁'),
    ('彈', '弾'),
    ('彌', '弥'),
    ('從', '従'),
    ('德', '徳'),
    ('恆', '恒'),
    ('惠', '恵'),
    ('惡', '悪'),
    ('愼', '慎'),
    ('應', '応'),
    ('戰', '戦'),
    ('拂', '払'),
    ('拔', '抜'),
    ('搖', '揺'),
    ('擧', '挙'),
    ('攝', '摂'),
    ('敍', '叙'),
    ('數', '数'),
    ('斷', '断'),
    ('晉', '晋'),
    ('晝', '昼'),
    ('曆', '暦'),
    ('曻', '昇'),
    ('會', '会'),
    ('栁', '柳'),
    ('桒', '桑'),
    ('桧', '檜'),
    ('條', '条'),
    ('棊', '棋'),
    ('榮', '栄'),
    ('槇', '槙'),
    ('槗', '橋'),
    ('樂', '楽'),
    ('樣', '様'),
    ('橫', '横'),
    ('檢', '検'),
    ('櫻', '桜'),
    ('權', '権'),
    ('步', '歩'),
    ('歷', '歴'),
    ('殘', '残'),
    ('每', '毎'),
    ('氣', '気'),
    ('沒', '没'),
    ('涉', '渉'),
    ('淨', '浄'),
    ('淸', '清'),
    ('淺', '浅'),
    ('渕', '淵'),
    ('溫', '温'),
    ('滿', '満'),
    ('澀', '渋'),
    ('澁', '渋'),
    ('澤', '沢'),
    ('濕', '湿'),
    ('濱', '浜'),
    ('濵', '浜'),
    ('瀧', '滝'),
    ('瀨', '瀬'),
    ('燈', '灯'),
    ('燒', '焼'),
    ('爭', '争'),
    ('爲', '為'),
    ('犧', '犠'),
    ('狹', '狭'),
    ('獨', '独'),
    ('獻', '献'),
    ('瓣', '弁'),
    ('畫', '画'),
    ('畵', '画'),
    ('當', '当'),
    ('疊', '畳'),
    ('發', '発'),
    ('盖', '蓋'),
    ('盜', '盗'),
    ('盡', '尽'),
    ('眞', '真'),
    ('碎', '砕'),
    ('祕', '秘'),
    ('祢', '禰'),
    ('祿', '禄'),
    ('禪', '禅'),
    ('禮', '礼'),
    ('稻', '稲'),
    ('穗', '穂'),
    ('竊', '窃'),
    ('竝', '並'),
    ('籔', '藪'),
    ('粹', '粋'),
    ('絕', '絶'),
    ('絲', '糸'),
    ('經', '経'),
    ('綠', '緑'),
    ('縣', '県'),
    ('繩', '縄'),
    ('繪', '絵'),
    ('續', '続'),
    ('缺', '欠'),
    ('罐', '缶'),
    ('羣', '群'),
    ('聰', '聡'),
    ('聲', '声'),
    ('肅', '粛'),
    ('臺', '台'),
    ('與', '与'),
    ('舊', '旧'),
    ('舍', '舎'),
    ('舖', '舗'),
    ('舘', '館'),
    ('莊', '荘'),
    ('莖', '茎'),
    ('萬', '万'),
    ('薮', '藪'),
    ('薰', '薫'),
    ('藏', '蔵'),
    ('藝', '芸'),
    ('藥', '薬'),
    ('蘆', '芦'),
    ('處', '処'),
    ('虛', '虚'),
    ('號', '号'),
    ('螢', '蛍'),
    ('蟲', '虫'),
    ('蠶', '蚕'),
    ('裝', '装'),
    ('覺', '覚'),
    ('觀', '観'),
    ('觸', '触'),
    ('說', '説'),
    ('謠', '謡'),
    ('譯', '訳'),
    ('譽', '誉'),
    ('讀', '読'),
    ('變', '変'),
    ('豐', '豊'),
    ('豫', '予'),
    ('豬', '猪'),
    ('貳', '弐'),
    ('賣', '売'),
    ('賴', '頼'),
    ('贊', '賛'),
    ('踐', '践'),
    ('躰', '体'),
    ('輕', '軽'),
    ('轉', '転'),
    ('辨', '弁'),
    ('辭', '辞'),
    ('辯', '弁'),
    ('遞', '逓'),
    ('遲', '遅'),
    ('邉', '辺'),
    ('邊', '辺'),
    ('邨', '村'),
    ('郞', '郎'),
    ('鄕', '郷'),
    ('醉', '酔'),
    ('醫', '医'),
    ('釋', '釈'),
    ('錢', '銭'),
    ('鎭', '鎮'),
    ('鐵', '鉄'),
    ('鑛', '鉱'),
    ('閱', '閲'),
    ('關', '関'),
    ('隨', '随'),
    ('險', '険'),
    ('隱', '隠'),
    ('雙', '双'),
    ('雜', '雑'),
    ('雞', '鶏'),
    ('靈', '霊'),
    ('靑', '青'),
    ('靜', '静'),
    ('顏', '顔'),
    ('顯', '顕'),
    ('飜', '翻'),
    ('餘', '余'),
    ('驅', '駆'),
    ('驒', '騨'),
    ('驗', '験'),
    ('驛', '駅'),
    ('髓', '髄'),
    ('體', '体'),
    ('髙', '高'),
    ('髮', '髪'),
    ('鬪', '闘'),
    ('鷄', '鶏'),
    ('鷗', '鴎'),
    ('鹽', '塩'),
    ('麥', '麦'),
    ('黃', '黄'),
    ('黑', '黒'),
    ('默', '黙'),
    ('黨', '党'),
    ('齊', '斉'),
    ('齋', '斎'),
    ('齒', '歯'),
    ('齡', '齢'),
    ('龍', '竜'),
    ('龜', '亀'),
    ('﨑', '崎'),
    ('𠮷', '吉'),
];

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
/// (`名人`) is a name. `text` is taken as it is (trimmed); its titles are told as its keys
/// read them, in any width and in the old forms of their kanji (`王將`, `ｱﾏ`, `Ｍｅｉｊｉｎ`).
///
/// ```
/// use kifudex::name_key::split_title;
/// assert_eq!(split_title("羽生 善治竜王"), ("羽生 善治", Some("竜王")));
/// assert_eq!(split_title("加藤一二三"), ("加藤一二三", None));
/// assert_eq!(split_title("大山康晴 王將"), ("大山康晴", Some("王將")));
/// ```
pub fn split_title(text: &str) -> (&str, Option<&str>) {
    // The text with each character in the form keys give it, and where each of its bytes
    // came from in `text`.
    let mut folded = String::with_capacity(text.len());
    let mut from = Vec::with_capacity(text.len() + 1);
    for (i, c) in text.char_indices() {
        let f = fold(c);
        from.extend(std::iter::repeat_n(i, f.len_utf8()));
        folded.push(f);
    }
    from.push(text.len());
    let Some(end) = name_end(&folded) else { return (text, None) };
    let space = |c: char| is_inline_space(fold(c));
    let name = text[..from[end]].trim_end_matches(space);
    let title = text[from[end]..].trim_matches(space);
    let title = title.strip_prefix(|c| matches!(fold(c), '・' | '、' | '_')).unwrap_or(title);
    (name, Some(title.trim_start_matches(space)))
}

/// `c` as keys read it where it is one character: NFKC (`Ａ` is `A`, `ｱ` is `ア`, U+3000 a
/// space), then its form of today ([`standard_form`]).
fn fold(c: char) -> char {
    // What NFKC leaves as it is, told without it: ASCII, kana, the common kanji.
    if c.is_ascii() {
        return c;
    }
    if matches!(c, '\u{3041}'..='\u{3096}' | '\u{30A1}'..='\u{30FC}' | '\u{4E00}'..='\u{9FFF}') {
        return standard_form(c);
    }
    let mut nfkc = std::iter::once(c).nfkc();
    let single = match (nfkc.next(), nfkc.next()) {
        (Some(f), None) => f,
        _ => c,
    };
    standard_form(single)
}

/// [`split_title`] of a text folded by [`fold`]: the end of the name, when a title follows it.
fn name_end(full: &str) -> Option<usize> {
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
    (end < full.len() && !name.is_empty()).then_some(end)
}

/// Whether `text` is a title alone (`名人`, `九段`, `女流二段`, `Meijin`): [`split_title`] takes
/// it for a name, but the names a record gives with a title are stored without it.
pub fn is_title(text: &str) -> bool {
    let folded: String = text.trim_matches(char::is_whitespace).chars().map(fold).collect();
    title_start(&folded) == Some(0)
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
            // One title, or several (`(九段・永世七冠)`, `（竜王・名人）`).
            let mut titles = inner[start + open.len_utf8()..].split(['・', '、']);
            let each = titles.all(|t| title_start(t.trim_matches(is_inline_space)) == Some(0));
            return each.then_some(start);
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
        // Lifetime and honorary forms (`永世七冠`), and the women's titles held (`女流三冠`).
        let head = &text[..start];
        return Some(
            ["永世", "名誉", "女流"].iter().find_map(|p| head.strip_suffix(p)).map_or(start, str::len),
        );
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
    fn old_and_variant_kanji_are_their_form_of_today() {
        // Pairs from the 常用漢字表's old forms and family names' variants, as written by hand.
        for (old, today) in [
            ("髙橋道雄", "高橋道雄"),
            ("渡邊明", "渡辺明"),
            ("渡邉明", "渡辺明"),
            ("山﨑隆之", "山崎隆之"),
            ("齋藤慎太郎", "斎藤慎太郎"),
            ("廣瀬章人", "広瀬章人"),
            ("澤田真吾", "沢田真吾"),
            ("濵田", "浜田"),
            ("𠮷田", "吉田"),
            ("第１期名人戰", "第1期名人戦"),
            ("將棋", "将棋"),
        ] {
            assert_eq!(key(old), key(today), "{old}");
        }
        // Two family names in use today stay two.
        assert_ne!(key("斎藤"), key("斉藤"));
        assert_eq!(key("齊藤"), key("斉藤"));
        // A variation selector only chooses a glyph.
        assert_eq!(key("葛\u{E0100}城"), "葛城");
        assert_eq!(key("辻\u{FE00}"), "辻");
        assert_eq!(player_key("渡邊明 龍王"), "渡辺明");
    }

    #[test]
    fn the_variant_table_is_in_order_and_maps_to_characters_it_leaves_alone() {
        assert!(VARIANTS.windows(2).all(|w| w[0].0 < w[1].0), "sorted, each variant once");
        for &(variant, today) in VARIANTS {
            assert_ne!(variant, today);
            assert_eq!(standard_form(today), today, "{variant} → {today}");
            assert_eq!(key(&variant.to_string()), today.to_string(), "NFKC keeps {variant}");
        }
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

    /// A title is told as keys read it: in full-width or half-width letters, digits and
    /// katakana, and in the old forms of its kanji; the name and the title are returned as
    /// written. Several titles in one bracket, and the number of women's titles held, are
    /// titles too. Each expected split is the record's text cut by hand.
    #[test]
    fn titles_in_any_width_or_old_form_are_titles() {
        for (text, name, title) in [
            ("Ｈａｂｕ　Ｙｏｓｈｉｈａｒｕ　Ｍｅｉｊｉｎ", "Ｈａｂｕ　Ｙｏｓｈｉｈａｒｕ", "Ｍｅｉｊｉｎ"),
            ("Ｈａｂｕ＿Ｙｏｓｈｉｈａｒｕ＿Ｍｅｉｊｉｎ", "Ｈａｂｕ＿Ｙｏｓｈｉｈａｒｕ", "Ｍｅｉｊｉｎ"),
            ("加藤 ｱﾏ", "加藤", "ｱﾏ"),
            ("Tony Hosking ３ｄａｎ", "Tony Hosking", "３ｄａｎ"),
            ("大山康晴 王將", "大山康晴", "王將"),
            ("升田幸三 名譽王座", "升田幸三", "名譽王座"),
            ("藤井聡太 ７冠", "藤井聡太", "７冠"),
            ("Ito_Chihiro_Ｗ２ｄａｎ", "Ito_Chihiro", "Ｗ２ｄａｎ"),
            ("西山朋佳 女流三冠", "西山朋佳", "女流三冠"),
            ("里見香奈女流四冠", "里見香奈", "女流四冠"),
            ("羽生善治(九段・永世七冠)", "羽生善治", "(九段・永世七冠)"),
            ("藤井聡太（竜王・名人）", "藤井聡太", "（竜王・名人）"),
            ("渡辺明 名人（棋王・王将）", "渡辺明", "名人（棋王・王将）"),
        ] {
            assert_eq!(split_title(text), (name, Some(title)), "{text}");
        }
        assert_eq!(player_key("Ｈａｂｕ　Ｙｏｓｈｉｈａｒｕ　Ｍｅｉｊｉｎ"), "habuyoshiharu");
        assert_eq!(player_key("大山康晴 王將"), player_key("大山康晴 王将"));
        assert!(is_title("名譽王座") && is_title("ｱﾏ") && is_title("女流三冠"));
        // Not titles: a bracket that holds a name, and a name that ends as no title does.
        assert_eq!(split_title("羽生善治(羽生)"), ("羽生善治(羽生)", None));
        assert_eq!(split_title("Takeshi_Ｏｉ"), ("Takeshi_Ｏｉ", None));
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
