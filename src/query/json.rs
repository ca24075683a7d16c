//! The answer as one JSON object: the form `query --format json` prints and the HTTP API
//! sends. Its keys and their order are a contract (see the command-line contract): extend it,
//! never rename.

use serde_json::{Map, Value, json};

use super::{Answer, years::Years};

/// Counts by year as a JSON object: `{"2014": {NAME: games, "black_wins": …, "white_wins": …,
/// "draws": …}, …}`, the games under `name` (`games` for a position, `played` for a move).
pub fn years_json(years: &Years, name: &str) -> Value {
    let mut out = Map::new();
    for (year, t) in years {
        let mut counts = Map::new();
        counts.insert(name.to_string(), t.games.into());
        counts.insert("black_wins".to_string(), t.black_wins.into());
        counts.insert("white_wins".to_string(), t.white_wins.into());
        counts.insert("draws".to_string(), t.draws.into());
        out.insert(year.clone(), Value::Object(counts));
    }
    Value::Object(out)
}

/// The answer as one line of JSON, without a newline: `{"position": {…}, "moves": […],
/// "games": […], "notes": […]}`; with counts by year, the position and each move have
/// `"by_year"`.
pub fn to_json(answer: &Answer) -> String {
    let moves: Vec<_> = answer
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let mut object = json!({
                "usi": m.usi, "japanese": m.japanese, "western": m.western,
                "played": m.played.games, "reached": m.reached,
                "black_wins": m.played.black_wins, "white_wins": m.played.white_wins, "draws": m.played.draws,
                "score": m.score,
            });
            if let Some(by) = &answer.by_year {
                object["by_year"] = years_json(by.moves.get(i).unwrap_or(&Years::new()), "played");
            }
            object
        })
        .collect();
    let games: Vec<_> = answer
        .list
        .iter()
        .map(|g| {
            let r = &g.game;
            json!({
                "id": r.id.0, "black": r.black, "white": r.white, "event": r.event,
                "date": r.date, "result": r.result.name(), "ply": g.ply,
            })
        })
        .collect();
    let mut position = json!({
        "sfen": answer.sfen, "games": answer.games.games, "occurrences": answer.occurrences,
        "black_wins": answer.games.black_wins, "white_wins": answer.games.white_wins,
        "draws": answer.games.draws,
    });
    if let Some(by) = &answer.by_year {
        position["by_year"] = years_json(&by.position, "games");
    }
    json!({ "position": position, "moves": moves, "games": games, "notes": answer.notes }).to_string()
}
