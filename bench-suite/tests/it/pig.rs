//! Pig and Piglet through `solve`: the figures as scripts read them (checked against the library's value
//! iteration), the hold boundary's plot, and the refusals.

use crate::common::{csv, refused};
use khela_exact::iterate::{self, DecisionRule, win_probability};
use khela_games::Space;
use khela_games::pig::{Pig, PigSpace};

/// The value of `metric` in `solve`'s CSV.
fn metric<'a>(rows: &'a str, metric: &str) -> &'a str {
    rows.lines().find_map(|l| l.strip_prefix(&format!("{metric},"))).unwrap_or_else(|| panic!("{metric} in {rows}"))
}

#[test]
fn solve_gives_the_figures_of_value_iteration() {
    let rows = csv(&["solve", "--game", "pig", "--goal", "30"]);
    assert!(rows.starts_with("metric,value\ngoal,30\nfirst_player_win,"), "{rows}");
    let space = PigSpace::new(Pig::with_die(30).unwrap());
    let values = iterate::iterate(&space, &DecisionRule::Best, 1e-12, 1_000_000, |_| {});
    let start = space.game().parse("0 0 0 first").unwrap();
    let expected = format!("{:.12}", win_probability(values.of(&space, &start).unwrap()));
    assert_eq!(metric(&rows, "first_player_win"), expected);
    assert_eq!(metric(&rows, "best_move"), "roll");
    assert_eq!(metric(&rows, "positions"), (space.len() * 2).to_string());
    let hold = metric(&rows, "hold_at_20_first_player_win").parse::<f64>().unwrap();
    assert!(hold > 0.5 && hold < 0.6, "{rows}");
    // Behind 10 to 28, the side to move is the underdog; the chance printed is the first player's, whoever is
    // to move, and the mirrored position gives the first player the other side's chance.
    let chance = |position: &str| -> f64 {
        let rows = csv(&["solve", "--game", "pig", "--goal", "30", "--position", position]);
        metric(&rows, "position_first_player_win").parse().unwrap()
    };
    let behind = chance("10 28 0 first");
    // (The CSV prints 12 decimals.)
    let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
    assert!(behind < 0.5 && close(behind, mover_chance(&space, &values, "10 28 0 first")), "{behind}");
    let ahead = chance("28 10 0 second");
    assert!(close(ahead, 1.0 - mover_chance(&space, &values, "28 10 0 second")), "{ahead}");
    assert!(close(ahead, 1.0 - behind), "{ahead} {behind}");
    // Piglet: a coin, no hold-at-20 row.
    let piglet = csv(&["solve", "--game", "piglet", "--goal", "6"]);
    assert!(!piglet.contains("hold_at_20") && piglet.contains("first_player_win,0.5"), "{piglet}");
}

/// The mover's winning chance at `position`, from the values.
fn mover_chance(space: &PigSpace, values: &iterate::Values, position: &str) -> f64 {
    win_probability(values.of(space, &space.game().parse(position).unwrap()).unwrap())
}

#[test]
fn solve_draws_the_hold_boundary() {
    let dir = tempfile::tempdir().unwrap();
    let plot = dir.path().join("hold.svg");
    csv(&["solve", "--game", "pig", "--goal", "20", "--plot", plot.to_str().unwrap()]);
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("Pig to 20") && svg.contains("score 0"), "{}", &svg[..200]);
}

#[test]
fn pig_refuses_bad_requests() {
    refused(
        &["solve", "--game", "pig", "--goal", "0"],
        "goal=0: a goal is from 1 to 1000 (goal= in the game string, or --goal)",
    );
    refused(&["solve", "--game", "pig", "--goal", "400"], "goals up to 300");
    refused(&["solve", "--game", "pig", "--position", "99 0 5 first"], "below the goal 100");
    refused(&["solve", "--game", "piglet", "--position", "99 0 0 first"], "Piglet position \"99 0 0 first\"");
    refused(&["solve", "--game", "pig", "--weak"], "--weak");
    refused(&["solve", "--game", "connect4", "--goal", "5"], "takes no parameter goal");
    refused(&["solve", "--game", "connect4", "--position", "4", "--plot", "x.svg"], "--plot");
    refused(&["count", "--game", "pig", "--depth", "2"], "counts per ply");
}
