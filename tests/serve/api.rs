//! Every endpoint against the command line: the same question asked both ways gets the same
//! answer, byte for byte where the command line prints JSON or a record.

use super::{Server, http, http::encode, samples_db};
use crate::{query::csv_rows, util::kifudex};

/// `kifudex ARGS --db DB`: status, stdout, stderr.
fn cli(args: &[&str]) -> (i32, String, String) {
    let db = samples_db().to_str().unwrap().to_string();
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--db", &db]);
    let out = kifudex(&all).output();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The query string for `pairs`, and the same options as command-line flags.
fn both(pairs: &[(&str, &str)]) -> (String, Vec<String>) {
    let query = pairs.iter().map(|(k, v)| format!("{k}={}", encode(v))).collect::<Vec<_>>().join("&");
    let mut args = vec!["query".to_string(), "--format".to_string(), "json".to_string()];
    for (k, v) in pairs {
        args.push(format!("--{k}"));
        args.push(v.to_string());
    }
    (query, args)
}

const HABU_FUJII_SFEN: &str = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL w - 4";

#[test]
fn query_answers_are_the_command_lines_json() {
    let server = Server::start(samples_db(), &[]);
    let cases: &[&[(&str, &str)]] = &[
        &[],
        &[("moves", "7g7f 3c3d")],
        &[("moves", "▲７六歩△３四歩"), ("limit", "2")],
        &[("moves", "1.P-76 P-34 2.P-26"), ("limit", "1"), ("offset", "1")],
        &[("sfen", HABU_FUJII_SFEN)],
        &[("moves", "7g7f"), ("player", "Habu")],
        &[("moves", "7g7f"), ("black", "羽生"), ("since", "2000"), ("until", "2010-06")],
        &[("white", "Lamb"), ("result", "white")],
        &[("event", "順位戦"), ("result", "black")],
        &[("result", "other")],
        &[("result", "draw")],
        &[("start", "香落ち")],
        &[("start", "lance"), ("moves", "△３二金")],
        &[("handicap", "lance")],
        &[("handicap", "平手"), ("limit", "0")],
        &[("moves", "7g7f 3c3d 2g2f"), ("exact-sequence", "true")],
        &[("moves", "7g7f 3c3d 5g5f 5c5d 4i4h 8c8d")],
        &[("offset", "5"), ("limit", "3")],
        &[("offset", "100")],
    ];
    // An SFEN with moves after it, longer than any SFEN: the first 40 moves of a game.
    let (_, usi, _) = cli(&["show", "2", "--to", "usi"]);
    let moves: Vec<&str> = usi.split_whitespace().skip_while(|w| *w != "moves").skip(1).take(40).collect();
    assert_eq!(moves.len(), 40, "{usi}");
    let long =
        format!("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves {}", moves.join(" "));
    assert!(long.len() > 256);
    let long_case = [("sfen", long.as_str()), ("limit", "3")];
    for pairs in cases.iter().copied().chain([&long_case[..]]) {
        let (query, args) = both(pairs);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        // The flag --exact-sequence takes no value on the command line.
        let args: Vec<&str> = match args.iter().position(|a| *a == "--exact-sequence") {
            Some(i) => args.iter().enumerate().filter(|&(j, _)| j != i + 1).map(|(_, a)| *a).collect(),
            None => args,
        };
        let (code, stdout, stderr) = cli(&args);
        assert!(code == 0 || code == 1, "{args:?}: {stderr}");
        let answer = http::get(server.addr, &format!("/api/query?{query}"));
        assert_eq!(answer.status, 200, "{query}: {}", answer.text());
        assert_eq!(answer.header("content-type"), Some("application/json"));
        assert_eq!(answer.text() + "\n", stdout, "{query}");
    }
}

#[test]
fn the_game_list_pages_through_every_game() {
    let server = Server::start(samples_db(), &[]);
    let (_, all, _) = cli(&["query", "--format", "json", "--limit", "1000"]);
    let all: serde_json::Value = serde_json::from_str(&all).unwrap();
    let total = all["position"]["games"].as_u64().unwrap() as usize;
    assert!(total > 10, "the samples hold more than ten games");
    let mut paged = Vec::new();
    for offset in (0..total + 3).step_by(3) {
        let page = http::get(server.addr, &format!("/api/query?limit=3&offset={offset}")).json();
        paged.extend(page["games"].as_array().unwrap().iter().cloned());
    }
    assert_eq!(&paged, all["games"].as_array().unwrap());
    assert_eq!(paged.len(), total);
    let (_, table, _) = cli(&["query", "--offset", "3", "--limit", "4"]);
    assert!(
        table.ends_with(&format!(
            "(games 4 to 7 of {total}, newest first; --offset and --limit choose others)\n"
        )),
        "{table}"
    );
}

#[test]
fn bad_input_is_refused_with_the_command_lines_words() {
    let server = Server::start(samples_db(), &[]);
    let cases: &[&[(&str, &str)]] = &[
        &[("moves", "7g7f 3c3d 5a5b")],
        &[("moves", "7g7f 7f7e 7e7d 7d7c+ 6a6b")],
        &[("moves", "▲７六歩 △３四歩 ▲５八金引")],
        &[("moves", "hello")],
        &[("sfen", "lnsgkgsnl/9 b - 1")],
        &[("sfen", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1")],
        &[("start", "queen")],
        &[("since", "last year")],
        &[("until", "2019-4")],
        &[("since", "2019-06-01T10:00")],
        &[("handicap", "queen")],
        // Moves from the wrong start for a handicap: the message says where they can be played.
        &[("handicap", "lance"), ("moves", "3c3d 7g7f")],
        &[("start", "lance"), ("moves", "7g7f 3c3d")],
    ];
    for pairs in cases {
        let (query, args) = both(pairs);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, _, stderr) = cli(&args);
        assert_eq!(code, 2, "{args:?}");
        let answer = http::get(server.addr, &format!("/api/query?{query}"));
        assert_eq!(answer.status, 400, "{query}");
        let message = stderr.trim_end().strip_prefix("kifudex: ").unwrap().to_string();
        assert_eq!(answer.json()["error"], message, "{query}");
        // The position endpoint takes the same parameters (the page sends both the same), and
        // refuses them the same way.
        let answer = http::get(server.addr, &format!("/api/position?{query}"));
        assert_eq!(
            (answer.status, answer.json()["error"].as_str().unwrap()),
            (400, message.as_str()),
            "{query}"
        );
    }
    // The API's own checks.
    for (query, words) in [
        ("result=won", "--result 'won' is not one of black, white, draw, other (or unknown)"),
        ("limit=ten", "--limit 'ten' is not a number"),
        ("limit=-1", "--limit '-1' is below 0: give 0 or more"),
        ("limit=5000", "--limit 5000 is more than the 1000 games one answer lists"),
        ("moves=7g7f&sfen=startpos", "--moves and --sfen cannot be given together"),
        (
            "sfen=lnsgkgsnl%2F1r5b1%2Fppppppppp%2F9%2F9%2F9%2FPPPPPPPPP%2F1B5R1%2FLNSGKGSNL%20b%20-%201&start=%E9%A6%99%E8%90%BD%E3%81%A1",
            "--start is where moves start, and --sfen is the position itself: they cannot be given together",
        ),
        ("colour=black", "unknown parameter 'colour'"),
        ("player=a&player=b", "parameter 'player' is given twice"),
        // A `%` that escapes nothing is no URL encoding: not searched for as it stands.
        ("player=%zz", "the query string is not URL-encoded UTF-8 text"),
        ("event=100%", "the query string is not URL-encoded UTF-8 text"),
    ] {
        for endpoint in ["query", "position"] {
            let answer = http::get(server.addr, &format!("/api/{endpoint}?{query}"));
            assert_eq!(
                (answer.status, answer.json()["error"].as_str().unwrap()),
                (400, words),
                "{endpoint}?{query}"
            );
        }
    }
}

#[test]
fn games_are_the_exports_ply_by_ply() {
    let server = Server::start(samples_db(), &[]);
    let (_, games, _) = cli(&["export", "games"]);
    let (_, moves, _) = cli(&["export", "moves"]);
    let moves = csv_rows(moves.as_bytes());
    let mut seen = 0;
    for game in csv_rows(games.as_bytes()).into_iter().filter(|g| g["duplicate_of"].is_empty()) {
        let id = &game["game_id"];
        let answer = http::get(server.addr, &format!("/api/game/{id}"));
        assert_eq!(answer.status, 200);
        let json = answer.json();
        assert_eq!(json["id"].to_string(), *id);
        assert_eq!(json["start"], game["start_sfen"]);
        assert_eq!(json["result"], game["result"]);
        assert_eq!(json["termination"].as_str().unwrap_or(""), game["termination"]);
        for (field, column) in [("black", "black"), ("white", "white"), ("event", "event"), ("date", "date")]
        {
            assert_eq!(json[field].as_str().unwrap_or(""), game[column], "game {id} {field}");
        }
        let rows: Vec<_> = moves.iter().filter(|r| r["game_id"] == *id).collect();
        let plies = json["plies"].as_array().unwrap();
        assert_eq!(plies.len().to_string(), game["plies"], "game {id}");
        assert_eq!(plies.len(), rows.len());
        for (i, (ply, row)) in plies.iter().zip(&rows).enumerate() {
            assert_eq!(ply["ply"].to_string(), row["ply"]);
            for field in ["usi", "japanese", "western"] {
                assert_eq!(ply[field], row[field], "game {id} ply {} {field}", i + 1);
            }
            assert_eq!(ply["time"].as_u64().map(|t| t.to_string()).unwrap_or_default(), row["time_seconds"]);
            assert_eq!(ply["comment"].as_str().unwrap_or(""), row["comment"], "game {id} ply {}", i + 1);
            let after =
                rows.get(i + 1).map_or(game["final_sfen"].as_str(), |next| next["sfen_before"].as_str());
            assert_eq!(ply["sfen"], after, "game {id} ply {}", i + 1);
        }
        seen += 1;
    }
    assert!(seen >= 10);
    assert!(
        moves.iter().any(|r| !r["comment"].is_empty()) && moves.iter().any(|r| !r["time_seconds"].is_empty())
    );
}

#[test]
fn records_are_what_show_writes() {
    let server = Server::start(samples_db(), &[]);
    for id in ["1", "2", "5", "9"] {
        for (ext, to) in [
            ("kif", "kif"),
            ("ki2", "ki2"),
            ("csa", "csa"),
            ("jkf", "jkf"),
            ("usi", "usi"),
            ("psn", "western"),
        ] {
            let (code, stdout, stderr) = cli(&["show", id, "--to", to]);
            // What the format cannot hold is said: the page's viewer says it as `show` does.
            let prefix = format!("kifudex: game {id}: ");
            let said: Vec<&str> = stderr.lines().map(|l| l.strip_prefix(&prefix).unwrap_or(l)).collect();
            let warned = said.iter().any(|l| !l.starts_with("note: "));
            assert_eq!(code, if warned { 1 } else { 0 }, "{stderr}");
            let game = http::get(server.addr, &format!("/api/game/{id}")).json();
            let left_out = game["left_out"][ext].as_array().map_or_else(Vec::new, |a| {
                a.iter().map(|v| v.as_str().unwrap().to_string()).collect::<Vec<_>>()
            });
            assert_eq!(left_out, said, "game {id} as {ext}");
            let answer = http::get(server.addr, &format!("/api/game/{id}.{ext}"));
            assert_eq!(answer.status, 200);
            assert_eq!(answer.text(), stdout, "game {id} as {ext}");
            // The text is UTF-8: the file is named as Kakinoki's UTF-8 formats are.
            let saved = match ext {
                "kif" => "kifu",
                "ki2" => "ki2u",
                other => other,
            };
            assert_eq!(
                answer.header("content-disposition"),
                Some(format!("attachment; filename=\"game-{id}.{saved}\"").as_str())
            );
            assert_eq!(
                http::get(server.addr, &format!("/api/game/{id}")).json()["formats"]
                    .as_array()
                    .unwrap()
                    .len(),
                6
            );
        }
    }
    // The yari shogi game, from the yari start, can be had in every format but CSA, which
    // cannot name a variant; its viewer offers just those.
    let (_, listed, _) = cli(&["games", "--variant", "yari", "--format", "csv"]);
    let yari = listed.lines().nth(1).unwrap().split(',').next().unwrap().to_string();
    let game = http::get(server.addr, &format!("/api/game/{yari}")).json();
    assert_eq!(game["formats"], serde_json::json!(["kif", "ki2", "jkf", "usi", "psn"]));
    for (ext, status) in [("kif", 200), ("ki2", 200), ("csa", 404), ("jkf", 200), ("usi", 200), ("psn", 200)]
    {
        assert_eq!(http::get(server.addr, &format!("/api/game/{yari}.{ext}")).status, status, "{ext}");
    }
    // The refusal names what it can be had in: the formats listed.
    let refused = http::get(server.addr, &format!("/api/game/{yari}.csa")).json();
    let error = refused["error"].as_str().unwrap();
    assert!(error.ends_with("; ask for .kif, .ki2, .jkf, .usi, .psn"), "{error}");
    let (code, _, stderr) = cli(&["show", "999"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("there is no game 999"));
    for path in ["/api/game/999", "/api/game/999.kif"] {
        let answer = http::get(server.addr, path);
        assert_eq!((answer.status, answer.json()["error"].as_str().unwrap()), (404, "there is no game 999"));
    }
    assert_eq!(http::get(server.addr, "/api/game/1.exe").status, 404);
    assert_eq!(http::get(server.addr, "/api/game/one").status, 400);
    assert_eq!(http::get(server.addr, "/api/game/-1").status, 400);
    assert_eq!(http::get(server.addr, "/api/game/0").status, 404);
}

#[test]
fn positions_name_their_moves_as_the_moves_command_does() {
    let server = Server::start(samples_db(), &[]);
    // The start position has 30 legal moves.
    let start = http::get(server.addr, "/api/position").json();
    assert_eq!(start["legal"].as_array().unwrap().len(), 30);
    assert_eq!((start["turn"].as_str(), start["check"].as_bool()), (Some("black"), Some(false)));
    let text = "1.P-76 P-34 2.Bx22+ Sx22 3.B*45";
    let answer = http::get(server.addr, &format!("/api/position?moves={}", encode(text))).json();
    let moves = answer["moves"].as_array().unwrap();
    for (field, to) in [("usi", "usi"), ("japanese", "japanese"), ("western", "western")] {
        let stdout = String::from_utf8(kifudex(["moves", text, "--to", to]).output().stdout).unwrap();
        let ours: Vec<&str> = moves.iter().map(|m| m[field].as_str().unwrap()).collect();
        assert_eq!(ours.join(" "), stdout.trim_end(), "{field}");
    }
    // After B*4e White has legal moves, and none is a drop of a piece White does not hold.
    let legal: Vec<&str> = answer["legal"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    assert!(legal.contains(&"B*5e") && !legal.iter().any(|m| m.starts_with("R*")), "{legal:?}");
    // The query's other parameters, which the page sends along, change nothing.
    let along = "player=%E7%BE%BD%E7%94%9F&since=2000&until=2020-06&result=black&limit=50&offset=20\
                 &exact-sequence=1&by=year&event=%E9%A0%86%E4%BD%8D%E6%88%A6&opening=x";
    let with = http::get(server.addr, &format!("/api/position?moves={}&{along}", encode(text)));
    assert_eq!((with.status, with.json()), (200, answer.clone()));
    // A mate: the fool's mate of shogi is rare; 1 move from mate here: the position reports it.
    let mate =
        http::get(server.addr, &format!("/api/position?sfen={}", encode("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1")))
            .json();
    assert_eq!((mate["check"].as_bool(), mate["mate"].as_bool()), (Some(true), Some(true)));
    assert_eq!(mate["legal"].as_array().unwrap().len(), 0);
}

#[test]
fn jumps_read_moves_sfen_diagrams_and_records() {
    let server = Server::start(samples_db(), &[]);
    let jump = |text: &str| http::post(server.addr, "/api/jump", text.as_bytes());
    let moves = jump("▲７六歩△３四歩▲２二角成").json();
    assert_eq!(
        (moves["moves"].as_str(), moves["start"].as_str()),
        (Some("7g7f 3c3d 8h2b+"), Some("startpos"))
    );
    let sfen = jump(&format!("sfen {HABU_FUJII_SFEN}")).json();
    assert_eq!(sfen["sfen"], HABU_FUJII_SFEN);
    // The text is the body: a parameter is refused, as every other request refuses one.
    for (query, error) in
        [("x=1", "unknown parameter 'x'"), ("moves=7g7f", "parameter 'moves' is not taken here")]
    {
        let answer = http::post(server.addr, &format!("/api/jump?{query}"), b"7g7f");
        assert_eq!((answer.status, answer.json()["error"].as_str()), (400, Some(error)), "{query}");
    }
    // A USI position command whose start cannot be read is refused for what is wrong with it;
    // one with a move that cannot be read, even after the game ended, is a record that stops
    // there, as a line of a USI file is.
    let refused = jump("position sfen xyz moves 7g7f");
    assert_eq!(refused.status, 400);
    assert_eq!(refused.json()["error"], "not an SFEN: SFEN is missing its side to move");
    let stopped = jump("position startpos moves 7g7f 3c3d resign 2g2f").json();
    assert_eq!((stopped["moves"].as_str(), stopped["stopped"]["ply"].as_u64()), (Some("7g7f 3c3d"), Some(2)));
    assert_eq!(stopped["stopped"]["reason"], "unreadable: line 1: '2g2f' after the end of the game");
    // Several USI lines are a USI record, a game a line: its first game, as `convert` reads it.
    for text in [
        "position startpos moves 7g7f\nposition startpos moves 2g2f\n",
        "sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1 moves G*5b\nsfen 4k4/9/9/9/9/9/9/9/4K4 b R 1\n",
    ] {
        let answer = jump(text);
        assert_eq!(answer.status, 200, "{text}");
        let first = text.lines().next().unwrap();
        let expected = first.rsplit(" moves ").next().filter(|_| first.contains(" moves ")).unwrap();
        assert_eq!(answer.json()["moves"], expected, "{text}");
    }
    // A whole record: its moves as the USI writer prints them.
    let samples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    for file in
        ["pro/2006-12-15_habu-fujii.kif", "computer/2005_gps-yamada.csa", "handicap/2008-12-20_kyo-ochi.kif"]
    {
        let path = samples.join(file);
        let bytes = std::fs::read(&path).unwrap();
        let answer = http::post(server.addr, "/api/jump", &bytes).json();
        let out = kifudex(["convert", path.to_str().unwrap(), "--to", "usi"]).output();
        let usi = String::from_utf8(out.stdout).unwrap();
        let line = usi.lines().find(|l| l.starts_with("position")).unwrap().to_string();
        let start = answer["start"].as_str().unwrap();
        let expected_start = if start == "startpos" {
            "position startpos".to_string()
        } else {
            format!("position sfen {start}")
        };
        // The USI writer ends the line with the game's ending word, if any: a last word of
        // lowercase letters only, which no move is.
        let line = match line.rsplit_once(' ') {
            Some((rest, last)) if last.chars().all(|c| c.is_ascii_lowercase() || c == '_') => rest,
            _ => line.as_str(),
        };
        assert_eq!(line, format!("{expected_start} moves {}", answer["moves"].as_str().unwrap()), "{file}");
        assert_eq!(answer["stopped"], serde_json::Value::Null, "{file}: a whole record");
    }
    // A record that stops at an illegal move (a pawn's two squares, move 3) opens where it
    // stops, and says so; so do a CSA record and a USI one, a line or a file of them.
    for record in [
        "手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ５五歩(57)\n   4 ８四歩(83)\n",
        "+7776FU\n-3334FU\n+5755FU\n",
        "position startpos moves 7g7f 3c3d 5g5e 8c8d",
    ] {
        let answer = jump(record).json();
        assert_eq!(answer["moves"], "7g7f 3c3d", "{record}");
        assert_eq!(answer["stopped"]["ply"], 2, "{record}");
        let reason = answer["stopped"]["reason"].as_str().unwrap();
        assert!(reason.contains("move 3 (") && reason.contains("no such move"), "{record}: {reason}");
    }
    // A diagram: the position `query --bod` reads from it.
    let (_, kif_bod, _) = {
        let out = kifudex([
            "query",
            "--moves",
            "7g7f 3c3d",
            "--limit",
            "0",
            "--db",
            samples_db().to_str().unwrap(),
        ])
        .output();
        (0, String::from_utf8(out.stdout).unwrap(), ())
    };
    let diagram: String = kif_bod
        .lines()
        .skip_while(|l| !l.starts_with("後手の持駒"))
        .take_while(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n");
    let answer = jump(&diagram).json();
    // A diagram reads as a record that starts there, with no moves, or as a position.
    let at = answer["sfen"].as_str().or(answer["start"].as_str().filter(|_| answer["moves"] == "")).unwrap();
    assert_eq!(
        at.rsplit_once(' ').unwrap().0,
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b -"
    );
    for bad in ["", "   ", "hello world", "7g7f 7g7f"] {
        let answer = jump(bad);
        assert_eq!(answer.status, 400, "{bad}");
        assert!(!answer.json()["error"].as_str().unwrap().is_empty());
    }
    // A diagram with a mistake is that mistake, not a board without the mistyped piece (步 for
    // 歩 on 7f) nor the even game (a row short of a square).
    for (from, to, why) in [
        ("| ・ ・ 歩 ・ ・ ・ ・ ・ ・|六", "| ・ ・ 步 ・ ・ ・ ・ ・ ・|六", "not a piece"),
        ("| ・ ・ 歩 ・ ・ ・ ・ ・ ・|六", "| ・ ・ 歩 ・ ・ ・ ・ ・|六", "the row has 8 squares"),
    ] {
        assert!(diagram.contains(from));
        let answer = jump(&diagram.replace(from, to));
        assert_eq!(answer.status, 400, "{to}");
        let error = answer.json()["error"].as_str().unwrap().to_string();
        assert!(error.starts_with("not a board diagram: ") && error.contains(why), "{error}");
    }
    // A USI position command keeps its moves, so the page shows how the position was reached.
    let usi = jump("position startpos moves 7g7f 3c3d").json();
    assert_eq!((usi["moves"].as_str(), usi["start"].as_str()), (Some("7g7f 3c3d"), Some("startpos")));
    // Moves past what the `moves` parameter takes (8 kB) open as the position they reach: a
    // king walking back and forth returns to the position after the bishop exchange.
    let long = format!("7g7f 3c3d 8h2b+ 3a2b{}", " 5i5h 5a5b 5h5i 5b5a".repeat(500));
    let answer = jump(&long).json();
    assert_eq!(answer["sfen"], "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 2005");
    let opened =
        http::get(server.addr, &format!("/api/position?sfen={}", encode(answer["sfen"].as_str().unwrap())));
    assert_eq!(opened.status, 200);
}

#[test]
fn the_page_and_its_assets_are_served_from_the_binary() {
    let server = Server::start(samples_db(), &[]);
    let page = http::get(server.addr, "/");
    assert_eq!(page.status, 200);
    assert_eq!(page.header("content-type"), Some("text/html; charset=utf-8"));
    let html = page.text();
    let mut assets = 0;
    for piece in html.split("/assets/").skip(1) {
        let name = piece.split('"').next().unwrap();
        let answer = http::get(server.addr, &format!("/assets/{name}"));
        assert_eq!(answer.status, 200, "{name}");
        let kind = answer.header("content-type").unwrap();
        let expected = match name.rsplit('.').next().unwrap() {
            "js" => "text/javascript",
            "css" => "text/css",
            "svg" => "image/svg+xml",
            other => panic!("an asset of type {other}"),
        };
        assert!(kind.starts_with(expected), "{name}: {kind}");
        assets += 1;
    }
    assert!(assets >= 6, "{assets}");
    // The state is in the query string: the page is the same for any of it.
    assert_eq!(http::get(server.addr, "/?moves=7g7f+3c3d&game=2&ply=4").text(), html);
    assert_eq!(http::get(server.addr, "/assets/nothing.js").status, 404);
    assert_eq!(http::get(server.addr, "/index.html").status, 404);
}

#[test]
fn it_answers_while_an_index_run_writes() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("k.sqlite");
    let samples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let first =
        kifudex(["index", samples.to_str().unwrap(), "--quiet", "--db", db.to_str().unwrap()]).output();
    assert!(first.status.success());
    // Many copies of the samples: the same games in new files, each a write.
    let copies = dir.path().join("copies");
    for i in 0..150 {
        for entry in walkdir::WalkDir::new(&samples)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
        {
            let to = copies.join(format!("{i:03}")).join(entry.path().strip_prefix(&samples).unwrap());
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(entry.path(), to).unwrap();
        }
    }
    let server = Server::start(&db, &[]);
    let before = http::get(server.addr, "/api/query?moves=7g7f").text();
    let mut index = crate::util::command()
        .args(["index", copies.to_str().unwrap(), "--quiet", "--db", db.to_str().unwrap()])
        .spawn()
        .unwrap();
    let mut answered = 0;
    let status = loop {
        for path in ["/api/query?moves=7g7f", "/api/game/2", "/api/position?moves=7g7f"] {
            let answer = http::get(server.addr, path);
            assert_eq!(answer.status, 200, "{path}: {}", answer.text());
            answered += 1;
        }
        if let Some(status) = index.try_wait().unwrap() {
            break status;
        }
    };
    assert!(status.success() || status.code() == Some(1), "{status}");
    assert!(answered >= 3);
    // The copies hold the same games: the answer is the same.
    assert_eq!(http::get(server.addr, "/api/query?moves=7g7f").text(), before);
    let files = String::from_utf8(kifudex(["export", "games", "--db", db.to_str().unwrap()]).output().stdout)
        .unwrap();
    assert!(files.lines().count() > 1000, "the run indexed the copies");
    // A new game: the answers the server kept give way to the new ones.
    let start_before = http::get(server.addr, "/api/query").text();
    let new_game =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/kifu/mog-002-time-up.kif");
    let added =
        kifudex(["index", new_game.to_str().unwrap(), "--quiet", "--db", db.to_str().unwrap()]).output();
    assert!(added.status.success());
    let cli = kifudex(["query", "--format", "json", "--db", db.to_str().unwrap()]).output();
    let start_after = http::get(server.addr, "/api/query").text();
    assert_ne!(start_after, start_before);
    assert_eq!(start_after + "\n", String::from_utf8(cli.stdout).unwrap());
}

/// Runs of `index` that add games while the server answers all the time: once each run has
/// ended, every answer is the new database's (the command line's, and the count of games
/// generated), never one from pages a reader kept from before or during the run.
#[test]
fn answers_after_index_runs_are_the_new_databases() {
    use std::sync::atomic::{AtomicBool, Ordering};

    use crate::util::games::{generate, write_games};

    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("k.sqlite");
    let db_text = db.to_str().unwrap().to_string();
    let samples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    assert!(
        kifudex(["index", samples.to_str().unwrap(), "--quiet", "--db", &db_text]).output().status.success()
    );
    let games_at_start = |text: &str| -> u64 {
        let answer: serde_json::Value = serde_json::from_str(text).unwrap();
        answer["position"]["games"].as_u64().unwrap()
    };
    let cli = |limit: &str| {
        let out = kifudex(["query", "--format", "json", "--limit", limit, "--db", &db_text]).output();
        String::from_utf8(out.stdout).unwrap()
    };
    let mut expected_games = games_at_start(&cli("1"));
    let server = Server::start(&db, &[]);
    /// Stops the requests when the test ends, also when it fails.
    struct Stop<'a>(&'a AtomicBool);
    impl Drop for Stop<'_> {
        fn drop(&mut self) {
            self.0.store(true, Ordering::Relaxed);
        }
    }
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let _stop = Stop(&stop);
        for _ in 0..3 {
            scope.spawn(|| {
                while !stop.load(Ordering::Relaxed) {
                    for path in ["/api/query?limit=5", "/api/status", "/api/query?moves=7g7f"] {
                        http::get(server.addr, path);
                        // Gaps between requests, in which a run can end.
                        std::thread::sleep(std::time::Duration::from_millis(5));
                    }
                }
            });
        }
        // Short runs: a run that ends while no answer is being read puts the file back in
        // rollback-journal mode.
        for round in 0..40u64 {
            let specs = generate(16, 100 + round);
            write_games(&dir.path().join(format!("batch{round}")), &specs);
            let batch = dir.path().join(format!("batch{round}"));
            let run = kifudex(["index", batch.to_str().unwrap(), "--quiet", "--db", &db_text]).output();
            assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
            expected_games +=
                specs.iter().filter(|s| s.start == kifudex::shogi::Handicap::Even).count() as u64;
            // A question asked all along, and one never asked before.
            for limit in ["5", &format!("{}", 10 + round)] {
                let answer = http::get(server.addr, &format!("/api/query?limit={limit}")).text();
                assert_eq!(games_at_start(&answer), expected_games, "after run {round}, limit {limit}");
                assert_eq!(answer + "\n", cli(limit), "after run {round}, limit {limit}");
            }
        }
    });
}

#[test]
fn a_database_removed_or_replaced_while_serving_is_never_answered_from_the_old_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("k.sqlite");
    let db_text = db.to_str().unwrap();
    let samples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    assert!(
        kifudex(["index", samples.to_str().unwrap(), "--quiet", "--db", db_text]).output().status.success()
    );
    let server = Server::start(&db, &[]);
    assert_eq!(http::get(server.addr, "/api/query").status, 200);
    // Removed: no answer, said as the command line says it.
    std::fs::remove_file(&db).unwrap();
    let gone = http::get(server.addr, "/api/query");
    assert_eq!((gone.status, gone.text()), (503, format!("{{\"error\":\"no database at {db_text}\"}}")));
    // Built again from one file of the samples: the answers are the new database's, as the
    // command line gives them, not the old one's.
    let one = samples.join("pro/2006-12-15_habu-fujii.kif");
    assert!(kifudex(["index", one.to_str().unwrap(), "--quiet", "--db", db_text]).output().status.success());
    for path in ["/api/query", "/api/query?moves=7g7f"] {
        let cli_args: Vec<&str> = match path {
            "/api/query" => vec!["query", "--format", "json", "--db", db_text],
            _ => vec!["query", "--moves", "7g7f", "--format", "json", "--db", db_text],
        };
        let cli = String::from_utf8(kifudex(cli_args).output().stdout).unwrap();
        assert_eq!(http::get(server.addr, path).text() + "\n", cli, "{path}");
    }
    // An older kifudex's file put in its place, which an index run must bring up to date first:
    // no answer, said as the command line says it.
    let older = dir.path().join("older.sqlite");
    let conn = rusqlite::Connection::open(&older).unwrap();
    conn.execute_batch(include_str!("../data/migration/v2-duplicates.sql")).unwrap();
    conn.pragma_update(None, "user_version", 2).unwrap();
    drop(conn);
    std::fs::rename(&older, &db).unwrap();
    let refused = http::get(server.addr, "/api/query");
    let said = String::from_utf8(kifudex(["query", "--db", db_text]).output().stderr).unwrap();
    assert!(said.contains("run `kifudex index` on it once"), "{said}");
    assert_eq!(refused.status, 503);
    assert_eq!(format!("kifudex: {}\n", refused.json()["error"].as_str().unwrap()), said);
}

/// A game found in several files is opened with the record the list showed it with: the
/// filters of the list go with it, as `show` takes them. (Game 2 of the samples is in a KIF
/// file naming 羽生善治 and a CSA one naming Habu Yoshiharu.)
#[test]
fn a_game_is_shown_with_the_record_its_filters_match() {
    let server = Server::start(samples_db(), &[]);
    for (player, black) in [("羽生", "羽生善治"), ("Habu", "Habu Yoshiharu")] {
        let filter = format!("player={}", encode(player));
        let listed = http::get(server.addr, &format!("/api/query?{filter}&limit=50")).json();
        let row = listed["games"].as_array().unwrap().iter().find(|g| g["id"] == 2).unwrap().clone();
        assert_eq!(row["black"], black);
        let game = http::get(server.addr, &format!("/api/game/2?{filter}")).json();
        for field in ["black", "white", "event", "date"] {
            assert_eq!(game[field], row[field], "{player}: {field}");
        }
        let (code, shown, stderr) = cli(&["show", "2", "--player", player, "--to", "kif"]);
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(http::get(server.addr, &format!("/api/game/2.kif?{filter}")).text(), shown);
    }
    let answer = http::get(server.addr, "/api/game/2?player=nobody");
    assert_eq!(
        (answer.status, answer.json()["error"].as_str().unwrap()),
        (404, "no record of game 2 matches the filters")
    );
    let answer = http::get(server.addr, "/api/game/2?moves=7g7f");
    assert_eq!(answer.status, 400);
    assert_eq!(http::get(server.addr, "/api/game/2?player=").status, 200, "an empty filter is no filter");
}

/// A database that holds no game is said to, in the command line's words: else every
/// position reads on the page as one that no game reaches.
#[test]
fn a_database_that_holds_no_game_is_said_to() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, db) = (tmp.path().join("none"), tmp.path().join("k.sqlite"));
    std::fs::create_dir(&dir).unwrap();
    let out = kifudex(["index", dir.to_str().unwrap(), "--db", db.to_str().unwrap(), "--quiet"]).output();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let server = Server::start(&db, &[]);
    let warning = http::get(server.addr, "/api/status").json()["warning"].as_str().unwrap().to_string();
    let out = kifudex(["games", "--db", db.to_str().unwrap()]).output();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.trim_end(), format!("kifudex: {warning}"), "the command line's words");
    assert!(warning.starts_with("the database holds no game"), "{warning}");
}

/// What the command line says on stderr of an answer, the API's answer says in its `notes`, in
/// the same words: no game with a handicap from the even start, a page past the end, and
/// nothing of an answer that needs no word.
#[test]
fn the_notes_of_an_answer_are_the_command_lines() {
    let server = Server::start(samples_db(), &[]);
    let db = samples_db().to_str().unwrap();
    let eight = "handicap=%E5%85%AB%E6%9E%9A%E8%90%BD%E3%81%A1";
    // The same position from an SFEN first: its answer has no word of the start option, and
    // is not the answer kept for the moves from the start option.
    for (query, args, noted) in [
        (format!("{eight}&sfen=startpos").as_str(), &["--handicap", "八枚落ち", "--sfen", "startpos"][..], 1),
        (
            &format!("{eight}&moves=position%20startpos"),
            &["--handicap", "八枚落ち", "--moves", "position startpos"][..],
            1,
        ),
        (eight, &["--handicap", "八枚落ち"][..], 2),
        ("offset=100000", &["--offset", "100000"][..], 1),
        ("moves=7g7f", &["--moves", "7g7f"][..], 0),
    ] {
        let answer = http::get(server.addr, &format!("/api/query?{query}")).json();
        let notes: Vec<String> = answer["notes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| format!("kifudex: {}", n.as_str().unwrap()))
            .collect();
        assert_eq!(notes.len(), noted, "{query}: {answer}");
        let out = kifudex(["query", "--db", db].into_iter().chain(args.iter().copied())).output();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(stderr.lines().collect::<Vec<_>>(), notes, "{query}");
        let out = kifudex(["query", "--db", db, "--format", "json"].into_iter().chain(args.iter().copied()))
            .output();
        let printed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(printed, answer, "{query}: the command's JSON is the API's");
    }
}

/// While an index run writes the database, or after one that did not finish, the API and the
/// page say that the answers cover only part of the files, as the command line does.
#[test]
fn an_unfinished_run_is_said_by_the_api_and_the_page() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("k.sqlite");
    std::fs::copy(samples_db(), &db).unwrap();
    let server = Server::start(&db, &[]);
    assert_eq!(http::get(server.addr, "/api/status").json(), serde_json::json!({ "warning": null }));
    // The mark a killed run leaves: the id of a process that is gone (past the largest id
    // Linux gives).
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute("INSERT INTO meta(key, value) VALUES ('run_unfinished', '4194305')", []).unwrap();
    drop(conn);
    let warning = http::get(server.addr, "/api/status").json()["warning"].as_str().unwrap().to_string();
    assert!(warning.starts_with("the last index run on "), "{warning}");
    assert!(warning.contains("did not finish"), "{warning}");
    let out = kifudex(["games", "--db", db.to_str().unwrap()]).output();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.trim_end(), format!("kifudex: warning: {warning}"), "the command line's words");
    assert_eq!(http::get(server.addr, "/api/status?player=x").status, 400);

    let Some((chromium, chromedriver)) = super::webdriver::browser_or_skip("the page's part") else {
        return;
    };
    let browser = super::webdriver::Browser::start(&chromium, &chromedriver, 1024, 768);
    browser.open(&server.url("/?lang=en"));
    while browser.run("return document.body.dataset.state === 'ready'", serde_json::json!([])) != true {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(browser.text("#notice"), warning);
}

/// A game whose record stops at an illegal move is stored up to there: `show` writes it so,
/// and says so with status 1, as `convert` says it of the file; the API's game names the stop
/// and each download says what it leaves out.
#[test]
fn a_game_stored_up_to_a_stop_is_shown_as_such() {
    // Move 3, ５五歩(57), is no move: a pawn steps one square.
    let record = "先手：Gamma\n後手：Delta\n手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 \
                  ５五歩(57)\n   4 ８四歩(83)\n   5 投了\n";
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("stops.kifu"), record).unwrap();
    let db = tmp.path().join("k.sqlite");
    // A rejected game: status 1.
    assert_eq!(kifudex(["index", tmp.path().to_str().unwrap()]).db(&db).output().status.code(), Some(1));
    let said = "game 1: written up to move 2 only: its record stops there: line 7: move 3 (５五歩(57)): no such move";
    for to in ["kif", "usi"] {
        let out = kifudex(["show", "1", "--to", to]).db(&db).output();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{to}: {stderr}");
        assert!(stderr.starts_with(&format!("kifudex: {said}")), "{to}: {stderr}");
    }
    let whole = crate::util::indexed(&[(
        "whole.kifu",
        "手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n",
    )]);
    let out = kifudex(["show", "1", "--to", "kif"]).db(&whole.2).output();
    assert_eq!((out.status.code(), out.stderr.is_empty()), (Some(0), true));

    let server = Server::start(&db, &[]);
    let game = http::get(server.addr, "/api/game/1").json();
    assert_eq!(game["stopped"]["code"], "no_such_move", "{game}");
    assert_eq!(game["stopped"]["ply"], 3, "{game}");
    let left_out = game["left_out"].as_object().unwrap();
    for format in ["kif", "ki2", "csa", "usi", "jkf", "psn"] {
        let first = left_out[format][0].as_str().unwrap();
        assert!(first.starts_with("written up to move 2 only: its record stops there"), "{format}: {first}");
    }
}

/// `--open` with a desktop that cannot open the page (no browser, no display): the server runs
/// on and says so, with the address to open by hand.
#[test]
fn a_browser_that_cannot_be_opened_is_said() {
    use std::{io::BufRead, os::unix::fs::PermissionsExt};
    let bin = tempfile::tempdir().unwrap();
    let opener = bin.path().join("xdg-open");
    std::fs::write(&opener, "#!/bin/sh\necho no display >&2\nexit 3\n").unwrap();
    std::fs::set_permissions(&opener, std::fs::Permissions::from_mode(0o755)).unwrap();
    let search = format!("{}:{}", bin.path().display(), std::env::var("PATH").unwrap_or_default());
    let mut child = crate::util::command()
        .args(["serve", "--open", "--port", "0", "--db"])
        .arg(samples_db())
        .env("PATH", search)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let (sender, lines) = std::sync::mpsc::channel();
    let stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    std::thread::spawn(move || stderr.lines().map_while(Result::ok).try_for_each(|l| sender.send(l)));
    let mut said = Vec::new();
    while let Ok(line) = lines.recv_timeout(std::time::Duration::from_secs(30)) {
        said.push(line);
        if said.len() == 2 {
            break;
        }
    }
    let running = child.try_wait().unwrap().is_none();
    let _ = child.kill();
    let _ = child.wait();
    let url = said[0].split(" at ").nth(1).and_then(|s| s.split(' ').next()).unwrap_or("").to_string();
    assert!(url.starts_with("http://127.0.0.1:"), "{said:?}");
    assert_eq!(
        said.get(1).map(String::as_str),
        Some(
            format!("kifudex: warning: cannot open a browser (xdg-open ended with exit status: 3); open {url} yourself")
                .as_str()
        ),
        "{said:?}"
    );
    assert!(running, "the server runs on");
}
