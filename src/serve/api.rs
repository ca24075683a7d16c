//! The API's handlers: each decodes its request, reads one snapshot on a blocking thread, and
//! answers JSON or a record. Errors are [`ApiError`]s: a status and the message a user reads.

use std::sync::Arc;

use axum::{
    extract::{
        Path, RawQuery, State,
        rejection::{BytesRejection, PathRejection},
    },
    http::{Method, StatusCode, header},
    response::{IntoResponse, Response},
};

use super::{Shared, game, params::Params, position};
use crate::{
    db::{self, GameId},
    export::Unplayable,
    kifu::Format,
    query::{self, NamesOptions, OptionError, QueryError, QueryOption},
};

/// A refused or failed request: the status, and the message as the command line words it.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    /// 400: the request cannot be answered as asked.
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::BAD_REQUEST, message: message.into() }
    }

    /// 404: nothing is there.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::NOT_FOUND, message: message.into() }
    }

    /// 403: the request is not answered here.
    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::FORBIDDEN, message: message.into() }
    }

    /// 500, said on stderr too: the server's own failure, not the request's.
    fn internal(message: String) -> ApiError {
        // Never a panic: a server whose stderr is gone still answers.
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), "kifudex: {message}");
        ApiError { status: StatusCode::INTERNAL_SERVER_ERROR, message }
    }
}

/// A path segment that is not UTF-8 text, in JSON as every other refusal, and in the words of
/// the query string's (the framework's own names no parameter a user wrote).
pub fn path_error(e: &PathRejection) -> ApiError {
    let message = match e.status() {
        StatusCode::BAD_REQUEST => "the path is not URL-encoded UTF-8 text".to_string(),
        status => format!("the path could not be read ({status})"),
    };
    ApiError { status: e.status(), message }
}

/// `405`: the path is there, but not for this method (`Allow` names the one it takes).
pub async fn wrong_method(method: Method, uri: axum::http::Uri) -> Response {
    let allow = if uri.path() == "/api/jump" { "POST" } else { "GET, HEAD" };
    // A method is any token, of any length: one past a few words is not said back whole.
    let method = if method.as_str().len() <= 24 { method.as_str() } else { "a method of that length" };
    let error = ApiError {
        status: StatusCode::METHOD_NOT_ALLOWED,
        message: format!("{method} is not answered here: /api/jump takes POST, everything else GET"),
    };
    ([(header::ALLOW, allow)], error).into_response()
}

/// An error and its causes, joined by `: `, as the command line prints them.
pub fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// A query option as the answers name it. The parameters are the command's options under the
/// same names, and a refusal reads the same whichever way the question was asked, so the
/// answers spell an option as the command line does: `--since` for the parameter `since`.
pub fn option_name(option: QueryOption) -> String {
    format!("--{option}")
}

impl From<OptionError> for ApiError {
    fn from(e: OptionError) -> ApiError {
        ApiError::bad(e.message(&option_name))
    }
}

impl From<db::Error> for ApiError {
    fn from(e: db::Error) -> ApiError {
        match e {
            // The database was removed (or not yet put back) while serving: no answer now,
            // one once it is there again.
            db::Error::Missing(_) => ApiError { status: StatusCode::SERVICE_UNAVAILABLE, message: chain(&e) },
            // A file that is no database to read now, where one was when the server started:
            // one being made afresh by `index` at that path, say, or another put in its place.
            // Said in the commands' words, and answered once it is one (mended, or replaced).
            db::Error::NotKifudex(_)
            | db::Error::Empty(_)
            | db::Error::TooOld { .. }
            | db::Error::TooNew { .. }
            | db::Error::WalUnreadable { .. }
            | db::Error::UnreadLog(_)
            | db::Error::StrayLog { .. }
            | db::Error::HotJournal { .. } => ApiError {
                status: StatusCode::SERVICE_UNAVAILABLE,
                message: e.advice().unwrap_or_else(|| chain(&e)),
            },
            e => ApiError::internal(chain(&e)),
        }
    }
}

impl From<QueryError> for ApiError {
    fn from(e: QueryError) -> ApiError {
        match e {
            QueryError::Db(e) => e.into(),
            other => ApiError::bad(other.message(&option_name)),
        }
    }
}

impl From<Unplayable> for ApiError {
    fn from(e: Unplayable) -> ApiError {
        ApiError::internal(e.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message }).to_string();
        (self.status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
    }
}

/// A JSON text as a response.
fn json(text: String) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], text).into_response()
}

/// Runs `work` on a blocking thread (database reads and replays block), once a permit to work
/// is free.
async fn blocking<T: Send + 'static>(
    shared: &Shared,
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    blocking_with(&shared.permits, work).await
}

/// [`blocking`] for work that is small and bounded, with a permit of its own kind
/// ([`Shared::light_permits`]).
async fn blocking_light<T: Send + 'static>(
    shared: &Shared,
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    blocking_with(&shared.light_permits, work).await
}

async fn blocking_with<T: Send + 'static>(
    permits: &tokio::sync::Semaphore,
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let _permit =
        permits.acquire().await.map_err(|e| ApiError::internal(format!("the server is stopping: {e}")))?;
    tokio::task::spawn_blocking(work)
        .await
        .unwrap_or_else(|e| Err(ApiError::internal(format!("the request failed: {e}"))))
}

/// `GET /api/query`: exactly what `kifudex query --format json` prints for the same options.
/// Answers are kept for the next request of the same question ([`super::cache`]).
pub async fn query(State(shared): State<Arc<Shared>>, RawQuery(raw): RawQuery) -> Result<Response, ApiError> {
    let query = Params::parse(raw.as_deref())?.query()?;
    let key = cache_key(&query);
    if let Some(answer) = shared.cache.get(&key) {
        return Ok(json(answer.to_string()));
    }
    let worker = shared.clone();
    let text = blocking(&shared, move || {
        let state = worker.cache.state();
        let text: Arc<str> =
            worker.read(|snapshot| Ok(Arc::from(query::to_json(&query::run(snapshot, &query)?))))?;
        worker.cache.put(key, state, text.clone());
        Ok(text)
    })
    .await?;
    Ok(json(text.to_string()))
}

/// What a query's answer depends on: the position (with its move number, which the answer
/// shows), the moves when only that sequence counts, the start of moves from the start option
/// (which its notes name), the filter, and the page of the list.
fn cache_key(query: &crate::query::Query) -> String {
    let sequence = if query.exact_sequence { format!("{:?}", query.target.sequence) } else { String::new() };
    let start = match &query.target.sequence {
        Some((start, _)) if query.target.from_start_option => start.position_text(),
        _ => String::new(),
    };
    format!(
        "{}|{}|{}|{:?}|{}|{}|{}|{}",
        query.target.position.sfen(),
        sequence,
        start,
        query.filter,
        query.limit,
        query.offset,
        query.exact_sequence,
        query.by_year
    )
}

/// `GET /api/status`: `{"warning": TEXT}` while an index run writes the database, after one
/// that did not finish, while stored games are missing from the position index, or when it
/// holds no game (the words `query` says on stderr then), `{"warning": null}` otherwise.
pub async fn status(
    State(shared): State<Arc<Shared>>,
    RawQuery(raw): RawQuery,
) -> Result<Response, ApiError> {
    Params::parse(raw.as_deref())?.none()?;
    let worker = shared.clone();
    let (run, missing, empty) = blocking_light(&shared, move || {
        worker.read(|snapshot| {
            let empty = !snapshot.keeps_any_game(&crate::db::GameFilter::default())?;
            Ok((snapshot.unfinished_run()?, snapshot.unindexed_games()?, empty))
        })
    })
    .await?;
    let empty = (empty && run.is_none()).then(|| crate::db::NO_GAME_WARNING.to_string());
    let warnings: Vec<String> = run
        .map(|run| run.warning(&shared.db))
        .into_iter()
        .chain(crate::db::unindexed_warning(missing, &crate::text::path_text(&shared.db)))
        .chain(empty)
        .collect();
    let warning = (!warnings.is_empty()).then(|| warnings.join("; "));
    Ok(json(serde_json::json!({ "warning": warning }).to_string()))
}

/// `GET /api/position`: the path to the position in three notations, and its legal moves. It
/// takes the parameters of `/api/query`, which the page sends both, and refuses what that
/// refuses; the position's alone decide the answer.
pub async fn position(
    State(shared): State<Arc<Shared>>,
    RawQuery(raw): RawQuery,
) -> Result<Response, ApiError> {
    let params = Params::parse(raw.as_deref())?;
    let text =
        blocking_light(&shared, move || Ok(position::describe(&params.query()?.target).to_string())).await?;
    Ok(json(text))
}

/// Why a text past the limit of `POST /api/jump` is refused.
pub(super) fn too_long_to_jump() -> String {
    format!(
        "the text is longer than {} KiB, the most a jump reads: paste the position or the moves alone",
        super::params::MAX_BODY / 1024
    )
}

/// `POST /api/jump`: pasted text read as a position (in any encoding kifudex reads).
pub async fn jump(
    State(shared): State<Arc<Shared>>,
    RawQuery(raw): RawQuery,
    body: Result<axum::body::Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    // The text is the body: a parameter is refused, as every other request refuses one it
    // does not take.
    Params::parse(raw.as_deref())?.none()?;
    // A body that cannot be read (one past the limit, say) is answered in JSON too.
    let body = body.map_err(|e| {
        let message = match e.status() {
            StatusCode::PAYLOAD_TOO_LARGE => too_long_to_jump(),
            // The connection's own failure, which the layer that read it words in its own
            // terms: said here as what went wrong with the request.
            _ => "the text could not be read whole: the request's body ended before its length, or its \
                  chunks are not well formed"
                .to_string(),
        };
        ApiError { status: e.status(), message }
    })?;
    let text = blocking(&shared, move || {
        let decoded =
            crate::kifu::encoding::decode(&body).map_err(|e| ApiError::bad(format!("not text: {e}")))?;
        position::jump(&decoded.text).map(|v| v.to_string())
    })
    .await?;
    Ok(json(text))
}

/// `GET /api/game/ID` (JSON) and `GET /api/game/ID.EXT` (the record as `show --to` writes it),
/// with the record `show` shows under the filters given (`?player=羽生`: the first record in
/// path order that they match, as the game list shows it).
pub async fn game(
    State(shared): State<Arc<Shared>>,
    name: Result<Path<String>, PathRejection>,
    RawQuery(raw): RawQuery,
) -> Result<Response, ApiError> {
    let Path(name) = name.map_err(|e| path_error(&e))?;
    let params = Params::parse(raw.as_deref())?;
    let filter = params.filters_only()?;
    let (id_text, format) = match name.split_once('.') {
        None => (name.as_str(), None),
        Some((id, ext)) => match record_format(ext) {
            Some(format) => (id, Some(format)),
            None => return Err(ApiError::not_found(format!("no record format '{ext}'"))),
        },
    };
    let id = match id_text.parse::<i64>() {
        // No game has id 0, as none has a higher id than any stored: both are missing games.
        Ok(id) if id >= 0 => GameId(id),
        _ => return Err(ApiError::bad(format!("'{id_text}' is not a game id"))),
    };
    let worker = shared.clone();
    let answer = blocking(&shared, move || {
        worker.read(|snapshot| {
            let stored = match snapshot.game_matching(id, &filter)? {
                Some(stored) => stored,
                None if filter.is_empty() || snapshot.game(id)?.is_none() => {
                    return Err(ApiError::not_found(format!("there is no game {id}")));
                }
                None => {
                    return Err(ApiError::not_found(format!("no record of game {id} matches the filters")));
                }
            };
            match format {
                None => Ok((None, game::describe(&stored)?.to_string())),
                Some(format) => match crate::store::write_stored(&stored, format)? {
                    Some(text) => Ok((Some(format), text)),
                    None => Err(ApiError::not_found(format!(
                        "game {id} is a {} game, which a {} record cannot hold ({}); ask for {}",
                        stored.start.variant.title().to_lowercase(),
                        format.name().to_uppercase(),
                        crate::kifu::WHY_NOT_HELD,
                        game::formats_holding(&stored)
                            .iter()
                            .map(|f| format!(".{}", f.extension()))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ))),
                },
            }
        })
    })
    .await?;
    Ok(match answer {
        (None, text) => json(text),
        (Some(format), text) => {
            // The text is UTF-8, which the `u` names of Kakinoki's formats say (`.kif` and `.ki2`
            // promise Shift_JIS, as `show --out` writes them).
            let ext = match format {
                Format::Kif => "kifu",
                Format::Ki2 => "ki2u",
                _ => format.extension(),
            };
            let content_type =
                if format == Format::Jkf { "application/json" } else { "text/plain; charset=utf-8" };
            let disposition = format!("attachment; filename=\"game-{id}.{ext}\"");
            (
                [
                    (header::CONTENT_TYPE, content_type.to_string()),
                    (header::CONTENT_DISPOSITION, disposition),
                ],
                text,
            )
                .into_response()
        }
    })
}

/// The format whose file extension is `ext` (`psn` for Western; see [`Format::extension`]).
fn record_format(ext: &str) -> Option<Format> {
    Format::ALL.into_iter().find(|&f| f.extension() == ext)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_extensions_are_the_show_formats() {
        for (ext, format) in [
            ("kif", Format::Kif),
            ("ki2", Format::Ki2),
            ("csa", Format::Csa),
            ("jkf", Format::Jkf),
            ("usi", Format::Usi),
            ("psn", Format::Western),
        ] {
            assert_eq!(record_format(ext), Some(format));
        }
        assert_eq!(record_format("western"), None);
        assert_eq!(record_format("KIF"), None);
        assert_eq!(record_format("../kif"), None);
    }

    #[test]
    fn the_state_of_runs_and_a_positions_moves_do_not_wait_behind_slow_answers() {
        let tmp = tempfile::tempdir().unwrap();
        let db = tmp.path().join("k.sqlite");
        crate::db::Writer::open(&db).unwrap().finish().unwrap();
        let server = super::super::Server::bind(&db, &["127.0.0.1:0".parse().unwrap()]).unwrap();
        let shared = server.shared.clone();
        let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            // Slow answers hold every permit to work.
            let held = shared.permits.acquire_many(super::super::workers() as u32).await.unwrap();
            let in_time = std::time::Duration::from_secs(10);
            let answer = tokio::time::timeout(in_time, status(State(shared.clone()), RawQuery(None)))
                .await
                .expect("the state of runs waited for a permit that slow answers hold")
                .unwrap();
            assert_eq!(answer.status(), StatusCode::OK);
            let asked = RawQuery(Some("moves=7g7f".to_string()));
            let answer = tokio::time::timeout(in_time, position(State(shared.clone()), asked))
                .await
                .expect("a position's moves waited for a permit that slow answers hold")
                .unwrap();
            assert_eq!(answer.status(), StatusCode::OK);
            // A query waits for them.
            let waiting = tokio::time::timeout(
                std::time::Duration::from_millis(200),
                query(State(shared.clone()), RawQuery(Some("moves=7g7f".to_string()))),
            )
            .await;
            assert!(waiting.is_err(), "a query did not wait for a permit");
            drop(held);
        });
    }

    #[test]
    fn a_chain_joins_causes_as_the_command_line_does() {
        let inner = std::io::Error::other("inner");
        #[derive(Debug, thiserror::Error)]
        #[error("outer")]
        struct Outer(#[source] std::io::Error);
        assert_eq!(chain(&Outer(inner)), "outer: inner");
    }
}
