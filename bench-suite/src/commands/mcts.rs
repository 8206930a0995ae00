//! `mcts`: Monte Carlo tree search from a tic-tac-toe or Connect-4 position — flat Monte Carlo, UCT or PUCT (a
//! uniform prior or a softmax over the game's evaluator), optionally with the solver, on one thread or several
//! (root or tree parallelism) — printing each move's visits and mean and the move chosen.

use crate::cli::MctsArgs;
use crate::output::{self, Sink};
use anyhow::{Context, Result, bail};
use clap::ValueEnum;
use khela_games::connect4::Connect4;
use khela_games::tictactoe::TicTacToe;
use khela_games::{Game, Node};
use khela_heuristic::Evaluator;
use khela_heuristic::connect4::Threats;
use khela_heuristic::tictactoe::OpenLines;
use khela_mcts::random::{Pcg, Python, Random};
use khela_mcts::{
    Choice, Config, EvaluatorPrior, Flat, MoveStats, Policy, Puct, Search, Summary, Uct, Uniform, choose,
};
use serde::Serialize;
use std::time::Instant;

/// The most iterations (for flat Monte Carlo, playouts in all) a run may ask for: about two minutes of
/// Connect-4 on one core.
pub const MAX_ITERATIONS: u64 = 100_000_000;

/// The node budget of each tree: past it a tree stops growing (iterations go on, playing out from where growth
/// stopped), which bounds memory to about a gigabyte whatever the iterations.
const MAX_NODES: usize = 1 << 22;

/// Games `mcts` knows.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum MctsGame {
    /// Tic-tac-toe: moves are cells 0–8.
    Tictactoe,
    /// Connect-4 (7×6): moves are columns 1–7, as in the position notation.
    Connect4,
}

/// The searches.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum MctsAlgorithm {
    /// Flat Monte Carlo: --iterations playouts after each move, the best mean chosen.
    Flat,
    /// UCT: UCB1 selection (c = √2), the most visited move chosen.
    Uct,
    /// PUCT (AlphaZero's rule) with the prior of --prior, the most visited move chosen.
    Puct,
}

/// PUCT's priors.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum MctsPrior {
    /// Every move equally likely.
    Uniform,
    /// A softmax over the game's evaluator's estimates of the children (tic-tac-toe: open lines, a difference
    /// of 2 weighing e times more; Connect-4: threats, a difference of 3).
    Evaluator,
}

/// The softmax unit of the tic-tac-toe prior: two open lines, the difference between the center (4) and an
/// edge (2) on the empty board, so the center starts e times as likely as an edge and e^½ as a corner.
pub const TICTACTOE_UNIT: f64 = 2.0;

/// The softmax unit of the Connect-4 prior: a two-stone window (3), a little under the difference between the
/// center column (7) and the edges (3) on the empty board, which gives the center 3.8 times an edge's prior;
/// an immediate win (estimated beyond the bound) takes almost all of it.
pub const CONNECT4_UNIT: f64 = 3.0;

/// The evaluator prior whose softmax weighs a difference of `unit` on `evaluator`'s scale e times more:
/// temperature `unit / bound`, [`EvaluatorPrior`] dividing estimates by the bound.
fn evaluator_prior<G: Game, E: Evaluator<G>>(evaluator: E, unit: f64) -> EvaluatorPrior<E> {
    let temperature = unit / evaluator.bound();
    EvaluatorPrior { evaluator, temperature }
}

/// How threads share the work.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Parallelism {
    /// One independent tree per thread (seeds S, S+1, …), iterations shared out, counts summed: the same
    /// output for the same --threads, every time.
    Root,
    /// One tree shared by the threads, with virtual loss: with more than one thread the output varies.
    Tree,
}

#[derive(Serialize)]
struct Row {
    #[serde(rename = "move")]
    mv: String,
    visits: u64,
    mean: String,
}

/// What a search found, whatever the game and policy.
struct Found {
    stats: Vec<MoveStats<String>>,
    best: Option<String>,
    summary: Summary,
    seconds: f64,
}

pub fn run(args: &MctsArgs) -> Result<()> {
    if let (Some(prior), MctsAlgorithm::Flat | MctsAlgorithm::Uct) = (args.prior, args.algorithm) {
        bail!("--prior {} is for --algorithm puct, not {}", name(prior), name(args.algorithm));
    }
    let text = args.position.as_deref().unwrap_or("");
    match args.game {
        MctsGame::Tictactoe => {
            let text = if text.is_empty() { "........." } else { text };
            let board = TicTacToe::parse(text)?;
            let prior = evaluator_prior(OpenLines, TICTACTOE_UNIT);
            report(args, &TicTacToe, board, prior, |mv| mv.to_string(), || board.to_string())
        }
        MctsGame::Connect4 => {
            let game = Connect4::standard();
            let position = game.parse(text)?;
            let prior = evaluator_prior(Threats::new(&game), CONNECT4_UNIT);
            report(args, &game, position, prior, |mv| (mv + 1).to_string(), || game.board_string(&position))
        }
    }
}

/// Searches `state` and reports; `prior` is the evaluator prior of `--prior evaluator`.
fn report<G, E>(
    args: &MctsArgs,
    game: &G,
    state: G::State,
    prior: EvaluatorPrior<E>,
    label: fn(G::Move) -> String,
    picture: impl FnOnce() -> String,
) -> Result<()>
where
    G: Game + Sync,
    G::State: Send + Sync,
    G::Move: Send + Sync,
    E: Evaluator<G> + Clone + Send + Sync,
{
    let Node::Decision(_) = game.node(&state) else {
        bail!("position {:?} is already over; nothing to search", args.position.as_deref().unwrap_or(""));
    };
    let mut moves = Vec::new();
    game.moves(&state, &mut moves);
    let iterations = match args.algorithm {
        MctsAlgorithm::Flat => args.iterations * moves.len() as u64,
        _ => args.iterations,
    };
    if iterations > MAX_ITERATIONS {
        bail!(
            "--iterations {} is {} playouts in all; the limit is {}",
            args.iterations,
            output::thousands(iterations),
            output::thousands(MAX_ITERATIONS)
        );
    }
    let config = Config {
        seed: args.seed,
        solver: args.solver,
        max_nodes: MAX_NODES,
        choice: if let MctsAlgorithm::Flat = args.algorithm { Choice::BestMean } else { Choice::MostVisits },
        ..Config::default()
    };
    let per_move = u32::try_from(args.iterations).context("--iterations for flat Monte Carlo")?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(args.threads as usize).build()?;
    let run = Run { args, iterations, game, config, label };
    let found = pool.install(|| match (args.algorithm, args.prior.unwrap_or(MctsPrior::Uniform)) {
        (MctsAlgorithm::Flat, _) => run.search(state, Flat { per_move }),
        (MctsAlgorithm::Uct, _) => run.search(state, Uct::default()),
        (MctsAlgorithm::Puct, MctsPrior::Uniform) => run.search(state, Puct::new(Uniform)),
        (MctsAlgorithm::Puct, MctsPrior::Evaluator) => run.search(state, Puct::new(prior)),
    });
    let rows: Vec<Row> = found
        .stats
        .iter()
        .map(|s| Row { mv: s.mv.clone(), visits: s.visits, mean: format!("{:.3}", s.mean()) })
        .collect();
    Sink::new(&args.out, None).emit(&rows, || {
        let mut table = output::table(&["move", "visits", "mean (mover's score)", "proved"]);
        for (row, s) in rows.iter().zip(&found.stats) {
            let proof = s.proof.map_or(String::new(), |p| format!("{p:?}").to_lowercase());
            table.add_row(vec![row.mv.clone(), row.visits.to_string(), row.mean.clone(), proof]);
        }
        let Summary { iterations, nodes, refused } = found.summary;
        let budget = if refused > 0 {
            format!("; the node budget ({}) stopped growth {} times", output::thousands(MAX_NODES as u64), refused)
        } else {
            String::new()
        };
        format!(
            "{}\n{} on {} thread(s), {} parallelism, seed {}, rng {}: {} iterations, {} nodes{budget}\n\
             {:.3} s, {:.0} playouts per second\n{table}\nchosen move: {}",
            picture(),
            match (args.algorithm, args.prior) {
                (MctsAlgorithm::Puct, Some(prior)) => format!("puct ({} prior)", name(prior)),
                (algorithm, _) => name(algorithm),
            },
            args.threads,
            name(args.parallel),
            args.seed,
            name(args.rng),
            output::thousands(iterations),
            output::thousands(nodes as u64),
            found.seconds,
            iterations as f64 / found.seconds,
            found.best.as_deref().unwrap_or("none"),
        )
    })
}

/// An option's value as it is spelled on the command line.
fn name(value: impl ValueEnum) -> String {
    value.to_possible_value().map_or_else(String::new, |v| v.get_name().to_string())
}

/// What a search needs but its policy and position.
struct Run<'a, G: Game> {
    args: &'a MctsArgs,
    iterations: u64,
    game: &'a G,
    config: Config,
    label: fn(G::Move) -> String,
}

impl<G> Run<'_, G>
where
    G: Game + Sync,
    G::State: Send + Sync,
    G::Move: Send + Sync,
{
    /// Searches `state` with `policy` and the generator of `--rng`.
    fn search<P: Policy<G> + Clone + Send + Sync>(&self, state: G::State, policy: P) -> Found {
        match self.args.rng {
            Rng::Pcg => self.search_with::<P, Pcg>(state, policy),
            Rng::Python => self.search_with::<P, Python>(state, policy),
        }
    }

    fn search_with<P, R>(&self, state: G::State, policy: P) -> Found
    where
        P: Policy<G> + Clone + Send + Sync,
        R: Random + Send,
    {
        let Run { args, iterations, game, config, label } = *self;
        let threads = args.threads as usize;
        let start = Instant::now();
        let (stats, summary, mut rng) = match args.parallel {
            Parallelism::Root => {
                let (stats, summary) =
                    khela_mcts::root_parallel::<G, P, R>(game, &state, &policy, &config, threads, iterations);
                (stats, summary, R::from_seed(config.seed))
            }
            Parallelism::Tree => {
                let mut search: Search<'_, G, P, R> = Search::new(game, state, policy, config);
                let summary = search.run_parallel(iterations, threads);
                (search.stats(), summary, R::from_seed(config.seed))
            }
        };
        let seconds = start.elapsed().as_secs_f64();
        let best = choose(&stats, config.choice, &mut rng).map(label);
        let stats = stats
            .into_iter()
            .map(|s| MoveStats { mv: label(s.mv), visits: s.visits, wins: s.wins, proof: s.proof })
            .collect();
        Found { stats, best, summary, seconds }
    }
}

/// Random number generators.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Rng {
    /// PCG (Pcg64Mcg).
    Pcg,
    /// CPython's random.Random(seed): index draws are randbelow(n).
    Python,
}
