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

use std::{fmt::Write as _, io::Write};

use rayon::prelude::*;

use super::{Error, Table, csv_buffer, csv_bytes};
use crate::{
    db::{
        GameFilter, GameId, GameMoves, Snapshot,
        play::{Unplayable, play_stored},
    },
    notation::{Style, write},
    shogi::{Move, Position},
};

/// The columns of the moves export. `ply` counts from 1; `sfen_before` and `key_before` are
/// the position the move was played in; `comment` joins the comments after the move.
pub const MOVE_COLUMNS: [&str; 9] =
    ["game_id", "ply", "usi", "japanese", "western", "sfen_before", "key_before", "time_seconds", "comment"];

/// The columns of the positions export: every position of each main line, ply 0 being the
/// start, with the move played from it (empty after the last move).
pub const POSITION_COLUMNS: [&str; 5] = ["game_id", "ply", "key", "sfen", "usi"];

/// Games replayed together.
const BATCH: usize = 512;

/// Called for each stored game that cannot be played back, which the export leaves out.
pub type Skipped<'a> = &'a mut dyn FnMut(GameId, &Unplayable);

/// Writes the moves export of the games `filter` keeps to `out`. Returns the rows written.
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
    per_game(snapshot, filter, out, &MOVE_COLUMNS, move_rows, skipped)
}

/// Writes the positions export of the games `filter` keeps to `out`. Returns the rows written.
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
    per_game(snapshot, filter, out, &POSITION_COLUMNS, position_rows, skipped)
}

/// The rows of one game, as CSV, and how many.
type Rows = Result<(Vec<u8>, u64), Error>;

/// Streams the games `filter` keeps in batches, formats each game with `rows` in parallel,
/// and writes the results in game order under a header of `columns`.
fn per_game(
    snapshot: &Snapshot<'_>,
    filter: &GameFilter,
    out: impl Write,
    columns: &[&str],
    rows: fn(&GameMoves) -> Rows,
    skipped: Skipped<'_>,
) -> Result<u64, Error> {
    let mut table = Table::new(out, columns)?;
    let mut batch: Vec<GameMoves> = Vec::with_capacity(BATCH);
    let mut flush = |batch: &mut Vec<GameMoves>, table: &mut Table<_>| -> Result<(), Error> {
        let done: Vec<Rows> = batch.par_iter().map(rows).collect();
        for (game, rows) in batch.drain(..).zip(done) {
            match rows {
                Ok((bytes, n)) => table.raw(&bytes, n)?,
                Err(Error::Unplayable(why)) => skipped(game.id, &why),
                Err(e) => return Err(e),
            }
        }
        Ok(())
    };
    snapshot.for_each_game(filter, |game| -> Result<(), Error> {
        batch.push(game);
        if batch.len() == BATCH {
            flush(&mut batch, &mut table)?;
        }
        Ok(())
    })?;
    flush(&mut batch, &mut table)?;
    table.finish()
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

fn move_rows(game: &GameMoves) -> Rows {
    let mut csv = csv_buffer();
    let id = game.id.to_string();
    let mut previous = None;
    // Comments before the first move are the game's, not a move's: `show` prints them.
    let mut comments = game.comments.iter().skip_while(|(at, _)| *at == 0).peekable();
    let (mut comment, mut ply_text, mut key, mut time) =
        (String::new(), String::new(), String::new(), String::new());
    let mut ply = 0u32;
    replay(game, |pos, mv| {
        ply += 1;
        let japanese = write(pos, mv, previous, Style::Japanese);
        let western = write(pos, mv, previous, Style::Western);
        previous = Some(mv.to());
        comment.clear();
        while let Some((_, text)) = comments.next_if(|(at, _)| *at <= ply) {
            if !comment.is_empty() {
                comment.push('\n');
            }
            comment.push_str(text);
        }
        number(&mut ply_text, ply);
        time.clear();
        if let Some(t) = game.times.get(ply as usize - 1).copied().flatten() {
            number(&mut time, t);
        }
        key.clear();
        let _ = write!(key, "{}", pos.key());
        csv.write_record([
            id.as_str(),
            &ply_text,
            &mv.to_string(),
            &japanese,
            &western,
            &pos.sfen(),
            &key,
            &time,
            &comment,
        ])?;
        Ok(())
    })?;
    Ok((csv_bytes(csv)?, u64::from(ply)))
}

/// Sets `out` to `n` in decimal, reusing its memory.
fn number(out: &mut String, n: u32) {
    out.clear();
    let _ = write!(out, "{n}");
}

fn position_rows(game: &GameMoves) -> Rows {
    let mut csv = csv_buffer();
    let id = game.id.to_string();
    play_stored(&game.start, &game.moves, |ply, pos, next| -> Result<bool, Error> {
        let usi = next.map(|mv| mv.to_string()).unwrap_or_default();
        csv.write_record([id.as_str(), &ply.to_string(), &pos.key().to_string(), &pos.sfen(), &usi])?;
        Ok(true)
    })?;
    Ok((csv_bytes(csv)?, game.moves.len() as u64 + 1))
}
