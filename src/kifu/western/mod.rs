//! Western game text (PSN, the PGN of shogi): reading and detection (the
//! writer is [`crate::write::western`]).
//!
//! A game is `[Tag "value"]` lines, then the moves in Western notation (Hodges `P-7f`,
//! `S7bx8c+`, `B*4e`, or Hosking `P76`, `B'45`, read by [`crate::notation::western`]), with
//! `{comments}` (`~` inside one is a line break) or `;` comments, variations in parentheses,
//! and a result (`1-0`, `0-1`, `1/2-1/2`, `*`). A file may hold several games: a tag after
//! moves starts the next one.
//!
//! Policy:
//! - Move numbers are skipped, not trusted (`61.` followed by `52.` occurs). Annotation marks
//!   (`!?` on a move or alone, NAGs such as `$2`) are comments of the move they follow, as
//!   written.
//! - The start comes from `[SFEN]` (or `[FEN]`), which may give the board alone: the side to
//!   move is then White when the board is a handicap's, else Black; otherwise from
//!   `[Handicap]` (`2-piece`, `Two piece`, `二枚落ち` …); otherwise the even game.
//! - The result token, else the `[Result]` tag, is the stated outcome (a tag that says another
//!   result than the token is a `second_ending` warning); `[Termination]` (one of
//!   kifudex's termination names, or PGN's `time forfeit`, `rules infraction`, `abandoned`)
//!   says how the game ended. A decided game without it is read as a resignation, a drawn one
//!   as a draw.
//! - A word that is no move stops the game there (the moves before it are kept); reading goes
//!   on with the next game.
//! - Comments before the first tag are the game's that the tags start. A `{` comment ends at
//!   its `}`; a line before it that starts with a well-formed tag (`[Event "…"]`) ends it
//!   there, left open, so that a comment never takes the next game. Left open among a game's moves it stops the game
//!   (`bad_comment`: the rest of the moves may be in it); before the game's tags or after its
//!   result it is a comment, with the warning `unclosed_comment`. A `(` left open stops the
//!   game at it (`bad_variation`).
//!
//! # Yari shogi
//!
//! A game is yari shogi's when its `[Variant]` tag says so (`Yari shogi`, `yari`, …), when its
//! `[SFEN]` is seven squares wide, when the reader is told so ([`read_as`]), or when its
//! moves name a yari piece (`YN`, `YB`, `YR` exist only in yari shogi): the moves read before
//! such a word are read again as yari moves. Its moves are then read with yari letters
//! (`P-7f`, `YNx7c=`, `G-4h`), and it starts from the yari start position unless an `[SFEN]`
//! gives another; there are no yari handicaps (a `[Handicap]` naming the even game, `Even`,
//! `none` or `平手`, says no handicap, and is read so). A `[Handicap]` that names a game, as
//! KIF's 手合割 does (`槍将棋`), says the game as `[Variant]` does; a `[Variant]` or
//! `[Handicap]` naming a game kifudex does not play (`Chu shogi`, `中将棋`) stops the game with
//! that reason (`bad_header`). Tags that contradict each other (a `[Variant]`
//! of one game and an `[SFEN]` of the other) stop the game with the reason.

mod tokens;

use tokens::{Token, Tokens};

use crate::{
    kifu::{
        Ending, Game, Header, Info, MoveEntry, Outcome, ReadProblem, Start, Termination, Variation, Warning,
        game::comments_after,
        info,
        support::{MAX_DEPTH, TooManyMoves, UnknownVariant, VariantConflict, named_variant, room_for_move},
    },
    notation::{MoveSyntaxError, MoveToken, western},
    shogi::{Color, Handicap, Setup, SfenError, Variant},
    text::excerpt,
};

/// Why a Western game stopped being read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WesternError {
    #[error("'{0}' is not a tag like [Event \"…\"]")]
    Tag(String),
    #[error(transparent)]
    Move(#[from] crate::notation::MoveSyntaxError),
    #[error("bad SFEN tag: {0}")]
    Sfen(SfenError),
    #[error("unknown handicap '{0}'")]
    Handicap(String),
    #[error("'{0}' is not a move")]
    Word(String),
    #[error("a variation with no move before it to replace")]
    Variation,
    #[error("variations nested more than {MAX_DEPTH} deep")]
    TooDeep,
    #[error("a ')' with no variation open")]
    Close,
    #[error("a '(' with no ')' before the game ends")]
    Open,
    #[error("a '{{' comment with no '}}' before the game ends")]
    OpenComment,
    #[error(transparent)]
    UnknownVariant(#[from] UnknownVariant),
    #[error(transparent)]
    VariantConflict(#[from] VariantConflict),
    #[error("there are no yari shogi handicaps (give the start as a seven-file [SFEN])")]
    YariHandicap,
    #[error(transparent)]
    TooManyMoves(#[from] TooManyMoves),
}

impl WesternError {
    /// The reject code (see [`ReadProblem`]'s module).
    pub fn code(&self) -> &'static str {
        match self {
            WesternError::Move(_) | WesternError::Word(_) => "bad_move_text",
            WesternError::Sfen(_) => "bad_board",
            WesternError::Tag(_)
            | WesternError::Handicap(_)
            | WesternError::UnknownVariant(_)
            | WesternError::YariHandicap => "bad_header",
            WesternError::VariantConflict(_) => "wrong_variant",
            WesternError::Variation | WesternError::TooDeep | WesternError::Close | WesternError::Open => {
                "bad_variation"
            }
            WesternError::OpenComment => "bad_comment",
            WesternError::TooManyMoves(_) => "too_many_moves",
        }
    }
}

impl From<SfenError> for WesternError {
    fn from(e: SfenError) -> WesternError {
        WesternError::Sfen(e)
    }
}

/// Reads every game of a Western text; each game's variant is found as the module
/// documentation says.
pub fn read(text: &str) -> Vec<Game> {
    read_as(text, None)
}

/// Reads every game of a Western text as games of `variant`, when given: a game whose tags
/// name the other game then stops with the reason.
pub fn read_as(text: &str, variant: Option<Variant>) -> Vec<Game> {
    read_after(text, 0, variant)
}

/// Reads every game of `text`, a piece of a Western text that starts where a game does, after
/// `before` lines of the whole (see [`crate::kifu::pieces`]), as [`read_as`] reads them in the
/// whole text.
pub fn read_after(text: &str, before: u32, variant: Option<Variant>) -> Vec<Game> {
    let mut games = Vec::new();
    read_games(text, before, variant, |game, _| games.push(game));
    games
}

/// Where `text` can be cut into pieces of at least `bytes` bytes that read as it reads
/// whole: the byte and the number of lines before each cut (the start of a line where a game
/// starts). The text is read to know, a game at a time.
pub(crate) fn cuts(text: &str, bytes: usize, variant: Option<Variant>) -> Vec<(usize, u32)> {
    let mut cuts = Vec::new();
    let mut last = 0;
    read_games(text, 0, variant, |_, next| {
        if let Some((at, before)) = next.filter(|&(at, _)| at - last >= bytes) {
            cuts.push((at, before));
            last = at;
        }
    });
    cuts
}

/// Reads the games of `text` (whose first line is line `before + 1`), handing each to `each`
/// with where the next one starts when it starts a line: its byte and the lines before it.
fn read_games(
    text: &str,
    before: u32,
    variant: Option<Variant>,
    mut each: impl FnMut(Game, Option<(usize, u32)>),
) {
    let mut reader = GameReader::new(variant);
    let mut tokens = Tokens::after(text, before);
    while let Some((line, token)) = tokens.next() {
        let starts_game = matches!(token, Token::Tag(..) | Token::BadTag(_)) && reader.in_moves;
        if starts_game || (reader.done && matches!(token, Token::Word(_))) {
            let next = tokens.starts_line().then(|| (tokens.start(), line - 1));
            if let Some(game) = std::mem::replace(&mut reader, GameReader::new(variant)).finish() {
                each(game, next);
            }
        }
        if reader.game.line == 0 {
            reader.game.line = line;
        }
        if reader.failed {
            reader.pass(&token);
            continue;
        }
        // A `(` that fails (nothing to vary, too deep) opens a variation all the same.
        let opens = matches!(token, Token::Open);
        if let Err(error) = reader.token(line, token) {
            reader.game.problem = Some(ReadProblem::new(line, error));
            reader.failed = true;
            reader.depth = reader.open.len() + usize::from(opens);
        }
    }
    if let Some(game) = reader.finish() {
        each(game, None);
    }
}

/// Whether `text` looks like Western game text: it starts with a tag, or with a move in
/// Western notation of either game (comments and a move number before it allowed).
pub fn looks_like(text: &str) -> bool {
    let mut words = Tokens::after(text, 0).filter(|(_, t)| {
        !matches!(t, Token::Comment(_) | Token::Unclosed { .. })
            && !matches!(t, Token::Word(w) if is_move_number(w))
    });
    match words.next() {
        Some((_, Token::Tag(..))) => true,
        Some((_, Token::Word(w))) => western::parse(w).is_ok() || western::names_yari_piece(w),
        _ => false,
    }
}

/// `12.`, `3...`, `…`, `...`: a move number or the ellipsis for White's move.
fn is_move_number(word: &str) -> bool {
    let rest = word.trim_start_matches(|c: char| c.is_ascii_digit());
    !rest.is_empty() && rest.chars().all(|c| c == '.' || c == '…')
}

/// The outcome a result word states; `Some(None)` for `*` (no result).
fn result(word: &str) -> Option<Option<Outcome>> {
    Some(match word {
        "1-0" => Some(Outcome::Win(Color::Black)),
        "0-1" => Some(Outcome::Win(Color::White)),
        "1/2-1/2" | "½-½" | "1/2" => Some(Outcome::Draw),
        "*" => None,
        _ => return None,
    })
}

/// The termination a `[Termination]` tag names.
fn termination(value: &str) -> Option<Termination> {
    let value = value.trim().to_ascii_lowercase();
    Termination::from_name(&value).filter(|t| *t != Termination::Unknown).or(match value.as_str() {
        "time forfeit" => Some(Termination::Timeout),
        "rules infraction" => Some(Termination::IllegalMove),
        "abandoned" | "unterminated" => Some(Termination::Interrupted),
        _ => None,
    })
}

/// The normalized headers of a Western game: as every format's, except that a `Time` tag
/// completes the `Date` tag's day.
fn info(headers: &[Header]) -> Info {
    let mut info = info::normalize(headers, info::Remarks::None);
    let tag = |key: &str| headers.iter().find(|h| h.key == key).map(|h| h.value.trim());
    if let (Some(date), Some(time)) = (tag("Date"), tag("Time")) {
        info.start = info::parse_date(&format!("{date} {time}")).or(info.start);
    }
    info
}

/// The start the tags give, in a game of `variant`.
fn start(headers: &[Header], variant: Variant) -> Result<Start, WesternError> {
    let tag =
        |key: &str| headers.iter().find(|h| h.key == key).map(|h| h.value.trim()).filter(|v| !v.is_empty());
    if let Some(sfen) = tag("SFEN").or_else(|| tag("FEN")) {
        let fields = sfen.split_ascii_whitespace().count();
        let setup: Setup = match fields {
            1 => {
                let board_only: Setup = format!("{sfen} b -").parse()?;
                let handicap = Handicap::ALL.into_iter().find(|h| h.setup().board == board_only.board);
                let turn = handicap.map_or(Color::Black, |h| h.setup().turn);
                Setup { turn, ..board_only }
            }
            2 => format!("{sfen} -").parse()?,
            _ => sfen.parse()?,
        };
        if setup.variant != variant {
            return Err(VariantConflict { fixed: variant, what: "its SFEN", other: setup.variant }.into());
        }
        return Ok(Start::of(setup));
    }
    match (tag("Handicap"), variant) {
        // A game's name (`槍将棋`, as KIF's 手合割 writes it) is its even game; the tag has
        // fixed the variant already.
        (Some(name), _) if matches!(named_variant(name), Some(Ok(_))) => Ok(Start::of(Setup::start(variant))),
        // The even game's name (`Even`, `none`, `平手`) says there is no handicap.
        (Some(name), Variant::Yari) if handicap(name) == Some(Handicap::Even) => {
            Ok(Start::Custom(Setup::start(Variant::Yari)))
        }
        (Some(_), Variant::Yari) => Err(WesternError::YariHandicap),
        (Some(name), _) => {
            handicap(name).map(Start::Standard).ok_or_else(|| WesternError::Handicap(excerpt(name)))
        }
        (None, Variant::Yari) => Ok(Start::Custom(Setup::start(Variant::Yari))),
        (None, Variant::Standard) => Ok(Start::default()),
    }
}

/// The game a tag says the record is of, if it says: `[Variant]` by name, `[SFEN]` or `[FEN]`
/// by the width of its board, `[Handicap]` naming a game (`槍将棋`) or a shogi handicap (not
/// the even game). A name written as a game's that is no game kifudex plays is refused.
fn tag_variant(key: &str, value: &str) -> Result<Option<(Variant, &'static str)>, WesternError> {
    let value = value.trim();
    Ok(match key {
        _ if key.eq_ignore_ascii_case("Variant") => match Variant::from_name(value) {
            Some(v) => Some((v, "its [Variant] tag")),
            None if value.is_empty() => None,
            None => return Err(UnknownVariant(excerpt(value)).into()),
        },
        "Handicap" if named_variant(value).is_some() => {
            named_variant(value).transpose()?.map(|v| (v, "its [Handicap] tag"))
        }
        "SFEN" | "FEN" if !value.is_empty() => {
            let board = value.split_ascii_whitespace().next().unwrap_or("");
            let first = board.split('/').next().unwrap_or("");
            let width: usize =
                first.chars().map(|c| c.to_digit(10).map_or(usize::from(c != '+'), |d| d as usize)).sum();
            let v =
                if width == usize::from(Variant::Yari.files()) { Variant::Yari } else { Variant::Standard };
            Some((v, "its SFEN"))
        }
        // Only a real handicap is shogi's: the even game's name is written on records of any game.
        "Handicap" if !value.is_empty() && handicap(value) != Some(Handicap::Even) => {
            Some((Variant::Standard, "its [Handicap] tag"))
        }
        _ => None,
    })
}

/// Reads every move of `entries` (and of `variations`) again as a move of `variant`: the moves
/// read before a word showed the game's variant.
fn reread(
    entries: &mut [MoveEntry],
    variations: &mut [Variation],
    variant: Variant,
) -> Result<(), MoveSyntaxError> {
    for entry in entries.iter_mut() {
        if let MoveToken::Western(m) = &entry.token {
            entry.token = MoveToken::Western(western::parse_in(&m.to_string(), variant)?);
        }
    }
    for v in variations {
        reread(&mut v.moves, &mut v.variations, variant)?;
    }
    Ok(())
}

/// A handicap by name: kifudex's own (`2-piece`), Japanese (`二枚落ち`), or English as
/// Western texts write it (`Two piece`, `8 piece`, `Rook+Lance`, `Left lance`).
fn handicap(name: &str) -> Option<Handicap> {
    if let Some(h) = Handicap::from_name(name) {
        return Some(h);
    }
    let mut slug = name.trim().to_ascii_lowercase().replace([' ', '_', '+'], "-");
    for (word, digit) in [("two", "2"), ("three", "3"), ("four", "4"), ("five", "5"), ("six", "6")] {
        slug = slug.replace(word, digit);
    }
    for (word, digit) in [("seven", "7"), ("eight", "8"), ("ten", "10")] {
        slug = slug.replace(word, digit);
    }
    let slug = slug.replace("-and-", "-").replace("-handicap", "").replace("pieces", "piece");
    match slug.as_str() {
        "none" | "even" | "" => Some(Handicap::Even),
        "left-lance" => Some(Handicap::Lance),
        other => Handicap::from_name(other),
    }
}

/// A line of moves being read: the main line or a variation.
#[derive(Default)]
struct Branch {
    /// The index, in the line it branches from, of the move it replaces.
    ply: usize,
    moves: Vec<MoveEntry>,
    variations: Vec<Variation>,
    /// Comments read before the variation's first move.
    leading: Vec<String>,
    /// The line of its `(`.
    line: u32,
}

#[derive(Default)]
struct GameReader {
    game: Game,
    /// The game's variant once something fixed it (the caller, a tag, a yari piece), with what
    /// fixed it; standard shogi until then.
    variant: Option<(Variant, &'static str)>,
    /// Open variations, innermost last.
    open: Vec<Branch>,
    /// A move, comment or result was read: a tag now starts another game.
    in_moves: bool,
    /// The result was read: a move now starts another game.
    done: bool,
    failed: bool,
    /// Once failed: the variations open where it stopped, less those closed since.
    depth: usize,
    /// The outcome of the result word, when one was read (`Some(None)` for `*`).
    result: Option<Option<Outcome>>,
    result_line: u32,
    /// Comments after the result word: the ending's, when the game has one.
    after_result: Vec<String>,
    /// The line of each tag, by the tag's index in the headers.
    tag_lines: Vec<u32>,
}

impl GameReader {
    fn new(variant: Option<Variant>) -> GameReader {
        GameReader { variant: variant.map(|v| (v, "the variant asked for")), ..GameReader::default() }
    }

    fn variant(&self) -> Variant {
        self.variant.map_or(Variant::Standard, |(v, _)| v)
    }

    /// Fixes the game's variant to `variant`, because of `what`; a different one already fixed
    /// is a conflict.
    fn fix_variant(&mut self, variant: Variant, what: &'static str) -> Result<(), WesternError> {
        match self.variant {
            Some((fixed, _)) if fixed != variant => {
                Err(VariantConflict { fixed, what, other: variant }.into())
            }
            Some(_) => Ok(()),
            None => {
                self.variant = Some((variant, what));
                Ok(())
            }
        }
    }

    /// Reads a move word as a move of the game's variant. While nothing has fixed the variant,
    /// a word naming a yari piece makes the game yari shogi's, and the moves before it are
    /// read again.
    fn read_move(&mut self, word: &str) -> Result<MoveToken, WesternError> {
        match western::parse_in(word, self.variant()) {
            Ok(mv) => Ok(MoveToken::Western(mv)),
            Err(e) if self.variant.is_none() && western::names_yari_piece(word) => {
                self.variant = Some((Variant::Yari, "its moves"));
                reread(&mut self.game.moves, &mut self.game.variations, Variant::Yari)?;
                for branch in &mut self.open {
                    reread(&mut branch.moves, &mut branch.variations, Variant::Yari)?;
                }
                western::parse_in(word, Variant::Yari).map(MoveToken::Western).map_err(|_| e.into())
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Passes over a token of a game that stopped, noting only where the game ends: tags after
    /// its moves, or a move after its result, start the next game, as they do after a game read
    /// to its end.
    fn pass(&mut self, token: &Token<'_>) {
        match token {
            Token::Tag(..) | Token::BadTag(_) => return,
            Token::Open => self.depth += 1,
            Token::Close => self.depth = self.depth.saturating_sub(1),
            Token::Word(word) if self.depth == 0 && result(word).is_some() => self.done = true,
            Token::Comment(_) | Token::Unclosed { .. } | Token::Word(_) => {}
        }
        self.in_moves = true;
    }

    fn token(&mut self, line: u32, token: Token<'_>) -> Result<(), WesternError> {
        self.in_moves |= match token {
            Token::Tag(..) | Token::BadTag(_) => false,
            // Comments before the first tag are the game's that the tags start.
            Token::Comment(_) | Token::Unclosed { .. } => !self.game.headers.is_empty(),
            Token::Open | Token::Close | Token::Word(_) => true,
        };
        match token {
            Token::Tag(key, value) => {
                let fixed = tag_variant(key, &value);
                self.game.headers.push(Header { key: key.to_string(), value });
                self.tag_lines.push(line);
                if let Some((variant, what)) = fixed? {
                    self.fix_variant(variant, what)?;
                }
            }
            Token::BadTag(text) => return Err(WesternError::Tag(excerpt(text))),
            Token::Unclosed { text, before_tag } => {
                // After the result, or before anything of a game whose tags follow, no move can
                // be inside it: it is a comment, and said to be left open. Anywhere else the
                // moves after it were written inside it, and the game cannot be read further.
                let first =
                    self.game.headers.is_empty() && self.game.moves.is_empty() && self.open.is_empty();
                if !(self.done || (first && before_tag)) {
                    self.in_moves = true;
                    return Err(WesternError::OpenComment);
                }
                let ends = if before_tag { "where the next tags start" } else { "at the end of the text" };
                self.game.warnings.push(Warning {
                    line,
                    ply: None,
                    code: "unclosed_comment",
                    message: format!("a '{{' comment with no '}}': read as a comment that ends {ends}"),
                });
                self.comment(text);
            }
            Token::Comment(text) => self.comment(text),
            Token::Open => {
                if self.open.len() >= MAX_DEPTH {
                    return Err(WesternError::TooDeep);
                }
                let ply = self.moves().len().checked_sub(1).ok_or(WesternError::Variation)?;
                self.open.push(Branch { ply, line, ..Branch::default() });
            }
            Token::Close => {
                let branch = self.open.pop().ok_or(WesternError::Close)?;
                self.close(branch);
            }
            Token::Word(word) => {
                if is_move_number(word) {
                    return Ok(());
                }
                // A mark on the move before (`!?`, `$1`) is kept as a comment of it, as written.
                if is_annotation(word) {
                    self.comment(word);
                    return Ok(());
                }
                if let Some(outcome) = result(word) {
                    if self.open.is_empty() && !self.done {
                        self.result = Some(outcome);
                        self.result_line = line;
                        self.done = true;
                    }
                    return Ok(());
                }
                // No move is long; a huge word is junk, and is not worth parsing.
                if word.len() > 32 {
                    return Err(WesternError::Word(excerpt(word)));
                }
                let token = self.read_move(word)?;
                room_for_move(self.moves())?;
                let comments =
                    self.open.last_mut().map(|b| std::mem::take(&mut b.leading)).unwrap_or_default();
                self.moves().push(MoveEntry { token, line, seconds: None, comments });
                // And so is one written on the move (`P-7f!?`, `P-7f$1`); a check or mate mark
                // (`ch`, `#`, `†`) is the move's, and a full stop the sentence's.
                let marks = word[western::strip_annotations(word).len()..].replace("ch", "");
                let marks = marks.replace(['#', '†', '.', ' '], "");
                if !marks.is_empty() {
                    self.comment(&marks);
                }
            }
        }
        Ok(())
    }

    /// Adds a comment where it stands: to the last move read, before a variation's first move,
    /// or to the game's start. Each line (between `~`) loses the ASCII spaces and tabs at its
    /// ends, line breaks of the file's own included; other spaces (a full-width one that
    /// indents Japanese text) are the comment's.
    fn comment(&mut self, text: &str) {
        let comments =
            text.split('~').map(|part| part.replace(['\r', '\n'], " ").trim_matches([' ', '\t']).to_string());
        if self.result.is_some() && self.open.is_empty() {
            self.after_result.extend(comments);
        } else if let Some(entry) = self.moves().last_mut() {
            entry.comments.extend(comments);
        } else if let Some(branch) = self.open.last_mut() {
            // Before a variation's first move: it goes with that move.
            branch.leading.extend(comments);
        } else {
            self.game.comments.extend(comments);
        }
    }

    /// The moves of the line being read.
    fn moves(&mut self) -> &mut Vec<MoveEntry> {
        match self.open.last_mut() {
            Some(branch) => &mut branch.moves,
            None => &mut self.game.moves,
        }
    }

    fn close(&mut self, branch: Branch) {
        let var =
            Variation { ply: branch.ply, moves: branch.moves, ending: None, variations: branch.variations };
        match self.open.last_mut() {
            Some(parent) => parent.variations.push(var),
            None => self.game.variations.push(var),
        }
    }

    /// The line of the first of these tags the game has, else the game's first line.
    fn tag_line(&self, keys: &[&str]) -> u32 {
        keys.iter()
            .find_map(|k| self.game.headers.iter().position(|h| h.key == *k))
            .and_then(|i| self.tag_lines.get(i).copied())
            .unwrap_or(self.game.line)
    }

    /// A warning about the tag `key`, at its line.
    fn warn_at_tag(&mut self, key: &str, code: &'static str, message: String) {
        let line = self.tag_line(&[key]);
        self.game.warnings.push(Warning { line, ply: None, code, message });
    }

    fn finish(mut self) -> Option<Game> {
        if self.game.line == 0 {
            return None;
        }
        if let (Some(first), None) = (self.open.first(), &self.game.problem) {
            // Where the variation was meant to end is not known: the game stops at its `(`.
            self.game.problem = Some(ReadProblem::new(first.line, WesternError::Open));
            self.open.clear();
        }
        while let Some(branch) = self.open.pop() {
            self.close(branch);
        }
        self.game.info = info(&self.game.headers);
        match start(&self.game.headers, self.variant()) {
            Ok(start) => self.game.start = start,
            // The moves cannot be placed without their start: keep none of them.
            Err(error) => {
                let line = self.tag_line(&["SFEN", "FEN", "Handicap"]);
                // The game stays one of the variant it was read as.
                if self.variant() != Variant::Standard {
                    self.game.start = Start::Custom(Setup::start(self.variant()));
                }
                self.game.moves.clear();
                self.game.variations.clear();
                // A tag that already stopped the game as no tag or no game kifudex plays
                // (`[Handicap "中将棋"]`) says why better than the start it left unread.
                if self.game.problem.as_ref().is_none_or(|p| p.code() != "bad_header") {
                    self.game.problem = Some(ReadProblem::new(line, error));
                }
            }
        }
        if let (Some(token), Some(written)) = (self.result, self.game.header("Result")) {
            // The tag is a copy of the word after the moves; where they differ, the word stands.
            if let Some(Some(stated)) = result(written.trim()).filter(|tagged| *tagged != token) {
                let message = format!(
                    "the Result tag says {} where the result after the moves (line {}) says {}: the latter stands",
                    result_word(Some(stated)),
                    self.result_line,
                    result_word(token),
                );
                self.warn_at_tag("Result", "second_ending", message);
            }
        }
        let tag = |key: &str| self.game.header(key).map(str::to_string);
        let (outcome, text, line) = match self.result {
            Some(outcome) => (outcome, None, self.result_line),
            None => (
                tag("Result").as_deref().and_then(result).flatten(),
                tag("Result"),
                self.tag_line(&["Result"]),
            ),
        };
        // `unknown` says what no tag says (earlier kifudex builds wrote it for a result whose
        // manner no record said): the game ends as its result says.
        let written =
            tag("Termination").filter(|t| !t.trim().is_empty() && !t.trim().eq_ignore_ascii_case("unknown"));
        let how = written.as_deref().and_then(termination);
        if let (Some(text), None) = (&written, how) {
            let message = format!(
                "the Termination tag '{}' names no ending kifudex knows: the game ends as its result says",
                text.trim()
            );
            self.warn_at_tag("Termination", "unknown_ending", message);
        }
        let termination = how.or(match outcome {
            Some(Outcome::Win(_)) => Some(Termination::Unknown),
            Some(Outcome::Draw) => Some(Termination::Draw),
            None => None,
        });
        if let Some(termination) = termination {
            let text = text.unwrap_or_else(|| result_word(outcome).to_string());
            self.game.ending = Some(Ending {
                termination,
                side: None,
                stated: outcome,
                text,
                line,
                seconds: None,
                comments: Vec::new(),
            });
        }
        // With no ending to hold them, they are the last move's (or the start's).
        let (game, after) = (&mut self.game, std::mem::take(&mut self.after_result));
        comments_after(&mut game.ending, &mut game.moves, &mut game.comments).extend(after);
        Some(self.game)
    }
}

/// `!`, `?!` and the like standing alone.
fn is_annotation(word: &str) -> bool {
    word.chars().all(|c| matches!(c, '!' | '?'))
        || (word.starts_with('$') && word.len() > 1 && word[1..].bytes().all(|b| b.is_ascii_digit()))
}

/// The result word for an outcome.
pub(crate) fn result_word(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        Some(Outcome::Win(Color::Black)) => "1-0",
        Some(Outcome::Win(Color::White)) => "0-1",
        Some(Outcome::Draw) => "1/2-1/2",
        None => "*",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handicap_names() {
        assert_eq!(handicap("2-piece"), Some(Handicap::TwoPieces));
        assert_eq!(handicap("Two piece"), Some(Handicap::TwoPieces));
        assert_eq!(handicap("8 piece"), Some(Handicap::EightPieces));
        assert_eq!(handicap("Rook+Lance"), Some(Handicap::RookLance));
        assert_eq!(handicap("Left lance"), Some(Handicap::Lance));
        assert_eq!(handicap("二枚落ち"), Some(Handicap::TwoPieces));
        assert_eq!(handicap("queen odds"), None);
    }

    #[test]
    fn numbers_annotations_and_results() {
        assert!(is_move_number("61.") && is_move_number("1...") && is_move_number("..."));
        assert!(!is_move_number("61") && !is_move_number("P-7f"));
        assert!(is_annotation("$18") && is_annotation("!?") && !is_annotation("$"));
        assert_eq!(result("0-1"), Some(Some(Outcome::Win(Color::White))));
        assert_eq!(result("*"), Some(None));
        assert_eq!(termination("time forfeit"), Some(Termination::Timeout));
        assert_eq!(termination("perpetual_check"), Some(Termination::PerpetualCheck));
    }

    #[test]
    fn games_split_at_tags_and_after_results() {
        let games = read("[Event \"a\"]\nP-7f P-3d 1-0\n[Event \"b\"]\nP-2f *\n\nP-7f 0-1\nP-7f");
        assert_eq!(games.len(), 4);
        assert_eq!(games.iter().map(|g| g.moves.len()).collect::<Vec<_>>(), [2, 1, 1, 1]);
        assert_eq!(games[1].ending, None);
        assert_eq!(games[2].line, 6);
    }

    #[test]
    fn variations_and_comments() {
        let game = &read("{start} 1. P-7f {good~very} 2. P-3d (2... P-8d {alt} (2... P-5d)) 3. P-2f")[0];
        assert_eq!(game.comments, ["start"]);
        assert_eq!(game.moves[0].comments, ["good", "very"]);
        assert_eq!(game.variations.len(), 1);
        let var = &game.variations[0];
        assert_eq!((var.ply, var.moves.len()), (1, 1));
        assert_eq!(var.moves[0].comments, ["alt"]);
        assert_eq!(var.variations[0].ply, 0);
        assert_eq!(game.moves.len(), 3);
    }
}
