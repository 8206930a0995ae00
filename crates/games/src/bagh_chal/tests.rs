//! The Bagh-Chal family's own checks: notation, moves, ends, setups, symmetries, conformance.

use super::*;
use crate::Notation;
use crate::conformance::{self, perft};

/// The standard start's notation.
const START: &str = "T...T/...../...../...../T...T g 20";

/// Bagh-Bandi's start: tigers on c3 and c5, four stacks of five goats, the tigers to move.
const BANDI: &str = "..T../.5.5./..T../.5.5./..... t 0";

#[test]
fn perft_from_the_start() {
    let game = BaghChal::standard();
    let start = game.start_position();
    assert_eq!([1, 2].map(|d| perft(&game, &start, d)), [21, 252]);
}

#[test]
fn notation_round_trips_and_refuses() {
    let game = BaghChal::standard();
    let start = game.parse(START).unwrap();
    assert_eq!(start, game.start_position());
    assert_eq!(game.write(&start), START);
    let err = |text: &str| game.parse(text).unwrap_err().to_string();
    assert!(err("T...T/...../...../...../T...T g").contains("expected the board"));
    assert!(err("T...T/...../...../...../T...T x 20").contains("not g or t"));
    assert!(err("T...T/...../...../....../T...T g 20").contains("rank 2 has 6 points"));
    assert!(err("T...T/...../..X../...../T...T g 20").contains("'X' at c3"));
    assert!(err("T...T/...../...../T...T g 20").contains("5 ranks expected, 4 given"));
    assert!(err("T...T/G..../...../...../T...T g 20").contains("21 goats on the board and in hand"));
    assert!(err("T...T/...../...../...../T...T g 21").contains("21 goats in hand, more than the 20"));
    assert!(err("T...T/...../...../...../T...T g 14").contains("6 goats captured, past the 5"));
    assert!(err("T...T/...../..T../...../T...T g 20").contains("5 tigers, not 4"));
    assert!(err("T...T/...../...../...../T...T g x").contains("goats in hand \"x\""));
    // While goats are placed the turns are fixed, so each tiger move takes at most one goat.
    assert!(err("T...T/...../...../...../T...T t 20").contains("tigers to move before the first goat is placed"));
    let outrun = err("T...T/...../...../...../T...T t 19");
    assert!(outrun.ends_with("1 goat captured, but with 1 placed and tigers to move the tigers can have taken only 0"));
    assert!(
        err("T...T/...../...../...../T...T t 16")
            .contains("4 goats captured, but with 4 placed and tigers to move the tigers can have taken only 3")
    );
    assert!(game.parse("T...T/...../...../...../T...T g 19").is_ok(), "a goat placed and taken at once");
    assert!(game.parse("T...T/...../...../...../T...T g 15").is_ok(), "five placed, five taken");
    // Where the tigers move first, their first move (on an empty board) captures nothing.
    let tigers_first = BaghChal::new(&Setup { goats_first: false, ..Setup::bagh_chal() }).unwrap();
    assert!(tigers_first.parse("T...T/...../...../...../T...T t 20").is_ok());
    assert!(tigers_first.parse("T...T/...../...../...../T...T g 19").is_ok(), "placed, then taken");
    let err = tigers_first.parse("T...T/...../...../...../T...T t 19").unwrap_err().to_string();
    assert!(err.ends_with("the tigers can have taken only 0"), "{err}");
}

#[test]
fn moves_are_written_and_captures_taken() {
    let game = BaghChal::standard();
    let s = game.parse("T...T/...../...../G..../T...T t 19").unwrap();
    let mut moves = Vec::new();
    game.moves(&s, &mut moves);
    let written: Vec<String> = moves.iter().map(|&m| game.write_move(m)).collect();
    assert!(written.contains(&"a1xa3".to_string()), "{written:?}");
    assert!(written.contains(&"a5-a4".to_string()), "{written:?}");
    let capture = moves[written.iter().position(|w| w == "a1xa3").unwrap()];
    let after = game.child(&s, capture);
    assert_eq!(game.write(&after), "T...T/...../T..../...../....T g 19");
    assert_eq!(after.captured, 1);
}

#[test]
fn trapped_tigers_lose_and_five_captures_win() {
    let game = BaghChal::new(&Setup { tigers: vec!["a1".into()], ..Setup::bagh_chal() }).unwrap();
    // The tiger on a1 is hemmed in by a2, b2, b1 and cannot jump: backed by a3, c3, c1.
    let trapped = game.parse("...../...../G.G../GG.../TGG.. t 14").unwrap();
    assert_eq!(game.node(&trapped), Node::Terminal(1.0));
    let game = BaghChal::standard();
    let won = game.parse("T...T/...../...../...../T...T g 15").unwrap();
    assert_eq!(game.node(&won), Node::Terminal(-1.0));
}

#[test]
fn setups_are_checked() {
    let err = |setup: Setup| BaghChal::new(&setup).unwrap_err().to_string();
    assert!(err(Setup { size: 4, ..Setup::bagh_chal() }).contains("not 4"));
    assert!(err(Setup { tigers: vec!["f1".into()], ..Setup::bagh_chal() }).contains("no point f1"));
    assert!(err(Setup { tigers: vec!["a1".into(), "a1".into()], ..Setup::bagh_chal() }).contains("two tigers"));
    assert!(err(Setup { goats: 21, ..Setup::bagh_chal() }).contains("21 goats in hand"));
    assert!(err(Setup { captures_to_win: 0, ..Setup::bagh_chal() }).contains("captures to win 0"));
    assert!(err(Setup { captures_to_win: 21, ..Setup::bagh_bandi() }).contains("1 to the 20 goats"));
    let stacks = |stacks: &[(&str, u8)]| Setup {
        stacks: stacks.iter().map(|&(p, n)| (p.to_string(), n)).collect(),
        ..Setup::bagh_bandi()
    };
    assert!(err(stacks(&[("c3", 5)])).contains("c3 holds two pieces"));
    assert!(err(stacks(&[("b2", 5), ("b2", 5)])).contains("b2 holds two pieces"));
    assert!(err(stacks(&[("b2", 10)])).contains("a stack of 10 goats on b2: 1 to 9"));
    assert!(err(stacks(&[("b9", 5)])).contains("no point b9"));
    assert!(err(stacks(&[])).contains("at least 1 in all"));
}

#[test]
fn bagh_bandi_starts_stacked() {
    let game = BaghChal::new(&Setup::bagh_bandi()).unwrap();
    let start = game.start_position();
    assert_eq!(game.start(), Some(BANDI));
    assert_eq!(game.parse(BANDI).unwrap(), start);
    assert_eq!((start.tigers.count_ones(), start.goats.count_ones(), game.goats()), (2, 4, 20));
    assert_eq!(game.node(&start), Node::Decision(Player::Min), "the tigers move first");
    assert_eq!(game.symmetries().len(), 8);
    // The tiger on c3 jumps the stack on b2 (one goat captured, four stay); c5 jumps b4 and d4.
    let mut moves = Vec::new();
    game.moves(&start, &mut moves);
    let written: Vec<String> = moves.iter().map(|&m| game.write_move(m)).collect();
    for jump in ["c3xa1", "c3xe1", "c3xa5", "c3xe5", "c5xa3", "c5xe3"] {
        assert!(written.contains(&jump.to_string()), "{jump} missing from {written:?}");
    }
    let after = game.child(&start, moves[written.iter().position(|w| w == "c3xa1").unwrap()]);
    assert_eq!(game.write(&after), "..T../.5.5./...../.4.5./T.... g 0");
    assert_eq!(after.captured, 1);
    // A goat leaves a stack from the top; the stack stays where it was.
    let lone = game.parse("..T../.5.5./..T../.5.5./..... g 0").unwrap();
    let mv = step(game.board().point("b2").unwrap(), game.board().point("b1").unwrap());
    assert_eq!(game.write(&game.child(&lone, mv)), "..T../.5.5./..T../.4.5./.G... t 0");
}

#[test]
fn stacks_are_read_written_and_keyed() {
    let game = BaghChal::new(&Setup::bagh_bandi()).unwrap();
    let s = game.parse("..T../.3.G./..T../.5.2./G.... g 0").unwrap();
    assert_eq!(game.write(&s), "..T../.3.G./..T../.5.2./G.... g 0");
    assert_eq!(s.captured, 20 - (3 + 1 + 5 + 2 + 1));
    let err = |text: &str| game.parse(text).unwrap_err().to_string();
    assert!(err("..T../.6.5./..T../.5.5./..... g 0").contains("6 goats on b4: more than the stack of 5"));
    assert!(err("..T../.5.5./..2../.5.5./..... g 0").contains("2 goats on c3: more than one"));
    assert!(err("..T../.5.5./..T../.5.5./..... g 1").contains("1 goats in hand, more than the 0"));
    assert!(err("..T../.5.5./.1T../.5.5./..... g 0").contains("'1' at b3"));
    // Heights are part of the key, and of the picture.
    let lower = game.parse("..T../.3.G./..T../.4.2./G.... g 0").unwrap();
    assert_ne!(game.key(&s), game.key(&lower));
    assert!(game.picture(&s).contains('3'), "{}", game.picture(&s));
    for perm in game.symmetries() {
        let image = game.transformed(&s, perm);
        assert_eq!(game.symmetric_key(&image), game.symmetric_key(&s));
        assert_eq!(perft(&game, &image, 3), perft(&game, &s, 3));
        assert_eq!(game.transformed(&image, perm).under.count_ones(), s.under.count_ones());
    }
    assert_ne!(game.symmetric_key(&lower), game.symmetric_key(&s));
    // Stacks on two quadrants only keep the symmetries that keep them: the identity and the mirror.
    let off = Setup { stacks: vec![("b2".into(), 3), ("d2".into(), 2)], captures_to_win: 5, ..Setup::bagh_bandi() };
    assert_eq!(BaghChal::new(&off).unwrap().symmetries().len(), 2);
}

#[test]
fn symmetric_positions_share_a_key() {
    let game = BaghChal::standard();
    let s = game.parse("T...T/.G.../...../...../T...T t 19").unwrap();
    for perm in game.symmetries() {
        let image = game.transformed(&s, perm);
        assert_eq!(game.symmetric_key(&image), game.symmetric_key(&s));
        assert_eq!(perft(&game, &image, 3), perft(&game, &s, 3));
    }
    let other = game.parse("T...T/..G../...../...../T...T t 19").unwrap();
    assert_ne!(game.symmetric_key(&other), game.symmetric_key(&s));
}

#[test]
fn conforms() {
    let small = Setup {
        size: 3,
        tigers: vec!["a1".into()],
        goats: 2,
        stacks: vec![("c3".into(), 3)],
        captures_to_win: 3,
        ..Setup::bagh_chal()
    };
    for setup in [Setup::bagh_chal(), Setup::bagh_bandi(), small] {
        let game = BaghChal::new(&setup).unwrap();
        let start = game.start_position();
        conformance::check(&game, &[start], 40, 7);
        conformance::check_notation(&game, &[start], 10, 7);
        conformance::check_actions(&game, &[start], 40, 7);
        conformance::check_cycles(&game, &[start], 40, 7);
    }
}
