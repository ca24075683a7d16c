//! Engine evaluations in `export moves`: the KIF and CSA comment forms that engines and GUIs
//! write, each value read here from the record's own text.

use super::{kifudex, stdout};
use crate::query::csv_rows;

/// The `eval` column of `export moves` for a directory holding one file `name` with `text`.
fn evals(name: &str, text: &str) -> Vec<String> {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("in");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), text).unwrap();
    let db = tmp.path().join("k.sqlite");
    let out = kifudex(["index", dir.to_str().unwrap(), "--quiet"]).db(&db).output();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let rows = csv_rows(stdout(&kifudex(["export", "moves"]).db(&db).output()).as_bytes());
    rows.iter().map(|r| r["eval"].clone()).collect()
}

#[test]
fn kif_evaluations_and_mates() {
    let text = "手合割：平手\n先手：A\n後手：B\n手数----指手---------消費時間--\n\
        \x20  1 ７六歩(77)   ( 0:01/00:00:01)\n*#評価値=35\n*#読み筋=△３四歩(33)\n\
        \x20  2 ３四歩(33)   ( 0:02/00:00:02)\n*#評価値=-120\n\
        \x20  3 ２六歩(27)   ( 0:01/00:00:02)\n*対局者のメモ\n\
        \x20  4 ８四歩(83)   ( 0:01/00:00:03)\n**評価値=+48\n\
        \x20  5 ２五歩(26)   ( 0:01/00:00:03)\n*#詰み=後手勝ち:9手\n\
        \x20  6 投了\n";
    // A mate by White in 9 plies is -(1,000,000,000 - 9).
    assert_eq!(evals("g.kif", text), ["35", "-120", "", "48", "-999999991"]);
}

#[test]
fn csa_evaluations_from_black_s_side() {
    let text = "V2.2\nN+A\nN-B\nPI\n+\n+7776FU\n'** 30 -3334FU +2726FU\n-3334FU\n'** -45 +2726FU\n\
        +2726FU\n'a remark\n-8384FU\n'* 12\n%TORYO\n";
    assert_eq!(evals("g.csa", text), ["30", "-45", "", "12"]);
}
