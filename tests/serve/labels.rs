//! The page's words as the server sends them (`/assets/labels.js`): a name for everything the
//! API can send as a code.

use kifudex::kifu::Termination;

use super::{Server, http, samples_db};

/// The keys of every `terminationNames: { … }` object in `labels`, one list a language.
fn termination_keys(labels: &str) -> Vec<Vec<String>> {
    labels
        .split("terminationNames: {")
        .skip(1)
        .map(|rest| {
            let body = &rest[..rest.find('}').expect("the object closes")];
            body.split(',')
                .filter_map(|entry| entry.split_once(':'))
                .map(|(key, _)| key.trim().to_string())
                .collect()
        })
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
