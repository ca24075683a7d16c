//! The invariants the fuzz targets check, one function per target. The regression tests
//! (`tests/hardening/fuzz_inputs.rs`) run the same functions over every committed seed and
//! every input a fuzzer once failed on, so a check fails the same way in both.
//!
//! Every check holds for any input:
//! - nothing panics (a panic is the failure a fuzzer reports);
//! - whatever reads is written back and read again unchanged: the same start and the same
//!   replayed moves, and, for a game read and replayed to its end (variations included), the
//!   same text when written a second time;
//! - reading is linear: given a [`Meter`] (the fuzzers count heap allocations), reading the
//!   input repeated [`COPIES`] times costs at most twice [`COPIES`] times as much as a copy
//!   costs in two, plus a constant. A hang is the fuzzer's per-input timeout.
//!
//! A failed invariant panics with a message that names it.

use kifudex::{
    db::{
        GameId, GameResult, Posting,
        index::blocks::{BlockBuilder, RunShape, as_stored, decode_block},
    },
    kifu::{self, Format, Game, bod, encoding, grid},
    notation::{self, MoveToken, Style, csa, japanese, read_sequence, western},
    replay::{ReplayedGame, ReplayedVariation, Status, replay},
    shogi::{Move, Position, Setup, Variant},
};

/// What a piece of work cost, by a deterministic count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Heap allocations (and reallocations) made.
    pub allocations: u64,
    /// Bytes those allocations asked for.
    pub bytes: u64,
}

/// A way to measure [`Work`]. The fuzzers count allocations with a counting allocator; the
/// tests measure nothing ([`Unmetered`]) and so skip the linearity check.
pub trait Meter {
    /// Runs `f` and returns what it cost, or `None` when this meter measures nothing.
    fn measure(&self, f: &mut dyn FnMut()) -> Option<Work>;
}

/// A meter that measures nothing: only panics and round trips are checked.
pub struct Unmetered;

impl Meter for Unmetered {
    fn measure(&self, f: &mut dyn FnMut()) -> Option<Work> {
        f();
        None
    }
}

/// How many copies of the input the linearity check reads.
pub const COPIES: usize = 8;

/// Allocations and bytes allowed beyond the linear bound: fixed costs (a start position, a
/// table built once) that reading one copy may not show.
const SLACK: Work = Work { allocations: 4_096, bytes: 1 << 20 };

/// Every target, by name; [`run`] dispatches on these.
pub const TARGETS: &[&str] = &[
    "read_kif",
    "read_ki2",
    "read_csa",
    "read_jkf",
    "read_usi",
    "read_western",
    "read_any",
    "move_usi",
    "move_csa",
    "move_japanese",
    "move_western",
    "move_sequence",
    "sfen",
    "bod",
    "query",
    "yari",
    "blocks",
];

/// Runs the check of `target` on `data`.
///
/// # Panics
///
/// When an invariant fails, or `target` is not one of [`TARGETS`].
pub fn run(target: &str, data: &[u8], meter: &dyn Meter) {
    match target {
        "read_kif" => reader(Format::Kif, data, meter),
        "read_ki2" => reader(Format::Ki2, data, meter),
        "read_csa" => reader(Format::Csa, data, meter),
        "read_jkf" => reader(Format::Jkf, data, meter),
        "read_usi" => reader(Format::Usi, data, meter),
        "read_western" => reader(Format::Western, data, meter),
        "read_any" => any_file(data, meter),
        "move_usi" => single_move(data, |t| t.parse::<Move>().ok().map(MoveToken::Usi)),
        "move_csa" => single_move(data, |t| csa::parse(t).ok().map(MoveToken::Csa)),
        "move_japanese" => single_move(data, |t| japanese::parse(t).ok().map(MoveToken::Japanese)),
        "move_western" => single_move(data, |t| western::parse(t).ok().map(MoveToken::Western)),
        "move_sequence" => sequence(data, meter),
        "sfen" => sfen(data),
        "bod" => board_diagram(data, meter),
        "query" => query(data, meter),
        "yari" => yari(data, meter),
        "blocks" => blocks(data),
        _ => panic!("no fuzz target named {target}"),
    }
}

/// Checks that `read` costs linear work: [`COPIES`] copies of the input, joined by line feeds,
/// cost at most twice as much per copy as a copy costs in two. A copy is measured after
/// another, not alone: what the end of one copy starts, the next copy may carry on (a game
/// stopped at an unreadable move covers the rest of its file alone, where a copy after it
/// starts new games whose lines are read and warned of), and such a copy costs more than the
/// first whatever the number of copies. Work that grows with the square of the input still
/// fails: eight copies cost 64 times one copy, and 16 times what a copy costs in two.
fn linear(meter: &dyn Meter, data: &[u8], read: &dyn Fn(&[u8])) {
    let two = [data; 2].join(&b'\n');
    let Some(pair) = meter.measure(&mut || read(&two)) else { return };
    let one = Work { allocations: pair.allocations.div_ceil(2), bytes: pair.bytes.div_ceil(2) };
    let many = [data; COPIES].join(&b'\n');
    let Some(all) = meter.measure(&mut || read(&many)) else { return };
    let bound = |one: u64, slack: u64| one.saturating_mul(2 * COPIES as u64).saturating_add(slack);
    assert!(
        all.allocations <= bound(one.allocations, SLACK.allocations)
            && all.bytes <= bound(one.bytes, SLACK.bytes),
        "superlinear work: two copies of the input cost {pair:?}, {COPIES} copies cost {all:?}"
    );
}

/// The text of `data` as a record file would be decoded, or nothing when it is not text.
fn text(data: &[u8]) -> Option<String> {
    encoding::decode(data).ok().map(|d| d.text.into_owned())
}

/// Reads `data` as `format`, replays every game, and checks the round trip of each.
fn reader(format: Format, data: &[u8], meter: &dyn Meter) {
    linear(meter, data, &|d| {
        if let Some(t) = text(d) {
            for game in kifu::read(format, &t) {
                replay(&game);
            }
        }
    });
    let Some(text) = text(data) else { return };
    let _ = kifu::looks_like(format, &text);
    for game in kifu::read(format, &text) {
        round_trip(format, &game);
    }
}

/// Reads `data` as a record file of unknown format (decoding and detection included).
fn any_file(data: &[u8], meter: &dyn Meter) {
    linear(meter, data, &|d| {
        if let Ok(file) = kifu::read_file(None, d) {
            for game in &file.games {
                replay(game);
            }
        }
    });
    if let Ok(file) = kifu::read_file(None, data) {
        for game in &file.games {
            round_trip(file.format, game);
        }
    }
}

/// Writes `game` in `format`, reads it back, and checks that it is the same game; every other
/// writer must not panic on it either.
fn round_trip(format: Format, game: &Game) {
    let first = replay(game);
    for other in Format::ALL {
        let _ = kifudex::write::write(other, game, &first);
    }
    let written = kifudex::write::write(format, game, &first);
    let again = kifu::read(format, &written);
    let [game2] = again.as_slice() else {
        panic!("{format} wrote one game and read back {} games:\n{written}", again.len());
    };
    let second = replay(game2);
    let same = |what: &str, a: &dyn std::fmt::Debug, b: &dyn std::fmt::Debug| {
        let (a, b) = (format!("{a:?}"), format!("{b:?}"));
        assert!(a == b, "{format} round trip changed the {what}: {a} became {b}; written:\n{written}");
    };
    let same_text = |a: &str, b: &str| {
        let Some((n, (x, y))) = a.lines().zip(b.lines()).enumerate().find(|(_, (x, y))| x != y) else {
            assert!(a == b, "{format} wrote the game back with other lines at the end:\n{a}\nthen\n{b}");
            return;
        };
        panic!(
            "{format} wrote the game back with line {} changed from '{x}' to '{y}':\n{a}\nthen\n{b}",
            n + 1
        );
    };
    if matches!(first.status, Status::Stopped(kifudex::replay::StopReason::Start { .. })) {
        // An impossible start has no moves to compare; it must still read back as a start.
        return;
    }
    same("start", &first.start, &second.start);
    same("moves", &moves(&first), &moves(&second));
    if game.problem.is_none() && whole(&first.status, &first.variations) {
        let rewritten = kifudex::write::write(format, game2, &second);
        same_text(&written, &rewritten);
    }
}

/// Whether a replayed line and all its variations were played to their ends. A game that
/// was not is written as far as it is good, and reading that back is a new game (an ending
/// the rest of the record held no longer applies, say); only its moves must survive.
fn whole(status: &Status, variations: &[ReplayedVariation]) -> bool {
    status.is_complete()
        && variations.iter().all(|v| v.stopped.is_none() && whole(&Status::Complete, &v.variations))
}

fn moves(r: &ReplayedGame) -> Vec<String> {
    r.moves.iter().map(Move::to_string).collect()
}

/// Splits the input into a start position and the text to read: a first line that is a legal
/// SFEN is the start, else the start is the even one.
fn start_and_text(data: &[u8]) -> Option<(Position, &str)> {
    let text = std::str::from_utf8(data).ok()?;
    if let Some((first, rest)) = text.split_once('\n')
        && let Some(pos) = first.parse::<Setup>().ok().and_then(|s| Position::from_setup(s).ok())
    {
        return Some((pos, rest));
    }
    Some((Position::startpos(), text))
}

/// One move in one notation: what reads is written back as itself, and when it names a legal
/// move in the start position, every style writes that move so that it reads back as it.
fn single_move(data: &[u8], parse: fn(&str) -> Option<MoveToken>) {
    let Some((pos, text)) = start_and_text(data) else { return };
    let _ = MoveToken::parse(text);
    let Some(token) = parse(text) else { return };
    let shown = token.to_string();
    let back = parse(&shown);
    assert!(
        back.as_ref() == Some(&token),
        "'{text}' read as {token:?}, written '{shown}', read back {back:?}"
    );
    if let Ok(mv) = token.resolve(&pos, None) {
        for style in [Style::Japanese, Style::Western, Style::Hosking, Style::Usi, Style::Csa] {
            let written = notation::write(&pos, mv, None, style);
            let read = MoveToken::parse(&written).ok().and_then(|t| t.resolve(&pos, None).ok());
            assert!(
                read == Some(mv),
                "{mv} in {} written {style} as '{written}' reads back as {read:?}",
                pos.sfen()
            );
        }
    }
}

/// A sequence of moves: when it reads, writing it in every style reads back the same moves.
fn sequence(data: &[u8], meter: &dyn Meter) {
    linear(meter, data, &|d| {
        if let Some((pos, text)) = start_and_text(d) {
            let _ = read_sequence(&pos, text);
        }
    });
    let Some((start, text)) = start_and_text(data) else { return };
    let Ok(moves) = read_sequence(&start, text) else { return };
    for style in [Style::Japanese, Style::Western, Style::Hosking, Style::Usi, Style::Csa] {
        let written = write_sequence(&start, &moves, style);
        let back = read_sequence(&start, &written);
        assert!(
            back.as_ref() == Ok(&moves),
            "'{text}' written {style} as '{written}' reads back as {back:?}"
        );
    }
}

/// Writes `moves` from `start` in `style`, separated by spaces.
fn write_sequence(start: &Position, moves: &[Move], style: Style) -> String {
    let mut pos = start.clone();
    let mut previous = None;
    let mut words = Vec::with_capacity(moves.len());
    for &mv in moves {
        words.push(notation::write(&pos, mv, previous, style));
        pos.play_unchecked(mv);
        previous = Some(mv.to());
    }
    words.join(" ")
}

/// SFEN: what reads is written back as itself.
fn sfen(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(setup) = text.parse::<Setup>() else { return };
    let written = setup.to_string();
    let back = written.parse::<Setup>();
    assert!(back.as_ref() == Ok(&setup), "'{text}' read as {written}, which reads back as {back:?}");
    let _ = Position::from_setup(setup);
}

/// A board diagram (a BOD, or the lettered grid of a yari position): what reads is written
/// back as a diagram that reads as the same position.
fn board_diagram(data: &[u8], meter: &dyn Meter) {
    linear(meter, data, &|d| {
        if let Some(t) = text(d) {
            let _ = bod::parse_bod(encoding::lines(&t).map(|(_, l)| l));
            let _ = grid::parse_grid(&t);
        }
    });
    let Some(text) = text(data) else { return };
    if let Ok(setup) = grid::parse_grid(&text) {
        let written = grid::write_grid(&setup);
        let back = grid::parse_grid(&written);
        assert!(
            back.as_ref() == Ok(&setup),
            "the grid read as {setup}, written as\n{written}reads back as {back:?}"
        );
        let _ = Position::from_setup(setup);
    }
    let Ok(setup) = bod::parse_bod(encoding::lines(&text).map(|(_, l)| l)) else { return };
    let written = bod::write_bod(&setup);
    let back = bod::parse_bod(encoding::lines(&written).map(|(_, l)| l));
    assert!(
        back.as_ref() == Ok(&setup),
        "the diagram read as {setup}, written as\n{written}reads back as {back:?}"
    );
    let _ = Position::from_setup(setup);
}

/// The position a query text names: an SFEN, a board diagram, or moves from the even start.
fn query_position(text: &str) -> Option<Position> {
    let setup = match text.trim().parse::<Setup>() {
        Ok(setup) => Some(setup),
        Err(_) if text.contains('|') => bod::parse_bod(encoding::lines(text).map(|(_, l)| l)).ok(),
        Err(_) => None,
    };
    match setup {
        Some(setup) => Position::from_setup(setup).ok(),
        None => {
            let start = Position::startpos();
            let moves = read_sequence(&start, text).ok()?;
            let mut pos = start;
            for mv in moves {
                pos.play_unchecked(mv);
            }
            Some(pos)
        }
    }
}

/// The query text: whatever position it names, its SFEN and its diagram name the same
/// position (the same key).
fn query(data: &[u8], meter: &dyn Meter) {
    linear(meter, data, &|d| {
        if let Ok(t) = std::str::from_utf8(d) {
            let _ = query_position(t);
        }
    });
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Some(pos) = query_position(text) else { return };
    let sfen = pos.sfen();
    let by_sfen = query_position(&sfen).map(|p| p.key());
    assert!(by_sfen == Some(pos.key()), "'{text}' names {sfen}, which as a query names another position");
    // A board diagram draws shogi's board only.
    if pos.variant() == Variant::Standard {
        let diagram = bod::write_bod(pos.setup());
        let by_bod = query_position(&diagram).map(|p| p.key());
        assert!(by_bod == Some(pos.key()), "'{text}' names {sfen}, whose diagram names another position");
    }
}

/// Splits the input into a yari start and the text to read: a first line that is a legal
/// seven-file SFEN is the start, else the yari start.
fn yari_start_and_text(data: &[u8]) -> Option<(Position, &str)> {
    let text = std::str::from_utf8(data).ok()?;
    if let Some((first, rest)) = text.split_once('\n')
        && let Some(pos) = first
            .parse::<Setup>()
            .ok()
            .filter(|s| s.variant == Variant::Yari)
            .and_then(|s| Position::from_setup(s).ok())
    {
        return Some((pos, rest));
    }
    Some((Position::start(Variant::Yari), text))
}

/// Yari shogi, read three ways. As one move: what reads is written back as itself. As a
/// sequence from the start: written in Hodges, Hosking and the USI-like form, it reads back
/// as the same moves. As a Western record of yari games: each written in Hodges, in Hosking
/// and in the USI-like form reads back with the same start and moves.
fn yari(data: &[u8], meter: &dyn Meter) {
    linear(meter, data, &|d| {
        if let Some((pos, text)) = yari_start_and_text(d) {
            let _ = read_sequence(&pos, text);
            for game in kifu::western::read_as(text, Some(Variant::Yari)) {
                replay(&game);
            }
        }
    });
    let Some((start, text)) = yari_start_and_text(data) else { return };
    if let Ok(token) = MoveToken::parse_in(text, Variant::Yari) {
        let shown = token.to_string();
        // A Western drop is written `P*3f`, which as a whole move reads as the USI-like form;
        // written Western, it must read back as Western.
        let back = match token {
            MoveToken::Western(_) => western::parse_in(&shown, Variant::Yari).map(MoveToken::Western),
            _ => MoveToken::parse_in(&shown, Variant::Yari),
        };
        assert!(
            back.as_ref() == Ok(&token),
            "'{text}' read as {token:?}, written '{shown}', read back {back:?}"
        );
    }
    if let Ok(moves) = read_sequence(&start, text) {
        for style in [Style::Western, Style::Hosking, Style::Usi] {
            let written = write_sequence(&start, &moves, style);
            let back = read_sequence(&start, &written);
            assert!(
                back.as_ref() == Ok(&moves),
                "'{text}' written {style} as '{written}' reads back as {back:?}"
            );
        }
    }
    for game in kifu::western::read_as(text, Some(Variant::Yari)) {
        let first = replay(&game);
        if matches!(first.status, Status::Stopped(kifudex::replay::StopReason::Start { .. })) {
            continue;
        }
        for (format, written) in [
            (Format::Western, kifudex::write::western::write_in(&game, &first, Style::Western)),
            (Format::Western, kifudex::write::western::write_in(&game, &first, Style::Hosking)),
            (Format::Usi, kifudex::write::write(Format::Usi, &game, &first)),
        ] {
            let again = kifu::read(format, &written);
            let [game2] = again.as_slice() else {
                panic!("{format} wrote one yari game and read back {} games:\n{written}", again.len());
            };
            let second = replay(game2);
            assert!(
                second.start == first.start && second.moves == first.moves,
                "a yari game written as\n{written}\nreads back as another game: {:?} {:?}",
                second.start,
                moves(&second)
            );
        }
    }
}

/// Posting blocks: any bytes decode to postings or an error, never a panic, with or without
/// a key to keep; and postings made from the input (six bytes each: key, game, ply, move
/// and result), sorted and cut into blocks, decode to themselves as blocks store them.
fn blocks(data: &[u8]) {
    let lo = data.get(..8).map_or(0, |b| u64::from_le_bytes(b.try_into().unwrap()));
    let lo = kifudex::shogi::PositionKey(lo);
    let rest = data.get(8..).unwrap_or_default();
    for first in [None, Some(0), Some(2)] {
        let mut block = rest.to_vec();
        if let (Some(byte), Some(b)) = (first, block.first_mut()) {
            *b = byte;
        }
        for only in [None, Some(lo), Some(kifudex::shogi::PositionKey(lo.0.wrapping_add(1)))] {
            let _ = decode_block(lo, &block, only, &mut Vec::new());
        }
    }
    let mut postings: Vec<Posting> = data
        .chunks_exact(6)
        .map(|c| Posting {
            // Few distinct keys, so that keys have several postings.
            key: kifudex::shogi::PositionKey(u64::from(c[0] & 0x1F).wrapping_mul(0x9E37_79B9_7F4A_7C15)),
            game: GameId(i64::from(u32::from_le_bytes([c[1], c[2], 0, 0]) << (c[0] >> 5))),
            ply: u32::from(c[3]) * u32::from(c[4] & 7).pow(3),
            next: Move::from_code(u16::from_le_bytes([c[4], c[5]]) >> 2),
            result: GameResult::from_code(c[5]),
        })
        .collect();
    postings.sort();
    postings.dedup_by_key(|p| (p.key, p.game, p.ply));
    let Some(min) = postings.iter().map(|p| p.game.0 as u32).min() else { return };
    let max = postings.iter().map(|p| p.game.0 as u32).max().unwrap_or(min);
    let mut builder =
        BlockBuilder::new(RunShape { postings: postings.len() as u64, min_game: min, max_game: max });
    let mut cut = Vec::new();
    for &p in &postings {
        cut.extend(builder.push(p));
    }
    cut.extend(builder.finish());
    let mut back = Vec::new();
    for b in &cut {
        decode_block(b.lo, &b.data, None, &mut back).expect("a block the builder made decodes");
    }
    let want: Vec<Posting> = postings.into_iter().map(as_stored).collect();
    assert!(back == want, "postings cut into blocks do not decode to themselves");
}
