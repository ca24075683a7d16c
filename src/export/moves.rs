//! The per-ply exports: `moves` (one row per move played) and `positions` (one row per
//! position of the main line, the last one included), by game id then ply.
//!
//! Writing a move in Japanese and Western notation needs the position it was played in, so
//! every game is replayed. Games are read a batch at a time and the batch is replayed and
//! formatted on every core, then written in order: the output does not depend on the number
//! of threads, and memory holds one batch.
//!
//! A stored game that cannot be played back (an impossible start, which only an older version
//! stored) has no rows: it is handed to the caller's `skipped`, and the export goes on.
//!
//! Each position row names its game twice: by `game_id`, the database's own number, and by
//! `game_key` ([`game_key`]), a hash of the game's start and moves (and of what its records
//! say, for a game its moves do not tell apart) that any database gives the same game. So the exports of several databases (the shards of one archive, say) can
//! be read as one, with a game that two of them hold counted once.

use std::io::Write;

use rayon::prelude::*;

use super::{
    Error, Options, Table,
    sink::{Cell, Output, Rows},
};
use crate::{
    db::{
        GameFilter, GameId, GameMoves, Snapshot,
        play::{Unplayable, play_stored},
    },
    kifu::eval::evaluation,
    notation::{Style, write},
    shogi::{Move, Position, Setup},
};

/// The columns of the moves export. `ply` counts from 1; `sfen_before` and `key_before` are
/// the position the move was played in; `comment` joins the comments after the move; `eval`
/// is the engine evaluation a comment after the move states, in centipawns from Black's
/// side, mates encoded as [`crate::kifu::eval`] says (the last one, when several do).
pub const MOVE_COLUMNS: [&str; 10] = [
    "game_id",
    "ply",
    "usi",
    "japanese",
    "western",
    "sfen_before",
    "key_before",
    "time_seconds",
    "comment",
    "eval",
];

/// The columns of the positions export: every position of each main line, ply 0 being the
/// start, with the move played from it (empty after the last move), the game's result
/// (`black`, `white`, `draw`, `unknown`) and its [`game_key`].
pub const POSITION_COLUMNS: [&str; 7] = ["game_id", "ply", "key", "sfen", "usi", "result", "game_key"];

/// Games replayed together.
const BATCH: usize = 512;

/// Called for each stored game that cannot be played back, which the export leaves out.
pub type Skipped<'a> = &'a mut dyn FnMut(GameId, &Unplayable);

/// Writes the moves export of the games `filter` keeps to `out`, as CSV. Returns the rows
/// written.
///
/// # Errors
///
/// A database failure or a write error.
pub fn moves(
    snapshot: &Snapshot<'_>,
    filter: &GameFilter,
    out: impl Write,
    skipped: Skipped<'_>,
) -> Result<u64, Error> {
    super::csv(snapshot, Table::Moves, filter, &Options::default(), out, skipped)
}

/// Writes the positions export of the games `filter` keeps to `out`, as CSV. Returns the
/// rows written.
///
/// # Errors
///
/// A database failure or a write error.
pub fn positions(
    snapshot: &Snapshot<'_>,
    filter: &GameFilter,
    out: impl Write,
    skipped: Skipped<'_>,
) -> Result<u64, Error> {
    super::csv(snapshot, Table::Positions, filter, &Options::default(), out, skipped)
}

/// The rows of the moves export.
pub(super) fn move_table<W: Write>(
    snapshot: &Snapshot<'_>,
    filter: &GameFilter,
    out: &mut Output<W>,
    skipped: Skipped<'_>,
) -> Result<(), Error> {
    per_game(snapshot, filter, out, move_rows, skipped)
}

/// The rows of the positions export.
pub(super) fn position_table<W: Write>(
    snapshot: &Snapshot<'_>,
    filter: &GameFilter,
    out: &mut Output<W>,
    skipped: Skipped<'_>,
) -> Result<(), Error> {
    per_game(snapshot, filter, out, position_rows, skipped)
}

/// Fills `rows` with the rows of one game.
type GameRows = fn(&GameMoves, &mut Rows) -> Result<(), Error>;

/// Streams the games `filter` keeps in batches, makes each game's rows with `rows` in
/// parallel, and writes them in game order.
fn per_game<W: Write>(
    snapshot: &Snapshot<'_>,
    filter: &GameFilter,
    out: &mut Output<W>,
    rows: GameRows,
    skipped: Skipped<'_>,
) -> Result<(), Error> {
    let mut batch: Vec<GameMoves> = Vec::with_capacity(BATCH);
    let mut flush = |batch: &mut Vec<GameMoves>, out: &mut Output<W>| -> Result<(), Error> {
        let empty = out.rows();
        let done: Vec<Result<Rows, Error>> = batch
            .par_iter()
            .map(|game| {
                let mut chunk = empty.empty();
                rows(game, &mut chunk).map(|()| chunk)
            })
            .collect();
        for (game, rows) in batch.drain(..).zip(done) {
            match rows {
                Ok(chunk) => out.append(chunk)?,
                Err(Error::Unplayable(why)) => skipped(game.id, &why),
                Err(e) => return Err(e),
            }
        }
        Ok(())
    };
    snapshot.for_each_game(filter, |game| -> Result<(), Error> {
        batch.push(game);
        if batch.len() == BATCH {
            flush(&mut batch, out)?;
        }
        Ok(())
    })?;
    flush(&mut batch, out)
}

/// Replays `game`, calling `each(position before, move)` for every move.
fn replay(game: &GameMoves, mut each: impl FnMut(&Position, Move) -> Result<(), Error>) -> Result<(), Error> {
    play_stored(&game.start, &game.moves, |_, pos, next| {
        if let Some(mv) = next {
            each(pos, mv)?;
        }
        Ok(true)
    })
}

fn move_rows(game: &GameMoves, rows: &mut Rows) -> Result<(), Error> {
    let id = game.id.0;
    let mut previous = None;
    // Comments before the first move are the game's, not a move's: `show` prints them.
    let mut comments = game.comments.iter().skip_while(|(at, _)| *at == 0).peekable();
    let mut comment = String::new();
    let mut ply = 0u32;
    replay(game, |pos, mv| {
        ply += 1;
        let japanese = write(pos, mv, previous, Style::Japanese);
        let western = write(pos, mv, previous, Style::Western);
        previous = Some(mv.to());
        comment.clear();
        let mut eval = None;
        while let Some((_, text)) = comments.next_if(|(at, _)| *at <= ply) {
            if !comment.is_empty() {
                comment.push('\n');
            }
            comment.push_str(text);
            eval = evaluation(text).or(eval);
        }
        let time = game.times.get(ply as usize - 1).copied().flatten();
        rows.push(&[
            Cell::Int(id),
            Cell::Int(i64::from(ply)),
            Cell::Text(&mv.to_string()),
            Cell::Text(&japanese),
            Cell::Text(&western),
            Cell::Text(&pos.sfen()),
            Cell::Key(pos.key().0),
            Cell::int(time),
            if comment.is_empty() { Cell::Null } else { Cell::Text(&comment) },
            Cell::int(eval),
        ])
    })?;
    Ok(())
}

fn position_rows(game: &GameMoves, rows: &mut Rows) -> Result<(), Error> {
    let id = game.id.0;
    let key = game_key(&game.start, &game.moves, game.told_apart.as_deref());
    play_stored(&game.start, &game.moves, |ply, pos, next| -> Result<bool, Error> {
        let usi = next.map(|mv| mv.to_string());
        rows.push(&[
            Cell::Int(id),
            Cell::Int(ply as i64),
            Cell::Key(pos.key().0),
            Cell::Text(&pos.sfen()),
            usi.as_deref().map_or(Cell::Null, Cell::Text),
            Cell::Text(game.result.name()),
            Cell::Text(&key),
        ])?;
        Ok(true)
    })
}

/// A game's identity in any database: XXH3-128 (seed 0) of the UTF-8 text made of its start
/// position's SFEN, with move number 1 whatever the record numbered its first move, followed
/// by each move in USI, each after one space (`lnsgkgsnl/… b - 1 7g7f 3c3d`), as 32 lowercase
/// hexadecimal digits (the hash's canonical, big-endian form). Games with the same start and
/// moves, which a database stores as one, have one key; two different games sharing one is as
/// likely as a collision of a 128-bit hash. The text is the export's own (`sfen` at ply 0,
/// its move number made 1, then the `usi` column), so anyone can compute the key again from
/// the rows.
///
/// A game whose moves tell it from no other (no move, or a record stopped early) is one game
/// with the records alone that say the same of it, so its key holds what they say:
/// `told_apart`, after a line break (see [`crate::db::OccurrenceRow::told_apart`]).
pub fn game_key(start: &Setup, moves: &[Move], told_apart: Option<&str>) -> String {
    use std::fmt::Write as _;
    let mut text = Setup { move_number: 1, ..start.clone() }.to_string();
    text.reserve(moves.len() * 5);
    for mv in moves {
        let _ = write!(text, " {mv}");
    }
    if let Some(apart) = told_apart {
        text.push('\n');
        text.push_str(apart);
    }
    format!("{:032x}", xxhash_rust::xxh3::xxh3_128(text.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::Handicap;

    #[test]
    fn the_game_key_is_the_documented_hash() {
        // Computed with another implementation of XXH3 (the Python `xxhash` package's
        // `xxh3_128_hexdigest`) over the documented text.
        let start = Handicap::Even.setup();
        let moves: Vec<Move> = ["7g7f", "3c3d"].iter().map(|m| m.parse().unwrap()).collect();
        assert_eq!(game_key(&start, &moves, None), "1786238e9ca85e1685d1c6b241fab312");
        assert_eq!(game_key(&start, &moves[..1], None), "c5c88fdebfa861adb438f0d412e97920");
        assert_eq!(game_key(&start, &[], None), "cf1b082465aa9b87b824509dfe948ed6");
        // A game its moves do not tell apart: the text goes on after a line break.
        assert_eq!(game_key(&start, &moves, Some("\t\t\tunknown\t")), "caa6e2c6056ff6789be976fdc6779daa");
        assert_eq!(
            game_key(&start, &[], Some("甲\t乙\t\tblack\tforfeit")),
            "aecce178a46f67dc5a69a2c02d7e3acb"
        );
        // The move number of the start is not the game's: a record numbered from 40 is the
        // same game.
        let numbered = Setup { move_number: 40, ..start.clone() };
        assert_eq!(game_key(&numbered, &moves, None), "1786238e9ca85e1685d1c6b241fab312");
    }
}
