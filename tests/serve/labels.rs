//! The page's words as the server sends them (`/assets/labels.js`): a name for everything the
//! API can send as a code.

use kifudex::kifu::Termination;

use super::{Server, http, samples_db};

/// The entries (key, text) of every `NAME: { … }` object in `labels`, one list a language.
fn entries(labels: &str, name: &str) -> Vec<Vec<(String, String)>> {
    labels
        .split(&format!("{name}: {{"))
        .skip(1)
        .map(|rest| {
            let body = &rest[..rest.find('}').expect("the object closes")];
            body.split(',')
                .filter_map(|entry| entry.split_once(':'))
                .map(|(key, text)| (key.trim().to_string(), text.trim().trim_matches('"').to_string()))
                .collect()
        })
        .collect()
}

/// The keys of every `terminationNames: { … }` object in `labels`, one list a language.
fn termination_keys(labels: &str) -> Vec<Vec<String>> {
    entries(labels, "terminationNames")
        .into_iter()
        .map(|language| language.into_iter().map(|(key, _)| key).collect())
        .collect()
}

/// Every ending a game can have is named in both languages, never shown as its code
/// (`take_back`, `stalemate`).
#[test]
fn every_termination_has_a_label_in_each_language() {
    let server = Server::start(samples_db(), &[]);
    let labels = http::get(server.addr, "/assets/labels.js").text();
    let languages = termination_keys(&labels);
    assert_eq!(languages.len(), 2, "one list in Japanese, one in English");
    for keys in &languages {
        for termination in Termination::ALL {
            assert!(
                keys.iter().any(|k| k == termination.name()),
                "no label for {}: {keys:?}",
                termination.name()
            );
        }
        assert_eq!(keys.len(), Termination::ALL.len(), "a label for no termination: {keys:?}");
    }
}

/// The result filter's `other` keeps the games whose result is unknown (`--result other` is
/// `--result unknown`): its option is named as the list names those games' result.
#[test]
fn the_result_filter_names_unknown_results_as_the_game_list_does() {
    let server = Server::start(samples_db(), &[]);
    let labels = http::get(server.addr, "/assets/labels.js").text();
    let languages = entries(&labels, "resultNames");
    assert_eq!(languages.len(), 2, "one list in Japanese, one in English");
    for names in &languages {
        let text = |key: &str| names.iter().find(|(k, _)| k == key).map(|(_, t)| t.clone());
        assert_eq!(text("other"), text("unknown"), "{names:?}");
        assert!(text("unknown").is_some(), "{names:?}");
    }
}
