//! What the server answers outside the API's endpoints: the page at `/`, and JSON errors for unknown paths and
//! methods.

use crate::error::ApiError;
use axum::http::{Method, Uri};
use axum::response::Html;

/// The page at `/`: what the server offers, built into the binary.
pub async fn index() -> Html<&'static str> {
    Html(include_str!("index.html"))
}

/// Any other path.
pub async fn not_found(uri: Uri) -> ApiError {
    ApiError::not_found(format!("no such endpoint: {}; the API's endpoints are under /api (see /)", uri.path()))
}

/// A known path asked with a method it does not take.
pub async fn method_not_allowed(method: Method, uri: Uri) -> ApiError {
    ApiError::unreadable(
        axum::http::StatusCode::METHOD_NOT_ALLOWED,
        format!("{} takes no {method}: GET /api/games, POST the others (see /)", uri.path()),
    )
}
