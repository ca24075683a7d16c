//! `kifudex alias add|list|remove`: other spellings of players' names, stored in the database.
//!
//! `add` and `remove` write the database as `index` does (one writer at a time, never a file
//! that is not kifudex's, the file back in rollback mode at the end); `list` only reads.

use std::process::ExitCode;

use clap::{Args, Subcommand};
use kifudex::{
    db::{Alias, Batch, Writer},
    name_key::player_key,
};

use super::{db::DbOpt, table::TextTable};

/// Other spellings of players' names: a romanized name, an old name, a handle.
///
/// Filters (--player, --black, --white) and `players` go through them: with the alias
/// "Habu Yoshiharu" → 羽生善治, `--player Habu` finds the games that name 羽生善治 and
/// `--player 羽生` those that name Habu Yoshiharu. Names are compared without regard to widths,
/// spaces, case and a title after the name. `--aliases FILE` gives a command more of its own.
#[derive(Debug, Args)]
pub struct AliasArgs {
    #[command(subcommand)]
    action: Action,
    // Global: `alias --db F add …` and `alias add … --db F` both name the file.
    #[command(flatten)]
    db: DbOpt,
}

#[derive(Debug, Subcommand)]
enum Action {
    /// Store ALIAS as another spelling of the player NAME
    Add {
        alias: String,
        name: String,
        /// Store it even when ALIAS is already another player's alias (which it then no longer
        /// is)
        #[arg(long)]
        replace: bool,
    },
    /// List the stored aliases, with the player each stands for where a name is an alias too
    /// (CSV rows `alias,name` with --csv)
    List {
        /// Write CSV rows `alias,name` (the form --aliases reads)
        #[arg(long)]
        csv: bool,
    },
    /// Remove the alias ALIAS (exit status 1 when there is none)
    Remove { alias: String },
}

pub fn run(args: AliasArgs) -> anyhow::Result<ExitCode> {
    let db = args.db;
    match args.action {
        Action::Add { alias, name, replace } => {
            // The warning of an unfinished index run is about answers, not aliases: none here.
            let mut reader = super::db::open_reader(&db.path())?;
            let snapshot = reader.snapshot()?;
            // Refused before the file is written at all.
            let player = snapshot.check_alias(&alias, &name)?;
            // One already there is not written again (the file may be read-only).
            if snapshot.aliases()?.iter().any(|a| a.alias == alias.trim() && a.name == name.trim()) {
                super::note(format_args!("alias {} → {} (already there)", alias.trim(), name.trim()));
                return Ok(ExitCode::SUCCESS);
            }
            let before = snapshot.alias_players()?;
            // The spelling of another player's alias would stop finding that player's games;
            // another spelling of this player's alias (another width, case or spacing) takes
            // its place, and is said to.
            let key = player_key(&alias);
            let stored = before.iter().find(|(a, _)| player_key(&a.alias) == key);
            let same_player = |(_, p): &&(Alias, String)| player_key(p) == player_key(&player);
            let respelled = stored.filter(same_player).map(|(a, _)| a.alias.clone());
            let other = stored.filter(|s| !same_player(s)).cloned();
            if let (Some((was, was_player)), false) = (&other, replace) {
                anyhow::bail!(
                    "{} is already an alias of {was_player}: give --replace to make it {player}'s instead, or \
                     choose another spelling",
                    was.alias,
                );
            }
            drop(snapshot);
            drop(reader);
            let added = write(&db, |b| Ok(b.add_alias(&alias, &name)?))?;
            let through = if player_key(&added.name) == player_key(&player) {
                String::new()
            } else {
                format!(", an alias of {player}")
            };
            match other {
                Some((_, was_player)) => super::note(format_args!(
                    "alias {} → {}{through} (it was {was_player}'s)",
                    added.alias, added.name
                )),
                None => match respelled.filter(|spelled| *spelled != added.alias) {
                    Some(spelled) => super::note(format_args!(
                        "alias {} → {}{through} (in place of {spelled}, the same alias spelled otherwise)",
                        added.alias, added.name
                    )),
                    None => super::note(format_args!("alias {} → {}{through}", added.alias, added.name)),
                },
            }
            note_moved(&db, &before, &key)?;
            Ok(ExitCode::SUCCESS)
        }
        Action::Remove { alias } => {
            // An alias that is not there is not looked for by a writer: the file stays as it was.
            let before = super::db::open_reader(&db.path())?.snapshot()?.alias_players()?;
            let key = player_key(&alias);
            let stored = before.iter().any(|(a, _)| player_key(&a.alias) == key);
            let removed = if stored { write(&db, |b| Ok(b.remove_alias(&alias)?))? } else { None };
            let code = report_removed(removed, &alias)?;
            if stored {
                note_moved(&db, &before, &key)?;
            }
            Ok(code)
        }
        Action::List { csv } => {
            let mut reader = super::db::open_reader(&db.path())?;
            let aliases = reader.snapshot()?.alias_players()?;
            let text = if csv {
                let mut w = ::csv::Writer::from_writer(Vec::new());
                w.write_record(["alias", "name"])?;
                for (a, _) in &aliases {
                    w.write_record([&a.alias, &a.name])?;
                }
                String::from_utf8(w.into_inner()?)?
            } else {
                // The player each stands for, where some alias names another alias.
                let through = aliases.iter().any(|(a, p)| player_key(&a.name) != player_key(p));
                let mut t =
                    TextTable::new(if through { &["alias", "name", "player"] } else { &["alias", "name"] });
                for (a, player) in aliases {
                    let mut row = vec![a.alias, a.name];
                    row.extend(through.then_some(player));
                    t.row(row);
                }
                t.render()
            };
            super::print(&text)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Says which aliases other than the one of key `changed` stand for another player than they
/// did `before` the change: those whose name is an alias the change made or took away.
fn note_moved(db: &DbOpt, before: &[(Alias, String)], changed: &str) -> anyhow::Result<()> {
    let after = super::db::open_reader(&db.path())?.snapshot()?.alias_players()?;
    for (alias, now) in after {
        let key = player_key(&alias.alias);
        if key == changed {
            continue;
        }
        let Some((_, was)) = before.iter().find(|(a, _)| player_key(&a.alias) == key) else { continue };
        if player_key(was) != player_key(&now) {
            super::note(format_args!(
                "{} → {} now stands for {now} (it stood for {was})",
                alias.alias, alias.name
            ));
        }
    }
    Ok(())
}

fn report_removed(removed: Option<kifudex::db::Alias>, alias: &str) -> anyhow::Result<ExitCode> {
    match removed {
        Some(removed) => {
            super::note(format_args!("removed alias {} → {}", removed.alias, removed.name));
            Ok(ExitCode::SUCCESS)
        }
        None => {
            super::note(format_args!("no alias '{alias}'"));
            Ok(ExitCode::from(1))
        }
    }
}

/// Opens the database for writing (it must be a kifudex database already), does `change` in
/// one batch, commits it, and ends the run.
fn write<T>(db: &DbOpt, change: impl FnOnce(&mut Batch<'_>) -> anyhow::Result<T>) -> anyhow::Result<T> {
    let path = db.path();
    // A reader first: it refuses a missing file, which the writer would create.
    drop(super::db::open_reader(&path)?);
    let mut writer = Writer::open_for_change(&path)?;
    let mut batch = writer.batch()?;
    // A change refused is rolled back, and the run still ended, leaving the file as it was.
    let done = change(&mut batch).and_then(|done| Ok(batch.commit().map(|()| done)?));
    let ended = writer.finish()?;
    let done = done?;
    if ended.wal_kept {
        say!(
            "kifudex: note: other programs had {} open as the change ended, so it stays in WAL mode until \
             the next run; until then, reading it needs the right to write its directory",
            super::shown_path(&path)
        );
    }
    Ok(done)
}
