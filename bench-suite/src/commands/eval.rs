//! `eval`: the evaluator's estimate of a position and its terms.

use crate::cli::{EvalArgs, EvalGame};
use crate::output::{self, Sink};
use anyhow::{Result, bail};
use khela_games::connect4::Connect4;
use khela_games::tictactoe::TicTacToe;
use khela_games::{Game, Node};
use khela_heuristic::Evaluator;
use khela_heuristic::connect4::Threats;
use khela_heuristic::tictactoe::OpenLines;
use serde::Serialize;

#[derive(Serialize)]
struct TermRow {
    term: String,
    value: String,
}

pub fn run(args: &EvalArgs) -> Result<()> {
    match args.game {
        EvalGame::Tictactoe => {
            let board = TicTacToe::parse(args.position.as_deref().unwrap_or("........."))?;
            evaluate(&TicTacToe, &OpenLines, &board, args, "open lines, X's view")
        }
        EvalGame::Connect4 => {
            let game = Connect4::standard();
            let position = game.parse(args.position.as_deref().unwrap_or(""))?;
            evaluate(&game, &Threats::new(&game), &position, args, "threats, first player's view")
        }
    }
}

/// Writes the terms and the estimate (their sum), or for a finished game its terminal value on the
/// evaluator's scale.
fn evaluate<G: Game, E: Evaluator<G>>(
    game: &G,
    evaluator: &E,
    state: &G::State,
    args: &EvalArgs,
    what: &str,
) -> Result<()> {
    let row = |term: &str, value| TermRow { term: term.into(), value: output::value(value) };
    let rows: Vec<TermRow> = match game.node(state) {
        Node::Terminal(payoff) => vec![row("terminal", evaluator.terminal(payoff))],
        Node::Chance => bail!("the position is a chance node; the evaluator values decision nodes"),
        Node::Decision(_) => {
            let terms = evaluator.terms(game, state);
            terms
                .iter()
                .map(|&(term, value)| row(term, value))
                .chain([row("total", evaluator.evaluate(game, state))])
                .collect()
        }
    };
    Sink::new(&args.out, None).emit(&rows, || {
        let mut table = output::table(&["term", "value"]);
        for row in &rows {
            table.add_row(vec![row.term.clone(), row.value.clone()]);
        }
        format!("{what}; estimates lie within ±{}\n{table}", output::value(evaluator.bound()))
    })
}
