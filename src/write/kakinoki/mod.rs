//! Writers for the Kakinoki formats: [`kif`] (the numbered move table) and [`ki2`] (Japanese
//! notation, several moves a line).
//!
//! Both write what a replayed game holds: the legal moves replay found (a written foul that
//! ended the game included), so a game read back is the same game. What they share lives
//! here: the header block, the walk over the main line and its variations, and the words for
//! endings.
//!
//! Header policy: every raw header is written back as `key：value`, in order (but for the keys
//! that describe another format's file or that the start and ending stand for, such as the
//! CSA `V` and a Western `Result`); a key from
//! another format that names a known field (`$EVENT`, `N+`, `[Sente]`) is written under its
//! KIF key (`棋戦`, `先手`) unless the game has that KIF key already; a `手合割` that would not
//! read back as the game's standard start (a name nobody defines reads as the even game) is
//! replaced by the start's name, and one is added
//! when missing; a custom start is written as a board diagram. A yari shogi game (from the
//! yari start: see [`Format::holds_start`](crate::kifu::Format::holds_start)) is named by
//! `手合割：槍将棋` in place of any other, its pieces written with the kanji of the shogi
//! pieces of their letters (see [`crate::notation`]). Line breaks inside values
//! become a literal `\n`, as Kifu for Windows writes them. Normalized fields that no header
//! carries are added under their KIF keys.
//!
//! Variation order: after a line, its variations latest branch first, each followed by its
//! own; this is the order readers (ours included) attach `変化：N手` blocks by.

pub mod ki2;
pub mod kif;

use std::{cmp::Reverse, fmt::Write as _};

use super::support::{self, comment_lines, paired_variations, slash_date};
use crate::{
    kifu::{
        Ending, Game, Header, MoveEntry, Outcome, Start, Termination, Variation, bod,
        info::{Field, STRUCTURE_KEYS, parse_date},
        kakinoki::{handicap_of_name, variation_start},
        support::named_variant,
    },
    notation::MoveToken,
    replay::{ReplayedGame, ReplayedVariation, rewind},
    shogi::{Color, Handicap, Move, PieceKind, Position, Setup, Variant},
    text::trim_space,
};

/// Whether the players are named 下手/上手 (a standard handicap start).
fn is_handicap(game: &Game) -> bool {
    matches!(game.start, Start::Standard(h) if h != Handicap::Even)
}

/// A value on one line: line breaks become a literal `\n`.
fn one_line(value: &str) -> String {
    value.replace("\r\n", "\\n").replace(['\n', '\r'], "\\n")
}

/// The header block and, for a custom start, the board diagram.
fn write_headers(game: &Game, out: &mut String) {
    let handicap = is_handicap(game);
    let has_key = |key: &str| game.headers.iter().any(|h| h.key == key);
    let mut fields = Vec::new();
    let mut wrote_handicap = false;
    // A Western `Time` tag completes `Date`: the two are one start, written once.
    let start_time = game.info.start.filter(|d| d.time.is_some());
    // The header each field was read from (the lowest rank, the first of equal ones) is the
    // one written under the field's KIF key; another of the field (`UTCDate` beside `Date`,
    // `Venue` beside `Site`) keeps its own key, so no KIF key is written twice.
    let mut read_from: Vec<(Field, u8, usize)> = Vec::new();
    for (i, (field, rank)) in
        game.headers.iter().enumerate().filter_map(|(i, h)| Some((i, Field::of(&h.key)?)))
    {
        match read_from.iter_mut().find(|(f, ..)| *f == field) {
            Some(best) if rank < best.1 => *best = (field, rank, i),
            Some(_) => {}
            None => read_from.push((field, rank, i)),
        }
    }
    let headers = game
        .headers
        .iter()
        .enumerate()
        .filter(|(_, h)| !STRUCTURE_KEYS.contains(&h.key.as_str()) && !support::is_variant_tag(&h.key));
    for (i, Header { key, value }) in headers {
        if key.trim() == "Time" && start_time.is_some() {
            continue;
        }
        let field = Field::of(key).map(|(f, _)| f);
        fields.extend(field);
        let read_from_here = read_from.iter().any(|&(f, _, j)| Some(f) == field && j == i);
        let kif_key = field
            .filter(|_| read_from_here)
            .and_then(|f| f.kif_key(handicap))
            .filter(|k| key.is_ascii() && !has_key(k));
        let mut value = one_line(value);
        // Another format's start under the KIF key: the date it gives, as KIF writes dates,
        // unless its text says more than that date (`Z` after a time), which is kept.
        let says_more = matches!(field, Some(Field::Start | Field::End))
            && support::says_more_than_its_date(&value, parse_date(&value));
        if let (Some(_), Some(Field::Start), Some(date), false) =
            (kif_key, field, start_time.or(game.info.start), says_more)
        {
            value = slash_date(&date);
        }
        // And its end (Western `EndDate` writes the day with dots), the one it gives itself.
        if let (Some(_), Some(Field::End), Some(date), false) =
            (kif_key, field, parse_date(&value), says_more)
        {
            value = slash_date(&date);
        }
        // A key is one line too, and a full-width colon in it would end it early.
        let key = one_line(kif_key.unwrap_or(key.as_str())).replace('：', ":");
        if key == "手合割" {
            wrote_handicap = true;
            let variant = game.start.variant();
            if variant != Variant::Standard && named_variant(&value) != Some(Ok(variant)) {
                value = variant.japanese().to_string();
            }
            if let Start::Standard(h) = game.start {
                // A name nobody defines reads as the even game: it is kept when that is right.
                let reads_as = match handicap_of_name(&value) {
                    Some(named) => named,
                    None => Some(Handicap::Even),
                };
                if reads_as != Some(h) {
                    value = h.japanese().to_string();
                }
            }
        }
        // A header whose line reads as a variation's start (`変化：1手`) is written with a space
        // before its colon, which the reader drops from a key, so that it reads back a header.
        let colon = if variation_start(&format!("{key}：{value}")).is_some() { " ：" } else { "：" };
        let _ = writeln!(out, "{key}{colon}{value}");
    }
    let info = &game.info;
    let extra: [(Field, Option<String>); 8] = [
        (Field::Event, info.event.clone()),
        (Field::Site, info.site.clone()),
        (Field::Start, info.start.map(|d| d.to_string())),
        (Field::End, info.end.map(|d| d.to_string())),
        (Field::TimeControl, info.time_control.clone()),
        (Field::Black, info.black.as_ref().map(|p| p.full.clone())),
        (Field::White, info.white.as_ref().map(|p| p.full.clone())),
        (Field::Opening, info.opening.clone()),
    ];
    for (field, value) in extra {
        if let (Some(value), Some(key)) = (value, field.kif_key(handicap)) {
            if !fields.contains(&field) {
                let _ = writeln!(out, "{key}：{}", one_line(&value));
            }
        }
    }
    match &game.start {
        Start::Standard(h) if !wrote_handicap => {
            let _ = writeln!(out, "手合割：{}", h.japanese());
        }
        Start::Standard(_) => {}
        // Another game is named, not drawn: its start is the game's (see `Format::holds_start`).
        Start::Custom(setup) if setup.variant != Variant::Standard => {
            if !wrote_handicap {
                let _ = writeln!(out, "手合割：{}", setup.variant.japanese());
            }
        }
        Start::Custom(setup) => out.push_str(&bod::write_bod(setup)),
    }
}

/// What a format does with each part of a game, in writing order.
trait Sink {
    /// A move of the current line; `pos` is the position before it, `number` its move number,
    /// `branches` whether a variation replaces it.
    fn play(&mut self, pos: &Position, mv: Move, number: u32, entry: Option<&MoveEntry>, branches: bool);
    /// The final move of a game that ended by it being a foul, as the record wrote it; `pos`
    /// is the position it was played in. Whether it was written as a move: a format that could
    /// write it only as a move that reads back as another writes it as a comment instead.
    fn foul(&mut self, pos: &Position, text: &str, number: u32, entry: Option<&MoveEntry>) -> bool;
    /// The ending of the current line; `turn` is the side to move then.
    fn ending(&mut self, ending: &Ending, number: u32, turn: Color, outcome: Option<Outcome>);
    /// The start of a variation replacing move `number`.
    fn variation(&mut self, number: u32);
    /// The seconds each side has used so far, for a format that writes running totals: a
    /// variation's clock runs from before the move it replaces.
    fn clock(&self) -> [u32; 2] {
        [0; 2]
    }
    /// Sets the clock back to what [`Sink::clock`] gave.
    fn set_clock(&mut self, _clock: [u32; 2]) {}
}

/// One line of play to write.
struct LineOut<'a> {
    number: u32,
    entries: &'a [MoveEntry],
    moves: &'a [Move],
    ending: Option<&'a Ending>,
    foul: Option<String>,
    /// The main line's result, as replay judged it (a variation's is the one its ending states).
    outcome: Option<Outcome>,
    variations: Vec<(&'a Variation, &'a ReplayedVariation)>,
    /// The game's main line (not a variation).
    main: bool,
}

/// The variations of a line paired with their replays, latest branch first.
fn pair<'a>(
    vars: &'a [Variation],
    replayed: &'a [ReplayedVariation],
) -> Vec<(&'a Variation, &'a ReplayedVariation)> {
    let mut pairs = paired_variations(vars, replayed);
    pairs.sort_by_key(|(v, _)| Reverse(v.ply));
    pairs
}

/// Walks a replayed game in writing order.
fn walk(game: &Game, replayed: &ReplayedGame, sink: &mut impl Sink) {
    let Ok(mut pos) = Position::from_setup(replayed.start.clone()) else { return };
    let foul = replayed
        .illegal_ending
        .as_ref()
        .and_then(|_| game.moves.get(replayed.moves.len()))
        .and_then(|e| foul_text(&e.token, &replayed.end));
    // The ending replay judged, in the record's words when they say the same (a mate the
    // record calls 投了 is written 詰み, as every other format writes it).
    // The record's time and comments for its ending stay with the ending written.
    let judged;
    let ending = match (replayed.termination, game.ending.as_ref()) {
        (Some(t), e) if e.is_none_or(|e| e.termination != t) => {
            judged = Ending::judged(Some(t), replayed.outcome).map(|j| match e {
                Some(e) => Ending { seconds: e.seconds, comments: e.comments.clone(), ..j },
                None => j,
            });
            judged.as_ref()
        }
        (_, e) => e,
    };
    // An ending that names no side is written for the side the result says lost: a record's
    // foul stated by a result alone (a Western `[Termination "illegal_move"]`) is `反則負け` on
    // the loser's turn and `反則勝ち` on the winner's; and a game that stopped before the
    // record's last move ends on another turn than the one the record wrote its ending on, so
    // a resignation of the side not to move there is written with its side (`後手 投了`).
    let named;
    let ending = match (ending, replayed.outcome) {
        (Some(e), Some(Outcome::Win(winner)))
            if e.side.is_none()
                && matches!(
                    e.termination,
                    Termination::Resign
                        | Termination::Timeout
                        | Termination::IllegalMove
                        | Termination::Forfeit
                ) =>
        {
            named = Ending { side: Some(winner.flip()), ..e.clone() };
            Some(&named)
        }
        _ => ending,
    };
    let ending = ending.filter(|_| !leaves_ending_out(replayed));
    let line = LineOut {
        number: replayed.start.move_number.max(1),
        entries: &game.moves,
        moves: &replayed.moves,
        ending,
        foul,
        outcome: replayed.outcome,
        variations: pair(&game.variations, &replayed.variations),
        main: true,
    };
    walk_line(&mut pos, line, sink);
}

/// Writes a line played from `pos`, then its variations, each played on `pos` after taking
/// the line back to where the variation branches (latest first, so that every move is
/// taken back once). `pos` ends somewhere after the line's start.
fn walk_line(pos: &mut Position, line: LineOut<'_>, sink: &mut impl Sink) {
    let start = pos.ply();
    let plies = line.moves.len();
    let written = |var: &Variation, rvar: &ReplayedVariation| {
        // Only the main line can be carried on past its last move (see
        // `crate::write::variations_left_out`), and one that stopped at its first move holds
        // nothing to write: no empty `変化` block, nor a mark of one.
        let past_end = var.ply > plies || (var.ply == plies && !line.main);
        let empty = rvar.moves.is_empty() && rvar.stopped.is_some();
        !(past_end || empty)
    };
    let mut branching: Vec<usize> =
        line.variations.iter().filter(|(v, r)| written(v, r)).map(|(v, _)| v.ply).collect();
    branching.sort_unstable();
    let mut next = 0;
    let mut branches_at = |i: usize| {
        while branching.get(next).is_some_and(|&p| p < i) {
            next += 1;
        }
        branching.get(next) == Some(&i)
    };
    // The clock before each move a variation replaces.
    let mut clocks = Vec::new();
    for (i, &mv) in line.moves.iter().enumerate() {
        let branches = branches_at(i);
        if branches {
            clocks.push((i, sink.clock()));
        }
        sink.play(pos, mv, number_at(line.number, i), line.entries.get(i), branches);
        pos.play_unchecked(mv);
    }
    // A variation past the last move replaces the foul or the ending: its clock is the one
    // after the moves.
    clocks.push((line.moves.len(), sink.clock()));
    let mut played = line.moves.len();
    let mut turn = pos.turn();
    if let Some(text) = &line.foul {
        if sink.foul(pos, text, number_at(line.number, played), line.entries.get(played)) {
            played += 1;
            turn = turn.flip();
        }
    }
    if let Some(ending) = line.ending {
        // A variation's result is the one its ending states, for the side it means, as the
        // main line's is where the moves decide nothing (a winner stated alone, the loser to
        // move, means a resignation: a KI2 variation's `まで…の勝ち` is written as KIF's `投了`).
        let judged;
        let (ending, outcome) = match line.main {
            true => (ending, line.outcome),
            false => {
                let (termination, outcome) = crate::replay::stated_by(ending, turn, false, true);
                judged = Ending { termination: termination.unwrap_or(ending.termination), ..ending.clone() };
                (&judged, outcome)
            }
        };
        sink.ending(ending, number_at(line.number, played), turn, outcome);
    }
    for (var, rvar) in line.variations {
        if !written(var, rvar) {
            continue;
        }
        rewind(pos, start + var.ply);
        if let Some(&(_, clock)) = clocks.iter().find(|(i, _)| *i == var.ply) {
            sink.set_clock(clock);
        }
        let number = number_at(line.number, var.ply);
        sink.variation(number);
        let sub = LineOut {
            number,
            entries: &var.moves,
            moves: &rvar.moves,
            ending: var.ending.as_ref(),
            foul: None,
            outcome: None,
            variations: pair(&var.variations, &rvar.variations),
            main: false,
        };
        walk_line(pos, sub, sink);
    }
}

/// Whether KIF and KI2 leave out `replayed`'s ending: a result stated without how the game
/// ended, in a record that stops before its ending. Their `まで` line that names a winner after
/// the last move kept reads back as a resignation there, which the record never said.
pub(crate) fn leaves_ending_out(replayed: &ReplayedGame) -> bool {
    !replayed.status.is_complete()
        && replayed.outcome.is_some()
        && replayed.termination.is_none_or(|t| t == Termination::Unknown)
}

/// The number of the move `i` moves after one numbered `first`.
fn number_at(first: u32, i: usize) -> u32 {
    first.saturating_add(u32::try_from(i).unwrap_or(u32::MAX))
}

/// The text of a written foul in Japanese notation, without a side mark: `同　玉(28)` (with
/// the origin, which KIF needs; KI2, which has none, writes it without). `before` is the
/// position it was played in.
fn foul_text(token: &MoveToken, before: &Setup) -> Option<String> {
    let kind_at = |sq| before.piece_at(sq).map(|p| p.kind);
    let (from, to, kind, promote) = match token {
        MoveToken::Japanese(_) => return Some(token.unmarked()),
        MoveToken::Usi(Move::Normal { from, to, promote }) => (Some(*from), *to, kind_at(*from)?, *promote),
        MoveToken::Usi(Move::Drop { kind, to }) => (None, *to, *kind, false),
        MoveToken::Csa(c) => match c.from {
            Some(from) => {
                let before_kind = kind_at(from).unwrap_or(c.piece);
                (Some(from), c.to, before_kind, before_kind != c.piece)
            }
            None => (None, c.to, c.piece, false),
        },
        MoveToken::Western(_) => return None,
    };
    let mut text = format!("{}{}", crate::notation::japanese::square_text(to), piece_name(kind));
    match from {
        Some(f) => {
            if promote {
                text.push('成');
            }
            let _ = write!(text, "({}{})", f.file().get(), f.rank().get());
        }
        None => text.push('打'),
    }
    Some(text)
}

fn piece_name(kind: PieceKind) -> &'static str {
    crate::notation::japanese::piece_name(kind)
}

/// The name records give a side: 先手/後手, or 下手/上手 in handicap games.
fn side_name(color: Color, handicap: bool) -> &'static str {
    match (color, handicap) {
        (Color::Black, false) => "先手",
        (Color::White, false) => "後手",
        (Color::Black, true) => "下手",
        (Color::White, true) => "上手",
    }
}

/// The word a KIF move row ends a game with, and whether the word is about the side named
/// in [`Ending::side`] (`true`) or its opponent (`反則勝ち`, `不戦勝`). `None` for an outcome
/// stated without its cause, which only the `まで…` line carries.
fn ending_word(ending: &Ending, turn: Color) -> Option<(&'static str, bool)> {
    let about_side = |win: &'static str, lose: &'static str| match ending.side {
        Some(s) if s != turn => (win, false),
        _ => (lose, true),
    };
    Some(match ending.termination {
        // No word: the `まで…` line states the winner, and the moves show the rest.
        Termination::Unknown | Termination::Stalemate => return None,
        Termination::Resign => ("投了", true),
        Termination::Checkmate => ("詰み", true),
        Termination::Timeout => ("切れ負け", true),
        Termination::IllegalMove => match ending.side {
            None => ("反則勝ち", false),
            _ => about_side("反則勝ち", "反則負け"),
        },
        Termination::Repetition => ("千日手", true),
        Termination::PerpetualCheck => ("連続王手の千日手", true),
        Termination::Impasse => ("持将棋", true),
        Termination::EnteringKing => ("入玉勝ち", true),
        Termination::Interrupted | Termination::Error | Termination::TakeBack => ("中断", true),
        Termination::Sealed => ("封じ手", true),
        Termination::Forfeit => about_side("不戦勝", "不戦敗"),
        Termination::MaxMoves => ("最大手数", true),
        Termination::NoMate => ("不詰", true),
        Termination::Draw => ("引き分け", true),
    })
}

/// The word KIF and KI2 write for an ending by `termination` when it reads back as another
/// (an ending by error is written 中断, an interruption), with the ending it reads back as;
/// `None` when it reads back as itself.
pub(crate) fn word_read_as_other(termination: Termination) -> Option<(&'static str, Termination)> {
    let ending = Ending {
        termination,
        side: None,
        stated: None,
        text: String::new(),
        line: 0,
        seconds: None,
        comments: Vec::new(),
    };
    let (word, _) = ending_word(&ending, Color::Black)?;
    let read = crate::kifu::kakinoki::terminal(word).map_or(Termination::Unknown, |t| t.termination);
    (read != termination).then_some((word, read))
}

/// The terminal row text: the word, with the side written before it when the side the word
/// is about is not the side to move (`先手 反則負け`). A draw is about neither side: after a
/// record that stops early, its row falls on the other side's turn, and names no side.
fn ending_row(ending: &Ending, turn: Color, handicap: bool) -> Option<String> {
    let (word, about_side) = ending_word(ending, turn)?;
    let draw = matches!(
        ending.termination,
        Termination::Repetition | Termination::Impasse | Termination::Draw | Termination::MaxMoves
    );
    let actor = ending.side.filter(|_| !draw).map(|s| if about_side { s } else { s.flip() });
    Some(match actor {
        Some(a) if a != turn => format!("{} {word}", side_name(a, handicap)),
        _ => word.to_string(),
    })
}

/// The `まで…` line for a line of `plies` moves that ended so, `outcome` being the result when
/// known (the replay's, or the one the record stated).
fn summary_line(
    plies: u32,
    ending: &Ending,
    turn: Color,
    outcome: Option<Outcome>,
    handicap: bool,
) -> String {
    let winner = match outcome.or(ending.stated) {
        Some(Outcome::Win(c)) => Some(c),
        _ => None,
    };
    let name = |c: Color| side_name(c, handicap);
    let rest = match (ending.termination, winner) {
        (Termination::Checkmate, _) => "詰み".to_string(),
        (Termination::Timeout, Some(w)) => format!("時間切れにより{}の勝ち", name(w)),
        (Termination::IllegalMove, Some(w)) => format!("{}の反則負け", name(w.flip())),
        (Termination::EnteringKing, Some(w)) => format!("{}の入玉勝ち", name(w)),
        (Termination::Forfeit, Some(w)) => format!("{}の不戦勝", name(w)),
        (Termination::Resign | Termination::Stalemate | Termination::Unknown, Some(w)) => {
            format!("{}の勝ち", name(w))
        }
        // A draw that the ending's own word does not state (a record at odds with itself,
        // like 反則勝ち then まで3手で千日手): the plain word for a draw states it.
        (t, None)
            if outcome.or(ending.stated) == Some(Outcome::Draw)
                && !matches!(
                    t,
                    Termination::Repetition
                        | Termination::Impasse
                        | Termination::Draw
                        | Termination::MaxMoves
                ) =>
        {
            "引き分け".to_string()
        }
        _ => ending_row(ending, turn, handicap).unwrap_or_default().replace(' ', "の"),
    };
    format!("まで{plies}手で{rest}")
}

/// The width, in half-width columns, of text as fixed-width fonts show it.
fn columns(text: &str) -> usize {
    text.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
}

/// Pads `text` with spaces to `width` columns.
fn pad(out: &mut String, text: &str, width: usize) {
    out.push_str(text);
    for _ in columns(text)..width {
        out.push(' ');
    }
}

/// Writes comments as `*` lines, one for each line of a comment: a line break inside one
/// (a JKF comment may hold several lines) starts another `*` line, as the formats write a
/// comment of several lines, so that it reads back as those lines. A line that starts with
/// `&` (and no space at either end) is a bookmark read from such a file, written back as one:
/// it reads back the same.
fn write_comments(out: &mut String, comments: &[String]) {
    for line in comment_lines(comments) {
        let bookmark = line.starts_with('&') && trim_space(line) == line;
        let star = if bookmark { "" } else { "*" };
        let _ = writeln!(out, "{star}{line}");
    }
}
