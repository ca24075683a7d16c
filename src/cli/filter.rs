//! The game filters `query`, `games`, `players`, `show` and `export` take.

use kifudex::ingest::path_text;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::Args;
use kifudex::{
    db::GameFilter,
    query::{filter_from_text, parse_result},
};

/// Which games count. Names, events and openings match on a part, without regard to widths,
/// spaces, case or a title after a name; dates are a year, a month or a day in ISO 8601's form
/// (`2019`, `2019-04`, `2019-04-01`).
#[derive(Debug, Clone, Args)]
pub struct FilterOpt {
    /// Games with a player (either side) whose name contains NAME
    #[arg(long, value_name = "NAME", help_heading = "Filters")]
    player: Option<String>,
    /// Games whose black player's (先手, 下手) name contains NAME
    #[arg(long, value_name = "NAME", help_heading = "Filters")]
    black: Option<String>,
    /// Games whose white player's (後手, 上手) name contains NAME
    #[arg(long, value_name = "NAME", help_heading = "Filters")]
    white: Option<String>,
    /// Games whose event contains TEXT
    #[arg(long, value_name = "TEXT", help_heading = "Filters")]
    event: Option<String>,
    /// Games played on or after DATE (a record dated only by its year or month counts as all of it)
    #[arg(long, value_name = "DATE", help_heading = "Filters", allow_negative_numbers = true)]
    since: Option<String>,
    /// Games played on or before DATE (a partial date includes all of it: 2019 is up to 2019-12-31)
    #[arg(long, value_name = "DATE", help_heading = "Filters", allow_negative_numbers = true)]
    until: Option<String>,
    /// Games with this result: black, white, draw, or other (no winner recorded and no draw;
    /// also named unknown, as the exports write it)
    #[arg(long, value_name = "black|white|draw|other", help_heading = "Filters")]
    result: Option<String>,
    /// Games from this start: 平手 (even), 香落ち (lance), 角落ち (bishop), 二枚落ち (2-piece), …
    #[arg(long, value_name = "NAME", help_heading = "Filters")]
    handicap: Option<String>,
    /// Games whose opening (the record's 戦型 header) contains TEXT
    #[arg(long, value_name = "TEXT", help_heading = "Filters")]
    opening: Option<String>,
    /// More aliases, beside the database's: a CSV file of rows `alias,name` (see `kifudex alias`)
    #[arg(long, value_name = "FILE", help_heading = "Filters")]
    aliases: Option<PathBuf>,
    /// Games of this game: shogi (standard) or yari shogi. `query` also reads its moves and
    /// start in it (its position is one game's, so only that game's games reach it)
    #[arg(long, value_name = "standard|yari", help_heading = "Filters")]
    variant: Option<String>,
}

impl FilterOpt {
    /// Refuses `out`, the file a command writes (`flag` names it), when it is the aliases
    /// file the filters read: writing there would destroy it.
    pub fn refuse_as_output(&self, out: &Path, flag: &str) -> anyhow::Result<()> {
        match &self.aliases {
            Some(aliases) if super::db::same_place(out, aliases) => bail!(
                "{flag} {} is the aliases file read (--aliases): writing there would destroy it; give another file",
                path_text(out)
            ),
            _ => Ok(()),
        }
    }

    /// The filter, checked (by the library, so the HTTP API refuses what this refuses).
    pub fn filter(&self) -> anyhow::Result<GameFilter> {
        let given = GameFilter {
            player: self.player.clone(),
            black: self.black.clone(),
            white: self.white.clone(),
            event: self.event.clone(),
            since: self.since.clone(),
            until: self.until.clone(),
            result: self.result.as_deref().map(parse_result).transpose().map_err(super::in_flags)?.flatten(),
            opening: self.opening.clone(),
            aliases: match &self.aliases {
                Some(path) => read_aliases(path)?,
                None => Vec::new(),
            },
            ..GameFilter::default()
        };
        filter_from_text(given, self.handicap.as_deref(), self.variant.as_deref()).map_err(super::in_flags)
    }
}

/// The (alias, name) rows of an aliases file: CSV, two fields a row, an optional header row
/// `alias,name`, blank lines skipped.
pub fn read_aliases(path: &Path) -> anyhow::Result<Vec<(String, String)>> {
    let bytes = super::read_input(Some(path))?;
    let text = kifudex::kifu::encoding::decode(&bytes)
        .with_context(|| format!("{}: not text", path_text(path)))?
        .text
        .into_owned();
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let (mut out, mut lines) = (Vec::new(), Vec::new());
    for (i, row) in reader.records().enumerate() {
        let row = row.with_context(|| format!("{}: not CSV", path_text(path)))?;
        // Counted here: the reader's own count leaves out blank lines, and its offset is
        // where the previous row's line ended.
        let line = row.position().map_or(i + 1, |p| {
            let bytes = text.as_bytes();
            let mut at = (p.byte() as usize).min(bytes.len());
            while at < bytes.len() && matches!(bytes[at], b'\r' | b'\n') {
                at += 1;
            }
            // A line ends at LF, CRLF or a CR alone.
            let ends = bytes[..at]
                .iter()
                .enumerate()
                .filter(|&(i, &b)| b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')));
            ends.count() + 1
        });
        let fields: Vec<&str> = row.iter().collect();
        match fields.as_slice() {
            [""] | [] => {}
            [alias, name]
                if i == 0 && alias.eq_ignore_ascii_case("alias") && name.eq_ignore_ascii_case("name") => {}
            [alias, name] if !alias.is_empty() && !name.is_empty() => {
                // A row of two spellings that are one name already (`羽生善治 九段,羽生善治`)
                // says what names say by themselves: it is passed over. A row with no name in
                // it is a mistake, as `alias add` refuses it.
                match kifudex::db::two_names(alias, name) {
                    Ok(_) => {}
                    Err(kifudex::db::AliasError::Same { .. }) => continue,
                    Err(e) => bail!("{} line {line}: {e}", path_text(path)),
                }
                out.push((alias.to_string(), name.to_string()));
                lines.push(line);
            }
            _ => bail!("{} line {line}: an alias row is `alias,name`", path_text(path)),
        }
    }
    if let Some((row, earlier)) = kifudex::db::contradicting_alias(&out) {
        let ((alias, name), (first_alias, first_name)) = (&out[row], &out[earlier]);
        bail!(
            "{} line {}: '{alias}' cannot be an alias of '{name}': line {} made '{first_alias}' an alias of \
             '{first_name}' (an alias names one player, and no alias leads back to itself)",
            path_text(path),
            lines[row],
            lines[earlier]
        );
    }
    Ok(out)
}
