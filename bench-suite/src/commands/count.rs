//! `count`: the full game tree of tic-tac-toe.

use crate::cli::{CountArgs, CountGame};
use crate::output::{self, Sink};
use anyhow::Result;
use khela_exact::tally;
use khela_games::tictactoe::TicTacToe;
use serde::Serialize;

#[derive(Serialize)]
struct Row {
    games: u64,
    x_wins: u64,
    o_wins: u64,
    draws: u64,
    nodes: u64,
    states: u64,
}

pub fn run(args: &CountArgs) -> Result<()> {
    match args.game {
        CountGame::Tictactoe => {
            let text = args.position.as_deref().unwrap_or(".........");
            let t = tally(&TicTacToe, &TicTacToe::parse(text)?);
            let row = Row {
                games: t.games,
                x_wins: t.max_wins,
                o_wins: t.min_wins,
                draws: t.draws,
                nodes: t.nodes,
                states: t.states,
            };
            Sink::new(&args.out, None).emit(&[&row], || {
                let mut table = output::table(&["games", "X wins", "O wins", "draws", "nodes", "distinct states"]);
                table.add_row(
                    [row.games, row.x_wins, row.o_wins, row.draws, row.nodes, row.states].map(output::thousands),
                );
                format!("Tic-tac-toe game tree from {text}\n{table}")
            })
        }
    }
}
