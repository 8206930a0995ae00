//! The evaluators against their oracles: the textbook's open-lines figures, a cell-by-cell count of Connect-4's
//! windows and threats, and brute force (play the move, see who wins) for the noisy moves; on every reachable
//! tic-tac-toe position and on seeded random Connect-4 positions of several board sizes.

use khela_games::Evaluator;
use khela_games::conformance::reachable;
use khela_games::connect4::{Connect4, Position};
use khela_games::tictactoe::{Board, TicTacToe};
use khela_games::{Game, Node, Player, Value};
use khela_heuristic::connect4::{GOOD_THREAT, OTHER_THREAT, TERMS, Threats, WINDOW};
use khela_heuristic::random::Noise;
use khela_heuristic::tictactoe::OpenLines;
use rand_core::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// The decision nodes among `states`, with their player.
fn decisions<'a, G: Game>(game: &'a G, states: &'a [G::State]) -> impl Iterator<Item = (&'a G::State, Player)> + 'a {
    states.iter().filter_map(move |s| match game.node(s) {
        Node::Decision(player) => Some((s, player)),
        _ => None,
    })
}

/// Checks the promises every evaluator makes at a decision node: the estimate within ±bound, the terms adding
/// up to it, and the noisy moves those of `moves` for which `is_noisy` holds, in natural order.
fn check_state<G: Game, E: Evaluator<G>>(
    game: &G,
    evaluator: &E,
    state: &G::State,
    is_noisy: impl Fn(G::Move) -> bool,
) {
    let estimate = evaluator.evaluate(game, state);
    assert!(estimate.abs() <= evaluator.bound(), "{state:?}: estimate {estimate} beyond ±{}", evaluator.bound());
    let total: Value = evaluator.terms(game, state).iter().map(|&(_, v)| v).sum();
    assert_eq!(total, estimate, "{state:?}: the terms {:?}", evaluator.terms(game, state));
    let mut moves = Vec::new();
    game.moves(state, &mut moves);
    moves.retain(|&mv| is_noisy(mv));
    let mut noisy = vec![];
    evaluator.noisy(game, state, &mut noisy);
    assert_eq!(noisy, moves, "{state:?}: noisy moves");
}

/// Checks that `terminal` (of an evaluator for the game given) keeps draws at 0 and puts `payoffs` (ascending,
/// positive) beyond ±bound in order.
fn check_terminal<G: Game, E: Evaluator<G>>(_: &G, evaluator: &E, payoffs: &[Value]) {
    assert_eq!(evaluator.terminal(0.0), 0.0);
    let mut scale: Vec<Value> = payoffs.iter().map(|&p| evaluator.terminal(-p)).rev().collect();
    scale.extend(payoffs.iter().map(|&p| evaluator.terminal(p)));
    assert!(scale.windows(2).all(|w| w[0] < w[1]), "terminal values out of order: {scale:?}");
    assert!(scale.iter().all(|v| v.abs() > evaluator.bound()), "terminal values within the bound: {scale:?}");
}

// Tic-tac-toe.

fn board(text: &str) -> Board {
    TicTacToe::parse(text).unwrap()
}

#[test]
fn open_lines_after_the_first_move() {
    // The textbook's figures: center 4, corner 3, edge 2 (X has 8 open lines, O 4, 5 or 6).
    let expected = [3.0, 2.0, 3.0, 2.0, 4.0, 2.0, 3.0, 2.0, 3.0];
    for (cell, &value) in expected.iter().enumerate() {
        let state = TicTacToe.child(&Board::EMPTY, cell as u8);
        assert_eq!(OpenLines.evaluate(&TicTacToe, &state), value, "X on cell {cell}");
        assert_eq!(OpenLines.terms(&TicTacToe, &state), [("x_open", 8.0), ("o_open", value - 8.0)]);
    }
    assert_eq!(OpenLines.evaluate(&TicTacToe, &Board::EMPTY), 0.0);
}

#[test]
fn open_lines_two_plies() {
    // The textbook's figures: X's move, then O's best reply (the minimum of the estimates): center 1, corner −1,
    // edge −2. No game ends in two plies.
    let reply = |x: u8| {
        let state = TicTacToe.child(&Board::EMPTY, x);
        let mut moves = Vec::new();
        TicTacToe.moves(&state, &mut moves);
        moves
            .iter()
            .map(|&o| OpenLines.evaluate(&TicTacToe, &TicTacToe.child(&state, o)))
            .fold(Value::INFINITY, f64::min)
    };
    assert_eq!([reply(4), reply(0), reply(1)], [1.0, -1.0, -2.0]);
    // O's best reply to the center is a corner, to a corner the center, to an edge the center.
    assert_eq!(OpenLines.evaluate(&TicTacToe, &board("O...X....")), 1.0);
    assert_eq!(OpenLines.evaluate(&TicTacToe, &board("X...O....")), -1.0);
    assert_eq!(OpenLines.evaluate(&TicTacToe, &board(".X..O....")), -2.0);
}

#[test]
fn open_lines_on_every_reachable_position() {
    let states = reachable(&TicTacToe, Board::EMPTY);
    assert_eq!(states.len(), 5478);
    for (b, player) in decisions(&TicTacToe, &states) {
        // Brute force: the mover wins by playing there, or the opponent would have won by playing there.
        let wins = |board: Board| board.winner().is_some();
        let is_noisy = |cell: u8| {
            let stone = 1 << cell;
            let (mine, theirs) = match player {
                Player::Max => (Board { x: b.x | stone, ..*b }, Board { o: b.o | stone, ..*b }),
                Player::Min => (Board { o: b.o | stone, ..*b }, Board { x: b.x | stone, ..*b }),
            };
            wins(mine) || wins(theirs)
        };
        check_state(&TicTacToe, &OpenLines, b, is_noisy);
    }
    check_terminal(&TicTacToe, &OpenLines, &[1.0]);
    assert_eq!(OpenLines.terminal(-1.0), -100.0);
}

#[test]
fn open_lines_noisy_moves() {
    let noisy = |text: &str| {
        let mut moves = Vec::new();
        OpenLines.noisy(&TicTacToe, &board(text), &mut moves);
        moves
    };
    assert_eq!(noisy("........."), [] as [u8; 0]);
    assert_eq!(noisy("XX..O...."), [2]); // O must block the top row.
    assert_eq!(noisy("XX.OO...."), [2, 5]); // X wins at 2; O would win at 5.
    assert_eq!(noisy("X...O...X"), [] as [u8; 0]); // Nobody has two in an open line.
    assert_eq!(noisy("XO.XO...."), [6, 7]); // X wins at 6, O at 7.
}

// Connect-4.

/// The board sizes checked: the standard one, the layout's extremes, odd heights and boards too narrow or too low
/// for some directions.
const SIZES: [(u32, u32); 9] = [(7, 6), (8, 7), (6, 7), (5, 4), (4, 4), (3, 5), (16, 3), (32, 1), (2, 31)];

/// Seeded random games on `game`: every position they pass through, terminal ones included.
fn random_positions(game: &Connect4, games: usize, seed: u64) -> Vec<Position> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut p = Position::EMPTY;
        loop {
            positions.push(p);
            game.moves(&p, &mut moves);
            if moves.is_empty() {
                break;
            }
            game.play(&mut p, moves[rng.next_u32() as usize % moves.len()]);
        }
    }
    positions
}

/// The cell (column, row) as a bit, or `None` off the board.
fn cell(game: &Connect4, col: i32, row: i32) -> Option<u64> {
    let (w, h) = (game.width() as i32, game.height() as i32);
    ((0..w).contains(&col) && (0..h).contains(&row)).then(|| 1 << (col * (h + 1) + row))
}

/// Every window of four on the board, as its four cells, one direction after another, cell by cell.
fn windows(game: &Connect4) -> Vec<[u64; 4]> {
    let (w, h) = (game.width() as i32, game.height() as i32);
    let mut out = Vec::new();
    for (dc, dr) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
        for col in 0..w {
            for row in 0..h {
                let cells: Option<Vec<u64>> = (0..4).map(|i| cell(game, col + i * dc, row + i * dr)).collect();
                if let Some(cells) = cells {
                    out.push(cells.try_into().unwrap());
                }
            }
        }
    }
    out
}

/// The terms of the threat evaluator counted naively: window by window, then empty cell by empty cell.
fn naive_terms(game: &Connect4, p: &Position) -> [Value; 5] {
    let (x, o) =
        if p.moves_played().is_multiple_of(2) { (p.current(), p.opponent()) } else { (p.opponent(), p.current()) };
    let mut terms = [0; 5];
    let windows = windows(game);
    for window in &windows {
        let count = |stones: u64| window.iter().filter(|&&c| stones & c != 0).count();
        match (count(x), count(o)) {
            (k @ 1..=3, 0) => terms[k - 1] += WINDOW[k - 1],
            (0, k @ 1..=3) => terms[k - 1] -= WINDOW[k - 1],
            _ => {}
        }
    }
    // A threat: some window through the empty cell has the player's stones in its three other cells.
    let threat = |stones: u64, col: i32, row: i32| {
        cell(game, col, row).is_some_and(|c| {
            p.mask() & c == 0
                && windows.iter().any(|win| win.contains(&c) && win.iter().all(|&d| d == c || stones & d != 0))
        })
    };
    let (w, h) = (game.width() as i32, game.height() as i32);
    for col in 0..w {
        for row in 0..h {
            let odd_row = row % 2 == 0; // Rows numbered from 1 at the bottom.
            // Dead: the opponent threatens the cell below.
            if threat(x, col, row) && !threat(o, col, row - 1) {
                terms[3] += if odd_row { GOOD_THREAT } else { OTHER_THREAT };
            }
            if threat(o, col, row) && !threat(x, col, row - 1) {
                terms[4] -= if odd_row { OTHER_THREAT } else { GOOD_THREAT };
            }
        }
    }
    terms.map(Value::from)
}

#[test]
fn threats_bound_on_the_standard_board() {
    let game = Connect4::standard();
    // 24 horizontal, 21 vertical and 2 × 12 diagonal windows at the three-stone weight, 42 cells at the
    // good-threat weight.
    assert_eq!(windows(&game).len(), 69);
    assert_eq!(Threats::new(&game).bound(), Value::from(69 * WINDOW[2] + 42 * GOOD_THREAT));
}

#[test]
fn threats_agree_with_the_cell_by_cell_count_and_brute_force() {
    for (w, h) in SIZES {
        let game = Connect4::new(w, h).unwrap();
        let threats = Threats::new(&game);
        let windows = windows(&game).len() as i32;
        assert_eq!(threats.bound(), Value::from(windows * WINDOW[2] + (w * h) as i32 * GOOD_THREAT), "{game}");
        let positions = random_positions(&game, 60, u64::from(w * 100 + h));
        let mut noisy_seen = 0;
        for (p, _) in decisions(&game, &positions) {
            let terms: Vec<Value> = threats.terms(&game, p).iter().map(|&(_, v)| v).collect();
            assert_eq!(terms, naive_terms(&game, p), "{game}: {}", game.board_string(p));
            // Brute force: the mover's stone there wins, or the opponent's would.
            let is_noisy = |col: u8| {
                let landing = game.legal_mask(p) & game.column_cells(col);
                game.is_won(&game.child(p, col)) || game.has_won(p.opponent() | landing)
            };
            check_state(&game, &threats, p, is_noisy);
            let mut noisy = Vec::new();
            threats.noisy(&game, p, &mut noisy);
            noisy_seen += usize::from(!noisy.is_empty());
        }
        // Random games end in wins, so some positions before the end are noisy (on boards with a four at all).
        assert!(noisy_seen > 0 || game.cells() < 7, "{game}: no noisy position in random games");
        let best = Value::from(game.win_score(7));
        check_terminal(&game, &threats, &(1..=best as i32).map(Value::from).collect::<Vec<_>>());
    }
}

#[test]
fn threat_terms_by_example() {
    let game = Connect4::standard();
    let threats = Threats::new(&game);
    let terms = |moves: &str| threats.terms(&game, &game.parse(moves).unwrap());
    let named = |values: [Value; 5]| TERMS.into_iter().zip(values).collect::<Vec<_>>();
    assert_eq!(terms(""), named([0.0; 5]));
    // One stone in the center column: 7 windows (4 horizontal, 1 vertical, 2 diagonal).
    assert_eq!(terms("4"), named([7.0, 0.0, 0.0, 0.0, 0.0]));
    // X has three in the bottom row (columns 3–5) with both ends open: two threats on row 1 (odd, good for X).
    let values = |moves: &str| terms(moves).iter().map(|&(_, v)| v).collect::<Vec<_>>();
    assert_eq!(values("33445")[3..], [Value::from(2 * GOOD_THREAT), 0.0]);
    // X has columns 1–3 of row 1 and O columns 1–3 of row 2: both threaten column 4, X on row 1 (odd, good for
    // X), O on row 2 (even, good for O), but O's threat is directly above X's, so it is dead.
    assert_eq!(values("1122337")[3..], [Value::from(GOOD_THREAT), 0.0]);
    // The other way round (X first plays elsewhere): O's threat on row 1 (odd, not O's parity), X's dead above it.
    assert_eq!(values("7112233")[3..], [0.0, -Value::from(OTHER_THREAT)]);
    // X's threat on row 2 (even, not X's parity) over a full cell: X has columns 1–3 of row 2 and column 4 of row
    // 1, so O's three in row 1 (columns 1–3) is blocked and threatens nothing.
    assert_eq!(values("4112233")[3..], [Value::from(OTHER_THREAT), 0.0]);
}

#[test]
fn noise_is_bounded_deterministic_and_spread() {
    let game = Connect4::standard();
    let positions = random_positions(&game, 50, 11);
    let noise = Noise { seed: 3, bound: Threats::new(&game).bound() };
    let other = Noise { seed: 4, ..noise };
    let estimates: Vec<Value> = decisions(&game, &positions).map(|(p, _)| noise.evaluate(&game, p)).collect();
    for (p, _) in decisions(&game, &positions) {
        check_state(&game, &noise, p, |_| false);
        assert_eq!(noise.evaluate(&game, p), noise.evaluate(&game, &p.clone()));
    }
    let differ = decisions(&game, &positions).filter(|(p, _)| noise.evaluate(&game, p) != other.evaluate(&game, p));
    assert_eq!(differ.count(), estimates.len(), "seeds 3 and 4 agree somewhere");
    // Uniform over ±bound: the mean near 0 and the spread near bound/√3 (within 10 % over these estimates).
    let n = estimates.len() as Value;
    let mean = estimates.iter().sum::<Value>() / n;
    let sd = (estimates.iter().map(|v| (v - mean).powi(2)).sum::<Value>() / n).sqrt();
    assert!(mean.abs() < 0.1 * noise.bound / 3f64.sqrt(), "mean {mean} over {n} estimates");
    assert!((sd / (noise.bound / 3f64.sqrt()) - 1.0).abs() < 0.1, "standard deviation {sd} over {n} estimates");
    let tictactoe = reachable(&TicTacToe, Board::EMPTY);
    let small = Noise { seed: 1, bound: 8.0 };
    for (b, _) in decisions(&TicTacToe, &tictactoe) {
        check_state(&TicTacToe, &small, b, |_| false);
    }
    check_terminal(&game, &noise, &[1.0, 2.0, 18.0]);
}

// The regional games.

/// Seeded random positions of `game` from `start`, from the first plies to the length cap.
fn random_line_positions<G: Game>(game: &G, start: &G::State, count: usize, seed: u64) -> Vec<G::State> {
    khela_games::conformance::random_lines(game, start, count, 1..200, seed).into_iter().map(|(_, s)| s).collect()
}

#[test]
fn crowding_on_random_bagh_chal_positions() {
    use khela_games::bagh_chal::{BaghChal, Setup, ends};
    use khela_heuristic::bagh_chal::Crowding;
    for setup in [Setup::bagh_chal(), Setup::bagh_bandi()] {
        let game = BaghChal::new(&setup).unwrap();
        let evaluator = Crowding::new(&game);
        let states = random_line_positions(&game, &game.start_position(), 400, 6);
        let mut hanging = 0;
        for (s, player) in decisions(&game, &states) {
            // A capture is a tiger's move that does not land next to where it started.
            let is_noisy = |mv| {
                let (from, to) = ends(mv);
                player == Player::Min && from.is_some_and(|from| game.board().adjacent(from) & 1 << to == 0)
            };
            check_state(&game, &evaluator, s, is_noisy);
            hanging += evaluator.terms(&game, s).iter().filter(|&&(name, v)| name == "exposed" && v < 0.0).count();
        }
        assert!(hanging > 0, "no exposed goat met");
        check_terminal(&game, &evaluator, &[1.0]);
    }
    let game = BaghChal::standard();
    assert_eq!(Crowding::new(&game).bound(), 264.0);
    // The start: the tigers have 12 steps, nothing else counts.
    let terms = Crowding::new(&game).terms(&game, &game.start_position());
    assert_eq!(terms, [("captured", -0.0), ("trapped", 0.0), ("mobility", -12.0), ("exposed", -0.0)]);
}

#[test]
fn soldiers_on_random_sixteen_soldiers_positions() {
    use khela_games::sixteen_soldiers::{Capture, SixteenSoldiers};
    use khela_heuristic::sixteen_soldiers::Soldiers;
    for capture in [Capture::Compulsory, Capture::Optional] {
        let game = SixteenSoldiers::new(capture);
        let states = random_line_positions(&game, &game.start_position(), 300, 7);
        for (s, _) in decisions(&game, &states) {
            check_state(&game, &Soldiers, s, |mv| SixteenSoldiers::jumps(mv) > 0);
        }
        check_terminal(&game, &Soldiers, &[1.0]);
    }
    let game = SixteenSoldiers::new(Capture::Compulsory);
    // The start is symmetric: every term is 0.
    assert_eq!(Soldiers.evaluate(&game, &game.start_position()), 0.0);
}
