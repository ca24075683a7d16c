//! Reading games without a position: the games a filter keeps, more of the records shown for
//! them, and every record of those games, for listings and statistics.

use std::{
    collections::{HashMap, HashSet},
    rc::Rc,
};

use rusqlite::{params_from_iter, types::Value, vtab::array::Array};

use super::{
    GameId, GameResult, Result,
    filter::{Conditions, GameFilter, any_record_of_a_kept_game},
    names::{self, AliasMap},
    read::Snapshot,
};

/// More of a record than a list entry holds: what `kifudex games` shows beside it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordDetails {
    pub plies: u32,
    pub opening: Option<String>,
    pub termination: Option<String>,
    pub site: Option<String>,
    pub time_control: Option<String>,
    /// The file that holds the record.
    pub path: String,
}

/// What statistics read of one record of a game: its players, date and opening, and the
/// game's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordFacts {
    pub game: GameId,
    /// The players, as [`Identities`] ids.
    pub black: Option<i64>,
    pub white: Option<i64>,
    pub date: Option<String>,
    pub opening: Option<String>,
    pub result: GameResult,
}

/// Who a stored player id is, for statistics: one *identity* per player, whatever the
/// spelling, through name keys and aliases.
#[derive(Clone, Debug, Default)]
pub struct Identities {
    /// Player id → (identity key, the name as stored).
    by_id: names::IdentityKeys,
    aliases: AliasMap,
}

impl Identities {
    /// The identity key of a stored player id, and the name as that record spells it.
    pub fn of(&self, id: i64) -> Option<(&str, &str)> {
        self.by_id.get(&id).map(|(k, n)| (k.as_str(), n.as_str()))
    }

    /// The name an alias gives the identity `key`, if one does.
    pub fn alias_name(&self, key: &str) -> Option<&str> {
        self.aliases.name_of(key)
    }

    /// The identity key of a name given whole: its key, through the aliases.
    pub fn key_of_name(&self, name: &str) -> String {
        self.aliases.canonical(&crate::name_key::player_key(name)).to_string()
    }
}

impl Snapshot<'_> {
    /// The ids of the games `filter` keeps, ascending.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn game_ids(&self, filter: &GameFilter) -> Result<Vec<GameId>> {
        let mut ids: Vec<GameId> = match self.filter_games(filter)? {
            Some(set) => set.into_iter().collect(),
            None => {
                let mut stmt = self.tx.prepare("SELECT id FROM games ORDER BY id")?;
                let ids = stmt.query_map([], |r| r.get(0))?;
                ids.collect::<rusqlite::Result<_>>()?
            }
        };
        ids.sort_unstable();
        Ok(ids)
    }

    /// The details of the records `records` (ids of `sources` rows, as
    /// [`Snapshot::newest_records`] gives them), by record id.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn record_details(&self, records: &[i64]) -> Result<HashMap<i64, RecordDetails>> {
        let array: Array = Rc::new(records.iter().map(|&r| Value::Integer(r)).collect());
        let mut stmt = self.tx.prepare_cached(
            "SELECT s.id, g.plies, s.opening, g.termination, s.site, s.time_control, f.path
             FROM sources s JOIN games g ON g.id = s.game JOIN files f ON f.id = s.file
             WHERE s.id IN rarray(?1)",
        )?;
        let rows = stmt.query_map([array], |r| {
            Ok((
                r.get(0)?,
                RecordDetails {
                    plies: r.get(1)?,
                    opening: r.get(2)?,
                    termination: r.get(3)?,
                    site: r.get(4)?,
                    time_control: r.get(5)?,
                    path: r.get(6)?,
                },
            ))
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Every player's identity, through the stored aliases and `extra` (alias, name) pairs.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn identities(&self, extra: &[(String, String)]) -> Result<Identities> {
        let (by_id, aliases) = names::identities(&self.tx, extra)?;
        Ok(Identities { by_id, aliases })
    }

    /// The ids of the players whose names `text` matches, through the stored aliases and
    /// `extra` ones (as a player filter matches them; see [`GameFilter`]).
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn players_matching(&self, text: &str, extra: &[(String, String)]) -> Result<HashSet<i64>> {
        Ok(names::player_ids(&self.tx, text, extra)?.into_iter().collect())
    }

    /// Calls `each` for every record of every game `filter` keeps (whichever of its records
    /// matched), by game id, then path order.
    ///
    /// # Errors
    ///
    /// Any database failure, or the first error `each` returns.
    pub fn for_each_record<E: From<super::Error>>(
        &self,
        filter: &GameFilter,
        mut each: impl FnMut(&RecordFacts) -> Result<(), E>,
    ) -> Result<(), E> {
        let c = Conditions::new(&self.tx, filter, "r", "g").map_err(super::Error::from)?;
        let kept = any_record_of_a_kept_game(&c.record);
        let sql = format!(
            "SELECT s.game, s.black, s.white, s.date, s.opening, g.result
             FROM sources s JOIN games g ON g.id = s.game JOIN files f ON f.id = s.file
             WHERE 1{kept}{game} ORDER BY s.game, f.path, s.idx",
            game = c.game
        );
        let mut stmt = self.tx.prepare(&sql).map_err(super::Error::from)?;
        let mut rows = stmt.query(params_from_iter(c.args.iter())).map_err(super::Error::from)?;
        while let Some(r) = rows.next().map_err(super::Error::from)? {
            let facts = (|| -> rusqlite::Result<RecordFacts> {
                Ok(RecordFacts {
                    game: r.get(0)?,
                    black: r.get(1)?,
                    white: r.get(2)?,
                    date: r.get(3)?,
                    opening: r.get(4)?,
                    result: r.get(5)?,
                })
            })()
            .map_err(super::Error::from)?;
            each(&facts)?;
        }
        Ok(())
    }
}
