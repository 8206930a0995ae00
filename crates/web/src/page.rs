//! What the server answers outside the API's endpoints: the app's files, built into the binary, and JSON errors
//! for unknown paths and methods.

use crate::error::ApiError;
use axum::http::{HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};

/// One of the app's files: its path on the server, its media type, its bytes.
struct Asset {
    path: &'static str,
    media: &'static str,
    body: &'static [u8],
}

/// An [`Asset`] from `crates/web/page/`.
macro_rules! asset {
    ($path:literal, $media:literal) => {
        Asset { path: concat!("/", $path), media: $media, body: include_bytes!(concat!("../page/", $path)) }
    };
}

/// Every file of the app. The pages are ES modules and JSON, with no build step: what is here is what runs.
const ASSETS: &[Asset] = &[
    asset!("index.html", "text/html; charset=utf-8"),
    asset!("textbook.html", "text/html; charset=utf-8"),
    asset!("app.css", "text/css; charset=utf-8"),
    asset!("fonts.css", "text/css; charset=utf-8"),
    asset!("app.js", "text/javascript; charset=utf-8"),
    asset!("board.js", "text/javascript; charset=utf-8"),
    asset!("i18n.js", "text/javascript; charset=utf-8"),
    asset!("textbook.js", "text/javascript; charset=utf-8"),
    asset!("lang/en.json", "application/json"),
    asset!("lang/bn.json", "application/json"),
    asset!("fonts/noto-sans-bengali-bengali-400-normal.woff2", "font/woff2"),
    asset!("fonts/noto-sans-bengali-bengali-700-normal.woff2", "font/woff2"),
    asset!("fonts/OFL.txt", "text/plain; charset=utf-8"),
];

/// Every file the app serves, by path, with its size in bytes.
pub fn asset_sizes() -> impl Iterator<Item = (&'static str, usize)> {
    ASSETS.iter().map(|asset| (asset.path, asset.body.len()))
}

/// A GET outside the API: one of the app's files (`/` is the app, `/textbook` the textbook's page), or 404.
pub async fn file(method: Method, uri: Uri) -> Response {
    let path = match uri.path() {
        "/" => "/index.html",
        "/textbook" => "/textbook.html",
        path => path,
    };
    let found = ASSETS.iter().find(|asset| asset.path == path);
    match (found, &method) {
        (Some(asset), &Method::GET | &Method::HEAD) => {
            // The fonts never change within a build; the pages are small and are checked again each time.
            let cache = if asset.media.starts_with("font/") { "max-age=31536000, immutable" } else { "no-cache" };
            let headers = [
                (header::CONTENT_TYPE, HeaderValue::from_static(asset.media)),
                (header::CACHE_CONTROL, HeaderValue::from_static(cache)),
                (header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
            ];
            (headers, asset.body).into_response()
        }
        (Some(_), _) => method_not_allowed(method, uri).await.into_response(),
        (None, _) => ApiError::not_found(format!(
            "no such page or endpoint: {}; the app is at /, the API under /api (see the book's chapter \"In a browser\")",
            uri.path()
        ))
        .into_response(),
    }
}

/// A known path asked with a method it does not take.
pub async fn method_not_allowed(method: Method, uri: Uri) -> ApiError {
    ApiError::unreadable(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("{} takes no {method}: GET /api/games and the app's files, POST the API's others", uri.path()),
    )
}
