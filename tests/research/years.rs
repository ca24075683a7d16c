//! `query --by year` and `export tree --by year`: counts by year worked out here from the
//! archive's list.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::{Rec, archive, kifudex, records, result_of, stdout};
use crate::query::csv_rows;

/// One record of each game (the copies of game 7 share their date and moves).
fn games() -> Vec<&'static Rec> {
    let mut seen = Vec::new();
    records()
        .iter()
        .filter(|r| {
            !seen.contains(&r.tail) && {
                seen.push(r.tail);
                true
            }
        })
        .collect()
}

fn year(r: &Rec) -> String {
    if r.date.is_empty() { "unknown".to_string() } else { r.date[..4].to_string() }
}

/// Adds the game of `r` to counts of games, black wins, white wins and draws.
fn count(c: &mut [u64; 4], r: &Rec) {
    c[0] += 1;
    match result_of(r) {
        "black" => c[1] += 1,
        "white" => c[2] += 1,
        "draw" => c[3] += 1,
        _ => {}
    }
}

/// Counts by year of the games `keep` keeps, the games under `name`.
fn by_year(keep: impl Fn(&Rec) -> bool, name: &str) -> Value {
    let mut out: BTreeMap<String, [u64; 4]> = BTreeMap::new();
    for r in games().into_iter().filter(|r| keep(r)) {
        count(out.entry(year(r)).or_default(), r);
    }
    out.into_iter()
        .map(|(y, c)| (y, json!({name: c[0], "black_wins": c[1], "white_wins": c[2], "draws": c[3]})))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

fn nth(r: &Rec, i: usize) -> &str {
    r.first.split_whitespace().nth(i).unwrap()
}

#[test]
fn query_by_year_counts_the_position_and_each_move() {
    let a = archive();
    for (moves, depth) in [(None, 0), (Some("7g7f"), 1), (Some("2g2f"), 1)] {
        let mut args = vec!["query", "--by", "year", "--format", "json"];
        if let Some(m) = moves {
            args.extend(["--moves", m]);
        }
        let answer: Value = serde_json::from_str(&stdout(&kifudex(&args).db(&a.db).output())).unwrap();
        let reaches = |r: &Rec| depth == 0 || Some(nth(r, 0)) == moves;
        assert_eq!(answer["position"]["by_year"], by_year(reaches, "games"), "{moves:?}");
        let listed = answer["moves"].as_array().unwrap();
        assert!(!listed.is_empty());
        for m in listed {
            let usi = m["usi"].as_str().unwrap();
            let want = by_year(|r| reaches(r) && nth(r, depth) == usi, "played");
            assert_eq!(m["by_year"], want, "{moves:?} {usi}");
        }
    }
    // Without --by there is no breakdown; with it the table shows one.
    let plain: Value =
        serde_json::from_str(&stdout(&kifudex(["query", "--format", "json"]).db(&a.db).output())).unwrap();
    assert!(plain["position"].get("by_year").is_none());
    let table = stdout(&kifudex(["query", "--by", "year"]).db(&a.db).output());
    let header = table.lines().find(|l| l.starts_with("year")).expect("a year table");
    assert!(header.split_whitespace().take(5).eq(["year", "games", "black", "white", "draws"]), "{header}");
    let row = table.lines().find(|l| l.starts_with("2014 ")).unwrap();
    let in_2014 = games().iter().filter(|r| year(r) == "2014").count().to_string();
    assert_eq!(row.split_whitespace().nth(1), Some(in_2014.as_str()), "{row}");
    assert_eq!(kifudex(["query", "--by", "month"]).db(&a.db).output().status.code(), Some(2));
}

#[test]
fn export_tree_by_year_writes_a_year_column() {
    let a = archive();
    let rows =
        csv_rows(&kifudex(["export", "tree", "--by", "year", "--max-ply", "0"]).db(&a.db).output().stdout);
    let mut got: BTreeMap<(String, String), u64> = BTreeMap::new();
    for row in &rows {
        assert_eq!(row["ply"], "0");
        got.insert((row["usi"].clone(), row["year"].clone()), row["played"].parse().unwrap());
    }
    let mut want: BTreeMap<(String, String), u64> = BTreeMap::new();
    for r in games() {
        // The year is a number column: empty (null) when the game has no date.
        let y = if r.date.is_empty() { String::new() } else { year(r) };
        *want.entry((nth(r, 0).to_string(), y)).or_default() += 1;
    }
    assert_eq!(got, want);
    assert_eq!(kifudex(["export", "games", "--by", "year"]).db(&a.db).output().status.code(), Some(2));
    // Nor does --max-ply cut any other table.
    for table in ["games", "moves", "positions"] {
        let out = kifudex(["export", table, "--max-ply", "2"]).db(&a.db).output();
        assert_eq!(out.status.code(), Some(2), "{table}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--max-ply is for `export tree`"), "{table}");
    }
}

#[test]
fn query_csv_years_writes_the_position_and_each_move_year_by_year() {
    let a = archive();
    // `--csv` alone means CSV, and `--csv years` needs no `--by year`.
    let rows = csv_rows(&kifudex(["query", "--moves", "7g7f", "--csv", "years"]).db(&a.db).output().stdout);
    let mut got: BTreeMap<(String, String), [u64; 4]> = BTreeMap::new();
    for row in &rows {
        let counts = ["games", "black_wins", "white_wins", "draws"].map(|c| row[c].parse().unwrap());
        assert!(got.insert((row["usi"].clone(), row["year"].clone()), counts).is_none(), "{row:?}");
    }
    let mut want: BTreeMap<(String, String), [u64; 4]> = BTreeMap::new();
    for r in games().into_iter().filter(|r| nth(r, 0) == "7g7f") {
        // The year is empty when the game has no date, as in `export tree --by year`.
        let y = if r.date.is_empty() { String::new() } else { year(r) };
        for usi in [String::new(), nth(r, 1).to_string()] {
            count(want.entry((usi, y.clone())).or_default(), r);
        }
    }
    assert!(want.len() > 2);
    assert_eq!(got, want);
    // The next moves' table has no year: --by year with it is refused, not ignored.
    for args in [
        ["query", "--by", "year", "--format", "csv"].as_slice(),
        &["query", "--by", "year", "--csv", "moves"],
        &["query", "--csv", "games", "--format", "json"],
        &["query", "--csv", "moves", "--format", "table"],
    ] {
        let out = kifudex(args).db(&a.db).output();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    let games = kifudex(["query", "--csv", "games"]).db(&a.db).output();
    assert!(stdout(&games).starts_with("id,date,event,black,white,result,ply\n"));
}
