//! The page's files, compiled into the binary: HTML, style, scripts and the icon. They are
//! found by exact name in [`ASSETS`]; no request path ever reaches the file system.
//!
//! The scripts are written by hand and need no build step. The board is drawn in SVG by
//! `board.js`, which takes the number of files and ranks as parameters.

use axum::{
    extract::{Path, rejection::PathRejection},
    http::header,
    response::{IntoResponse, Response},
};

use super::api::ApiError;

/// Every file under `/assets/`: name, content type, bytes.
const ASSETS: [(&str, &str, &str); 6] = [
    ("style.css", "text/css; charset=utf-8", include_str!("assets/style.css")),
    ("app.js", "text/javascript; charset=utf-8", include_str!("assets/app.js")),
    ("board.js", "text/javascript; charset=utf-8", include_str!("assets/board.js")),
    ("labels.js", "text/javascript; charset=utf-8", include_str!("assets/labels.js")),
    ("views.js", "text/javascript; charset=utf-8", include_str!("assets/views.js")),
    ("icon.svg", "image/svg+xml", include_str!("assets/icon.svg")),
];

const PAGE: &str = include_str!("assets/index.html");

/// `GET /`: the page (every view of it: the state is in the query string, read by the script).
pub async fn page() -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], PAGE)
        .into_response()
}

/// `GET /assets/NAME`.
pub async fn asset(name: Result<Path<String>, PathRejection>) -> Response {
    let Path(name) = match name {
        Ok(name) => name,
        Err(e) => return super::api::path_error(&e).into_response(),
    };
    match ASSETS.iter().find(|(n, _, _)| *n == name) {
        Some(&(_, content_type, body)) => {
            ([(header::CONTENT_TYPE, content_type), (header::CACHE_CONTROL, "no-cache")], body)
                .into_response()
        }
        None => ApiError::not_found("no such page").into_response(),
    }
}
