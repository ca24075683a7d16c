//! The database option every subcommand that reads or writes the database takes.

use std::path::PathBuf;

use clap::Args;

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
