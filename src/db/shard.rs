//! The shard a database holds ([`Shard`]), recorded in `meta` (the row `shard`, `I/N`) by
//! the first run that indexes with one.
//!
//! Policy: a database holds one shard, or the files indexed without one, and never a mix.
//! A run that asks for another shard than the one recorded, or for none, or for a shard of a
//! database that already holds files indexed without one, is refused before it writes
//! anything: its files would sit beside another share's, and the shares would overlap.

use rusqlite::OptionalExtension;

use super::{Corrupt, Error, Result, Snapshot};
use crate::shard::Shard;

/// The shard recorded in the database reached through `conn`, if any.
fn recorded(conn: &rusqlite::Connection) -> Result<Option<Shard>> {
    let text: Option<String> = conn
        .prepare_cached("SELECT value FROM meta WHERE key = 'shard'")?
        .query_row([], |r| r.get(0))
        .optional()?;
    text.map(|t| t.parse().map_err(|_| Error::from(Corrupt("meta.shard is not a shard")))).transpose()
}

/// Checks that an index run may index `asked` (a shard, or every file) into the database
/// reached through `conn`, in the transaction that opens the run, and records it when it is
/// the database's first (see the module documentation).
///
/// # Errors
///
/// [`Error::Shard`] when the database holds another share; any database failure.
pub(super) fn claim(conn: &rusqlite::Connection, asked: Option<Shard>) -> Result<()> {
    let recorded = recorded(conn)?;
    if recorded == asked {
        return Ok(());
    }
    match (recorded, asked) {
        (None, Some(shard)) if !has_files(conn)? => {
            conn.execute("INSERT INTO meta(key, value) VALUES ('shard', ?1)", [shard.to_string()])?;
            Ok(())
        }
        _ => Err(Error::Shard { recorded, asked }),
    }
}

fn has_files(conn: &rusqlite::Connection) -> Result<bool> {
    Ok(conn.query_row("SELECT EXISTS(SELECT 1 FROM files)", [], |r| r.get(0))?)
}

/// The refusal [`claim`] would give a run of `asked` on the kifudex database reached through
/// `conn` (read-only), found before the writer opens the file: opening it for a run writes
/// its header (the switch to WAL mode and back), which a refused run must not. `None` when
/// the run may go on, or when it cannot be told so: [`claim`] decides then.
pub(super) fn refusal(conn: &rusqlite::Connection, asked: Option<Shard>) -> Option<Error> {
    let recorded = recorded(conn).ok()?;
    let refused = recorded != asked && (recorded.is_some() || asked.is_none() || has_files(conn).ok()?);
    refused.then_some(Error::Shard { recorded, asked })
}

impl Snapshot<'_> {
    /// The shard the database holds, `None` when its files were indexed without one.
    ///
    /// # Errors
    ///
    /// [`Corrupt`] when the recorded shard cannot be read; any database failure.
    pub fn shard(&self) -> Result<Option<Shard>> {
        recorded(&self.tx)
    }
}

/// The message of [`Error::Shard`], in the database's terms: the shares recorded and asked
/// for, never how a front end asks for one.
pub(super) fn mismatch(recorded: Option<Shard>, asked: Option<Shard>) -> String {
    match (recorded, asked) {
        (Some(r), Some(a)) => {
            format!("it holds shard {r} of the files, not {a}: each shard needs a database of its own")
        }
        (Some(r), None) => format!(
            "it holds shard {r} of the files, not every file: a database holds one shard, or every file"
        ),
        (None, Some(a)) => {
            format!("it holds files indexed without a shard: shard {a} needs a database of its own")
        }
        (None, None) => "it holds another share of the files".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::{RunScope, StartWait, Writer};

    #[test]
    fn a_database_takes_its_first_shard_and_refuses_any_other() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("s.sqlite");
        let two: Shard = "2/4".parse().unwrap();
        let open = |asked| Writer::open_for_run(&db, StartWait::default(), asked, RunScope::default());
        let complete = |mut w: Writer| {
            w.set_complete(true);
            w.finish().unwrap();
        };
        complete(open(Some(two)).unwrap());
        let mark = || {
            rusqlite::Connection::open(&db)
                .unwrap()
                .query_row("SELECT count(*) FROM meta WHERE key = 'run_unfinished'", [], |r| {
                    r.get::<_, i64>(0)
                })
                .unwrap()
        };
        assert_eq!(mark(), 0);
        for asked in [None, Some("3/4".parse().unwrap()), Some("2/8".parse().unwrap())] {
            let e = open(asked).err().unwrap();
            assert!(matches!(e, Error::Shard { recorded: Some(r), .. } if r == two), "{e}");
            // Refused before the run marked the database as under way.
            assert_eq!(mark(), 0, "{asked:?}");
        }
        complete(open(Some(two)).unwrap());
        let mut reader = super::super::Reader::open(&db).unwrap();
        assert_eq!(reader.snapshot().unwrap().shard().unwrap(), Some(two));
        assert_eq!(
            mismatch(Some(two), None),
            "it holds shard 2/4 of the files, not every file: a database holds one shard, or every file"
        );
        assert_eq!(
            mismatch(None, Some(two)),
            "it holds files indexed without a shard: shard 2/4 needs a database of its own"
        );
        assert_eq!(
            mismatch(Some(two), Some("1/4".parse().unwrap())),
            "it holds shard 2/4 of the files, not 1/4: each shard needs a database of its own"
        );
    }
}
