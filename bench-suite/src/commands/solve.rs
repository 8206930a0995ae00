//! `solve`: exact values of every move of a tic-tac-toe or Nim position, and the check against Bouton's rule;
//! with `--depth`, depth-limited values of every move of a tic-tac-toe or Connect-4 position, with the move chosen
//! and the principal variation.

use crate::cli::{SolveArgs, SolveGame};
use crate::output::{self, Sink};
use anyhow::{Result, bail};
use khela_exact::{Algorithm, Memo, Ordering, Searcher, move_values};
use khela_games::connect4::Connect4;
use khela_games::nim::{Heaps, Nim};
use khela_games::tictactoe::{Board, TicTacToe};
use khela_games::{Game, Node, Player, Value};
use khela_heuristic::connect4::Threats;
use khela_heuristic::tictactoe::OpenLines;
use khela_heuristic::{Engine, Evaluator, Options};
use serde::Serialize;

/// The largest Nim search `solve` runs, in sub-positions (the product of heap size + 1).
const NIM_MAX_POSITIONS: u64 = 1 << 26;

/// The most objects `solve` takes in all heaps: the search goes one ply per object taken, and each ply keeps its
/// move list, so time and memory grow with the square of the total.
const NIM_MAX_OBJECTS: u64 = 5_000;

/// The most positions `--check-xor` enumerates.
const CHECK_MAX_POSITIONS: u64 = 1_000_000;

/// The Connect-4 depths `solve` refuses: even a perfectly ordered alpha-beta search to depth d visits at least
/// 7^⌈d/2⌉ + 7^⌊d/2⌋ − 1 leaves (Knuth and Moore) from the empty board; above 10^10 of them (depth 24) it would
/// run for hours.
const CONNECT4_MAX_LEAVES: u64 = 10_000_000_000;

pub fn run(args: &SolveArgs) -> Result<()> {
    if args.quiescence && args.depth.is_none() {
        bail!("--quiescence needs --depth (an exact search has no horizon)");
    }
    if args.game != SolveGame::Nim && (args.heaps.is_some() || args.check_xor) {
        bail!("--heaps and --check-xor are for --game nim; tic-tac-toe and Connect-4 take --position");
    }
    match args.game {
        SolveGame::Tictactoe => match args.depth {
            Some(depth) => {
                let board = TicTacToe::parse(args.position.as_deref().unwrap_or("........."))?;
                let view = ("X's view", |value| value);
                depth_limited(&TicTacToe, &OpenLines, &board, depth, args, |&mv| mv.to_string(), view)
            }
            None => tictactoe(args),
        },
        SolveGame::Connect4 => {
            let Some(depth) = args.depth else {
                bail!(
                    "--game connect4 needs --depth: exact solving of Connect-4 positions is the End-Easy benchmark's job (cargo bench -p khela-exact)"
                );
            };
            if let Some(leaves) = khela_exact::knuth_moore(7, depth).filter(|&l| l > CONNECT4_MAX_LEAVES) {
                bail!(
                    "--depth {depth} on Connect-4: even a perfectly ordered search visits at least {} leaves from the empty board; the limit is {} (depth 23)",
                    output::thousands(leaves),
                    output::thousands(CONNECT4_MAX_LEAVES)
                );
            }
            let game = Connect4::standard();
            let position = game.parse(args.position.as_deref().unwrap_or(""))?;
            let threats = Threats::new(&game);
            // Columns are shown 1-based, as in the notation; values from the side to move's view.
            let mover = position.to_move();
            let view = ("the side to move's view", move |value| mover.view(value));
            depth_limited(&game, &threats, &position, depth, args, |&col| (col + 1).to_string(), view)
        }
        SolveGame::Nim => {
            if args.position.is_some() || args.depth.is_some() {
                bail!("--position and --depth are for tic-tac-toe and Connect-4; Nim takes --heaps (or --check-xor)");
            }
            match (&args.heaps, args.check_xor) {
                (Some(_), true) => bail!("give either --heaps or --check-xor, not both"),
                (Some(heaps), false) => nim(heaps, args),
                (None, true) => check_xor(args),
                (None, false) => bail!("--game nim needs --heaps (like --heaps 3,4,5) or --check-xor"),
            }
        }
    }
}

#[derive(Serialize)]
struct MoveRow {
    #[serde(rename = "move")]
    mv: String,
    value: String,
    best: bool,
}

/// `solve --depth`: every move's depth-limited value (searched to `depth − 1` after it), the move the engine
/// chooses and its principal variation. `name` writes a move as the notation does; `view` names the view the
/// values are shown in and turns a value from MAX's view into it.
fn depth_limited<G: Game, E: Evaluator<G>>(
    game: &G,
    evaluator: &E,
    state: &G::State,
    depth: u32,
    args: &SolveArgs,
    name: impl Fn(&G::Move) -> String,
    (view_name, shown): (&str, impl Fn(Value) -> Value),
) -> Result<()> {
    let Node::Decision(mover) = game.node(state) else {
        bail!("the position {:?} is already over; nothing to solve", args.position.as_deref().unwrap_or(""));
    };
    if depth == 0 {
        bail!("--depth 0 values no move (the depth counts the move itself); give 1 or more");
    }
    // Two engines, so that each search's node count is its own (not helped by the other's table).
    let options = Options { depth, quiescence: args.quiescence, ..Options::default() };
    let analysis = Engine::new(game, evaluator, options).search(state);
    let values = Engine::new(game, evaluator, options).analyse(state);
    let best = values.iter().map(|m| mover.view(m.value)).fold(Value::NEG_INFINITY, Value::max);
    let rows: Vec<MoveRow> = values
        .iter()
        .map(|m| MoveRow { mv: name(&m.mv), value: output::value(shown(m.value)), best: mover.view(m.value) == best })
        .collect();
    Sink::new(&args.out, None).emit(&rows, || {
        let mut table = output::table(&["move", "value", "best", "nodes"]);
        for (row, m) in rows.iter().zip(&values) {
            let mark = if row.best { "best" } else { "" };
            table.add_row(vec![row.mv.clone(), row.value.clone(), mark.into(), output::thousands(m.stats.nodes)]);
        }
        let pv: Vec<String> = analysis.pv.iter().map(&name).collect();
        let analysed: u64 = values.iter().map(|m| m.stats.nodes).sum();
        format!(
            "depth {depth}{}, values from {view_name}: value {}; chosen move {}; principal variation {}\nnodes: {} (iterative deepening), {} (the moves one by one)\n{table}",
            if args.quiescence { " with quiescence" } else { "" },
            output::value(shown(analysis.value)),
            analysis.best.as_ref().map_or("-".into(), &name),
            pv.join(" "),
            output::thousands(analysis.stats.nodes),
            output::thousands(analysed),
        )
    })
}

fn tictactoe(args: &SolveArgs) -> Result<()> {
    let text = args.position.as_deref().unwrap_or(".........");
    let board = TicTacToe::parse(text)?;
    let Node::Decision(mover) = TicTacToe.node(&board) else {
        bail!("tic-tac-toe position {text:?} is already over ({}); nothing to solve", outcome(&board));
    };
    let values = move_values(&TicTacToe, &board, Algorithm::AlphaBeta);
    let best = values.iter().map(|&(_, v)| mover.view(v)).fold(f64::NEG_INFINITY, f64::max);
    let rows: Vec<MoveRow> = values
        .iter()
        .map(|&(mv, v)| MoveRow { mv: mv.to_string(), value: output::value(v), best: mover.view(v) == best })
        .collect();
    Sink::new(&args.out, None).emit(&rows, || {
        let side = if mover == Player::Max { "X" } else { "O" };
        let mut table = output::table(&["move", "value (X's view)", "best"]);
        for row in &rows {
            table.add_row(vec![row.mv.clone(), row.value.clone(), if row.best { "best" } else { "" }.into()]);
        }
        let safe: Vec<String> = rows.iter().filter(|r| r.best).map(|r| r.mv.to_string()).collect();
        format!(
            "{}\n{side} to move; value {} from X's view; best moves for {side}: {}\n{table}",
            grid(&board),
            output::value(mover.view(best)),
            safe.join(", ")
        )
    })
}

fn outcome(board: &Board) -> &'static str {
    match board.winner() {
        Some(Player::Max) => "X has won",
        Some(Player::Min) => "O has won",
        None => "a draw",
    }
}

fn grid(board: &Board) -> String {
    let cells: Vec<char> = board.to_string().chars().collect();
    cells.chunks(3).map(|row| row.iter().map(|c| format!(" {c}")).collect::<String>()).collect::<Vec<_>>().join("\n")
}

#[derive(Serialize)]
struct NimRow {
    heap: usize,
    from: u32,
    to: u32,
    wins: bool,
}

/// Memoized negamax over heap multisets: sound because Nim is impartial.
fn nim_searcher(nim: &Nim) -> Searcher<'_, Nim, Memo<Nim>> {
    Searcher::new(nim, Ordering::Natural).with_cache(Memo::impartial(|_, s| Nim::impartial_key(s)))
}

fn nim(text: &str, args: &SolveArgs) -> Result<()> {
    let heaps = Nim::parse(text)?;
    let objects: u64 = heaps.heaps.iter().map(|&h| u64::from(h)).sum();
    if objects > NIM_MAX_OBJECTS {
        bail!(
            "Nim position {text:?} has {} objects; the exact search goes one ply per object and is limited to {}",
            output::thousands(objects),
            output::thousands(NIM_MAX_OBJECTS)
        );
    }
    let positions = heaps.heaps.iter().try_fold(1u64, |acc, &h| acc.checked_mul(u64::from(h) + 1));
    if positions.is_none_or(|p| p > NIM_MAX_POSITIONS) {
        bail!(
            "Nim position {text:?} has {} sub-positions; the exact search is limited to {}",
            positions.map_or("more than 2^64".into(), output::thousands),
            output::thousands(NIM_MAX_POSITIONS)
        );
    }
    let mut searcher = nim_searcher(&Nim);
    let mut moves = Vec::new();
    Nim.moves(&heaps, &mut moves);
    let rows: Vec<NimRow> = moves
        .iter()
        .map(|&mv| {
            let after = Nim.child(&heaps, mv);
            let wins = heaps.to_move.view(searcher.run(Algorithm::Negamax, &after).value) > 0.0;
            NimRow { heap: mv.heap, from: mv.from, to: mv.to, wins }
        })
        .collect();
    let mover_wins = rows.iter().any(|r| r.wins);
    Sink::new(&args.out, None).emit(&rows, || {
        let winning: Vec<String> =
            rows.iter().filter(|r| r.wins).map(|r| format!("heap {} from {} to {}", r.heap, r.from, r.to)).collect();
        let verdict = if mover_wins {
            format!("the side to move wins: {}", winning.join("; "))
        } else {
            "the side to move loses".to_string()
        };
        let mut table = output::table(&["heap", "from", "to", "wins"]);
        for r in &rows {
            table.add_row(vec![r.heap.to_string(), r.from.to_string(), r.to.to_string(), r.wins.to_string()]);
        }
        format!("Nim {text} (nim-sum {}): {verdict}\n{table}", Nim::nim_sum(&heaps))
    })
}

#[derive(Serialize)]
struct CheckRow {
    heaps: String,
    nim_sum: u32,
    search_wins: bool,
    bouton_wins: bool,
}

fn check_xor(args: &SolveArgs) -> Result<()> {
    let (count, max) = (args.heaps_count, args.max);
    let positions = u64::from(max + 1).checked_pow(count).filter(|&p| p <= CHECK_MAX_POSITIONS);
    let Some(positions) = positions else {
        bail!(
            "--check-xor with {count} heaps of 0..={max} is {}^{count} positions; the check is limited to {}",
            max + 1,
            output::thousands(CHECK_MAX_POSITIONS)
        );
    };
    let mut searcher = nim_searcher(&Nim);
    let mut rows = Vec::new();
    for index in 0..positions {
        let mut rest = index;
        let heaps: Vec<u32> = (0..count)
            .map(|_| {
                let h = (rest % u64::from(max + 1)) as u32;
                rest /= u64::from(max + 1);
                h
            })
            .rev()
            .collect();
        let state = Heaps { heaps, to_move: Player::Max };
        let search_wins = searcher.run(Algorithm::Negamax, &state).value > 0.0;
        let nim_sum = Nim::nim_sum(&state);
        let heaps = state.heaps.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
        rows.push(CheckRow { heaps, nim_sum, search_wins, bouton_wins: nim_sum != 0 });
    }
    let disagreements: Vec<&str> =
        rows.iter().filter(|r| r.search_wins != r.bouton_wins).map(|r| r.heaps.as_str()).collect();
    if !disagreements.is_empty() {
        bail!("the search disagrees with Bouton's rule at {}", disagreements.join("; "));
    }
    let states = searcher.cache().len();
    Sink::new(&args.out, None).emit(&rows, || {
        let mut losing: Vec<Vec<u32>> = rows
            .iter()
            .filter(|r| !r.search_wins)
            .map(|r| r.heaps.split(',').filter_map(|h| h.parse().ok()).collect::<Vec<u32>>())
            .filter(|heaps| heaps.is_sorted())
            .collect();
        losing.sort();
        let losing: Vec<String> = losing
            .iter()
            .map(|heaps| format!("({})", heaps.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")))
            .collect();
        format!(
            "Nim, {count} heaps of 0..={max}: all {positions} positions agree with Bouton's XOR rule.\n\
             Memoized search over sorted heaps stored {states} states.\n\
             Losing positions for the side to move (sorted heaps): {}",
            losing.join(", ")
        )
    })
}
