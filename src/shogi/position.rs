//! Validated positions: checked play, legal moves, check, mate and repetition.
//!
//! A [`Position`] is a position of either game ([`Variant`]): the setup it was made from
//! decides, and every method answers by that game's rules. For standard shogi it is a facade
//! over the rules crate; for yari shogi it asks [`super::yari`]. Either way it keeps its own
//! copy of the board (a [`Setup`]) and its own [`PositionKey`], so everything the rest of
//! kifudex reads (pieces, hands, SFEN, keys) is ours, and repetition is judged here for both.
//!
//! For standard shogi the facade keeps the inner position's history short. After each move
//! the crate scans the positions back to its start, or to its last null move, for a
//! repetition, which the facade judges itself ([`Position::repetition`]); so every
//! [`SCAN_EVERY`] plies, when the side to move is not in check, the facade plays two null
//! moves, which leave the position as it was and end the scan there (a tenth of the cost of
//! replaying a game, where the scan took a quarter). And since the crate counts plies in 16
//! bits, every [`REBUILD_EVERY`] plies it rebuilds the inner position from its own board, in
//! place, allocating nothing. Nothing outside notices: undo takes the null moves back with
//! the move they follow, and undo past a rebuild simply rebuilds again.

use rsshogi::{
    board::{
        BoardArray, MoveList, Position as Inner, PositionState,
        movegen::{LegalAll, generate_moves, generate_moves_to},
    },
    types as rs,
};

use super::{
    Color, Handicap, IllegalMove, IllegalMoveKind, Move, Piece, PieceKind, PositionKey, Setup, Square,
    Variant,
    rules::{self, Reach},
    setup::STARTPOS_SFEN,
    yari,
};

/// Plies between rebuilds of the inner position (see the module documentation): the crate's
/// ply count, which null moves advance too, stays far from its 16-bit bound.
const REBUILD_EVERY: usize = 256;

/// Plies between the pairs of null moves that end the crate's scan for a repetition (see the
/// module documentation).
const SCAN_EVERY: usize = 8;

/// Why a [`Setup`] is not a position that can be played from.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("{color} has more than one {}", .variant.king_name())]
    TooManyKings { color: Color, variant: Variant },
    #[error("there are more {kind}s than a full set holds ({count} > {max})", kind = .kind.sfen())]
    TooManyPieces { kind: PieceKind, count: u32, max: u8 },
    #[error("the side not to move is in check (its {} could be taken)", .variant.king_name())]
    OpponentInCheck { variant: Variant },
    #[error("{square} is off the {} board", .variant.title().to_lowercase())]
    OffBoard { square: Square, variant: Variant },
    #[error("{kind} is no piece of {}", .variant.title().to_lowercase(), kind = .kind.sfen())]
    ForeignPiece { kind: PieceKind, variant: Variant },
}

/// One played move, with what undoing it needs.
#[derive(Clone, Debug)]
struct Played {
    mv: Move,
    key_before: PositionKey,
    captured: Option<Piece>,
    gave_check: bool,
    /// The rules crate's move, for undo while its position still holds this ply (standard
    /// shogi only).
    inner: rs::Move32,
    /// Whether two null moves followed it in the rules crate's position.
    nulls: bool,
}

/// What answers legality: the rules crate's position for standard shogi; for yari shogi the
/// board itself, which [`yari`] reads.
// The standard position is by far the common case: boxing it would cost every clone and
// every replayed game an allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
enum Engine {
    Standard(Inner),
    Yari,
}

/// What repetition (千日手) says about the current position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repetition {
    /// The position has not occurred before.
    None,
    /// The position has occurred `times` times in all (2 or 3), this time included.
    Repeated { times: u32 },
    /// The fourth occurrence: 千日手, a draw.
    Draw,
    /// The fourth occurrence, every move of `loser` since the first occurrence having given
    /// check: 連続王手の千日手, which `loser` loses.
    PerpetualCheck { loser: Color },
}

/// A legal position with its history since the start.
pub struct Position {
    engine: Engine,
    setup: Setup,
    key: PositionKey,
    history: Vec<Played>,
    /// The ply at which the inner position was last built; it can undo back to here.
    inner_base: usize,
    /// Plies played since the inner position's scan for a repetition was last cut short.
    unscanned: usize,
}

impl Clone for Position {
    fn clone(&self) -> Position {
        Position {
            engine: self.engine.clone(),
            setup: self.setup.clone(),
            key: self.key,
            history: self.history.clone(),
            inner_base: self.inner_base,
            unscanned: self.unscanned,
        }
    }

    /// Copies `source` into `self`, reusing `self`'s memory: the rules crate's state stack
    /// is allocated once instead of once per game, which replaying many games notices.
    fn clone_from(&mut self, source: &Position) {
        match (&mut self.engine, &source.engine) {
            (Engine::Standard(mine), Engine::Standard(theirs)) => mine.clone_from(theirs),
            (mine, theirs) => mine.clone_from(theirs),
        }
        self.setup.clone_from(&source.setup);
        self.key = source.key;
        self.history.clone_from(&source.history);
        self.inner_base = source.inner_base;
        self.unscanned = source.unscanned;
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Position").field("sfen", &self.sfen()).field("key", &self.key).finish()
    }
}

impl Default for Position {
    /// The even-game start position.
    fn default() -> Position {
        Position::startpos()
    }
}

impl Position {
    /// The even-game start position.
    pub fn startpos() -> Position {
        Position::from_setup(STARTPOS_SFEN.parse().expect("the start position is valid SFEN"))
            .expect("the start position is legal")
    }

    /// A standard start position (平手 or a handicap).
    pub fn handicap(handicap: Handicap) -> Position {
        Position::from_setup(handicap.setup()).expect("the standard start positions are legal")
    }

    /// The start position of `variant` (for standard shogi, the even game).
    pub fn start(variant: Variant) -> Position {
        Position::from_setup(Setup::start(variant)).expect("the start positions are legal")
    }

    /// Checks `setup` and makes it a position.
    ///
    /// Kings may be missing (tsume problems often have only one), but a side may not have two,
    /// nor more pieces than a full set, nor the opponent's king in check while it is not the
    /// opponent's turn. A start position may hold what no game can reach, as composed problems
    /// do: two unpromoted pawns of a side on one file, or a piece on a rank where it has no
    /// move. The rules still refuse to create either (二歩, a piece with no further move).
    ///
    /// # Errors
    ///
    /// The first rule the setup breaks, as a [`PositionError`].
    pub fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        validate(&setup)?;
        let key = PositionKey::of(&setup);
        let engine = match setup.variant {
            Variant::Standard => Engine::Standard(build_inner(&setup)),
            Variant::Yari => Engine::Yari,
        };
        Ok(Position { engine, setup, key, history: Vec::new(), inner_base: 0, unscanned: 0 })
    }

    /// The game this is a position of.
    pub fn variant(&self) -> Variant {
        self.setup.variant
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.setup.turn
    }

    /// The piece on `sq`.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.setup.piece_at(sq)
    }

    /// The hand of `color`.
    pub fn hand(&self, color: Color) -> &super::Hand {
        self.setup.hand(color)
    }

    /// The current position as a [`Setup`] (its move number counts the plies played).
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The key of the current position.
    pub fn key(&self) -> PositionKey {
        self.key
    }

    /// The number of plies played since the position was made.
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// The moves played since the position was made.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.history.iter().map(|p| p.mv)
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|p| p.mv)
    }

    /// The current position as SFEN, with its move number.
    pub fn sfen(&self) -> String {
        self.setup.sfen()
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        match &self.engine {
            Engine::Standard(inner) => to_inner(mv).is_some_and(|m| inner.is_legal_move(m)),
            Engine::Yari => yari::is_legal(&self.setup, mv),
        }
    }

    /// Plays `mv` after checking it.
    ///
    /// # Errors
    ///
    /// An [`IllegalMove`] saying why, in the words players use; the position is unchanged.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if self.is_legal(mv) {
            self.apply(mv);
            Ok(())
        } else {
            Err(IllegalMove { mv, kind: self.explain(mv) })
        }
    }

    /// Checks `mv` without playing it.
    ///
    /// # Errors
    ///
    /// An [`IllegalMove`] saying why the move cannot be played.
    pub fn check_move(&self, mv: Move) -> Result<(), IllegalMove> {
        if self.is_legal(mv) { Ok(()) } else { Err(IllegalMove { mv, kind: self.explain(mv) }) }
    }

    /// Plays `mv`, which must be legal here (it came from [`Position::legal_moves`] or was
    /// checked with [`Position::is_legal`]).
    ///
    /// # Panics
    ///
    /// If `mv` is not legal. Moves read from files go through [`Position::play`].
    pub fn play_unchecked(&mut self, mv: Move) {
        debug_assert!(self.is_legal(mv), "play_unchecked takes a legal move: {mv}");
        self.apply(mv);
    }

    fn apply(&mut self, mv: Move) {
        let key_before = self.key;
        self.key = self.key.after(&self.setup, mv);
        let captured = apply_to_setup(&mut self.setup, mv);
        let rebuild = self.history.len() + 1 - self.inner_base >= REBUILD_EVERY;
        self.unscanned += 1;
        let (gave_check, inner, nulls) = match &mut self.engine {
            Engine::Standard(inner) => {
                let m = to_inner(mv).expect("a legal move has the rules crate's form");
                let m32 = inner.move32_from_move(m);
                inner.apply_move32(m32);
                let check = inner.is_in_check();
                // A null move may not be played in check.
                let nulls = !rebuild && !check && self.unscanned >= SCAN_EVERY && cut_scan(inner);
                (check, m32, nulls)
            }
            Engine::Yari => (yari::in_check(&self.setup, self.setup.turn), rs::Move32::default(), false),
        };
        if nulls {
            self.unscanned = 0;
        }
        self.history.push(Played { mv, key_before, captured, gave_check, inner, nulls });
        if matches!(self.engine, Engine::Standard(_)) && rebuild {
            self.rebuild_inner();
        }
    }

    /// Takes back the last move. Returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let played = self.history.pop()?;
        undo_on_setup(&mut self.setup, &played);
        self.key = played.key_before;
        let base = self.inner_base;
        match &mut self.engine {
            Engine::Standard(inner) if self.history.len() >= base => {
                if played.nulls {
                    for _ in 0..2 {
                        inner.undo_null_move().expect("the inner position holds the null moves played");
                    }
                }
                inner.undo_move32(played.inner).expect("the inner position holds the ply being undone");
            }
            Engine::Standard(_) => self.rebuild_inner(),
            Engine::Yari => {}
        }
        Some(played.mv)
    }

    fn rebuild_inner(&mut self) {
        if let Engine::Standard(inner) = &mut self.engine {
            inner.set_position_state(&inner_state(&self.setup));
            self.inner_base = self.history.len();
            self.unscanned = 0;
        }
    }

    /// Every legal move, unpromoted moves of pawns, lances, bishops and rooks included.
    pub fn legal_moves(&self) -> Vec<Move> {
        match &self.engine {
            Engine::Standard(inner) => {
                let mut list = MoveList::new();
                generate_moves::<LegalAll>(inner, &mut list);
                list.iter().filter_map(|&m| from_inner(m)).collect()
            }
            Engine::Yari => {
                let mut moves = Vec::with_capacity(64);
                yari::legal_moves(&self.setup, &mut moves);
                moves
            }
        }
    }

    /// The legal moves to `to`, drops included.
    pub fn legal_moves_to(&self, to: Square) -> Vec<Move> {
        let inner = match &self.engine {
            Engine::Standard(inner) => inner,
            Engine::Yari => {
                let mut moves = self.legal_moves();
                moves.retain(|m| m.to() == to);
                return moves;
            }
        };
        let mut list = MoveList::new();
        generate_moves_to::<LegalAll>(inner, rs_square(to), &mut list);
        let mut moves: Vec<Move> = list.iter().filter_map(|&m| from_inner(m)).collect();
        for (kind, _) in self.hand(self.turn()).iter() {
            let drop = Move::Drop { kind, to };
            if self.is_legal(drop) {
                moves.push(drop);
            }
        }
        moves
    }

    /// The legal moves of a piece of `kind` to `to`: board moves of pieces of that kind, and
    /// the drop when `kind` is in hand. This is what reading notation needs.
    pub fn legal_moves_of_kind_to(&self, kind: PieceKind, to: Square) -> Vec<Move> {
        let mut moves = self.legal_moves_to(to);
        moves.retain(|&m| match m {
            Move::Normal { from, .. } => self.piece_at(from).is_some_and(|p| p.kind == kind),
            Move::Drop { kind: k, .. } => k == kind,
        });
        moves
    }

    /// The squares of the side to move's pieces of `kind` that could move to `to` if pins and
    /// checks were ignored (see [`rules::movers_to`]).
    pub fn movers_to(&self, kind: PieceKind, to: Square) -> Vec<Square> {
        rules::movers_to(&self.setup, self.turn(), kind, to)
    }

    /// The piece a move would move (before any promotion), or the dropped kind.
    pub fn moving_kind(&self, mv: Move) -> Option<PieceKind> {
        match mv {
            Move::Normal { from, .. } => self.piece_at(from).map(|p| p.kind),
            Move::Drop { kind, .. } => Some(kind),
        }
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        match &self.engine {
            Engine::Standard(inner) => inner.is_in_check(),
            Engine::Yari => yari::in_check(&self.setup, self.turn()),
        }
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_moves(&self) -> bool {
        match &self.engine {
            Engine::Standard(inner) => !inner.is_mated(),
            Engine::Yari => yari::has_legal_moves(&self.setup),
        }
    }

    /// Whether both kings (yari shogi's generals) stand in their promotion zones (相入玉): the
    /// first condition of an impasse (持将棋), which the players then agree on.
    pub fn kings_in_camp(&self) -> bool {
        Color::ALL.into_iter().all(|color| {
            let king = Some(Piece::new(color, PieceKind::King));
            self.variant().squares().any(|sq| self.piece_at(sq) == king && sq.rank().is_promotion_zone(color))
        })
    }

    /// Whether the side to move is checkmated: in check with no legal move.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// Whether the side to move is stalemated: it has a king (yari shogi's general), is not in
    /// check, and has no legal move. Yari shogi scores it as lost (see [`yari`]).
    pub fn is_stalemate(&self) -> bool {
        let king = Some(Piece::new(self.turn(), PieceKind::King));
        self.variant().squares().any(|sq| self.piece_at(sq) == king)
            && !self.is_check()
            && !self.has_legal_moves()
    }

    /// Whether the move that led here gave check.
    pub fn last_move_gave_check(&self) -> bool {
        self.history.last().is_some_and(|p| p.gave_check)
    }

    /// Repetition (千日手) of the current position over the moves played since the start.
    ///
    /// Positions are compared by key. Perpetual check is judged over the moves since the first
    /// occurrence of the position: if every move one side made in that stretch gave check,
    /// that side loses.
    pub fn repetition(&self) -> Repetition {
        let n = self.history.len();
        let mut times = 1;
        let mut first = n;
        // Only positions with the same side to move can be equal: step back two plies at a time.
        let mut i = n;
        while i >= 2 {
            i -= 2;
            if self.key_at(i) == self.key {
                times += 1;
                first = i;
            }
        }
        match times {
            1 => Repetition::None,
            2 | 3 => Repetition::Repeated { times },
            _ => {
                // history[j] is the move played from position j; position j + 1 follows it.
                let checking = |mover: Color| {
                    (first..n).filter(|&j| self.mover_at(j) == mover).all(|j| self.history[j].gave_check)
                };
                match (checking(Color::Black), checking(Color::White)) {
                    (true, false) => Repetition::PerpetualCheck { loser: Color::Black },
                    (false, true) => Repetition::PerpetualCheck { loser: Color::White },
                    _ => Repetition::Draw,
                }
            }
        }
    }

    /// The key of the position after `ply` plies.
    fn key_at(&self, ply: usize) -> PositionKey {
        self.history.get(ply).map_or(self.key, |p| p.key_before)
    }

    /// The side that made the move played from position `ply`.
    fn mover_at(&self, ply: usize) -> Color {
        let start = if self.history.len() % 2 == 0 { self.turn() } else { self.turn().flip() };
        if ply % 2 == 0 { start } else { start.flip() }
    }

    /// Why `mv` is illegal here. Only called for moves the rules refused.
    fn explain(&self, mv: Move) -> IllegalMoveKind {
        if let Some(kind) = rules::movement_error(&self.setup, mv) {
            return kind;
        }
        let us = self.turn();
        let mut after = self.setup.clone();
        apply_to_setup(&mut after, mv);
        let in_check = match self.variant() {
            Variant::Standard => IllegalMoveKind::KingInCheck,
            Variant::Yari => IllegalMoveKind::GeneralInCheck,
        };
        if king_attacked(&after, us) {
            return in_check;
        }
        match mv {
            // Only standard shogi forbids mate by a pawn drop; yari shogi allows it.
            Move::Drop { kind: PieceKind::Pawn, .. } if self.variant() == Variant::Standard => {
                IllegalMoveKind::PawnDropMate
            }
            _ => in_check,
        }
    }
}

impl Setup {
    /// Plays `mv` on the board alone, without any check: the piece moves (promoting when the
    /// move says so), a captured piece goes to the mover's hand, and the turn passes. For
    /// moves already known to be legal here, such as replayed ones. Returns the captured piece.
    ///
    /// # Panics
    ///
    /// If `mv` is a board move from an empty square.
    pub fn play_legal(&mut self, mv: Move) -> Option<Piece> {
        apply_to_setup(self, mv)
    }
}

/// Moves the pieces of `setup` for `mv` (assumed playable) and flips the turn. Returns the
/// captured piece.
fn apply_to_setup(setup: &mut Setup, mv: Move) -> Option<Piece> {
    let us = setup.turn;
    let captured = match mv {
        Move::Normal { from, to, promote } => {
            let piece = setup.piece_at(from).expect("a playable board move starts on a piece");
            let captured = setup.piece_at(to);
            if let Some(c) = captured {
                let variant = setup.variant;
                setup.hand_mut(us).add_in(variant, c.kind);
            }
            let kind = if promote { piece.kind.promote().unwrap_or(piece.kind) } else { piece.kind };
            setup.set(from, None);
            setup.set(to, Some(Piece::new(us, kind)));
            captured
        }
        Move::Drop { kind, to } => {
            setup.hand_mut(us).remove(kind);
            setup.set(to, Some(Piece::new(us, kind)));
            None
        }
    };
    setup.turn = us.flip();
    // A number past the largest stays there: a record may start from any number.
    setup.move_number = setup.move_number.saturating_add(1);
    captured
}

fn undo_on_setup(setup: &mut Setup, played: &Played) {
    let us = setup.turn.flip();
    match played.mv {
        Move::Normal { from, to, promote } => {
            let moved = setup.piece_at(to).expect("the undone move's piece stands on its destination");
            let kind = if promote { moved.kind.unpromote() } else { moved.kind };
            setup.set(from, Some(Piece::new(us, kind)));
            setup.set(to, played.captured);
            if let Some(c) = played.captured {
                setup.hand_mut(us).remove(c.kind.unpromote());
            }
        }
        Move::Drop { kind, to } => {
            setup.set(to, None);
            let variant = setup.variant;
            setup.hand_mut(us).add_in(variant, kind);
        }
    }
    setup.turn = us;
    setup.move_number -= 1;
}

/// Whether `color`'s king (if it has one) is attacked on `setup`'s board.
fn king_attacked(setup: &Setup, color: Color) -> bool {
    let Some(king) = Square::all().find(|&sq| setup.piece_at(sq) == Some(Piece::new(color, PieceKind::King)))
    else {
        return false;
    };
    let them = color.flip();
    Square::all().any(|from| {
        setup
            .piece_at(from)
            .is_some_and(|p| p.color == them && rules::reach(setup, them, p.kind, from, king) == Reach::Yes)
    })
}

fn validate(setup: &Setup) -> Result<(), PositionError> {
    let variant = setup.variant;
    let mut counts = [0u32; 14];
    let mut kings = [0u32; 2];
    for sq in Square::all() {
        let Some(p) = setup.piece_at(sq) else {
            continue;
        };
        if !variant.contains(sq) {
            return Err(PositionError::OffBoard { square: sq, variant });
        }
        if !variant.has_kind(p.kind) {
            return Err(PositionError::ForeignPiece { kind: p.kind, variant });
        }
        counts[p.kind.unpromote().index()] += 1;
        if p.kind == PieceKind::King {
            kings[p.color.index()] += 1;
            if kings[p.color.index()] > 1 {
                return Err(PositionError::TooManyKings { color: p.color, variant });
            }
        }
    }
    for color in Color::ALL {
        for (kind, n) in setup.hand(color).iter() {
            if !variant.hand_kinds().contains(&kind) {
                return Err(PositionError::ForeignPiece { kind, variant });
            }
            counts[kind.index()] += u32::from(n);
        }
    }
    for &kind in variant.hand_kinds() {
        let (count, max) = (counts[kind.index()], variant.max_count(kind));
        if count > u32::from(max) {
            return Err(PositionError::TooManyPieces { kind, count, max });
        }
    }
    if king_attacked(setup, setup.turn.flip()) {
        return Err(PositionError::OpponentInCheck { variant });
    }
    Ok(())
}

/// Plays two null moves on `inner`, whose side to move is not in check, so that its scan for
/// a repetition stops here; the position is the same after them. Returns whether they were
/// played (the crate refuses them only past its counters' bounds, and then `inner` is left
/// as it was).
fn cut_scan(inner: &mut Inner) -> bool {
    if inner.apply_null_move().is_err() {
        return false;
    }
    if inner.apply_null_move().is_err() {
        inner.undo_null_move().expect("the null move just played");
        return false;
    }
    true
}

fn build_inner(setup: &Setup) -> Inner {
    let mut inner = Inner::empty();
    inner.set_position_state(&inner_state(setup));
    inner
}

/// The crate's form of a validated setup (its move number left out).
fn inner_state(setup: &Setup) -> PositionState {
    let mut board = BoardArray::empty();
    for (i, piece) in setup.board.iter().enumerate() {
        if let Some(p) = piece {
            board.set(rs::Square::from_index(i), rs::Piece::from_parts(rs_color(p.color), rs_kind(p.kind)));
        }
    }
    let mut hands = [rs::Hand::ZERO; 2];
    for color in Color::ALL {
        for (kind, n) in setup.hand(color).iter() {
            let piece = rs::HandPiece::from_piece_type(rs_kind(kind)).expect("hands hold unpromoted kinds");
            hands[color.index()].add(piece, u32::from(n));
        }
    }
    PositionState { board, hands, side_to_move: rs_color(setup.turn), ply: 1 }
}

fn rs_color(color: Color) -> rs::Color {
    match color {
        Color::Black => rs::Color::BLACK,
        Color::White => rs::Color::WHITE,
    }
}

fn rs_square(sq: Square) -> rs::Square {
    rs::Square::from_index(sq.index())
}

fn rs_kind(kind: PieceKind) -> rs::PieceType {
    rs::PieceType::new(match kind {
        PieceKind::Pawn => 1,
        PieceKind::Lance => 2,
        PieceKind::Knight => 3,
        PieceKind::Silver => 4,
        PieceKind::Bishop => 5,
        PieceKind::Rook => 6,
        PieceKind::Gold => 7,
        PieceKind::King => 8,
        PieceKind::ProPawn => 9,
        PieceKind::ProLance => 10,
        PieceKind::ProKnight => 11,
        PieceKind::ProSilver => 12,
        PieceKind::Horse => 13,
        PieceKind::Dragon => 14,
    })
}

/// The crate's move for `mv`; `None` for a drop of a kind that never is in hand.
fn to_inner(mv: Move) -> Option<rs::Move> {
    match mv {
        Move::Normal { from, to, promote: false } => Some(rs::Move::normal(rs_square(from), rs_square(to))),
        Move::Normal { from, to, promote: true } => Some(rs::Move::promotion(rs_square(from), rs_square(to))),
        Move::Drop { kind, to } => kind.hand_index().map(|_| rs::Move::drop(rs_kind(kind), rs_square(to))),
    }
}

fn from_inner(m: rs::Move) -> Option<Move> {
    let to = Square::from_index(m.to_sq().to_index())?;
    if m.is_drop() {
        let kind = PieceKind::HAND.into_iter().find(|&k| Some(rs_kind(k)) == m.dropped_piece())?;
        Some(Move::Drop { kind, to })
    } else {
        let from = Square::from_index(m.from_sq().to_index())?;
        Some(Move::Normal { from, to, promote: m.is_promotion() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_match_the_rules_crate() {
        for sq in Square::all() {
            assert_eq!(rs_square(sq).to_usi(), sq.to_string());
        }
    }

    #[test]
    fn kinds_match_the_rules_crate() {
        for kind in PieceKind::ALL {
            assert_eq!(rs_kind(kind).to_string(), kind.sfen());
        }
    }
}
