//! `kifudex players`: per-player games, wins, losses and draws, by side, with dates and
//! openings; with `--vs`, each player's record against one opponent.

use std::process::ExitCode;

use anyhow::bail;
use clap::Args;
use kifudex::{
    name_key,
    query::players::{self, PLAYER_COLUMNS, PlayersQuery},
};

use super::{
    db::DbOpt,
    filter::FilterOpt,
    table::{ListFormat, TextTable},
};

/// Player statistics: games, wins, losses and draws, overall and as black and as white, the
/// first and last dates, and the openings (戦型) played most.
///
/// The filters choose the games; --player also chooses the players listed. A player is every
/// spelling of one name (widths, spaces, `_`, case and a title after the name do not count) and
/// its aliases; a game counts once for each player, however many of its records name them.
/// With --vs NAME, each row is a player's record against NAME: NAME matches as --player does,
/// and must match one player (or be one's name whole). --format json prints a list of
/// objects, one a player. Exit status 1 when no player is counted, with a line on stderr that
/// says why.
#[derive(Debug, Args)]
pub struct PlayersArgs {
    #[command(flatten)]
    filter: FilterOpt,
    /// Each player's record against the player NAME (NAME's own row is left out). NAME matches
    /// as --player does; one that matches several players is refused, naming them
    #[arg(long, value_name = "NAME")]
    vs: Option<String>,
    /// Output format
    #[arg(long, value_enum, default_value_t = ListFormat::Table)]
    format: ListFormat,
    #[command(flatten)]
    db: DbOpt,
}

pub fn run(args: PlayersArgs) -> anyhow::Result<ExitCode> {
    let query =
        // A name with nothing a key keeps (spaces, `_`) names no one: no --vs, as a blank one.
        PlayersQuery { filter: args.filter.filter()?, vs: args.vs.clone().filter(|v| !name_key::key(v).is_empty()) };
    let mut reader = args.db.reader()?;
    let snapshot = reader.snapshot()?;
    super::note_overridden_aliases(&snapshot, &query.filter)?;
    let opponents = players::opponents(&snapshot, &query)?;
    if let (Some(vs), [_, _, ..]) = (&query.vs, opponents.as_slice()) {
        bail!(
            "--vs {vs} matches {} players: {}; give one of them whole",
            opponents.len(),
            some_of(&opponents)
        );
    }
    let stats = players::players(&snapshot, &query)?;
    let mut header: Vec<&str> = PLAYER_COLUMNS.to_vec();
    header.push("openings");
    let text = match args.format {
        ListFormat::Json => {
            serde_json::Value::Array(stats.iter().map(|p| p.to_json()).collect()).to_string() + "\n"
        }
        ListFormat::Csv => {
            let mut w = csv::Writer::from_writer(Vec::new());
            w.write_record(&header)?;
            for p in &stats {
                w.write_record(p.fields())?;
            }
            String::from_utf8(w.into_inner()?)?
        }
        ListFormat::Table => {
            let mut t = TextTable::new(&header);
            for p in &stats {
                t.row(p.fields());
            }
            t.render()
        }
    };
    if stats.is_empty() && super::note_no_game_kept(&snapshot, &query.filter)? == kifudex::query::NoGame::Kept
    {
        super::note(format_args!("{}", why_no_player(&snapshot, &query, &opponents)?));
    }
    super::print(&text)?;
    Ok(if stats.is_empty() { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// Why no player is counted when the filters keep games: the games name none, or, with
/// `--vs`, the players kept are the opponent alone (`--player` and `--vs` naming one player,
/// whose own row is left out) or none of them met the opponent.
fn why_no_player(
    snapshot: &kifudex::db::Snapshot<'_>,
    query: &PlayersQuery,
    opponents: &[String],
) -> anyhow::Result<String> {
    let Some(vs) = &query.vs else {
        return Ok("the games the filters keep name no player".to_string());
    };
    let rows = players::players(snapshot, &PlayersQuery { filter: query.filter.clone(), vs: None })?;
    let opponent =
        |name: &str| opponents.iter().any(|o| name_key::player_key(o) == name_key::player_key(name));
    Ok(match &query.filter.player {
        _ if rows.is_empty() => "the games the filters keep name no player".to_string(),
        Some(player) if rows.iter().all(|r| opponent(&r.name)) => format!(
            "--player {player} keeps only {vs}'s own row, and --vs {vs} leaves it out: give --player another \
             name, or leave it out"
        ),
        Some(player) => {
            format!("no player that --player {player} keeps met {vs} in the games the filters keep")
        }
        None => format!("no player met {vs} in the games the filters keep"),
    })
}

/// `a, b, c`, or the first ten of many and how many more: `a, b, …, j and 4 more`.
fn some_of(names: &[String]) -> String {
    const SHOWN: usize = 10;
    let shown: Vec<String> = names.iter().take(SHOWN).map(|n| super::table::visible(n.clone())).collect();
    match names.len().checked_sub(SHOWN) {
        Some(more) if more > 0 => format!("{} and {more} more", shown.join(", ")),
        _ => shown.join(", "),
    }
}
