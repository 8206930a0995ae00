//! `zero eval --game bagh-chal`: the network's search (`--simulations`) against UCT with ten times as many
//! iterations (and with `--depth` against the engine), `--games` as the goats and as the tigers
//! ([`super::games`]); and with `--tables DIR` (the sliding phase's, `retro --out DIR`), on `--limit`
//! positions drawn uniformly from each table (each number of goats captured), the raw heads and the search
//! judged by the tables — the share whose value's sign (win, draw or loss for the side to move) is the
//! tables', and whose top move keeps the tables' outcome.

use super::args::Measure;
use super::games::{against, opponents};
use super::heads::{judged, outcome_sign};
use crate::games::{self, Entry, GameArgs, GameName};
use crate::output::Metric;
use anyhow::{Result, bail};
use khela::games::bagh_chal::BaghChalEntry;
use khela::known::Known;
use khela::net::{guide, load};
use khela::tables;
use khela_games::bagh_chal::{BaghChal, Position};
use khela_games::rng::splitmix64;
use khela_games::{Game, Node};
use khela_mcts::random::{Pcg, Random};
use khela_zero::Encode;
use khela_zero::eval::Truth;
use std::collections::HashSet;
use std::path::Path;

/// Positions drawn from each table when `--limit` is not given.
const PER_TABLE: u64 = 200;

/// Numbers drawn from a table for each position wanted before giving up on it: most numbers of the sliding
/// phase stand for a position, so this is never reached on Bagh-Chal's own tables.
const DRAWS_PER_POSITION: u64 = 1_000;

/// The rows of `zero eval --game bagh-chal`.
pub(super) fn rows(game_args: &GameArgs, net: &Path, args: &Measure) -> Result<Vec<Metric>> {
    if args.set.is_some() {
        bail!("--set is for Connect-4's benchmark files; Bagh-Chal's positions are drawn from --tables DIR");
    }
    args.need_positions(args.tables.is_some(), "the positions drawn from each table of --tables")?;
    let entry = BaghChalEntry::new(&game_args.spec()?)?;
    let (_, start) = games::position(&entry, game_args, Some("evaluate from"))?;
    let opponents = opponents(args, args.depth, entry.plies_left(&start).0)?;
    let game = entry.game();
    let name: &str = GameName::BaghChal.into();
    let guide = guide(&entry, name, net, "zero eval")?;
    // The tables are loaded and their positions drawn first: a bad directory is refused before any game.
    let positions = match &args.tables {
        Some(dir) => {
            let known = Known::load(&entry, name, dir, "zero eval")?;
            // The loader leaves out the tables `retro --captured` did not write; every one is drawn from here.
            if let Some(part) = known.endgame.parts.iter().find(|part| !tables::path(dir, &part.file).exists()) {
                bail!(
                    "--tables {} has no table of {} ({}): zero eval draws from each table of the sliding phase \
                     (retro --game bagh-chal --out DIR writes them all)",
                    dir.display(),
                    part.name,
                    tables::path(dir, &part.file).display()
                );
            }
            Some(drawn(game, &known, args.limit.unwrap_or(PER_TABLE), args.seed)?)
        }
        None => None,
    };
    let mut rows = Vec::new();
    if args.games > 0 {
        let evaluator = entry.scale().map(|scale| scale.evaluator);
        for opponent in &opponents {
            let sides = against(game, &start, evaluator.as_ref(), guide.as_ref(), net, opponent, args)?;
            rows.extend(sides.rows(opponent, ["goats", "tigers"]));
        }
    }
    if let Some(positions) = positions {
        rows.extend(judged(game, &load(game, name, net)?, &positions, args));
    }
    Ok(rows)
}

/// `per_table` positions in play drawn uniformly, without repeats, from the numbers of each of `known`'s
/// tables (the representatives of their classes under the board's symmetries), from `seed`, each with its
/// truth: the outcome's sign for the side to move, and the moves that keep it.
fn drawn(game: &BaghChal, known: &Known<BaghChal>, per_table: u64, seed: u64) -> Result<Vec<(Position, Truth)>> {
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
    use crate::games::Scope;
    use khela_exact::retro;
    use khela_games::Player;

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
        let known = Known { endgame, table };
        let game = entry.game();
        let positions = drawn(game, &known, 40, 7).unwrap();
        assert_eq!(positions.len(), 40 * known.endgame.parts.len());
        let distinct: HashSet<_> = positions.iter().map(|(p, _)| game.write(p)).collect();
        assert_eq!(distinct.len(), positions.len());
        assert_eq!(drawn(game, &known, 40, 7).unwrap(), positions, "the same seed draws the same positions");
        let (mut signs, mut moves) = ([0; 3], Vec::new());
        for (p, truth) in &positions {
            let Node::Decision(mover) = game.node(p) else { panic!("{} is not in play", game.write(p)) };
            assert_eq!(truth.sign, outcome_sign(known.outcome(p).unwrap()));
            signs[(truth.sign + 1) as usize] += 1;
            game.moves(p, &mut moves);
            for &mv in &moves {
                let child = game.child(p, mv);
                let kept = match game.node(&child) {
                    Node::Terminal(payoff) => (payoff * if mover == Player::Max { 1.0 } else { -1.0 }).signum() as i8,
                    Node::Decision(_) => -outcome_sign(known.outcome(&child).unwrap()),
                    Node::Chance => unreachable!("Bagh-Chal has no dice"),
                };
                assert_eq!(truth.optimal.contains(&game.action(mv)), kept == truth.sign, "{}", game.write(p));
            }
        }
        assert!(signs.iter().all(|&n| n > 0), "wins, draws and losses are all drawn: {signs:?}");
    }
}
