//! A replayed game made ready for the writer: blobs encoded, keys and early positions
//! listed. Built on the worker threads, so the single writer thread only runs SQL.

use xxhash_rust::xxh3::Xxh3;

use super::{
    GameResult,
    codec::{encode_comments, encode_headers, encode_moves, encode_times},
    index::GamePositions,
};
use crate::{
    kifu::{Game, Outcome, Player},
    replay::{ReplayedGame, Status},
    shogi::{Color, Handicap, Setup, Variant},
};

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
}

/// Whether `setup` is the even-game start position (whatever its move number).
fn is_even_start(setup: &Setup) -> bool {
    static EVEN: std::sync::OnceLock<Setup> = std::sync::OnceLock::new();
    let even = EVEN.get_or_init(|| Handicap::Even.setup());
    setup.turn == even.turn && setup.board == even.board && setup.hands == even.hands
}

impl NewGame {
    /// Prepares game number `index` of a file (`game` as read, `replayed` its replay).
    pub fn new(game: &Game, replayed: ReplayedGame, index: u32) -> NewGame {
        let plies = replayed.moves.len();
        let moves = encode_moves(&replayed.moves);
        let start = (!is_even_start(&replayed.start)).then(|| replayed.start.to_string());
        let mut h = Xxh3::new();
        h.update(start.as_deref().unwrap_or("").as_bytes());
        h.update(&[0xff]);
        h.update(&moves);
        let played = &game.moves[..plies.min(game.moves.len())];
        let comments = game.comments.iter().map(|c| (0, c.as_str())).chain(
            played
                .iter()
                .enumerate()
                .flat_map(|(i, e)| e.comments.iter().map(move |c| (i as u32 + 1, c.as_str()))),
        );
        let info = &game.info;
        let text =
            |s: &Option<String>| s.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(str::to_string);
        NewGame {
            index,
            line: game.line,
            status: match &replayed.status {
                Status::Complete => None,
                Status::Stopped(reason) => Some(reason.code()),
            },
            movehash: h.digest() as i64,
            start,
            handicap: game.start.handicap().map(Handicap::slug),
            variant: (replayed.start.variant != Variant::Standard).then(|| replayed.start.variant.name()),
            plies: plies as u32,
            moves,
            times: encode_times(played.iter().map(|e| e.seconds)),
            comments: encode_comments(comments),
            end_sfen: replayed.end.to_string(),
            result: match replayed.outcome {
                None => GameResult::Unknown,
                Some(Outcome::Win(Color::Black)) => GameResult::BlackWin,
                Some(Outcome::Win(Color::White)) => GameResult::WhiteWin,
                Some(Outcome::Draw) => GameResult::Draw,
            },
            termination: replayed.termination.map(|t| t.name()),
            black: info.black.as_ref().and_then(player),
            white: info.white.as_ref().and_then(player),
            event: text(&info.event),
            site: text(&info.site),
            date: info.start.map(|d| d.to_string()),
            end_date: info.end.map(|d| d.to_string()),
            time_control: text(&info.time_control),
            opening: text(&info.opening),
            headers: encode_headers(game.headers.iter().map(|h| (h.key.as_str(), h.value.as_str()))),
            positions: GamePositions::new(&replayed.start, replayed.moves, replayed.keys),
        }
    }
}

fn player(p: &Player) -> Option<PlayerName> {
    let name = if p.name.trim().is_empty() { p.full.trim() } else { p.name.trim() };
    (!name.is_empty()).then(|| PlayerName {
        name: name.to_string(),
        title: p.title.as_deref().map(str::trim).filter(|t| !t.is_empty()).map(str::to_string),
    })
}
