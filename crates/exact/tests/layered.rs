//! Layered backward induction checked against plain negamax: on small games of the Bagh-Chal family, every
//! position of the placement phase valued by the layered solver — win, loss or draw with its distance — is the
//! value a plain recursion over the game tree finds from it, the sliding phase's positions valued by retrograde
//! analysis at the leaves; the tables are the same on one thread and two; a space whose stages are not
//! acyclic is refused.

use khela_exact::layered::{self, LayeredError, Packed, Wdl};
use khela_exact::retro::{self, Outcome, OutcomeTable};
use khela_games::bagh_chal::placement::PlacementPhase;
use khela_games::bagh_chal::sliding::SlidingPhase;
use khela_games::bagh_chal::{BaghChal, Position, Setup};
use khela_games::tictactoe::space::TicTacToeSpace;
use khela_games::{Game, Node, Player, Space};

fn variant(size: u8, tigers: &[&str], goats: u8, captures_to_win: u8) -> BaghChal {
    let tigers = tigers.iter().map(|t| t.to_string()).collect();
    BaghChal::new(&Setup { size, tigers, goats, captures_to_win, ..Setup::bagh_chal() }).unwrap()
}

/// The value of `s` for its side to move by plain negamax over the game tree down to the sliding phase, whose
/// positions `slid` values: the quickest win, else a draw, else the slowest loss.
fn negamax(game: &BaghChal, sliding: &SlidingPhase, slid: &OutcomeTable, s: &Position) -> Outcome {
    let mover = if s.goats_to_move { Player::Max } else { Player::Min };
    match game.node(s) {
        Node::Terminal(payoff) => {
            return match mover.view(payoff) {
                v if v > 0.0 => Outcome::Win(0),
                v if v < 0.0 => Outcome::Loss(0),
                _ => Outcome::Draw,
            };
        }
        _ if s.in_hand == 0 => return slid.outcome(sliding, s).expect("a sliding-phase position"),
        _ => {}
    }
    let mut moves = Vec::new();
    game.moves(s, &mut moves);
    let values: Vec<Outcome> =
        moves.iter().map(|&mv| negamax(game, sliding, slid, &game.child(s, mv)).before()).collect();
    let quickest_win = values.iter().filter_map(|v| if let Outcome::Win(d) = v { Some(*d) } else { None }).min();
    let slowest_loss = values.iter().filter_map(|v| if let Outcome::Loss(d) = v { Some(*d) } else { None }).max();
    match (quickest_win, values.contains(&Outcome::Draw), slowest_loss) {
        (Some(d), _, _) => Outcome::Win(d),
        (None, true, _) => Outcome::Draw,
        (None, false, Some(d)) => Outcome::Loss(d),
        (None, false, None) => unreachable!("a decision node has moves"),
    }
}

/// The placement phase of `game` valued by layers, on `threads` threads.
fn layered_table(game: &BaghChal, threads: usize) -> (PlacementPhase, SlidingPhase, OutcomeTable, OutcomeTable) {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    pool.install(|| {
        let sliding = SlidingPhase::new(game, 0).unwrap();
        let slid = retro::solve(&sliding, |_| {}).unwrap();
        let placement = PlacementPhase::new(game).unwrap();
        let table = layered::solve(&placement, |s| slid.outcome(&sliding, s), |_| {}).unwrap();
        (placement, sliding, slid, table)
    })
}

#[test]
fn every_placement_position_has_plain_negamax_s_value() {
    for game in [variant(3, &["a1"], 4, 2), variant(3, &["b2"], 5, 1), variant(3, &["a1", "c3"], 4, 2)] {
        let (placement, sliding, slid, table) = layered_table(&game, 2);
        let mut seen = [0; 3];
        for i in 0..placement.len() {
            let Some(s) = placement.position(i) else { continue };
            let expected = negamax(&game, &sliding, &slid, &s);
            assert_eq!(table.get(i), Some(expected), "{s:?}");
            seen[retro::Census::slot(expected)] += 1;
        }
        assert!(seen.iter().all(|&n| n > 0), "wins, losses and draws all met: {seen:?}");
    }
}

#[test]
fn the_tables_are_the_same_on_one_thread_and_two() {
    let game = variant(5, &["a1"], 3, 2);
    let (.., one) = layered_table(&game, 1);
    let (.., two) = layered_table(&game, 2);
    assert_eq!(one, two);
}

/// Tic-tac-toe's positions numbered by their board (one stage of every number): a move leads into the same
/// stage, which the layered solver refuses, naming the position.
#[test]
fn a_space_whose_moves_stay_in_their_layer_is_refused() {
    let space = TicTacToeSpace::plain();
    let refused = layered::solve(&space, |_| None, |_| {}).unwrap_err();
    assert!(matches!(refused, LayeredError::Order { layer: 0, child_layer: 0, .. }), "{refused}");
}

/// The fast path for Bagh-Chal ([`layered::bagh_chal`]), layer by layer from the layer before: every number's
/// value is the generic solver's without its distance, and each slice's counts are its positions' — up to
/// symmetry and in full (each position counted as many times as it has images) — on variants with symmetric
/// tiger sets, captures that win and boards that fill; on one thread and two. The draws one goat mistake from
/// a loss are counted as a plain look at every move finds them.
#[test]
fn the_fast_path_values_every_number_as_the_generic_solver_does() {
    let variants = [
        variant(3, &["a1"], 4, 2),
        variant(3, &["b2"], 5, 1),
        variant(3, &["a1", "c3"], 6, 2),
        variant(5, &["a1"], 3, 2),
        variant(5, &["c3", "a1"], 4, 3),
    ];
    for game in variants {
        let (placement, sliding, slid, table) = layered_table(&game, 2);
        let solver = layered::bagh_chal::Solver::new(&placement);
        let outside = |captured: u8, board: u64| {
            let number = sliding.number(captured, board, false)?;
            slid.get(number).map(Wdl::of)
        };
        // Whether a move of `s` leads to a position its opponent wins: a mistake that loses.
        let has_losing_move = |s: &Position| {
            let mut moves = Vec::new();
            game.moves(s, &mut moves);
            moves.iter().any(|&mv| {
                let child = game.child(s, mv);
                let value = match placement.index(&child) {
                    Some(i) if !matches!(game.node(&child), Node::Terminal(_)) => table.get(i).unwrap(),
                    _ => negamax(&game, &sliding, &slid, &child),
                };
                matches!(value, Outcome::Win(_))
            })
        };
        let mut fragile = 0;
        let mut tables: Vec<Vec<Packed>> = vec![Vec::new(); 2];
        for (threads, tables) in [1, 2].into_iter().zip(&mut tables) {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            for (k, layer) in solver.layers().iter().enumerate() {
                let values = pool.install(|| solver.layer(k, tables.last(), &outside, &|_| {})).unwrap();
                for (j, i) in layer.numbers.clone().enumerate() {
                    assert_eq!(values.table.get(j as u64), table.get(i).map(Wdl::of), "{:?}", placement.position(i));
                }
                for ((slice, count), (_, numbers)) in values.slices.iter().zip(&layer.slices) {
                    let mut expected = layered::bagh_chal::SliceCount::default();
                    for i in numbers.clone() {
                        let Some(s) = placement.position(i) else { continue };
                        let value = Wdl::of(table.get(i).unwrap());
                        expected.canonical[value.slot()] += 1;
                        expected.full[value.slot()] += placement.multiplicity(&s);
                        if s.goats_to_move && value == Wdl::Draw && has_losing_move(&s) {
                            expected.fragile[0] += 1;
                            expected.fragile[1] += placement.multiplicity(&s);
                        }
                    }
                    assert_eq!(*count, expected, "{slice:?}");
                    fragile += count.fragile[0];
                }
                tables.push(values.table);
            }
        }
        assert_eq!(tables[0], tables[1], "one thread and two");
        assert!(fragile > 0, "some draws are one goat mistake from a loss");
        let missing = solver.layer(1, None, &outside, &|_| {}).unwrap_err();
        assert!(matches!(missing, LayeredError::Missing { layer: 1, .. }), "{missing}");
    }
}
