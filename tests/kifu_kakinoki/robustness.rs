//! Nothing panics: random bytes, random edits of real records, and random text made of the
//! formats' own pieces go through decoding, both readers, the diagram reader, replay and both
//! writers.

use kifudex::{
    kifu::{Game, bod, encoding, ki2, kif},
    write,
};
use proptest::prelude::*;

const SEEDS: &[&str] = &[
    include_str!("../data/kifu/utf8.kif"),
    include_str!("../data/kifu/doh_branch.kifu"),
    include_str!("../data/kifu/bio-KIF_2手目から始まる.kif"),
    include_str!("../data/kifu/bio-基本_KI2_難しい表記多用.ki2"),
    include_str!("../data/kifu/ki2u-utf8.ki2u"),
    include_str!("../data/kifu/handmade-comment.kifu"),
    include_str!("../data/kifu/bio-柿木将棋_KIF_詰将棋なのに上手下手表記.kif"),
];

/// Pieces of the formats, for random text that gets past the first checks.
const PIECES: &[&str] = &[
    "手数----指手---------消費時間--",
    "\n",
    "\r\n",
    "\r",
    "   1 ",
    "12 ",
    "７六歩(77)",
    "同　",
    "同",
    "歩(23)",
    "５五角打",
    "成",
    "不成",
    "( 0:01/00:00:01)",
    "(",
    ")",
    "+",
    "#",
    "*",
    "&",
    "変化：",
    "3手",
    "まで",
    "手で",
    "先手の勝ち",
    "後手の反則勝ち",
    "投了",
    "反則負け",
    "先手 ",
    "手合割：",
    "その他",
    "香落ち",
    "後手の持駒：",
    "先手の持駒：",
    "歩十八　金",
    "なし",
    "  ９ ８ ７",
    "+---------------------------+",
    "+------+",
    "|",
    " ・",
    "v玉",
    " 金",
    "一",
    "先手番",
    "上手番",
    "手数＝3",
    "▲",
    "△",
    "▽",
    "開始日時：",
    "2013/11/29",
    "先手：",
    "羽生善治名人",
    "\u{3000}",
    " ",
];

/// Reads `text` every way and writes what comes out.
fn exercise(text: &str) {
    let _ = bod::parse_bod(encoding::lines(text).map(|(_, l)| l));
    let _ = kif::looks_like(text);
    let _ = ki2::looks_like(text);
    for game in kif::read(text).iter().chain(ki2::read(text).iter()) {
        write_back(game);
    }
}

fn write_back(game: &Game) {
    let replayed = kifudex::replay::replay(game);
    let kif_text = write::kif::write(game, &replayed);
    let _ = write::ki2::write(game, &replayed);
    let _ = kif::read(&kif_text);
}

/// An edit of a record's lines.
#[derive(Clone, Debug)]
enum Edit {
    Delete(usize),
    Duplicate(usize),
    Swap(usize, usize),
    Truncate(usize, usize),
    Insert(usize, String),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        any::<usize>().prop_map(Edit::Delete),
        any::<usize>().prop_map(Edit::Duplicate),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::Swap(a, b)),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::Truncate(a, b)),
        (any::<usize>(), "\\PC{0,16}").prop_map(|(a, s)| Edit::Insert(a, s)),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for e in edits {
        if lines.is_empty() {
            break;
        }
        let n = lines.len();
        match e {
            Edit::Delete(i) => {
                lines.remove(i % n);
            }
            Edit::Duplicate(i) => {
                let l = lines[i % n].clone();
                lines.insert(i % n, l);
            }
            Edit::Swap(a, b) => lines.swap(a % n, b % n),
            Edit::Truncate(i, at) => {
                let l = &mut lines[i % n];
                let cut =
                    l.char_indices().map(|(i, _)| i).nth(at % (l.chars().count() + 1)).unwrap_or(l.len());
                l.truncate(cut);
            }
            Edit::Insert(i, s) => lines.insert(i % n, s.clone()),
        }
    }
    lines.join("\n")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        if let Ok(d) = encoding::decode(&bytes) {
            exercise(&d.text);
        }
    }

    #[test]
    fn edited_records_never_panic(seed in 0..SEEDS.len(), edits in proptest::collection::vec(edit(), 1..8)) {
        exercise(&apply(SEEDS[seed], &edits));
    }

    #[test]
    fn format_pieces_in_any_order_never_panic(picks in proptest::collection::vec(0..PIECES.len(), 0..80)) {
        let text: String = picks.iter().map(|&i| PIECES[i]).collect();
        exercise(&text);
    }
}

#[test]
fn huge_lines_and_numbers_are_harmless() {
    let long = "７六歩".repeat(50_000);
    exercise(&format!("手数----指手--\n   1 {long}\n"));
    exercise("手数----指手--\n99999999999999999999 ７六歩(77)\n4294967295 投了\n");
    exercise(&format!("変化：{}手\n", "9".repeat(40)));
    exercise("|v玉|\n| 玉|\n手数＝4294967295\n手数----指手--\n999999999 １二玉(11)\n変化：999999999手\n");
    exercise(&format!("後手の持駒：歩{}\n|{}|\n", "十".repeat(30), " ・".repeat(30)));
}
