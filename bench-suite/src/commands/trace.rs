//! `trace`: the textbook's trace of backing-up, and the leaves alpha-beta prunes.

use crate::names::{among, named};
use crate::output::{self, OutArg, Sink};
use anyhow::Result;
use clap::Args;
use khela_exact::tree_trace::{self, TreeStep};
use khela_exact::{Algorithm, Bound};
use khela_games::Player;
use khela_games::tree::Tree;
use serde::Serialize;

/// The searches `trace` follows: those that visit a tree node by node in the textbook's way.
const ALGORITHMS: &[Algorithm] =
    &[Algorithm::Minimax, Algorithm::AlphaBeta, Algorithm::Negamax, Algorithm::NegamaxAlphaBeta];

/// Options of `trace`.
#[derive(Debug, Args)]
pub struct TraceArgs {
    /// The tree in nested-list notation, like `[[5,8,6],[3,9,7],[10,4,2]]`; chance nodes as `{0.5:8,0.5:-1}`.
    #[arg(long)]
    pub tree: String,
    /// The side to move at the root.
    #[arg(long, value_parser = named::<Player>(), default_value = "max")]
    pub root: Player,
    /// The search to trace.
    #[arg(long, value_parser = among(ALGORITHMS), default_value = "alphabeta")]
    pub algorithm: Algorithm,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub out: OutArg,
}

/// One event of the trace: a CSV row, and the line the table prints for it.
#[derive(Serialize)]
struct Row {
    event: &'static str,
    node: String,
    value: String,
    bound: &'static str,
    pruned_leaves: String,
    #[serde(skip)]
    line: String,
}

/// Runs `trace`.
pub fn run(args: &TraceArgs) -> Result<()> {
    let tree = Tree::parse(&args.tree, args.root)?;
    let algorithm = args.algorithm;
    let traced = tree_trace::trace(&tree, algorithm);
    let rows: Vec<Row> = traced
        .steps
        .iter()
        .map(|step| match step {
            TreeStep::Backed { node, value, bound } => {
                let relation = match bound {
                    Bound::Lower => "≥",
                    Bound::Upper => "≤",
                    Bound::Exact => "=",
                };
                let value = output::value(*value);
                Row {
                    line: format!("  {node} {relation} {value}"),
                    event: "backed",
                    node: node.clone(),
                    value,
                    bound: (*bound).into(),
                    pruned_leaves: String::new(),
                }
            }
            TreeStep::Pruned { nodes, leaves } => {
                let (node, leaves) = (nodes.join(" "), leaves.iter().map(i64::to_string).collect::<Vec<_>>());
                Row {
                    line: format!("  pruned {node} (leaves {})", leaves.join(" ")),
                    event: "pruned",
                    node,
                    value: String::new(),
                    bound: "",
                    pruned_leaves: leaves.join(" "),
                }
            }
        })
        .collect();
    Sink::new(&args.out, None)?.emit(&rows, || {
        let root = format!("{:?}", args.root);
        let mut lines = vec![format!("{algorithm} on {tree} with {root} at the root")];
        lines.extend(rows.iter().map(|row| row.line.clone()));
        let best = traced.best.as_deref().unwrap_or("none");
        lines.push(format!("value {}, best move {best}", output::value(traced.value)));
        lines.push(format!("nodes visited {} of {}, leaves visited {}", traced.nodes, tree.len(), traced.leaves));
        let pruned: Vec<String> = traced.pruned_leaves.iter().map(i64::to_string).collect();
        lines
            .push(format!("pruned leaves: {}", if pruned.is_empty() { "none".to_string() } else { pruned.join(", ") }));
        lines.join("\n")
    })
}
