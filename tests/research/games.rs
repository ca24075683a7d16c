//! `kifudex games`: every filter, the order, the limits and the formats, against the
//! archive's list; and the headers `export games` now carries.

use std::collections::BTreeSet;

use serde_json::Value;

use super::{Rec, archive, kifudex, records, result_of, stdout, stored};
use crate::query::csv_rows;

/// The ids `games` lists with `args`, in order.
fn listed(args: &[&str]) -> Vec<i64> {
    let mut all = vec!["games", "--format", "csv"];
    all.extend_from_slice(args);
    csv_rows(stdout(&kifudex(&all).db(&archive().db).output()).as_bytes())
        .iter()
        .map(|r| r["id"].parse().unwrap())
        .collect()
}

/// The ids of the records `keep` keeps, as a set.
fn expected(keep: impl Fn(&Rec) -> bool) -> BTreeSet<i64> {
    records().iter().zip(&archive().ids).filter(|(r, _)| keep(r)).map(|(_, &id)| id).collect()
}

#[test]
fn every_filter_keeps_the_games_of_the_records_it_matches() {
    let set =
        |args: &[&str]| -> BTreeSet<i64> { listed(&[args, &["--all"][..]].concat()).into_iter().collect() };
    let year = |r: &Rec| r.date.get(..4).unwrap_or("").to_string();
    assert_eq!(set(&[]), expected(|_| true));
    assert_eq!(set(&["--player", "佐藤康光"]), expected(|r| r.black.0 == "sato" || r.white.0 == "sato"));
    assert_eq!(set(&["--black", "佐藤康光"]), expected(|r| r.black.0 == "sato"));
    assert_eq!(set(&["--white", "佐藤康光"]), expected(|r| r.white.0 == "sato"));
    assert_eq!(set(&["--event", "竜王戦"]), expected(|r| r.event == "竜王戦"));
    assert_eq!(set(&["--since", "2015"]), expected(|r| year(r).as_str() >= "2015"));
    assert_eq!(set(&["--until", "2014-07"]), expected(|r| !r.date.is_empty() && r.date <= "2014/07/31"));
    assert_eq!(
        set(&["--since", "2014-07-02", "--until", "2014-12-01"]),
        expected(|r| ("2014/07/02"..="2014/12/01").contains(&r.date))
    );
    for result in ["black", "white", "draw"] {
        assert_eq!(set(&["--result", result]), expected(|r| result_of(r) == result), "{result}");
    }
    for other in ["other", "unknown", "Unknown"] {
        assert_eq!(set(&["--result", other]), expected(|r| result_of(r) == "unknown"), "{other}");
    }
    assert_eq!(set(&["--handicap", "平手"]), expected(|_| true));
    assert_eq!(set(&["--handicap", "lance"]), BTreeSet::new());
    assert_eq!(set(&["--opening", "角換"]), expected(|r| r.opening == "角換わり"));
    assert_eq!(
        set(&["--player", "羽生", "--result", "black", "--since", "2014"]),
        expected(|r| (r.black.0 == "habu" || r.white.0 == "habu")
            && result_of(r) == "black"
            && year(r).as_str() >= "2014")
    );
}

#[test]
fn newest_first_with_limits_pages_and_a_note_when_the_list_is_cut() {
    // Newest first by date; the game without a date comes last.
    let mut by_date: Vec<(&str, i64)> =
        records().iter().zip(&archive().ids).map(|(r, &id)| (r.date, id)).collect();
    by_date.sort_by(|a, b| match (a.0.is_empty(), b.0.is_empty()) {
        (false, true) => std::cmp::Ordering::Less,
        (true, false) => std::cmp::Ordering::Greater,
        _ => b.0.cmp(a.0).then(b.1.cmp(&a.1)),
    });
    let mut order: Vec<i64> = Vec::new();
    for (_, id) in by_date {
        if !order.contains(&id) {
            order.push(id);
        }
    }
    assert_eq!(listed(&["--all"]), order);
    assert_eq!(listed(&["--limit", "3"]), order[..3]);
    assert_eq!(listed(&["--limit", "3", "--offset", "2"]), order[2..5]);
    let cut = kifudex(["games", "--limit", "3"]).db(&archive().db).output();
    assert_eq!(cut.status.code(), Some(0));
    let n = order.len();
    assert_eq!(
        String::from_utf8_lossy(&cut.stderr),
        format!("kifudex: listed games 1 to 3 of {n}, newest first (--limit N or --all lists more)\n")
    );
    assert!(kifudex(["games", "--all"]).db(&archive().db).output().stderr.is_empty());
    // A position query's game list says so too.
    let q =
        kifudex(["query", "--format", "csv", "--csv", "games", "--limit", "2"]).db(&archive().db).output();
    assert_eq!(
        String::from_utf8_lossy(&q.stderr),
        format!("kifudex: listed games 1 to 2 of {n}, newest first (--limit N lists more)\n")
    );
    assert!(
        kifudex(["query", "--format", "csv", "--csv", "games", "--limit", "100"])
            .db(&archive().db)
            .output()
            .stderr
            .is_empty()
    );
    // An offset past the end lists nothing, and says so with the number of games kept.
    for offset in [n, n + 5] {
        let past = kifudex(["games", "--offset", &offset.to_string()]).db(&archive().db).output();
        assert_eq!(past.status.code(), Some(0));
        assert_eq!(
            String::from_utf8_lossy(&past.stderr),
            format!(
                "kifudex: --offset {offset} is past the end of the list: {n} games match (the last is at --offset {})\n",
                n - 1
            )
        );
    }
    let q = kifudex(["query", "--offset", &n.to_string()]).db(&archive().db).output();
    assert!(String::from_utf8_lossy(&q.stderr).contains(&format!("--offset {n} is past the end")));
    // A limit of 0 would list nothing: a usage error that names the flag and the way out.
    let (code, _, stderr) = kifudex(["games", "--limit", "0"]).db(&archive().db).run();
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("'--limit <N>'") && stderr.contains("--all"), "{stderr}");
    // Nothing kept: exit status 1.
    assert_eq!(kifudex(["games", "--player", "nobody"]).db(&archive().db).output().status.code(), Some(1));
    assert_eq!(kifudex(["games", "--limit", "1", "--all"]).db(&archive().db).output().status.code(), Some(2));
}

#[test]
fn the_table_json_and_csv_show_the_record_of_each_game() {
    let a = archive();
    let json: Value =
        serde_json::from_str(&stdout(&kifudex(["games", "--all", "--format", "json"]).db(&a.db).output()))
            .unwrap();
    let games = json["games"].as_array().unwrap();
    assert_eq!(json["total"].as_u64().unwrap() as usize, games.len());
    for (r, &id) in records().iter().zip(&a.ids) {
        let g = games.iter().find(|g| g["id"] == id).unwrap();
        if r.file == "c/07.csa" {
            continue; // the copy: the game shows b/07.csa, first in path order
        }
        assert_eq!(g["black"], stored(r.black.1), "{r:?}");
        assert_eq!(g["event"], r.event);
        assert_eq!(g["result"], result_of(r));
        assert_eq!(g["plies"], 12);
        assert_eq!(g["opening"], if r.opening.is_empty() { Value::Null } else { Value::from(r.opening) });
        assert!(g["path"].as_str().unwrap().ends_with(r.file));
    }
    let table = stdout(&kifudex(["games", "--all"]).db(&a.db).output());
    assert!(table.starts_with("id  date"), "{table}");
    assert_eq!(table.lines().count(), games.len() + 1);
}

#[test]
fn export_games_has_every_stored_header() {
    let a = archive();
    let rows = csv_rows(stdout(&kifudex(["export", "games"]).db(&a.db).output()).as_bytes());
    assert_eq!(rows.len(), records().len());
    for r in records() {
        // Rows come in path order: each record's row is found by its file.
        let path = a.root.join(r.file).to_string_lossy().to_string();
        let row = rows.iter().find(|row| row["source_path"] == path).unwrap();
        assert_eq!(row["opening"], r.opening);
        assert_eq!(row["date"], r.date.replace('/', "-"));
        let title = r.black.1.strip_prefix(stored(r.black.1)).unwrap().trim();
        assert_eq!(row["black_title"], title, "{r:?}");
        assert!(row["headers"].contains(&format!("[\"$EVENT\",\"{}\"]", r.event)), "{}", row["headers"]);
        for column in ["white_title", "site", "end_date", "time_control"] {
            assert_eq!(row[column], "", "{column}");
        }
    }
}
