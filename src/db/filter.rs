//! Game filters, as SQL conditions.
//!
//! # Policy
//!
//! A game is its start, its moves and its result; each file that holds it keeps its own
//! *record* of it (a row of `sources`: players, event, dates and the other headers). So:
//! - the filters on what records say (player, black, white, event, since, until) keep a game
//!   when *one of its records* matches all of them: a game that a KIF file names 羽生善治 and
//!   a CSA file names Habu is found by `--player 羽生` and by `--player Habu`;
//! - the filters on the game (result, handicap, variant) look at the game;
//! - where one record of a game is shown (the game list of a query, `show`), it is the first
//!   of its records in path order (then index in the file) that matches the record filters:
//!   the first in path order when there are none.
//!
//! User text is only ever an argument of a statement, never SQL.

use std::rc::Rc;

use rusqlite::{
    Connection, ToSql,
    types::{ToSqlOutput, Value},
    vtab::array::Array,
};

use super::{GameResult, names};
use crate::shogi::{Handicap, Variant};

/// Which games to keep. Empty fields do not filter. Names, events and openings match a part
/// of them, compared by their keys (widths, spaces, case and a player's title do not count;
/// see [`crate::name_key`]), and player names through aliases (see [`crate::db::Alias`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameFilter {
    /// A player on either side (part of the name).
    pub player: Option<String>,
    pub black: Option<String>,
    pub white: Option<String>,
    /// Part of the event name.
    pub event: Option<String>,
    /// Games on or after this date (a year, a month or a day in ISO 8601's form).
    pub since: Option<String>,
    /// Games on or before this date (a partial date includes all of it).
    pub until: Option<String>,
    pub result: Option<GameResult>,
    pub handicap: Option<Handicap>,
    /// Part of the opening (戦型) a record names.
    pub opening: Option<String>,
    /// Aliases of this filter's own, as (alias, name) pairs, beside the stored ones.
    pub aliases: Vec<(String, String)>,
    /// Games of this game: shogi or yari shogi.
    pub variant: Option<Variant>,
}

impl GameFilter {
    /// Whether the filter keeps every game.
    pub fn is_empty(&self) -> bool {
        GameFilter { aliases: Vec::new(), ..self.clone() } == GameFilter::default()
    }

    /// Whether a record dated `date` (ISO 8601, as precise as the record is) is within
    /// `since` and `until`, as the filter's conditions read them: a partial date includes all
    /// of it, on either side.
    ///
    /// ```
    /// use kifudex::db::GameFilter;
    /// let f = GameFilter { since: Some("2019-06-01".into()), until: Some("2020".into()), ..GameFilter::default() };
    /// assert!(f.dates_keep("2019-06") && f.dates_keep("2019") && f.dates_keep("2020-12-31"));
    /// assert!(!f.dates_keep("2019-05-31") && !f.dates_keep("2021-01"));
    /// ```
    pub fn dates_keep(&self, date: &str) -> bool {
        let since = self
            .since
            .as_deref()
            .is_none_or(|d| date >= d || d.match_indices('-').any(|(i, _)| &d[..i] == date));
        let until = self.until.as_deref().is_none_or(|d| date.get(..d.len()).unwrap_or(date) <= d);
        since && until
    }
}

/// The conditions of a filter, each starting with ` AND`, and their arguments (`?1`, `?2`, …
/// in order). Built again with other table aliases, the same filter numbers its arguments
/// the same way, so one argument list serves both.
///
/// Names are matched once, when the conditions are built: a condition on players or events
/// takes the list of their ids, so a statement run once per game does not match them again.
pub(super) struct Conditions {
    /// On the record (a `sources` row).
    pub record: String,
    /// On the game (a `games` row).
    pub game: String,
    pub args: Vec<Arg>,
}

/// An argument of the conditions: a text, or a list of ids or texts (for `IN rarray(?)`).
pub(super) enum Arg {
    Text(String),
    Ids(Array),
}

/// The list argument of `values`.
fn list(values: impl IntoIterator<Item = Value>) -> Arg {
    Arg::Ids(Rc::new(values.into_iter().collect()))
}

impl ToSql for Arg {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        match self {
            Arg::Text(t) => t.to_sql(),
            Arg::Ids(ids) => ids.to_sql(),
        }
    }
}

/// The ids of the players that `text` matches (see [`names`]).
fn players(conn: &Connection, text: &str, filter: &GameFilter) -> rusqlite::Result<Arg> {
    Ok(list(names::player_ids(conn, text, &filter.aliases)?.into_iter().map(Value::Integer)))
}

impl Conditions {
    /// The conditions of `filter` on the record aliased `s` and the game aliased `g`, with the
    /// names matched in the database of `conn`.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn new(conn: &Connection, filter: &GameFilter, s: &str, g: &str) -> rusqlite::Result<Conditions> {
        let mut args = Vec::new();
        let mut arg = |sql: &mut String, clause: &str, value: Arg| {
            args.push(value);
            sql.push_str(&clause.replace('?', &format!("?{}", args.len())));
        };
        let (mut record, mut game) = (String::new(), String::new());
        if let Some(p) = &filter.player {
            let clause = format!(" AND ({s}.black IN rarray(?) OR {s}.white IN rarray(?))");
            arg(&mut record, &clause, players(conn, p, filter)?);
        }
        if let Some(p) = &filter.black {
            arg(&mut record, &format!(" AND {s}.black IN rarray(?)"), players(conn, p, filter)?);
        }
        if let Some(p) = &filter.white {
            arg(&mut record, &format!(" AND {s}.white IN rarray(?)"), players(conn, p, filter)?);
        }
        if let Some(e) = &filter.event {
            let ids = names::event_ids(conn, e)?.into_iter().map(Value::Integer);
            arg(&mut record, &format!(" AND {s}.event IN rarray(?)"), list(ids));
        }
        if let Some(o) = &filter.opening {
            let texts = names::openings(conn, o)?.into_iter().map(Value::Text);
            arg(&mut record, &format!(" AND {s}.opening IN rarray(?)"), list(texts));
        }
        if let Some(d) = &filter.since {
            // A record's partial date includes all of it: --since 2019-06-01 keeps a record
            // dated 2019-06 or 2019, as --until keeps it. Those dates are the parts of the
            // date asked for, so the index by date still serves.
            arg(&mut record, &format!(" AND ({s}.date >= ?"), Arg::Text(d.clone()));
            let parts = d.match_indices('-').map(|(i, _)| Value::Text(d[..i].to_string()));
            arg(&mut record, &format!(" OR {s}.date IN rarray(?))"), list(parts));
        }
        if let Some(d) = &filter.until {
            // A partial date includes all of it: --until 2010 keeps 2010-12-31.
            arg(&mut record, &format!(" AND substr({s}.date, 1, length(?)) <= ?"), Arg::Text(d.clone()));
        }
        if let Some(r) = filter.result {
            game.push_str(&format!(" AND {g}.result = {}", r.code()));
        }
        if let Some(h) = filter.handicap {
            arg(&mut game, &format!(" AND {g}.handicap = ?"), Arg::Text(h.slug().to_string()));
        }
        match filter.variant {
            None => {}
            // Shogi games store no variant name (NULL), every other game its own.
            Some(Variant::Standard) => game.push_str(&format!(" AND {g}.variant IS NULL")),
            Some(v) => arg(&mut game, &format!(" AND {g}.variant = ?"), Arg::Text(v.name().to_string())),
        }
        Ok(Conditions { record, game, args })
    }

    /// The number the next argument added after these takes.
    pub fn next_arg(&self) -> usize {
        self.args.len() + 1
    }

    /// The arguments, then `more`.
    pub fn args_with<'a>(&'a self, more: &[&'a dyn ToSql]) -> Vec<&'a dyn ToSql> {
        self.args.iter().map(|a| a as &dyn ToSql).chain(more.iter().copied()).collect()
    }
}

/// The id of the record of the game aliased `g` that is shown for it: the first in path
/// order (then index in the file) whose record conditions `record` (on alias `r`) hold. A
/// subquery, for `s.id = …`.
pub(super) fn shown_record(g: &str, record: &str) -> String {
    format!(
        "(SELECT r.id FROM sources r JOIN files rf ON rf.id = r.file
          WHERE r.game = {g}.id{record} ORDER BY rf.path, r.idx LIMIT 1)"
    )
}

/// The condition that keeps every record (aliased `s`) of the games one of whose records
/// meets the record conditions `record` (on alias `r`): empty when there are none, for every
/// game is kept then.
pub(super) fn any_record_of_a_kept_game(record: &str) -> String {
    if record.is_empty() {
        String::new()
    } else {
        format!(" AND s.game IN (SELECT r.game FROM sources r WHERE 1{record})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(arg: &Arg) -> String {
        match arg {
            Arg::Text(t) => t.clone(),
            Arg::Ids(ids) => format!("{:?}", ids),
        }
    }

    #[test]
    fn names_are_matched_once_and_arguments_numbered_alike_whatever_the_aliases() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE players(id INTEGER PRIMARY KEY, name TEXT);
             CREATE TABLE events(id INTEGER PRIMARY KEY, name TEXT);
             INSERT INTO players VALUES (1, '羽生善治'), (2, 'Habu Yoshiharu'), (3, '羽生');",
        )
        .unwrap();
        let filter = GameFilter {
            player: Some("羽生".into()),
            until: Some("2010".into()),
            handicap: Some(Handicap::Lance),
            result: Some(GameResult::Draw),
            ..GameFilter::default()
        };
        let a = Conditions::new(&conn, &filter, "s", "g").unwrap();
        let b = Conditions::new(&conn, &filter, "r", "x").unwrap();
        let texts = |c: &Conditions| c.args.iter().map(text).collect::<Vec<_>>();
        assert_eq!(texts(&a), texts(&b));
        assert_eq!(texts(&a), ["[Integer(1), Integer(3)]", "2010", "lance"]);
        assert_eq!(a.next_arg(), 4);
        assert_eq!(a.record.replace("s.", "r."), b.record);
        assert_eq!(
            a.record,
            " AND (s.black IN rarray(?1) OR s.white IN rarray(?1)) AND substr(s.date, 1, length(?2)) <= ?2"
        );
        assert_eq!(a.game, " AND g.result = 3 AND g.handicap = ?3");
        assert!(GameFilter::default().is_empty());
        let yari = GameFilter { variant: Some(Variant::Yari), ..GameFilter::default() };
        let c = Conditions::new(&conn, &yari, "s", "g").unwrap();
        assert_eq!((c.game.as_str(), texts(&c)), (" AND g.variant = ?1", vec!["yari".to_string()]));
        let shogi = GameFilter { variant: Some(Variant::Standard), ..GameFilter::default() };
        let c = Conditions::new(&conn, &shogi, "s", "g").unwrap();
        assert_eq!((c.game.as_str(), c.args.len()), (" AND g.variant IS NULL", 0));
        let none = Conditions::new(&conn, &GameFilter::default(), "s", "g").unwrap();
        assert!(none.record.is_empty() && none.game.is_empty() && none.args.is_empty());
    }
}
