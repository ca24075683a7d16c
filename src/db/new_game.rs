//! A game made ready for the writer: blobs encoded, keys and early positions listed. Built on
//! the worker threads, so the single writer thread only runs SQL.
//!
//! The database decides the stored form of a game's play here ([`NewGame::play`]): the start
//! (none for the even game), the move blob, the hash that finds copies of the game, and its
//! positions. Which field of a record goes to which column is not its business: the mapping
//! between records and stored games lives above it, in [`crate::store`].

use xxhash_rust::xxh3::Xxh3;

use super::{GameResult, codec::encode_moves, index::GamePositions};
use crate::shogi::{Handicap, Move, PositionKey, Setup, Variant};

/// A player's name without the title, and the title.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerName {
    pub name: String,
    pub title: Option<String>,
}

/// A game as the writer stores it.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// 0-based index of the game in its file.
    pub index: u32,
    /// 1-based line where the game starts.
    pub line: u32,
    /// `None` when replayed to the end, else the stop reason code.
    pub status: Option<&'static str>,
    /// Hash of the start and the moves, for finding duplicates.
    pub movehash: i64,
    /// The start as SFEN, `None` for the even-game start.
    pub start: Option<String>,
    /// The standard start's slug (`even`, `lance`, …), `None` for a custom start.
    pub handicap: Option<&'static str>,
    /// The game's variant ([`Variant::name`]), `None` for shogi.
    pub variant: Option<&'static str>,
    pub plies: u32,
    /// The moves, as stored ([`encode_moves`]).
    pub moves: Vec<u8>,
    /// Its positions, for the position index.
    pub positions: GamePositions,
    pub times: Option<Vec<u8>>,
    pub comments: Option<Vec<u8>>,
    pub end_sfen: String,
    pub result: GameResult,
    pub termination: Option<&'static str>,
    pub black: Option<PlayerName>,
    pub white: Option<PlayerName>,
    pub event: Option<String>,
    pub site: Option<String>,
    pub date: Option<String>,
    pub end_date: Option<String>,
    pub time_control: Option<String>,
    pub opening: Option<String>,
    pub headers: Option<String>,
    /// The foul the record wrote as its last move, as written ([`super::StoredGame::foul`]).
    pub foul: Option<String>,
}

/// A start's SFEN without its move number, which says how a record numbers its moves and not
/// where the game stands: one game written from its first move, or from its second (`手数＝1`
/// after a position with White to move, which CSA and JKF cannot say), is one game (see
/// [`start_identity`]).
fn without_move_number(sfen: &str) -> &str {
    match sfen.rsplit_once(' ') {
        Some((rest, number)) if !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) => rest,
        _ => sfen,
    }
}

/// What of a stored start (its SFEN, `None` for the even start from the first move) makes a
/// game's identity: the SFEN without its move number, and nothing for the even start however
/// it is numbered. Duplicates are found and compared on this.
pub fn start_identity(sfen: Option<&str>) -> &str {
    static EVEN: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let even = EVEN.get_or_init(|| without_move_number(&Handicap::Even.sfen()).to_string());
    match sfen.map(without_move_number) {
        None => "",
        Some(rest) if rest == even => "",
        Some(rest) => rest,
    }
}

/// The hashes a kifudex before schema 15 stored for a game of this start and these moves: it
/// hashed the start's SFEN with its move number. The games it stored keep that hash, so a copy
/// of one indexed now looks for these too: with the number 1, which every such game has once
/// migration 0015 had the files of the others read again, and with the copy's own number,
/// for a game whose file was not read again since.
fn legacy_movehashes(start: Option<&str>, moves: &[u8]) -> Vec<i64> {
    let identity = start_identity(start);
    if identity.is_empty() {
        // The even start was hashed as none then too: the hash has not changed.
        return Vec::new();
    }
    let mut starts = vec![format!("{identity} 1")];
    if let Some(own) = start.filter(|s| *s != starts[0]) {
        starts.push(own.to_string());
    }
    starts
        .iter()
        .map(|s| {
            let mut h = Xxh3::new();
            h.update(s.as_bytes());
            h.update(&[0xff]);
            h.update(moves);
            h.digest() as i64
        })
        .collect()
}

/// Whether `setup` is the even-game start position (whatever its move number).
fn is_even_start(setup: &Setup) -> bool {
    static EVEN: std::sync::OnceLock<Setup> = std::sync::OnceLock::new();
    let even = EVEN.get_or_init(|| Handicap::Even.setup());
    setup.turn == even.turn && setup.board == even.board && setup.hands == even.hands
}

impl NewGame {
    /// The other hashes a copy of this game stored by a kifudex before schema 15 may have:
    /// none for the even start, whose hash has not changed.
    pub fn legacy_movehashes(&self) -> Vec<i64> {
        legacy_movehashes(self.start.as_deref(), &self.moves)
    }

    /// The game that plays `moves` from `start` to `end`, with `keys` the key of each
    /// position from the start's on, in its stored form; every field of its record (the
    /// index in its file, the players, the result, …) is empty, for the caller to set.
    pub fn play(start: &Setup, moves: Vec<Move>, keys: Vec<PositionKey>, end: &Setup) -> NewGame {
        let encoded = encode_moves(&moves);
        // The even start is stored as no SFEN, unless another number than 1 is to be kept.
        let start_sfen = (!is_even_start(start) || start.move_number != 1).then(|| start.sfen());
        let mut h = Xxh3::new();
        h.update(start_identity(start_sfen.as_deref()).as_bytes());
        h.update(&[0xff]);
        h.update(&encoded);
        NewGame {
            index: 0,
            line: 0,
            status: None,
            movehash: h.digest() as i64,
            start: start_sfen,
            handicap: None,
            variant: (start.variant != Variant::Standard).then(|| start.variant.name()),
            plies: moves.len() as u32,
            moves: encoded,
            positions: GamePositions::new(start, moves, keys),
            times: None,
            comments: None,
            end_sfen: end.sfen(),
            result: GameResult::Unknown,
            termination: None,
            black: None,
            white: None,
            event: None,
            site: None,
            date: None,
            end_date: None,
            time_control: None,
            opening: None,
            headers: None,
            foul: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_start_s_identity_leaves_its_move_number_out() {
        let even = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";
        // The even start as the first move is stored as no SFEN; as the 31st, with it.
        assert_eq!(start_identity(None), "");
        assert_eq!(start_identity(Some(&format!("{even} 31"))), "");
        let lance = "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w -";
        assert_eq!(start_identity(Some(&format!("{lance} 1"))), lance);
        assert_eq!(start_identity(Some(&format!("{lance} 2"))), lance);
        // The even board with White to move is another start.
        let white = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w -";
        assert_eq!(start_identity(Some(&format!("{white} 2"))), white);
    }
}
