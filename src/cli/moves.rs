//! `kifudex moves`: read a move sequence in any notation and print it in one, for shogi or yari
//! shogi.

use std::process::ExitCode;

use anyhow::bail;
use kifudex::{
    notation::{Style, write},
    query::{Target, start_for},
    shogi::{Move, Position, Variant},
};

/// Read a move sequence in any notation and print it on one line in one notation.
///
/// The moves may be USI, CSA, Japanese or Western (mixed, with move numbers, ▲△☗☖ marks and
/// !? annotations), or a USI position command (`position startpos moves 7g7f …`,
/// `sfen SFEN moves …`). A word that ends a game (resign, 投了, 1-0, …) ends the sequence: a
/// move after one is an error.
#[derive(Debug, clap::Args)]
pub struct MovesArgs {
    /// The moves, e.g. "1.P-76 P-34 2.P-26" or "▲７六歩△３四歩" (several arguments are joined).
    #[arg(required = true, value_name = "TEXT")]
    text: Vec<String>,
    /// Where the moves start: an SFEN, `startpos`, or a handicap name (香落ち, 2-piece, …).
    #[arg(long, default_value = "startpos", value_name = "SFEN|startpos|HANDICAP")]
    start: String,
    /// The notation to print the moves in. Yari shogi moves are written in Western notation
    /// (western, hosking), in Japanese (each yari piece as the kanji of the shogi piece whose
    /// SFEN letter it shares: 角 the yari bishop) or in the USI-like form (usi); CSA has none.
    #[arg(long, value_enum, default_value_t = To::Usi)]
    to: To,
    /// The game: standard shogi or yari shogi. Without it, moves naming yari pieces (YN, YB,
    /// YR) or a seven-file --start SFEN are yari shogi's; `startpos` is the game's start.
    #[arg(long, value_enum, value_name = "standard|yari")]
    variant: Option<VariantArg>,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub(super) enum VariantArg {
    Standard,
    Yari,
}

impl From<VariantArg> for Variant {
    fn from(arg: VariantArg) -> Variant {
        match arg {
            VariantArg::Standard => Variant::Standard,
            VariantArg::Yari => Variant::Yari,
        }
    }
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum To {
    Usi,
    Japanese,
    /// Hodges: P-7f, Bx2b+, G7g-7h.
    Western,
    /// Hosking: P76, Bx22+, G77-78.
    Hosking,
    Csa,
}

impl From<To> for Style {
    fn from(to: To) -> Style {
        match to {
            To::Usi => Style::Usi,
            To::Japanese => Style::Japanese,
            To::Western => Style::Western,
            To::Hosking => Style::Hosking,
            To::Csa => Style::Csa,
        }
    }
}

/// The moves written in `style`, each against the position before it.
fn render(start: &Position, moves: &[Move], style: Style) -> String {
    let mut pos = start.clone();
    let mut previous = start.last_move().map(Move::to);
    let mut line = String::new();
    for &mv in moves {
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&write(&pos, mv, previous, style));
        pos.play_unchecked(mv);
        previous = Some(mv.to());
    }
    line
}

/// The start position: `--start` in the game `--variant` names, or that the moves or the start
/// itself show.
fn start(args: &MovesArgs, text: &str) -> anyhow::Result<Position> {
    start_for(&args.start, args.variant.map(Variant::from), text).map_err(super::in_flags)
}

/// Runs the command. Errors are fatal (exit 2); a closed stdout is success.
pub fn run(args: &MovesArgs) -> anyhow::Result<ExitCode> {
    let text = args.text.join(" ");
    let start = start(args, &text)?;
    if start.variant() == Variant::Yari && matches!(args.to, To::Csa) {
        bail!(
            "CSA has no yari shogi moves: write them in Western notation (--to western or hosking), Japanese or the USI-like form (--to usi)"
        );
    }
    let given = args.start.trim() != "startpos";
    let target = Target::from_moves_given(&start, given, &text).map_err(super::in_flags)?;
    // The moves may name their own start (a USI position command).
    let (start, moves) = match target.sequence {
        Some((setup, moves)) => (Position::from_setup(setup).unwrap_or(start), moves),
        None => (start, Vec::new()),
    };
    super::note_unmarked_promotions(start.setup(), &text);
    super::note_moves_past_repetition(start.setup(), &moves, false);
    let line = render(&start, &moves, args.to.into());
    super::print(&format!("{line}\n"))?;
    Ok(ExitCode::SUCCESS)
}
