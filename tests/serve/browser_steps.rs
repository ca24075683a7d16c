//! The page stepped through in a real browser: steps in a game and presses of ← in the
//! explorer, the history they leave, and links edited by hand that the page writes back as
//! what it shows. Skipped, as the browser test is, without Chromium and chromedriver.

use serde_json::json;

use super::{
    Server,
    browser::{attribute, board, cli_query, click, sfen_board, wait},
    http, samples_db,
    webdriver::{Browser, browser_or_skip},
};

const LEFT: &str = "\u{E012}";
const RIGHT: &str = "\u{E014}";
const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// A server of the samples' database and a browser of desktop size, or `None` (said) where no
/// browser can run.
fn samples_page() -> Option<(Server, Browser)> {
    let (chromium, chromedriver) = browser_or_skip("the browser test")?;
    let server = Server::start(samples_db(), &[]);
    Some((server, Browser::start(&chromium, &chromedriver, 1280, 960)))
}

fn history_length(browser: &Browser) -> u64 {
    browser.run("return history.length", json!([])).as_u64().unwrap()
}

/// Steps within a game replace the history entry: after ten of them, Back leaves the game for
/// the list it was opened from.
#[test]
fn steps_in_a_game_leave_one_history_entry() {
    let Some((server, browser)) = samples_page() else {
        return;
    };
    browser.open(&server.url("/?moves=7g7f&lang=en"));
    wait(&browser);
    let explorer = browser.url();
    click(&browser, "#games tr");
    let opened = history_length(&browser);
    let ply: u64 = browser.url().split("ply=").nth(1).unwrap().split('&').next().unwrap().parse().unwrap();
    for _ in 0..10 {
        browser.press(RIGHT);
        wait(&browser);
    }
    click(&browser, "#step-prev");
    assert!(browser.url().contains(&format!("ply={}", ply + 9)), "{}", browser.url());
    assert_eq!(history_length(&browser), opened, "steps add no history entry");
    browser.back();
    wait(&browser);
    assert_eq!(browser.url(), explorer);
    assert_eq!(attribute(&browser, "return String(document.getElementById('viewer').hidden)"), "true");
}

/// Every press of ← in the explorer goes back one move, those made while a position loads
/// too.
#[test]
fn each_press_of_left_goes_back_one_move_while_positions_load() {
    let Some((server, browser)) = samples_page() else {
        return;
    };
    browser.open(&server.url("/?lang=en"));
    wait(&browser);
    // Six presses as soon as the link is followed, before its position can have come.
    browser.run(
        "history.pushState(null, '', '/?moves=7g7f+3c3d+2g2f+8c8d+2f2e+8d8e&lang=en');
         dispatchEvent(new PopStateEvent('popstate'));
         for (let i = 0; i < 6; i++) document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true }));",
        json!([]),
    );
    wait(&browser);
    assert!(browser.url().ends_with("/?lang=en"), "{}", browser.url());
    assert_eq!(board(&browser), sfen_board(START));
    assert_eq!(browser.text("#path .current"), "Start");

    // Presses as fast as the keyboard sends them: one move each.
    browser.open(&server.url("/?moves=7g7f+3c3d+2g2f+8c8d+2f2e+8d8e&lang=en"));
    for _ in 0..4 {
        browser.press(LEFT);
    }
    wait(&browser);
    assert!(browser.url().ends_with("/?moves=7g7f+3c3d&lang=en"), "{}", browser.url());
    let after = cli_query(&["--moves", "7g7f 3c3d"]);
    assert_eq!(board(&browser), sfen_board(after["position"]["sfen"].as_str().unwrap()));
}

/// A link with both moves and an SFEN is refused in the API's words, as the API refuses it,
/// rather than showing the SFEN's position as if the moves were not there.
#[test]
fn a_link_with_moves_and_an_sfen_is_refused_as_the_api_refuses_it() {
    let Some((server, browser)) = samples_page() else {
        return;
    };
    let query = format!("moves=7g7f&sfen={}", http::encode(START));
    let api = http::get(server.addr, &format!("/api/position?{query}"));
    assert_eq!(api.status, 400);
    let refusal = api.json()["error"].as_str().unwrap().to_string();
    browser.open(&server.url(&format!("/?{query}&lang=en")));
    wait(&browser);
    assert_eq!(browser.text("#error"), refusal);
    let url = browser.url();
    assert!(url.contains("moves=7g7f") && url.contains("sfen="), "the link is kept: {url}");
}

/// A step in a game moves the mark in the move list and draws the board, without drawing the
/// list again; a change of notation draws it again.
#[test]
fn a_step_in_a_game_keeps_its_move_list() {
    let Some((server, browser)) = samples_page() else {
        return;
    };
    browser.open(&server.url("/?lang=en&game=1&ply=0"));
    wait(&browser);
    let before = board(&browser);
    browser.run("document.querySelector('#game-moves li[data-ply=\"1\"]').dataset.probe = 'kept'", json!([]));
    browser.press(RIGHT);
    wait(&browser);
    browser.press(RIGHT);
    wait(&browser);
    let marked = "return [...document.querySelectorAll('#game-moves .current')].map(li => li.dataset.ply)";
    assert_eq!(browser.run(marked, json!([])), json!(["2"]));
    assert_eq!(
        attribute(&browser, "return document.querySelector('#game-moves li[data-ply=\"1\"]').dataset.probe"),
        "kept"
    );
    assert_ne!(board(&browser), before);
    assert!(browser.text("#ply-label").starts_with("2 / "), "{}", browser.text("#ply-label"));
    click(&browser, "#step-first");
    assert_eq!(browser.run(marked, json!([])), json!([]));
    assert_eq!(board(&browser), before);
    click(&browser, "#notation-switch");
    assert_eq!(
        browser.run(
            "return String(document.querySelector('#game-moves li[data-ply=\"1\"]').dataset.probe)",
            json!([])
        ),
        json!("undefined"),
        "the list is drawn again in the other notation"
    );
}

/// A ply that is no count and a game id written with leading zeros are written back as the
/// page reads them; the game is fetched once however many steps follow.
#[test]
fn a_link_edited_by_hand_is_written_back_as_shown() {
    let Some((server, browser)) = samples_page() else {
        return;
    };
    for ply in ["-5", "abc", "1.5"] {
        browser.open(&server.url(&format!("/?lang=en&game=1&ply={ply}")));
        wait(&browser);
        assert!(browser.url().contains("game=1&ply=0&"), "{ply}: {}", browser.url());
        assert!(browser.text("#ply-label").starts_with("Start"), "{}", browser.text("#ply-label"));
    }
    browser.open(&server.url("/?lang=en&game=01&ply=3"));
    wait(&browser);
    assert!(browser.url().contains("game=1&ply=3&"), "{}", browser.url());
    for _ in 0..3 {
        browser.press(RIGHT);
        wait(&browser);
    }
    assert!(browser.url().contains("game=1&ply=6&"), "{}", browser.url());
    let fetched =
        "return performance.getEntriesByType('resource').filter(e => e.name.includes('/api/game/')).length";
    assert_eq!(browser.run(fetched, json!([])), json!(1));
}
