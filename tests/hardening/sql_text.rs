//! SQL in the text: header values and filters made of SQL metacharacters and injections are
//! stored, matched and returned as the text they are, and never run.

use std::{collections::HashSet, fs};

use kifudex::{
    db::{GameFilter, GameId, Reader},
    shogi::Position,
    write::kif::move_text,
};

use super::harness::{assert_sound, export_games, index, stderr};
use crate::util::{Rng, assert_every_read_works};

/// Texts that would change a statement they were pasted into.
const TEXTS: &[&str] = &[
    "Robert'); DROP TABLE games;--",
    "' OR '1'='1",
    "\" OR \"\"=\"",
    "x' UNION SELECT name FROM sqlite_schema --",
    "%",
    "_",
    "100%_done",
    "a\\'b",
    "?1",
    "?",
    ":name @name $name",
    "/* comment */ --",
    "; DELETE FROM players;",
    "棋聖'; UPDATE games SET plies = 0; --",
];

/// The players and event of game `i`: Black and the event are texts, White is the next text.
fn names(i: usize) -> (&'static str, &'static str, &'static str) {
    (TEXTS[i % TEXTS.len()], TEXTS[(i + 1) % TEXTS.len()], TEXTS[(i + 3) % TEXTS.len()])
}

/// A KIF game with those headers (and the event as a raw header too), and random moves of
/// its own.
fn kif_game(i: usize) -> String {
    let (black, white, event) = names(i);
    let mut text = format!(
        "開始日時：2020/01/{:02}\n棋戦：{event}\n先手：{black}\n後手：{white}\n備考：{event}\n手合割：平手\n手数----指手---------消費時間--\n",
        i + 1
    );
    let mut rng = Rng::new(100 + i as u64);
    let mut pos = Position::startpos();
    for ply in 1..=20 {
        let moves = pos.legal_moves();
        let mv = moves[rng.below(moves.len())];
        text.push_str(&format!("{ply:4} {}\n", move_text(&pos, mv)));
        pos.play(mv).unwrap();
    }
    text
}

/// The fields of game `i` a filter looks at.
type Fields = dyn Fn(usize) -> Vec<&'static str>;

fn ids(set: Option<HashSet<GameId>>) -> HashSet<i64> {
    set.expect("a filter with a field set filters").into_iter().map(|g| g.0).collect()
}

#[test]
fn sql_in_headers_and_filters_is_text() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("in");
    fs::create_dir(&dir).unwrap();
    let n = 2 * TEXTS.len();
    for i in 0..n {
        fs::write(dir.join(format!("g{i:02}.kif")), kif_game(i)).unwrap();
    }
    let db = tmp.path().join("k.sqlite");
    let out = index(&dir, &db);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    // Returned verbatim: the export's columns and the raw headers.
    let csv = export_games(&db);
    let mut rows = csv::Reader::from_reader(csv.as_bytes());
    let headers = rows.headers().unwrap().clone();
    let col = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let mut id_of = Vec::new();
    for (i, row) in rows.records().enumerate() {
        let row = row.unwrap();
        let (black, white, event) = names(i);
        assert_eq!(&row[col("black")], black);
        assert_eq!(&row[col("white")], white);
        assert_eq!(&row[col("event")], event);
        assert!(row[col("source_path")].ends_with(&format!("g{i:02}.kif")));
        id_of.push(row[col("game_id")].parse::<i64>().unwrap());
    }
    assert_eq!(id_of.len(), n);
    let mut reader = Reader::open(&db).unwrap();
    let snapshot = reader.snapshot().unwrap();
    for (i, &id) in id_of.iter().enumerate() {
        let game = snapshot.game(GameId(id)).unwrap().unwrap();
        assert!(
            game.info.headers.contains(&("備考".to_string(), names(i).2.to_string())),
            "{:?}",
            game.info.headers
        );
    }

    // Matched as text: each filter keeps the games whose field holds it, worked out here
    // with plain string search, `_` being a space in names (left out of both, so `_` alone
    // keeps every game, as a filter of spaces does).
    let expect = |field: &Fields, text: &str| -> HashSet<i64> {
        let text = text.replace('_', "");
        (0..n)
            .filter(|&i| field(i).iter().any(|f| f.replace('_', "").contains(&text)))
            .map(|i| id_of[i])
            .collect()
    };
    for &text in TEXTS {
        let t = Some(text.to_string());
        let filters: [(GameFilter, &Fields); 4] = [
            (GameFilter { player: t.clone(), ..Default::default() }, &|i| vec![names(i).0, names(i).1]),
            (GameFilter { black: t.clone(), ..Default::default() }, &|i| vec![names(i).0]),
            (GameFilter { white: t.clone(), ..Default::default() }, &|i| vec![names(i).1]),
            (GameFilter { event: t.clone(), ..Default::default() }, &|i| vec![names(i).2]),
        ];
        for (filter, field) in filters {
            let got = ids(snapshot.filter_games(&filter).unwrap());
            assert_eq!(got, expect(field, text), "{filter:?}");
            assert!(!got.is_empty(), "{filter:?}");
        }
        // Dates compare as text: none of these is a date, and none breaks the statement.
        for filter in [
            GameFilter { since: t.clone(), ..Default::default() },
            GameFilter { until: t.clone(), ..Default::default() },
            GameFilter {
                player: t.clone(),
                event: t.clone(),
                since: t.clone(),
                until: t.clone(),
                ..Default::default()
            },
        ] {
            snapshot.filter_games(&filter).unwrap();
        }
    }
    drop(snapshot);
    drop(reader);

    // Never run: every table and game is still there, and the database is sound.
    let mut reader = Reader::open(&db).unwrap();
    assert_eq!(reader.snapshot().unwrap().game_count().unwrap(), n as u64);
    assert_eq!(export_games(&db), csv);
    assert_sound(&db);
    assert_every_read_works(&db, "SQL in text", 400);
}
