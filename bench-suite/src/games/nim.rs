//! Nim's solver on the command line: every move's win or loss, by memoized search (an impartial game's values
//! depend on the heaps alone), and the search checked against Bouton's XOR rule.

use super::runs::OwnSolve;
use crate::output::{self, OutArg, Sink};
use anyhow::{Result, bail};
use indicatif::HumanCount;
use khela::games::nim::{check_size, searcher};
use khela::registry::Family;
use khela_exact::Algorithm;
use khela_games::nim::{Heaps, Nim};
use khela_games::{Game, Player};
use serde::Serialize;

/// The most positions `--check-xor` enumerates.
const CHECK_MAX_POSITIONS: u64 = 1_000_000;

/// Win or loss for the side to move after each move, by memoized negamax over heap multisets.
pub fn solve(text: &str, heaps: &Heaps, own: &OwnSolve) -> Result<()> {
    let out = own.out;
    if own.weak {
        bail!("--weak: Nim's values are wins and losses already; it is for Connect-4, whose scores count stones");
    }
    check_size(text, heaps)?;
    let mut searcher = searcher();
    let mut moves = Vec::new();
    Nim.moves(heaps, &mut moves);
    let rows: Vec<MoveRow> = moves
        .iter()
        .map(|&mv| {
            let after = Nim.child(heaps, mv);
            let wins = heaps.to_move.view(searcher.run(Algorithm::Negamax, &after).value) > 0.0;
            MoveRow { heap: mv.heap, from: mv.from, to: mv.to, wins }
        })
        .collect();
    let mover_wins = rows.iter().any(|r| r.wins);
    Sink::new(out, None)?.emit(&rows, || {
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
        format!("Nim {text} (nim-sum {}): {verdict}\n{table}", Nim::nim_sum(heaps))
    })
}

/// The search against Bouton's rule (the side to move loses exactly when the nim-sum is 0) on every
/// position of `family.heaps` heaps of 0..=`family.max`.
pub fn check_bouton(family: Family, out: &OutArg) -> Result<()> {
    let Family { heaps: count, max } = family;
    let positions = u64::from(max + 1).checked_pow(count).filter(|&p| p <= CHECK_MAX_POSITIONS);
    let Some(positions) = positions else {
        bail!(
            "--check-xor with {count} heaps of 0..={max} is {}^{count} positions; the check is limited to {}",
            max + 1,
            HumanCount(CHECK_MAX_POSITIONS)
        );
    };
    let mut searcher = searcher();
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
    Sink::new(out, None)?.emit(&rows, || {
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

/// One move of `solve --game nim`.
#[derive(Serialize)]
struct MoveRow {
    heap: usize,
    from: u32,
    to: u32,
    wins: bool,
}

/// One position of `solve --game nim --check-xor`.
#[derive(Serialize)]
struct CheckRow {
    heaps: String,
    nim_sum: u32,
    search_wins: bool,
    bouton_wins: bool,
}
