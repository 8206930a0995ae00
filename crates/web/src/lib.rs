//! khela in a browser: a local HTTP server ([`run`]) whose JSON API ([`router`]) serves every game of the `khela`
//! library — the games, a position's state, a move played, every move valued, a player's move — and the textbook's
//! trace of a search over an explicit tree.
//!
//! The API is stateless: a request names its position whole (its game string, its start, the moves played
//! since), so any number of tabs and users need nothing kept on the server. Every request's work is bounded
//! ([`Limits`]): the body's size, the moves a request names, the depth and iterations of a search, the searches
//! running at once (beyond them the answer is "busy, retry"), and the time a request waits for its search. Bad
//! input of every kind is a 4xx answer whose JSON body, `{"error": "…"}`, names the problem.
//!
//! | method and path | body | answer |
//! |---|---|---|
//! | `GET /api/games` | | every game: `name`, `title`, `notation`, `players`, `start` |
//! | `POST /api/state` | `{"game", "start"?, "moves"?}` | the position: `turn`, `to_move`, `outcome`, `legal`, `probabilities`, `picture` |
//! | `POST /api/play` | the same, and `"move"` | the position after the move |
//! | `POST /api/record` | a position | its game record, `text`, as `play --record` writes it |
//! | `POST /api/load` | `{"text"}`, a game record | the position it reaches |
//! | `POST /api/analyse` | the same, and `"analyser"`: `{"kind": "exact"}`, `{"kind": "depth", "depth"}`, `{"kind": "mcts", "iterations", "seed"?}` or `{"kind": "net", "name", "simulations"}`; `"millis"`? (the time it may take), `"fallback"`? (an analyser if the first is refused) | every legal move: `move`, `value` (the first player's view), `visits`, `plies`, `best`; `source`, `depth`, `complete` (false when the time ran out first), `refused` (why the fallback answered), `threat` (captures the best move lets happen within 3 moves) |
//! | `POST /api/choose` | the same, and `"player": "engine:4"`, `"mcts:1000"` or `"random"`, `"seed"?` | the player's `move` |
//! | `POST /api/trace` | `{"tree", "root"?, "algorithm"?}` | the textbook's trace: `steps` (values backed up, cutoffs with their leaves), `value`, `best`, `nodes`, `pruned_leaves` |
//! | `POST /api/ordering` | `{"branching", "depth", "seed", "generator"?}` | the textbook's move-ordering table of a random tree: `rows` (`algorithm`, `ordering`, `value`, `leaves`, `nodes`), `tree_nodes`, `tree_leaves`, `knuth_moore` |
//!
//! # Examples
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! use tower::ServiceExt;
//! let app = khela_web::router(khela_web::Limits::default());
//! let request = axum::http::Request::post("/api/analyse")
//!     .header("content-type", "application/json")
//!     .body(axum::body::Body::from(r#"{"game": "tictactoe", "start": "X...O...X", "analyser": {"kind": "exact"}}"#))
//!     .unwrap();
//! let response = app.oneshot(request).await.unwrap();
//! assert_eq!(response.status(), 200);
//! # }
//! ```

mod api;
mod error;
mod limits;
mod page;
mod served;
mod textbook;

pub use api::{AnalysisView, ChoiceView, GameView, MoveView, StateView, ThreatView, VARIANTS};
pub use error::ApiError;
pub use limits::Limits;
pub use page::asset_sizes;
pub use served::{NamedNet, Served, nets_in};
pub use textbook::{OrderingRowView, OrderingView, StepView, TraceView};

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::sync::Semaphore;

/// The server's routes: the app at `/` and the JSON API under `/api`, every game as the library loads it.
pub fn router(limits: Limits) -> Router {
    router_with(limits, Served::default())
}

/// [`router`], serving besides games with their endgame tables and networks by name ([`Served`]).
pub fn router_with(limits: Limits, served: Served) -> Router {
    let app = api::App {
        slots: Arc::new(Semaphore::new(limits.max_searches)),
        limits: limits.clone(),
        served: Arc::new(served),
    };
    Router::new()
        .route("/api/games", get(api::games))
        .route("/api/state", post(api::state))
        .route("/api/play", post(api::play))
        .route("/api/record", post(api::record))
        .route("/api/load", post(api::load))
        .route("/api/analyse", post(api::analyse))
        .route("/api/choose", post(api::choose))
        .route("/api/trace", post(textbook::trace))
        .route("/api/ordering", post(textbook::ordering))
        .fallback(page::file)
        .method_not_allowed_fallback(page::method_not_allowed)
        .layer(DefaultBodyLimit::max(limits.max_body_bytes))
        .with_state(app)
}

/// Serves `routes` ([`router`], [`router_with`]) on `addr` until `stop` completes, on a runtime of its own;
/// `ready` is told the address it listens on (the port chosen, where `addr`'s was 0) once it accepts connections.
///
/// # Errors
///
/// The address cannot be bound (in use, not this machine's, a port below 1024 without the right).
pub fn run(
    addr: SocketAddr,
    routes: Router,
    ready: impl FnOnce(SocketAddr),
    stop: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|err| anyhow::anyhow!("cannot listen on {addr}: {err}"))?;
        ready(listener.local_addr()?);
        axum::serve(listener, routes).with_graceful_shutdown(stop).await?;
        Ok(())
    })
}
