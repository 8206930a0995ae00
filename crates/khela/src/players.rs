//! Who plays a game, for `play` and `match`: the engine to a depth, Monte Carlo with a budget of iterations, a
//! trained network guiding PUCT, uniformly random moves, or perfect play by exact tables, named on the command
//! line (`engine:4`, `mcts:2000`, `net:results/zero-tictactoe.safetensors`, `random`, `perfect`), and how each
//! chooses a move from a line of play — the game's history included, so that repetitions count.

use crate::analysis::{Limit, run_within};
use crate::net::Guide;
use crate::verdict::Verdict;
use anyhow::{Result, anyhow, bail};
use khela_exact::SearchConfig;
use khela_games::line::{End, Line};
use khela_games::{Evaluator, Game, Node, Player, Value};
use khela_heuristic::Engine;
use khela_mcts::random::{Pcg, Random, roll};
use khela_mcts::{MctsConfig, MoveStats, Search, Uct};
use khela_zero::player::Guided;
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

/// The deepest engine a player may name: deeper searches of these games take minutes a move.
pub const MAX_DEPTH: u32 = 12;

/// The most Monte Carlo iterations a player may name per move.
pub const MAX_ITERATIONS: u64 = 10_000_000;

/// The most simulations a network player may name per move (a forward pass each).
pub const MAX_SIMULATIONS: u64 = 100_000;

/// The simulations a move of a network player named without them: the recipe's 200.
pub const NET_SIMULATIONS: u32 = 200;

/// The players' names, for messages.
const NAMES: &str = "engine:DEPTH, mcts:ITERATIONS, net:PATH[:SIMULATIONS], random or perfect";

/// A player, by what it plays with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Contender {
    /// The heuristic engine (iterative deepening with a table) to this depth.
    Engine(u32),
    /// UCT with this many iterations a move.
    Mcts(u64),
    /// PUCT guided by the network saved at this path (`zero train`), with this many simulations a move.
    Net(PathBuf, u32),
    /// A uniformly random legal move.
    Random,
    /// The exact tables' move (`--tables DIR`): it never throws a win or a draw away, wins a won position the
    /// fastest and holds a lost one the longest where the tables keep distances, and takes the first of the
    /// equally good moves in the game's order.
    Perfect,
}

impl FromStr for Contender {
    type Err = anyhow::Error;

    /// `engine:D`, `mcts:N`, `net:PATH` or `net:PATH:N` (a path's last `:` followed only by digits is taken for
    /// the simulations), `random`.
    fn from_str(text: &str) -> Result<Contender> {
        let (kind, budget) = text.split_once(':').unwrap_or((text, ""));
        let number = |budget: &str, max: u64| -> Result<u64> {
            match budget.parse::<u64>() {
                Ok(n) if (1..=max).contains(&n) => Ok(n),
                _ => Err(anyhow!("player {text:?}: {kind}:N takes N from 1 to {max}")),
            }
        };
        match kind {
            "engine" => Ok(Contender::Engine(number(budget, u64::from(MAX_DEPTH))? as u32)),
            "mcts" => Ok(Contender::Mcts(number(budget, MAX_ITERATIONS)?)),
            "net" => match budget.rsplit_once(':') {
                Some((path, n)) if !path.is_empty() && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
                    Ok(Contender::Net(path.into(), number(n, MAX_SIMULATIONS)? as u32))
                }
                _ if budget.is_empty() => bail!("player {text:?}: net:PATH names the network's file"),
                _ => Ok(Contender::Net(budget.into(), NET_SIMULATIONS)),
            },
            "random" if budget.is_empty() => Ok(Contender::Random),
            "perfect" if budget.is_empty() => Ok(Contender::Perfect),
            _ => bail!("player {text:?}: {NAMES}"),
        }
    }
}

impl fmt::Display for Contender {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Contender::Engine(depth) => write!(f, "engine:{depth}"),
            Contender::Mcts(iterations) => write!(f, "mcts:{iterations}"),
            Contender::Net(path, simulations) => write!(f, "net:{}:{simulations}", path.display()),
            Contender::Random => f.write_str("random"),
            Contender::Perfect => f.write_str("perfect"),
        }
    }
}

/// The moves of a decision node, or the outcomes of a chance node, into `buf`, in the game's order: what may be
/// played there (a person's move, a record's, a front end's move by number).
pub fn legal<G: Game>(game: &G, state: &G::State, buf: &mut Vec<G::Move>) {
    if let Node::Chance = game.node(state) {
        let mut outcomes = Vec::new();
        game.outcomes(state, &mut outcomes);
        buf.clear();
        buf.extend(outcomes.into_iter().map(|(o, _)| o));
    } else {
        game.moves(state, buf);
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

/// Plays `line` to its end, `seats[0]` moving for MAX and `seats[1]` for MIN, the dice of a dice game rolled
/// from `dice`, showing `decision` each position where a seat is to move: the end, and the rolls of the dice
/// made (which are no moves).
///
/// # Errors
///
/// A seat cannot choose ([`Seat::choose`]).
pub fn play_out<G: Game, S: Game<State = G::State, Move = G::Move> + Sync, E: Evaluator<S>>(
    game: &G,
    line: &mut Line<G>,
    seats: &mut [Seat<'_, S, E>; 2],
    dice: &mut Pcg,
    mut decision: impl FnMut(&G::State),
) -> Result<(End, u64)> {
    let mut rolls = 0;
    loop {
        let (mover, rolled) = roll_to_decision(game, line, dice);
        rolls += rolled;
        let Some(mover) = mover else { return Ok((line.end(game).expect("a game over"), rolls)) };
        decision(line.state());
        let choice = seats[usize::from(mover == Player::Min)].choose(line)?;
        line.play(game, choice.mv);
    }
}

/// A move chosen, with what the player saw.
#[derive(Clone, Debug)]
pub struct ChosenMove<M> {
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
    /// Monte Carlo's (or a network-guided search's) mean score of the move for the mover (win 1, draw ½, loss 0)
    /// and its visits, of the iterations run.
    Mcts(f64, u64, u64),
    /// The exact tables' value of the position for the mover, which the move keeps.
    Tables(Verdict),
    /// Nothing (a random move).
    Nothing,
}

/// The best move of a position by exact tables and the value it keeps, where the tables hold the position.
pub type TableMove<'a, G> = &'a (dyn Fn(&<G as Game>::State) -> Result<Option<(<G as Game>::Move, Verdict)>> + Sync);

/// What a seat plays with.
enum Brain<'a, G: Game, E> {
    Engine(Engine<'a, G, E>),
    Mcts(u64),
    Net(&'a dyn Guide<G::State, G::Move>, Guided),
    Random,
    Perfect,
}

/// A contender seated at one game: what it keeps from move to move (the engine and its table).
pub struct Seat<'a, G: Game, E> {
    game: &'a G,
    brain: Brain<'a, G, E>,
    tables: Option<TableMove<'a, G>>,
    rng: Pcg,
    seed: u64,
    limit: Limit,
}

impl<'a, G: Game + Sync, E: Evaluator<G>> Seat<'a, G, E> {
    /// `contender` seated at `game`, with the game's evaluator (the engine needs one), a table of `table_mib`
    /// MiB for the engine, the network a `net:PATH` contender names, loaded (`Entry::guide`), and `seed` for
    /// its random choices.
    pub fn new(
        game: &'a G,
        evaluator: Option<&'a E>,
        contender: &Contender,
        guide: Option<&'a dyn Guide<G::State, G::Move>>,
        table_mib: usize,
        seed: u64,
    ) -> Result<Self> {
        let brain = match *contender {
            Contender::Engine(depth) => {
                let evaluator = evaluator.ok_or_else(|| {
                    anyhow!("{contender} needs an evaluator, which this game has not: play it with mcts:N or random")
                })?;
                let config = SearchConfig { table_mib: Some(table_mib), ..SearchConfig::depth_limited(depth) };
                Brain::Engine(Engine::new(game, evaluator, config))
            }
            Contender::Mcts(iterations) => Brain::Mcts(iterations),
            Contender::Net(_, simulations) => {
                let guide = guide.ok_or_else(|| anyhow!("{contender}: its network is not loaded"))?;
                Brain::Net(guide, Guided { simulations, ..Guided::default() })
            }
            Contender::Random => Brain::Random,
            Contender::Perfect => Brain::Perfect,
        };
        Ok(Seat { game, brain, tables: None, rng: Pcg::from_seed(seed), seed, limit: Limit::NONE })
    }

    /// The same seat whose Monte Carlo and network searches stop when `limit` is reached (a deadline, a front
    /// end's Ctrl-C), answering with the iterations they ran; the engine's search runs to its end.
    pub fn within(mut self, limit: Limit) -> Self {
        if let Brain::Net(_, guided) = &mut self.brain {
            guided.until = limit.until;
            guided.stop = limit.stop.clone();
        }
        Seat { limit, ..self }
    }

    /// The same seat playing the tables' move wherever the tables hold the position (`game` should then stop
    /// its searches at those positions: [`khela_games::settled::Settled`]); a `perfect` seat's tables must hold
    /// every position it meets.
    pub fn with_tables(self, tables: TableMove<'a, G>) -> Self {
        Seat { tables: Some(tables), ..self }
    }

    /// The move to play at the end of `line` (a decision node with moves), a line of the game itself or of the
    /// game the seat searches (which share positions and moves).
    ///
    /// # Errors
    ///
    /// The tables cannot be read, or a `perfect` seat's tables do not hold the position.
    pub fn choose<L: Game<State = G::State, Move = G::Move>>(&mut self, line: &Line<L>) -> Result<ChosenMove<G::Move>> {
        let state = line.state();
        if let Some(tables) = self.tables
            && let Some((mv, verdict)) = tables(state)?
        {
            return Ok(ChosenMove { mv, seen: Seen::Tables(verdict) });
        }
        // Each move's search has its own seed.
        let seed = self.seed.wrapping_add(line.moves().len() as u64);
        match &mut self.brain {
            Brain::Engine(engine) => {
                engine.set_history(line.history().to_vec());
                let analysis = engine.search(state);
                let mv = analysis.best.expect("a decision node has a best move");
                Ok(ChosenMove { mv, seen: Seen::Engine(analysis.value, analysis.pv) })
            }
            Brain::Mcts(iterations) => {
                let config = MctsConfig { seed, ..MctsConfig::default() };
                let mut search: Search<'_, G, Uct, Pcg> =
                    Search::new(self.game, state.clone(), Uct::default(), config).with_history(line.history().to_vec());
                run_within(&mut search, *iterations, &self.limit);
                let mv = search.best().expect("a decision node has an expanded move");
                Ok(searched(mv, &search.stats(), *iterations))
            }
            Brain::Net(guide, guided) => {
                let outcome = guide.search(state, line.history(), guided, seed);
                let mv = outcome.best.expect("a decision node has moves");
                Ok(searched(mv, &outcome.stats, u64::from(guided.simulations)))
            }
            Brain::Random => {
                let mut moves = Vec::new();
                self.game.moves(state, &mut moves);
                Ok(ChosenMove { mv: moves[self.rng.below(moves.len())], seen: Seen::Nothing })
            }
            Brain::Perfect if self.tables.is_none() => {
                bail!("perfect play needs exact tables: --tables DIR (retro writes them)")
            }
            Brain::Perfect => bail!("perfect play: the tables do not hold this position"),
        }
    }
}

/// A searched move's choice: its mean for the mover (½ unvisited) and visits, of `iterations`.
fn searched<M: Copy + PartialEq>(mv: M, stats: &[MoveStats<M>], iterations: u64) -> ChosenMove<M> {
    let chosen = stats.iter().find(|s| s.mv == mv).expect("the move chosen has statistics");
    let mean = if chosen.visits == 0 { 0.5 } else { chosen.wins / chosen.visits as f64 };
    ChosenMove { mv, seen: Seen::Mcts(mean, chosen.visits, iterations) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contenders_by_name() {
        assert_eq!("engine:4".parse::<Contender>().unwrap(), Contender::Engine(4));
        assert_eq!("mcts:2000".parse::<Contender>().unwrap(), Contender::Mcts(2000));
        assert_eq!("random".parse::<Contender>().unwrap(), Contender::Random);
        assert_eq!("perfect".parse::<Contender>().unwrap(), Contender::Perfect);
        assert_eq!(Contender::Perfect.to_string(), "perfect");
        for (text, message) in [
            ("engine", "engine:N takes N from 1 to 12"),
            ("engine:13", "from 1 to 12"),
            ("mcts:0", "from 1 to 10000000"),
            ("random:3", NAMES),
            ("perfect:2", NAMES),
            ("alphazero", NAMES),
            ("net:", "net:PATH names the network's file"),
            ("net:a.safetensors:0", "from 1 to 100000"),
        ] {
            let err = text.parse::<Contender>().unwrap_err().to_string();
            assert!(err.contains(message), "{text}: {err}");
        }
        assert_eq!(Contender::Mcts(500).to_string(), "mcts:500");
        let net = |path: &str, n| Contender::Net(path.into(), n);
        assert_eq!("net:a.safetensors".parse::<Contender>().unwrap(), net("a.safetensors", NET_SIMULATIONS));
        assert_eq!("net:dir/a.safetensors:50".parse::<Contender>().unwrap(), net("dir/a.safetensors", 50));
        assert_eq!("net:C:/a:b".parse::<Contender>().unwrap(), net("C:/a:b", NET_SIMULATIONS));
        assert_eq!(net("a.safetensors", 50).to_string(), "net:a.safetensors:50");
    }
}
