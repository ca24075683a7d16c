//! `kifudex players` and `--vs`: every count worked out here from the archive's list, each
//! player being an identity label given by hand.

use std::collections::{BTreeMap, HashMap, HashSet};

use kifudex::shogi::Color;
use serde_json::{Value, json};

use super::{Rec, archive, build, joined, kifudex, records, stdout, stored, winner};

/// A player's counts, as `players --format json` writes them.
#[derive(Default)]
struct Expected {
    spellings: BTreeMap<String, u32>,
    games: HashSet<u64>,
    black: HashMap<u64, Option<Color>>,
    white: HashMap<u64, Option<Color>>,
    dates: Vec<String>,
    openings: BTreeMap<String, HashSet<u64>>,
}

/// Wins, losses and draws of a side's games (`None` a draw, unknown results left out).
fn side(games: &HashMap<u64, Option<Color>>, color: Color, records: &[&Rec]) -> Value {
    let (mut wins, mut losses, mut draws) = (0, 0, 0);
    for (tail, w) in games {
        let r = records.iter().find(|r| r.tail == *tail).unwrap();
        match (w, super::result_of(r)) {
            (Some(w), _) if *w == color => wins += 1,
            (Some(_), _) => losses += 1,
            (None, "draw") => draws += 1,
            _ => {}
        }
    }
    json!({"games": games.len(), "wins": wins, "losses": losses, "draws": draws})
}

/// The rows `players --format json` should print: each identity (after `label`) that plays in
/// the records `keep` keeps, counted on the sides `counts` allows.
fn expected(
    label: impl Fn(&str) -> String,
    keep: impl Fn(&Rec) -> bool,
    counts: impl Fn(&Rec, Color) -> bool,
) -> BTreeMap<String, Value> {
    let kept: Vec<&Rec> = records().iter().filter(|r| keep(r)).collect();
    let mut by: HashMap<String, Expected> = HashMap::new();
    for r in &kept {
        for (color, (id, spelling)) in [(Color::Black, r.black), (Color::White, r.white)] {
            if !counts(r, color) {
                continue;
            }
            let e = by.entry(label(id)).or_default();
            *e.spellings.entry(stored(spelling).to_string()).or_default() += 1;
            e.games.insert(r.tail);
            let sides = if color == Color::Black { &mut e.black } else { &mut e.white };
            sides.insert(r.tail, winner(r));
            if !r.date.is_empty() {
                e.dates.push(r.date.replace('/', "-"));
            }
            if !r.opening.is_empty() {
                e.openings.entry(r.opening.to_string()).or_default().insert(r.tail);
            }
        }
    }
    let mut out = BTreeMap::new();
    for (_, e) in by {
        // The spelling the most records use; the first in code-point order on a tie.
        let most = e.spellings.values().max().unwrap();
        let name = e.spellings.iter().find(|(_, n)| *n == most).unwrap().0.clone();
        let black = side(&e.black, Color::Black, &kept);
        let white = side(&e.white, Color::White, &kept);
        let sum = |k: &str| black[k].as_u64().unwrap() + white[k].as_u64().unwrap();
        // A draw is one draw overall, though a game against oneself is on both sides.
        let drawn = |tail: &u64| kept.iter().any(|r| r.tail == *tail && super::result_of(r) == "draw");
        let draws = e.games.iter().filter(|t| drawn(t)).count();
        let openings: BTreeMap<String, usize> =
            e.openings.iter().map(|(o, g)| (o.clone(), g.len())).collect();
        out.insert(
            name.clone(),
            json!({
                "name": name, "games": e.games.len(), "wins": sum("wins"), "losses": sum("losses"),
                "draws": draws, "as_black": black, "as_white": white,
                "first_date": e.dates.iter().min(), "last_date": e.dates.iter().max(),
                "openings": openings,
            }),
        );
    }
    out
}

/// `players ARGS --format json`, by name, the openings as a map.
fn players(db: &std::path::Path, args: &[&str]) -> BTreeMap<String, Value> {
    let mut all = vec!["players", "--format", "json"];
    all.extend_from_slice(args);
    let list: Value = serde_json::from_str(&stdout(&kifudex(&all).db(db).output())).unwrap();
    list.as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let mut p = p.clone();
            let openings: BTreeMap<String, u64> = p["openings"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| (o["opening"].as_str().unwrap().to_string(), o["games"].as_u64().unwrap()))
                .collect();
            p["openings"] = json!(openings);
            (p["name"].as_str().unwrap().to_string(), p)
        })
        .collect()
}

#[test]
fn players_count_games_results_sides_dates_and_openings() {
    let a = archive();
    let own = |l: &str| l.to_string();
    assert_eq!(players(&a.db, &[]), expected(own, |_| true, |_, _| true));
    // Filters choose the games; --player chooses the rows too.
    assert_eq!(players(&a.db, &["--since", "2015"]), expected(own, |r| r.date >= "2015", |_, _| true));
    let habu = players(&a.db, &["--player", "羽生"]);
    let all = expected(
        own,
        |r| r.black.0 == "habu" || r.white.0 == "habu",
        |r, c| (if c == Color::Black { r.black.0 } else { r.white.0 }) == "habu",
    );
    assert_eq!(habu, all);
    assert_eq!(habu.len(), 1);
    assert_eq!(habu["羽生善治"]["games"], 6, "the game in two files counts once");
    let table = stdout(&kifudex(["players"]).db(&a.db).output());
    assert!(table.lines().any(|l| l.starts_with("羽生善治")), "{table}");
    assert_eq!(kifudex(["players", "--player", "nobody"]).db(&a.db).output().status.code(), Some(1));
}

#[test]
fn vs_gives_each_player_s_record_against_one_and_aliases_join_spellings() {
    let a = archive();
    let side_of = |r: &Rec, c: Color| if c == Color::Black { r.black.0 } else { r.white.0 };
    // A game's side faces `who` when any of the game's records names `who` on the other side.
    let faces = move |r: &Rec, c: Color, who: &str, label: &dyn Fn(&str) -> String| {
        label(side_of(r, c)) != who
            && records().iter().any(|r2| r2.tail == r.tail && label(side_of(r2, c.flip())) == who)
    };
    let facing = move |who: &'static str| move |r: &Rec, c: Color| faces(r, c, who, &|l: &str| l.to_string());
    // The filters keep a game when one of its records matches them.
    let plays = |who: &'static str| {
        move |r: &Rec| {
            records().iter().any(|r2| r2.tail == r.tail && (r2.black.0 == who || r2.white.0 == who))
        }
    };
    let own = |l: &str| l.to_string();
    assert_eq!(players(&a.db, &["--vs", "羽生善治"]), expected(own, plays("habu"), facing("habu")));
    assert_eq!(players(&a.db, &["--vs", "藤井 聡太"]), expected(own, plays("fujii"), facing("fujii")));
    // A --vs with nothing a name keeps (spaces, `_`, which names write for a space) is none.
    for blank in ["", " ", "_", "\u{3000}_"] {
        assert_eq!(players(&a.db, &["--vs", blank]), players(&a.db, &[]), "{blank:?}");
    }
    // With the alias, Habu Yoshiharu is 羽生善治: the copy of game 7 spelled in Latin letters
    // and game 6 count for him, under the name the alias gives.
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("k.sqlite");
    build(&tmp.path().join("archive"), &db);
    assert_eq!(
        kifudex(["alias", "add", "Habu Yoshiharu", "羽生善治"]).db(&db).output().status.code(),
        Some(0)
    );
    let joined_label = |l: &str| joined(l).to_string();
    let with = players(&db, &[]);
    assert_eq!(with, expected(joined_label, |_| true, |_, _| true));
    assert_eq!(with["羽生善治"]["games"], 7);
    let vs = players(&db, &["--vs", "habu"]);
    let facing_joined = |r: &Rec, c: Color| faces(r, c, "habu", &|l: &str| joined(l).to_string());
    let plays_joined = |r: &Rec| joined(r.black.0) == "habu" || joined(r.white.0) == "habu";
    assert_eq!(vs, expected(joined_label, plays_joined, facing_joined));
    // The same through a file of aliases on a database without them.
    let file = tmp.path().join("aliases.csv");
    std::fs::write(&file, "alias,name\nHabu Yoshiharu,羽生善治\n").unwrap();
    assert_eq!(players(&a.db, &["--aliases", file.to_str().unwrap()]), with);
    assert_eq!(players(&a.db, &["--aliases", file.to_str().unwrap(), "--vs", "habu"]), vs);
}

/// `--vs` is against one player. A part of a name that several players share is refused,
/// naming them, so that no row is a record against two players at once; a name given whole
/// is that player, though it is part of another's.
#[test]
fn vs_a_name_several_players_share_is_refused_and_a_whole_name_is_one_player() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("kifu");
    std::fs::create_dir(&dir).unwrap();
    // 藤井聡太 beats 藤井猛 (White resigns); 藤井猛 loses to 羽生善治 (Black resigns);
    // 藤井猛九段 is 藤井猛 (a title after the name does not count).
    for (file, black, white, moves) in [
        ("1.kifu", "藤井聡太", "藤井猛", "   1 ７六歩(77)\n   2 投了\n"),
        ("2.kifu", "藤井猛", "羽生善治", "   1 ２六歩(27)\n   2 ３四歩(33)\n   3 投了\n"),
        ("3.kifu", "羽生善治", "藤井猛九段", "   1 ５六歩(57)\n   2 投了\n"),
    ] {
        let text = format!("先手：{black}\n後手：{white}\n手合割：平手\n手数----指手--\n{moves}");
        std::fs::write(dir.join(file), text).unwrap();
    }
    let db = tmp.path().join("k.sqlite");
    assert_eq!(kifudex(["index", dir.to_str().unwrap()]).db(&db).output().status.code(), Some(0));
    let out = kifudex(["players", "--vs", "藤井"]).db(&db).output();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "kifudex: --vs 藤井 matches 2 players: 藤井猛, 藤井聡太; give one of them whole\n"
    );
    assert!(out.stdout.is_empty());
    // Against 藤井猛: 藤井聡太 won as Black (game 1); 羽生善治 won as White (game 2) and as
    // Black (game 3).
    let vs = players(&db, &["--vs", "藤井猛"]);
    let counts = |name: &str| {
        let p = &vs[name];
        ["games", "wins", "losses", "draws"].map(|k| p[k].as_u64().unwrap())
    };
    assert_eq!(vs.keys().collect::<Vec<_>>(), ["羽生善治", "藤井聡太"]);
    assert_eq!(counts("羽生善治"), [2, 2, 0, 0]);
    assert_eq!(counts("藤井聡太"), [1, 1, 0, 0]);
    // Against 藤井聡太, matched by a part no other player's name holds: only 藤井猛, who lost.
    let vs = players(&db, &["--vs", "聡"]);
    assert_eq!(vs.keys().collect::<Vec<_>>(), ["藤井猛"]);
    assert_eq!(["games", "wins", "losses"].map(|k| vs["藤井猛"][k].as_u64().unwrap()), [1, 0, 1]);
}

/// A game a player plays against themself counts on both sides: as a win and a loss when it
/// is won, and as one draw overall (one on each side) when drawn by a fourfold repetition.
#[test]
fn a_drawn_game_against_oneself_is_one_draw() {
    let tmp = tempfile::tempdir().unwrap();
    // The rooks' shuffle brings the start back a fourth time at ply 12: 千日手.
    let shuffle = "+2838HI\n-8272HI\n+3828HI\n-7282HI\n".repeat(3);
    std::fs::write(tmp.path().join("self.csa"), format!("N+Alpha\nN-Alpha\nPI\n+\n{shuffle}%SENNICHITE\n"))
        .unwrap();
    std::fs::write(tmp.path().join("won.csa"), "N+Alpha\nN-Alpha\nPI\n+\n+7776FU\n%TORYO\n").unwrap();
    let db = tmp.path().join("k.sqlite");
    assert_eq!(kifudex(["index", tmp.path().to_str().unwrap()]).db(&db).output().status.code(), Some(0));
    let alpha = &players(&db, &[])["Alpha"];
    let counts = |v: &Value| ["games", "wins", "losses", "draws"].map(|k| v[k].as_u64().unwrap());
    assert_eq!(counts(alpha), [2, 1, 1, 1], "{alpha}");
    // 1.P-7f and White resigns: Black's win, White's loss.
    assert_eq!(counts(&alpha["as_black"]), [2, 1, 0, 1], "{alpha}");
    assert_eq!(counts(&alpha["as_white"]), [2, 0, 1, 1], "{alpha}");
}

/// With a date filter, a player's first and last dates are those of the records within it: a
/// game kept by its record of 2018 shows neither the 2017 nor the 2019 date of its copies.
/// The three records are one game (the same moves), dated by hand.
#[test]
fn first_and_last_dates_keep_to_the_filter_s_dates() {
    let record =
        |date: &str| format!("V2.2\nN+山崎隆之\nN-高橋道雄\n$START_TIME:{date}\nPI\n+\n+7776FU\n%TORYO\n");
    let (a, b, c) = (record("2019/05/05"), record("2018/01/01"), record("2017/03/03"));
    let (_tmp, _, db) = crate::util::indexed(&[("a.csa", a.as_str()), ("b.csa", &b), ("c.csa", &c)]);
    let dates = |args: &[&str]| -> (Value, Value) {
        let rows = players(&db, args);
        let row = &rows["山崎隆之"];
        (row["first_date"].clone(), row["last_date"].clone())
    };
    assert_eq!(dates(&[]), (json!("2017-03-03"), json!("2019-05-05")));
    assert_eq!(dates(&["--since", "2018"]), (json!("2018-01-01"), json!("2019-05-05")));
    assert_eq!(dates(&["--until", "2018-06"]), (json!("2017-03-03"), json!("2018-01-01")));
    assert_eq!(dates(&["--since", "2018", "--until", "2018"]), (json!("2018-01-01"), json!("2018-01-01")));
}
