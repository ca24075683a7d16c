//! The SQL views, read with rusqlite alone, against the archive's list.

use rusqlite::{Connection, OpenFlags};

use super::{archive, records, result_of, stored};

#[test]
fn games_v_has_a_row_per_occurrence_with_names_and_words() {
    let a = archive();
    let conn = Connection::open_with_flags(&a.db, OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
    let mut stmt = conn
        .prepare(
            "SELECT game_id, source_path, game_index, black, black_title, white, event, date, result,
                    termination, handicap, plies, opening, status, duplicate_of, length(moves), start_sfen
             FROM games_v ORDER BY source_path",
        )
        .unwrap();
    type Row =
        (i64, String, i64, String, Option<String>, String, String, Option<String>, String, String, String);
    type More = (i64, Option<String>, String, Option<i64>, i64, Option<String>);
    let rows: Vec<(Row, More)> = stmt
        .query_map([], |r| {
            Ok((
                (
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                    r.get(7)?,
                    r.get(8)?,
                    r.get(9)?,
                    r.get(10)?,
                ),
                (r.get(11)?, r.get(12)?, r.get(13)?, r.get(14)?, r.get(15)?, r.get(16)?),
            ))
        })
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    assert_eq!(rows.len(), records().len());
    for (r, &id) in records().iter().zip(&a.ids) {
        let path = a.root.join(r.file).to_string_lossy().to_string();
        let (row, more) = rows.iter().find(|(row, _)| row.1 == path).unwrap();
        assert_eq!(row.0, id);
        assert_eq!(row.2, 0);
        assert_eq!(row.3, stored(r.black.1));
        let title = r.black.1.strip_prefix(stored(r.black.1)).unwrap().trim();
        assert_eq!(row.4.as_deref().unwrap_or(""), title);
        assert_eq!(row.5, stored(r.white.1));
        assert_eq!(row.6, r.event);
        assert_eq!(row.7.as_deref().unwrap_or(""), r.date.replace('/', "-"));
        assert_eq!(row.8, result_of(r));
        let termination = match r.end {
            super::End::Resign => "resign",
            super::End::Draw => "impasse",
            super::End::Interrupted => "interrupted",
        };
        assert_eq!(row.9, termination, "{r:?}");
        assert_eq!(row.10, "平手");
        assert_eq!(more.0, 12);
        assert_eq!(more.1.as_deref().unwrap_or(""), r.opening);
        assert_eq!(more.2, "ok");
        // Only the later copy of game 7, in path order, names the first.
        assert_eq!(more.3, (r.file == "c/07.csa").then_some(id));
        assert_eq!(more.4, 24, "two bytes a ply");
        assert_eq!(more.5, None, "the even start");
    }
    // The first move's code, as the migration documents it: 7g7f is from 60 to 59.
    let code: Vec<u8> = conn
        .query_row("SELECT substr(moves, 1, 2) FROM games_v WHERE source_path LIKE '%/a/01.csa'", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(u16::from_le_bytes([code[0], code[1]]), 60 * 81 + 59);
}

#[test]
fn rejects_v_lists_what_could_not_be_used() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("in");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("good.csa"), super::csa(&records()[0])).unwrap();
    // A CSA record whose second move is illegal: a game that stops early.
    std::fs::write(dir.join("bad.csa"), "V2.2\nPI\n+\n+7776FU\n-7776FU\n%TORYO\n").unwrap();
    let db = tmp.path().join("k.sqlite");
    let out = super::kifudex(["index", dir.to_str().unwrap(), "--quiet"]).db(&db).output();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let conn = Connection::open_with_flags(&db, OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
    let (path, ply, format): (String, Option<i64>, Option<String>) = conn
        .query_row("SELECT path, ply, format FROM rejects_v", [], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap();
    assert!(path.ends_with("bad.csa"), "{path}");
    assert_eq!(ply, Some(2));
    assert_eq!(format.as_deref(), Some("csa"));
    let n: i64 = conn.query_row("SELECT count(*) FROM rejects_v", [], |r| r.get(0)).unwrap();
    assert_eq!(n, 1);
}
