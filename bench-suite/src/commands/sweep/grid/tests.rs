//! The grid's tests, and the parsed options the sweep's other tests share.

use super::*;
use clap::Parser;

/// The sweep's options, parsed as the command line would.
#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    args: SweepArgs,
}

/// The grid of these command-line arguments.
pub(crate) fn grid(args: &[&str]) -> Result<Grid> {
    Grid::from_args(&Cli::try_parse_from([&["sweep"], args].concat())?.args)
}

fn names(runs: Vec<RunSpec>) -> Vec<String> {
    runs.iter().map(|r| format!("{}/{}", r.algorithm, r.ordering)).collect()
}

#[test]
fn runs_follow_the_lists_and_skip_what_means_nothing() {
    let grid = grid(&[
        "--models",
        "iid,incremental,chance",
        "--b",
        "2,3",
        "--d",
        "1",
        "--k",
        "4,2",
        "--seeds",
        "5,6",
        "--algorithms",
        "alphabeta,mtdf,minimax",
        "--orderings",
        "static,natural,best",
    ])
    .unwrap();
    let runs = |model, b, k, d| names(grid.runs(TreeShape { model, b, k, d }));
    assert_eq!(
        runs(ModelName::Iid, 2, None, 1),
        ["alphabeta/natural", "alphabeta/best", "mtdf/natural", "mtdf/best", "minimax/natural"]
    );
    assert_eq!(
        runs(ModelName::Incremental, 2, None, 1),
        [
            "alphabeta/static",
            "alphabeta/natural",
            "alphabeta/best",
            "mtdf/static",
            "mtdf/natural",
            "mtdf/best",
            "minimax/natural"
        ]
    );
    assert_eq!(runs(ModelName::Iid, 2, None, 24), ["alphabeta/natural", "mtdf/natural"]);
    assert_eq!(runs(ModelName::Chance, 2, Some(3), 2), ["alphabeta/natural", "alphabeta/best", "minimax/natural"]);
    assert_eq!(runs(ModelName::Chance, 4, Some(4), 6), ["alphabeta/natural"]);
    let notes = grid.notes().join("\n");
    assert!(notes.contains("skipped on chance trees: mtdf (at chance nodes"), "{notes}");
}

#[test]
fn the_sidecar_records_the_grid_and_gives_it_back() {
    // The chance model keeps its own defaults when --b and --d are not given, and the sidecar records them.
    let default = grid(&[]).unwrap();
    let json = serde_json::to_string(&default).unwrap();
    assert_eq!(
        json,
        "{\"models\":\"iid,iid100,incremental,chance\",\"b\":\"2..8\",\"d\":\"2..7\",\"chance_b\":\"2..4\",\
         \"k\":\"2..4\",\"chance_d\":\"1..4\",\"seeds\":\"0..29\",\
         \"algorithms\":\"minimax,alphabeta,negascout,mtdf,id,star1,star2\",\
         \"orderings\":\"natural,random,best,worst,static,history\",\"rng\":\"pcg\"}"
    );
    assert_eq!(serde_json::from_str::<Grid>(&json).unwrap(), default);
    let deterministic = grid(&["--models", "iid", "--seeds", "1,3..5"]).unwrap();
    let json = serde_json::to_value(&deterministic).unwrap();
    assert!(json.get("k").is_none() && json["seeds"] == "1,3..5", "{json}");
    assert_eq!(serde_json::from_value::<Grid>(json).unwrap(), deterministic);
    let err = grid(&["--models", "iid", "--k", "2"]).unwrap_err().to_string();
    assert!(err.contains("--k 2: chance outcomes belong to the chance model"), "{err}");
    let err = grid(&["--orderings", "natural,natural"]).unwrap_err().to_string();
    assert_eq!(err, "--orderings lists natural twice");
}

#[test]
fn shapes_and_their_sizes() {
    let chance = |b, k, d| TreeShape { model: ModelName::Chance, b, k: Some(k), d };
    assert_eq!(chance(2, 3, 2).size(), Some((36, 1 + 2 + 6 + 12 + 36)));
    assert_eq!(chance(10, 10, 10).size(), None);
    assert_eq!(chance(2, 3, 2).dimensions(), "b=2 k=3 d=2");
    assert_eq!(chance(2, 3, 2).knuth_moore(), None);
    let uniform = TreeShape { model: ModelName::Iid, b: 4, k: None, d: 6 };
    assert_eq!((uniform.size(), uniform.knuth_moore()), (Some((4096, 5461)), Some(127)));
    assert_eq!(uniform_size(10, 40), None);
}
