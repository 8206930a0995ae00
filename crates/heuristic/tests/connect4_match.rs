//! Does the threat evaluator know anything? Depth-limited search with it plays the same search with a
//! random-valued evaluator, 200 games of Connect-4, colours alternating, each from a seeded random opening.
//!
//! The random side is not a random player: its search sees every win and loss within the horizon, and every
//! game starts from a different opening, so the score measures what the evaluator adds beyond the search.

use khela_exact::SearchConfig;
use khela_games::Evaluator;
use khela_games::connect4::{Connect4, Position};
use khela_games::{Game, Node, Player};
use khela_heuristic::Engine;
use khela_heuristic::connect4::Threats;
use khela_heuristic::random::Noise;
use rand_core::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// Games played; game `i` has the threat evaluator move first when `i` is even.
const GAMES: u64 = 200;

/// Plies searched by both sides: shallow, so that the match is quick in the dev profile.
const DEPTH: u32 = 5;

/// Games won, drawn and lost by the threat evaluator.
#[derive(Debug, Default)]
struct Score {
    wins: u32,
    draws: u32,
    losses: u32,
}

/// A position after 2 to 4 random moves, all drawn from a generator seeded with `seed`.
fn opening(game: &Connect4, seed: u64) -> Position {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut p = Position::EMPTY;
    let mut moves = Vec::new();
    for _ in 0..2 + rng.next_u32() % 3 {
        game.moves(&p, &mut moves);
        game.play(&mut p, moves[rng.next_u32() as usize % moves.len()]);
    }
    p
}

/// Plays the match with both sides searching `options`; the random evaluator of game `i` is seeded with `i`.
fn play_match(options: SearchConfig) -> Score {
    let game = Connect4::standard();
    let threats = Threats::new(&game);
    let mut score = Score::default();
    for i in 0..GAMES {
        // The same scale for both sides, so a win is worth as much to either.
        let noise = Noise { seed: i, bound: threats.bound() };
        let mut ours = Engine::new(&game, &threats, options);
        let mut theirs = Engine::new(&game, &noise, options);
        let our_side = if i % 2 == 0 { Player::Max } else { Player::Min };
        let mut p = opening(&game, i);
        let payoff = loop {
            let mover = match game.node(&p) {
                Node::Terminal(payoff) => break payoff,
                Node::Decision(mover) => mover,
                Node::Chance => unreachable!("Connect-4 has no chance nodes"),
            };
            let analysis = if mover == our_side { ours.search(&p) } else { theirs.search(&p) };
            game.play(&mut p, analysis.best.expect("a decision node has a best move"));
        };
        match our_side.view(payoff) {
            v if v > 0.0 => score.wins += 1,
            v if v < 0.0 => score.losses += 1,
            _ => score.draws += 1,
        }
    }
    score
}

#[test]
fn threats_beat_noise_at_least_nine_games_in_ten() {
    let options = SearchConfig { table_mib: Some(1), ..SearchConfig::depth_limited(DEPTH) };
    let score = play_match(options);
    assert_eq!(score.wins + score.draws + score.losses, GAMES as u32);
    assert!(
        u64::from(score.wins) * 10 >= GAMES * 9,
        "threats against noise at depth {DEPTH}, {GAMES} games: {} wins, {} draws, {} losses (at least {} wins wanted)",
        score.wins,
        score.draws,
        score.losses,
        GAMES * 9 / 10
    );
    // The figure of the book (docs/src/depth-limited.md).
    assert_eq!((score.wins, score.draws, score.losses), (187, 2, 11));
}
