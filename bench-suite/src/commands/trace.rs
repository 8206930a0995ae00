//! `trace`: the textbook's trace of backing-up, and the leaves alpha-beta prunes.

use crate::cli::TraceArgs;
use crate::output::{self, Sink};
use anyhow::Result;
use khela_exact::{Algorithm, Bound, Ordering, Searcher, Trace, TraceEvent};
use khela_games::tree::Tree;
use serde::Serialize;

#[derive(Serialize)]
struct Row {
    event: &'static str,
    node: String,
    value: String,
    bound: &'static str,
    pruned_leaves: String,
}

pub fn run(args: &TraceArgs) -> Result<()> {
    let tree = Tree::parse(&args.tree, args.root.into())?;
    let algorithm = Algorithm::from(args.algorithm);
    let mut searcher = Searcher::new(&tree, Ordering::Natural).with_observer(Trace::default());
    let result = searcher.run(algorithm, &0);
    let mut rows = Vec::new();
    let mut pruned_all = Vec::new();
    for event in &searcher.observer().events {
        rows.push(match event {
            TraceEvent::Backed { state, value, bound } => Row {
                event: "backed",
                node: tree.name(*state),
                value: output::value(*value),
                bound: match bound {
                    Bound::Exact => "exact",
                    Bound::Lower => "lower",
                    Bound::Upper => "upper",
                },
                pruned_leaves: String::new(),
            },
            TraceEvent::Pruned { state, moves } => {
                let names: Vec<String> = moves.iter().map(|&m| tree.name(tree.child_of(*state, m))).collect();
                let leaves: Vec<i64> =
                    moves.iter().flat_map(|&m| tree.leaves_under(tree.child_of(*state, m))).collect();
                pruned_all.extend(&leaves);
                Row {
                    event: "pruned",
                    node: names.join(" "),
                    value: String::new(),
                    bound: "",
                    pruned_leaves: leaves.iter().map(i64::to_string).collect::<Vec<_>>().join(" "),
                }
            }
        });
    }
    Sink::new(&args.out, None).emit(&rows, || {
        let mut lines = vec![format!("{} on {} with {:?} at the root", algorithm.name(), tree, args.root)];
        for row in &rows {
            lines.push(match row.event {
                "pruned" => format!("  pruned {} (leaves {})", row.node, row.pruned_leaves),
                _ => {
                    let relation = match row.bound {
                        "lower" => "≥",
                        "upper" => "≤",
                        _ => "=",
                    };
                    format!("  {} {relation} {}", row.node, row.value)
                }
            });
        }
        let best = result.best.map_or("none".to_string(), |m| tree.name(tree.child_of(0, m)));
        lines.push(format!("value {}, best move {best}", output::value(result.value)));
        lines.push(format!(
            "nodes visited {} of {}, leaves visited {}",
            result.stats.nodes,
            tree.len(),
            result.stats.leaves
        ));
        let pruned: Vec<String> = pruned_all.iter().map(i64::to_string).collect();
        lines
            .push(format!("pruned leaves: {}", if pruned.is_empty() { "none".to_string() } else { pruned.join(", ") }));
        lines.join("\n")
    })
}
