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

/// The key of a text: NFKC, without white space, `_`, `・` or variation selectors, old and
/// variant kanji in their form of today, the dashes and wave marks that Shift_JIS tables
/// read two ways as one, lowercase, `ß` as `ss`.
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
/// assert_eq!(key("カロリーナ・ステチェンスカ"), "カロリーナステチェンスカ");
/// assert_eq!(key("春〜夏"), key("春～夏"));
/// assert_eq!(key("Weiß"), "weiss");
/// ```
pub fn key(text: &str) -> String {
    let key: String = text
        .nfkc()
        .filter(|&c| !c.is_whitespace() && c != '_' && c != '・' && !is_variation_selector(c))
        .map(standard_form)
        .flat_map(char::to_lowercase)
        .collect();
    // `ß` is `ss` as German writes it without the letter (`Weiß`, `Weiss`, `WEISS`).
    if key.contains('ß') { key.replace('ß', "ss") } else { key }
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
    match c {
        // Shift_JIS has one code for each of these pairs, which its tables read as one or the
        // other (JIS as U+301C, Windows as U+FF5E, which NFKC makes `~`): a name keeps the
        // form its file's decoder gave it.
        '〜' => '~',
        '−' => '-',
        '‖' => '∥',
        '—' => '―',
        _ => VARIANTS.binary_search_by_key(&c, |&(variant, _)| variant).map_or(c, |i| VARIANTS[i].1),
    }
}

/// Old and variant forms of kanji, each with the form in use today, in the order of their code
/// points: the old forms (旧字体) that the 常用漢字表 and the 人名用漢字 list beside their
/// characters (`澤`, `邊`, `齋`, `廣`, `龍`, `將`, `戰`, `劍`, `來`, `寬`, `曾`), the print
/// forms of other kanji beside their simplified ones (`蔣` and `蒋`, `遙` and `遥`), and the
/// variant forms (異体字) of family names (`髙`, `﨑`, `邉`, `濵`, `嶋`, `冨`, `𠮷`). Where names
/// use both of two forms, the key takes one (`檜` for `桧`). Two characters in use today that
/// only look alike stay apart: `斎` and `斉` are two family names (`齋` is the old form of the
/// first, `齊` of the second). The forms that Unicode NFKC already joins (the compatibility
/// ideographs, as U+FA10 for `塚`) are not listed.
const VARIANTS: &[(char, char)] = &[
    ('乘', '乗'),
    ('亂', '乱'),
    ('亞', '亜'),
    ('佛', '仏'),
    ('來', '来'),
    ('倂', '併'),
    ('假', '仮'),
    ('傳', '伝'),
    ('僞', '偽'),
    ('價', '価'),
    ('儉', '倹'),
    ('儘', '侭'),
    ('兒', '児'),
    ('內', '内'),
    ('兩', '両'),
    ('冨', '富'),
    ('剩', '剰'),
    ('劍', '剣'),
    ('劑', '剤'),
    ('勞', '労'),
    ('勳', '勲'),
    ('勵', '励'),
    ('勸', '勧'),
    ('區', '区'),
    ('卷', '巻'),
    ('卽', '即'),
    ('參', '参'),
    ('吳', '呉'),
    ('吿', '告'),
    ('啞', '唖'),
    ('單', '単'),
    ('噓', '嘘'),
    ('嚙', '噛'),
    ('嚴', '厳'),
    ('囑', '嘱'),
    ('圈', '圏'),
    ('國', '国'),
    ('圍', '囲'),
    ('圓', '円'),
    ('圖', '図'),
    ('團', '団'),
    ('堯', '尭'),
    ('增', '増'),
    ('墮', '堕'),
    ('壓', '圧'),
    ('壘', '塁'),
    ('壞', '壊'),
    ('壤', '壌'),
    ('壯', '壮'),
    ('壹', '壱'),
    ('壽', '寿'),
    ('奧', '奥'),
    ('奬', '奨'),
    ('娛', '娯'),
    ('嬀', '媯'),
    ('孃', '嬢'),
    ('學', '学'),
    ('寢', '寝'),
    ('實', '実'),
    ('寫', '写'),
    ('寬', '寛'),
    ('寶', '宝'),
    ('將', '将'),
    ('專', '専'),
    ('對', '対'),
    ('尙', '尚'),
    ('屆', '届'),
    ('屛', '屏'),
    ('屬', '属'),
    ('峯', '峰'),
    ('峽', '峡'),
    ('嵜', '崎'),
    ('嶋', '島'),
    ('嶌', '島'),
    ('嶽', '岳'),
    ('巓', '巔'),
    ('巖', '巌'),
    ('巢', '巣'),
    ('帶', '帯'),
    ('幷', '并'),
    ('廢', '廃'),
    ('廣', '広'),
    ('廳', '庁'),
    ('彈', '弾'),
    ('彌', '弥'),
    ('彎', '弯'),
    ('彥', '彦'),
    ('徑', '径'),
    ('從', '従'),
    ('徵', '徴'),
    ('德', '徳'),
    ('恆', '恒'),
    ('悅', '悦'),
    ('惠', '恵'),
    ('惡', '悪'),
    ('惱', '悩'),
    ('愼', '慎'),
    ('慘', '惨'),
    ('應', '応'),
    ('懷', '懐'),
    ('戀', '恋'),
    ('戰', '戦'),
    ('戲', '戯'),
    ('戶', '戸'),
    ('戾', '戻'),
    ('拂', '払'),
    ('拔', '抜'),
    ('拜', '拝'),
    ('挾', '挟'),
    ('插', '挿'),
    ('揭', '掲'),
    ('搔', '掻'),
    ('搖', '揺'),
    ('搜', '捜'),
    ('摑', '掴'),
    ('擇', '択'),
    ('擊', '撃'),
    ('擔', '担'),
    ('據', '拠'),
    ('擧', '挙'),
    ('擴', '拡'),
    ('攝', '摂'),
    ('攪', '撹'),
    ('收', '収'),
    ('效', '効'),
    ('敍', '叙'),
    ('敎', '教'),
    ('敕', '勅'),
    ('數', '数'),
    ('斷', '断'),
    ('晉', '晋'),
    ('晚', '晩'),
    ('晝', '昼'),
    ('曆', '暦'),
    ('曉', '暁'),
    ('曻', '昇'),
    ('曾', '曽'),
    ('會', '会'),
    ('栁', '柳'),
    ('桒', '桑'),
    ('桧', '檜'),
    ('條', '条'),
    ('棊', '棋'),
    ('棧', '桟'),
    ('榮', '栄'),
    ('槇', '槙'),
    ('槗', '橋'),
    ('槪', '概'),
    ('樂', '楽'),
    ('樓', '楼'),
    ('樞', '枢'),
    ('樣', '様'),
    ('橫', '横'),
    ('檢', '検'),
    ('櫻', '桜'),
    ('權', '権'),
    ('歐', '欧'),
    ('歡', '歓'),
    ('步', '歩'),
    ('歲', '歳'),
    ('歷', '歴'),
    ('歸', '帰'),
    ('殘', '残'),
    ('殼', '殻'),
    ('毆', '殴'),
    ('每', '毎'),
    ('氣', '気'),
    ('沒', '没'),
    ('涉', '渉'),
    ('淚', '涙'),
    ('淨', '浄'),
    ('淸', '清'),
    ('淺', '浅'),
    ('渕', '淵'),
    ('渴', '渇'),
    ('溪', '渓'),
    ('溫', '温'),
    ('滯', '滞'),
    ('滿', '満'),
    ('潑', '溌'),
    ('潛', '潜'),
    ('澀', '渋'),
    ('澁', '渋'),
    ('澤', '沢'),
    ('濕', '湿'),
    ('濟', '済'),
    ('濱', '浜'),
    ('濵', '浜'),
    ('瀆', '涜'),
    ('瀧', '滝'),
    ('瀨', '瀬'),
    ('灣', '湾'),
    ('焰', '焔'),
    ('燈', '灯'),
    ('燒', '焼'),
    ('營', '営'),
    ('爐', '炉'),
    ('爭', '争'),
    ('爲', '為'),
    ('犧', '犠'),
    ('狀', '状'),
    ('狹', '狭'),
    ('獨', '独'),
    ('獵', '猟'),
    ('獸', '獣'),
    ('獻', '献'),
    ('瑤', '瑶'),
    ('瓣', '弁'),
    ('甁', '瓶'),
    ('產', '産'),
    ('畫', '画'),
    ('畵', '画'),
    ('當', '当'),
    ('疊', '畳'),
    ('瘦', '痩'),
    ('癡', '痴'),
    ('發', '発'),
    ('盖', '蓋'),
    ('盜', '盗'),
    ('盡', '尽'),
    ('眞', '真'),
    ('硏', '研'),
    ('碎', '砕'),
    ('祕', '秘'),
    ('祢', '禰'),
    ('祿', '禄'),
    ('禪', '禅'),
    ('禮', '礼'),
    ('禱', '祷'),
    ('稅', '税'),
    ('稱', '称'),
    ('稻', '稲'),
    ('穎', '頴'),
    ('穗', '穂'),
    ('穩', '穏'),
    ('穰', '穣'),
    ('竊', '窃'),
    ('竝', '並'),
    ('簞', '箪'),
    ('籔', '藪'),
    ('粹', '粋'),
    ('絕', '絶'),
    ('絲', '糸'),
    ('經', '経'),
    ('綠', '緑'),
    ('緖', '緒'),
    ('緣', '縁'),
    ('縣', '県'),
    ('縱', '縦'),
    ('總', '総'),
    ('繡', '繍'),
    ('繩', '縄'),
    ('繪', '絵'),
    ('繫', '繋'),
    ('繼', '継'),
    ('續', '続'),
    ('纖', '繊'),
    ('缺', '欠'),
    ('罐', '缶'),
    ('羣', '群'),
    ('聰', '聡'),
    ('聲', '声'),
    ('聽', '聴'),
    ('肅', '粛'),
    ('脫', '脱'),
    ('腦', '脳'),
    ('膽', '胆'),
    ('臟', '臓'),
    ('臺', '台'),
    ('與', '与'),
    ('舊', '旧'),
    ('舍', '舎'),
    ('舖', '舗'),
    ('舘', '館'),
    ('艷', '艶'),
    ('莊', '荘'),
    ('莖', '茎'),
    ('萬', '万'),
    ('蔣', '蒋'),
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
    ('蠅', '蝿'),
    ('蠟', '蝋'),
    ('蠶', '蚕'),
    ('蠻', '蛮'),
    ('衞', '衛'),
    ('裝', '装'),
    ('襃', '褒'),
    ('覺', '覚'),
    ('覽', '覧'),
    ('觀', '観'),
    ('觸', '触'),
    ('說', '説'),
    ('謠', '謡'),
    ('證', '証'),
    ('譯', '訳'),
    ('譽', '誉'),
    ('讀', '読'),
    ('變', '変'),
    ('讓', '譲'),
    ('讚', '讃'),
    ('豐', '豊'),
    ('豫', '予'),
    ('豬', '猪'),
    ('貳', '弐'),
    ('賣', '売'),
    ('賴', '頼'),
    ('贊', '賛'),
    ('踐', '践'),
    ('躰', '体'),
    ('軀', '躯'),
    ('輕', '軽'),
    ('輛', '輌'),
    ('轉', '転'),
    ('辨', '弁'),
    ('辭', '辞'),
    ('辯', '弁'),
    ('遙', '遥'),
    ('遞', '逓'),
    ('遲', '遅'),
    ('邉', '辺'),
    ('邊', '辺'),
    ('邨', '村'),
    ('郞', '郎'),
    ('鄕', '郷'),
    ('醉', '酔'),
    ('醫', '医'),
    ('醬', '醤'),
    ('醱', '醗'),
    ('釀', '醸'),
    ('釋', '釈'),
    ('銳', '鋭'),
    ('錄', '録'),
    ('錢', '銭'),
    ('鍊', '錬'),
    ('鎭', '鎮'),
    ('鐵', '鉄'),
    ('鑄', '鋳'),
    ('鑛', '鉱'),
    ('閱', '閲'),
    ('關', '関'),
    ('陷', '陥'),
    ('隨', '随'),
    ('險', '険'),
    ('隱', '隠'),
    ('隸', '隷'),
    ('雙', '双'),
    ('雜', '雑'),
    ('雞', '鶏'),
    ('霸', '覇'),
    ('靈', '霊'),
    ('靑', '青'),
    ('靜', '静'),
    ('顏', '顔'),
    ('顚', '顛'),
    ('顯', '顕'),
    ('飜', '翻'),
    ('飮', '飲'),
    ('餘', '余'),
    ('餠', '餅'),
    ('騷', '騒'),
    ('驅', '駆'),
    ('驒', '騨'),
    ('驗', '験'),
    ('驛', '駅'),
    ('髓', '髄'),
    ('體', '体'),
    ('髙', '高'),
    ('髮', '髪'),
    ('鬥', '闘'),
    ('鬪', '闘'),
    ('鬬', '闘'),
    ('鬭', '闘'),
    ('鶯', '鴬'),
    ('鷄', '鶏'),
    ('鷗', '鴎'),
    ('鹼', '鹸'),
    ('鹽', '塩'),
    ('麥', '麦'),
    ('麴', '麹'),
    ('麵', '麺'),
    ('黃', '黄'),
    ('黑', '黒'),
    ('默', '黙'),
    ('點', '点'),
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

/// Whether `part` matches `text`: the key of `part`, in one of its [`spellings`], is a part of
/// the key of `text`.
pub fn matches(part: &str, text: &str) -> bool {
    let text = key(text);
    spellings(&key(part)).iter().any(|s| text.contains(s.as_str()))
}

/// The spellings of a key that an iteration mark makes one (`佐々木` and `佐佐木`): the key,
/// each `々` or `〻` after a kanji written as that kanji, and each kanji written again at once
/// written as `々`. A filter's text matches a name in any of them. Keys themselves keep the
/// mark as written: read as the kanji it repeats, `野々村` would hold `野村`, and a filter of
/// `野村` would find it.
///
/// ```
/// use kifudex::name_key::spellings;
/// assert_eq!(spellings("佐々木"), ["佐々木", "佐佐木"]);
/// assert_eq!(spellings("佐佐木"), ["佐佐木", "佐々木"]);
/// assert_eq!(spellings("野村"), ["野村"]);
/// ```
pub fn spellings(key: &str) -> Vec<String> {
    let (mut repeated, mut marked) = (String::with_capacity(key.len()), String::with_capacity(key.len()));
    let mut last = None;
    for c in key.chars() {
        match (c, last) {
            ('々' | '〻', Some(kanji)) if is_kanji(kanji) => {
                repeated.push(kanji);
                marked.push(c);
            }
            (c, Some(before)) if c == before && is_kanji(c) => {
                repeated.push(c);
                marked.push('々');
            }
            _ => {
                repeated.push(c);
                marked.push(c);
            }
        }
        last = Some(c).filter(|c| !matches!(c, '々' | '〻')).or(last);
    }
    let mut out = vec![key.to_string()];
    for spelling in [repeated, marked] {
        if !out.contains(&spelling) {
            out.push(spelling);
        }
    }
    out
}

/// Whether `c` is a kanji (a CJK unified or compatibility ideograph), which an iteration mark
/// after it repeats.
fn is_kanji(c: char) -> bool {
    matches!(c, '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}' | '\u{F900}'..='\u{FAFF}' | '\u{20000}'..='\u{3FFFF}')
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
            // In brackets, a word in Latin letters is a title alone too (`(Meijin)`).
            let mut titles = inner[start + open.len_utf8()..].split(['・', '、', ',']);
            let each = titles.all(|t| {
                let t = t.trim_matches(is_inline_space);
                title_start(t) == Some(0) || is_latin_title(t)
            });
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
    // Lifetime and honorary forms: 永世竜王, 名誉王座, クイーン名人 (the women's), 十七世名人,
    // 実力制第四代名人; former holders: 前名人.
    let head = &text[..start];
    for prefix in ["永世", "名誉", "クイーン", "前", "元"] {
        if let Some(h) = head.strip_suffix(prefix) {
            return Some(h.len());
        }
    }
    let numbered = |head: &str| {
        let digits =
            head.chars().rev().take_while(|&c| KANJI_DIGITS.contains(c)).map(char::len_utf8).sum::<usize>();
        (digits > 0).then(|| head.len() - digits)
    };
    if let Some(h) = head.strip_suffix('世') {
        if let Some(start) = numbered(h) {
            return Some(start);
        }
    }
    if let Some(h) = head.strip_suffix('代') {
        if let Some(h) = numbered(h).and_then(|start| h[..start].strip_suffix('第')) {
            return Some(h.strip_suffix("実力制").unwrap_or(h).len());
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
    is_latin_title(&text[start..]).then_some(start)
}

/// Whether `word` is a title or a women's rank in Latin letters, in any case.
fn is_latin_title(word: &str) -> bool {
    let word = word.to_ascii_lowercase();
    let womens_rank = || {
        let rank = word.strip_prefix('w')?;
        let digits = rank.strip_suffix("dan").or_else(|| rank.strip_suffix("kyu"))?;
        ((1..=2).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit())).then_some(())
    };
    LATIN_TITLES.contains(&word.as_str()) || womens_rank().is_some()
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
    fn marks_that_shift_jis_decoders_read_two_ways_are_one() {
        // The code points of JIS X 0208's mapping and of Windows' (CP932) for 0x8160, 0x817C,
        // 0x8161 and 0x815C.
        for (jis, windows) in [
            ('\u{301C}', '\u{FF5E}'),
            ('\u{2212}', '\u{FF0D}'),
            ('\u{2016}', '\u{2225}'),
            ('\u{2014}', '\u{2015}'),
        ] {
            assert_eq!(key(&format!("第1回{jis}杯")), key(&format!("第1回{windows}杯")), "{jis} {windows}");
        }
        // A middle dot between the parts of a name counts no more than a space, in either width.
        assert_eq!(key("カロリーナ・ステチェンスカ"), key("カロリーナ ステチェンスカ"));
        assert_eq!(key("ｶﾛﾘｰﾅ･ｽﾃﾁｪﾝｽｶ"), "カロリーナステチェンスカ");
        // The title after it is still cut off.
        assert_eq!(player_key("藤井聡太竜王・名人"), "藤井聡太");
    }

    #[test]
    fn an_iteration_mark_and_the_kanji_written_again_are_spellings_of_one_another() {
        // Written by hand.
        assert_eq!(spellings("野々村"), ["野々村", "野野村"]);
        assert_eq!(spellings("佐〻木"), ["佐〻木", "佐佐木"], "the vertical mark");
        assert_eq!(spellings("々木"), ["々木"], "no kanji before it");
        assert_eq!(spellings("カカ々"), ["カカ々"], "kana are not marked");
        assert_eq!(spellings(""), [""]);
        assert!(matches("佐佐木", "佐々木勇気 七段"));
        assert!(matches("佐々", "佐佐木勇気"));
        assert!(!matches("野村", "野々村一郎"));
        assert!(matches("田中", "山田田中"));
    }

    #[test]
    fn sharp_s_is_ss_in_either_case() {
        for spelling in ["Weiß", "Weiss", "WEISS", "WEIẞ", "weiß"] {
            assert_eq!(key(spelling), "weiss", "{spelling}");
        }
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
            ("劍持", "剣持"),
            ("曾根", "曽根"),
            ("田中寬", "田中寛"),
            ("佐藤勳", "佐藤勲"),
            ("山本讓", "山本譲"),
            ("來島", "来島"),
            ("溪山", "渓山"),
            ("蔣", "蒋"),
            ("遙", "遥"),
        ] {
            assert_eq!(key(old), key(today), "{old}");
        }
        // Each old form the 常用漢字表 gives, beside its form of today (written by hand).
        let pairs = "佛仏 區区 圖図 單単 專専 總総 證証 寫写 歸帰 嚴厳 曉暁 收収 縱縦 麵麺 瘦痩 槪概 巢巣 \
                     壓圧 營営 衞衛 歐欧 擴拡 學学 卷巻 寬寛 觀観 關関 氣気 舊旧 據拠 鄕郷 驅駆 經経 \
                     藝芸 缺欠 檢検 權権 獻献 縣県 險険 顯顕 驗験 效効 號号 黑黒 濟済 碎砕 雜雑 參参 \
                     辭辞 濕湿 釋釈 澁渋 獸獣 肅粛 處処 燒焼 稱称 乘乗 讓譲 觸触 寢寝 眞真 盡尽 醉酔 \
                     隨随 數数 聲声 靜静 竊窃 淺浅 潛潜 纖繊 禪禅 雙双 爭争 聰聡 莊荘 裝装 騷騒 藏蔵 \
                     臟臓 屬属 續続 體体 帶帯 臺台 瀧滝 擇択 膽胆 斷断 遲遅 晝昼 蟲虫 鑄鋳 聽聴 鎭鎮 \
                     遞逓 鐵鉄 轉転 點点 黨党 盜盗 燈灯 當当 鬪闘 獨独 讀読 屆届 繩縄 貳弐 惱悩 腦脳 \
                     廢廃 賣売 麥麦 發発 髮髪 蠻蛮 祕秘 甁瓶 竝並 變変 辨弁 瓣弁 辯弁 舖舗 豐豊 沒没 \
                     飜翻 每毎 萬万 滿満 默黙 譯訳 藥薬 與与 豫予 餘余 譽誉 樣様 謠謡 賴頼 亂乱 覽覧 \
                     兩両 獵猟 壘塁 勵励 禮礼 隸隷 靈霊 戀恋 爐炉 勞労 樓楼 祿禄 錄録 灣湾";
        for pair in pairs.split_whitespace() {
            let mut chars = pair.chars();
            let (old, today) = (chars.next().unwrap(), chars.next().unwrap());
            assert_eq!(key(&old.to_string()), today.to_string(), "{old}");
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
        for honorary in ["升田幸三 実力制第四代名人", "升田幸三實力制第四代名人", "升田幸三 第四代名人"]
        {
            assert_eq!(split_title(honorary).0.trim(), "升田幸三", "{honorary}");
        }
        for womens in ["清水市代クイーン名人", "清水市代 クイーン王座", "清水市代ｸｲｰﾝ王将"]
        {
            assert_eq!(player_key(womens), "清水市代", "{womens}");
        }
        // A name that ends as a generation does stays whole.
        assert_eq!(split_title("清水市代"), ("清水市代", None));
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
            ("Yamada Taro (Meijin)", "Yamada Taro", "(Meijin)"),
            ("Habu Yoshiharu (9-dan, Kisei)", "Habu Yoshiharu", "(9-dan, Kisei)"),
            ("Satomi Kana（W4dan）", "Satomi Kana", "（W4dan）"),
        ] {
            assert_eq!(split_title(text), (name, Some(title)), "{text}");
        }
        assert_eq!(player_key("Ｈａｂｕ　Ｙｏｓｈｉｈａｒｕ　Ｍｅｉｊｉｎ"), "habuyoshiharu");
        assert_eq!(player_key("大山康晴 王將"), player_key("大山康晴 王将"));
        assert!(is_title("名譽王座") && is_title("ｱﾏ") && is_title("女流三冠"));
        // Not titles: a bracket that holds a name, and a name that ends as no title does.
        assert_eq!(split_title("羽生善治(羽生)"), ("羽生善治(羽生)", None));
        assert_eq!(split_title("Yamada Taro (Taro)"), ("Yamada Taro (Taro)", None));
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
