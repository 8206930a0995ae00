//! Connect-4's rules, notation and counts: parsing and refusals, wins in every direction, draws, board sizes,
//! keys, conformance and perft, each against a slower reference written here.

use khela_games::connect4::{Connect4, Position, SizeError};
use khela_games::{Game, Node, Notation, Player, Value, conformance};
use rand_core::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::collections::{HashMap, HashSet};

/// Parses `moves` on the standard board and checks the node it reaches, or a fragment of the error.
fn check(moves: &str, expected: Result<Node, &str>) {
    let game = Connect4::standard();
    match (game.parse(moves), expected) {
        (Ok(p), Ok(node)) => assert_eq!(game.node(&p), node, "{moves:?}"),
        (Err(err), Err(fragment)) => {
            let err = err.to_string();
            assert!(err.contains(fragment), "{moves:?}: {err}");
        }
        (got, expected) => panic!("{moves:?}: got {got:?}, expected {expected:?}"),
    }
}

const MAX: Result<Node, &str> = Ok(Node::Decision(Player::Max));
const MIN: Result<Node, &str> = Ok(Node::Decision(Player::Min));

fn won(value: Value) -> Result<Node, &'static str> {
    Ok(Node::Terminal(value))
}

#[test]
fn parse_and_refuse() {
    check("", MAX);
    check("4", MIN);
    check("4453", MAX);
    check("444444", MAX);
    check("7777771", MIN);
    check("4444444", Err("the move at index 6 plays column 4, which is already full"));
    check("x", Err("bad character 'x' at index 0; expected a column digit from 1 to 7"));
    check("120", Err("bad character '0' at index 2"));
    check("12348", Err("bad character '8' at index 4"));
    check("44 53", Err("bad character ' ' at index 2"));
    check("44é", Err("bad character 'é' at index 2"));
    check("11223345", Err("the move at index 7 (column 5) comes after the game was won by the move at index 6"));
    check("312121216", Err("the move at index 8 (column 6) comes after the game was won by the move at index 7"));
}

#[test]
fn wins_in_every_direction() {
    // Horizontal, bottom row, the first player's 4th stone: 22 - 4.
    check("1122334", won(18.0));
    // Horizontal, found from the left end: the last stone is the leftmost.
    check("4433221", won(18.0));
    // Horizontal for the second player, on its 4th stone, the 8th move.
    check("71122334", won(-18.0));
    // Vertical.
    check("1212121", won(18.0));
    check("31212121", won(-18.0));
    // Vertical at the top of a column: O has rows 3 to 6 of column 1, with its 5th stone.
    check("1211212131", won(-(22.0 - 5.0)));
    // Diagonal rising to the right, X's 6th stone (`diagonal_boards_look_right` shows the boards).
    check("1223433454", MAX);
    check("12234334544", won(22.0 - 6.0));
    // Diagonal rising to the left, the mirror image.
    check("76654554344", won(22.0 - 6.0));
    // Three in a row is not a win.
    check("112233", MAX);
    check("121212", MAX);
}

#[test]
fn diagonal_boards_look_right() {
    let game = Connect4::standard();
    let p = game.parse("12234334544").unwrap();
    assert_eq!(
        game.board_string(&p),
        "\
.......
.......
...X...
..XO...
.XOO...
XOOXX..
"
    );
    assert!(game.has_won(p.opponent()));
    let p = game.parse("76654554344").unwrap();
    assert_eq!(
        game.board_string(&p),
        "\
.......
.......
...X...
...OX..
...OOX.
..XXOOX
"
    );
    assert!(game.has_won(p.opponent()));
}

/// A drawn game on the full 7×6 board, found by a depth-first search that prefers low columns and avoids
/// winning moves: columns 1–3 and 5–7 read X, O, X, O, X, O upwards and column 4 the opposite.
const DRAWN_7X6: &str = "111111222222333333544444455555666666777777";

#[test]
fn full_boards_are_drawn() {
    let game = Connect4::standard();
    let p = game.parse(DRAWN_7X6).unwrap();
    assert!(game.is_full(&p));
    assert_eq!(game.node(&p), Node::Terminal(0.0));
    let mut moves = vec![9];
    game.moves(&p, &mut moves);
    assert!(moves.is_empty());

    // On a 4×4 board, columns filled in pairs of rows avoid every four.
    let small = Connect4::new(4, 4).unwrap();
    let p = small.parse("1234123443214321").unwrap();
    assert_eq!(
        small.board_string(&p),
        "\
OXOX
OXOX
XOXO
XOXO
"
    );
    assert_eq!(small.node(&p), Node::Terminal(0.0));
}

#[test]
fn a_win_that_fills_the_board_is_a_win() {
    // The second player's 21st stone, the 42nd move, makes four in column 7: worth 22 - 21 = 1 to it.
    check("111111222222333333544444455565766677576767", won(-1.0));
    // The second player's 8th stone, the 16th move, completes the top row of a 4×4 board: 1 + 8 - 8.
    let small = Connect4::new(4, 4).unwrap();
    let p = small.parse("1111222234334344").unwrap();
    assert_eq!(small.board_string(&p), "OOOO\nXXOX\nOOXX\nXXXO\n");
    assert_eq!(small.node(&p), Node::Terminal(-1.0));
}

#[test]
fn boards_at_the_edges_of_the_layout() {
    // On a 4×1 board each player gets two stones, and a single column alternates: both are always drawn.
    let row = Connect4::new(4, 1).unwrap();
    assert_eq!(row.node(&row.parse("1234").unwrap()), Node::Terminal(0.0));
    let column = Connect4::new(1, 7).unwrap();
    assert_eq!(column.node(&column.parse("1111111").unwrap()), Node::Terminal(0.0));
    // A 2×31 board uses 64 bits and has only vertical fours.
    let tall = Connect4::new(2, 31).unwrap();
    conformance::check(&tall, &[Position::EMPTY], 20, 4);
}

#[test]
fn payoffs() {
    let game = Connect4::standard();
    assert_eq!(game.win_score(7), 18);
    assert_eq!(game.win_score(8), 18);
    assert_eq!(game.win_score(9), 17);
    assert_eq!(game.win_score(41), 1);
    assert_eq!(game.win_score(42), 1);
    // On an odd-sized board the first player has one stone more to play: 13 and 12 on 5×5. A win is worth
    // one more than the stones the winner has left.
    let odd = Connect4::new(5, 5).unwrap();
    assert_eq!(odd.win_score(9), 1 + 13 - 5);
    assert_eq!(odd.win_score(8), 1 + 12 - 4);
    assert_eq!(odd.win_score(25), 1);
    assert_eq!(odd.win_score(24), 1);
}

#[test]
fn sizes() {
    assert!(Connect4::new(8, 7).is_ok());
    assert!(Connect4::new(1, 63).is_ok());
    assert!(Connect4::new(32, 1).is_ok());
    assert_eq!(Connect4::new(10, 6), Err(SizeError::TooLarge { width: 10, height: 6, bits: 70 }));
    assert!(
        Connect4::new(0, 6).unwrap_err().to_string().contains("0x6: the width and the height must both be at least 1")
    );
    assert_eq!(Connect4::default(), Connect4::standard());
    assert_eq!(std::mem::size_of::<Position>(), 16);
    assert_eq!(Connect4::standard().to_string(), "7x6");
}

/// Whether `stones` hold four in a row, cell by cell: the oracle for [`Connect4::has_won`].
fn naive_four(game: &Connect4, stones: u64) -> bool {
    let (w, h) = (game.width() as i32, game.height() as i32);
    let stone = |c: i32, r: i32| (0..w).contains(&c) && (0..h).contains(&r) && stones >> (c * (h + 1) + r) & 1 == 1;
    (0..w).any(|c| {
        (0..h).any(|r| {
            [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dr)| (0..4).all(|i| stone(c + i * dc, r + i * dr)))
        })
    })
}

#[test]
fn has_won_agrees_with_the_cell_by_cell_oracle() {
    // The boards at the edges of the layout (64 bits, narrow and tall, wide and flat) and the standard one.
    for (w, h) in [(7, 6), (8, 7), (4, 15), (16, 3), (32, 1), (2, 31), (1, 63), (5, 4)] {
        let game = Connect4::new(w, h).unwrap();
        let positions = random_positions(&game, 100, u64::from(w * 100 + h));
        // Random games on a single column alternate stones and are never won; on the others some are.
        assert_eq!(positions.iter().any(|p| game.is_won(p)), w > 1, "{game}");
    }
}

/// Plays seeded random games and cross-checks the primitives against each other along the way.
fn random_positions(game: &Connect4, games: usize, seed: u64) -> Vec<Position> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut p = Position::EMPTY;
        loop {
            out.push(p);
            assert_eq!(game.is_won(&p), naive_four(game, p.opponent()), "{p:?}");
            game.moves(&p, &mut moves);
            if !matches!(game.node(&p), Node::Decision(_)) {
                assert!(moves.is_empty());
                break;
            }
            assert_eq!(moves.len() as u32, game.count_legal(&p));
            assert!(!naive_four(game, p.current()));
            for &col in &moves {
                let mut child = p;
                game.play_col(&mut child, col);
                assert_eq!(game.is_winning_move(&p, col), game.is_won(&child));
            }
            let col = moves[rng.next_u32() as usize % moves.len()];
            game.play(&mut p, col);
        }
    }
    out
}

#[test]
fn keys_are_unique() {
    for game in [Connect4::standard(), Connect4::new(5, 4).unwrap(), Connect4::new(8, 7).unwrap()] {
        let mut seen: HashMap<u64, Position> = HashMap::new();
        for p in random_positions(&game, 300, 7) {
            if let Some(q) = seen.insert(game.key(&p), p) {
                assert_eq!(p, q, "{game}: {p:?} and {q:?} share a key");
            }
        }
    }
}

#[test]
fn mirror_images() {
    for game in [Connect4::standard(), Connect4::new(4, 5).unwrap(), Connect4::new(9, 6).unwrap()] {
        let mut rng = Pcg64Mcg::seed_from_u64(5);
        let mut moves = Vec::new();
        for _ in 0..100 {
            // A game and its mirror image, each column played in place of its image.
            let (mut p, mut image) = (Position::EMPTY, Position::EMPTY);
            while let Node::Decision(_) = game.node(&p) {
                game.moves(&p, &mut moves);
                let col = moves[rng.next_u32() as usize % moves.len()];
                game.play(&mut p, col);
                game.play(&mut image, game.width() as u8 - 1 - col);
                assert_eq!(game.mirrored(&p), image, "{game}: {p:?}");
                assert_eq!(game.mirrored(&image), p);
                assert_eq!(game.key(&image), game.mirror(game.key(&p)), "{game}: a key's image is the image's key");
                assert_eq!(game.node(&image), game.node(&p));
            }
        }
        let full = (0..game.width() as u8).fold(0, |cells, col| cells | game.column_cells(col));
        assert_eq!(game.mirror(full), full);
        assert_eq!(game.mirror(game.column_cells(0)), game.column_cells(game.width() as u8 - 1));
    }
}

#[test]
fn distinct_positions_per_ply() {
    // OEIS A212693, "Number of legal 7 X 6 Connect-Four positions after n plies" (John Tromp), plies 0 to 8.
    const DISTINCT: [usize; 9] = [1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275];
    let game = Connect4::standard();
    let mut level: HashSet<Position> = HashSet::from([Position::EMPTY]);
    for (ply, &count) in DISTINCT.iter().enumerate() {
        assert_eq!(level.len(), count, "positions after {ply} plies");
        let keys: HashSet<u64> = level.iter().map(|p| game.key(p)).collect();
        assert_eq!(keys.len(), count, "keys after {ply} plies");
        let mut next = HashSet::new();
        let mut moves = Vec::new();
        for p in &level {
            game.moves(p, &mut moves);
            next.extend(moves.iter().map(|&col| game.child(p, col)));
        }
        level = next;
    }
}

#[test]
fn notation() {
    let game = Connect4::standard();
    let p = game.parse_position("4453").unwrap();
    assert_eq!(p, game.parse("4453").unwrap());
    assert_eq!(game.picture(&p), game.board_string(&p) + "1234567");
    assert_eq!(game.picture(&p), ".......\n.......\n.......\n.......\n...O...\n..OXX..\n1234567");
    assert_eq!(game.parse_position(game.start().unwrap()), Ok(Position::EMPTY));
    assert_eq!((0..7).map(|col| game.write_move(col)).collect::<String>(), "1234567");
    assert_eq!([Player::Max, Player::Min].map(|p| game.player_name(p)), ["X", "O"]);
    assert!(game.parse_position("448").is_err());
    let wide = Connect4::new(12, 4).unwrap();
    assert_eq!(wide.write_move(11), "12");
}

#[test]
fn conforms() {
    let game = Connect4::standard();
    let roots = [Position::EMPTY, game.parse("4453").unwrap()];
    conformance::check(&game, &roots, 200, 1);
    conformance::check_notation(&game, &roots, 200, 1);
    conformance::check_actions(&game, &roots, 200, 1);
    let small = Connect4::new(4, 4).unwrap();
    conformance::check(&small, &[Position::EMPTY], 300, 2);
    conformance::check_notation(&small, &[Position::EMPTY], 300, 2);
    let narrow = Connect4::new(3, 5).unwrap();
    conformance::check(&narrow, &[Position::EMPTY], 100, 3);
    conformance::check_notation(&narrow, &[Position::EMPTY], 100, 3);
    conformance::check_actions(&narrow, &[Position::EMPTY], 100, 3);
}

/// Leaf nodes at depth `depth` below `p`, through the Game trait; won positions are not extended.
fn perft(game: &Connect4, p: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    game.moves(p, &mut moves);
    moves.iter().map(|&col| perft(game, &game.child(p, col), depth - 1)).sum()
}

/// The same count through the primitives, counting the last ply in bulk.
fn perft_bulk(game: &Connect4, p: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if game.is_won(p) {
        return 0;
    }
    if depth == 1 {
        return u64::from(game.count_legal(p));
    }
    (0..game.width() as u8)
        .filter(|&col| game.can_play(p, col))
        .map(|col| {
            let mut child = *p;
            game.play_col(&mut child, col);
            perft_bulk(game, &child, depth - 1)
        })
        .sum()
}

#[test]
fn perft_from_the_empty_board() {
    // 7^d, except that the 7 positions with one column filled by the first 6 moves have 6 children each.
    // No game is won before the 7th move, and positions won by it still count as leaves at depth 7.
    const COUNTS: [u64; 8] = [1, 7, 49, 343, 2401, 16807, 117649, 823536];
    let game = Connect4::standard();
    for (depth, &count) in COUNTS.iter().enumerate() {
        assert_eq!(perft_bulk(&game, &Position::EMPTY, depth as u32), count, "depth {depth}");
    }
    for (depth, &count) in COUNTS.iter().enumerate() {
        assert_eq!(perft(&game, &Position::EMPTY, depth as u32), count, "depth {depth}");
    }
}

/// The windows of four cells of a board that `mine` could still complete (none of `theirs` in them), weighed 1,
/// 3 and 9 for one, two and three stones of `mine`, window by window: the oracle for [`Connect4::open_windows`].
fn naive_windows(game: &Connect4, mine: u64, theirs: u64) -> i32 {
    let (w, h) = (game.width() as i32, game.height() as i32);
    let cell = |c: i32, r: i32| ((0..w).contains(&c) && (0..h).contains(&r)).then(|| 1u64 << (c * (h + 1) + r));
    let mut total = 0;
    for (c, r) in (0..w).flat_map(|c| (0..h).map(move |r| (c, r))) {
        for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            let Some(window) = (0..4).map(|i| cell(c + i * dc, r + i * dr)).collect::<Option<Vec<u64>>>() else {
                continue;
            };
            let stones = window.iter().filter(|&&cell| mine & cell != 0).count();
            if window.iter().all(|&cell| theirs & cell == 0) {
                total += [0, 1, 3, 9, 0][stones];
            }
        }
    }
    total
}

#[test]
fn open_windows_agree_with_the_window_by_window_oracle() {
    // The standard board, the edges of the layout (tall and narrow boards shift past 64 bits), and small ones.
    for (w, h) in [(7, 6), (8, 7), (4, 15), (16, 3), (32, 1), (2, 31), (1, 63), (5, 4)] {
        let game = Connect4::new(w, h).unwrap();
        for p in random_positions(&game, 30, u64::from(w * 1000 + h)) {
            let (x, o) = (p.current(), p.opponent());
            assert_eq!(game.open_windows(x, o), naive_windows(&game, x, o), "{game} {p:?}");
            assert_eq!(game.open_windows(o, x), naive_windows(&game, o, x), "{game} {p:?}");
        }
    }
}

/// The threat orders against an oracle built from `naive_four` and `naive_windows`: each move's threats are the
/// empty cells, once it is made, where one more stone of the mover completes four, found cell by cell; ties go
/// to the centre, then outwards, the left column of two first (the order of Pons' solver), or before that, with
/// the windows, to the move after which the mover's open windows most exceed the opponent's. Positions with a
/// win on the move are left out: a move that wins is not told apart (searches settle such a node before they
/// order it).
#[test]
fn moves_are_ordered_by_the_threats_they_make() {
    let (mut ordered_differently, mut windows_differ) = (0, 0);
    // The standard board's moves go two at a time through a vector's lanes: both an odd and an even count of
    // them are seen (a full column makes the count even).
    let mut standard_counts = [0; 2];
    // The standard height from 4 to 9 columns (the vector's lanes), other heights, and boards too narrow for a
    // row of four.
    for (w, h) in [(7, 6), (4, 6), (9, 6), (8, 7), (5, 4), (16, 3), (3, 6), (2, 5)] {
        let game = Connect4::new(w, h).unwrap();
        let cells = (0..w).flat_map(|c| (0..h).map(move |r| 1u64 << (c * (h + 1) + r)));
        let centre = (w / 2) as i64;
        // centre, one left, one right, two left, …
        let rank = |col: u8| (0..w as i64).position(|i| centre + (1 - 2 * (i % 2)) * ((i + 1) / 2) == i64::from(col));
        for p in random_positions(&game, 20, u64::from(w * 10 + h)) {
            let Node::Decision(_) = game.node(&p) else { continue };
            let mut moves = Vec::new();
            game.moves(&p, &mut moves);
            if moves.iter().any(|&col| game.is_winning_move(&p, col)) {
                continue;
            }
            let threats = |col: u8| {
                let child = game.child(&p, col);
                let mover = child.opponent();
                cells.clone().filter(|&cell| child.mask() & cell == 0 && naive_four(&game, mover | cell)).count()
            };
            let mut expected = moves.clone();
            expected.sort_by_key(|&col| (std::cmp::Reverse(threats(col)), rank(col)));
            let mut ordered = moves.iter().rev().copied().collect::<Vec<_>>();
            game.order_moves(&p, &mut ordered);
            assert_eq!(ordered, expected, "{game} {p:?}");
            let by_threats = ordered;
            let lead = |col: u8| {
                let child = game.child(&p, col);
                naive_windows(&game, child.opponent(), child.current())
                    - naive_windows(&game, child.current(), child.opponent())
            };
            expected.sort_by_key(|&col| (std::cmp::Reverse(threats(col)), std::cmp::Reverse(lead(col)), rank(col)));
            let mut by_windows = moves.iter().rev().copied().collect::<Vec<_>>();
            game.order_by_threats_then_windows(&p, &mut by_windows);
            assert_eq!(by_windows, expected, "windows: {game} {p:?}");
            windows_differ += usize::from(by_windows != by_threats);
            if (w, h) == (7, 6) {
                standard_counts[moves.len() % 2] += 1;
            }
            ordered_differently += usize::from(by_threats != moves);
        }
    }
    assert!(ordered_differently > 100, "only {ordered_differently} positions ordered");
    assert!(windows_differ > 100, "only {windows_differ} positions ordered otherwise by the windows");
    assert!(standard_counts.iter().all(|&n| n > 0), "even and odd counts of moves: {standard_counts:?}");
}
