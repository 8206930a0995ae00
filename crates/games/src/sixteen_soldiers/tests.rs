//! Sixteen Soldiers' tests: the board, perft, chains under each capture rule, wins, notation, keys.

use super::*;
use crate::conformance::{self, perft};

#[test]
fn the_board() {
    let game = SixteenSoldiers::new(Capture::Compulsory);
    assert_eq!(game.board().len(), 37);
    assert_eq!(game.board().links(), 76);
    assert_eq!(game.board().jump_count(), 112);
    let start = game.start_position();
    assert_eq!((start.x.count_ones(), start.o.count_ones()), (16, 16));
    assert_eq!(game.write(&start), START);
    let picture = game.picture(&start);
    assert!(picture.starts_with("9   O───────O───────O\n      ╲     │     ╱\n8       O───O───O\n"), "{picture}");
    assert!(picture.ends_with("1   X───────X───────X\n    a   b   c   d   e\nX to move"), "{picture}");
}

#[test]
fn perft_from_the_start() {
    for capture in [Capture::Compulsory, Capture::Optional, Capture::Continue] {
        let game = SixteenSoldiers::new(capture);
        let start = game.start_position();
        let expected = if capture == Capture::Compulsory { 21 } else { 69 };
        assert_eq!([1, 2].map(|d| perft(&game, &start, d)), [9, expected], "{capture}");
    }
}

#[test]
fn chains_by_rule() {
    // X on c3 faces O on a4, b4, c4 and c6: up the centre file and on (c3xc5xc7), or turning at c5 over b4
    // and then a4 (c3xc5xa3xa5), or over b4 first and back over a4 (c3xa5xa3).
    let text = "..O/.../...../..O../...../OOO../..X../.../... x";
    let moves = |capture: Capture| {
        let game = SixteenSoldiers::new(capture);
        let s = game.parse(text).unwrap();
        let mut buf = Vec::new();
        game.moves(&s, &mut buf);
        buf.iter().map(|&m| game.write_move(m)).collect::<Vec<_>>()
    };
    assert_eq!(moves(Capture::Compulsory), ["c3xc5xc7", "c3xc5xa3xa5", "c3xa5xa3"]);
    let continued = moves(Capture::Continue);
    // Its six steps first (c3 lies on both diagonals through it), north-east first, clockwise.
    assert_eq!(continued[..6], ["c3-d4", "c3-d3", "c3-d2", "c3-c2", "c3-b2", "c3-b3"]);
    assert_eq!(continued[6..], ["c3xc5xc7", "c3xc5xa3xa5", "c3xa5xa3"]);
    let optional = moves(Capture::Optional);
    assert_eq!(optional[6..], ["c3xc5", "c3xc5xc7", "c3xc5xa3", "c3xc5xa3xa5", "c3xa5", "c3xa5xa3"]);
    let game = SixteenSoldiers::new(Capture::Compulsory);
    let s = game.parse(text).unwrap();
    let mut buf = Vec::new();
    game.moves(&s, &mut buf);
    let after = game.child(&s, buf[1]);
    assert_eq!(game.write(&after), "..O/.../...../..O../X..../...../...../.../... o");
}

#[test]
fn wins_and_the_quiet_limit() {
    let game = SixteenSoldiers::new(Capture::Compulsory);
    let none_left = game.parse("..O/.../...../...../...../...../...../.../... x").unwrap();
    assert_eq!(game.node(&none_left), Node::Terminal(-1.0));
    let quiet = SixteenSoldiers::new(Capture::Compulsory).with_quiet_limit(Some(100));
    let s = quiet.parse("..O/.../...../...../...../...../...../.../X.X x 100").unwrap();
    assert_eq!(quiet.node(&s), Node::Terminal(1.0));
    assert!(quiet.parse("..O/.../...../...../...../...../...../.../X.X x 101").is_err());
    assert!(quiet.parse(START).unwrap_err().to_string().contains("plies since the last capture"));
    assert_eq!(quiet.start_position(), SixteenSoldiers::new(Capture::Compulsory).start_position());
    let s = quiet.parse("..O/.../...../...../...../...../...../.../X.X x 7").unwrap();
    let mut buf = Vec::new();
    quiet.moves(&s, &mut buf);
    assert_eq!(quiet.child(&s, buf[0]).quiet, 8);
}

#[test]
fn the_quiet_count_hides_no_repetition() {
    let game = SixteenSoldiers::new(Capture::Compulsory).with_quiet_limit(Some(100));
    let s = game.parse("..O/.../...../...../...../...../...../.../X.X x 3").unwrap();
    let mut line = crate::line::Line::new(&game, s);
    for step in ["a1-b2", "e9-d8", "b2-a1", "d8-e9"] {
        assert_eq!(line.end(&game), None, "before {step}");
        let mut moves = Vec::new();
        game.moves(line.state(), &mut moves);
        let mv = *moves.iter().find(|&&m| game.write_move(m) == step).unwrap();
        line.play(&game, mv);
    }
    assert_eq!(line.state().quiet, 7);
    assert_eq!(line.end(&game), Some(crate::line::End::Repetition));
}

#[test]
fn notation_refuses() {
    let game = SixteenSoldiers::new(Capture::Compulsory);
    let err = |text: &str| game.parse(text).unwrap_err().to_string();
    assert!(err("OOO/OOO x").contains("9 ranks expected, 2 given"));
    assert!(err("OO/OOO/OOOOO/OOOOO/...../XXXXX/XXXXX/XXX/XXX x").contains("rank 9 has 2 points, not 3"));
    assert!(err(&START.replace(" x", " y")).contains("not x or o"));
    assert!(err(&START.replace("/...../", "/..Z../")).contains("'Z' at c5"));
    assert!(err("OOO").contains("expected the board"));
    assert!(err("OOO/OOO/OOOOO/OOOOO/OOOOO/XXXXX/XXXXX/XXX/XXX x").contains("21 O pieces"));
    assert!(err(".../.../...../...../...../...../...../.../... x").contains("no soldiers of either side"));
}

#[test]
fn mirror_images_share_keys_and_counts() {
    let game = SixteenSoldiers::new(Capture::Compulsory);
    let s = game.parse("OOO/OOO/OOOOO/OOOO./....O/XXXXX/XX.XX/XXX/XXX x").unwrap();
    let m = game.mirrored(&s);
    assert_ne!(game.key(&s), game.key(&m));
    assert_eq!(game.symmetric_key(&s), game.symmetric_key(&m));
    assert_eq!(perft(&game, &s, 3), perft(&game, &m, 3));
}

#[test]
fn conforms() {
    for capture in [Capture::Compulsory, Capture::Optional, Capture::Continue] {
        for quiet in [None, Some(40)] {
            let game = SixteenSoldiers::new(capture).with_quiet_limit(quiet);
            let start = game.start_position();
            conformance::check(&game, &[start], 20, 3);
            conformance::check_notation(&game, &[start], 5, 3);
            conformance::check_cycles(&game, &[start], 20, 3);
        }
    }
}
