//! The round trip: a game written by the KIF (and, when Japanese move notation is available,
//! the KI2) writer and read back is the same game: start, replayed moves, result,
//! variations, headers, comments and times.

use kifudex::{
    kifu::{Game, Header, MoveEntry, Variation, ki2, kif},
    replay::{ReplayedGame, ReplayedVariation},
    write,
};

/// Writes `game` as KIF (and KI2 when possible), reads it back and compares. Only games that
/// replay to their end are compared (the writers write what replay found legal): `Ok(false)`
/// for the others.
pub fn check(game: &Game, also_ki2: bool) -> Result<bool, String> {
    let before = kifudex::replay::replay(game);
    if !before.status.is_complete() {
        return Ok(false);
    }
    let text = write::kif::write(game, &before);
    compare(game, &before, &text, kif::read, true).map_err(|e| format!("KIF: {e}\n{text}"))?;
    if also_ki2 {
        let text = write::ki2::write(game, &before);
        compare(game, &before, &text, ki2::read, false).map_err(|e| format!("KI2: {e}\n{text}"))?;
    }
    Ok(true)
}

fn compare(
    game: &Game,
    before: &ReplayedGame,
    text: &str,
    read: fn(&str) -> Vec<Game>,
    times: bool,
) -> Result<(), String> {
    let games = read(text);
    let [again] = games.as_slice() else { return Err(format!("{} games read back", games.len())) };
    if let Some(p) = &again.problem {
        return Err(format!("read back with a problem: {p}"));
    }
    let after = kifudex::replay::replay(again);
    let same =
        |what: &str, a: String, b: String| if a == b { Ok(()) } else { Err(format!("{what}: {a} != {b}")) };
    same("start", before.start.to_string(), after.start.to_string())?;
    same("moves", format!("{:?}", before.moves), format!("{:?}", after.moves))?;
    same("outcome", format!("{:?}", before.outcome), format!("{:?}", after.outcome))?;
    same("termination", format!("{:?}", before.termination), format!("{:?}", after.termination))?;
    same(
        "foul",
        format!("{:?}", before.illegal_ending.is_some()),
        format!("{:?}", after.illegal_ending.is_some()),
    )?;
    same("status", before.status.to_string(), after.status.to_string())?;
    same("variations", variations(&before.variations), variations(&after.variations))?;
    same("headers", headers(&game.headers), headers(&again.headers))?;
    same("info", format!("{:?}", game.info), format!("{:?}", again.info))?;
    same("start comments", format!("{:?}", game.comments), format!("{:?}", again.comments))?;
    let n = before.moves.len() + usize::from(before.illegal_ending.is_some());
    same(
        "move notes",
        notes(&game.moves[..n], times),
        notes(&again.moves[..n.min(again.moves.len())], times),
    )?;
    same("variation notes", var_notes(&game.variations, times), var_notes(&again.variations, times))?;
    Ok(())
}

/// The headers but 手合割, which the writer adds or names canonically.
fn headers(headers: &[Header]) -> String {
    headers.iter().filter(|h| h.key != "手合割").map(|h| format!("{}：{}\n", h.key, h.value)).collect()
}

fn variations(vars: &[ReplayedVariation]) -> String {
    vars.iter().map(|v| format!("[{} {:?} {}]", v.ply, v.moves, variations(&v.variations))).collect()
}

fn notes(moves: &[MoveEntry], times: bool) -> String {
    moves.iter().map(|m| format!("{:?}{:?};", m.comments, if times { m.seconds } else { None })).collect()
}

fn var_notes(vars: &[Variation], times: bool) -> String {
    let mut sorted: Vec<&Variation> = vars.iter().collect();
    sorted.sort_by_key(|v| v.ply);
    sorted
        .iter()
        .map(|v| {
            let ending = v.ending.as_ref().map(|e| e.termination);
            format!("[{} {} {ending:?} {}]", v.ply, notes(&v.moves, times), var_notes(&v.variations, times))
        })
        .collect()
}
