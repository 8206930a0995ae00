//! The sweep's plots: leaves visited against depth, and the effective branching factor against `b`, as SVG;
//! Pig's hold boundary ([`hold`]); and a network's learning curve ([`curve`]).
//!
//! Text is emitted as SVG `<text>` elements and laid out with plotters' built-in size estimate, so no font
//! files or system font libraries are needed; the viewer renders the text in its own sans-serif font.
//! The same points always give byte-identical files: every grouping is a `BTreeMap` and every series is drawn
//! in a fixed order.
//!
//! The reference lines come from `khela_exact::theory` (Knuth–Moore, Pearl's R_b), as the summary's figures do.
//! The modules, each using only those listed before it: [`look`] (colours, markers, dashes, legend swatches,
//! text), [`axis`] (the axes, their ticks and labels),
//! [`data`] (the points drawn, selected and grouped), [`draw`] (what both plots share: the canvas, the header
//! with its legend, the lines), then one module per plot, [`leaves`] and [`ebf`].

mod axis;
mod chart;
#[cfg(feature = "games")]
pub mod curve;
mod data;
mod draw;
mod ebf;
#[cfg(feature = "games")]
pub mod hold;
mod leaves;
mod look;

pub use data::SummaryPoint;

use anyhow::Result;
use data::Data;
use std::path::{Path, PathBuf};

/// The files the plots are written to.
pub const FILES: [&str; 2] = [leaves::LEAVES_FILE, ebf::EBF_FILE];

/// Writes the plots into `dir` and returns their paths.
///
/// Only `alphabeta` points are plotted, for one model: `iid` if present, else the first model in `points`.
/// Writes `leaves-vs-depth.svg` (one panel per `b`, log-scale leaves against `d`, one line per ordering, with
/// the Knuth–Moore minimum and minimax's `b^d` dashed in grey) and `ebf-vs-b.svg` (the effective branching
/// factor against `b`, one line per ordering, each `b` at its deepest `d` among those searched with the most
/// orderings, with `EBF = b`, the Knuth–Moore EBF and Pearl's `R_b` for reference). Points missing for some
/// ordering, `b` or `d` are skipped, and the line is broken there.
///
/// If there is nothing to plot (no points, or none for `alphabeta`) it writes nothing and returns an empty
/// list: a sweep of other algorithms is not an error. Each file is written whole or not at all.
pub fn write_plots(points: &[SummaryPoint], dir: &Path) -> Result<Vec<PathBuf>> {
    let Some(data) = Data::select(points) else {
        return Ok(Vec::new());
    };
    let mut written = Vec::new();
    for (name, svg) in [(leaves::LEAVES_FILE, leaves::leaves_svg(&data)?), (ebf::EBF_FILE, ebf::ebf_svg(&data)?)] {
        let path = dir.join(name);
        crate::output::write_atomically(&path, svg.as_bytes())?;
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::data::synthetic;
    use super::ebf::{EBF_FILE, ebf_svg};
    use super::leaves::{LEAVES_FILE, leaves_svg};
    use super::*;

    #[test]
    fn writes_both_plots_with_titles_and_legends() {
        let dir = tempfile::tempdir().unwrap();
        let paths = write_plots(&synthetic(), dir.path()).unwrap();
        assert_eq!(paths, vec![dir.path().join(LEAVES_FILE), dir.path().join(EBF_FILE)]);
        let leaves = std::fs::read_to_string(&paths[0]).unwrap();
        let ebf = std::fs::read_to_string(&paths[1]).unwrap();
        for svg in [&leaves, &ebf] {
            assert!(svg.starts_with("<svg"), "{}", &svg[..40]);
            for label in ["best", "natural", "random", "worst", "Knuth–Moore minimum", "model iid"] {
                assert!(svg.contains(label), "missing {label}");
            }
        }
        for label in ["leaves visited against depth", "b = 2", "b = 3", "b = 4", "depth d", "minimax, bᵈ"] {
            assert!(leaves.contains(label), "missing {label}");
        }
        for label in ["effective branching factor against b", "at depth d = 6", "minimax, EBF = b", "Pearl"] {
            assert!(ebf.contains(label), "missing {label}");
        }
        // The atomic writes leave nothing else behind.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }

    #[test]
    fn rendering_is_deterministic() {
        let points = synthetic();
        let data = Data::select(&points).unwrap();
        assert_eq!(leaves_svg(&data).unwrap(), leaves_svg(&data).unwrap());
        assert_eq!(ebf_svg(&data).unwrap(), ebf_svg(&data).unwrap());
        let (one, two) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        write_plots(&points, one.path()).unwrap();
        write_plots(&points, two.path()).unwrap();
        for name in [LEAVES_FILE, EBF_FILE] {
            assert_eq!(std::fs::read(one.path().join(name)).unwrap(), std::fs::read(two.path().join(name)).unwrap());
        }
    }

    #[test]
    fn nothing_to_plot_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        assert!(write_plots(&[], dir.path()).unwrap().is_empty());
        let minimax_only: Vec<SummaryPoint> =
            synthetic().into_iter().map(|p| SummaryPoint { algorithm: khela_exact::Algorithm::Minimax, ..p }).collect();
        assert!(write_plots(&minimax_only, dir.path()).unwrap().is_empty());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn missing_points_are_skipped() {
        let mut points = synthetic();
        points.retain(|p| !(p.ordering == khela_exact::OrderingKind::WorstFirst && p.b == 3 || p.b == 4 && p.d > 4));
        let data = Data::select(&points).unwrap();
        let ebf = ebf_svg(&data).unwrap();
        assert!(ebf.contains("deepest d searched with the most orderings"));
        assert!(ebf.contains("d=4") && ebf.contains("d=6"));
        leaves_svg(&data).unwrap();
    }

    #[test]
    fn a_single_point_is_a_plot() {
        let mut points = synthetic();
        points.retain(|p| p.b == 3 && p.d == 2 && p.ordering == khela_exact::OrderingKind::Natural);
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(write_plots(&points, dir.path()).unwrap().len(), 2);
    }
}
