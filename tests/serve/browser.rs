//! The page in a real browser (Chromium, headless, driven through chromedriver): the explorer,
//! moves from the table and from the board, a filter, the game viewer, and a copied link
//! opened again. Every count on the page is checked against the command line's answer.
//!
//! It saves the README's screenshots (`explorer.png`, `game.png`) in `$KIFUDEX_SCREENSHOTS`
//! when set, else in Cargo's temporary directory for tests. Without Chromium and chromedriver
//! it skips, saying so, unless `CI=true`, where they are required (`.ci/run` installs them).

use std::path::PathBuf;

use serde_json::{Value, json};

use super::{
    Server, samples_db,
    webdriver::{Browser, browser_or_skip},
};
use crate::util::kifudex;

/// The page's board as the rows of an SFEN (`lnsgkgsnl/1r5b1/…`), read from the drawn pieces of
/// a board `arguments[0]` files wide.
const BOARD_AS_SFEN: &str = r#"
    const rows = [];
    for (let r = 0; r < 9; r++) {
      let row = "", empty = 0;
      for (let f = arguments[0]; f >= 1; f--) {
        const g = document.querySelector(`#board [data-at="${f}${String.fromCharCode(97 + r)}"]`);
        if (!g) { empty++; continue; }
        if (empty) { row += empty; empty = 0; }
        const kind = g.dataset.kind;
        row += g.dataset.color === "black" ? kind : kind.toLowerCase();
      }
      rows.push(row + (empty ? empty : ""));
    }
    return rows.join("/");
"#;

const READY: &str = "return document.body.dataset.state === 'ready'";

/// `kifudex query --format json ARGS` on the samples.
pub(super) fn cli_query(args: &[&str]) -> Value {
    let db = samples_db().to_str().unwrap().to_string();
    let mut all = vec!["query", "--format", "json", "--db", &db];
    all.extend(args);
    serde_json::from_slice(&kifudex(&all).output().stdout).expect("the query prints JSON")
}

fn screenshot_dir() -> PathBuf {
    std::env::var_os("KIFUDEX_SCREENSHOTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")))
}

pub(super) fn wait(browser: &Browser) {
    browser.wait_for(READY, 20);
}

/// Clicks `css` and waits until the page has drawn the state it leads to.
pub(super) fn click(browser: &Browser, css: &str) {
    browser.click(css);
    wait(browser);
}

pub(super) fn board(browser: &Browser) -> String {
    board_of_width(browser, 9)
}

fn board_of_width(browser: &Browser, files: u8) -> String {
    browser.run(BOARD_AS_SFEN, json!([files])).as_str().unwrap().to_string()
}

pub(super) fn sfen_board(sfen: &str) -> &str {
    sfen.split(' ').next().unwrap()
}

pub(super) fn attribute(browser: &Browser, script: &str) -> String {
    browser.run(script, json!([])).as_str().map(str::to_string).unwrap_or_default()
}

#[test]
fn the_page_explores_filters_and_replays_games() {
    let Some((chromium, chromedriver)) = browser_or_skip("the browser test") else {
        return;
    };
    let server = Server::start(samples_db(), &[]);
    let browser = Browser::start(&chromium, &chromedriver, 1280, 960);

    // The start position: 40 pieces, and the command line's counts.
    browser.open(&server.url("/?lang=en"));
    wait(&browser);
    let start = cli_query(&[]);
    assert_eq!(board(&browser), sfen_board(start["position"]["sfen"].as_str().unwrap()));
    let games = start["position"]["games"].as_u64().unwrap();
    assert!(browser.text("#summary").starts_with(&format!("{games} games reach this position")));
    let rows = browser.run("return document.querySelectorAll('#moves tr').length", json!([]));
    assert_eq!(rows.as_u64().unwrap() as usize, start["moves"].as_array().unwrap().len());

    // A move from the table: the board, the counts of the table and the URL follow.
    click(&browser, r#"#moves tr[data-usi="7g7f"]"#);
    assert!(browser.url().ends_with("/?moves=7g7f&lang=en"), "{}", browser.url());
    let after = cli_query(&["--moves", "7g7f"]);
    assert_eq!(board(&browser), sfen_board(after["position"]["sfen"].as_str().unwrap()));
    assert_eq!(attribute(&browser, "return document.querySelector('.sq.last').dataset.sq"), "7f");
    let games = after["position"]["games"].as_u64().unwrap();
    assert!(browser.text("#summary").starts_with(&format!("{games} games reach this position")));
    let first = &after["moves"][0];
    let usi = first["usi"].as_str().unwrap();
    assert_eq!(browser.text(&format!(r#"#moves tr[data-usi="{usi}"] .played"#)), first["played"].to_string());
    assert_eq!(
        browser.text(&format!(r#"#moves tr[data-usi="{usi}"] .reached"#)),
        first["reached"].to_string()
    );
    assert_eq!(browser.text("#path .current"), "▲７六歩");

    // A move on the board: the pawn on 3c, then 3d.
    browser.click(r#"[data-hit="3c"]"#);
    let targets = browser.run("return document.querySelectorAll('#board .target').length", json!([]));
    assert_eq!(targets, json!(1), "a pawn has one square to go to");
    click(&browser, r#"[data-hit="3d"]"#);
    assert!(browser.url().ends_with("/?moves=7g7f+3c3d&lang=en"), "{}", browser.url());
    let after = cli_query(&["--moves", "7g7f 3c3d"]);
    assert_eq!(board(&browser), sfen_board(after["position"]["sfen"].as_str().unwrap()));
    // An illegal target does nothing: the king cannot jump to 5e.
    browser.click(r#"[data-hit="5i"]"#);
    browser.click(r#"[data-hit="5e"]"#);
    assert!(browser.url().ends_with("/?moves=7g7f+3c3d&lang=en"));

    // A player filter: the counts and the list are the filtered query's.
    browser.click("#filters-title");
    browser.type_into(r#"#filters input[name="player"]"#, "Habu");
    click(&browser, "#filters-apply");
    assert!(browser.url().contains("player=Habu"), "{}", browser.url());
    let filtered = cli_query(&["--moves", "7g7f 3c3d", "--player", "Habu"]);
    let games = filtered["position"]["games"].as_u64().unwrap();
    assert!(games > 0 && games < after["position"]["games"].as_u64().unwrap());
    let summary = browser.text("#summary");
    assert!(summary.starts_with(&format!("{games} game")) && summary.contains("this position"), "{summary}");
    let listed =
        browser.run("return [...document.querySelectorAll('#games tr')].map(r => r.dataset.game)", json!([]));
    let expected: Vec<String> =
        filtered["games"].as_array().unwrap().iter().map(|g| g["id"].to_string()).collect();
    assert_eq!(listed, json!(expected));
    browser.open(&server.url("/?moves=7g7f+3c3d&lang=en"));
    wait(&browser);
    std::fs::write(screenshot_dir().join("explorer.png"), browser.screenshot()).unwrap();
    browser.back();
    wait(&browser);
    assert!(browser.url().contains("player=Habu"), "back returns to the filtered view: {}", browser.url());

    // A game from the list opens where it reached the position, and steps on.
    let id = expected[0].clone();
    let ply = filtered["games"][0]["ply"].as_u64().unwrap();
    click(&browser, &format!(r#"#games tr[data-game="{id}"]"#));
    assert!(browser.url().contains(&format!("game={id}&ply={ply}")), "{}", browser.url());
    let db = samples_db().to_str().unwrap().to_string();
    let moves = String::from_utf8(kifudex(["export", "moves", "--db", &db]).output().stdout).unwrap();
    let sfen_before = |n: u64| -> String {
        let row = moves.lines().find(|l| l.starts_with(&format!("{id},{n},"))).expect("a row for the ply");
        row.split(',').nth(5).unwrap().split(' ').next().unwrap().to_string()
    };
    assert_eq!(board(&browser), sfen_before(ply + 1));
    // With the record the list shows it with (a game found in several files has one from
    // each), and so are its downloads.
    for side in ["black", "white"] {
        let name = filtered["games"][0][side].as_str().unwrap();
        let shown = browser.text(&format!("#{side}-name"));
        assert!(shown.starts_with(name), "{side}: {shown} against the list's {name}");
    }
    let link = attribute(&browser, "return document.getElementById('dl-kif').href");
    assert!(link.ends_with(&format!("/api/game/{id}.kif?player=Habu")), "{link}");
    click(&browser, "#step-next");
    assert_eq!(board(&browser), sfen_before(ply + 2));
    browser.press("\u{E014}");
    wait(&browser);
    assert_eq!(board(&browser), sfen_before(ply + 3));
    assert!(browser.url().contains(&format!("game={id}&ply={}", ply + 2)));
    browser.press("\u{E012}");
    wait(&browser);
    assert_eq!(board(&browser), sfen_before(ply + 2));
    click(&browser, r#"#game-moves li[data-ply="40"]"#);
    assert_eq!(board(&browser), sfen_before(41));
    assert_eq!(
        browser.text("#ply-label"),
        format!("40 / {}", moves.lines().filter(|l| l.starts_with(&format!("{id},"))).count())
    );

    // The copied link opens the same view.
    let link = browser.url();
    let seen = board(&browser);
    browser.open(&server.url("/"));
    wait(&browser);
    browser.open(&link);
    wait(&browser);
    assert_eq!(board(&browser), seen);
    assert_eq!(browser.text("#ply-label").split(' ').next(), Some("40"));
    assert!(attribute(&browser, "return String(document.getElementById('viewer').hidden)") == "false");
    // The README's picture: a game with a time for every move.
    browser.open(&server.url("/?moves=7g7f+3c3d&game=1&ply=12"));
    wait(&browser);
    std::fs::write(screenshot_dir().join("game.png"), browser.screenshot()).unwrap();
    browser.open(&link);
    wait(&browser);

    // The explorer from the game's position: the game is among its games.
    click(&browser, "#viewer-explore");
    let listed =
        browser.run("return [...document.querySelectorAll('#games tr')].map(r => r.dataset.game)", json!([]));
    assert!(listed.as_array().unwrap().contains(&json!(id)), "{listed}");
    assert_eq!(board(&browser), seen);
    // From a handicap game, the link names the handicap rather than writing out its start.
    let games = kifudex(["games", "--handicap", "lance", "--format", "csv", "--db", &db]).output().stdout;
    let lance = crate::query::csv_rows(&games)[0]["id"].clone();
    browser.open(&server.url(&format!("/?game={lance}&ply=4")));
    wait(&browser);
    click(&browser, "#viewer-explore");
    assert!(browser.url().contains("start=lance&"), "{}", browser.url());
    let listed =
        browser.run("return [...document.querySelectorAll('#games tr')].map(r => r.dataset.game)", json!([]));
    assert!(listed.as_array().unwrap().contains(&json!(lance)), "{listed}");

    // A promotion that is optional asks; a piece in hand drops.
    browser.open(&server.url("/?moves=7g7f+3c3d"));
    wait(&browser);
    browser.click(r#"[data-hit="8h"]"#);
    browser.click(r#"[data-hit="2b"]"#);
    assert_eq!(attribute(&browser, "return String(document.getElementById('promotion').hidden)"), "false");
    click(&browser, "#promote-yes");
    assert!(browser.url().ends_with("/?moves=7g7f+3c3d+8h2b%2B&lang=en"), "{}", browser.url());
    click(&browser, r#"#moves tr[data-usi="3a2b"]"#);
    browser.click(r#"[data-hand="black"][data-kind="B"]"#);
    click(&browser, r#"[data-hit="5e"]"#);
    let dropped = cli_query(&["--moves", "7g7f 3c3d 8h2b+ 3a2b B*5e"]);
    assert_eq!(board(&browser), sfen_board(dropped["position"]["sfen"].as_str().unwrap()));
    assert_eq!(browser.text("#path .current"), "▲５五角");

    // Western notation and Japanese labels, each a switch kept in the URL.
    click(&browser, "#notation-switch");
    assert_eq!(browser.text("#path .current"), "5.B*5e");
    click(&browser, "#lang-switch");
    assert!(
        browser.text("#summary").contains("局がこの局面に到達")
            || browser.text("#summary") == "この局面に到達した対局はありません。"
    );
    assert!(
        browser.url().contains("notation=western") && browser.url().contains("lang=ja"),
        "{}",
        browser.url()
    );

    // The jump box reads moves in any notation.
    browser.type_into("#jump-text", "1.P-76 P-34 2.P-26");
    browser.press("\u{E007}");
    wait(&browser);
    assert!(browser.url().contains("moves=7g7f+3c3d+2g2f"), "{}", browser.url());
    let jumped = cli_query(&["--moves", "7g7f 3c3d 2g2f"]);
    assert_eq!(board(&browser), sfen_board(jumped["position"]["sfen"].as_str().unwrap()));
    // A pasted record that stops at an illegal move (a pawn's two squares) opens where it
    // stops, and the page says so (in Japanese, the labels chosen above).
    let paste = "const box = document.getElementById('jump-text'); box.value = arguments[0]; \
                 document.getElementById('jump-form').requestSubmit();";
    browser.run(paste, json!(["+7776FU\n-3334FU\n+5755FU\n"]));
    browser.wait_for("return !document.getElementById('error').hidden", 20);
    let url = browser.url();
    assert!(url.contains("moves=7g7f+3c3d") && !url.contains("5g5e"), "{url}");
    let said = browser.text("#error");
    assert!(said.starts_with("棋譜は2手目の後で止まっているため") && said.contains("+5755FU"), "{said}");

    // A handicap start.
    browser.open(&server.url("/?start=lance"));
    wait(&browser);
    let lance = cli_query(&["--start", "lance"]);
    assert_eq!(board(&browser), sfen_board(lance["position"]["sfen"].as_str().unwrap()));

    // A yari shogi game: a board seven files wide, its pieces lettered as its notation writes
    // them, each position the one the command line exports.
    let yari = cli_query(&["--variant", "yari"]);
    let id = yari["games"][0]["id"].to_string();
    let rows = String::from_utf8(kifudex(["export", "moves", "--db", &db]).output().stdout).unwrap();
    let yari_before = |n: u64| -> String {
        let row = rows.lines().find(|l| l.starts_with(&format!("{id},{n},"))).expect("a row for the ply");
        row.split(',').nth(5).unwrap().split(' ').next().unwrap().to_string()
    };
    browser.open(&server.url(&format!("/?game={id}&ply=3&lang=en")));
    wait(&browser);
    assert_eq!(board_of_width(&browser, 7), yari_before(4));
    let squares = browser.run("return document.querySelectorAll('#board rect[data-sq]').length", json!([]));
    assert_eq!(squares, json!(63));
    let general = r#"return document.querySelector('#board [data-at="4i"] text').textContent"#;
    assert_eq!(attribute(&browser, general), "G");
    click(&browser, "#step-next");
    assert_eq!(board_of_width(&browser, 7), yari_before(5));
    std::fs::write(screenshot_dir().join("yari.png"), browser.screenshot()).unwrap();

    // How long the first view took, for the record (the benchmark measures it).
    browser.open(&server.url("/"));
    wait(&browser);
    eprintln!("first view drawn after {} ms", attribute(&browser, "return document.body.dataset.firstReady"));
}

/// Where the text `arguments[1]` is drawn inside the element `arguments[0]`: `[left, right]`
/// of its first occurrence, found in the text as it is drawn, whatever elements hold it.
const TEXT_AT: &str = r#"
    const root = document.querySelector(arguments[0]);
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.data.indexOf(arguments[1]);
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + arguments[1].length);
      const box = range.getBoundingClientRect();
      return [box.left, box.right];
    }
    return null;
"#;

/// Names and headers as records may hold them: markup, names thousands of characters long
/// without a space, a name with a right-to-left override it never closes. The game viewer
/// shows them as text, keeps each inside its own part of the page, and draws each name
/// in its own direction without turning the other one around.
#[test]
fn odd_names_are_shown_as_text_in_their_place() {
    let Some((chromium, chromedriver)) = browser_or_skip("the browser test") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let long_black = "長".repeat(3000);
    let long_white = format!("W{}", "x".repeat(5000));
    let records = [
        (
            "markup.csa",
            "<script>document.body.dataset.injected=1</script>",
            "\"><img src=x id=injected>",
            "+7776FU",
        ),
        ("long.csa", long_black.as_str(), long_white.as_str(), "+2726FU"),
        ("bidi.csa", "\u{202E}ABC", "White", "+5756FU"),
    ];
    for (file, black, white, first) in records {
        let text = format!(
            "V2.2\nN+{black}\nN-{white}\n$EVENT:{}\nPI\n+\n{first}\n-3334FU\n%TORYO\n",
            "E".repeat(3000)
        );
        std::fs::write(dir.path().join(file), text).unwrap();
    }
    let db = dir.path().join("k.sqlite");
    let out =
        kifudex(["index", "--quiet", "--db", db.to_str().unwrap(), dir.path().to_str().unwrap()]).output();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let id_of = |player: &str| -> String {
        let out =
            kifudex(["query", "--format", "json", "--db", db.to_str().unwrap(), "--black", player]).output();
        let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
        answer["games"][0]["id"].to_string()
    };
    let server = Server::start(&db, &[]);
    let browser = Browser::start(&chromium, &chromedriver, 1280, 960);

    // Markup is text: no element is made of it, and it reads as it was written.
    browser.open(&server.url(&format!("/?lang=en&game={}&ply=0", id_of("<script>"))));
    wait(&browser);
    assert_eq!(attribute(&browser, "return String(document.body.dataset.injected)"), "undefined");
    assert_eq!(
        browser.run("return document.querySelectorAll('#injected, main script').length", json!([])),
        json!(0)
    );
    assert!(browser.text("#black-name").starts_with("<script>"), "{}", browser.text("#black-name"));
    assert!(
        browser.text("#game-title").contains("☖\"><img src=x id=injected>"),
        "{}",
        browser.text("#game-title")
    );

    // Long names stay in their columns: the board's names within the board's column, the
    // title and headers within the panel, and nothing wider than the window.
    browser.open(&server.url(&format!("/?lang=en&game={}&ply=0", id_of(&long_black[..30]))));
    wait(&browser);
    let fits = browser.run(
        r#"
        const inside = (css, outer) => {
          const a = document.querySelector(css).getBoundingClientRect();
          const b = document.querySelector(outer).getBoundingClientRect();
          return a.left >= b.left - 1 && a.right <= b.right + 1 && a.bottom <= Math.max(b.bottom, window.innerHeight) + 1;
        };
        return {
          black: inside('#black-name', '.board-column'),
          white: inside('#white-name', '.board-column'),
          title: inside('#game-title', '#viewer .panel'),
          info: inside('#game-info', '#viewer .panel'),
          page: document.documentElement.scrollWidth <= window.innerWidth,
          title_height: document.querySelector('#game-title').getBoundingClientRect().height <= 200,
        };
        "#,
        json!([]),
    );
    for (part, inside) in fits.as_object().unwrap() {
        assert_eq!(inside, &json!(true), "{part} does not fit: {fits}");
    }

    // A right-to-left override in Black's name turns Black's name alone: White's mark is
    // still drawn before White's name.
    browser.open(&server.url(&format!("/?lang=en&game={}&ply=0", id_of("\u{202E}ABC"))));
    wait(&browser);
    let mark = browser.run(TEXT_AT, json!(["#game-title", "☖"]));
    let name = browser.run(TEXT_AT, json!(["#game-title", "White"]));
    assert!(
        mark[1].as_f64().unwrap() <= name[0].as_f64().unwrap() + 0.5,
        "☖ at {mark}, White at {name}: {}",
        browser.text("#game-title")
    );
}

/// The page opened while the database is missing (503): the start position's board, the
/// names of the sides and the error saying it tries again, no empty pager; then, once the
/// database is back, the full view without a reload.
#[test]
fn the_page_draws_a_board_without_its_database_and_recovers_when_it_is_back() {
    let Some((chromium, chromedriver)) = browser_or_skip("the browser test") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("k.sqlite");
    let away = dir.path().join("away.sqlite");
    std::fs::copy(samples_db(), &db).unwrap();
    let server = Server::start(&db, &[]);
    let browser = Browser::start(&chromium, &chromedriver, 1280, 960);
    std::fs::rename(&db, &away).unwrap();

    browser.open(&server.url("/?lang=en"));
    wait(&browser);
    // The even start, written out by hand.
    assert_eq!(board(&browser), "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL");
    let error = browser.text("#error");
    assert!(error.contains("no database") && error.contains("Trying again"), "{error}");
    assert_eq!(browser.text("#black-name"), "Black");
    assert_eq!(browser.text("#white-name"), "White");
    let pager = "return getComputedStyle(document.getElementById('pager')).display";
    assert_eq!(attribute(&browser, pager), "none");

    // Back in place: the page asks again by itself and shows the command line's counts.
    std::fs::rename(&away, &db).unwrap();
    browser.wait_for("return document.getElementById('error').hidden && document.getElementById('summary').textContent !== ''", 20);
    let start = cli_query(&[]);
    let games = start["position"]["games"].as_u64().unwrap();
    assert!(browser.text("#summary").starts_with(&format!("{games} games reach this position")));
}

/// On a phone's screen the game's step buttons, below the board, stay in the window while the
/// board is in view: a phone has no arrow keys to step with.
#[test]
fn on_a_narrow_screen_the_steps_of_a_game_stay_in_view_with_the_board() {
    let Some((chromium, chromedriver)) = browser_or_skip("the browser test") else {
        return;
    };
    let server = Server::start(samples_db(), &[]);
    let browser = Browser::start(&chromium, &chromedriver, 375, 669);
    browser.open(&server.url("/?lang=en&game=1&ply=3"));
    wait(&browser);
    let in_view = "const at = (id) => document.getElementById(id).getBoundingClientRect();
                   const steps = at('step-next'), board = at('board');
                   return [steps.top >= 0 && steps.bottom <= window.innerHeight, board.top < window.innerHeight,
                           steps.top > board.top]";
    assert_eq!(browser.run(in_view, json!([])), json!([true, true, true]));
    click(&browser, "#step-next");
    assert!(browser.url().contains("ply=4"), "{}", browser.url());
}

/// A game id in the link that is not one is quoted as it was typed, over the start position.
#[test]
fn a_link_to_a_game_id_that_is_not_one_quotes_it() {
    let Some((chromium, chromedriver)) = browser_or_skip("the browser test") else {
        return;
    };
    let server = Server::start(samples_db(), &[]);
    let browser = Browser::start(&chromium, &chromedriver, 1280, 960);
    for typed in ["abc", "1e2", "x y"] {
        browser.open(&server.url(&format!("/?lang=en&game={}", typed.replace(' ', "+"))));
        wait(&browser);
        assert_eq!(browser.text("#error"), format!("'{typed}' is not a game id"));
        assert_eq!(board(&browser), "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL");
    }
}

/// The viewer shows the time and comments a record gives its ending with the last move, and
/// marks that move as one with a comment; the move before shows only its own.
#[test]
fn the_viewer_shows_the_endings_time_and_comments_at_the_last_move() {
    let Some((chromium, chromedriver)) = browser_or_skip("the browser test") else {
        return;
    };
    let text = "手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:05/00:00:05)\n*first\n\
                \x20  2 ３四歩(33)   ( 0:07/00:00:07)\n   3 投了         ( 0:30/00:00:35)\n*resigned\n\
                まで2手で後手の勝ち\n";
    let (_tmp, _, db) = crate::util::indexed(&[("a.kifu", text)]);
    let server = Server::start(&db, &[]);
    let browser = Browser::start(&chromium, &chromedriver, 1280, 960);
    browser.open(&server.url("/?lang=en&game=1&ply=2"));
    wait(&browser);
    assert_eq!(browser.text("#game-comment"), "Time: 0:07\nEnding Time: 0:30\nresigned");
    let marked = "return [...document.querySelectorAll('#game-moves .has-comment')].length";
    assert_eq!(browser.run(marked, json!([])), json!(2));
    click(&browser, r#"#game-moves li[data-ply="1"]"#);
    assert_eq!(browser.text("#game-comment"), "Time: 0:05\nfirst");
}

/// A foul the record wrote after its last move (an illegal move, which ended the game) is
/// shown at that move with its time and comment, before the ending's.
#[test]
fn the_viewer_shows_a_foul_written_after_the_last_move() {
    let Some((chromium, chromedriver)) = browser_or_skip("the browser test") else {
        return;
    };
    // Black's pawn drop on the 2nd file, where a black pawn stands: a second pawn.
    let text = "手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:01/00:00:01)\n\
                \x20  2 ３四歩(33)   ( 0:02/00:00:02)\n   3 ７五歩(76)   ( 0:01/00:00:02)\n\
                \x20  4 ３五歩(34)   ( 0:02/00:00:04)\n   5 ７四歩(75)   ( 0:01/00:00:03)\n\
                \x20  6 ３六歩(35)   ( 0:02/00:00:06)\n   7 ７三歩成(74) ( 0:01/00:00:04)\n\
                \x20  8 ３七歩成(36) ( 0:02/00:00:08)\n   9 ２五歩打     ( 0:33/00:00:37)\n*two pawns\n\
                \x20 10 反則勝ち     ( 0:44/00:00:52)\n*over\n";
    let (_tmp, _, db) = crate::util::indexed(&[("a.kifu", text)]);
    let server = Server::start(&db, &[]);
    let browser = Browser::start(&chromium, &chromedriver, 1280, 960);
    browser.open(&server.url("/?lang=en&game=1&ply=8"));
    wait(&browser);
    assert_eq!(
        browser.text("#game-comment"),
        "Time: 0:02\nIllegal move: ２五歩打\nTime: 0:33\ntwo pawns\nEnding Time: 0:44\nover"
    );
    let marked = "return [...document.querySelectorAll('#game-moves .has-comment')].length";
    assert_eq!(browser.run(marked, json!([])), json!(1));
}

/// A link whose query string is no UTF-8 text is refused as the API refuses it, not read as
/// a filter on U+FFFD that finds nothing; and a filter the server refuses (a name past its
/// length) leaves no answer of the view before on the page.
#[test]
fn a_link_that_is_no_utf8_or_a_filter_refused_shows_the_refusal_and_no_stale_answer() {
    let Some((chromium, chromedriver)) = browser_or_skip("the browser test") else {
        return;
    };
    let server = Server::start(samples_db(), &[]);
    let browser = Browser::start(&chromium, &chromedriver, 1280, 960);
    browser.open(&server.url("/?lang=en&player=%FF"));
    wait(&browser);
    assert_eq!(browser.text("#error"), "The link's query string is not URL-encoded UTF-8 text.");
    assert_eq!(browser.text("#summary"), "");
    // The start position first, with its answer; then a name of 201 characters.
    browser.open(&server.url("/?lang=en"));
    wait(&browser);
    assert!(browser.text("#summary").contains("games"), "{}", browser.text("#summary"));
    // Within the page, as a filter typed in makes it: the URL changes, the page loads it.
    let long = format!("/?lang=en&player={}", "%E7%BE%BD".repeat(201));
    browser.run(
        "history.pushState(null, '', arguments[0]); window.dispatchEvent(new PopStateEvent('popstate'));",
        serde_json::json!([long]),
    );
    wait(&browser);
    assert_eq!(browser.text("#error"), "parameter 'player' is too long: at most 200 characters");
    assert_eq!(browser.text("#summary"), "");
}

/// A page past the end of the game list (a stale link, a database rebuilt since) says so
/// rather than that no game reaches the position, names no range, and its Previous button
/// goes to the last page (here the first, all the games on it). The number of games is the
/// command line's answer.
/// A filter the server refuses is named as the form labels its field, in the page's
/// language, not by the command line's option (`--since`); other options stay as written.
#[test]
fn a_refused_filter_is_named_by_its_field_in_the_form() {
    let Some((chromium, chromedriver)) = browser_or_skip("the browser test") else {
        return;
    };
    let server = Server::start(samples_db(), &[]);
    let browser = Browser::start(&chromium, &chromedriver, 1280, 960);
    let cases = [
        (
            "/?lang=en&since=junk",
            "From 'junk' is not a date: write it with digits as YYYY, YYYY-MM or YYYY-MM-DD (dates are like 2019, 2019-04 or 2019-04-01)",
        ),
        ("/?lang=en&since=2020&until=2010", "From 2020 is after To 2010: no game is dated both"),
        ("/?lang=ja&since=2020&until=2010", "開始日 2020 is after 終了日 2010: no game is dated both"),
        ("/?lang=en&result=won", "Result 'won' is not one of black, white, draw, other (or unknown)"),
        // What the message quotes, the text given, stays as it was given.
        ("/?lang=en&result=--since", "Result '--since' is not one of black, white, draw, other (or unknown)"),
    ];
    for (link, said) in cases {
        browser.open(&server.url(link));
        wait(&browser);
        assert_eq!(browser.text("#error"), said, "{link}");
    }
}

#[test]
fn a_page_past_the_end_of_the_list_says_so_and_goes_back_to_the_last() {
    let Some((chromium, chromedriver)) = browser_or_skip("the browser test") else {
        return;
    };
    let total = cli_query(&[])["position"]["games"].as_u64().unwrap();
    assert!(total > 0 && total < 40, "{total}");
    let server = Server::start(samples_db(), &[]);
    let browser = Browser::start(&chromium, &chromedriver, 1280, 960);
    browser.open(&server.url("/?lang=en&offset=100"));
    wait(&browser);
    assert_eq!(browser.text("#games-empty"), format!("No games on this page: there are {total}."));
    assert_eq!(browser.text("#page-text"), "");
    click(&browser, "#page-prev");
    // Every game fits on the first page, which needs no pager.
    assert_eq!(attribute(&browser, "return String(document.getElementById('pager').hidden)"), "true");
    assert_eq!(
        attribute(&browser, "return String(document.querySelectorAll('#games tr').length)"),
        total.to_string()
    );
}

/// A position that no game the filters keep reaches says that it is the filters' games that
/// do not reach it; with no filter, that no game does.
#[test]
fn a_position_the_filtered_games_do_not_reach_says_the_filters_keep_them() {
    let Some((chromium, chromedriver)) = browser_or_skip("the browser test") else {
        return;
    };
    let player = "羽生善治";
    assert!(cli_query(&["--player", player])["position"]["games"].as_u64().unwrap() > 0);
    assert_eq!(cli_query(&["--player", player, "--moves", "1g1f"])["position"]["games"], 0);
    assert_eq!(cli_query(&["--moves", "1g1f"])["position"]["games"], 0);
    let server = Server::start(samples_db(), &[]);
    let browser = Browser::start(&chromium, &chromedriver, 1280, 960);
    for (query, said) in [
        // 羽生善治, percent-encoded.
        (
            "player=%E7%BE%BD%E7%94%9F%E5%96%84%E6%B2%BB&".to_string(),
            "No game the filters keep reaches this position.",
        ),
        (String::new(), "No game reaches this position."),
    ] {
        browser.open(&server.url(&format!("/?lang=en&{query}moves=1g1f")));
        wait(&browser);
        assert_eq!(browser.text("#summary"), said, "{query}");
        assert_eq!(browser.text("#games-empty"), said, "{query}");
    }
}

/// A handicap filter with the even start finds no game, since handicap games never reach the
/// even game's positions: the empty list says where they start and offers to go there, which
/// shows the games the command line finds from that start with that filter.
#[test]
fn a_handicap_filter_at_the_even_start_offers_the_handicap_s_start() {
    let Some((chromium, chromedriver)) = browser_or_skip("the browser test") else {
        return;
    };
    let lance = cli_query(&["--start", "lance", "--handicap", "lance"]);
    let games = lance["position"]["games"].as_u64().unwrap();
    assert!(games > 0, "the samples hold a lance game");
    let server = Server::start(samples_db(), &[]);
    let browser = Browser::start(&chromium, &chromedriver, 1280, 960);
    browser.open(&server.url("/?lang=en&handicap=lance"));
    wait(&browser);
    assert_eq!(
        browser.text("#games-empty"),
        "Lance games start from their own position, never from the even game's. Start from the Lance position"
    );
    click(&browser, "#handicap-start");
    assert!(browser.url().contains("start=lance"), "{}", browser.url());
    assert_eq!(board(&browser), sfen_board(lance["position"]["sfen"].as_str().unwrap()));
    assert_eq!(
        attribute(&browser, "return String(document.querySelectorAll('#games tr').length)"),
        games.to_string()
    );
    // Moves only the handicap's start can play (white moves first there) are refused with
    // the query's hint, and the same offer, which plays them from that start.
    let after = cli_query(&["--start", "lance", "--handicap", "lance", "--moves", "8c8d"]);
    browser.open(&server.url("/?lang=en&handicap=lance&moves=8c8d"));
    wait(&browser);
    assert!(
        browser.text("#error").ends_with("give --start 香落ち to start them there"),
        "{}",
        browser.text("#error")
    );
    click(&browser, "#handicap-start");
    assert!(browser.url().contains("start=lance"), "{}", browser.url());
    assert_eq!(board(&browser), sfen_board(after["position"]["sfen"].as_str().unwrap()));
    assert_eq!(browser.text("#error"), "");
    // Moves no start plays get no offer.
    browser.open(&server.url("/?lang=en&handicap=lance&moves=5e5d"));
    wait(&browser);
    assert!(browser.text("#error").contains("no such move"), "{}", browser.text("#error"));
    assert_eq!(attribute(&browser, "return String(!!document.getElementById('handicap-start'))"), "false");
    // With no handicap filter, an empty list says only that no game reaches the position.
    browser.open(&server.url("/?lang=en&moves=1g1f+9c9d+1f1e+9d9e+1e1d"));
    wait(&browser);
    assert_eq!(browser.text("#games-empty"), "No game reaches this position.");
}

/// The page used without a mouse and against a hasty hand: rows reached by Tab open with
/// Enter or Space, a double click plays one move (the second click, on the table of the view
/// just left, played its move again on top of the first), Escape closes the promotion prompt,
/// hand-edited URLs with a ply, offset or game id that is no count say so or read as 0, a ply
/// past the end goes back one move with one press, and a server that stopped is said to be out
/// of reach and is asked again until it answers.
#[test]
fn the_page_answers_keys_double_clicks_odd_links_and_a_stopped_server() {
    let Some((chromium, chromedriver)) = browser_or_skip("the browser test") else {
        return;
    };
    let server = Server::start(samples_db(), &[]);
    let browser = Browser::start(&chromium, &chromedriver, 1280, 960);
    const ENTER: &str = "\u{E007}";
    const ESCAPE: &str = "\u{E00C}";
    const LEFT: &str = "\u{E012}";

    browser.open(&server.url("/?lang=en"));
    wait(&browser);
    browser.run(r#"document.querySelector('#moves tr[data-usi="7g7f"]').focus()"#, json!([]));
    browser.press(ENTER);
    wait(&browser);
    assert!(browser.url().ends_with("/?moves=7g7f&lang=en"), "{}", browser.url());
    // The keys go on from the next moves' first row, not from the top of the page.
    let focused = "return document.activeElement.dataset.usi || document.activeElement.id || ''";
    let first = browser.run("return document.querySelector('#moves tr').dataset.usi", json!([]));
    assert_eq!(browser.run(focused, json!([])), first);
    browser.press(ENTER);
    wait(&browser);
    assert!(browser.url().contains(&format!("moves=7g7f+{}&", first.as_str().unwrap())), "{}", browser.url());
    browser.run("document.querySelector('#games tr').focus()", json!([]));
    browser.press(" ");
    wait(&browser);
    assert!(browser.url().contains("game="), "Space opens the game: {}", browser.url());
    assert_eq!(browser.run(focused, json!([])), "step-next");

    // A game link that cannot be opened leaves its error over the explorer, whose controls
    // leave the game.
    browser.open(&server.url("/?lang=en&moves=7g7f&game=99999999"));
    wait(&browser);
    assert!(browser.text("#error").contains("99999999"), "{}", browser.text("#error"));
    browser.click("#path-start");
    wait(&browser);
    assert!(browser.url().ends_with("/?lang=en"), "{}", browser.url());
    assert!(browser.text("#error").is_empty(), "{}", browser.text("#error"));
    browser.open(&server.url("/?lang=en&moves=7g7f&game=99999999"));
    wait(&browser);
    browser.press(LEFT);
    wait(&browser);
    assert!(browser.url().ends_with("/?moves=7g7f&lang=en"), "{}", browser.url());

    // A page of a list that has no game shows no pager.
    browser.open(&server.url("/?lang=en&moves=1g1f+9c9d+1f1e+9d9e+1e1d&offset=40"));
    wait(&browser);
    assert_eq!(browser.run("return document.getElementById('pager').hidden", json!([])), json!(true));

    // Two clicks before the view is drawn again: one move.
    browser.open(&server.url("/?lang=en"));
    wait(&browser);
    browser.run(
        r#"const r = document.querySelector('#moves tr[data-usi="7g7f"]'); r.click(); r.click();"#,
        json!([]),
    );
    wait(&browser);
    assert!(browser.url().ends_with("/?moves=7g7f&lang=en"), "{}", browser.url());
    assert_eq!(browser.text("#path .current"), "▲７六歩");
    assert!(browser.text("#error").is_empty(), "{}", browser.text("#error"));

    // The bishop's promotion prompt, closed by Escape with nothing played.
    browser.open(&server.url("/?moves=7g7f+3c3d&lang=en"));
    wait(&browser);
    browser.click(r#"[data-hit="8h"]"#);
    browser.click(r#"[data-hit="2b"]"#);
    assert_eq!(browser.run("return document.getElementById('promotion').hidden", json!([])), json!(false));
    browser.press(ESCAPE);
    assert_eq!(browser.run("return document.getElementById('promotion').hidden", json!([])), json!(true));
    assert!(browser.url().ends_with("/?moves=7g7f+3c3d&lang=en"), "{}", browser.url());
    // So by picking another piece, which then moves as it is asked to.
    browser.click(r#"[data-hit="8h"]"#);
    browser.click(r#"[data-hit="2b"]"#);
    browser.click(r#"[data-hit="2g"]"#);
    assert_eq!(browser.run("return document.getElementById('promotion').hidden", json!([])), json!(true));
    browser.click(r#"[data-hit="2f"]"#);
    wait(&browser);
    assert!(browser.url().ends_with("/?moves=7g7f+3c3d+2g2f&lang=en"), "{}", browser.url());

    // Links edited by hand.
    browser.open(&server.url("/?lang=en&game=3.kif"));
    wait(&browser);
    assert_eq!(browser.text("#error"), "'3.kif' is not a game id");
    browser.open(&server.url("/?lang=en&game=1&ply=1.5"));
    wait(&browser);
    assert!(browser.text("#error").is_empty(), "{}", browser.text("#error"));
    assert!(browser.text("#ply-label").starts_with("Start"), "{}", browser.text("#ply-label"));
    browser.open(&server.url("/?lang=en&offset=1.5"));
    wait(&browser);
    assert!(browser.text("#error").is_empty(), "{}", browser.text("#error"));
    browser.open(&server.url("/?lang=en&game=1&ply=99999"));
    wait(&browser);
    let plies = browser.run("return document.querySelectorAll('#game-moves li').length", json!([]));
    let plies = plies.as_u64().unwrap();
    assert!(browser.url().contains(&format!("ply={plies}")), "the last ply: {}", browser.url());
    browser.press(LEFT);
    wait(&browser);
    assert!(browser.url().contains(&format!("ply={}", plies - 1)), "one press: {}", browser.url());

    // The window's title names the view: the game and its move, the explorer's last move.
    let title = browser.run("return document.title", json!([])).as_str().unwrap().to_string();
    assert!(
        title.starts_with('☗') && title.ends_with(&format!(" ({}/{plies}) – kifudex", plies - 1)),
        "{title}"
    );

    // The server stops: said, and the board that was drawn for the view before is faded, not
    // shown as the position asked for; the page comes back with the server.
    browser.open(&server.url("/?lang=en"));
    wait(&browser);
    let stale = "return ['board', 'path', 'black-hand', 'white-hand']\
                 .map(id => document.getElementById(id).classList.contains('stale'))";
    assert_eq!(browser.run(stale, json!([])), json!([false, false, false, false]));
    assert_eq!(browser.run("return document.title", json!([])), "kifudex");
    let port = server.addr.port().to_string();
    drop(server);
    browser.click(r#"#moves tr[data-usi="7g7f"]"#);
    wait(&browser);
    let error = browser.text("#error");
    assert!(
        error.starts_with("The server cannot be reached")
            && error.ends_with("Trying again in a few seconds."),
        "{error}"
    );
    assert!(browser.url().ends_with("/?moves=7g7f&lang=en"), "{}", browser.url());
    assert_eq!(browser.run(stale, json!([])), json!([true, true, true, true]));
    let mut cmd = crate::util::command();
    cmd.args(["serve", "--port", &port, "--db"]).arg(samples_db());
    let server = Server::spawn(cmd);
    browser.wait_for("return document.getElementById('error').hidden", 20);
    assert_eq!(browser.text("#path .current"), "▲７六歩");
    assert_eq!(browser.run(stale, json!([])), json!([false, false, false, false]));
    assert_eq!(browser.run("return document.title", json!([])), "▲７六歩 (1) – kifudex");

    // A jump the stopped server could not answer is asked again once it is back.
    drop(server);
    let jump = "const box = document.getElementById('jump-text'); box.value = arguments[0]; \
                document.getElementById('jump-form').requestSubmit();";
    browser.run(jump, json!(["7g7f 3c3d"]));
    browser.wait_for(
        "return document.getElementById('error').textContent.endsWith('Trying again in a few seconds.')",
        20,
    );
    let mut cmd = crate::util::command();
    cmd.args(["serve", "--port", &port, "--db"]).arg(samples_db());
    let _server = Server::spawn(cmd);
    browser.wait_for("return location.search === '?moves=7g7f+3c3d&lang=en'", 20);
    wait(&browser);
    assert_eq!(browser.text("#path .current"), "△３四歩");
    assert!(browser.text("#error").is_empty(), "{}", browser.text("#error"));
}

/// Filters a link names in any spelling the API reads are shown in the form, and kept when
/// the form is applied again.
#[test]
fn filters_from_a_link_are_shown_in_the_form_and_kept() {
    let Some((chromium, chromedriver)) = browser_or_skip("the browser test") else {
        return;
    };
    let server = Server::start(samples_db(), &[]);
    let browser = Browser::start(&chromium, &chromedriver, 1280, 960);
    let fields =
        "const f = document.getElementById('filters').elements; return [f.result.value, f.handicap.value]";
    let link = "/?result=unknown&handicap=%E9%A6%99%E8%90%BD%E3%81%A1&start=lance&lang=en";
    browser.open(&server.url(link));
    wait(&browser);
    assert_eq!(browser.run(fields, json!([])), json!(["other", "lance"]));
    assert!(browser.text("#filters-title").contains("(2)"));
    // Applied again with an event: the two filters are still there, and the answer is the
    // command line's for the three.
    browser.type_into(r#"#filters input[name="event"]"#, "Nothing");
    click(&browser, "#filters-apply");
    let url = browser.url();
    assert!(
        url.contains("result=other") && url.contains("handicap=lance") && url.contains("event=Nothing"),
        "{url}"
    );
    // A spelling in another case, and one that names nothing: shown as given, and refused in
    // the API's words.
    browser.open(&server.url("/?result=BLACK&handicap=Lance&lang=en"));
    wait(&browser);
    assert_eq!(browser.run(fields, json!([])), json!(["black", "lance"]));
    browser.open(&server.url("/?handicap=queen&lang=en"));
    wait(&browser);
    assert_eq!(browser.run(fields, json!([])), json!(["", "queen"]));
    let (_, _, stderr) = {
        let out = crate::util::command()
            .args(["query", "--handicap", "queen", "--db"])
            .arg(samples_db())
            .output()
            .unwrap();
        (out.status, (), String::from_utf8(out.stderr).unwrap())
    };
    // The command line's words, the filter named by its field's label.
    let said = stderr.trim_end().strip_prefix("kifudex: ").unwrap().replacen("--handicap", "Handicap", 1);
    assert_eq!(browser.text("#error"), said);
    click(&browser, "#filters-apply");
    assert!(browser.url().contains("handicap=queen"), "{}", browser.url());
}
