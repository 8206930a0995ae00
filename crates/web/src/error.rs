//! The API's errors: a status and a one-line message, sent as `{"error": "…"}`.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// A request the API refuses or cannot serve: its HTTP status and a message naming the problem.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
}

/// The body of every error.
#[derive(Serialize)]
struct Body<'a> {
    error: &'a str,
}

impl ApiError {
    /// A request that names something wrong: an unknown game, a bad position, an illegal move, a budget out of
    /// range (400).
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::BAD_REQUEST, message: message.into() }
    }

    /// A request whose body is not what the API reads (malformed JSON, a missing field, too large): the status
    /// the body's reader chose.
    pub fn unreadable(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError { status, message: message.into() }
    }

    /// No such endpoint (404).
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::NOT_FOUND, message: message.into() }
    }

    /// Every slot for analyses is taken (503, with `Retry-After`).
    pub fn busy(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::SERVICE_UNAVAILABLE, message: message.into() }
    }

    /// The server failed where it should not have (500).
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::INTERNAL_SERVER_ERROR, message: message.into() }
    }

    /// Its status.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// Its message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl From<anyhow::Error> for ApiError {
    /// The library's refusals (a bad game string, position, move or budget) are the request's fault.
    fn from(err: anyhow::Error) -> ApiError {
        ApiError::bad_request(format!("{err:#}").replace('\n', " "))
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, Json(Body { error: &self.message })).into_response();
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        response
    }
}
