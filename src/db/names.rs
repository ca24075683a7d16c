//! Names as people write them: the stored keys of player and event names, aliases, and the
//! names a filter's text matches.
//!
//! # Policy
//!
//! - A filter's text matches a name when the text's key is a part of the name's key
//!   ([`crate::name_key`]): widths, spaces and case do not count, nor a title written
//!   after a player's name.
//! - An *alias* says that a spelling (`Habu Yoshiharu`) is another name of a player
//!   (`羽生善治`). Aliases are stored in the database (`kifudex alias`), and a command may add
//!   more of its own (`--aliases FILE`), which win over stored ones of the same spelling. A
//!   player filter keeps every spelling of each player it matches: `--player Habu` keeps the
//!   games that name 羽生善治, and `--player 羽生` those that name Habu Yoshiharu. It matches
//!   a player through the player's name, any name a record gives them, or any alias.
//! - An alias is stored as it was given, and stands for a player through any aliases between:
//!   with `A → B` and `B → C`, `A` stands for `C`; removing `B → C` makes `A` stand for `B`
//!   again. No alias leads back to itself: `B → A` after `A → B` is refused. A command's own
//!   aliases are added in their order, after the stored ones; one that says the reverse of a
//!   stored alias wins over it ([`contradicting_alias`] finds those of a file that contradict
//!   each other, for the file to be refused).
//! - Keys are filled by the writer; a reader makes the key of a name whose key is not stored
//!   (a database the writer has not opened since keys were added), so answers do not depend
//!   on it.

use std::{
    collections::{HashMap, HashSet},
    rc::Rc,
};

use rusqlite::{Connection, params, types::Value, vtab::array::Array};

use super::{Batch, Result, read::Snapshot};
use crate::{
    kifu::info::LONGEST_VALUE,
    name_key::{key, player_key, spellings},
};

/// An alias: another spelling of a player's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alias {
    /// The spelling, as given.
    pub alias: String,
    /// The player's name, as given.
    pub name: String,
}

/// Why an alias is refused.
#[derive(Debug, thiserror::Error)]
pub enum AliasError {
    #[error("'{0}' is no name: it has nothing but spaces and a title")]
    Empty(String),
    #[error(
        "'{alias}' and '{name}' are already one name (names are compared without spaces, widths, case and titles)"
    )]
    Same { alias: String, name: String },
    /// `name` is an alias of `alias` already: the alias asked for would turn them round.
    #[error(
        "'{name}' is already an alias of '{alias}', so '{alias}' cannot be an alias of '{name}' (no alias may lead \
         back to itself; remove the alias '{name}' first to turn them round)"
    )]
    Reversed { alias: String, name: String },
    /// A name longer than any a record stores ([`LONGEST_VALUE`] characters).
    #[error("'{start}…' is too long for a name: it has {chars} characters, and at most {LONGEST_VALUE} are")]
    TooLong { start: String, chars: usize },
    #[error(transparent)]
    Db(#[from] super::Error),
}

/// Aliases as they were given: the key of each spelling → the name it was given for, with
/// that name's key. A name may itself be an alias (`A → B`, `B → C`): its aliases follow it
/// to its player. No row leads back to its own spelling.
#[derive(Clone, Debug, Default)]
struct Given {
    rows: HashMap<String, (String, String)>,
}

impl Given {
    /// Gives the spelling of key `alias_key` for `name`, in place of what it was given for.
    /// A row that would lead back to `alias_key` (`B → A` after `A → B`) is taken out: the
    /// later word wins.
    fn set(&mut self, alias_key: String, name: &str, name_key: String) {
        let mut at = name_key.clone();
        self.rows.insert(alias_key.clone(), (name.trim().to_string(), name_key));
        while let Some((_, next)) = self.rows.get(&at) {
            if *next == alias_key {
                self.rows.remove(&at);
                return;
            }
            at = next.clone();
        }
    }

    /// The player the spelling of key `key` stands for, through every alias between: their
    /// name and key; `None` when it is no alias.
    fn player(&self, key: &str) -> Option<(String, String)> {
        let mut found = None;
        let mut at = key;
        // Bounded by the rows: no row leads back, and this never loops even if one did.
        for _ in 0..self.rows.len() {
            let Some(row) = self.rows.get(at) else { break };
            found = Some(row);
            at = &row.1;
        }
        found.cloned()
    }

    /// The key of the player the spelling of key `key` stands for: `key` itself for a name
    /// that is no alias.
    fn canonical(&self, key: &str) -> String {
        self.player(key).map_or_else(|| key.to_string(), |(_, k)| k)
    }
}

/// Aliases by the key of the spelling: the player each stands for (through any aliases
/// between), with the player's key. A player's key is never an alias's.
#[derive(Clone, Debug, Default)]
pub struct AliasMap {
    by_key: HashMap<String, (String, String)>,
    /// The name shown for a player's key: the first that a command's own aliases give it,
    /// or else the first stored alias's (in the order of their spellings' keys).
    names: HashMap<String, String>,
}

impl AliasMap {
    /// The stored aliases (none in a database from before aliases), then `extra` (alias,
    /// name) pairs, which win over stored aliases of the same spelling, and over a stored
    /// alias that says the reverse.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub(super) fn load(conn: &Connection, extra: &[(String, String)]) -> rusqlite::Result<AliasMap> {
        let stored = stored_aliases(conn)?;
        let mut given = Given::default();
        let pairs = stored.iter().map(|a| (&a.alias, &a.name)).chain(extra.iter().map(|(a, n)| (a, n)));
        let mut keyed = Vec::new();
        for (i, (alias, name)) in pairs.enumerate() {
            let Some((alias_key, name_key)) = alias_keys(alias, name) else { continue };
            given.set(alias_key.clone(), name, name_key);
            keyed.push((i >= stored.len(), alias_key));
        }
        let mut map = AliasMap::default();
        for alias_key in given.rows.keys() {
            if let Some(player) = given.player(alias_key) {
                map.by_key.insert(alias_key.clone(), player);
            }
        }
        // The command's own first, then the stored ones of spellings the command leaves.
        let overridden: HashSet<&String> = keyed.iter().filter(|(own, _)| *own).map(|(_, k)| k).collect();
        let own = keyed.iter().filter(|(own, _)| *own);
        let kept = keyed.iter().filter(|(own, k)| !own && !overridden.contains(k));
        for (_, alias_key) in own.chain(kept) {
            if let Some((name, key)) = map.by_key.get(alias_key) {
                map.names.entry(key.clone()).or_insert_with(|| name.clone());
            }
        }
        Ok(map)
    }

    /// The player a key is an alias of: their name and key.
    fn resolve(&self, key: &str) -> Option<&(String, String)> {
        self.by_key.get(key)
    }

    /// The key of the player whose name or alias has key `key`.
    pub fn canonical<'a>(&'a self, key: &'a str) -> &'a str {
        self.resolve(key).map_or(key, |(_, k)| k.as_str())
    }

    /// The name an alias gives the player of key `key` (a canonical key), if one does.
    pub fn name_of(&self, key: &str) -> Option<&str> {
        self.names.get(key).map(String::as_str)
    }

    fn is_empty(&self) -> bool {
        self.by_key.is_empty()
    }
}

/// The stored aliases, in the order of their spellings' keys (none in a database from before
/// aliases).
fn stored_aliases(conn: &Connection) -> rusqlite::Result<Vec<Alias>> {
    if !has_table(conn, "aliases")? {
        return Ok(Vec::new());
    }
    // The keys are made from the spellings, not read: a database written before kifudex knew
    // a title (`Kondo_Osamu_Ryuo`) stores the keys that had it.
    let mut stmt = conn.prepare_cached("SELECT alias, name FROM aliases ORDER BY alias_key")?;
    let rows = stmt.query_map([], |r| Ok(Alias { alias: r.get(0)?, name: r.get(1)? }))?;
    rows.collect()
}

/// The keys of `alias` and `name` when they are two names (neither empty, not one name), as
/// stored aliases are taken; `None` otherwise.
fn alias_keys(alias: &str, name: &str) -> Option<(String, String)> {
    let (alias_key, name_key) = (player_key(alias), player_key(name));
    (!alias_key.is_empty() && !name_key.is_empty() && alias_key != name_key).then_some((alias_key, name_key))
}

/// The keys of `alias` and `name`, when they are two names: neither is empty (spaces and a
/// title alone), and they are not one name already.
///
/// # Errors
///
/// [`AliasError::Empty`], [`AliasError::TooLong`] and [`AliasError::Same`].
pub fn two_names(alias: &str, name: &str) -> Result<(String, String), AliasError> {
    for text in [alias, name] {
        let chars = text.trim().chars().count();
        if chars > LONGEST_VALUE {
            return Err(AliasError::TooLong { start: text.trim().chars().take(20).collect(), chars });
        }
    }
    let (alias_key, name_key) = (player_key(alias), player_key(name));
    for (text, k) in [(alias, &alias_key), (name, &name_key)] {
        if k.is_empty() {
            return Err(AliasError::Empty(text.to_string()));
        }
    }
    if name_key == alias_key {
        return Err(AliasError::Same { alias: alias.to_string(), name: name.to_string() });
    }
    Ok((alias_key, name_key))
}

/// The first of `pairs` (alias, name) that contradicts those before it: it makes a player an
/// alias of one of their own aliases, or gives an alias a second player. Returns its index
/// and the index of the pair it contradicts.
pub fn contradicting_alias(pairs: &[(String, String)]) -> Option<(usize, usize)> {
    // The aliases so far, and the pair that gave each.
    let (mut given, mut made) = (Given::default(), HashMap::new());
    for (i, (alias, name)) in pairs.iter().enumerate() {
        let Some((alias_key, name_key)) = alias_keys(alias, name) else { continue };
        let player = given.canonical(&name_key);
        if player == alias_key {
            return Some((i, made[&name_key]));
        }
        if let Some((_, before)) = given.player(&alias_key) {
            if before == player {
                continue;
            }
            return Some((i, made[&alias_key]));
        }
        made.insert(alias_key.clone(), i);
        given.set(alias_key, name, name_key);
    }
    None
}

pub(super) fn has_table(conn: &Connection, table: &str) -> rusqlite::Result<bool> {
    conn.prepare_cached("SELECT EXISTS(SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?1)")?
        .query_row([table], |r| r.get(0))
}

/// Whether `table` (players or events) has its `key` column, made as [`key`] makes keys now:
/// a database of a version before [`super::migrate::CURRENT_KEYS`] made its keys otherwise
/// (with `_`, or with old kanji), until its writer makes them again.
fn has_keys(conn: &Connection, table: &str) -> rusqlite::Result<bool> {
    if super::migrate::version(conn)? < super::migrate::CURRENT_KEYS {
        return Ok(false);
    }
    conn.prepare_cached("SELECT EXISTS(SELECT 1 FROM pragma_table_info(?1) WHERE name = 'key')")?
        .query_row([table], |r| r.get(0))
}

/// A condition on the stored `key` of a name, with its argument `?1`; `None` keeps all.
type KeyCondition<'a> = Option<(&'a str, &'a dyn rusqlite::ToSql)>;

/// The rows of `table` (players or events) with the key of each name, stored or made here:
/// those whose stored key `stored` keeps, and those without one whose made key `keep` keeps.
/// (Stored names are already without titles: the key of a name is [`key`] of it.)
fn keyed(
    conn: &Connection,
    table: &str,
    stored: KeyCondition<'_>,
    keep: &dyn Fn(&str) -> bool,
) -> rusqlite::Result<Vec<(i64, String)>> {
    let mut out = Vec::new();
    let unkeyed = if has_keys(conn, table)? {
        let (condition, args): (&str, Vec<&dyn rusqlite::ToSql>) = match stored {
            Some((c, arg)) => (c, vec![arg]),
            None => ("key IS NOT NULL", vec![]),
        };
        let mut stmt = conn.prepare_cached(&format!("SELECT id, key FROM {table} WHERE {condition}"))?;
        for row in stmt.query_map(args.as_slice(), |r| Ok((r.get(0)?, r.get(1)?)))? {
            out.push(row?);
        }
        format!("SELECT id, name FROM {table} WHERE key IS NULL")
    } else {
        format!("SELECT id, name FROM {table}")
    };
    let mut stmt = conn.prepare_cached(&unkeyed)?;
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        let k = key(r.get_ref(1)?.as_str()?);
        if keep(&k) {
            out.push((r.get(0)?, k));
        }
    }
    Ok(out)
}

/// The ids of the players whose names `text` matches, through aliases: every spelling of
/// each player matched (see the module documentation). `extra` are a command's own aliases.
///
/// # Errors
///
/// Any database failure.
pub(super) fn player_ids(
    conn: &Connection,
    text: &str,
    extra: &[(String, String)],
) -> rusqlite::Result<Vec<i64>> {
    let parts = spellings(&player_key(text));
    let found = containing(conn, "players", &parts)?;
    let aliases = AliasMap::load(conn, extra)?;
    if aliases.is_empty() {
        return Ok(found.into_iter().map(|(id, _)| id).collect());
    }
    let mut wanted: HashSet<String> = found.iter().map(|(_, k)| aliases.canonical(k).to_string()).collect();
    for (alias_key, (_, name_key)) in &aliases.by_key {
        if parts.iter().any(|part| alias_key.contains(part.as_str()) || name_key.contains(part.as_str())) {
            wanted.insert(name_key.clone());
        }
    }
    let mut keys = wanted.clone();
    keys.extend(aliases.by_key.iter().filter(|(_, (_, k))| wanted.contains(k)).map(|(a, _)| a.clone()));
    let array: Array = Rc::new(keys.iter().map(|k| Value::Text(k.clone())).collect());
    let rows = keyed(conn, "players", Some(("key IN rarray(?1)", &array)), &|k| keys.contains(k))?;
    Ok(rows.into_iter().map(|(id, _)| id).collect())
}

/// The ids of the events whose names `text` matches.
///
/// # Errors
///
/// Any database failure.
pub(super) fn event_ids(conn: &Connection, text: &str) -> rusqlite::Result<Vec<i64>> {
    let found = containing(conn, "events", &spellings(&key(text)))?;
    Ok(found.into_iter().map(|(id, _)| id).collect())
}

/// The rows of `table` (players or events) whose key holds one of `parts`, each once, with
/// their keys.
fn containing(conn: &Connection, table: &str, parts: &[String]) -> rusqlite::Result<Vec<(i64, String)>> {
    let mut found = Vec::new();
    let mut seen = HashSet::new();
    for part in parts {
        let rows = keyed(conn, table, Some(("instr(key, ?1) > 0", part)), &|k| k.contains(part.as_str()))?;
        found.extend(rows.into_iter().filter(|(id, _)| seen.insert(*id)));
    }
    Ok(found)
}

/// The openings (戦型 headers, as stored) that `text` matches.
///
/// # Errors
///
/// Any database failure.
pub(super) fn openings(conn: &Connection, text: &str) -> rusqlite::Result<Vec<String>> {
    let parts = spellings(&key(text));
    let mut stmt = conn.prepare_cached("SELECT DISTINCT opening FROM sources WHERE opening IS NOT NULL")?;
    let mut rows = stmt.query([])?;
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        let opening: String = r.get(0)?;
        let opening_key = key(&opening);
        if parts.iter().any(|part| opening_key.contains(part.as_str())) {
            out.push(opening);
        }
    }
    Ok(out)
}

/// Stores the key of every player and event name that has none (all of them, the first
/// time a database with keys is written), in the writer's transaction.
///
/// # Errors
///
/// Any database failure.
pub(super) fn fill_keys(conn: &Connection) -> rusqlite::Result<u64> {
    let mut filled = 0;
    for table in ["players", "events"] {
        let rows: Vec<(i64, String)> = conn
            .prepare(&format!("SELECT id, name FROM {table} WHERE key IS NULL"))?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?;
        let mut update = conn.prepare(&format!("UPDATE {table} SET key = ?2 WHERE id = ?1"))?;
        for (id, name) in rows {
            update.execute(params![id, key(&name)])?;
            filled += 1;
        }
    }
    Ok(filled)
}

/// Makes the stored keys of the aliases those of their spellings now, in the writer's
/// transaction: a key stored before kifudex knew a title (`Kondo_Osamu_Ryuo`, now the player
/// `Kondo_Osamu` with the title `Ryuo`) would not be found by [`Batch::remove_alias`]. An alias
/// whose spelling is now its player's name is removed; one whose new key another alias
/// already has gives way to it.
///
/// # Errors
///
/// Any database failure.
pub(super) fn rekey_aliases(conn: &Connection) -> rusqlite::Result<u64> {
    if !has_table(conn, "aliases")? {
        return Ok(0);
    }
    let rows: Vec<(String, String, String, String)> = conn
        .prepare("SELECT alias_key, alias, name, name_key FROM aliases")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let stale: Vec<_> = rows
        .into_iter()
        .filter(|(alias_key, alias, name, name_key)| {
            player_key(alias) != *alias_key || player_key(name) != *name_key
        })
        .collect();
    for (alias_key, ..) in &stale {
        conn.prepare_cached("DELETE FROM aliases WHERE alias_key = ?1")?.execute([alias_key])?;
    }
    for (_, alias, name, _) in &stale {
        let Some((alias_key, name_key)) = alias_keys(alias, name) else { continue };
        conn.prepare_cached(
            "INSERT OR IGNORE INTO aliases(alias_key, alias, name, name_key) VALUES (?1, ?2, ?3, ?4)",
        )?
        .execute(params![alias_key, alias, name, name_key])?;
    }
    Ok(stale.len() as u64)
}

/// Player id → (identity key, name as stored).
pub(super) type IdentityKeys = HashMap<i64, (String, String)>;

/// [`IdentityKeys`] of every player: the identity key is the
/// key of the player's name through aliases (`extra` being a command's own); and the aliases.
///
/// # Errors
///
/// Any database failure.
pub(super) fn identities(
    conn: &Connection,
    extra: &[(String, String)],
) -> rusqlite::Result<(IdentityKeys, AliasMap)> {
    let aliases = AliasMap::load(conn, extra)?;
    let keys = keyed(conn, "players", None, &|_| true)?;
    let mut names: HashMap<i64, String> = HashMap::new();
    let mut stmt = conn.prepare_cached("SELECT id, name FROM players")?;
    for row in stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))? {
        let (id, name) = row?;
        names.insert(id, name);
    }
    let by_id = keys
        .into_iter()
        .map(|(id, k)| {
            let canonical = aliases.canonical(&k).to_string();
            (id, (canonical, names.remove(&id).unwrap_or_default()))
        })
        .collect();
    Ok((by_id, aliases))
}

impl Snapshot<'_> {
    /// The stored aliases, by spelling (none in a database from before aliases).
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn aliases(&self) -> Result<Vec<Alias>> {
        if !has_table(&self.tx, "aliases")? {
            return Ok(Vec::new());
        }
        let mut stmt = self.tx.prepare("SELECT alias, name FROM aliases ORDER BY name_key, alias_key")?;
        let rows = stmt.query_map([], |r| Ok(Alias { alias: r.get(0)?, name: r.get(1)? }))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The stored aliases, by spelling, each with the name of the player it stands for: its
    /// name, or the player its name is an alias of.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn alias_players(&self) -> Result<Vec<(Alias, String)>> {
        let map = AliasMap::load(&self.tx, &[])?;
        let aliases = self.aliases()?;
        Ok(aliases
            .into_iter()
            .map(|a| {
                let player =
                    map.resolve(&player_key(&a.alias)).map_or_else(|| a.name.clone(), |(n, _)| n.clone());
                (a, player)
            })
            .collect())
    }
}

impl Snapshot<'_> {
    /// The stored aliases that `extra` (a command's own aliases) make name another player than
    /// the database does: each stored alias, with the name of the player the database gives
    /// it and the one it names with `extra`. A row of `extra` that restates a stored alias,
    /// reverses it, or makes one player of two leaves every stored alias with its player, and
    /// is not listed.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn aliases_overridden(&self, extra: &[(String, String)]) -> Result<Vec<(Alias, String, String)>> {
        if extra.is_empty() {
            return Ok(Vec::new());
        }
        let stored = AliasMap::load(&self.tx, &[])?;
        let merged = AliasMap::load(&self.tx, extra)?;
        let mut out = Vec::new();
        for alias in self.aliases()? {
            let Some((alias_key, _)) = alias_keys(&alias.alias, &alias.name) else { continue };
            let Some((was, was_key)) = stored.resolve(&alias_key) else { continue };
            if merged.canonical(&alias_key) != merged.canonical(was_key) {
                let now = merged
                    .resolve(&alias_key)
                    .map_or_else(|| alias.alias.trim().to_string(), |(n, _)| n.clone());
                let was = was.clone();
                out.push((alias, was, now));
            }
        }
        Ok(out)
    }
}

/// What storing `alias` as another spelling of `name` stores: the keys of both, and the
/// name of the player it stands for (the one `name` stands for). The errors of
/// [`Batch::add_alias`].
fn new_alias(conn: &Connection, alias: &str, name: &str) -> Result<(String, String, String), AliasError> {
    let (alias_key, name_key) = two_names(alias, name)?;
    // The aliases as they will be, but for the one given now: the spelling's own row, if
    // any, gives way to it.
    let mut given = Given::default();
    for a in stored_aliases(conn).map_err(super::Error::from)? {
        if let Some((a_key, n_key)) = alias_keys(&a.alias, &a.name)
            && a_key != alias_key
        {
            given.set(a_key, &a.name, n_key);
        }
    }
    match given.player(&name_key) {
        Some((_, player)) if player == alias_key => {
            let (alias, name) = (alias.trim().to_string(), name.trim().to_string());
            Err(AliasError::Reversed { alias, name })
        }
        Some((player, _)) => Ok((alias_key, name_key, player)),
        None => Ok((alias_key, name_key, name.trim().to_string())),
    }
}

impl Snapshot<'_> {
    /// Checks, without writing, that [`Batch::add_alias`] would store `alias` as another
    /// spelling of `name` in the database as it is now. Returns the name it would stand for
    /// (the player `name` stands for).
    ///
    /// # Errors
    ///
    /// Those of [`Batch::add_alias`].
    pub fn check_alias(&self, alias: &str, name: &str) -> Result<String, AliasError> {
        new_alias(&self.tx, alias, name).map(|(_, _, player)| player)
    }
}

impl Batch<'_> {
    /// Stores `alias` as another spelling of `name`, as given: when `name` is an alias too,
    /// `alias` stands for its player, as long as it is one (see the module documentation).
    /// Returns the alias as stored. Committed with the batch.
    ///
    /// # Errors
    ///
    /// [`AliasError::Empty`] for a text without a name, [`AliasError::Same`] when both are
    /// already one name, [`AliasError::Reversed`] when `name` is an alias of `alias`; any
    /// database failure.
    pub fn add_alias(&mut self, alias: &str, name: &str) -> Result<Alias, AliasError> {
        let conn = self.conn();
        let (alias_key, name_key, _) = new_alias(conn, alias, name)?;
        let (alias, name) = (alias.trim().to_string(), name.trim().to_string());
        conn.prepare_cached(
            "INSERT OR REPLACE INTO aliases(alias_key, alias, name, name_key) VALUES (?1, ?2, ?3, ?4)",
        )
        .and_then(|mut stmt| stmt.execute(params![alias_key, alias, name, name_key]))
        .map_err(super::Error::from)?;
        Ok(Alias { alias, name })
    }

    /// Removes the alias whose spelling has the key of `alias`. Returns it, if there was one.
    /// Committed with the batch.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn remove_alias(&mut self, alias: &str) -> Result<Option<Alias>> {
        let conn = self.conn();
        let mut stmt =
            conn.prepare_cached("DELETE FROM aliases WHERE alias_key = ?1 RETURNING alias, name")?;
        let mut rows = stmt.query([player_key(alias)])?;
        Ok(match rows.next()? {
            Some(r) => Some(Alias { alias: r.get(0)?, name: r.get(1)? }),
            None => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A database with only the stored aliases `rows` (alias, name).
    fn stored(rows: &[(&str, &str)]) -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE aliases(alias_key TEXT PRIMARY KEY, alias TEXT, name TEXT, name_key TEXT)",
        )
        .unwrap();
        for (alias, name) in rows {
            conn.execute(
                "INSERT INTO aliases VALUES (?1, ?2, ?3, ?4)",
                params![player_key(alias), alias, name, player_key(name)],
            )
            .unwrap();
        }
        conn
    }

    fn pairs(rows: &[(&str, &str)]) -> Vec<(String, String)> {
        rows.iter().map(|(a, n)| (a.to_string(), n.to_string())).collect()
    }

    #[test]
    fn aliases_stand_for_the_player_at_the_end_of_their_chain() {
        // Keys sort a before b before c: stored in either order, a stands for c.
        for rows in [[("a", "b"), ("b", "c")], [("b", "c"), ("a", "b")]] {
            let map = AliasMap::load(&stored(&rows), &[]).unwrap();
            assert_eq!(map.canonical("a"), "c");
            assert_eq!(map.canonical("b"), "c");
            assert_eq!(map.canonical("c"), "c");
        }
        let conn = stored(&[("a", "b"), ("b", "c")]);
        // A command's own alias in the middle takes the ones before it along.
        let map = AliasMap::load(&conn, &pairs(&[("b", "d")])).unwrap();
        assert_eq!((map.canonical("a"), map.canonical("b"), map.canonical("c")), ("d", "d", "c"));
        // One that says the reverse of a stored alias wins over it, and no chain loops.
        let map = AliasMap::load(&conn, &pairs(&[("c", "a")])).unwrap();
        assert_eq!((map.canonical("a"), map.canonical("b"), map.canonical("c")), ("b", "b", "b"));
    }

    #[test]
    fn a_stored_alias_that_would_lead_back_to_itself_is_refused() {
        let conn = stored(&[("a", "b"), ("b", "c")]);
        assert!(matches!(new_alias(&conn, "c", "a"), Err(AliasError::Reversed { .. })));
        // Given anew, an alias's own row gives way: b → a would lead back through a → b.
        assert!(matches!(new_alias(&conn, "b", "a"), Err(AliasError::Reversed { .. })));
        assert_eq!(new_alias(&conn, "d", "a").unwrap(), ("d".into(), "a".into(), "c".into()));
        assert_eq!(contradicting_alias(&pairs(&[("a", "b"), ("b", "c"), ("c", "a")])), Some((2, 0)));
    }
}
