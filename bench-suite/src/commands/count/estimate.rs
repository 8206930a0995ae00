//! What a count will cost, before it runs, measured on the game rather than bounded: its move sequences per ply
//! from the game's published counts where it has them and by Knuth's estimator (random walks down the tree)
//! where it does not; its distinct positions per ply from the published counts, or the first plies counted for
//! real and, beyond them, growing as the sequences do times the share of new positions the last counted ply
//! found, never past the sequences nor the game's bound.
//!
//! A worst-case bound (every move open at every ply, no position reached twice) refused counts that take
//! seconds by factors of 10³ to 10¹⁰; the tests hold these estimates within a factor of 10 of the truth on
//! every game that counts.

use crate::games::Published;
use khela_exact::count::{SHARD_ENTRIES, distinct_positions_within};
use khela_games::{Game, Node};
use khela_mcts::random::{Pcg, Random};

/// Random walks of Knuth's estimator an estimate of the sequences takes (a few milliseconds).
const WALKS: u32 = 4_000;

/// The children a ply may generate among the first plies counted for real (about a second, 100 MB at most).
pub(super) const COUNTED_CHILDREN: u64 = 1 << 21;

/// The sequences a measurement of the counting rate counts for real (a few milliseconds to a tenth of a second).
const MEASURED_SEQUENCES: f64 = 2e6;

/// Move sequences counted a second on one thread, measured on `game`'s first plies from `root`: perft to the
/// deepest ply whose `estimated` sequences stay within [`MEASURED_SEQUENCES`], on one thread, timed; `None`
/// when that ply is `depth` itself (the count is as small as its measurement) or the count took no time to time.
pub(super) fn sequences_per_second<G>(game: &G, root: &G::State, estimated: &[f64], depth: u32) -> Option<f64>
where
    G: Game + Sync,
    G::State: Send + Sync,
{
    let ply = (1..=depth).take_while(|&d| estimated[d as usize] <= MEASURED_SEQUENCES).last().unwrap_or(1);
    if ply >= depth {
        return None;
    }
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().ok()?;
    let started = std::time::Instant::now();
    let counted = one.install(|| khela_exact::count::perft(game, root, ply, &khela_exact::count::quiet));
    let seconds = started.elapsed().as_secs_f64();
    (seconds > 0.0).then(|| counted[ply as usize] as f64 / seconds)
}

/// A count's cost, ply by ply, from ply 0 to its depth.
pub(super) struct Estimate {
    /// Move sequences of each ply.
    pub sequences: Vec<f64>,
    /// Distinct positions of each ply.
    pub positions: Vec<f64>,
}

impl Estimate {
    /// The estimate of a count of `game` from `root` to `depth`: `published` counts where they reach, the
    /// positions bounded by `bound` in all; the positions' first plies counted for real within
    /// `counted_children` children a ply ([`COUNTED_CHILDREN`] but in the tests) when `positions` are wanted.
    pub fn of<G>(
        game: &G,
        root: &G::State,
        (published, bound): (Option<Published>, f64),
        depth: u32,
        (positions, counted_children): (bool, u64),
    ) -> Estimate
    where
        G: Game + Sync,
        G::State: Send + Sync,
        G::Move: Send,
    {
        let walked = walks(game, root, depth);
        let sequences: Vec<f64> = (0..=depth as usize)
            .map(|ply| match published {
                Some(p) => match p.sequences.get(ply) {
                    Some(&known) => known as f64,
                    None => {
                        let beyond = ply as i32 + 1 - p.sequences.len() as i32;
                        p.sequences.last().map_or(1.0, |&c| c as f64) * p.growth.powi(beyond)
                    }
                },
                None => walked[ply],
            })
            .collect();
        let counted: Vec<f64> = match published.filter(|p| !p.positions.is_empty()) {
            Some(p) => p.positions.iter().take(depth as usize + 1).map(|&c| c as f64).collect(),
            None if positions => {
                distinct_positions_within(game, root, depth, counted_children).into_iter().map(|c| c as f64).collect()
            }
            None => vec![1.0],
        };
        // Beyond the counted plies, the positions grow as the sequences do (their branching falls as a board
        // fills), times the share of new positions among the last counted ply's children; never past the
        // sequences nor the bound.
        let growth = |counts: &[f64], ply: usize| counts[ply] / counts[ply - 1].max(f64::MIN_POSITIVE);
        let last = counted.len() - 1;
        let new = if last == 0 { 1.0 } else { (growth(&counted, last) / growth(&sequences, last)).min(1.0) };
        let mut estimated = counted.clone();
        for ply in counted.len()..=depth as usize {
            let next = estimated[ply - 1] * growth(&sequences, ply) * new;
            estimated.push(next.min(sequences[ply]).min(bound));
        }
        Estimate { sequences, positions: estimated }
    }

    /// Peak memory of the position sets to the last ply: the positions of two plies plus one shard of children
    /// (`branching` children per position at most), with a machine word each while they are grouped into
    /// buckets.
    pub fn position_bytes<G: Game>(&self, branching: f64) -> f64 {
        let size = size_of::<G::State>() as f64;
        let last = *self.positions.last().expect("ply 0");
        let before = self.positions.len().checked_sub(2).map_or(0.0, |ply| self.positions[ply]);
        let shard = (before * branching).min(SHARD_ENTRIES as f64);
        size * (before + last) + (size + 8.0) * shard
    }
}

/// Knuth's estimate of the move sequences at each ply `0..=depth` from `root`: the mean, over [`WALKS`] random
/// walks (seeded, so the same every time), of the product of the branchings met on the way — each walk's product
/// an unbiased estimate of the count. A chance node's outcomes are branchings of the sequences, not plies.
fn walks<G: Game>(game: &G, root: &G::State, depth: u32) -> Vec<f64> {
    let mut sums = vec![0.0; depth as usize + 1];
    let mut rng = Pcg::from_seed(0);
    let (mut moves, mut outcomes) = (Vec::new(), Vec::new());
    for _ in 0..WALKS {
        let (mut state, mut weight) = (root.clone(), 1.0);
        sums[0] += 1.0;
        'walk: for sum in sums.iter_mut().skip(1) {
            loop {
                match game.node(&state) {
                    Node::Terminal(_) => break 'walk,
                    Node::Chance => {
                        game.outcomes(&state, &mut outcomes);
                        weight *= outcomes.len() as f64;
                        state = game.child(&state, outcomes[rng.below(outcomes.len())].0);
                    }
                    Node::Decision(_) => break,
                }
            }
            game.moves(&state, &mut moves);
            if moves.is_empty() {
                break;
            }
            weight *= moves.len() as f64;
            state = game.child(&state, moves[rng.below(moves.len())]);
            *sum += weight;
        }
    }
    sums.into_iter().map(|s| s / f64::from(WALKS)).collect()
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
            let of = |depth| Estimate::of(entry.game(), &root, (published, bound), depth, (true, COUNTED_CHILDREN));
            [
                of(11).sequences[11],
                of(15).sequences[15],
                of(14).position_bytes::<E::Game>(branching),
                of(20).position_bytes::<E::Game>(branching),
            ]
        }
    }

    /// A count's estimate and its truth at `depth`: (estimated, counted) sequences and positions, the positions'
    /// first plies counted within `counted_children` children.
    struct Measured {
        depth: u32,
        counted_children: u64,
    }

    impl Visit for Measured {
        type Output = Option<[(f64, f64); 2]>;

        fn visit<E: Entry>(self, entry: E) -> Self::Output {
            let (_, root) = khela::registry::position(&entry, None, None).ok()?;
            let published = entry.per_ply(&root)?;
            let game = entry.game();
            let bound = entry.positions_bound(&root);
            let depth = self.depth.min(entry.plies_left(&root).0);
            let estimate = Estimate::of(game, &root, (published, bound), depth, (true, self.counted_children));
            let sequences = khela_exact::count::perft(game, &root, depth, &khela_exact::count::quiet);
            let positions = khela_exact::count::distinct_positions(game, &root, depth, &khela_exact::count::quiet);
            let at = depth as usize;
            Some([(estimate.sequences[at], sequences[at] as f64), (estimate.positions[at], positions[at] as f64)])
        }
    }

    /// On every game that counts, in every rules variant, the estimates lie within a factor of 10 of the counts,
    /// with the positions' growth carried on over several plies (their first plies counted within 20,000
    /// children) as well as counted.
    #[test]
    fn estimates_lie_within_a_factor_of_ten_of_the_counts() {
        let games = [
            ("tictactoe", 7),
            ("connect4(width=5,height=4)", 12),
            ("connect4(width=4,height=5)", 14),
            ("bagh-chal", 7),
            ("bagh-chal(rules=bagh-bandi)", 6),
            ("sixteen-soldiers", 7),
            ("sixteen-soldiers(rules=optional)", 6),
            ("sixteen-soldiers(rules=continue)", 6),
            ("einstein", 4),
            ("dots-and-boxes", 8),
        ];
        for (text, depth) in games {
            let args = GameArgs { game: text.parse().unwrap(), ..GameArgs::of(GameName::Tictactoe) };
            for counted_children in [20_000, COUNTED_CHILDREN] {
                let Some([sequences, positions]) = games::visit(&args, Measured { depth, counted_children }).unwrap()
                else {
                    continue;
                };
                for (what, (estimated, counted)) in [("sequences", sequences), ("positions", positions)] {
                    let ratio = estimated / counted;
                    assert!(
                        (0.1..=10.0).contains(&ratio),
                        "{text} to ply {depth}, {counted_children} children counted: {estimated:.3e} {what} \
                         estimated, {counted} counted"
                    );
                }
            }
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
