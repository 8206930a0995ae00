//! The null-window bisection driver (`Searcher::bisect`) against plain alpha-beta on seeded random trees of
//! whole-number leaves, MAX or MIN at the root, with and without a table: the exact value over the true range,
//! and over a narrower range the value clamped to it (the weak solution over −1..1); and with a compact table,
//! whose handle asks the loop for enhanced transposition cut-offs, on tic-tac-toe's positions, with and without
//! a symmetry that stores a board and its mirror image under one key, and with a region of its own for the
//! positions near the end of the game.

use khela_exact::{Abdada, Algorithm, Cache, Compact, KeySymmetry, Natural, NearEnd, Searcher, Team, UNLIMITED};
use khela_games::conformance::random_lines;
use khela_games::random_tree::{Params, RandomTree};
use khela_games::rng::Rng;
use khela_games::tictactoe::{Board, SYMMETRIES, TicTacToe};
use khela_games::tree::Tree;
use khela_games::{Game, Node, Player};
use khela_tt::{CompactTable, Region, Replacement, Table};
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;

/// A random tree as nested-list text: `b` moves a node, `d` plies, leaves from a seeded generator in −9..=9.
fn text(b: u32, d: u32, seed: &mut u64) -> String {
    if d == 0 {
        *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        return (((*seed >> 33) % 19) as i64 - 9).to_string();
    }
    let children: Vec<String> = (0..b).map(|_| text(b, d - 1, seed)).collect();
    format!("[{}]", children.join(","))
}

#[test]
fn bisection_agrees_with_alpha_beta() {
    let mut seed = 7;
    let mut values = std::collections::BTreeSet::new();
    for case in 0..60 {
        let (b, d) = (2 + case % 3, 2 + case % 4);
        let root = if case % 2 == 0 { Player::Max } else { Player::Min };
        let tree = Tree::parse(&text(b, d, &mut seed), root).unwrap();
        let truth = Searcher::new(&tree, Natural).run(Algorithm::AlphaBeta, &0).value;
        values.insert(truth as i64);
        let exact = Searcher::new(&tree, Natural).bisect(&0, -9.0, 9.0);
        assert_eq!(exact.value, truth, "case {case}");
        let table = Table::with_entries(64, Replacement::TwoTier);
        assert_eq!(Searcher::new(&tree, Natural).with_cache(table).bisect(&0, -9.0, 9.0).value, truth, "case {case}");
        let weak = Searcher::new(&tree, Natural).bisect(&0, -1.0, 1.0).value;
        assert_eq!(weak, truth.clamp(-1.0, 1.0), "case {case}: weak");
        // A best move is one that reaches the value.
        if let Some(best) = exact.best {
            let child = tree.child_of(0, best);
            assert_eq!(Searcher::new(&tree, Natural).run(Algorithm::AlphaBeta, &child).value, truth, "case {case}");
        }
    }
    assert!(values.len() > 5, "the trees' values vary: {values:?}");
    // The textbook's random tree b = 4, d = 6 (Python's generator, seed 42): 26.
    let params = Params { b: 4, d: 6, lo: 0, hi: 99, seed: 42, rng: Rng::Python };
    let tree = RandomTree::new(params).unwrap();
    assert_eq!(Searcher::new(&tree, Natural).bisect(&RandomTree::ROOT, 0.0, 99.0).value, 26.0);
}

/// A compact table, whose handle asks the loop for enhanced transposition cut-offs (`Cache::LOOKAHEAD`), kept
/// from one position to the next so that its entries settle nodes before their moves are searched: alpha-beta's
/// value on every position of 400 random lines of tic-tac-toe, strong and weak (where a cut-off taken from an
/// entry on the wrong side of the window would show).
#[test]
fn a_compact_table_and_its_lookahead_agree_with_alpha_beta() {
    let table = Arc::new(CompactTable::with_mib(1, 18).unwrap());
    let mut searcher = Searcher::new(&TicTacToe, Natural).with_cache(Compact::new(Arc::clone(&table)));
    let (mut positions, mut nodes) = (0, 0);
    for (_, p) in random_lines(&TicTacToe, &Board::EMPTY, 400, 0..8, 5) {
        if !matches!(TicTacToe.node(&p), Node::Decision(_)) {
            continue;
        }
        let truth = Searcher::new(&TicTacToe, Natural).run(Algorithm::AlphaBeta, &p).value;
        let (lo, hi) = if positions % 2 == 0 { (-1.0, 1.0) } else { (0.0, 1.0) };
        let solved = searcher.bisect(&p, lo, hi);
        assert_eq!(solved.value, truth.clamp(lo, hi), "{p:?}");
        nodes += solved.stats.nodes;
        positions += 1;
    }
    assert!(positions > 300, "{positions}");
    // The loop looked children up beyond the nodes it searched: the lookahead ran.
    let stats = searcher.cache().stats();
    assert!(stats.probes > nodes, "{} probes, {nodes} nodes", stats.probes);
}

/// Solves the decision positions of 300 seeded random lines of tic-tac-toe of `plies` plies, weakly, each
/// from the handle's smallest region, against alpha-beta, calling `then` with each: their number.
fn solved_from_small<N: NearEnd<TicTacToe>>(
    searcher: &mut Searcher<'_, TicTacToe, Natural, Compact<(), N>>,
    plies: std::ops::Range<usize>,
    seed: u64,
    mut then: impl FnMut(&Board),
) -> usize {
    let mut positions = 0;
    for (_, p) in random_lines(&TicTacToe, &Board::EMPTY, 300, plies, seed) {
        if !matches!(TicTacToe.node(&p), Node::Decision(_)) {
            continue;
        }
        let truth = Searcher::new(&TicTacToe, Natural).run(Algorithm::AlphaBeta, &p).value;
        searcher.cache_mut().start_small();
        assert_eq!(searcher.bisect(&p, -1.0, 1.0).value, truth, "{p:?}");
        then(&p);
        positions += 1;
    }
    positions
}

/// A handle that starts each search in a tiny region of the table and moves to larger ones, then to the whole,
/// as it stores entries (`Compact::growing`), often in the middle of a search: the entries stored in one region
/// are never taken in another, so every value is still alpha-beta's; and the handle did move on.
#[test]
fn a_growing_compact_handle_agrees_with_alpha_beta() {
    let table = Arc::new(CompactTable::with_mib(1, 18).unwrap());
    let regions = vec![table.region(1, 7).unwrap(), table.region(2, 60).unwrap(), table.region(3, 1000).unwrap()];
    let mut searcher = Searcher::new(&TicTacToe, Natural).with_cache(Compact::growing(Arc::clone(&table), regions));
    let positions = solved_from_small(&mut searcher, 0..8, 11, |_| ());
    assert!(positions > 200, "{positions}");
    // Some search reached the whole table (entries past the largest region's slots).
    assert_eq!(searcher.cache().reach(), table.capacity());
}

/// Boards of at least five marks, as near the end of the game.
struct FiveMarks;

impl NearEnd<TicTacToe> for FiveMarks {
    fn near_end(&self, _: &TicTacToe, board: &Board) -> bool {
        (board.x | board.o).count_ones() >= 5
    }
}

/// Solves positions `plies` plies into random games (from a small region each, as `solved_from_small`) with a
/// handle that keeps boards of five marks or more in `near` (`FiveMarks`), checking alpha-beta's values: the
/// positions solved, the keys of the boards of four and of five marks below them found in `near`, and the handle.
fn found_near_the_end(
    table: &CompactTable,
    handle: Compact<(), FiveMarks>,
    near: Region,
    plies: std::ops::Range<usize>,
    seed: u64,
) -> (usize, [Vec<u64>; 2], Compact<(), FiveMarks>) {
    let mut searcher = Searcher::new(&TicTacToe, Natural).with_cache(handle);
    let mut found = [Vec::new(), Vec::new()];
    let positions = solved_from_small(&mut searcher, plies, seed, |p| {
        // Boards of four and five marks below the root: in the near-end region, only those of five.
        let marks = (p.x | p.o).count_ones() as usize;
        for (_, board) in random_lines(&TicTacToe, p, 8, 4usize.saturating_sub(marks)..6 - marks, 1) {
            let marks = (board.x | board.o).count_ones() as usize;
            let key = TicTacToe.key(&board);
            if (4..=5).contains(&marks) && table.probe_in(key, near).is_some() {
                found[marks - 4].push(key);
            }
        }
    });
    (positions, found, searcher.into_cache())
}

/// A growing handle that keeps the boards near the end in a small region of their own once it has climbed past
/// that region's size (`Compact::with_near_end`): alpha-beta's values; boards of five marks are found in that
/// region, and boards of four never.
#[test]
fn a_compact_handle_keeps_positions_near_the_end_apart() {
    let table = Arc::new(CompactTable::with_mib(1, 18).unwrap());
    let regions = vec![table.region(1, 7).unwrap(), table.region(2, 60).unwrap()];
    let near = table.region(3, 30).unwrap();
    let handle = Compact::growing(Arc::clone(&table), regions).with_near_end(Some(near), FiveMarks);
    let (positions, found, handle) = found_near_the_end(&table, handle, near, 0..4, 17);
    assert!(positions > 200, "{positions}");
    assert!(found[0].is_empty(), "boards of four marks in the near-end region: {:?}", found[0]);
    assert!(found[1].len() > 50, "{} boards of five marks found in the near-end region", found[1].len());
    assert_eq!(handle.reach(), table.capacity());
}

/// A near-end region that is a copy beyond the region in use (`CompactTable::beside`, as each thread of a
/// Connect-4 team takes one) is used from the start, though the region in use is no larger than it: the
/// handle never leaves its first region here, yet boards of five marks are found in the copy (and boards of four
/// never); its reach covers the copy, so that emptying the table that far empties the copy.
#[test]
fn a_near_end_copy_beyond_the_region_in_use_is_used_from_the_start() {
    let table = Arc::new(CompactTable::with_mib(1, 18).unwrap());
    let first = table.region(1, 1000).unwrap();
    // As large as the first region, which a handle in it would otherwise share with it.
    let near = table.beside(table.region(3, 1000).unwrap(), 1).unwrap();
    assert!(near.first() == first.end() && near.size() == first.size());
    let handle = Compact::growing(Arc::clone(&table), vec![first]).with_near_end(Some(near), FiveMarks);
    let (positions, found, handle) = found_near_the_end(&table, handle, near, 3..6, 23);
    assert!(positions > 200, "{positions}");
    assert!(found[0].is_empty(), "boards of four marks in the near-end copy: {:?}", found[0]);
    assert!(found[1].len() > 50, "{} boards of five marks found in the near-end copy", found[1].len());
    // The first region and the copy, never the whole table.
    assert_eq!(handle.reach(), near.end());
    table.clear_first(handle.reach());
    let left = found[1].iter().filter(|&&key| table.probe_in(key, near).is_some()).count();
    assert_eq!(left, 0, "entries of the copy left after emptying the table to the handle's reach");
}

/// The near-end region has a tag of its own: one of the ladder's would mix the entries of regions of different
/// sizes.
#[test]
#[should_panic(expected = "a tag of its own")]
fn a_near_end_region_with_a_ladders_tag_is_refused() {
    let table = Arc::new(CompactTable::with_mib(1, 18).unwrap());
    let regions = vec![table.region(1, 7).unwrap(), table.region(2, 60).unwrap()];
    let _ = Compact::growing(Arc::clone(&table), regions).with_near_end(table.region(2, 30).ok(), FiveMarks);
}

/// Two threads whose growing handles climb the ladder as a team (`Compact::in_team`), solving each position
/// together (ABDADA): every value is alpha-beta's, whichever thread moved the team on (and its entries) and
/// whenever the other followed; and the team did reach the whole table. The same within every ply (9), within
/// the first two (the loop's team instance above, its lone one below, a moot search returning only from the
/// first two plies) and none (no search ever moot: both threads finish every pass).
#[test]
fn a_team_of_growing_handles_agrees_with_alpha_beta() {
    for plies in [9, 2, 0] {
        let table = Arc::new(CompactTable::with_mib(1, 18).unwrap());
        let (team, step) = (Arc::new(Team::new(8)), Arc::new(AtomicUsize::new(0)));
        let mut searchers: Vec<_> = (0..2)
            .map(|_| {
                let regions = vec![table.region(1, 7).unwrap(), table.region(2, 60).unwrap()];
                let handle = Compact::growing(Arc::clone(&table), regions).in_team(Arc::clone(&step), 2);
                Searcher::new(&TicTacToe, Natural).with_cache(Abdada::new(handle, Arc::clone(&team), plies))
            })
            .collect();
        let mut positions = 0;
        for (_, p) in random_lines(&TicTacToe, &Board::EMPTY, 200, 0..6, 5) {
            if !matches!(TicTacToe.node(&p), Node::Decision(_)) {
                continue;
            }
            let truth = Searcher::new(&TicTacToe, Natural).run(Algorithm::AlphaBeta, &p).value;
            team.reset();
            for searcher in &mut searchers {
                searcher.cache_mut().restart();
                searcher.cache_mut().inner_mut().start_small();
            }
            let values: Vec<_> = std::thread::scope(|scope| {
                let threads: Vec<_> = searchers
                    .iter_mut()
                    .map(|searcher| scope.spawn(move || searcher.bisect(&p, -1.0, 1.0).value))
                    .collect();
                threads.into_iter().map(|thread| thread.join().unwrap()).collect()
            });
            assert_eq!(values, [truth, truth], "{p:?}, team within {plies} plies");
            positions += 1;
        }
        assert!(positions > 100, "{positions}");
        let reach = searchers.iter().map(|searcher| searcher.cache().inner().reach()).max();
        assert_eq!(reach, Some(table.capacity()), "team within {plies} plies");
    }
}

/// Tic-tac-toe's mirror left–right, of its `SYMMETRIES`.
const MIRROR: usize = 4;

/// Tic-tac-toe's mirror left–right as a compact table's symmetry.
struct LeftRight;

impl KeySymmetry<TicTacToe> for LeftRight {
    fn key(&self, game: &TicTacToe, board: &Board) -> (u64, bool) {
        let (key, image) = (game.key(board), game.key(&board.transformed(&SYMMETRIES[MIRROR])));
        if image < key { (image, true) } else { (key, false) }
    }

    fn image(&self, _: &TicTacToe, cell: u8) -> u8 {
        SYMMETRIES[MIRROR][cell as usize]
    }
}

/// A compact handle storing a board and its mirror image under one key: alpha-beta's values, and each board's
/// best move found in the table is the image of its image's (a move stored in the wrong frame would show on every
/// asymmetric board whose best move is off the middle column).
#[test]
fn a_compact_handle_with_a_symmetry_keeps_moves_in_each_images_frame() {
    let table = Arc::new(CompactTable::with_mib(1, 18).unwrap());
    let handle = Compact::new(Arc::clone(&table)).with_symmetry(LeftRight);
    let mut searcher = Searcher::new(&TicTacToe, Natural).with_cache(handle);
    let (mut positions, mut off_middle) = (0, 0);
    for (_, p) in random_lines(&TicTacToe, &Board::EMPTY, 300, 0..7, 3) {
        let Node::Decision(player) = TicTacToe.node(&p) else { continue };
        let truth = Searcher::new(&TicTacToe, Natural).run(Algorithm::AlphaBeta, &p).value;
        assert_eq!(searcher.bisect(&p, -1.0, 1.0).value, truth, "{p:?}");
        let image = p.transformed(&SYMMETRIES[MIRROR]);
        if image == p {
            // Its own image: one frame.
            continue;
        }
        let mut best = |board: &Board| {
            searcher
                .cache_mut()
                .probe(&TicTacToe, board, player, UNLIMITED, -1.0, 1.0)
                .best
                .expect("solved, with a move")
        };
        let (mv, image_mv) = (best(&p), best(&image));
        assert_eq!(image_mv, SYMMETRIES[MIRROR][mv as usize], "{p:?}: best {mv}, its image's {image_mv}");
        let cells = p.x | p.o;
        assert_eq!(cells & 1 << mv, 0, "{p:?}: {mv} is empty");
        off_middle += usize::from(mv % 3 != 1);
        positions += 1;
    }
    assert!(positions > 200 && off_middle > 100, "{positions} positions, {off_middle} best off the middle");
}
