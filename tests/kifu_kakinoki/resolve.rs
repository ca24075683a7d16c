//! A stand-in resolver for Japanese moves, so that these tests can replay KIF and KI2 games
//! on their own: every token that names exactly one legal move becomes that USI move, and the
//! game is then replayed by `kifudex::replay`. It reads 同, the KIF origin, 打, 成/不成 and the
//! KI2 movement words (上 引 寄, 右 左 直) the way the notation rules define them.

use kifudex::{
    kifu::{Game, MoveEntry, Variation},
    notation::{
        MoveToken,
        japanese::{Destination, JapaneseMove, Motion, Relative},
    },
    replay::{self, ReplayedGame},
    shogi::{Color, Move, Position, Square},
};

/// The one legal move `m` names in `pos`, if exactly one fits.
pub fn resolve(pos: &Position, m: &JapaneseMove) -> Option<Move> {
    let previous = pos.last_move().map(Move::to);
    let to = match m.destination {
        Destination::Square(sq) => sq,
        Destination::Same => previous?,
        Destination::SquareSame(sq) => (previous == Some(sq)).then_some(sq)?,
    };
    if m.color.is_some_and(|c| c != pos.turn()) {
        return None;
    }
    let turn = pos.turn();
    let mut candidates: Vec<Move> = pos
        .legal_moves_to(to)
        .into_iter()
        .filter(|&mv| m.piece.is_none_or(|k| pos.moving_kind(mv) == Some(k)))
        .filter(|&mv| mv.is_promotion() == (m.promotion == Some(true)))
        .filter(|&mv| m.origin.is_none_or(|o| mv.from() == Some(o)))
        .collect();
    if m.drop {
        candidates.retain(|mv| mv.is_drop());
    } else if candidates.iter().any(|mv| !mv.is_drop()) {
        candidates.retain(|mv| !mv.is_drop());
    }
    let forward = |from: Square| {
        let (f, t) = (i32::from(from.rank().get()), i32::from(to.rank().get()));
        if turn == Color::Black { f - t } else { t - f }
    };
    if let Some(motion) = m.motion {
        candidates.retain(|mv| {
            let Some(from) = mv.from() else { return false };
            match motion {
                Motion::Up => forward(from) > 0,
                Motion::Down => forward(from) < 0,
                Motion::Sideways => forward(from) == 0,
            }
        });
    }
    if let Some(relative) = m.relative {
        // The mover's right is the lower file for Black, the higher for White.
        let rightness = |mv: &Move| {
            let f = i32::from(mv.from().map_or(0, |s| s.file().get()));
            if turn == Color::Black { -f } else { f }
        };
        match relative {
            Relative::Straight => {
                candidates.retain(|mv| mv.from().is_some_and(|f| f.file() == to.file() && forward(f) > 0));
            }
            Relative::Right | Relative::Left => {
                let pick = if relative == Relative::Right {
                    candidates.iter().map(rightness).max()
                } else {
                    candidates.iter().map(rightness).min()
                };
                candidates.retain(|mv| Some(rightness(mv)) == pick);
            }
        }
    }
    (candidates.len() == 1).then(|| candidates[0])
}

/// Rewrites the Japanese moves of a line that resolve into USI moves, from the first on,
/// stopping at the first that does not; the variations likewise from their branch points.
fn resolve_line(pos: &Position, moves: &mut [MoveEntry], variations: &mut [Variation]) {
    let mut p = pos.clone();
    let mut positions = vec![p.clone()];
    for entry in moves.iter_mut() {
        let mv = match &entry.token {
            MoveToken::Japanese(m) => resolve(&p, m),
            MoveToken::Usi(mv) => Some(*mv),
            _ => None,
        };
        let Some(mv) = mv.filter(|&mv| p.is_legal(mv)) else { break };
        entry.token = MoveToken::Usi(mv);
        p.play_unchecked(mv);
        positions.push(p.clone());
    }
    for var in variations {
        if let Some(base) = positions.get(var.ply) {
            resolve_line(base, &mut var.moves, &mut var.variations);
        }
    }
}

/// The game with its resolvable Japanese moves made USI moves, replayed.
pub fn replay(game: &Game) -> (Game, ReplayedGame) {
    let mut game = game.clone();
    if let Ok(pos) = Position::from_setup(game.start.setup()) {
        let (moves, vars) = (&mut game.moves, &mut game.variations);
        resolve_line(&pos, moves, vars);
    }
    let replayed = replay::replay(&game);
    (game, replayed)
}
