//! Iterations whose leaves the caller values ([`Search::begin`] and [`Search::complete`], AlphaZero's search):
//! checked against a small recursive AlphaZero search written here from the rule alone, and for the
//! bookkeeping of many iterations in flight.

use khela_games::tictactoe::{Board, TicTacToe};
use khela_games::{Game, Node, Player};
use khela_mcts::random::Pcg;
use khela_mcts::{Begun, MctsConfig, Puct, Search, Uniform};

/// One iteration of `search`, one leaf at a time, its leaf valued by [`valuation`].
fn iterate(search: &mut Search<'_, TicTacToe, Puct<Uniform>, Pcg>) {
    match search.begin() {
        Begun::Leaf(pending) => {
            let (score, priors) = valuation(pending.state());
            search.complete(pending, score, &priors);
        }
        Begun::Done => {}
        Begun::Over => panic!("the root is not terminal"),
    }
}

/// A made-up but fixed valuation of a position: the score for MAX in (0, 1) and a prior per legal move, both
/// hashed from the board, so that every search sees the same numbers.
fn valuation(board: &Board) -> (f64, Vec<f64>) {
    let key = TicTacToe.key(board);
    let hash = |i: u64| (key ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15)).wrapping_mul(0xBF58_476D_1CE4_E5B9) >> 11;
    let unit = |i: u64| hash(i) as f64 / (1u64 << 53) as f64;
    let mut moves = Vec::new();
    TicTacToe.moves(board, &mut moves);
    let weights: Vec<f64> = (0..moves.len()).map(|i| 0.1 + unit(i as u64 + 1)).collect();
    let total: f64 = weights.iter().sum();
    (0.05 + 0.9 * unit(0), weights.iter().map(|w| w / total).collect())
}

/// The score for MAX of a terminal payoff.
fn terminal_score(payoff: f64) -> f64 {
    match payoff.partial_cmp(&0.0) {
        Some(std::cmp::Ordering::Greater) => 1.0,
        Some(std::cmp::Ordering::Less) => 0.0,
        _ => 0.5,
    }
}

/// One node of the reference search: visits, the summed scores of the player who moved into it, its prior, and
/// its children once expanded.
struct RefNode {
    visits: f64,
    wins: f64,
    prior: f64,
    children: Option<Vec<(u8, RefNode)>>,
}

impl RefNode {
    fn new(prior: f64) -> RefNode {
        RefNode { visits: 0.0, wins: 0.0, prior, children: None }
    }

    /// One simulation from `board` (the node's position, `owner` the player who moved into it): expand and
    /// value an unexpanded node, else descend into the child with the largest Q + c·P·√N/(1 + n) (the first of
    /// equals; Q = ½ unvisited); the score for MAX, credited on the way back.
    fn simulate(&mut self, board: &Board, owner: Player, puct: &Puct<Uniform>) -> f64 {
        let score = match TicTacToe.node(board) {
            Node::Terminal(payoff) => terminal_score(payoff),
            Node::Decision(mover) => match &mut self.children {
                None => {
                    let (score, priors) = valuation(board);
                    let mut moves = Vec::new();
                    TicTacToe.moves(board, &mut moves);
                    self.children = Some(moves.into_iter().zip(priors).map(|(m, p)| (m, RefNode::new(p))).collect());
                    score
                }
                Some(children) => {
                    let sqrt_n = self.visits.sqrt();
                    let score = |c: &RefNode| {
                        let q = if c.visits > 0.0 { c.wins / c.visits } else { puct.unvisited };
                        q + puct.c * c.prior * sqrt_n / (1.0 + c.visits)
                    };
                    let mut best = 0;
                    for i in 1..children.len() {
                        if score(&children[i].1) > score(&children[best].1) {
                            best = i;
                        }
                    }
                    let (mv, child) = &mut children[best];
                    child.simulate(&TicTacToe.child(board, *mv), mover, puct)
                }
            },
            Node::Chance => unreachable!("tic-tac-toe has no chance"),
        };
        self.visits += 1.0;
        self.wins += if owner == Player::Max { score } else { 1.0 - score };
        score
    }
}

/// One iteration at a time (no virtual loss, which would count the iteration in flight in its own path's
/// visits), the search's visits and scores at the root's children are the reference's, on several positions
/// and budgets.
#[test]
fn one_leaf_at_a_time_is_alphazeros_search() {
    let puct = Puct { c: 1.5, ..Puct::new(Uniform) };
    let config = MctsConfig { virtual_loss: 0, ..MctsConfig::default() };
    for (text, iterations) in [
        ("X...O....", 3),
        ("X...O....", 40),
        (".........", 400),
        ("X...O....", 300),
        ("XX.OO....", 50),
        ("XOX.O....", 200),
    ] {
        let board = TicTacToe::parse(text).unwrap();
        let mut search: Search<'_, _, _, Pcg> = Search::new(&TicTacToe, board, puct, config);
        for _ in 0..iterations {
            iterate(&mut search);
        }
        let mut reference = RefNode::new(1.0);
        let root_owner = board.to_move().opponent();
        for _ in 0..iterations {
            reference.simulate(&board, root_owner, &puct);
        }
        let expected: Vec<(u8, u64, f64)> =
            reference.children.unwrap().iter().map(|(m, c)| (*m, c.visits as u64, c.wins)).collect();
        let got: Vec<(u8, u64, f64)> = search.stats().iter().map(|s| (s.mv, s.visits, s.wins)).collect();
        assert_eq!(got.len(), expected.len(), "{text}");
        for (g, e) in got.iter().zip(&expected) {
            assert_eq!((g.0, g.1), (e.0, e.1), "{text}: {got:?} against {expected:?}");
            assert!((g.2 - e.2).abs() < 1e-9, "{text}: {got:?} against {expected:?}");
        }
    }
}

/// Many iterations in flight at once (a batch): the virtual losses spread them over different leaves, and once
/// all are completed the counts add up.
#[test]
fn iterations_in_flight_spread_and_add_up() {
    let config = MctsConfig { virtual_loss: 3, ..MctsConfig::default() };
    let mut search: Search<'_, _, _, Pcg> = Search::new(&TicTacToe, Board::EMPTY, Puct::new(Uniform), config);
    // The root first, alone.
    let Begun::Leaf(root) = search.begin() else { panic!("the root is a leaf of a new search") };
    let (score, priors) = valuation(root.state());
    search.complete(root, score, &priors);
    let mut total = 1;
    for _ in 0..20 {
        let pending: Vec<_> = (0..8)
            .filter_map(|_| match search.begin() {
                Begun::Leaf(p) => Some(p),
                _ => None,
            })
            .collect();
        let distinct: std::collections::HashSet<_> = pending.iter().map(|p| *p.state()).collect();
        assert!(
            distinct.len() >= pending.len() / 2,
            "virtual loss keeps the batch apart: {} of {}",
            distinct.len(),
            pending.len()
        );
        total += pending.len() as u64;
        for p in pending {
            let (score, priors) = valuation(p.state());
            search.complete(p, score, &priors);
        }
    }
    let visits: u64 = search.stats().iter().map(|s| s.visits).sum();
    assert_eq!(visits + 1, total, "every completed iteration passes through a root child, but the root's own");
}

/// An abandoned iteration leaves no trace: after one (or several) begun and abandoned, the search goes on as
/// one that never began them.
#[test]
fn an_abandoned_iteration_leaves_no_trace() {
    let config = MctsConfig { virtual_loss: 3, ..MctsConfig::default() };
    let run = |abandon_every: Option<usize>| {
        let mut search: Search<'_, _, _, Pcg> = Search::new(&TicTacToe, Board::EMPTY, Puct::new(Uniform), config);
        for i in 0..200 {
            if abandon_every.is_some_and(|k| i % k == 0) {
                let Begun::Leaf(p) = search.begin() else { panic!("a leaf") };
                let Begun::Leaf(q) = search.begin() else { panic!("a leaf") };
                search.abandon(q);
                search.abandon(p);
            }
            iterate(&mut search);
        }
        search.stats().iter().map(|s| (s.mv, s.visits, s.wins)).collect::<Vec<_>>()
    };
    let plain = run(None);
    assert_eq!(plain.iter().map(|s| s.1).sum::<u64>(), 199);
    assert_eq!(run(Some(1)), plain);
    assert_eq!(run(Some(7)), plain);
}
