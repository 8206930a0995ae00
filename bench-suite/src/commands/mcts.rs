//! `mcts`: Monte Carlo tree search from a position — flat Monte Carlo, UCT or PUCT (a uniform prior, a softmax
//! over the game's evaluator, or a trained network's priors and values), optionally with the solver, on one
//! thread or several (root or tree parallelism) — printing each move's visits and mean and the move chosen. The
//! search is the library's, chosen by name (`khela_mcts::plan`); with a network, the network-guided search of
//! `khela_zero::player`, which runs the same loop.

use crate::args;
use crate::games::{self, Capability, Entry, GameArgs, Visit};
use crate::interrupt;
use crate::names::named;
use crate::output::{self, OutArg, Sink};
use crate::progress::Progress;
use anyhow::{Result, bail};
use clap::Args;
use indicatif::HumanCount;
use khela::known::Known;
use khela::players::MAX_SIMULATIONS;
use khela_games::rng::Rng;
use khela_games::settled::{Settle, Settled, Through};
use khela_games::{Evaluator, Game, Notation};
use khela_mcts::{
    EvaluatorPrior, MctsConfig, MctsPlan, Meter, Parallelism, PlanError, PolicyKind, PriorKind, RunSummary, plan,
};
use khela_zero::player::Guided;
use serde::Serialize;
use std::path::PathBuf;
use strum::VariantArray;

use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The most iterations (for flat Monte Carlo, playouts in all) a run may ask for: about two minutes of
/// Connect-4 on one core.
pub const MAX_ITERATIONS: u64 = 100_000_000;

/// The node budget of each tree: past it a tree stops growing (iterations go on, playing out from where growth
/// stopped), which bounds memory to about a gigabyte whatever the iterations.
const MAX_NODES: usize = 1 << 22;

/// Options of `mcts`.
#[derive(Debug, Args)]
pub struct MctsArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub game: GameArgs,
    /// The search [default: uct, or puct when --prior is given].
    #[arg(long, value_parser = named::<PolicyKind>())]
    pub algorithm: Option<PolicyKind>,
    /// PUCT's priors: uniform (every move equally likely), evaluator (a softmax over the game's evaluator's
    /// estimates of the children) or net:PATH (a network trained by `zero train`: its priors, and its value
    /// instead of playouts at the leaves, valued 8 at a time; --iterations are its simulations) [default:
    /// uniform].
    #[arg(long, value_parser = prior)]
    pub prior: Option<PriorArg>,
    /// Iterations; for flat Monte Carlo, playouts after each move.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=MAX_ITERATIONS))]
    pub iterations: u64,
    /// The seed of every random choice.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Threads (rayon).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub threads: u64,
    /// How threads share the work.
    #[arg(long, value_parser = named::<Parallelism>(), default_value = "root")]
    pub parallel: Parallelism,
    /// The random number generator (python: CPython's random.Random(seed), index draws randbelow(n)).
    #[arg(long, value_parser = named::<Rng>(), default_value = "pcg")]
    pub rng: Rng,
    /// MCTS-Solver: prove wins and losses and play a proven win at once.
    #[arg(long)]
    pub solver: bool,
    /// Stop at every position the endgame tables in DIR hold (`retro --out DIR`: Bagh-Chal's sliding phase,
    /// Sixteen Soldiers' few pieces), with
    /// its exact value.
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub out: OutArg,
}

/// PUCT's priors, as `--prior` names them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PriorArg {
    /// One of the library's.
    Kind(PriorKind),
    /// The network saved at this path.
    Net(PathBuf),
}

/// `--prior`'s value: a library's prior by name, or `net:PATH`.
fn prior(text: &str) -> Result<PriorArg, String> {
    match text.strip_prefix("net:") {
        Some("") => Err("net:PATH names the network's file".to_string()),
        Some(path) => Ok(PriorArg::Net(path.into())),
        None => text.parse().map(PriorArg::Kind).map_err(|_| {
            let names: Vec<&str> = PriorKind::VARIANTS.iter().map(|&k| k.into()).collect();
            format!("{}, or net:PATH", names.join(", "))
        }),
    }
}

#[derive(Serialize)]
struct Row {
    #[serde(rename = "move")]
    mv: String,
    visits: u64,
    mean: String,
}

/// Runs `mcts`.
pub fn run(args: &MctsArgs) -> Result<()> {
    let policy = args.algorithm.unwrap_or(if args.prior.is_some() { PolicyKind::Puct } else { PolicyKind::Uct });
    let plan = MctsPlan {
        policy,
        prior: match &args.prior {
            Some(PriorArg::Kind(kind)) => Some(*kind),
            Some(PriorArg::Net(_)) | None => None,
        },
        rng: args.rng,
        parallelism: args.parallel,
        threads: args.threads as usize,
        iterations: args.iterations,
    };
    match plan.check() {
        Err(PlanError::PriorWithoutPuct { prior, policy }) => {
            bail!("--prior {prior} is for --algorithm puct, not {policy}")
        }
        checked => checked?,
    }
    if let Some(PriorArg::Net(path)) = &args.prior {
        if policy != PolicyKind::Puct {
            bail!("--prior net:{} is for --algorithm puct, not {policy}", path.display());
        }
        let given = [
            ("--solver", args.solver),
            ("--tables", args.tables.is_some()),
            ("--threads", args.threads > 1),
            ("--parallel tree", args.parallel == Parallelism::Tree),
            ("--rng python", args.rng == Rng::Python),
        ];
        if let Some((flag, _)) = given.iter().find(|(_, given)| *given) {
            bail!(
                "--prior net:{} takes no {flag}: the network's search is one tree, its leaves valued in batches \
                 (the network's products use every core)",
                path.display()
            );
        }
        if args.iterations > MAX_SIMULATIONS {
            bail!("--iterations {} with --prior net: the limit is {MAX_SIMULATIONS} simulations", args.iterations);
        }
    }
    games::visit(&args.game, Mcts { args, plan })?
}

/// `mcts` on the game of the arguments.
struct Mcts<'a> {
    args: &'a MctsArgs,
    plan: MctsPlan,
}

impl Visit for Mcts<'_> {
    type Output = Result<()>;

    fn visit<E: Entry>(self, entry: E) -> Result<()> {
        let Mcts { args, plan } = self;
        let (_, state) = games::position(&entry, &args.game, Some("search"))?;
        if entry.game().node(&state) == khela_games::Node::Chance {
            bail!("the position is a chance node (the dice about to be rolled): mcts chooses a move; give the roll");
        }
        let game = entry.game();
        let known = args
            .tables
            .as_deref()
            .map(|dir| Known::load(&entry, args.game.game.name.into(), dir, "mcts"))
            .transpose()?;
        if let Some((mv, outcome)) = known.as_ref().and_then(|k| k.best(&state)) {
            bail!(
                "every move of the position leads into the tables (its best, {}, keeps {outcome} for the side to \
                 move): solve --tables gives every move's exact value",
                game.write_move(mv)
            );
        }
        // The search stops at every position the tables hold, with its exact value.
        let settled = Settled::new(game, known.as_ref().map(|k| k as &dyn Settle<E::Game>));
        let scale = entry.scale();
        let prior = match (&args.prior, scale.as_ref()) {
            (Some(PriorArg::Kind(PriorKind::Evaluator)), None) => {
                return Err(games::refuse("mcts --prior evaluator", &args.game.game, Capability::Evaluator));
            }
            (_, scale) => scale.map(|scale| {
                // A difference of the unit on the evaluator's scale weighs e times more: the softmax's temperature
                // is the unit over the bound, as the prior divides estimates by the bound.
                let temperature = scale.prior_unit / scale.evaluator.bound();
                EvaluatorPrior { evaluator: Through(&scale.evaluator), temperature }
            }),
        };
        let mut moves = Vec::new();
        game.moves(&state, &mut moves);
        let iterations = plan.total_iterations(moves.len());
        if iterations > MAX_ITERATIONS {
            bail!(
                "--iterations {} is {} playouts in all; the limit is {}",
                args.iterations,
                HumanCount(iterations),
                HumanCount(MAX_ITERATIONS)
            );
        }
        let config = MctsConfig {
            seed: args.seed,
            solver: args.solver,
            max_nodes: MAX_NODES,
            choice: plan.policy.choice(),
            ..MctsConfig::default()
        };
        let sink = Sink::new(&args.out, None)?;
        let start = Instant::now();
        let outcome = match &args.prior {
            Some(PriorArg::Net(path)) => {
                let guide = khela::net::guide(&entry, args.game.game.name.into(), path, "mcts --prior net:PATH")?;
                // At most MAX_SIMULATIONS, checked in `run`.
                let guided = Guided { simulations: args.iterations as u32, ..Guided::default() };
                guide.search(&state, &[], &guided, args.seed)
            }
            _ => {
                let pool = args::pool(plan.threads)?;
                watched(iterations, |meter| {
                    pool.install(|| plan::run_metered(&settled, state.clone(), &plan, config, prior, meter))
                })??
            }
        };
        let seconds = start.elapsed().as_secs_f64();
        // A move the search never went through (flat Monte Carlo stopped by a proof) has no mean.
        let rows: Vec<Row> = outcome
            .stats
            .iter()
            .map(|s| Row {
                mv: game.write_move(s.mv),
                visits: s.visits,
                mean: if s.visits > 0 { format!("{:.3}", s.mean()) } else { String::new() },
            })
            .collect();
        sink.emit(&rows, || {
            let mut table = output::table(&["move", "visits", "mean (mover's score)", "proved"]);
            for (row, s) in rows.iter().zip(&outcome.stats) {
                let proof = s.proof.map_or(String::new(), |p| p.to_string());
                let mean = if row.mean.is_empty() { "-".to_string() } else { row.mean.clone() };
                table.add_row(vec![row.mv.clone(), HumanCount(row.visits).to_string(), mean, proof]);
            }
            let RunSummary { iterations, nodes, refused } = outcome.summary;
            let budget = if refused > 0 {
                format!(
                    "; the node budget ({}) stopped growth {} times",
                    HumanCount(MAX_NODES as u64),
                    HumanCount(refused)
                )
            } else {
                String::new()
            };
            format!(
                "{}\n{} on {} thread(s), {} parallelism, seed {}, rng {}: {} iterations, {} nodes{budget}\n\
                 {:.3} s, {} {} per second\n{table}\nchosen move: {}",
                game.picture(&state),
                match (plan.policy, plan.prior, &args.prior) {
                    (_, _, Some(PriorArg::Net(path))) => format!("puct (the network {} as prior)", path.display()),
                    (PolicyKind::Puct, Some(prior), _) => format!("puct ({prior} prior)"),
                    (policy, ..) => policy.to_string(),
                },
                args.threads,
                plan.parallelism,
                args.seed,
                plan.rng,
                HumanCount(iterations),
                HumanCount(nodes as u64),
                seconds,
                HumanCount((iterations as f64 / seconds).round() as u64),
                if matches!(args.prior, Some(PriorArg::Net(_))) { "simulations" } else { "playouts" },
                outcome.best.map_or("none".to_string(), |mv| game.write_move(mv)),
            )
        })
    }
}

/// Runs `search` with a meter of the iterations done, shown as progress on stderr (from a thread of its own,
/// every tenth of a second) until the search returns; a stop asked for ([`interrupt::request`]) stops the meter,
/// and the search is then [`interrupt::Interrupted`].
fn watched<T: Send>(total: u64, search: impl FnOnce(&Meter) -> T + Send) -> Result<T> {
    let meter = Meter::new();
    let bar = Progress::new("mcts", total, 0);
    let (finished, stop) = mpsc::channel::<()>();
    let result = std::thread::scope(|scope| {
        let (meter, bar) = (&meter, &bar);
        scope.spawn(move || {
            // Until the search ends and drops the sender.
            while let Err(RecvTimeoutError::Timeout) = stop.recv_timeout(Duration::from_millis(100)) {
                if interrupt::requested() {
                    meter.stop();
                }
                let done = meter.iterations().min(total);
                bar.update(done, total, || format!("{}/{} iterations", HumanCount(done), HumanCount(total)));
            }
        });
        let result = search(meter);
        drop(finished);
        result
    });
    bar.finish();
    interrupt::check()?;
    Ok(result)
}
