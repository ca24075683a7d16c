//! Request parameters: decoded once, each name known, each value bounded.
//!
//! A request with an unknown or repeated parameter, a value longer than its limit, or a query
//! string past [`MAX_QUERY`] is refused with 400 before anything is looked up.

use std::collections::HashMap;

use super::api::{ApiError, option_name};
use crate::{
    db::GameFilter,
    query::{
        Query, QueryOption, filter_from_text, fit_variant, parse_by, parse_count, parse_result,
        target_from_text,
    },
    shogi::{Handicap, Variant},
};

/// The longest query string answered, in bytes.
pub const MAX_QUERY: usize = 16 * 1024;

/// The largest body `POST /api/jump` reads (a long record with comments fits).
pub const MAX_BODY: usize = 512 * 1024;

/// The most games one answer lists.
pub const MAX_LIMIT: usize = 1000;

/// The longest `moves` parameter, in characters (its USI text is ASCII: bytes too).
pub const MAX_MOVES_PARAM: usize = 8 * 1024;

/// The longest `sfen` or `start` parameter, in characters: an SFEN, and moves after it, as
/// `query --sfen` takes them (`SFEN moves 7g7f …`).
pub const MAX_SFEN_PARAM: usize = 256 + MAX_MOVES_PARAM;

/// The parameters `/api/query` and `/api/position` know, with the longest value each takes,
/// in characters.
const KNOWN: [(&str, usize); 17] = [
    ("moves", MAX_MOVES_PARAM),
    ("sfen", MAX_SFEN_PARAM),
    ("start", MAX_SFEN_PARAM),
    ("player", 200),
    ("black", 200),
    ("white", 200),
    ("event", 200),
    // Longer than a date, so that a date with a time of day is refused in the words of the
    // command line, which say how to write it.
    ("since", 40),
    ("until", 40),
    ("result", 10),
    ("handicap", 40),
    ("opening", 200),
    ("variant", 20),
    ("limit", 10),
    ("offset", 10),
    ("exact-sequence", 5),
    ("by", 10),
];

/// Decoded parameters, by name.
pub struct Params(HashMap<&'static str, String>);

impl Params {
    /// Decodes a query string (`None` when the URL has none).
    ///
    /// # Errors
    ///
    /// 400 for a query string too long or not URL-encoded, an unknown or repeated name, or a
    /// value past its limit.
    pub fn parse(raw: Option<&str>) -> Result<Params, ApiError> {
        let raw = raw.unwrap_or("");
        if raw.len() > MAX_QUERY {
            return Err(ApiError::bad(format!("the query string is too long: at most {MAX_QUERY} bytes")));
        }
        let mut map = HashMap::new();
        for pair in raw.split('&').filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let (name, value) = (decode(name)?, decode(value)?);
            let Some(&(known, max)) = KNOWN.iter().find(|(k, _)| *k == name) else {
                return Err(ApiError::bad(format!("unknown parameter '{}'", shorten(&name))));
            };
            // An empty value is no value, as a form's empty field means: every option takes
            // its default, and a filter keeps every game.
            if value.is_empty() {
                continue;
            }
            // In characters, as the page's fields count them (`maxlength`).
            if value.chars().count() > max {
                return Err(ApiError::bad(format!(
                    "parameter '{known}' is too long: at most {max} characters"
                )));
            }
            if map.insert(known, value).is_some() {
                return Err(ApiError::bad(format!("parameter '{known}' is given twice")));
            }
        }
        Ok(Params(map))
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    /// A number parameter, `default` when absent.
    fn number(&self, option: QueryOption, default: usize) -> Result<usize, ApiError> {
        match self.get(option.name()) {
            None => Ok(default),
            Some(v) => {
                parse_count(v).map_err(|why| ApiError::bad(format!("{} '{v}' is {why}", option_name(option))))
            }
        }
    }

    /// The game filter the parameters give.
    ///
    /// # Errors
    ///
    /// 400 with the command line's words for a filter it refuses.
    pub fn filter(&self) -> Result<GameFilter, ApiError> {
        let text = |name: &str| self.get(name).map(str::to_string);
        let given = GameFilter {
            player: text("player"),
            black: text("black"),
            white: text("white"),
            event: text("event"),
            since: text("since"),
            until: text("until"),
            result: self.get("result").map(parse_result).transpose()?.flatten(),
            opening: text("opening"),
            ..GameFilter::default()
        };
        Ok(filter_from_text(given, self.get("handicap"), self.get("variant"))?)
    }

    /// Refuses any parameter, for a request that takes none.
    ///
    /// # Errors
    ///
    /// 400 naming the first parameter given.
    pub fn none(&self) -> Result<(), ApiError> {
        match self.0.keys().next() {
            Some(name) => Err(ApiError::bad(format!("parameter '{name}' is not taken here"))),
            None => Ok(()),
        }
    }

    /// [`Params::filter`], for a request that takes filters and nothing else.
    ///
    /// # Errors
    ///
    /// 400 for a parameter that is no filter, or a filter refused.
    pub fn filters_only(&self) -> Result<GameFilter, ApiError> {
        const FILTERS: [&str; 10] = [
            "player", "black", "white", "event", "since", "until", "result", "handicap", "opening", "variant",
        ];
        if let Some(name) = self.0.keys().find(|k| !FILTERS.contains(k)) {
            return Err(ApiError::bad(format!(
                "parameter '{name}' is not a filter: a game takes only filters"
            )));
        }
        self.filter()
    }

    /// The query the parameters ask, as `kifudex query` reads the same options.
    ///
    /// # Errors
    ///
    /// 400 with the command line's words for anything it refuses.
    pub fn query(&self) -> Result<Query, ApiError> {
        let mut filter = self.filter()?;
        let target = self.target_in(filter.variant, filter.handicap)?;
        fit_variant(&target, &mut filter)?;
        let limit = self.number(QueryOption::Limit, 20)?;
        if limit > MAX_LIMIT {
            return Err(ApiError::bad(format!(
                "{} {limit} is more than the {MAX_LIMIT} games one answer lists",
                option_name(QueryOption::Limit)
            )));
        }
        let exact_sequence = match self.get(QueryOption::ExactSequence.name()) {
            None | Some("" | "0" | "false") => false,
            Some("1" | "true") => true,
            Some(v) => {
                let option = option_name(QueryOption::ExactSequence);
                return Err(ApiError::bad(format!("{option} '{v}' is not true or false")));
            }
        };
        let by_year = self.get("by").map(parse_by).transpose()?.unwrap_or(false);
        let offset = self.number(QueryOption::Offset, 0)?;
        Ok(Query { target, filter, limit, offset, exact_sequence, by_year })
    }

    fn target_in(
        &self,
        variant: Option<Variant>,
        handicap: Option<Handicap>,
    ) -> Result<crate::query::Target, ApiError> {
        let start = self.get("start").unwrap_or("startpos");
        Ok(target_from_text(self.get("moves"), self.get("sfen"), start, variant, handicap)?)
    }
}

/// At most 40 characters of `text`, for messages that quote what a client sent.
fn shorten(text: &str) -> String {
    let mut short: String = text.chars().take(40).collect();
    if short.len() < text.len() {
        short.push('…');
    }
    short
}

/// A name or value of a query string, percent-decoded (`+` is a space), which must be UTF-8
/// with every `%` followed by two hexadecimal digits, as the page reads its own address.
fn decode(text: &str) -> Result<String, ApiError> {
    let bytes = text.as_bytes();
    let escaped = |i: usize| bytes.get(i + 1..i + 3).is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit));
    if (0..bytes.len()).any(|i| bytes[i] == b'%' && !escaped(i)) {
        return Err(ApiError::bad("the query string is not URL-encoded UTF-8 text"));
    }
    let spaced = text.replace('+', " ");
    percent_encoding::percent_decode_str(&spaced)
        .decode_utf8()
        .map(|text| text.into_owned())
        .map_err(|_| ApiError::bad("the query string is not URL-encoded UTF-8 text"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(raw: &str) -> String {
        match Params::parse(Some(raw)) {
            Ok(_) => panic!("{raw} was accepted"),
            Err(e) => e.message,
        }
    }

    #[test]
    fn names_are_known_and_values_bounded() {
        assert_eq!(refused("movez=7g7f"), "unknown parameter 'movez'");
        assert_eq!(refused("moves=a&moves=b"), "parameter 'moves' is given twice");
        assert_eq!(
            refused(&format!("player={}", "x".repeat(201))),
            "parameter 'player' is too long: at most 200 characters"
        );
        // 200 kanji are 600 bytes, and as many characters as the page's field takes.
        let kanji = "%E7%BE%BD".repeat(200);
        assert_eq!(
            Params::parse(Some(&format!("player={kanji}")))
                .expect("200 characters")
                .get("player")
                .map(|p| p.chars().count()),
            Some(200)
        );
        assert_eq!(
            refused(&format!("player={kanji}%E7%BE%BD")),
            "parameter 'player' is too long: at most 200 characters"
        );
        assert!(refused(&"a".repeat(MAX_QUERY + 1)).starts_with("the query string is too long"));
        let ok = Params::parse(Some("moves=7g7f+3c3d&player=%E7%BE%BD%E7%94%9F")).expect("decodes");
        assert_eq!(ok.get("moves"), Some("7g7f 3c3d"));
        assert_eq!(ok.get("player"), Some("羽生"));
        // Bytes that are no UTF-8 are refused, not replaced.
        for raw in ["player=%FF", "%FF=1", "player=%E7%BE", "player=%zz", "player=50%", "player=%4"] {
            assert_eq!(refused(raw), "the query string is not URL-encoded UTF-8 text", "{raw}");
        }
    }

    /// A form's empty fields: every one is absent, so none is refused as a bad value.
    #[test]
    fn empty_values_are_no_values() {
        let raw = KNOWN.iter().map(|(name, _)| format!("{name}=")).collect::<Vec<_>>().join("&");
        let params = Params::parse(Some(&raw)).expect("empty fields");
        assert!(KNOWN.iter().all(|(name, _)| params.get(name).is_none()));
        assert!(params.query().is_ok() && params.filter().is_ok());
        // Beside a value, an empty one is no second value.
        for raw in ["player=&player=Habu", "player=Habu&player=", "player=&player="] {
            let params = Params::parse(Some(raw)).expect(raw);
            assert_eq!(params.get("player"), raw.contains("Habu").then_some("Habu"), "{raw}");
        }
    }
}
