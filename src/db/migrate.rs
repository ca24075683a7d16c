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
    ("0004_source_records", include_str!("../../migrations/0004_source_records.sql")),
];

/// The schema version this build writes.
pub const VERSION: i64 = MIGRATIONS.len() as i64;

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
        return Err(Error::TooNew { found, known: VERSION });
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
