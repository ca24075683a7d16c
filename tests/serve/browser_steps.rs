//! The page stepped through in a real browser: steps in a game and presses of ← in the
//! explorer, and the history they leave. Skipped, as the browser test is, without Chromium
//! and chromedriver.

use serde_json::json;

use super::{
    Server,
    browser::{attribute, click, wait},
    samples_db,
    webdriver::{Browser, browser_or_skip},
};

const RIGHT: &str = "\u{E014}";

fn history_length(browser: &Browser) -> u64 {
    browser.run("return history.length", json!([])).as_u64().unwrap()
}

/// Steps within a game replace the history entry: after ten of them, Back leaves the game for
/// the list it was opened from.
#[test]
fn steps_in_a_game_leave_one_history_entry() {
    let Some((chromium, chromedriver)) = browser_or_skip("the browser test") else {
        return;
    };
    let server = Server::start(samples_db(), &[]);
    let browser = Browser::start(&chromium, &chromedriver, 1280, 960);
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
