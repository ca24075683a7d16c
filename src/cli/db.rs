//! The database option every subcommand that reads or writes the database takes.

use std::path::{Path, PathBuf};

use clap::Args;
use kifudex::db::Snapshot;

/// The database file when neither `--db` nor `KIFUDEX_DB` names one.
pub const DEFAULT_DB: &str = "kifudex.sqlite";

/// `--db FILE`.
#[derive(Debug, Clone, Args)]
pub struct DbOpt {
    /// The database file [default: $KIFUDEX_DB, else kifudex.sqlite in the current directory]
    #[arg(long, value_name = "FILE")]
    db: Option<PathBuf>,
}

impl DbOpt {
    /// The database path: `--db`, else `KIFUDEX_DB`, else `kifudex.sqlite`.
    pub fn path(&self) -> PathBuf {
        self.db
            .clone()
            .or_else(|| std::env::var_os("KIFUDEX_DB").filter(|v| !v.is_empty()).map(PathBuf::from))
            .unwrap_or_else(|| PathBuf::from(DEFAULT_DB))
    }
}

/// Says on stderr how many stored games a position answer leaves out, and how to bring them
/// in, when the position index lacks some (see [`Snapshot::unindexed_games`]).
pub fn warn_unindexed(snapshot: &Snapshot<'_>, db: &Path) -> anyhow::Result<()> {
    let missing = snapshot.unindexed_games()?;
    if missing > 0 {
        eprintln!(
            "kifudex: warning: this answer leaves out {missing} stored games that are not in the position \
             index yet (an index run was killed before writing them); an index run on {} brings them in",
            db.display()
        );
    }
    Ok(())
}
