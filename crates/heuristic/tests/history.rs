//! The engine on a game whose positions repeat, told the game's history: a move back to a position of the
//! history is a draw — in the search, in each move's value (`analyse`), and at the end of the principal
//! variation.

use khela_exact::SearchConfig;
use khela_games::bagh_chal::BaghChal;
use khela_games::line::{End, Line};
use khela_games::{Game, Notation};
use khela_heuristic::Engine;
use khela_heuristic::bagh_chal::Crowding;

#[test]
fn a_move_back_to_the_history_is_a_draw() {
    let game = BaghChal::standard();
    let evaluator = Crowding::new(&game);
    // The sliding phase; the tigers step out and back, the goats out: the goats' step back repeats the start.
    let mut line = Line::new(&game, game.parse("T.GGT/GG.GG/GGTGG/G.GGG/TGG.G t 0").unwrap());
    let find = |line: &Line<BaghChal>, text: &str| {
        let mut moves = Vec::new();
        game.moves(line.state(), &mut moves);
        *moves.iter().find(|&&m| game.write_move(m) == text).unwrap()
    };
    for text in ["c3-c4", "e1-d1", "c4-c3"] {
        let mv = find(&line, text);
        line.play(&game, mv);
    }
    let back = find(&line, "d1-e1");
    let mut after = line.clone();
    after.play(&game, back);
    assert_eq!(after.end(&game), Some(End::Repetition));
    for depth in 1..=4 {
        let mut engine = Engine::new(&game, &evaluator, SearchConfig::depth_limited(depth));
        engine.set_history(line.history().to_vec());
        let values = engine.analyse(line.state());
        let drawn = values.iter().find(|v| v.mv == back).unwrap();
        assert_eq!(drawn.value, 0.0, "depth {depth}");
        // Without the history the same move is only a step.
        let mut fresh = Engine::new(&game, &evaluator, SearchConfig::depth_limited(depth));
        assert_ne!(fresh.value_move(line.state(), back).value, 0.0, "depth {depth}");
        // The search agrees with the move values, and its principal variation stops at the repetition.
        let analysis = engine.search(line.state());
        let best = values.iter().map(|v| v.value).fold(f64::MIN, f64::max);
        assert_eq!(analysis.value, best, "depth {depth}");
        // Every other goat move leaves a goat to the tigers: the draw is the best there is.
        assert_eq!((analysis.best, analysis.value), (Some(back), 0.0), "depth {depth}");
        assert_eq!(analysis.pv, [back], "depth {depth}");
    }
}
