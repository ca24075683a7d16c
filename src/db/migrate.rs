//! Schema migrations: the SQL files of `migrations/`, applied in order at open.
//!
//! The version is `PRAGMA user_version`: the number of migrations applied. All pending
//! migrations run in one exclusive transaction, so a database is never left half migrated.
//! Shipped migrations are never edited or reordered; a change is a new file.

use rusqlite::{Connection, TransactionBehavior};

use super::Error;

/// Every migration, in order: (name, SQL).
const MIGRATIONS: &[(&str, &str)] = &[
    ("0001_init", include_str!("../../migrations/0001_init.sql")),
    ("0002_split_keys", include_str!("../../migrations/0002_split_keys.sql")),
    ("0003_application_id", include_str!("../../migrations/0003_application_id.sql")),
    ("0004_warnings", include_str!("../../migrations/0004_warnings.sql")),
    ("0005_source_records", include_str!("../../migrations/0005_source_records.sql")),
    ("0006_name_keys", include_str!("../../migrations/0006_name_keys.sql")),
    ("0007_views", include_str!("../../migrations/0007_views.sql")),
    ("0008_game_variant", include_str!("../../migrations/0008_game_variant.sql")),
    ("0009_hot_positions", include_str!("../../migrations/0009_hot_positions.sql")),
    ("0010_hot_newest", include_str!("../../migrations/0010_hot_newest.sql")),
    ("0011_posting_blocks_2", include_str!("../../migrations/0011_posting_blocks_2.sql")),
    ("0012_keypos_occurrences", include_str!("../../migrations/0012_keypos_occurrences.sql")),
    ("0013_hot_lists", include_str!("../../migrations/0013_hot_lists.sql")),
    ("0014_source_endings", include_str!("../../migrations/0014_source_endings.sql")),
    ("0015_start_move_numbers", include_str!("../../migrations/0015_start_move_numbers.sql")),
    (
        "0016_titles_and_concatenated_games",
        include_str!("../../migrations/0016_titles_and_concatenated_games.sql"),
    ),
    ("0017_western_open_comments", include_str!("../../migrations/0017_western_open_comments.sql")),
    ("0018_file_ctime", include_str!("../../migrations/0018_file_ctime.sql")),
    (
        "0019_jkf_reread_and_numbered_starts",
        include_str!("../../migrations/0019_jkf_reread_and_numbered_starts.sql"),
    ),
    ("0020_latin_titles", include_str!("../../migrations/0020_latin_titles.sql")),
    (
        "0021_name_keys_and_handicap_names",
        include_str!("../../migrations/0021_name_keys_and_handicap_names.sql"),
    ),
    ("0022_kanji_variant_keys", include_str!("../../migrations/0022_kanji_variant_keys.sql")),
    ("0023_file_device", include_str!("../../migrations/0023_file_device.sql")),
    (
        "0024_records_that_tell_no_game_apart",
        include_str!("../../migrations/0024_records_that_tell_no_game_apart.sql"),
    ),
    ("0025_ending_times_and_comments", include_str!("../../migrations/0025_ending_times_and_comments.sql")),
    ("0026_written_fouls", include_str!("../../migrations/0026_written_fouls.sql")),
    ("0027_hash_in_header_values", include_str!("../../migrations/0027_hash_in_header_values.sql")),
    ("0028_files_to_read_again", include_str!("../../migrations/0028_files_to_read_again.sql")),
    ("0029_files_not_decoded_before", include_str!("../../migrations/0029_files_not_decoded_before.sql")),
    ("0030_uncut_lists_made_again", include_str!("../../migrations/0030_uncut_lists_made_again.sql")),
    (
        "0031_kif_and_jkf_files_to_read_again",
        include_str!("../../migrations/0031_kif_and_jkf_files_to_read_again.sql"),
    ),
    ("0032_fouls_without_a_side_mark", include_str!("../../migrations/0032_fouls_without_a_side_mark.sql")),
    ("0033_titles_in_any_width", include_str!("../../migrations/0033_titles_in_any_width.sql")),
    ("0034_encodings_read_again", include_str!("../../migrations/0034_encodings_read_again.sql")),
    ("0035_decode_rejects_read_again", include_str!("../../migrations/0035_decode_rejects_read_again.sql")),
    ("0036_long_games_read_again", include_str!("../../migrations/0036_long_games_read_again.sql")),
    ("0037_more_kanji_variant_keys", include_str!("../../migrations/0037_more_kanji_variant_keys.sql")),
    ("0038_marks_in_name_keys", include_str!("../../migrations/0038_marks_in_name_keys.sql")),
    ("0039_latin_titles_in_brackets", include_str!("../../migrations/0039_latin_titles_in_brackets.sql")),
];

/// The schema version this build writes.
pub const VERSION: i64 = MIGRATIONS.len() as i64;

/// The first schema version whose files carry kifudex's application id
/// ([`super::APPLICATION_ID`]); files of earlier versions are recognised by their schema.
pub const MARKED: i64 = version_of("0003_application_id");

/// The oldest schema version that readers read as it is, without a migration (which only
/// the writer runs). 0002 lets one key's postings fill several blocks of a run (a reader of
/// a version 1 file finds one block per key there), 0003 only marks the file, and 0004 adds
/// the warnings, which a reader of an older file finds none of; 0005 moves each record's
/// headers, times and comments from `games` to `sources`, which readers read, so files of
/// earlier versions need an index run before they are read. 0006 adds the keys of names and
/// the aliases, which readers make or do without when a file lacks them, and 0007 only adds
/// views for other tools; 0008 adds the column saying which game (shogi or yari shogi) each
/// stored game is, which readers filter on; 0009 adds the statistics of hot positions, which
/// readers of an older file do without (they count from the postings), and 0010 the lists of
/// their newest games, which they do without in the same way; 0011 lets runs hold blocks of the
/// second format, and 0012 lets a row of `keypos` name an occurrence instead of holding its
/// position, and this build reads both forms of each; 0013 keeps each list of newest games in
/// one row, and this build reads no list from the tables before (it answers from the postings
/// until the next index run makes the lists again); 0014 keeps the ending of each record that
/// ends otherwise than its game, which only the writer reads; 0021 makes the keys of names
/// again without `_`, 0022 and 0037 with old and variant kanji in their form of today, 0038 with
/// the marks that Shift_JIS decoders read two ways as one, and readers of an earlier file make
/// them themselves (`CURRENT_KEYS`). A migration that changes what readers read raises this to
/// its own version.
pub const READABLE_FROM: i64 = version_of("0008_game_variant");

/// The first schema version whose stored name keys are made as [`crate::name_key::key`] makes
/// them now (without `_` since 0021, with old and variant kanji in their form of today since
/// 0022, with every old form of the 常用漢字表 and the 人名用漢字 since 0037, with the marks
/// that Shift_JIS decoders read two ways as one since 0038): readers make the keys of an
/// earlier version's names themselves.
pub const CURRENT_KEYS: i64 = version_of("0038_marks_in_name_keys");

/// The first schema version that keeps the ending of each record that ends otherwise than its
/// game (`sources.own_result` and `own_termination`).
pub const OWN_ENDINGS: i64 = version_of("0014_source_endings");

/// The first schema version that keeps a record's foul written as a move (`sources.foul`).
pub const FOULS: i64 = version_of("0026_written_fouls");

/// The schema version that the migration `name` brings a database to.
const fn version_of(name: &str) -> i64 {
    let mut i = 0;
    while i < MIGRATIONS.len() {
        let (a, b) = (MIGRATIONS[i].0.as_bytes(), name.as_bytes());
        if a.len() == b.len() {
            let mut j = 0;
            while j < a.len() && a[j] == b[j] {
                j += 1;
            }
            if j == a.len() {
                return i as i64 + 1;
            }
        }
        i += 1;
    }
    panic!("no migration of that name")
}

/// The database's schema version.
pub fn version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row("PRAGMA user_version", [], |r| r.get(0))
}

/// Applies every pending migration.
///
/// # Errors
///
/// [`Error::TooNew`] for a database made by a newer kifudex; [`Error::Migration`] when a
/// migration fails (nothing is changed then).
pub fn migrate(conn: &mut Connection) -> Result<(), Error> {
    if version(conn)? == VERSION {
        return Ok(());
    }
    let tx = conn.transaction_with_behavior(TransactionBehavior::Exclusive)?;
    let found = version(&tx)?;
    if found > VERSION {
        let path = std::path::PathBuf::from(tx.path().unwrap_or_default());
        return Err(Error::TooNew { path, found, known: VERSION });
    }
    for (i, (name, sql)) in MIGRATIONS.iter().enumerate().skip(found as usize) {
        tx.execute_batch(sql).map_err(|error| Error::Migration { name, error })?;
        tx.pragma_update(None, "user_version", i as i64 + 1)?;
    }
    tx.commit()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_apply_once_and_a_second_run_is_a_no_op() {
        let mut conn = Connection::open_in_memory().unwrap();
        migrate(&mut conn).unwrap();
        assert_eq!(version(&conn).unwrap(), VERSION);
        migrate(&mut conn).unwrap();
        assert_eq!(version(&conn).unwrap(), VERSION);
        let tables: i64 = conn
            .query_row("SELECT count(*) FROM sqlite_schema WHERE type = 'table'", [], |r| r.get(0))
            .unwrap();
        assert!(tables >= 12, "{tables}");
        let id: i64 = conn.query_row("PRAGMA application_id", [], |r| r.get(0)).unwrap();
        assert_eq!(id, super::super::APPLICATION_ID);
        assert_eq!(MIGRATIONS[MARKED as usize - 1].0, "0003_application_id");
    }

    #[test]
    fn a_first_version_database_takes_keys_cut_into_several_blocks_once_migrated() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(MIGRATIONS[0].1).unwrap();
        conn.pragma_update(None, "user_version", 1).unwrap();
        let insert = "INSERT INTO pblocks(run, lo, n, data) VALUES (1, 5, 1, x'00')";
        conn.execute(insert, []).unwrap();
        assert!(conn.execute(insert, []).is_err(), "version 1 has one block per (run, lo)");
        migrate(&mut conn).unwrap();
        assert_eq!(version(&conn).unwrap(), VERSION);
        conn.execute(insert, []).unwrap();
        let blocks: i64 = conn.query_row("SELECT count(*) FROM pblocks", [], |r| r.get(0)).unwrap();
        assert_eq!(blocks, 2);
    }

    #[test]
    fn a_newer_database_is_refused() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.pragma_update(None, "user_version", VERSION + 1).unwrap();
        assert!(matches!(migrate(&mut conn), Err(Error::TooNew { .. })));
    }
}
