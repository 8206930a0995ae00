//! The implicit chance trees against explicit ones: the same tree written in the nested-list notation and parsed
//! by `khela_games::tree` must have the same expectiminimax value, bit for bit; what alpha-beta can prune on
//! these regular *-minimax trees (nothing); and Star1 and Star2 with the trees' leaf bounds.

use khela_exact::{Algorithm, Natural, SearchResult, Searcher};
use khela_games::chance_tree::{ChanceTree, Params};
use khela_games::implicit::Position;
use khela_games::tree::Tree;
use khela_games::{Game, Node, Player};

fn chance_tree(b: u32, k: u32, d: u32, seed: u64) -> ChanceTree {
    ChanceTree::new(Params { b, k, d, seed, lo: 0, hi: 99 }).unwrap()
}

/// The subtree at `p` in the nested-list notation, chance probabilities as fractions `1/k`.
fn notation(tree: &ChanceTree, p: &Position) -> String {
    let mut moves = Vec::new();
    let mut outcomes = Vec::new();
    match tree.node(p) {
        Node::Terminal(value) => format!("{value}"),
        Node::Decision(_) => {
            tree.moves(p, &mut moves);
            let children: Vec<String> = moves.iter().map(|&mv| notation(tree, &tree.child(p, mv))).collect();
            format!("[{}]", children.join(","))
        }
        Node::Chance => {
            tree.outcomes(p, &mut outcomes);
            let k = outcomes.len();
            let children: Vec<String> =
                outcomes.iter().map(|&(o, _)| format!("1/{k}:{}", notation(tree, &tree.child(p, o)))).collect();
            format!("{{{}}}", children.join(","))
        }
    }
}

fn run<G: Game>(game: &G, root: &G::State, algorithm: Algorithm) -> SearchResult<G::Move> {
    Searcher::new(game, Natural).run(algorithm, root)
}

#[test]
fn expectiminimax_agrees_with_the_explicit_tree() {
    for (b, k, d) in [(2, 2, 1), (2, 3, 2), (3, 2, 2), (1, 4, 3), (3, 3, 2), (2, 2, 3)] {
        for seed in 0..5 {
            let implicit = chance_tree(b, k, d, seed);
            let explicit = Tree::parse(&notation(&implicit, &ChanceTree::ROOT), Player::Max).unwrap();
            let ours = run(&implicit, &ChanceTree::ROOT, Algorithm::Minimax);
            let theirs = run(&explicit, &0, Algorithm::Minimax);
            assert_eq!(ours.value.to_bits(), theirs.value.to_bits(), "b={b} k={k} d={d} seed={seed}");
            assert_eq!((ours.best, ours.stats), (theirs.best, theirs.stats), "b={b} k={k} d={d} seed={seed}");
            assert_eq!(ours.stats.nodes, implicit.nodes());
            assert_eq!(ours.stats.leaves, implicit.leaves());
        }
    }
    // The module's example: MAX's second move, whose outcomes 86, 74, 33 average 64 1/3, computed as the
    // searches do: the sum, in order, of each leaf times the probability 1/3 rounded to an f64.
    let tree = chance_tree(2, 3, 1, 7);
    let result = run(&tree, &ChanceTree::ROOT, Algorithm::Minimax);
    let third = 1.0 / 3.0;
    assert_eq!((result.value, result.best), ((third * 86.0 + third * 74.0) + third * 33.0, Some(1)));
    assert_eq!(format!("{}", result.value), "64.33333333333333");
}

#[test]
fn alpha_beta_alone_prunes_nothing_on_regular_chance_trees() {
    // Every decision node's children are chance nodes, and a chance node searches its outcomes with a full
    // window: so every decision node below the root is searched with a full window, never cuts, and alpha-beta
    // visits every node, as expectiminimax does. Pruning there needs the leaf bounds of *-minimax.
    for (b, k, d) in [(2, 2, 3), (3, 2, 2), (4, 3, 2)] {
        for seed in 0..5 {
            let tree = chance_tree(b, k, d, seed);
            let minimax = run(&tree, &ChanceTree::ROOT, Algorithm::Minimax);
            let alphabeta = run(&tree, &ChanceTree::ROOT, Algorithm::AlphaBeta);
            assert_eq!(alphabeta.value.to_bits(), minimax.value.to_bits());
            assert_eq!((alphabeta.stats.nodes, alphabeta.stats.cutoffs), (tree.nodes(), 0));
        }
    }
}

#[test]
fn star_pruning_finds_expectiminimax_bit_for_bit_with_fewer_nodes() {
    // Star1 never visits more nodes than expectiminimax; Star2's probes are extra searches, which its cuts
    // usually, but not always, repay. Both return expectiminimax's value, bit for bit.
    let (mut star1_nodes, mut star2_nodes, mut minimax_nodes) = (0, 0, 0);
    for (b, k, d) in [(2, 2, 3), (3, 2, 3), (3, 3, 2), (4, 2, 2), (2, 4, 3)] {
        for seed in 0..10 {
            let tree = chance_tree(b, k, d, seed);
            let (lo, hi) = tree.bounds();
            let minimax = run(&tree, &ChanceTree::ROOT, Algorithm::Minimax);
            for (algorithm, total) in [(Algorithm::Star1, &mut star1_nodes), (Algorithm::Star2, &mut star2_nodes)] {
                let star = Searcher::new(&tree, Natural).with_bounds(lo, hi).run(algorithm, &ChanceTree::ROOT);
                let case = format!("{algorithm:?} b={b} k={k} d={d} seed={seed}");
                assert_eq!(star.value.to_bits(), minimax.value.to_bits(), "{case}");
                assert_eq!(star.best, minimax.best, "{case}");
                if algorithm == Algorithm::Star1 {
                    assert!(star.stats.nodes <= minimax.stats.nodes, "{case}");
                }
                *total += star.stats.nodes;
            }
            minimax_nodes += minimax.stats.nodes;
        }
    }
    // The totals over these 50 trees (a regression figure, not a published one).
    assert_eq!((minimax_nodes, star1_nodes, star2_nodes), (14_760, 12_862, 13_075));
}
