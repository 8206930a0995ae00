//! Alpha-beta with and without transposition tables on the first 200 positions of Connect-4's End-Easy benchmark
//! set (`../shared/connect4/Test_L3_R1`): every search returns the published score, under every replacement
//! policy, with tables small enough to force collisions, and with the concurrent tables shared by all the
//! positions. (All 1,000 run in the `search` benchmark.)
//!
//! Where the set is absent, as in a fresh clone, the test is reported as ignored, with a note saying why (this
//! file runs its own harness, so that it can decide that when it runs).

use khela_exact::{Algorithm, MoveOrdering, Searcher, Shared};
use khela_games::connect4::{Connect4, Position};
use khela_games::{Game, Node};
use khela_testkit::connect4::Set;
use khela_tt::{AtomicTable, DashTable, Replacement, Table};
use libtest_mimic::{Arguments, Trial};

const POLICIES: [Replacement; 3] = [Replacement::Always, Replacement::DepthPreferred, Replacement::TwoTier];
const PRUNING: [Algorithm; 2] = [Algorithm::AlphaBeta, Algorithm::NegamaxAlphaBeta];

/// The positions checked, of the set's 1,000.
const CHECKED: usize = 200;

fn main() {
    let absent = Set::EndEasy.missing_for("the End-Easy test is ignored");
    let trial = Trial::test("end_easy_with_tables_matches_the_search_without_and_the_published_scores", || {
        end_easy_with_tables_matches_the_search_without_and_the_published_scores();
        Ok(())
    });
    libtest_mimic::run(&Arguments::from_args(), vec![trial.with_ignored_flag(absent)]).exit();
}

/// Pons' centre-first column order, which makes alpha-beta on Connect-4 fast.
fn centre_first() -> MoveOrdering<Connect4> {
    MoveOrdering::preference(vec![3, 2, 4, 1, 5, 0, 6])
}

fn end_easy_with_tables_matches_the_search_without_and_the_published_scores() {
    let set = Set::EndEasy.read().unwrap_or_else(|err| panic!("{err}"));
    let game = Connect4::standard();
    let shared_atomic = AtomicTable::with_entries(1 << 12, Replacement::TwoTier);
    let shared_dash = DashTable::with_entries(1 << 12);
    for scored in set.iter().take(CHECKED) {
        let moves = &scored.moves;
        let position: Position = game.parse(moves).unwrap();
        let Node::Decision(mover) = game.node(&position) else { panic!("{moves} is over") };
        let expected = mover.view(f64::from(scored.score));
        let plain = Searcher::new(&game, centre_first()).run(Algorithm::AlphaBeta, &position);
        assert_eq!(plain.value, expected, "{moves}: plain alpha-beta against the published score");
        for policy in POLICIES {
            for entries in [1, 3, 1 << 10] {
                let table = Table::with_entries(entries, policy);
                let mut searcher = Searcher::new(&game, centre_first()).with_cache(table);
                for algorithm in PRUNING {
                    assert_eq!(searcher.run(algorithm, &position).value, expected, "{moves} {policy:?} {entries}");
                }
            }
        }
        // The concurrent tables, shared by all the positions.
        let atomic = Searcher::new(&game, centre_first())
            .with_cache(Shared(&shared_atomic))
            .run(Algorithm::AlphaBeta, &position);
        assert_eq!(atomic.value, expected, "{moves} atomic table");
        let dash =
            Searcher::new(&game, centre_first()).with_cache(Shared(&shared_dash)).run(Algorithm::AlphaBeta, &position);
        assert_eq!(dash.value, expected, "{moves} dash table");
    }
}
