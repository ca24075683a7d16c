//! `kifudex games`: the games the filters keep, without a position, newest first.

use std::process::ExitCode;

use clap::Args;
use kifudex::query::games::{self, GAME_LIST_COLUMNS};

use super::{
    db::DbOpt,
    filter::FilterOpt,
    table::{ListFormat, TextTable},
};

/// List the games the filters keep, newest first, without a position.
///
/// Each game is listed once, with the record shown for it: the first in path order that the
/// filters match. --format json prints one object, {"total": N, "games": [...]}. Exit
/// status 1 when no game is kept.
#[derive(Debug, Args)]
pub struct GamesArgs {
    #[command(flatten)]
    filter: FilterOpt,
    /// List at most N games (1 or more)
    #[arg(long, value_name = "N", default_value_t = 20, conflicts_with = "all", value_parser = limit, allow_negative_numbers = true)]
    limit: usize,
    /// List every game
    #[arg(long)]
    all: bool,
    /// Leave out the newest N games, to page through them all
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = kifudex::query::parse_count::<usize>, allow_negative_numbers = true)]
    offset: usize,
    /// Output format
    #[arg(long, value_enum, default_value_t = ListFormat::Table)]
    format: ListFormat,
    #[command(flatten)]
    db: DbOpt,
}

pub fn run(args: GamesArgs) -> anyhow::Result<ExitCode> {
    let filter = args.filter.filter()?;
    let mut reader = args.db.reader()?;
    let snapshot = reader.snapshot()?;
    super::note_overridden_aliases(&snapshot, &filter)?;
    let limit = if args.all { usize::MAX } else { args.limit };
    let list = games::list(&snapshot, &filter, args.offset, limit)?;
    let text = match args.format {
        ListFormat::Json => games::to_json(&list) + "\n",
        ListFormat::Csv => {
            let mut w = csv::Writer::from_writer(Vec::new());
            w.write_record(GAME_LIST_COLUMNS)?;
            for g in &list.games {
                w.write_record(g.fields())?;
            }
            String::from_utf8(w.into_inner()?)?
        }
        ListFormat::Table => {
            let mut t = TextTable::new(&GAME_LIST_COLUMNS);
            t.keep_end(GAME_LIST_COLUMNS.len() - 1);
            for g in &list.games {
                t.row(g.fields().to_vec());
            }
            t.render()
        }
    };
    let listed = args.offset as u64 + list.games.len() as u64;
    if list.total == 0 {
        super::note_no_game_kept(&snapshot, &filter)?;
    } else {
        super::note_offset_past_end(args.offset, list.total);
    }
    if listed < list.total {
        say!(
            "kifudex: listed games {} to {listed} of {}, newest first (--limit N or --all lists more)",
            args.offset + 1,
            list.total
        );
    }
    super::print(&text)?;
    Ok(if list.total == 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// `--limit N`: a number of games, at least 1 (a list of none is no list; `--all` is every
/// game).
fn limit(text: &str) -> Result<usize, String> {
    const AT_LEAST_ONE: &str = "give 1 or more, or --all for every game";
    match kifudex::query::parse_count::<usize>(text) {
        Ok(0) => Err(format!("a limit of 0 lists no game: {AT_LEAST_ONE}")),
        Ok(n) => Ok(n),
        Err(why) if why.starts_with("below 0") => Err(format!("below 1: {AT_LEAST_ONE}")),
        Err(why) => Err(why),
    }
}

#[cfg(test)]
mod tests {
    use super::limit;

    /// A limit below 1 is refused with what `games` takes (1 or more, or `--all`); text that
    /// is no number, for being none.
    #[test]
    fn a_limit_refused_says_what_is_taken() {
        assert_eq!(limit("5"), Ok(5));
        let taken = ": give 1 or more, or --all for every game";
        assert_eq!(limit("0"), Err(format!("a limit of 0 lists no game{taken}")));
        assert_eq!(limit("-1"), Err(format!("below 1{taken}")));
        assert_eq!(limit("ten"), Err("not a number".to_string()));
    }
}
