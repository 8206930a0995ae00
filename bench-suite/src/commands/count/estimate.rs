//! What a count will cost, before it runs: its move sequences and its positions' memory, from the game's
//! published counts where it has them, bounds where it does not.

use crate::games::Published;
use khela_exact::count::SHARD_ENTRIES;
use khela_games::Game;

/// The move sequences to ply `depth`: the published count, or beyond the table its growth per ply, or without
/// one an upper bound (every one of `branching` moves open at every ply).
pub(super) fn sequences(published: Option<Published>, branching: f64, depth: u32) -> f64 {
    match published {
        Some(p) => match p.sequences.get(depth as usize) {
            Some(&known) => known as f64,
            None => {
                let beyond = depth as i32 + 1 - p.sequences.len() as i32;
                p.sequences.last().map_or(1.0, |&c| c as f64) * p.growth.powi(beyond)
            }
        },
        None => branching.powi(depth as i32),
    }
}

/// The distinct positions at `ply`: the published count, or at most `branching` to the ply and `bound` in all.
pub(super) fn positions_at(published: Option<Published>, branching: f64, bound: f64, ply: u32) -> f64 {
    match published.and_then(|p| p.positions.get(ply as usize)) {
        Some(&known) => known as f64,
        None => branching.powi(ply as i32).min(bound),
    }
}

/// Peak memory of the position sets to ply `depth`: the positions of two plies plus one shard of children
/// (`branching` children per position), with a machine word each while they are grouped into buckets. A ply's positions are the
/// published count, or at most `branching` to the ply and `bound` in all.
pub(super) fn position_bytes<G: Game>(published: Option<Published>, branching: f64, bound: f64, depth: u32) -> f64 {
    let positions = |ply| positions_at(published, branching, bound, ply);
    let size = size_of::<G::State>() as f64;
    let last = positions(depth);
    let before = if depth == 0 { 0.0 } else { positions(depth - 1) };
    let shard = (before * branching).min(SHARD_ENTRIES as f64);
    size * (before + last) + (size + 8.0) * shard
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{self, Entry, GameArgs, GameName, Visit};

    /// Connect-4's estimates, from the published counts of its entry.
    struct Estimates;

    impl Visit for Estimates {
        type Output = [f64; 4];

        fn visit<E: Entry>(self, entry: E) -> [f64; 4] {
            let args = GameArgs::of(GameName::Connect4);
            let (_, root) = games::position(&entry, &args, None).unwrap();
            let (published, branching) = (entry.per_ply(&root).unwrap(), f64::from(entry.max_moves()));
            let bound = entry.positions_bound(&root);
            [
                sequences(published, branching, 11),
                sequences(published, branching, 15),
                position_bytes::<E::Game>(published, branching, bound, 14),
                position_bytes::<E::Game>(published, branching, bound, 20),
            ]
        }
    }

    #[test]
    fn estimates_use_the_published_counts() {
        let args = GameArgs::of(GameName::Connect4);
        let [eleven, fifteen, ply14, ply20] = games::visit(&args, Estimates).unwrap();
        assert_eq!(eleven, 1_844_590_828.0);
        assert!(fifteen > 1e12, "{fifteen}");
        assert!(ply14 > 1.5e9 && ply14 < 4e9, "{ply14}");
        assert!(ply20 > 24.0 * (1u64 << 30) as f64, "{ply20}");
    }
}
