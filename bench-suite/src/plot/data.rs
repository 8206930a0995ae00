//! The points the plots draw: the sweep summary's rows, and the choice and grouping of those one plot run shows.

use super::axis::positive;
use super::look::{Look, ordering_look, ordering_rank};
use khela_exact::{Algorithm, OrderingKind};
use std::collections::BTreeMap;

/// One row of the sweep summary, as the plots need it.
pub struct SummaryPoint {
    /// The tree model, e.g. `iid`.
    pub model: String,
    /// Branching factor.
    pub b: u32,
    /// Depth.
    pub d: u32,
    /// Search algorithm; the plots show alpha-beta only.
    pub algorithm: Algorithm,
    /// Move ordering.
    pub ordering: OrderingKind,
    /// Leaves visited, mean over seeds.
    pub mean_leaves: f64,
    /// Effective branching factor, `mean_leaves^(1/d)`.
    pub ebf: f64,
    /// Knuth and Moore's minimum leaf count, `b^⌈d/2⌉ + b^⌊d/2⌋ − 1`.
    pub knuth_moore: f64,
    /// Leaves plain minimax visits, `b^d`.
    pub minimax_leaves: f64,
}

/// The only algorithm the plots show.
const ALGORITHM: Algorithm = Algorithm::AlphaBeta;
/// The model the plots prefer when the points hold several.
const PREFERRED_MODEL: &str = "iid";

/// The points one plot run shows, grouped.
pub struct Data<'a> {
    /// The model the points are of.
    pub model: &'a str,
    /// Orderings in legend order (see [`ordering_rank`]).
    pub orderings: Vec<OrderingKind>,
    /// `(b, d, ordering)` → point. Duplicates keep the first.
    points: BTreeMap<(u32, u32, OrderingKind), &'a SummaryPoint>,
    /// `(b, d)` → the reference counts (Knuth–Moore, minimax), from the first point with that shape.
    pub reference: BTreeMap<(u32, u32), (f64, f64)>,
}

impl<'a> Data<'a> {
    /// The `alphabeta` points of the chosen model, or `None` if there are none.
    pub fn select(points: &'a [SummaryPoint]) -> Option<Data<'a>> {
        let alphabeta = || points.iter().filter(|p| p.algorithm == ALGORITHM);
        let model = match alphabeta().find(|p| p.model == PREFERRED_MODEL) {
            Some(p) => p.model.as_str(),
            None => alphabeta().next()?.model.as_str(),
        };
        let mut data = Data { model, orderings: Vec::new(), points: BTreeMap::new(), reference: BTreeMap::new() };
        for p in alphabeta().filter(|p| p.model == model) {
            data.points.entry((p.b, p.d, p.ordering)).or_insert(p);
            data.reference.entry((p.b, p.d)).or_insert((p.knuth_moore, p.minimax_leaves));
            if !data.orderings.contains(&p.ordering) {
                data.orderings.push(p.ordering);
            }
        }
        data.orderings.sort_by_key(|&o| (ordering_rank(o), o));
        Some(data)
    }

    /// The branching factors present, ascending.
    pub fn bs(&self) -> Vec<u32> {
        let mut bs: Vec<u32> = self.reference.keys().map(|&(b, _)| b).collect();
        bs.dedup();
        bs
    }

    /// One [`Series`] per ordering, in legend order: the points at `cells` (`(b, d)`, ascending in x) mapped
    /// by `xy`, skipping cells the ordering lacks and values that are not positive and finite.
    pub fn series(&self, cells: &[(u32, u32)], xy: impl Fn(&SummaryPoint) -> (f64, f64)) -> Vec<Series> {
        let line = |o| {
            cells
                .iter()
                .filter_map(|&(b, d)| self.points.get(&(b, d, o)))
                .map(|p| xy(p))
                .filter(|&(_, y)| positive(y))
                .collect()
        };
        self.orderings.iter().enumerate().map(|(i, &o)| Series { look: ordering_look(i, o), line: line(o) }).collect()
    }

    /// For each `b`, ascending, the deepest `d` among those with the most orderings: a sweep runs the oracle
    /// orderings on smaller trees only, and an EBF curve that lost them at its deepest `d` would compare nothing.
    pub fn deepest(&self) -> Vec<(u32, u32)> {
        let coverage = |b, d| self.orderings.iter().filter(|&&o| self.points.contains_key(&(b, d, o))).count();
        self.bs()
            .into_iter()
            .filter_map(|b| self.depths(b).into_iter().max_by_key(|&d| (coverage(b, d), d)).map(|d| (b, d)))
            .collect()
    }

    /// The depths present for `b`, ascending.
    pub fn depths(&self, b: u32) -> Vec<u32> {
        self.reference.range((b, 0)..=(b, u32::MAX)).map(|(&(_, d), _)| d).collect()
    }
}

/// One ordering's line: how it looks and its points, ascending in x.
pub struct Series {
    /// The ordering's colour and marker.
    pub look: Look,
    /// The points, ascending in x.
    pub line: Vec<(f64, f64)>,
}

/// Plausible numbers for b = 2..4, d = 2..6 and four orderings, for the plots' tests.
#[cfg(test)]
pub fn synthetic() -> Vec<SummaryPoint> {
    let mut points = Vec::new();
    for b in 2..=4 {
        for d in 2..=6_u32 {
            let bf = f64::from(b);
            let minimax = bf.powi(d as i32);
            let km = bf.powi(d.div_ceil(2) as i32) + bf.powi((d / 2) as i32) - 1.0;
            for (ordering, leaves) in [
                (OrderingKind::Natural, (km * minimax).sqrt()),
                (OrderingKind::BestFirst, km),
                (OrderingKind::WorstFirst, minimax),
                (OrderingKind::Random, khela_exact::theory::pearl(b).powi(d as i32).max(km)),
            ] {
                points.push(SummaryPoint {
                    model: "iid".to_string(),
                    b,
                    d,
                    algorithm: ALGORITHM,
                    ordering,
                    mean_leaves: leaves,
                    ebf: leaves.powf(1.0 / f64::from(d)),
                    knuth_moore: km,
                    minimax_leaves: minimax,
                });
            }
        }
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefers_iid_then_the_first_model() {
        let mut points = synthetic();
        for p in &mut points[..8] {
            p.model = "other".to_string();
        }
        assert_eq!(Data::select(&points).unwrap().model, "iid");
        for p in &mut points {
            if p.model == "iid" {
                p.model = "zeta".to_string();
            }
        }
        assert_eq!(Data::select(&points).unwrap().model, "other");
    }

    #[test]
    fn ebf_uses_the_deepest_depth_with_the_most_orderings() {
        let mut points = synthetic();
        // Natural ordering alone goes deeper at b = 2 and b = 3, as when a sweep skips the oracles on big trees.
        for (b, d) in [(2, 7), (2, 8), (3, 7)] {
            let mut deeper = SummaryPoint { b, d, ..synthetic().swap_remove(0) };
            deeper.ordering = OrderingKind::Natural;
            points.push(deeper);
        }
        // Random ordering is missing at b = 4, d = 6 and d = 5.
        points.retain(|p| !(p.ordering == OrderingKind::Random && p.b == 4 && p.d >= 5));
        let data = Data::select(&points).unwrap();
        assert_eq!(data.deepest(), vec![(2, 6), (3, 6), (4, 4)]);
    }
}
