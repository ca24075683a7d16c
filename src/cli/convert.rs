//! `kifudex convert`: print a record file's games in another format, shogi or yari shogi.

use std::{
    path::{Path, PathBuf},
    process::ExitCode,
};

use anyhow::{Context, bail};
use kifudex::{
    ingest::path_text,
    kifu::{self, Format, Game, encoding},
    notation::Style,
    replay,
    shogi::{Setup, Variant},
    write::lost::{Lost, parts_note},
};

use super::moves::VariantArg;

/// Print the games of a record file in another format.
///
/// Every move is replayed first, so what
/// is written is what the rules allow, with the result replay judged; a game or variation that
/// stops early is written as far as it is good, and a variation that fits nowhere (or that the
/// format cannot hold: CSA and USI hold none, Western text none after the last move of a
/// line nor one of no move, KIF and KI2 none after the last move of another variation), a
/// line read past, moves after the game ended and a game whose start position cannot be read
/// are left out, each with a warning (as is an ending the moves contradict or the format has
/// no word for, and a header holding a line break, which no format but JKF keeps), and the
/// exit status is then 1. What the format has no place for at all is
/// named once, in a note that leaves the exit status alone: move times in KI2, Western and
/// USI, headers and comments in USI, a start position's move number in CSA and JKF. CSA keeps
/// the headers it has no key for as `'key:value` comments. On a terminal, control
/// characters of the record's text are shown as `\xNN` and bidirectional controls as
/// `<U+202E>`; a pipe or --out gets the text as it is.
#[derive(Debug, clap::Args)]
pub struct ConvertArgs {
    /// The record file (any format and encoding kifudex reads); `-` reads standard input, its
    /// format told from its text (`./-` is a file named `-`).
    file: PathBuf,
    /// The format to write [default: the one --out's extension names (.kif .kifu .ki2 .ki2u
    /// .csa .jkf .json .usi .sfen .psn), else kif]. `western` writes Hodges moves (P-7f),
    /// `hosking` the same Western text with Hosking moves (P76). Yari shogi games are written
    /// as western, hosking or usi (the USI-like form), and as kif, ki2 or jkf from the yari
    /// start; never as csa.
    #[arg(long, value_enum)]
    to: Option<To>,
    /// Read the games as games of this variant. Without it, a game is yari shogi's when its
    /// [Variant] tag, a seven-file SFEN or its moves (YN, YB, YR) say so.
    #[arg(long, value_enum, value_name = "standard|yari")]
    variant: Option<VariantArg>,
    /// Only the game with this index in the file (0 for the first).
    #[arg(long, value_name = "N", value_parser = kifudex::query::parse_count::<usize>, allow_negative_numbers = true)]
    game: Option<usize>,
    /// Write to this file instead of stdout (`-` is stdout). KIF or KI2 in a `.kif` or `.ki2`
    /// file is written in Shift_JIS (CP932), as those extensions promise; anything else in
    /// UTF-8. An extension of another format than --to's is refused.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub(super) enum To {
    Kif,
    Ki2,
    Csa,
    Usi,
    Jkf,
    Western,
    Hosking,
}

impl From<To> for Format {
    fn from(to: To) -> Format {
        match to {
            To::Kif => Format::Kif,
            To::Ki2 => Format::Ki2,
            To::Csa => Format::Csa,
            To::Usi => Format::Usi,
            To::Jkf => Format::Jkf,
            To::Western | To::Hosking => Format::Western,
        }
    }
}

impl To {
    /// The format to write: `to` as given, else the one the extension of `out` names, else
    /// `default`. A `to` that contradicts the extension is refused: a file named `game.csa`
    /// holding KIF text would be read as CSA, and fail.
    pub(super) fn chosen(to: Option<To>, out: Option<&Path>, default: To) -> anyhow::Result<To> {
        let Some((out, named)) = out.and_then(|out| Some((out, To::of_extension(out)?))) else {
            return Ok(to.unwrap_or(default));
        };
        match to {
            None => Ok(named),
            Some(to) if Format::from(to) == Format::from(named) => Ok(to),
            Some(to) => bail!(
                "--out {} names a {} file, and --to {} writes {}: give --to {}, or a name with another extension",
                path_text(out),
                Format::from(named).name().to_uppercase(),
                to.arg_name(),
                Format::from(to).name().to_uppercase(),
                named.arg_name(),
            ),
        }
    }

    /// The format a file's extension names, if it names one.
    fn of_extension(path: &Path) -> Option<To> {
        match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "kif" | "kifu" => Some(To::Kif),
            "ki2" | "ki2u" => Some(To::Ki2),
            "csa" => Some(To::Csa),
            "jkf" | "json" => Some(To::Jkf),
            "usi" | "sfen" => Some(To::Usi),
            "psn" => Some(To::Western),
            _ => None,
        }
    }

    /// The values of `--to` whose format holds a game from `start`, for a message: `kif, ki2,
    /// usi, jkf, western or hosking`.
    pub(super) fn those_holding(start: &Setup) -> String {
        use clap::ValueEnum;
        let names: Vec<String> = To::value_variants()
            .iter()
            .filter(|to| Format::from(**to).holds_start(start))
            .map(|to| to.arg_name())
            .collect();
        match names.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        }
    }

    /// The value of `--to` that names this format.
    fn arg_name(self) -> String {
        use clap::ValueEnum;
        self.to_possible_value().map_or_else(String::new, |v| v.get_name().to_string())
    }

    /// `game`, replayed as `replayed`, written in this format.
    pub(super) fn write(self, game: &Game, replayed: &replay::ReplayedGame) -> String {
        match self {
            To::Hosking => kifudex::write::western::write_in(game, replayed, Style::Hosking),
            _ => kifudex::write::write(Format::from(self), game, replayed),
        }
    }
}

pub fn run(args: &ConvertArgs) -> anyhow::Result<ExitCode> {
    let stdin = args.file.as_os_str() == "-";
    if let Some(out) = super::out::named(&args.out) {
        super::db::refuse_database_as_output(out, "--out", None)?;
        if !stdin && super::db::same_place(out, &args.file) {
            bail!(
                "--out {} is the record file read ({}): writing there would destroy it; give another file",
                path_text(out),
                path_text(&args.file)
            );
        }
    }
    // After the refusals above, which say what writing there would destroy.
    let to = To::chosen(args.to, super::out::named(&args.out).map(PathBuf::as_path), To::Kif)?;
    let path = (!stdin).then_some(args.file.as_path());
    let bytes = super::read_input(path)?;
    // How messages name the input.
    let input = if stdin { Path::new("<stdin>") } else { args.file.as_path() };
    let variant = args.variant.map(Variant::from);
    let parsed = kifu::read_file_as(path, &bytes, variant)
        .with_context(|| format!("{}: no game can be read", path_text(input)))?;
    let format = Format::from(to);
    if let Some(game) = parsed.games.iter().find(|g| !format.holds_start(&g.start.setup())) {
        bail!(
            "{}: a {} file cannot hold this {} game ({}); write it with --to {}",
            path_text(input),
            format.name().to_uppercase(),
            game.start.variant().title().to_lowercase(),
            kifu::WHY_NOT_HELD,
            To::those_holding(&game.start.setup()),
        );
    }
    let games: Vec<_> = match args.game {
        Some(n) => match parsed.games.get(n) {
            Some(game) => vec![(n, game)],
            None => {
                bail!("{}: there is no game {n}: the file holds {}", path_text(input), parsed.games.len())
            }
        },
        None => parsed.games.iter().enumerate().collect(),
    };
    if games.len() > 1 && !format.holds_several_games() {
        bail!(
            "{}: the file holds {} games and a {} file holds one; choose one with --game N (0 to {})",
            path_text(input),
            games.len(),
            format.name().to_uppercase(),
            games.len() - 1
        );
    }
    let mut clean = true;
    let mut texts = Vec::with_capacity(games.len());
    // What the format has no place for at all, which its games have.
    let mut parts = Vec::new();
    for (index, game) in games {
        let replayed = replay::replay(game);
        if let replay::Status::Stopped(reason) = &replayed.status {
            clean = false;
            if replayed.has_no_start() {
                // Written, it would start from a position the record never gave.
                let file = path_text(input);
                super::note(format_args!(
                    "{file} game {index}: left out: it has no start position: {reason}"
                ));
                continue;
            }
            // What stopped the reading may come after the record's ending: then every move is
            // written, and only what follows the ending is not.
            let whole = game.ending.is_some() && game.unread == 0 && replayed.plies() == game.moves.len();
            let written = match replayed.plies() {
                n if whole => format!("its {n} moves and its ending are written, but not what follows them"),
                n => format!("written up to move {n} only"),
            };
            super::note(format_args!("{} game {index}: {written}: {reason}", path_text(input)));
        }
        for warning in game.warnings.iter().chain(&replayed.warnings) {
            clean = false;
            super::note(format_args!(
                "{} game {index}: line {}: {} [{}]",
                path_text(input),
                warning.line,
                warning.message,
                warning.code
            ));
        }
        for_each_stopped(&replayed.variations, 0, &mut |v, first, reason| {
            clean = false;
            let written = match v.moves.len() {
                0 => "is not written".to_string(),
                n => format!("is written up to move {} only", first + n - 1),
            };
            super::note(format_args!(
                "{} game {index}: the variation replacing move {first} {written}: {reason}",
                path_text(input)
            ));
        });
        let lost = Lost::of(format, game, &replayed);
        for message in &lost.warnings {
            clean = false;
            super::note(format_args!("{} game {index}: {message}", path_text(input)));
        }
        for part in lost.parts {
            if !parts.contains(&part) {
                parts.push(part);
            }
        }
        texts.push(to.write(game, &replayed));
    }
    if !parts.is_empty() {
        // The format's nature, not the game's: said once, and no failure.
        say!("kifudex: {}: note: {}", super::shown_path(input), parts_note(format, &parts));
    }
    if texts.is_empty() {
        bail!("{}: no game can be written: none has a start position", path_text(input));
    }
    let text = join(format, &texts);
    match super::out::named(&args.out) {
        Some(path) => write_file(path, format, &text, Some(input))?,
        None => super::print_record(&text)?,
    }
    Ok(if clean { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// Calls `each` for every variation, at any depth, that could not be replayed to its end,
/// with the number of the first move it replaces counted from the game's start; `before` is
/// the number of moves of the game before `variations`' line.
fn for_each_stopped(
    variations: &[replay::ReplayedVariation],
    before: usize,
    each: &mut impl FnMut(&replay::ReplayedVariation, usize, &replay::StopReason),
) {
    for v in variations {
        let first = before + v.ply + 1;
        if let Some(reason) = &v.stopped {
            each(v, first, reason);
        }
        for_each_stopped(&v.variations, first - 1, each);
    }
}

/// Several games in one text: CSA separates them with `/` ([`kifudex::write::csa::join`]),
/// the others follow one another.
fn join(format: Format, texts: &[String]) -> String {
    if format == Format::Csa {
        return kifudex::write::csa::join(texts);
    }
    let mut out = String::new();
    for (i, text) in texts.iter().enumerate() {
        if i > 0 {
            if !out.ends_with('\n') {
                out.push('\n');
            }
            out.push('\n');
        }
        out.push_str(text);
    }
    out
}

/// Writes `text`, in `format`, to `path`: KIF or KI2 in a `.kif` or `.ki2` file in
/// Shift_JIS, as those extensions promise, and anything else in UTF-8 (which CSA's encoding
/// line and JSON say). Text that Shift_JIS cannot hold is refused, and the refusal names the
/// `.kifu` (or `.ki2u`) file that would hold it, unless that file is `input`, the record
/// written from.
pub(super) fn write_file(
    path: &Path,
    format: Format,
    text: &str,
    input: Option<&Path>,
) -> anyhow::Result<()> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or_default();
    let bytes = match ext.to_ascii_lowercase().as_str() {
        "kif" | "ki2" if matches!(format, Format::Kif | Format::Ki2) => encoding::encode_cp932(text)
            .map_err(|e| {
                // The extension's case is its letters' (`ki2` is lowercase, `KI2` is not).
                let upper = ext.chars().any(|c| c.is_ascii_uppercase());
                let utf8_ext = if upper { format!("{ext}U") } else { format!("{ext}u") };
                let utf8 = path.with_extension(&utf8_ext);
                let place = if input.is_some_and(|input| super::db::same_place(input, &utf8)) {
                    format!(
                        "a .{utf8_ext} file (a file of UTF-8) other than {}, the record it comes from",
                        path_text(&utf8)
                    )
                } else {
                    format!("{}, a file of UTF-8", path_text(&utf8))
                };
                anyhow::anyhow!(
                    "{}: the game has text Shift_JIS cannot hold, which a .{ext} file promises ({e}): \
                     write it to {place}",
                    path_text(path),
                )
            })?,
        _ => text.as_bytes().to_vec(),
    };
    super::out::write_whole(path, &bytes)
}
