//! EinStein's tests: setups, the die rule, captures, wins, notation, keys, and perft against a reference move
//! generator written here on a plain board array.

use super::*;
use crate::conformance::{self, perft};

fn state(text: &str) -> State {
    Einstein::parse(text).unwrap_or_else(|e| panic!("{e}"))
}

fn moves(s: &State) -> Vec<String> {
    let game = Einstein::new(Setup::random(0));
    let mut buf = Vec::new();
    game.moves(s, &mut buf);
    buf.into_iter().map(|m| game.write_move(m)).collect()
}

#[test]
fn setups_place_the_cubes_in_the_documented_order() {
    let setup = Setup::parse("123456/123456").unwrap();
    assert_eq!(Einstein::write(&setup.state()), "124../35.../6...d/...eb/..fca first");
    let game = Einstein::new(Setup::parse("615243/162534").unwrap());
    assert_eq!(game.start(), Some("612../54.../3...e/...cf/..dba first"));
    assert_eq!(setup.to_string(), "123456/123456");
    for bad in ["12345/123456", "123456", "123456/1234567", "113456/123456", "123457/123456", "abcdef/123456"] {
        assert_eq!(Setup::parse(bad), Err(ParseError::Setup(bad.into())), "{bad}");
    }
    // Seeded: the same seed, the same setup; the arrangements are permutations; seeds differ.
    assert_eq!(Setup::random(7), Setup::random(7));
    let drawn: std::collections::HashSet<String> = (0..50).map(|s| Setup::random(s).to_string()).collect();
    assert!(drawn.len() > 45);
    for seed in 0..50 {
        let setup = Setup::random(seed);
        assert_eq!(Setup::parse(&setup.to_string()), Ok(setup));
    }
}

#[test]
fn the_die_chooses_the_cube_or_its_nearest_neighbours() {
    // The first player's cubes 2 and 5 only.
    let s = |die: u8| state(&format!(".2.../...../..5../...../....a first {die}"));
    assert_eq!(moves(&s(2)), ["b1c1", "b1b2", "b1c2"]);
    assert_eq!(moves(&s(1)), ["b1c1", "b1b2", "b1c2"]); // No lower cube: the next higher.
    assert_eq!(moves(&s(3)), ["b1c1", "b1b2", "b1c2", "c3d3", "c3c4", "c3d4"]); // Both neighbours.
    assert_eq!(moves(&s(6)), ["c3d3", "c3c4", "c3d4"]);
    // The second player moves up and left; at the edge, fewer moves.
    let t = state("1..../...../...../a..../...b. second 1");
    assert_eq!(moves(&t), ["a4a3"]);
    let t = state("1..../...../...../a..../...b. second 2");
    assert_eq!(moves(&t), ["d5c4", "d5d4", "d5c5"]);
}

#[test]
fn captures_take_either_colour_and_wins_end_the_game() {
    let game = Einstein::new(Setup::random(0));
    let mut s = state("12.../a..../...../...../....f first 1");
    game.play(&mut s, Move::Step(0, 1)); // Onto its own cube 2.
    assert_eq!(Einstein::write(&s), ".1.../a..../...../...../....f second");
    assert_eq!(game.node(&s), Node::Chance);
    game.play(&mut s, Move::Roll(3));
    // Cube 3 gone: the nearest below (1, on a2) and above (6, on e5).
    assert_eq!(moves(&s), ["a2a1", "e5d4", "e5e4", "e5d5"]);
    let mut won = s;
    game.play(&mut won, Move::Step(5, 0));
    assert_eq!(game.node(&won), Node::Terminal(-1.0)); // The second player reached a1, capturing there.
    let mut taken = state("...../.1.../..a../...../....f second 1");
    game.play(&mut taken, Move::Step(12, 6));
    assert_eq!(game.node(&taken), Node::Terminal(-1.0)); // The first player's last cube removed.
    assert_eq!(game.node(&state("....1/...../...../...../..... second")), Node::Terminal(1.0));
    assert_eq!(game.node(&state("...../...../...../...../....1 second")), Node::Terminal(1.0));
}

#[test]
fn notation_round_trips_and_refuses() {
    for text in ["124../35.../6...d/...eb/..fca first", "1..../...../..a../.2.../....b second 5"] {
        assert_eq!(Einstein::write(&state(text)), text);
    }
    let err = |t: &str| Einstein::parse(t).unwrap_err().to_string();
    assert!(err("124../35.../6..../....f first").contains("five rows"));
    assert!(err("124../35.../6..../....f/...cb first 7").contains("the die's face \"7\" is not one: 1 to 6"));
    assert!(err("124../35.../6..../....f/...cb third").contains("\"third\" to move: the side is first or second"));
    assert!(err("124../35.../6..../....f/...cg first").contains("'g' on e5: a square holds '.'"));
    assert!(err("A24../35.../6..../....f/...cb first").contains("'A' on a1"));
    assert!(err("124../35.../6..../....f/...c1 first").contains("first's cube 1 stands on two squares"));
    assert!(err("a..../...../...../...../....1 first").contains("both players have won"));
    let game = Einstein::new(Setup::random(3));
    let start = game.parse_position(game.start().unwrap()).unwrap();
    let picture = game.picture(&start);
    assert!(
        picture.starts_with("   a b c d e\n1  ")
            && picture.ends_with("first (1-6) to move, the die about to be rolled")
    );
}

#[test]
fn conforms() {
    let roots: Vec<State> = (0..8).map(|seed| Setup::random(seed).state()).collect();
    let game = Einstein::new(Setup::random(0));
    conformance::check(&game, &roots, 50, 1);
    conformance::check_notation(&game, &roots, 10, 2);
    conformance::check_actions(&game, &roots, 30, 2);
}

/// The reference: a board of 25 squares, each 0 (empty), 1–6 (the first player's cubes) or 7–12 (the
/// second's), and the side to move; a turn is a roll and a move, generated from the rules' words.
#[derive(Clone)]
struct Board {
    squares: [u8; 25],
    second: bool,
}

impl Board {
    fn of(s: &State) -> Board {
        let mut squares = [0; 25];
        for p in 0..2 {
            for c in 0..6 {
                if s.cubes[p][c] != GONE {
                    squares[usize::from(s.cubes[p][c])] = (p * 6 + c + 1) as u8;
                }
            }
        }
        Board { squares, second: s.second_to_move }
    }

    fn over(&self) -> bool {
        let firsts = self.squares.iter().filter(|&&v| (1..=6).contains(&v)).count();
        let seconds = self.squares.iter().filter(|&&v| v >= 7).count();
        (1..=6).contains(&self.squares[24]) || self.squares[0] >= 7 || firsts == 0 || seconds == 0
    }

    /// The boards after every roll and legal move, roll by roll.
    fn turns(&self) -> Vec<Board> {
        let base = if self.second { 6 } else { 0 };
        let mut out = Vec::new();
        for roll in 1..=6u8 {
            let present = |n: u8| self.squares.contains(&(base + n));
            let cubes: Vec<u8> = if present(roll) {
                vec![roll]
            } else {
                let lower = (1..roll).rev().find(|&n| present(n));
                let higher = (roll + 1..=6).find(|&n| present(n));
                lower.into_iter().chain(higher).collect()
            };
            for n in cubes {
                let from = self.squares.iter().position(|&v| v == base + n).unwrap();
                let (r, c) = ((from / 5) as i32, (from % 5) as i32);
                let dirs = if self.second { [(0, -1), (-1, 0), (-1, -1)] } else { [(0, 1), (1, 0), (1, 1)] };
                for (dr, dc) in dirs {
                    let (nr, nc) = (r + dr, c + dc);
                    if (0..5).contains(&nr) && (0..5).contains(&nc) {
                        let mut next = self.clone();
                        next.squares[(nr * 5 + nc) as usize] = base + n;
                        next.squares[from] = 0;
                        next.second = !self.second;
                        out.push(next);
                    }
                }
            }
        }
        out
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.over() {
            return 0;
        }
        self.turns().iter().map(|b| b.perft(depth - 1)).sum()
    }
}

#[test]
fn perft_agrees_with_the_reference() {
    let game = Einstein::new(Setup::random(0));
    for seed in 0..6 {
        let start = Setup::random(seed).state();
        for depth in 1..=4 {
            assert_eq!(perft(&game, &start, depth), Board::of(&start).perft(depth), "setup {seed}, depth {depth}");
        }
    }
    // From positions deep in random games too (captures, cubes gone, wins).
    let lines = conformance::random_lines(&game, &Setup::random(9).state(), 200, 6..30, 4);
    for (_, s) in lines {
        let mut before = s;
        before.die = 0;
        assert_eq!(perft(&game, &before, 3), Board::of(&before).perft(3), "{}", Einstein::write(&before));
    }
}

#[test]
fn keys_are_unique() {
    let game = Einstein::new(Setup::random(0));
    let mut seen = std::collections::HashMap::new();
    let lines = conformance::random_lines(&game, &Setup::random(1).state(), 500, 1..40, 5);
    for (_, s) in lines {
        for die in 0..=6 {
            let t = State { die, ..s };
            if let Some(other) = seen.insert(game.key(&t), t) {
                assert_eq!(other, t, "two states share a key");
            }
        }
    }
}
