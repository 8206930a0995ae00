//! Positions drawn from each table of a game's endgame (`--tables DIR`, as `retro --out DIR` wrote them: Bagh-Chal's
//! sliding phase, one table for each number of goats captured), each with its truth from the tables, for
//! judging a network's heads and search on them.

use super::heads::outcome_sign;
use anyhow::{Result, bail};
use khela::known::Known;
use khela::tables;
use khela_games::Node;
use khela_games::rng::splitmix64;
use khela_mcts::random::{Pcg, Random};
use khela_zero::Encode;
use khela_zero::eval::Truth;
use std::collections::HashSet;
use std::path::Path;

/// Positions drawn from each table when `--limit` is not given.
pub(super) const PER_TABLE: u64 = 200;

/// Numbers drawn from a table for each position wanted before giving up on it: most numbers of the sliding
/// phase stand for a position, so this is never reached on Bagh-Chal's own tables.
const DRAWS_PER_POSITION: u64 = 1_000;

/// `per_table` positions in play drawn uniformly, without repeats, from the numbers of each of `known`'s
/// tables (loaded from `dir`; the representatives of their classes under the board's symmetries), from `seed`,
/// each with its truth: the outcome's sign for the side to move, and the moves that keep it.
pub(super) fn positions<G: Encode>(
    game: &G,
    dir: &Path,
    known: &Known<G>,
    per_table: u64,
    seed: u64,
) -> Result<Vec<(G::State, Truth)>> {
    // The loader leaves out the tables `retro --captured` did not write; every one is drawn from here.
    if let Some(part) = known.endgame.parts.iter().find(|part| !tables::path(dir, &part.file).exists()) {
        bail!(
            "--tables {} has no table of {} ({}): zero eval draws from each table of the endgame (retro --out DIR \
             writes them all)",
            dir.display(),
            part.name,
            tables::path(dir, &part.file).display()
        );
    }
    drawn(game, known, per_table, seed)
}

/// [`positions`] from tables known to be all there.
fn drawn<G: Encode>(game: &G, known: &Known<G>, per_table: u64, seed: u64) -> Result<Vec<(G::State, Truth)>> {
    let space = &*known.endgame.space;
    let mut positions = Vec::new();
    for (k, part) in known.endgame.parts.iter().enumerate() {
        let mut rng = Pcg::from_seed(splitmix64(seed ^ splitmix64(k as u64 + 1)));
        let (mut seen, mut found) = (HashSet::new(), 0);
        let len = part.numbers.end - part.numbers.start;
        for _ in 0..per_table.saturating_mul(DRAWS_PER_POSITION) {
            if found == per_table || seen.len() as u64 == len {
                break;
            }
            let number = part.numbers.start + rng.below(len as usize) as u64;
            if !seen.insert(number) {
                continue;
            }
            let Some(p) = space.position(number) else { continue };
            if !matches!(game.node(&p), Node::Decision(_)) {
                continue;
            }
            let (Some(outcome), Some(moves)) = (known.outcome(&p), known.moves(&p)) else {
                bail!("the tables do not hold position {} of their own {}", (known.endgame.write)(&p), part.name);
            };
            let sign = outcome_sign(outcome);
            let optimal =
                moves.iter().filter(|(_, o)| outcome_sign(*o) == sign).map(|&(mv, _)| game.action(mv)).collect();
            positions.push((p, Truth { sign, optimal }));
            found += 1;
        }
        if found < per_table && (seen.len() as u64) < len {
            bail!("drew only {found} positions in play from the table of {}, of {per_table} asked", part.name);
        }
    }
    Ok(positions)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Entry, GameArgs, GameName, Scope};
    use khela::games::bagh_chal::BaghChalEntry;
    use khela_exact::retro;
    use khela_games::{Actions, Game, Player};

    /// Every position drawn is in play, drawn once, as many from each table as asked; its truth is the tables'
    /// outcome, and its optimal moves are exactly those whose position after (looked up in the tables, or the
    /// game's end) keeps that outcome's sign for the mover — checked move by move, not through the tables' own
    /// move outcomes.
    #[test]
    fn drawn_positions_carry_the_tables_truth() {
        let args =
            GameArgs { rules: Some("size=3,tigers=b2,goats=6,captures=3".into()), ..GameArgs::of(GameName::BaghChal) };
        let entry = BaghChalEntry::new(&args.spec().unwrap()).unwrap();
        let endgame = entry.endgame(&Scope::default()).unwrap().unwrap();
        let table = retro::solve(&*endgame.space, |_| {}).unwrap();
        let known = Known { endgame, table, before: None, missing: Vec::new() };
        let game = entry.game();
        let positions = drawn(game, &known, 40, 7).unwrap();
        assert_eq!(positions.len(), 40 * known.endgame.parts.len());
        let distinct: HashSet<_> = positions.iter().map(|(p, _)| game.key(p)).collect();
        assert_eq!(distinct.len(), positions.len());
        assert_eq!(drawn(game, &known, 40, 7).unwrap(), positions, "the same seed draws the same positions");
        let (mut signs, mut moves) = ([0; 3], Vec::new());
        for (p, truth) in &positions {
            let Node::Decision(mover) = game.node(p) else { panic!("a position not in play") };
            assert_eq!(truth.sign, outcome_sign(known.outcome(p).unwrap()));
            signs[(truth.sign + 1) as usize] += 1;
            game.moves(p, &mut moves);
            for &mv in &moves {
                let child = game.child(p, mv);
                let kept = match game.node(&child) {
                    Node::Terminal(payoff) => {
                        let payoff = payoff * if mover == Player::Max { 1.0 } else { -1.0 };
                        i8::from(payoff > 0.0) - i8::from(payoff < 0.0)
                    }
                    Node::Decision(_) => -outcome_sign(known.outcome(&child).unwrap()),
                    Node::Chance => unreachable!("Bagh-Chal has no dice"),
                };
                assert_eq!(truth.optimal.contains(&game.action(mv)), kept == truth.sign);
            }
        }
        assert!(signs.iter().all(|&n| n > 0), "wins, draws and losses are all drawn: {signs:?}");
    }
}
