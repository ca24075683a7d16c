//! Player statistics: `kifudex players`.
//!
//! # Who is a player
//!
//! A player is an *identity*: every spelling whose key is the same (widths, spaces, case and
//! a title after the name do not count) and every alias of it is one player (see
//! [`crate::db::GameFilter`]). The name shown is the one an alias names, else the spelling
//! the most records use (the first in code-point order on a tie).
//!
//! # What counts
//!
//! - The filters choose the games, as everywhere: a game is kept when one of its records
//!   matches them. A `--player` text also chooses the rows: only the players it matches.
//! - A game counts once for each player, however many of its records name them, and on each
//!   side its records name them on: a game whose copies spell a player two ways (through an
//!   alias or a key) counts once; two spellings that are not one identity are two players.
//! - The result is the game's; wins, losses and draws are those of the games with a known
//!   result, so `games` may be more than their sum. Overall wins and losses add up those of
//!   both sides (a game a player plays against themself counts on both, a win and a loss);
//!   a draw is one draw, however many sides the player is on.
//! - The first and last dates are those of the records that name the player (within the
//!   filter's dates, when it has any); the openings are the 戦型 headers of those records,
//!   each counted once a game.
//! - `--vs NAME` keeps the games in which NAME plays, and counts each player only on the side
//!   facing NAME: each row is that player's record against NAME (NAME's own row is left out).

use std::collections::{HashMap, HashSet};

use serde_json::{Value, json};

use crate::{
    db::{self, GameFilter, GameId, RecordFacts, Snapshot, Stats},
    shogi::Color,
};

/// A player's record on one side, from the player's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideRecord {
    pub games: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
}

impl SideRecord {
    fn of(stats: Stats, side: Color) -> SideRecord {
        let (wins, losses) = stats.wins_and_losses(side);
        SideRecord { games: stats.games, wins, losses, draws: stats.draws }
    }
}

/// One player's statistics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerStats {
    pub name: String,
    /// Games played (each once, whichever side).
    pub games: u64,
    /// Over both sides.
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    pub as_black: SideRecord,
    pub as_white: SideRecord,
    pub first_date: Option<String>,
    pub last_date: Option<String>,
    /// The openings played, most played first (then by name), with their games.
    pub openings: Vec<(String, u64)>,
}

/// What to count (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct PlayersQuery {
    pub filter: GameFilter,
    /// Count each player only against the player this text matches.
    pub vs: Option<String>,
}

/// What is gathered of one identity.
#[derive(Default)]
struct Gathered {
    spellings: HashMap<String, u64>,
    games: u64,
    /// The games drawn, each once (on both sides, a game against oneself is one draw).
    draws: u64,
    black: Stats,
    white: Stats,
    first: Option<String>,
    last: Option<String>,
    openings: HashMap<String, u64>,
}

/// One game's records, as read: a [`Side`] for each side a record names.
struct GameSides {
    result: crate::db::GameResult,
    sides: Vec<Side>,
}

/// A side a record names: the player's identity, the side, the spelling, and the record's
/// date and opening.
struct Side {
    key: String,
    side: Color,
    spelling: String,
    date: Option<String>,
    opening: Option<String>,
}

/// The statistics of every player the query counts, most games first (then by name).
///
/// # Errors
///
/// Any database failure.
pub fn players(snapshot: &Snapshot<'_>, query: &PlayersQuery) -> Result<Vec<PlayerStats>, db::Error> {
    let filter = &query.filter;
    let identities = snapshot.identities(&filter.aliases)?;
    let key_set = |text: &str| -> Result<HashSet<String>, db::Error> {
        let ids = snapshot.players_matching(text, &filter.aliases)?;
        Ok(ids.iter().filter_map(|&id| identities.of(id)).map(|(k, _)| k.to_string()).collect())
    };
    let rows_of = filter.player.as_deref().map(key_set).transpose()?;
    let vs = match query.vs.as_deref() {
        Some(text) => Some(opponent_keys(&identities, key_set(text)?, text)),
        None => None,
    };
    let vs_filter = match &query.vs {
        // Only the games in which the opponent plays: one of the records names them.
        Some(v) => {
            GameFilter { player: Some(v.clone()), aliases: filter.aliases.clone(), ..GameFilter::default() }
        }
        None => GameFilter::default(),
    };
    let vs_games: Option<HashSet<GameId>> = snapshot.filter_games(&vs_filter)?;
    let mut gathered: HashMap<String, Gathered> = HashMap::new();
    let mut game: Option<(GameId, GameSides)> = None;
    let count = |sides: GameSides, gathered: &mut HashMap<String, Gathered>| {
        count_game(sides, rows_of.as_ref(), vs.as_ref(), gathered);
    };
    snapshot.for_each_record(filter, |r: &RecordFacts| -> Result<(), db::Error> {
        if vs_games.as_ref().is_some_and(|set| !set.contains(&r.game)) {
            return Ok(());
        }
        if game.as_ref().is_none_or(|(g, _)| *g != r.game) {
            if let Some((_, sides)) = game.take() {
                count(sides, &mut gathered);
            }
            game = Some((r.game, GameSides { result: r.result, sides: Vec::new() }));
        }
        if let Some((_, sides)) = game.as_mut() {
            for (id, side) in [(r.black, Color::Black), (r.white, Color::White)] {
                if let Some((key, spelling)) = id.and_then(|id| identities.of(id)) {
                    sides.sides.push(Side {
                        key: key.to_string(),
                        side,
                        spelling: spelling.to_string(),
                        // Within the filter's dates: a game kept by one record dated there
                        // shows no date of its others outside them.
                        date: r.date.clone().filter(|d| filter.dates_keep(d)),
                        opening: r.opening.clone(),
                    });
                }
            }
        }
        Ok(())
    })?;
    if let Some((_, sides)) = game.take() {
        count(sides, &mut gathered);
    }
    let mut out: Vec<PlayerStats> =
        gathered.into_iter().map(|(key, g)| finish(identities.alias_name(&key), g)).collect();
    out.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.name.cmp(&b.name)));
    Ok(out)
}

/// The players `--vs TEXT` is against, of `matched` (the identities TEXT matches, as
/// `--player` matches them): where one of them is TEXT given whole, that one alone, so that
/// `--vs 藤井猛` is not also against 藤井猛九段's namesakes.
fn opponent_keys(identities: &db::Identities, mut matched: HashSet<String>, text: &str) -> HashSet<String> {
    let whole = identities.key_of_name(text);
    if matched.contains(&whole) {
        matched.retain(|k| *k == whole);
    }
    matched
}

/// The names of the players `query.vs` is against: one for each, the name an alias gives it
/// or its first spelling in code-point order, in that order. More than one, and each row
/// would be a record against several players at once: `kifudex players` refuses that.
///
/// # Errors
///
/// Any database failure.
pub fn opponents(snapshot: &Snapshot<'_>, query: &PlayersQuery) -> Result<Vec<String>, db::Error> {
    let Some(text) = query.vs.as_deref() else { return Ok(Vec::new()) };
    let aliases = &query.filter.aliases;
    let identities = snapshot.identities(aliases)?;
    let ids = snapshot.players_matching(text, aliases)?;
    let matched = ids.iter().filter_map(|&id| identities.of(id)).map(|(k, _)| k.to_string()).collect();
    let keys = opponent_keys(&identities, matched, text);
    let mut names: HashMap<&str, String> = HashMap::new();
    for &id in &ids {
        let Some((key, spelling)) = identities.of(id) else { continue };
        if !keys.contains(key) {
            continue;
        }
        let name = names.entry(key).or_insert_with(|| spelling.to_string());
        if let Some(alias) = identities.alias_name(key) {
            *name = alias.to_string();
        } else if spelling < name.as_str() {
            *name = spelling.to_string();
        }
    }
    let mut names: Vec<String> = names.into_values().collect();
    names.sort();
    Ok(names)
}

fn count_game(
    game: GameSides,
    rows_of: Option<&HashSet<String>>,
    vs: Option<&HashSet<String>>,
    gathered: &mut HashMap<String, Gathered>,
) {
    // The sides the opponent of --vs plays on, in this game.
    let vs_sides: HashSet<Color> = match vs {
        Some(set) => game.sides.iter().filter(|s| set.contains(&s.key)).map(|s| s.side).collect(),
        None => HashSet::new(),
    };
    let mut counted: HashSet<(&str, Color)> = HashSet::new();
    let mut played: HashSet<&str> = HashSet::new();
    let mut openings: HashSet<(&str, &str)> = HashSet::new();
    for Side { key, side, spelling, date, opening } in &game.sides {
        if rows_of.is_some_and(|set| !set.contains(key)) {
            continue;
        }
        if let Some(set) = vs {
            if set.contains(key) || !vs_sides.contains(&side.flip()) {
                continue;
            }
        }
        let g = gathered.entry(key.clone()).or_default();
        *g.spellings.entry(spelling.clone()).or_default() += 1;
        if let Some(d) = date {
            if g.first.as_ref().is_none_or(|f| d < f) {
                g.first = Some(d.clone());
            }
            if g.last.as_ref().is_none_or(|l| d > l) {
                g.last = Some(d.clone());
            }
        }
        if let Some(o) = opening {
            if openings.insert((key.as_str(), o.as_str())) {
                *g.openings.entry(o.clone()).or_default() += 1;
            }
        }
        if counted.insert((key.as_str(), *side)) {
            match side {
                Color::Black => g.black += game.result,
                Color::White => g.white += game.result,
            }
        }
        if played.insert(key.as_str()) {
            g.games += 1;
            g.draws += u64::from(game.result == crate::db::GameResult::Draw);
        }
    }
}

fn finish(alias_name: Option<&str>, g: Gathered) -> PlayerStats {
    let name = match alias_name {
        Some(n) => n.to_string(),
        None => {
            let mut spellings: Vec<(String, u64)> = g.spellings.into_iter().collect();
            spellings.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            spellings.into_iter().next().map(|(s, _)| s).unwrap_or_default()
        }
    };
    let (as_black, as_white) = (SideRecord::of(g.black, Color::Black), SideRecord::of(g.white, Color::White));
    let mut openings: Vec<(String, u64)> = g.openings.into_iter().collect();
    openings.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    PlayerStats {
        name,
        games: g.games,
        wins: as_black.wins + as_white.wins,
        losses: as_black.losses + as_white.losses,
        draws: g.draws,
        as_black,
        as_white,
        first_date: g.first,
        last_date: g.last,
        openings,
    }
}

/// The columns of the players table and CSV.
pub const PLAYER_COLUMNS: [&str; 15] = [
    "name",
    "games",
    "wins",
    "losses",
    "draws",
    "black_games",
    "black_wins",
    "black_losses",
    "black_draws",
    "white_games",
    "white_wins",
    "white_losses",
    "white_draws",
    "first_date",
    "last_date",
];

impl PlayerStats {
    /// The fields of [`PLAYER_COLUMNS`], then the openings as `name (games)` joined by `; `.
    pub fn fields(&self) -> Vec<String> {
        let (b, w) = (&self.as_black, &self.as_white);
        let mut out: Vec<String> = vec![self.name.clone()];
        out.extend(
            [
                self.games,
                self.wins,
                self.losses,
                self.draws,
                b.games,
                b.wins,
                b.losses,
                b.draws,
                w.games,
                w.wins,
                w.losses,
                w.draws,
            ]
            .map(|n| n.to_string()),
        );
        out.push(self.first_date.clone().unwrap_or_default());
        out.push(self.last_date.clone().unwrap_or_default());
        out.push(self.openings.iter().map(|(o, n)| format!("{o} ({n})")).collect::<Vec<_>>().join("; "));
        out
    }

    /// The statistics as a JSON object (see the command-line contract for its keys).
    pub fn to_json(&self) -> Value {
        let side =
            |s: &SideRecord| json!({"games": s.games, "wins": s.wins, "losses": s.losses, "draws": s.draws});
        let openings: Vec<Value> =
            self.openings.iter().map(|(o, n)| json!({"opening": o, "games": n})).collect();
        json!({
            "name": self.name, "games": self.games, "wins": self.wins, "losses": self.losses, "draws": self.draws,
            "as_black": side(&self.as_black), "as_white": side(&self.as_white),
            "first_date": self.first_date, "last_date": self.last_date, "openings": openings,
        })
    }
}
