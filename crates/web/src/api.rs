//! The JSON API: the games, a position's state, a move played, every move valued, a player's move. Stateless: a
//! position travels in each request as its game string, its start and the moves played since, so that any
//! number of tabs and users need nothing kept on the server.

use crate::error::ApiError;
use crate::limits::Limits;
use crate::served::Served;
use axum::Json;
use axum::extract::State as Shared;
use axum::extract::rejection::JsonRejection;
use khela::board::{Board, Gesture};
use khela::players::Contender;
use khela::registry::GameName;
use khela::{Analyser, Source};
use khela_games::Player;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::{Duration, Instant};
use strum::VariantArray;
use tokio::sync::Semaphore;

/// What every handler shares: the limits, and the slots for the work that searches.
#[derive(Clone)]
pub struct App {
    /// The server's limits.
    pub limits: Limits,
    /// One permit an analysis or a player's move running; none left means "busy".
    pub slots: Arc<Semaphore>,
    /// Games with their tables, and networks by name.
    pub served: Arc<Served>,
}

/// A position, as every request names it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Position {
    /// The game string: a name, or a name with parameters (`connect4(width=8,height=7)`).
    pub game: String,
    /// The starting position in the game's notation; the game's own start when absent.
    #[serde(default)]
    pub start: Option<String>,
    /// The moves (and chance outcomes) played since, in the game's notation.
    #[serde(default)]
    pub moves: Vec<String>,
}

/// `POST /api/play`: a position and the move to play there.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayRequest {
    /// The position.
    #[serde(flatten)]
    pub position: Position,
    /// The move, in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
}

/// How to value the moves, as a request names it.
#[derive(Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum AnalyserRequest {
    /// Exactly, by the game's solver, its tables or a full search.
    Exact,
    /// A depth-limited search to `depth` plies, the game's evaluator at the horizon.
    Depth {
        /// The depth.
        depth: u32,
    },
    /// Monte Carlo tree search (UCT).
    Mcts {
        /// The iterations.
        iterations: u64,
        /// The seed of the random playouts.
        #[serde(default)]
        seed: u64,
    },
    /// A trained network's search (PUCT with its priors and values), the network named as the server names it.
    Net {
        /// The network's name (`GET /api/games` lists each game's).
        name: String,
        /// The simulations.
        simulations: u32,
    },
}

/// `POST /api/analyse`: a position and how to value its moves.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalyseRequest {
    /// The position.
    #[serde(flatten)]
    pub position: Position,
    /// How to value the moves.
    pub analyser: AnalyserRequest,
    /// The time the analysis may take, in milliseconds (at most the server's limit, which is the default): a
    /// depth-limited or Monte Carlo search answers by then with the best it has (`complete` false); an exact
    /// search answers when it is done, within the server's limit.
    #[serde(default)]
    pub millis: Option<u64>,
    /// The analyser to answer with if the first is refused (an exact analysis that would take too long, a game
    /// served without its tables): `refused` then says why.
    #[serde(default)]
    pub fallback: Option<AnalyserRequest>,
}

/// `POST /api/choose`: a position and the player asked for its move.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChooseRequest {
    /// The position.
    #[serde(flatten)]
    pub position: Position,
    /// The player: `engine:DEPTH`, `mcts:ITERATIONS` or `random`.
    pub player: String,
    /// The seed of the player's random choices.
    #[serde(default)]
    pub seed: u64,
}

/// A game the API serves.
#[derive(Debug, Serialize, Deserialize)]
pub struct GameView {
    /// Its game string: a game's name for its standard form, or a name with parameters.
    pub name: String,
    /// Its title.
    pub title: String,
    /// How its positions and moves are written.
    pub notation: String,
    /// Its players' names, the first player first.
    pub players: [String; 2],
    /// Its standard start, in its notation (for Nim, which has none, the heaps 3, 4 and 5).
    pub start: String,
    /// The trained networks the server plays it with, by name (`net:NAME` players).
    pub nets: Vec<String>,
}

/// A position's state.
#[derive(Debug, Serialize, Deserialize)]
pub struct StateView {
    /// The game string.
    pub game: String,
    /// The starting position.
    pub start: String,
    /// The moves played since.
    pub moves: Vec<String>,
    /// Its players' names, the first player first.
    pub players: [String; 2],
    /// `decision`, `chance` or `over`.
    pub turn: String,
    /// The player to move, at a decision.
    pub to_move: Option<String>,
    /// The first player's payoff, when the game is over.
    pub outcome: Option<f64>,
    /// The legal moves (at a chance node, the outcomes), in the game's notation and order.
    pub legal: Vec<String>,
    /// The outcomes' probabilities, at a chance node, in the order of `legal`.
    pub probabilities: Vec<f64>,
    /// The position drawn for people, as the command line draws it.
    pub picture: String,
    /// The position as a board: points, lines, pieces and counters ([`khela::board`]).
    pub board: Board,
    /// How each legal move is made on the board, in the order of `legal`.
    pub gestures: Vec<Gesture>,
}

/// One move's value.
#[derive(Debug, Serialize, Deserialize)]
pub struct MoveView {
    /// The move, in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its value from the first player's view; absent for a move Monte Carlo never tried.
    pub value: Option<f64>,
    /// The iterations through it, for Monte Carlo.
    pub visits: Option<u64>,
    /// For an exact win or loss, the plies to the end under best play (the move the first), where known.
    pub plies: Option<u32>,
    /// Whether it is among the best for the side to move.
    pub best: bool,
}

/// Every move valued.
#[derive(Debug, Serialize, Deserialize)]
pub struct AnalysisView {
    /// Where the values come from: `exact`, `depth`, `mcts` or `net`.
    pub source: String,
    /// The depth, for `depth`: the depth reached, when the time ran out first.
    pub depth: Option<u32>,
    /// Whether the search did all it was asked; false when the time ran out first (a shallower depth, fewer
    /// iterations than asked).
    pub complete: bool,
    /// Why the analyser asked for was refused, when the request's fallback answered instead.
    pub refused: Option<String>,
    /// The player to move.
    pub to_move: String,
    /// The moves, in the game's order.
    pub moves: Vec<MoveView>,
    /// For a game with captures, what the first best move lets happen within a few moves of each side.
    pub threat: Option<ThreatView>,
}

/// The captures a move lets the opponent force, or itself forces, within [`khela::threat::MOST_MOVES`] moves.
#[derive(Debug, Serialize, Deserialize)]
pub struct ThreatView {
    /// The fewest of the opponent's moves within which it takes one of the mover's pieces, whatever the mover
    /// does; absent if it cannot force it so soon.
    pub loses_within: Option<u32>,
    /// The fewest of the mover's moves, this one the first, within which it takes one of the opponent's pieces,
    /// whatever the opponent does; absent if it cannot force it so soon.
    pub captures_within: Option<u32>,
}

/// A player's move.
#[derive(Debug, Serialize, Deserialize)]
pub struct ChoiceView {
    /// The move, in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
}

/// The body of a request, or the error naming what is wrong with it.
pub(crate) fn read<T>(body: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    body.map(|Json(value)| value).map_err(|rejection| ApiError::unreadable(rejection.status(), rejection.body_text()))
}

/// The state a request names, its moves replayed: of the game with its tables, where the server has them.
fn state_of(position: &Position, app: &App) -> Result<khela::State, ApiError> {
    let limits = &app.limits;
    if position.moves.len() > limits.max_moves {
        return Err(ApiError::bad_request(format!(
            "{} moves: a request names at most {}",
            position.moves.len(),
            limits.max_moves
        )));
    }
    let spec: khela::Spec = position.game.parse()?;
    let game = match app.served.tables.iter().find(|game| *game.spec() == spec) {
        Some(game) => game.clone(),
        None => khela::Game::new(&spec)?,
    };
    let mut state = match &position.start {
        Some(start) => game.state(start)?,
        None => game.start()?,
    };
    for (ply, mv) in position.moves.iter().enumerate() {
        state.play_text(mv).map_err(|err| ApiError::bad_request(format!("move {} ({mv:?}): {err:#}", ply + 1)))?;
    }
    Ok(state)
}

fn view(state: &khela::State) -> StateView {
    let game = state.game();
    let record = state.record();
    let (turn, to_move, outcome) = match state.turn() {
        khela::dynamic::Turn::Decision(player) => ("decision", Some(game.player_name(player).to_string()), None),
        khela::dynamic::Turn::Chance => ("chance", None, None),
        khela::dynamic::Turn::Over(value) => ("over", None, Some(value)),
    };
    StateView {
        game: record.game,
        start: record.start,
        moves: record.moves,
        players: [game.player_name(Player::Max).to_string(), game.player_name(Player::Min).to_string()],
        turn: turn.to_string(),
        to_move,
        outcome,
        legal: state.move_texts(),
        probabilities: state.chance_outcomes().into_iter().map(|(_, p)| p).collect(),
        picture: state.picture(),
        board: state.board(),
        gestures: state.gestures(),
    }
}

/// The forms of the games the app offers besides each game's standard one.
pub const VARIANTS: [&str; 5] = [
    "connect4(width=5,height=4)",
    "bagh-chal(rules=bagh-bandi)",
    "sixteen-soldiers(rules=optional)",
    "sixteen-soldiers(rules=continue)",
    "pig(goal=20)",
];

/// The heaps the app starts Nim from, which has no standard start.
const NIM_HEAPS: &str = "3,4,5";

/// `GET /api/games`: every game, in the registry's order, then the [`VARIANTS`].
pub async fn games(Shared(app): Shared<App>) -> Result<Json<Vec<GameView>>, ApiError> {
    let names = GameName::VARIANTS.iter().map(ToString::to_string).chain(VARIANTS.map(String::from));
    let mut games = Vec::new();
    for name in names {
        let game = khela::load(&name)?;
        let start = match game.start() {
            Ok(state) => state.record().start,
            Err(_) if game.spec().name == GameName::Nim => NIM_HEAPS.to_string(),
            Err(_) => String::new(),
        };
        games.push(GameView {
            title: game.title(),
            notation: game.notation().to_string(),
            players: [game.player_name(Player::Max).to_string(), game.player_name(Player::Min).to_string()],
            start,
            nets: app.served.nets.iter().filter(|net| net.game == name).map(|net| net.name.clone()).collect(),
            name,
        });
    }
    Ok(Json(games))
}

/// `POST /api/state`: the state of a position.
pub async fn state(
    Shared(app): Shared<App>,
    body: Result<Json<Position>, JsonRejection>,
) -> Result<Json<StateView>, ApiError> {
    let position = read(body)?;
    Ok(Json(view(&state_of(&position, &app)?)))
}

/// `POST /api/load`: a game record, as `play --record` writes it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoadRequest {
    /// The record's text.
    pub text: String,
}

/// A game record as text.
#[derive(Debug, Serialize, Deserialize)]
pub struct RecordView {
    /// The record, as `play --record` writes it and `play --load` reads it.
    pub text: String,
}

/// `POST /api/record`: the game record of a position, its moves replayed (and so checked).
pub async fn record(
    Shared(app): Shared<App>,
    body: Result<Json<Position>, JsonRejection>,
) -> Result<Json<RecordView>, ApiError> {
    let position = read(body)?;
    Ok(Json(RecordView { text: state_of(&position, &app)?.record().text() }))
}

/// `POST /api/load`: the state a game record reaches.
pub async fn load(
    Shared(app): Shared<App>,
    body: Result<Json<LoadRequest>, JsonRejection>,
) -> Result<Json<StateView>, ApiError> {
    let request = read(body)?;
    let record = khela::dynamic::Record::parse("the record", &request.text)?;
    let position = Position { game: record.game, start: Some(record.start), moves: record.moves };
    Ok(Json(view(&state_of(&position, &app)?)))
}

/// `POST /api/play`: the state after a move.
pub async fn play(
    Shared(app): Shared<App>,
    body: Result<Json<PlayRequest>, JsonRejection>,
) -> Result<Json<StateView>, ApiError> {
    let request = read(body)?;
    let mut state = state_of(&request.position, &app)?;
    state.play_text(&request.mv)?;
    Ok(Json(view(&state)))
}

/// The analyser a request names, within the server's limits.
fn analyser_of(request: AnalyserRequest, app: &App, game: &str) -> Result<Analyser, ApiError> {
    let limits = &app.limits;
    Ok(match request {
        AnalyserRequest::Exact => Analyser::Exact,
        AnalyserRequest::Depth { depth } if (1..=limits.max_depth).contains(&depth) => Analyser::Depth(depth),
        AnalyserRequest::Depth { depth } => {
            return Err(ApiError::bad_request(format!(
                "depth {depth}: this server searches 1 to {}",
                limits.max_depth
            )));
        }
        AnalyserRequest::Mcts { iterations, seed } if (1..=limits.max_iterations).contains(&iterations) => {
            Analyser::Mcts { iterations, seed }
        }
        AnalyserRequest::Mcts { iterations, .. } => {
            return Err(ApiError::bad_request(format!(
                "{iterations} iterations: this server runs 1 to {}",
                limits.max_iterations
            )));
        }
        AnalyserRequest::Net { name, simulations } => {
            let (path, simulations) = named_net(app, game, &format!("{name}:{simulations}"))?;
            Analyser::Net { path, simulations }
        }
    })
}

/// `POST /api/analyse`: every legal move valued.
pub async fn analyse(
    Shared(app): Shared<App>,
    body: Result<Json<AnalyseRequest>, JsonRejection>,
) -> Result<Json<AnalysisView>, ApiError> {
    let request = read(body)?;
    let analyser = analyser_of(request.analyser, &app, &request.position.game)?;
    let fallback = request.fallback.map(|f| analyser_of(f, &app, &request.position.game)).transpose()?;
    let limit = app.limits.max_search_millis;
    let millis = match request.millis {
        Some(0) => return Err(ApiError::bad_request("millis 0: give the analysis some time, or leave millis out")),
        Some(millis) => millis.min(limit),
        None => limit,
    };
    let state = state_of(&request.position, &app)?;
    let until = Instant::now() + Duration::from_millis(millis);
    // The threats of the best move with the analysis, on the search's thread: a few plies of every reply.
    let (state, analysis, refused, threat) = searching(&app, move || {
        let (analysis, refused) = match (state.analyse_until(&analyser, until), fallback) {
            // A fallback refused too: the first refusal, which names what was asked.
            (Err(refused), Some(fallback)) => match state.analyse_until(&fallback, until) {
                Ok(analysis) => (analysis, Some(format!("{refused:#}"))),
                Err(_) => return Err(refused),
            },
            (analysis, _) => (analysis?, None),
        };
        let threat = analysis.best().first().and_then(|&mv| state.threat(mv));
        Ok((state, analysis, refused, threat))
    })
    .await?;
    let best = analysis.best();
    let threat =
        threat.map(|threat| ThreatView { loses_within: threat.loses_within, captures_within: threat.captures_within });
    Ok(Json(AnalysisView {
        source: match analysis.source {
            Source::Exact => "exact",
            Source::Depth(_) => "depth",
            Source::MonteCarlo => "mcts",
            Source::Network => "net",
        }
        .to_string(),
        depth: match analysis.source {
            Source::Depth(depth) => Some(depth),
            _ => None,
        },
        complete: analysis.complete,
        refused,
        to_move: state.game().player_name(analysis.mover).to_string(),
        moves: analysis
            .moves
            .into_iter()
            .map(|m| MoveView {
                best: best.contains(&m.index),
                mv: m.text,
                value: m.value,
                visits: m.visits,
                plies: m.plies,
            })
            .collect(),
        threat,
    }))
}

/// `POST /api/choose`: the move a player chooses.
pub async fn choose(
    Shared(app): Shared<App>,
    body: Result<Json<ChooseRequest>, JsonRejection>,
) -> Result<Json<ChoiceView>, ApiError> {
    let request = read(body)?;
    let contender = match request.player.strip_prefix("net:") {
        Some(named) => {
            let (path, simulations) = named_net(&app, &request.position.game, named)?;
            Contender::Net(path, simulations)
        }
        None => request.player.parse()?,
    };
    match contender {
        Contender::Engine(depth) if depth > app.limits.max_depth => {
            return Err(ApiError::bad_request(format!(
                "player {:?}: this server searches to depth {} at most",
                request.player, app.limits.max_depth
            )));
        }
        Contender::Mcts(iterations) if iterations > app.limits.max_iterations => {
            return Err(ApiError::bad_request(format!(
                "player {:?}: this server runs {} iterations at most",
                request.player, app.limits.max_iterations
            )));
        }
        _ => {}
    }
    let state = state_of(&request.position, &app)?;
    let seed = request.seed;
    let mv = searching(&app, move || state.choose(&contender, seed).and_then(|mv| state.move_text(mv))).await?;
    Ok(Json(ChoiceView { mv }))
}

/// The network and simulations of `net:NAME` or `net:NAME:N` (`text` after `net:`): a network the server has by
/// that name, for this game, with N simulations a move (200 by default, at most the server's iterations).
fn named_net(app: &App, game: &str, text: &str) -> Result<(std::path::PathBuf, u32), ApiError> {
    let (name, simulations) = match text.rsplit_once(':') {
        Some((name, n)) => match n.parse::<u64>() {
            Ok(n) if (1..=app.limits.max_iterations).contains(&n) => (name, n as u32),
            _ => {
                return Err(ApiError::bad_request(format!(
                    "player \"net:{text}\": net:NAME:N takes N from 1 to {}",
                    app.limits.max_iterations
                )));
            }
        },
        None => (text, khela::players::NET_SIMULATIONS),
    };
    let found = app.served.nets.iter().find(|net| net.name == name && net.game == game);
    let Some(net) = found else {
        let names: Vec<&str> =
            app.served.nets.iter().filter(|net| net.game == game).map(|net| net.name.as_str()).collect();
        return Err(ApiError::bad_request(format!(
            "player \"net:{text}\": this server has no network {name:?} for {game}; it has {}",
            if names.is_empty() { "none".to_string() } else { names.join(", ") }
        )));
    };
    Ok((net.path.clone(), simulations))
}

/// Runs a search on a blocking thread, holding one of the server's slots, and waits at most the server's time
/// for it: no slot free is "busy"; a search past the time is answered so, while it finishes in the background,
/// still holding its slot, so that the slots bound the work running.
pub(crate) async fn searching<T: Send + 'static>(
    app: &App,
    work: impl FnOnce() -> anyhow::Result<T> + Send + 'static,
) -> Result<T, ApiError> {
    let Ok(slot) = app.slots.clone().try_acquire_owned() else {
        return Err(ApiError::busy(format!(
            "busy: {} searches are running, the most this server runs at once; retry",
            app.limits.max_searches
        )));
    };
    let task = tokio::task::spawn_blocking(move || {
        let result = work();
        drop(slot);
        result
    });
    // A search past its deadline (an exact one, or a depth that took longer than foreseen) is given half as long
    // again before the answer "did not finish".
    let wait = Duration::from_millis(app.limits.max_search_millis.saturating_mul(3) / 2);
    match tokio::time::timeout(wait, task).await {
        Ok(Ok(result)) => result.map_err(ApiError::from),
        Ok(Err(join)) => Err(ApiError::internal(format!("the search failed: {join}"))),
        Err(_) => Err(ApiError::busy(format!(
            "the search did not finish within {} ms, this server's limit: ask for a smaller budget",
            app.limits.max_search_millis.saturating_mul(3) / 2
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A search that runs past half as long again as the server's limit is answered "did not finish" while it
    /// runs on; its slot comes back when it ends.
    #[tokio::test]
    async fn a_search_past_the_server_s_limit_is_answered_that_it_did_not_finish() {
        let limits = Limits { max_search_millis: 10, max_searches: 1, ..Limits::default() };
        let app = App { slots: Arc::new(Semaphore::new(1)), served: Arc::default(), limits };
        let slow = searching(&app, || {
            std::thread::sleep(Duration::from_millis(200));
            Ok(())
        });
        let err = slow.await.unwrap_err();
        assert_eq!(err.status(), axum::http::StatusCode::SERVICE_UNAVAILABLE);
        assert!(err.message().contains("did not finish within 15 ms"), "{}", err.message());
        assert_eq!(app.slots.available_permits(), 0, "the search still runs");
        tokio::time::sleep(Duration::from_millis(400)).await;
        assert_eq!(app.slots.available_permits(), 1, "its slot back when it ended");
    }
}
