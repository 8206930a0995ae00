//! The encoding contract ([`khela_zero::Encode`]) of every game, on random positions: legal moves map to
//! distinct actions in range; each symmetry maps a position's legal actions onto its image's, keeps the kind
//! of node, and rearranges the planes' values; the identity changes nothing.

use khela_games::Game;
use khela_games::bagh_chal::{BaghChal, Setup};
use khela_games::connect4::Connect4;
use khela_games::tictactoe::TicTacToe;
use khela_zero::Encode;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::collections::BTreeSet;

/// The positions of `games` random games from `start` (every position of each, the terminal one included).
fn positions<G: Game>(game: &G, start: &G::State, games: usize, seed: u64) -> Vec<G::State> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut state = start.clone();
        for _ in 0..200 {
            out.push(state.clone());
            game.moves(&state, &mut moves);
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
