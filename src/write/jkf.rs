//! Writing a game as JKF.

use serde::{
    Serialize, Serializer,
    ser::{SerializeMap, SerializeSeq},
};
use serde_json::{Map, Value, json};

use super::support::{
    branching_at, foul_notes, other_headers, paired_variations, slash_date, start_position, walk,
};
use crate::{
    kifu::{
        Game, MoveEntry, Outcome, Termination, Variation, csa::word_for, info::Field, jkf::preset_name,
        support::turn_after,
    },
    notation::{self, Style, csa::piece_code},
    replay::{ReplayedGame, ReplayedVariation, rewind},
    shogi::{Color, Handicap, Move, Position, Setup, Square, Variant},
};

/// Writes `game` (replayed as `replayed`) as JKF, pretty-printed: the normalized headers
/// under KIF's keys and every other raw header, the start as a preset or a board, the
/// replayed moves with `same`, `capture`, `promote` and `relative` filled in (`relative` from
/// the KI2 form of the move), their times and comments,
/// the variations as `forks`, and the ending as `special` when it has a word.
///
/// `replayed` is [`replay`](crate::replay::replay)`(game)`: the moves written are the replayed,
/// legal ones, and the result is the one replay judged.
///
/// The main line's moves are written one at a time as they are made, so that the record
/// takes little more memory than its text: a JSON value of the whole line would take a dozen
/// times that.
///
/// # Panics
///
/// If `replayed` holds a move that is not legal from its start (it did not come from replay).
pub fn write(game: &Game, replayed: &ReplayedGame) -> String {
    let mut out = Vec::new();
    Record { game, replayed }
        .serialize(&mut serde_json::Serializer::pretty(&mut out))
        .expect("JSON values always serialize, into memory");
    out.push(b'\n');
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// A game as the JKF root object: `header`, `initial` (standard shogi only) and `moves`.
struct Record<'a> {
    game: &'a Game,
    replayed: &'a ReplayedGame,
}

impl Serialize for Record<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (mut header, _) = header(self.game);
        let mut root = serializer.serialize_map(None)?;
        // JKF's presets are shogi's: another game is named by its 手合割, as KIF names it, and
        // starts from its own start (see `Format::holds_start`).
        let variant = self.replayed.start.variant;
        if variant == Variant::Standard {
            root.serialize_entry("header", &header)?;
            root.serialize_entry("initial", &initial(&self.replayed.start))?;
        } else {
            header.insert("手合割".into(), Value::String(variant.japanese().into()));
            root.serialize_entry("header", &header)?;
        }
        root.serialize_entry("moves", &Moves { game: self.game, replayed: self.replayed })?;
        root.end()
    }
}

/// A game's `moves`: the comments before its first move, its main line, then its ending.
struct Moves<'a> {
    game: &'a Game,
    replayed: &'a ReplayedGame,
}

impl Serialize for Moves<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (game, replayed) = (self.game, self.replayed);
        let mut moves = serializer.serialize_seq(None)?;
        moves.serialize_element(&comments_entry(&game.comments))?;
        let mut end = Map::new();
        // The record's comments on its ending follow the notes on a foul; with no word for the
        // ending (which is then named as left out), they read back as the last move's.
        let own = game.ending.as_ref();
        let mut comments = foul_notes(game, replayed);
        comments.extend(own.iter().flat_map(|e| e.comments.iter().cloned()));
        if !comments.is_empty() {
            end.insert("comments".into(), json!(comments));
        }
        let word = replayed.termination.and_then(|t| special(t, replayed.outcome, replayed.end.turn));
        if let Some(word) = word {
            end.insert("special".into(), json!(word));
        }
        if let Some(mut pos) = start_position(replayed) {
            let pairs = paired_variations(&game.variations, &replayed.variations);
            let mut failed = None;
            let totals = line(&mut pos, &replayed.moves, &game.moves, &pairs, [0, 0], &mut |entry| {
                if failed.is_none() {
                    failed = moves.serialize_element(&entry).err();
                }
            });
            if let Some(e) = failed {
                return Err(e);
            }
            if let Some(seconds) = own.and_then(|e| e.seconds).filter(|_| word.is_some()) {
                let total = totals[replayed.end.turn.index()].saturating_add(seconds);
                end.insert("time".into(), time(seconds, total));
            }
            add_forks(&mut end, forks_at(&mut pos, &pairs, replayed.moves.len(), totals));
        }
        if !end.is_empty() {
            moves.serialize_element(&end)?;
        }
        moves.end()
    }
}

/// The headers of a JKF record of `game` whose key it already holds with another value, which
/// it leaves out: a JKF header holds one value a key (a second `先手` in a KIF record).
pub(crate) fn headers_left_out(game: &Game) -> usize {
    header(game).1
}

/// The JKF header of `game`, and how many of its headers it leaves out (see
/// [`headers_left_out`]).
fn header(game: &Game) -> (Map<String, Value>, usize) {
    let info = &game.info;
    let mut map = Map::new();
    let mut put = |key: &str, value: Option<String>| {
        if let Some(v) = value {
            map.insert(key.to_string(), Value::String(v));
        }
    };
    put("開始日時", info.start.as_ref().map(slash_date));
    put("終了日時", info.end.as_ref().map(slash_date));
    put("棋戦", info.event.clone());
    put("場所", info.site.clone());
    put("持ち時間", info.time_control.clone());
    // Under the record's own keys: 下手/上手 where it names the players so (a KIF record of a
    // handicap game), else 先手/後手.
    let handicap = game.headers.iter().any(|h| matches!(h.key.trim(), "下手" | "上手"));
    for (field, player) in [(Field::Black, &info.black), (Field::White, &info.white)] {
        let key = field.kif_key(handicap).expect("a player's field has a KIF key");
        put(key, player.as_ref().map(|p| p.full.clone()));
    }
    put("戦型", info.opening.clone());
    let mut left_out = 0;
    // A date header under its KIF key whose text says more than the date (`2005/11/29･30日`)
    // is written as it is in its place: a JKF header is text, and reads back as the same date.
    let mut dated = Vec::new();
    for h in other_headers(game) {
        let date = matches!(Field::of(&h.key), Some((Field::Start | Field::End, 0)));
        match map.get(&h.key) {
            None => {
                map.insert(h.key.clone(), Value::String(h.value.clone()));
            }
            Some(_) if date && !dated.contains(&&h.key) => {
                dated.push(&h.key);
                map.insert(h.key.clone(), Value::String(h.value.clone()));
            }
            Some(held) => left_out += usize::from(held.as_str() != Some(h.value.as_str())),
        }
    }
    (map, left_out)
}

fn initial(start: &Setup) -> Value {
    if let Some(handicap) = Handicap::find(start) {
        return json!({ "preset": preset_name(handicap) });
    }
    let board: Vec<Value> = (1..=9)
        .map(|x| {
            let column: Vec<Value> = (1..=9)
                .map(|y| {
                    let sq = Square::from_numbers(x, y).expect("files and ranks 1-9");
                    match start.piece_at(sq) {
                        Some(p) => json!({ "color": color(p.color), "kind": piece_code(p.kind) }),
                        None => json!({}),
                    }
                })
                .collect();
            Value::Array(column)
        })
        .collect();
    let hands: Vec<Value> = Color::ALL
        .iter()
        .map(|&c| {
            let hand = start.hand(c);
            let counts: Map<String, Value> = crate::shogi::PieceKind::HAND
                .iter()
                .map(|&k| (piece_code(k).to_string(), json!(hand.count(k))))
                .collect();
            Value::Object(counts)
        })
        .collect();
    json!({ "preset": "OTHER", "data": { "board": board, "color": color(start.turn), "hands": hands } })
}

fn color(c: Color) -> u8 {
    c.index() as u8
}

fn comments_entry(comments: &[String]) -> Value {
    if comments.is_empty() { json!({}) } else { json!({ "comments": comments }) }
}

/// The entries of a line of moves played from `pos`, with the forks that branch from its
/// moves, each handed to `put` as it is made; returns the time each side had spent after the
/// line. `totals` is the time each side had spent before the line. `pos` ends after the line.
fn line(
    pos: &mut Position,
    moves: &[Move],
    entries: &[MoveEntry],
    forks: &[(&Variation, &ReplayedVariation)],
    mut totals: [u32; 2],
    put: &mut impl FnMut(Map<String, Value>),
) -> [u32; 2] {
    let mut ply = 0;
    let mut next = 0;
    walk(pos, moves, entries, |step| {
        let mut entry = Map::new();
        let mover = step.pos.turn();
        // A fork replaces this move: its clock runs from before it.
        let before = totals;
        if let Some(seconds) = step.entry.and_then(|e| e.seconds) {
            let total = &mut totals[mover.index()];
            *total = total.saturating_add(seconds);
            entry.insert("time".into(), time(seconds, *total));
        }
        entry.insert("move".into(), move_object(step.pos, step.mv, step.previous));
        if let Some(e) = step.entry.filter(|e| !e.comments.is_empty()) {
            entry.insert("comments".into(), json!(e.comments));
        }
        let branches = branching_at(forks, &mut next, ply)
            .iter()
            .map(|(read, replayed)| fork(step.pos, read, replayed, before))
            .filter(|fork| !fork.is_empty())
            .map(Value::Array)
            .collect();
        add_forks(&mut entry, branches);
        put(entry);
        ply += 1;
    });
    totals
}

/// The forks of a line of `plies` moves that branch after its last move (played instead of
/// its ending), from `pos`, the position there.
fn forks_at(
    pos: &mut Position,
    forks: &[(&Variation, &ReplayedVariation)],
    plies: usize,
    totals: [u32; 2],
) -> Vec<Value> {
    let mut next = 0;
    branching_at(forks, &mut next, plies)
        .iter()
        .map(|(read, replayed)| fork(pos, read, replayed, totals))
        .filter(|fork| !fork.is_empty())
        .map(Value::Array)
        .collect()
}

fn add_forks(entry: &mut Map<String, Value>, branches: Vec<Value>) {
    if !branches.is_empty() {
        entry.insert("forks".into(), Value::Array(branches));
    }
}

/// A fork: the variation's moves from the position before the move it replaces (played on
/// `pos` and taken back), its nested forks, and its ending when it was replayed to its end.
fn fork(pos: &mut Position, read: &Variation, replayed: &ReplayedVariation, totals: [u32; 2]) -> Vec<Value> {
    let base = pos.ply();
    let turn = pos.turn();
    let nested = paired_variations(&read.variations, &replayed.variations);
    let mut out = Vec::with_capacity(replayed.moves.len() + 1);
    let totals = line(pos, &replayed.moves, &read.moves, &nested, totals, &mut |entry| {
        out.push(Value::Object(entry));
    });
    let mut end = Map::new();
    let ended = replayed.stopped.is_none();
    let to_move = turn_after(turn, replayed.moves.len());
    if let Some((own, word)) = read.ending.as_ref().filter(|_| ended).and_then(|e| {
        // Which word an ending takes (whether there is one) depends on who lost: a foul's
        // word names the side that fouled, the others mean the side to move.
        // A winner stated alone (a KI2 variation's `まで…の勝ち`), the loser to move, resigned.
        let (termination, outcome) = crate::replay::stated_by(e, to_move, false, true);
        special(termination.unwrap_or(e.termination), outcome, to_move).map(|word| (e, word))
    }) {
        end.insert("special".into(), json!(word));
        if let Some(seconds) = own.seconds {
            end.insert("time".into(), time(seconds, totals[to_move.index()].saturating_add(seconds)));
        }
        if !own.comments.is_empty() {
            end.insert("comments".into(), json!(own.comments));
        }
    }
    add_forks(&mut end, forks_at(pos, &nested, replayed.moves.len(), totals));
    rewind(pos, base);
    if !end.is_empty() {
        out.push(Value::Object(end));
    }
    out
}

fn time(seconds: u32, total: u32) -> Value {
    json!({
        "now": { "m": seconds / 60, "s": seconds % 60 },
        "total": { "h": total / 3600, "m": total / 60 % 60, "s": total % 60 },
    })
}

fn move_object(pos: &Position, mv: Move, previous: Option<Square>) -> Value {
    let mover = pos.turn();
    let xy = |sq: Square| json!({ "x": sq.file().get(), "y": sq.rank().get() });
    let mut m = Map::new();
    m.insert("color".into(), json!(color(mover)));
    match mv {
        Move::Normal { from, to, promote } => {
            let kind = pos.piece_at(from).map(|p| p.kind).expect("a legal move starts on a piece");
            m.insert("from".into(), xy(from));
            m.insert("to".into(), xy(to));
            m.insert("piece".into(), json!(piece_code(kind)));
            if previous == Some(to) {
                m.insert("same".into(), json!(true));
            }
            let zone = from.rank().is_promotion_zone(mover) || to.rank().is_promotion_zone(mover);
            if kind.can_promote() && zone {
                m.insert("promote".into(), json!(promote));
            }
            if let Some(captured) = pos.piece_at(to) {
                m.insert("capture".into(), json!(piece_code(captured.kind)));
            }
        }
        Move::Drop { kind, to } => {
            m.insert("to".into(), xy(to));
            m.insert("piece".into(), json!(piece_code(kind)));
        }
    }
    let relative = relative(&notation::write(pos, mv, previous, Style::Japanese));
    if !relative.is_empty() {
        m.insert("relative".into(), json!(relative));
    }
    Value::Object(m)
}

/// JKF's `relative`, from the words a KI2 move adds to tell pieces apart: 左 L, 直 C, 右 R,
/// 上 (行, 入) U, 寄 M, 引 D, and 打 H for a drop that a board move could be taken for.
fn relative(japanese: &str) -> String {
    japanese
        .chars()
        .filter_map(|c| match c {
            '左' => Some('L'),
            '直' => Some('C'),
            '右' => Some('R'),
            '上' | '行' | '入' => Some('U'),
            '寄' => Some('M'),
            '引' => Some('D'),
            '打' => Some('H'),
            _ => None,
        })
        .collect()
}

/// JKF's `special` for an ending: CSA's word (see [`word_for`]) where JKF defines it, which it
/// does for those of CSA V2.2 only. A perpetual check is the foul of the side that gave the
/// checks (`+ILLEGAL_ACTION` when Black gave them), and nothing when no side is known; the move
/// limit is a draw (`HIKIWAKE`).
pub(crate) fn special(
    termination: Termination,
    outcome: Option<Outcome>,
    to_move: Color,
) -> Option<&'static str> {
    Some(match word_for(termination, outcome, to_move)? {
        "OUTE_SENNICHITE" => match outcome {
            Some(Outcome::Win(Color::White)) => "+ILLEGAL_ACTION",
            Some(Outcome::Win(Color::Black)) => "-ILLEGAL_ACTION",
            _ => return None,
        },
        "MAX_MOVES" => "HIKIWAKE",
        word => word,
    })
}

/// The word JKF writes for an ending in place of CSA's, which JKF does not define
/// ([`special`]); `None` where the two are one.
pub(crate) fn special_in_place(
    termination: Termination,
    outcome: Option<Outcome>,
    to_move: Color,
) -> Option<&'static str> {
    let word = special(termination, outcome, to_move)?;
    (word_for(termination, outcome, to_move) != Some(word)).then_some(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_from_ki2_words() {
        assert_eq!(relative("▲５八金左"), "L");
        assert_eq!(relative("△６三と左上"), "LU");
        assert_eq!(relative("▲２二龍入"), "U");
        assert_eq!(relative("▲５五角打"), "H");
        assert_eq!(relative("▲７六歩"), "");
        assert_eq!(relative("△同　成銀"), "");
    }
}
