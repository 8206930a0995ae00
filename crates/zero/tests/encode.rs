//! The encoding contract ([`khela_zero::Encode`]) of every game, on random positions: legal moves map to
//! distinct actions in range; each symmetry maps a position's legal actions onto its image's, keeps the kind
//! of node, and rearranges the planes' values; the identity changes nothing.

use khela_games::Game;
use khela_games::bagh_chal::{BaghChal, Setup};
use khela_games::connect4::Connect4;
use khela_games::dots_and_boxes::DotsAndBoxes;
use khela_games::einstein::{self, Einstein};
use khela_games::pig::Pig;
use khela_games::sixteen_soldiers::jumps::JumpByJump;
use khela_games::sixteen_soldiers::{Capture, SixteenSoldiers};
use khela_games::tictactoe::TicTacToe;
use khela_zero::Encode;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::collections::BTreeSet;

/// The positions of `games` random games from `start` (every position of each, the terminal one included; a
/// chance node's outcome drawn uniformly).
fn positions<G: Game>(game: &G, start: &G::State, games: usize, seed: u64) -> Vec<G::State> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut out = Vec::new();
    let (mut moves, mut outcomes) = (Vec::new(), Vec::new());
    for _ in 0..games {
        let mut state = start.clone();
        for _ in 0..200 {
            out.push(state.clone());
            game.moves(&state, &mut moves);
            game.outcomes(&state, &mut outcomes);
            moves.extend(outcomes.iter().map(|&(mv, _)| mv));
            if moves.is_empty() {
                break;
            }
            game.play(&mut state, moves[rng.random_range(0..moves.len())]);
        }
    }
    out
}

/// The legal actions of `state`.
fn actions<G: Encode>(game: &G, state: &G::State) -> BTreeSet<usize> {
    let mut moves = Vec::new();
    game.moves(state, &mut moves);
    moves.iter().map(|&mv| game.action(mv)).collect()
}

/// Checks the contract on `games` random games.
fn check<G: Encode>(game: &G, start: &G::State, games: usize, symmetries: usize) {
    assert_eq!(game.symmetry_count(), symmetries);
    let shape = game.shape();
    let (mut planes, mut image_planes) = (vec![f32::NAN; shape.len()], vec![f32::NAN; shape.len()]);
    let mut moves = Vec::new();
    for state in positions(game, start, games, 7) {
        game.moves(&state, &mut moves);
        let legal = actions(game, &state);
        assert_eq!(legal.len(), moves.len(), "two moves share an action in {state:?}");
        assert!(legal.iter().all(|&a| a < game.actions()), "an action out of range in {state:?}");
        game.encode(&state, &mut planes);
        assert!(planes.iter().all(|x| x.is_finite()), "a plane left unwritten in {state:?}");
        let largest = game.largest();
        assert!(planes.iter().all(|&x| (0.0..=largest).contains(&x)), "a value beyond 0..={largest} in {state:?}");
        assert_eq!(game.image(&state, 0), state);
        let sorted = |planes: &[f32]| {
            let mut by_plane: Vec<Vec<u32>> =
                planes.chunks(shape.cells()).map(|p| p.iter().map(|x| x.to_bits()).collect()).collect();
            by_plane.iter_mut().for_each(|p| p.sort());
            by_plane
        };
        for k in 0..symmetries {
            let image = game.image(&state, k);
            let mapped: BTreeSet<usize> = legal.iter().map(|&a| game.image_action(a, k)).collect();
            assert_eq!(actions(game, &image), mapped, "symmetry {k} of {state:?}");
            assert_eq!(game.node(&image), game.node(&state), "symmetry {k} of {state:?}");
            game.encode(&image, &mut image_planes);
            assert_eq!(sorted(&image_planes), sorted(&planes), "symmetry {k} of {state:?}");
        }
    }
}

#[test]
fn tictactoe() {
    check(&TicTacToe, &khela_games::tictactoe::Board::EMPTY, 200, 8);
}

#[test]
fn connect4() {
    let game = Connect4::standard();
    check(&game, &Default::default(), 100, 2);
    let small = Connect4::new(5, 4).unwrap();
    check(&small, &Default::default(), 100, 2);
}

#[test]
fn bagh_chal_and_bagh_bandi() {
    let game = BaghChal::standard();
    check(&game, &game.start_position(), 30, 8);
    let bandi = BaghChal::new(&Setup::bagh_bandi()).unwrap();
    check(&bandi, &bandi.start_position(), 30, 8);
}

#[test]
fn pig_einstein_and_dots_and_boxes() {
    let pig = Pig::with_die(20).unwrap();
    check(&pig, &pig.parse("0 0 0 first").unwrap(), 200, 1);
    let piglet = Pig::piglet(10).unwrap();
    check(&piglet, &piglet.parse("0 0 0 first").unwrap(), 200, 1);
    let setup = einstein::Setup::random(5);
    check(&Einstein::new(setup), &setup.state(), 50, 1);
    for (rows, cols) in [(2, 2), (3, 2), (4, 4)] {
        let dots = DotsAndBoxes::new(rows, cols).unwrap();
        check(&dots, &dots.start_position(), 50, 1);
    }
}

#[test]
fn sixteen_soldiers_jump_by_jump() {
    for capture in [Capture::Compulsory, Capture::Optional, Capture::Continue] {
        for quiet in [None, Some(30)] {
            let game = JumpByJump::new(SixteenSoldiers::new(capture).with_quiet_limit(quiet));
            check(&game, &JumpByJump::at(game.rules().start_position()), 30, 2);
        }
    }
}

/// Sixteen Soldiers' planes, written out at the start: X's 16 pieces on the bottom four rows (its triangle's six
/// points on files a, c, e and b, c, d), O's on the top four, the board's points, X to move.
#[test]
fn sixteen_soldiers_planes_put_the_triangles_on_the_grid() {
    let game = JumpByJump::new(SixteenSoldiers::new(Capture::Compulsory));
    let start = JumpByJump::at(game.rules().start_position());
    let mut planes = vec![f32::NAN; 5 * 45];
    game.encode(&start, &mut planes);
    let rows = |k: usize| -> Vec<String> {
        planes[k * 45..(k + 1) * 45]
            .chunks(5)
            .map(|row| {
                row.iter()
                    .map(|&x| match x {
                        1.0 => '1',
                        0.0 => '.',
                        _ => panic!("plane {k}: {x} is neither 0 nor 1"),
                    })
                    .collect()
            })
            .collect()
    };
    let triangle = ["1.1.1", ".111."];
    assert_eq!(rows(0)[5..], ["11111", "11111", triangle[1], triangle[0]], "X's pieces, the mover's");
    assert_eq!(rows(1)[..4], [triangle[0], triangle[1], "11111", "11111"], "O's");
    assert!(rows(0)[..5].iter().chain(&rows(1)[4..]).all(|row| row == "....."));
    assert_eq!(rows(2), vec![".....".to_string(); 9], "no chain under way");
    let points = [triangle[0], triangle[1], "11111", "11111", "11111", "11111", "11111", triangle[1], triangle[0]];
    assert_eq!(rows(3), points, "the board's 37 points");
    assert_eq!(rows(4), vec!["11111".to_string(); 9], "X to move");
}

/// Dots and Boxes' grid, written out on the 2 × 2 board after 1,3,4,6: the second player closed the top-left box
/// with 6 and moves again.
#[test]
fn dots_and_boxes_edges_and_boxes_fall_between_the_dots() {
    let game = DotsAndBoxes::two_by_two();
    let p = khela_games::Notation::parse_position(&game, "1,3,4,6").unwrap();
    let mut planes = vec![f32::NAN; 4 * 25];
    game.encode(&p, &mut planes);
    let ones = |k: usize| -> Vec<(usize, usize)> {
        (0..25).filter(|&i| planes[k * 25 + i] == 1.0).map(|i| (i / 5, i % 5)).collect()
    };
    assert_eq!(ones(0), [(0, 1), (1, 0), (1, 2), (2, 1)], "the edges drawn");
    assert_eq!(ones(1), [(1, 1)], "the mover's box");
    assert_eq!((ones(2), ones(3)), (vec![], vec![]), "none of the opponent's; the second player to move");
}

/// The planes of a known position, written out: tic-tac-toe's X at the centre and O in a corner, X to move.
#[test]
fn tictactoe_planes_are_the_movers_view() {
    let board = TicTacToe::parse("O...X....").unwrap();
    let mut planes = vec![0.0; 27];
    TicTacToe.encode(&board, &mut planes);
    let (own, other, side) = (&planes[..9], &planes[9..18], &planes[18..]);
    assert_eq!(own, [0., 0., 0., 0., 1., 0., 0., 0., 0.]);
    assert_eq!(other, [1., 0., 0., 0., 0., 0., 0., 0., 0.]);
    assert!(side.iter().all(|&x| x == 1.0));
    // O to move: the mover's plane is O's, and the side plane is 0.
    let board = TicTacToe::parse("O...X...X").unwrap();
    TicTacToe.encode(&board, &mut planes);
    assert_eq!(&planes[..9], [1., 0., 0., 0., 0., 0., 0., 0., 0.]);
    assert_eq!(&planes[9..18], [0., 0., 0., 0., 1., 0., 0., 0., 1.]);
    assert!(planes[18..].iter().all(|&x| x == 0.0));
}

/// Connect-4's planes have the top row first: after `4` (column 3, 0-based) the stone is on the bottom row.
#[test]
fn connect4_planes_have_the_top_row_first() {
    let game = Connect4::standard();
    let p = game.parse("4").unwrap();
    let mut planes = vec![0.0; 3 * 42];
    game.encode(&p, &mut planes);
    // O to move: its own plane is empty, the opponent's has the stone at row 5 (bottom), column 3.
    assert!(planes[..42].iter().all(|&x| x == 0.0));
    let stones: Vec<usize> = (0..42).filter(|&i| planes[42 + i] == 1.0).collect();
    assert_eq!(stones, [5 * 7 + 3]);
    assert!(planes[84..].iter().all(|&x| x == 0.0));
}
