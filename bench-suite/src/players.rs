//! Who plays a game, for `play` and `match`: the engine to a depth, Monte Carlo with a budget of iterations, or
//! uniformly random moves, named on the command line (`engine:4`, `mcts:2000`, `random`), and how each chooses
//! a move from a line of play — the game's history included, so that repetitions count.

use anyhow::{Result, anyhow, bail};
use khela_exact::SearchConfig;
use khela_exact::retro::Outcome;
use khela_games::line::Line;
use khela_games::{Evaluator, Game, Node, Player, Value};
use khela_heuristic::Engine;
use khela_mcts::random::{Pcg, Random, roll};
use khela_mcts::{Config, Search, Uct};
use std::fmt;
use std::str::FromStr;

/// The deepest engine a player may name: deeper searches of these games take minutes a move.
pub const MAX_DEPTH: u32 = 12;

/// The most Monte Carlo iterations a player may name per move.
pub const MAX_ITERATIONS: u64 = 10_000_000;

/// A player, by what it plays with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contender {
    /// The heuristic engine (iterative deepening with a table) to this depth.
    Engine(u32),
    /// UCT with this many iterations a move.
    Mcts(u64),
    /// A uniformly random legal move.
    Random,
}

impl FromStr for Contender {
    type Err = anyhow::Error;

    fn from_str(text: &str) -> Result<Contender> {
        let (kind, budget) = text.split_once(':').unwrap_or((text, ""));
        let number = |max: u64| -> Result<u64> {
            match budget.parse::<u64>() {
                Ok(n) if (1..=max).contains(&n) => Ok(n),
                _ => Err(anyhow!("player {text:?}: {kind}:N takes N from 1 to {max}")),
            }
        };
        match kind {
            "engine" => Ok(Contender::Engine(number(u64::from(MAX_DEPTH))? as u32)),
            "mcts" => Ok(Contender::Mcts(number(MAX_ITERATIONS)?)),
            "random" if budget.is_empty() => Ok(Contender::Random),
            _ => bail!("player {text:?}: engine:DEPTH, mcts:ITERATIONS or random"),
        }
    }
}

impl fmt::Display for Contender {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Contender::Engine(depth) => write!(f, "engine:{depth}"),
            Contender::Mcts(iterations) => write!(f, "mcts:{iterations}"),
            Contender::Random => f.write_str("random"),
        }
    }
}

/// Rolls `dice` at every chance node at the end of `line` until a decision node or the end of the game: the
/// side to move there (`None`: the game is over) and the rolls made.
pub fn roll_to_decision<G: Game>(game: &G, line: &mut Line<G>, dice: &mut Pcg) -> (Option<Player>, u64) {
    let mut rolls = 0;
    loop {
        if line.end(game).is_some() {
            return (None, rolls);
        }
        match game.node(line.state()) {
            Node::Decision(mover) => return (Some(mover), rolls),
            _ => {
                line.play(game, roll(game, line.state(), dice));
                rolls += 1;
            }
        }
    }
}

/// A move chosen, with what the player saw.
#[derive(Clone, Debug)]
pub struct Choice<M> {
    /// The move.
    pub mv: M,
    /// What the player saw of it.
    pub seen: Seen<M>,
}

/// What a player saw of the move it chose.
#[derive(Clone, Debug)]
pub enum Seen<M> {
    /// The engine's value of the position (MAX's view, on its evaluator's scale) and its principal variation.
    Engine(Value, Vec<M>),
    /// Monte Carlo's mean score of the move for the mover (win 1, draw ½, loss 0) and its visits, of the
    /// iterations run.
    Mcts(f64, u64, u64),
    /// The endgame tables' outcome of the position for the mover, which the move keeps.
    Tables(Outcome),
    /// Nothing (a random move).
    Nothing,
}

/// The best move of a position by endgame tables and the outcome it keeps, where the tables hold the position.
pub type TableMove<'a, G> = &'a (dyn Fn(&<G as Game>::State) -> Option<(<G as Game>::Move, Outcome)> + Sync);

/// A contender seated at one game: what it keeps from move to move (the engine and its table).
pub struct Seat<'a, G: Game, E> {
    game: &'a G,
    contender: Contender,
    engine: Option<Engine<'a, G, E>>,
    tables: Option<TableMove<'a, G>>,
    rng: Pcg,
    seed: u64,
}

impl<'a, G: Game + Sync, E: Evaluator<G>> Seat<'a, G, E> {
    /// `contender` seated at `game`, with the game's evaluator (the engine needs one), a table of `table_mib`
    /// MiB for the engine, and `seed` for its random choices.
    pub fn new(
        game: &'a G,
        evaluator: Option<&'a E>,
        contender: Contender,
        table_mib: usize,
        seed: u64,
    ) -> Result<Self> {
        let engine = match contender {
            Contender::Engine(depth) => {
                let evaluator = evaluator.ok_or_else(|| {
                    anyhow!("{contender} needs an evaluator, which this game has not: play it with mcts:N or random")
                })?;
                let config = SearchConfig { table_mib: Some(table_mib), ..SearchConfig::depth_limited(depth) };
                Some(Engine::new(game, evaluator, config))
            }
            _ => None,
        };
        Ok(Seat { game, contender, engine, tables: None, rng: Pcg::from_seed(seed), seed })
    }

    /// The same seat playing the tables' move wherever the tables hold the position (`game` should then stop
    /// its searches at those positions: [`khela_games::settled::Settled`]).
    pub fn with_tables(self, tables: TableMove<'a, G>) -> Self {
        Seat { tables: Some(tables), ..self }
    }

    /// The move to play at the end of `line` (a decision node with moves), a line of the game itself or of the
    /// game the seat searches (which share positions and moves).
    pub fn choose<L: Game<State = G::State, Move = G::Move>>(&mut self, line: &Line<L>) -> Choice<G::Move> {
        let state = line.state();
        if let Some((mv, outcome)) = self.tables.and_then(|tables| tables(state)) {
            return Choice { mv, seen: Seen::Tables(outcome) };
        }
        match (self.contender, self.engine.as_mut()) {
            (Contender::Engine(_), Some(engine)) => {
                engine.set_history(line.history().to_vec());
                let analysis = engine.search(state);
                let mv = analysis.best.expect("a decision node has a best move");
                Choice { mv, seen: Seen::Engine(analysis.value, analysis.pv) }
            }
            (Contender::Mcts(iterations), _) => {
                let config = Config { seed: self.seed.wrapping_add(line.moves().len() as u64), ..Config::default() };
                let mut search: Search<'_, G, Uct, Pcg> =
                    Search::new(self.game, state.clone(), Uct::default(), config).with_history(line.history().to_vec());
                search.run(iterations);
                let mv = search.best().expect("a decision node has an expanded move");
                let stats = search.stats();
                let chosen = stats.iter().find(|s| s.mv == mv).expect("the move chosen has statistics");
                let mean = if chosen.visits == 0 { 0.5 } else { chosen.wins / chosen.visits as f64 };
                Choice { mv, seen: Seen::Mcts(mean, chosen.visits, iterations) }
            }
            _ => {
                let mut moves = Vec::new();
                self.game.moves(state, &mut moves);
                Choice { mv: moves[self.rng.below(moves.len())], seen: Seen::Nothing }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contenders_by_name() {
        assert_eq!("engine:4".parse::<Contender>().unwrap(), Contender::Engine(4));
        assert_eq!("mcts:2000".parse::<Contender>().unwrap(), Contender::Mcts(2000));
        assert_eq!("random".parse::<Contender>().unwrap(), Contender::Random);
        for (text, message) in [
            ("engine", "engine:N takes N from 1 to 12"),
            ("engine:13", "from 1 to 12"),
            ("mcts:0", "from 1 to 10000000"),
            ("random:3", "engine:DEPTH, mcts:ITERATIONS or random"),
            ("alphazero", "engine:DEPTH, mcts:ITERATIONS or random"),
        ] {
            let err = text.parse::<Contender>().unwrap_err().to_string();
            assert!(err.contains(message), "{text}: {err}");
        }
        assert_eq!(Contender::Mcts(500).to_string(), "mcts:500");
    }
}
