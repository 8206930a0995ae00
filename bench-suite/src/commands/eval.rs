//! `eval`: the evaluator's estimate of a position and its terms.

use crate::games::{self, Capability, Entry, GameArgs, Visit};
use crate::output::{self, OutArg, Sink};
use anyhow::{Result, bail};
use clap::Args;
use khela_games::{Evaluator, Game, Node};
use serde::Serialize;

/// Options of `eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub game: GameArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub out: OutArg,
}

#[derive(Serialize)]
struct TermRow {
    term: String,
    value: String,
}

/// Runs `eval`.
pub fn run(args: &EvalArgs) -> Result<()> {
    games::visit(&args.game, Eval(args))?
}

/// `eval` on the game of the arguments: the terms and the estimate (their sum), or for a finished game its
/// terminal value on the evaluator's scale.
struct Eval<'a>(&'a EvalArgs);

impl Visit for Eval<'_> {
    type Output = Result<()>;

    fn visit<E: Entry>(self, entry: E) -> Result<()> {
        let args = self.0;
        let Some(scale) = entry.scale() else {
            return Err(games::refuse("eval", &args.game.game, Capability::Evaluator));
        };
        let (_, state) = games::position(&entry, &args.game, None)?;
        let (game, evaluator) = (entry.game(), &scale.evaluator);
        let row = |term: &str, value| TermRow { term: term.into(), value: output::value(value) };
        let rows: Vec<TermRow> = match game.node(&state) {
            Node::Terminal(payoff) => vec![row("terminal", evaluator.terminal(payoff))],
            Node::Chance => bail!("the position is a chance node; the evaluator values decision nodes"),
            Node::Decision(_) => {
                let terms = evaluator.terms(game, &state);
                terms
                    .iter()
                    .map(|&(term, value)| row(term, value))
                    .chain([row("total", evaluator.evaluate(game, &state))])
                    .collect()
            }
        };
        Sink::new(&args.out, None)?.emit(&rows, || {
            let mut table = output::table(&["term", "value"]);
            for row in &rows {
                table.add_row(vec![row.term.clone(), row.value.clone()]);
            }
            format!("{}; estimates lie within ±{}\n{table}", scale.about, output::value(evaluator.bound()))
        })
    }
}
