//! Perft of Bagh-Chal and Sixteen Soldiers against move generators written here from the rules alone: boards
//! as maps from coordinates to pieces, lines as runs of coordinates, chains of captures by plain recursion —
//! nothing shared with the games' bitboards but the position notation. From the start (the figures:
//! Bagh-Chal 21 and 252; Sixteen Soldiers 9, then 21 with compulsory capture and 69 without; Bagh-Bandi's
//! stacks of goats as heights on the points) and from seeded random positions of the middle game, where
//! captures, chains and half-emptied stacks happen.

use khela_games::Game;
use khela_games::bagh_chal::{BaghChal, Setup};
use khela_games::conformance::{perft, random_lines};
use khela_games::sixteen_soldiers::{Capture, SixteenSoldiers};
use std::collections::BTreeMap;

type Point = (i32, i32);

/// Bagh-Bandi's move sequences from the start, plies 1–4.
const BANDI_PERFT: [u64; 4] = [13, 360, 3_298, 94_892];

/// A board: the lines (runs of points in order along a straight line) and the pieces on it.
#[derive(Clone)]
struct Board {
    lines: Vec<Vec<Point>>,
    pieces: BTreeMap<Point, char>,
}

impl Board {
    /// The points next to `p` along a line, with the point after it on the same line (if any).
    fn neighbours(&self, p: Point) -> Vec<(Point, Option<Point>)> {
        let mut out = Vec::new();
        for line in &self.lines {
            if let Some(i) = line.iter().position(|&q| q == p) {
                if i + 1 < line.len() {
                    out.push((line[i + 1], line.get(i + 2).copied()));
                }
                if i > 0 {
                    out.push((line[i - 1], i.checked_sub(2).map(|j| line[j])));
                }
            }
        }
        out
    }

    fn empty(&self, p: Point) -> bool {
        !self.pieces.contains_key(&p)
    }
}

/// The lines of the 5 × 5 alquerque grid with ranks `r0..r0 + 5`: ranks, files, and the diagonals through the
/// points whose (file + rank − r0) is even.
fn grid_lines(r0: i32) -> Vec<Vec<Point>> {
    let mut lines = Vec::new();
    for i in 0..5 {
        lines.push((0..5).map(|f| (f, r0 + i)).collect());
        lines.push((0..5).map(|r| (i, r0 + r)).collect());
    }
    for k in [-2, 0, 2] {
        lines.push((0..5).map(|f| (f, r0 + f - k)).filter(|&(_, r)| (r0..r0 + 5).contains(&r)).collect());
    }
    for k in [2, 4, 6] {
        lines.push((0..5).map(|f| (f, r0 + k - f)).filter(|&(_, r)| (r0..r0 + 5).contains(&r)).collect());
    }
    lines
}

/// Reads the board of a one-line position: ranks from the top, each a character per point of `ranks[i]`.
fn read(text: &str, ranks: &[Vec<Point>]) -> BTreeMap<Point, char> {
    let board = text.split(' ').next().unwrap();
    let mut pieces = BTreeMap::new();
    for (row, points) in board.split('/').zip(ranks) {
        for (c, &p) in row.chars().zip(points) {
            if c != '.' {
                pieces.insert(p, c);
            }
        }
    }
    pieces
}

// ---- Bagh-Chal ----

/// A Bagh-Chal position: the board, the goats on each goat's point (more than one: a stack), goats in hand,
/// goats captured, the captures that win, whether the goats move.
#[derive(Clone)]
struct Bagh {
    board: Board,
    heights: BTreeMap<Point, u32>,
    in_hand: u32,
    captured: u32,
    to_win: u32,
    goats_move: bool,
}

impl Bagh {
    /// The board after the top goat leaves `p`.
    fn lift(&self, board: &mut Board, heights: &mut BTreeMap<Point, u32>, p: Point) {
        if heights[&p] > 1 {
            *heights.get_mut(&p).unwrap() -= 1;
        } else {
            heights.remove(&p);
            board.pieces.remove(&p);
        }
    }
}

fn bagh_ranks() -> Vec<Vec<Point>> {
    (0..5).rev().map(|r| (0..5).map(|f| (f, r)).collect()).collect()
}

/// Reads a position of a game of `goats` goats that the tigers win on `to_win` captures; a digit is a stack.
fn bagh_read(text: &str, goats: u32, to_win: u32) -> Bagh {
    let fields: Vec<&str> = text.split(' ').collect();
    let mut pieces = read(text, &bagh_ranks());
    let mut heights = BTreeMap::new();
    for (&p, c) in pieces.iter_mut() {
        if let Some(n) = c.to_digit(10) {
            *c = 'G';
            heights.insert(p, n);
        } else if *c == 'G' {
            heights.insert(p, 1);
        }
    }
    let in_hand: u32 = fields[2].parse().unwrap();
    let on_board: u32 = heights.values().sum();
    let board = Board { lines: grid_lines(0), pieces };
    let captured = goats - in_hand - on_board;
    Bagh { board, heights, in_hand, captured, to_win, goats_move: fields[1] == "g" }
}

fn bagh_children(s: &Bagh) -> Vec<Bagh> {
    if s.captured >= s.to_win {
        return Vec::new();
    }
    let mut out = Vec::new();
    let all: Vec<Point> = bagh_ranks().concat();
    let mover = if s.goats_move { 'G' } else { 'T' };
    let next = |board: Board, heights: BTreeMap<Point, u32>, in_hand, captured| Bagh {
        board,
        heights,
        in_hand,
        captured,
        to_win: s.to_win,
        goats_move: !s.goats_move,
    };
    if s.goats_move && s.in_hand > 0 {
        for &p in all.iter().filter(|&&p| s.board.empty(p)) {
            let (mut board, mut heights) = (s.board.clone(), s.heights.clone());
            board.pieces.insert(p, 'G');
            heights.insert(p, 1);
            out.push(next(board, heights, s.in_hand - 1, s.captured));
        }
        return out;
    }
    for (&p, _) in s.board.pieces.iter().filter(|&(_, &c)| c == mover) {
        for (q, beyond) in s.board.neighbours(p) {
            let (mut board, mut heights) = (s.board.clone(), s.heights.clone());
            if s.board.empty(q) {
                if mover == 'G' {
                    s.lift(&mut board, &mut heights, p);
                    heights.insert(q, 1);
                } else {
                    board.pieces.remove(&p);
                }
                board.pieces.insert(q, mover);
                out.push(next(board, heights, s.in_hand, s.captured));
            } else if mover == 'T'
                && s.board.pieces[&q] == 'G'
                && let Some(to) = beyond.filter(|&to| s.board.empty(to))
            {
                board.pieces.remove(&p);
                s.lift(&mut board, &mut heights, q);
                board.pieces.insert(to, 'T');
                out.push(next(board, heights, s.in_hand, s.captured + 1));
            }
        }
    }
    out
}

fn bagh_perft(s: &Bagh, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    bagh_children(s).iter().map(|c| bagh_perft(c, depth - 1)).sum()
}

// ---- Sixteen Soldiers ----

/// The 37 points by rank, top first: the top triangle's base and middle row, the grid, the bottom triangle.
fn soldier_ranks() -> Vec<Vec<Point>> {
    let mut ranks = vec![vec![(0, 8), (2, 8), (4, 8)], vec![(1, 7), (2, 7), (3, 7)]];
    ranks.extend((2..7).rev().map(|r| (0..5).map(|f| (f, r)).collect()));
    ranks.push(vec![(1, 1), (2, 1), (3, 1)]);
    ranks.push(vec![(0, 0), (2, 0), (4, 0)]);
    ranks
}

fn soldier_lines() -> Vec<Vec<Point>> {
    let mut lines = grid_lines(2);
    // The centre file runs through both triangles; each triangle side continues a grid diagonal through the
    // apex; each triangle has two rows.
    lines.retain(|line| line[0] != (2, 2) || line.len() != 5 || line[4] != (2, 6));
    lines.push((0..9).map(|r| (2, r)).collect());
    for line in lines.iter_mut() {
        let ends = (line[0], *line.last().unwrap());
        let extended: Option<[Point; 2]> = match ends {
            ((0, 4), (2, 6)) => Some([(3, 7), (4, 8)]),
            ((2, 6), (4, 4)) => Some([(1, 7), (0, 8)]),
            ((0, 4), (2, 2)) => Some([(3, 1), (4, 0)]),
            ((2, 2), (4, 4)) => Some([(1, 1), (0, 0)]),
            _ => None,
        };
        if let Some(more) = extended {
            // Orient the run so that it ends at the apex, then continue into the triangle.
            if line.last() != Some(&(2, 6)) && line.last() != Some(&(2, 2)) {
                line.reverse();
            }
            line.extend(more);
        }
    }
    lines.extend([
        vec![(1, 7), (2, 7), (3, 7)],
        vec![(0, 8), (2, 8), (4, 8)],
        vec![(1, 1), (2, 1), (3, 1)],
        vec![(0, 0), (2, 0), (4, 0)],
    ]);
    lines
}

#[derive(Clone)]
struct Soldiers {
    board: Board,
    x_moves: bool,
}

fn soldier_read(text: &str) -> Soldiers {
    let pieces = read(text, &soldier_ranks());
    Soldiers { board: Board { lines: soldier_lines(), pieces }, x_moves: text.split(' ').nth(1) == Some("x") }
}

/// The boards after each chain of jumps of the piece on `at` (`jumped`: jumps so far), as `capture` allows.
fn chains(board: &Board, at: Point, me: char, jumped: u32, capture: Capture, out: &mut Vec<Board>) {
    let mut went_on = false;
    for (over, beyond) in board.neighbours(at) {
        let Some(to) = beyond else { continue };
        if board.pieces.get(&over).is_some_and(|&c| c != me) && board.empty(to) {
            went_on = true;
            let mut next = board.clone();
            next.pieces.remove(&at);
            next.pieces.remove(&over);
            next.pieces.insert(to, me);
            if capture == Capture::Optional {
                out.push(next.clone());
            }
            chains(&next, to, me, jumped + 1, capture, out);
        }
    }
    if !went_on && jumped > 0 && capture != Capture::Optional {
        out.push(board.clone());
    }
}

fn soldier_children(s: &Soldiers, capture: Capture) -> Vec<Soldiers> {
    let me = if s.x_moves { 'X' } else { 'O' };
    let count = |c: char| s.board.pieces.values().filter(|&&p| p == c).count();
    if count('X') == 0 || count('O') == 0 {
        return Vec::new();
    }
    let mine: Vec<Point> = s.board.pieces.iter().filter(|&(_, &c)| c == me).map(|(&p, _)| p).collect();
    let mut captures = Vec::new();
    for &p in &mine {
        chains(&s.board, p, me, 0, capture, &mut captures);
    }
    let mut boards = captures;
    if capture != Capture::Compulsory || boards.is_empty() {
        for &p in &mine {
            for (q, _) in s.board.neighbours(p) {
                if s.board.empty(q) {
                    let mut board = s.board.clone();
                    board.pieces.remove(&p);
                    board.pieces.insert(q, me);
                    boards.push(board);
                }
            }
        }
    }
    boards.into_iter().map(|board| Soldiers { board, x_moves: !s.x_moves }).collect()
}

fn soldier_perft(s: &Soldiers, capture: Capture, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    soldier_children(s, capture).iter().map(|c| soldier_perft(c, capture, depth - 1)).sum()
}

// ---- The checks ----

#[test]
fn bagh_chal_from_the_start() {
    let game = BaghChal::standard();
    let start = game.start_position();
    let reference = bagh_read(&game.write(&start), 20, 5);
    let counts: Vec<u64> = (1..=4).map(|d| perft(&game, &start, d)).collect();
    assert_eq!(counts, (1..=4).map(|d| bagh_perft(&reference, d)).collect::<Vec<_>>());
    assert_eq!(counts, [21, 252, 5_052, 68_204]);
}

#[test]
fn bagh_bandi_from_the_start() {
    let game = BaghChal::new(&Setup::bagh_bandi()).unwrap();
    let start = game.start_position();
    let reference = bagh_read(&game.write(&start), 20, 20);
    let counts: Vec<u64> = (1..=4).map(|d| perft(&game, &start, d)).collect();
    assert_eq!(counts, (1..=4).map(|d| bagh_perft(&reference, d)).collect::<Vec<_>>());
    assert_eq!(counts, BANDI_PERFT);
}

#[test]
fn bagh_chal_in_the_middle_game() {
    for (setup, goats, to_win) in [(Setup::bagh_chal(), 20, 5), (Setup::bagh_bandi(), 20, 20)] {
        let game = BaghChal::new(&setup).unwrap();
        let (mut captures, mut stacks_left) = (0, 0);
        for (_, s) in random_lines(&game, &game.start_position(), 60, 20..90, 4) {
            let reference = bagh_read(&game.write(&s), goats, to_win);
            captures += reference.captured;
            stacks_left += reference.heights.values().filter(|&&n| n > 1).count();
            for depth in 1..=3 {
                assert_eq!(perft(&game, &s, depth), bagh_perft(&reference, depth), "{} depth {depth}", game.write(&s));
            }
        }
        assert!(captures > 0, "no position with a capture behind it");
        assert!(setup.stacks.is_empty() || stacks_left > 0, "no stack left in the middle game");
    }
}

#[test]
fn sixteen_soldiers_from_the_start() {
    for (capture, expected) in [
        (Capture::Compulsory, [9, 21, 65, 323]),
        (Capture::Optional, [9, 69, 783, 9_063]),
        (Capture::Continue, [9, 69, 783, 8_721]),
    ] {
        let game = SixteenSoldiers::new(capture);
        let start = game.start_position();
        let reference = soldier_read(&game.write(&start));
        let counts: Vec<u64> = (1..=4).map(|d| perft(&game, &start, d)).collect();
        assert_eq!(counts, (1..=4).map(|d| soldier_perft(&reference, capture, d)).collect::<Vec<_>>(), "{capture}");
        assert_eq!(counts, expected, "{capture}");
    }
}

#[test]
fn sixteen_soldiers_in_the_middle_game() {
    for capture in [Capture::Compulsory, Capture::Optional, Capture::Continue] {
        let game = SixteenSoldiers::new(capture);
        let mut chains = 0;
        for (_, s) in random_lines(&game, &game.start_position(), 40, 6..60, 5) {
            let reference = soldier_read(&game.write(&s));
            let mut moves = Vec::new();
            game.moves(&s, &mut moves);
            chains += moves.iter().filter(|&&mv| SixteenSoldiers::jumps(mv) > 1).count();
            for depth in 1..=3 {
                assert_eq!(
                    perft(&game, &s, depth),
                    soldier_perft(&reference, capture, depth),
                    "{capture}: {} depth {depth}",
                    game.write(&s)
                );
            }
        }
        assert!(chains > 0, "{capture}: no chain of two jumps or more met");
    }
}
