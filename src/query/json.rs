//! The answer as one JSON object: the form `query --format json` prints and the HTTP API
//! sends. Its keys and their order are a contract (see the command-line contract): extend it,
//! never rename.

use serde_json::json;

use super::Answer;

/// The answer as one line of JSON, without a newline: `{"position": {…}, "moves": […],
/// "games": […]}`.
pub fn to_json(answer: &Answer) -> String {
    let moves: Vec<_> = answer
        .moves
        .iter()
        .map(|m| {
            json!({
                "usi": m.usi, "japanese": m.japanese, "western": m.western,
                "played": m.played.games, "reached": m.reached,
                "black_wins": m.played.black_wins, "white_wins": m.played.white_wins, "draws": m.played.draws,
                "score": m.score,
            })
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
    json!({
        "position": {
            "sfen": answer.sfen, "games": answer.games.games, "occurrences": answer.occurrences,
            "black_wins": answer.games.black_wins, "white_wins": answer.games.white_wins,
            "draws": answer.games.draws,
        },
        "moves": moves,
        "games": games,
    })
    .to_string()
}
