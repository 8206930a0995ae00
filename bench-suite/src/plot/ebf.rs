//! `ebf-vs-b.svg`: the effective branching factor against `b`, one line per ordering, each `b` at its deepest
//! `d` among those searched with the most orderings, with `EBF = b`, the Knuth–Moore EBF and Pearl's `R_b`.

use super::axis::{Axis, linear_keys, thin};
use super::data::Data;
use super::draw::{draw_header, draw_lines, header_height, ordering_legend, render};
use super::look::{AXIS, FONT, GRID, KNUTH_MOORE_DASHES, MINIMAX_DASHES, MUTED, PEARL_DASHES, Swatch, text};
use anyhow::{Context, Result};
use khela_exact::theory::{knuth_moore_ebf, pearl};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

/// The file name of the branching-factor plot.
pub const EBF_FILE: &str = "ebf-vs-b.svg";
/// The size of the EBF plot, in pixels.
const EBF_SIZE: (u32, u32) = (900, 660);

/// The SVG of `ebf-vs-b.svg`.
pub fn ebf_svg(data: &Data) -> Result<String> {
    let bs = data.bs();
    let (&b_min, &b_max) = (bs.first().context("no b")?, bs.last().context("no b")?);
    let deepest = data.deepest();
    let series = data.series(&deepest, |p| (f64::from(p.b), p.ebf));
    let knuth_moore: Vec<(f64, f64)> = deepest.iter().map(|&(b, d)| (f64::from(b), knuth_moore_ebf(b, d))).collect();
    let pearl: Vec<(f64, f64)> = (b_min..=b_max).map(|b| (f64::from(b), pearl(b))).collect();
    let minimax: Vec<(f64, f64)> = vec![(f64::from(b_min), f64::from(b_min)), (f64::from(b_max), f64::from(b_max))];

    let y_max = series.iter().flat_map(|s| s.line.iter().map(|&(_, y)| y)).fold(f64::from(b_max), f64::max);
    let x_keys = thin((b_min..=b_max).map(f64::from).collect(), 16);
    let x_range = Axis { lo: f64::from(b_min) - 0.4, hi: f64::from(b_max) + 0.4, log: false, keys: x_keys };
    // An EBF is at least 1: a tree with one leaf.
    let y_top = y_max + 0.06 * (y_max - 1.0) + 0.1;
    let y_range = Axis { lo: 1.0, hi: y_top, log: false, keys: linear_keys(1.0, y_top) };

    let depths: Vec<u32> = deepest.iter().map(|&(_, d)| d).collect();
    let one_depth = depths.windows(2).all(|w| w[0] == w[1]);
    let depth_note = if one_depth {
        format!("at depth d = {}", depths[0])
    } else {
        "per b, at the deepest d searched with the most orderings (under each b)".to_string()
    };
    let references = vec![
        ("minimax, EBF = b".to_string(), Swatch::Reference(MINIMAX_DASHES)),
        ("Knuth–Moore minimum".to_string(), Swatch::Reference(KNUTH_MOORE_DASHES)),
        ("Pearl's R_b = ξ/(1−ξ), where ξᵇ + ξ = 1".to_string(), Swatch::Reference(PEARL_DASHES)),
    ];
    let legend = [ordering_legend(data), references];
    let header_height = header_height(legend.len());
    render(EBF_SIZE, |root| {
        let (header, body) = root.split_vertically(header_height);
        draw_header(
            &header,
            "Alpha-beta: effective branching factor against b",
            &format!("model {}, EBF = (mean leaves)^(1/d), {depth_note}", data.model),
            &legend,
        )?;
        let mut chart = ChartBuilder::on(&body)
            .margin_left(12)
            .margin_right(28)
            .margin_bottom(12)
            .x_label_area_size(if one_depth { 48 } else { 66 })
            .y_label_area_size(64)
            .build_cartesian_2d(x_range, y_range)?;
        chart
            .configure_mesh()
            .x_desc("branching factor b")
            .y_desc("effective branching factor")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .x_label_style(text(15, AXIS, HPos::Center, VPos::Top))
            .y_label_style(text(15, AXIS, HPos::Right, VPos::Center))
            .axis_desc_style((FONT, 16))
            .axis_style(AXIS)
            .bold_line_style(GRID)
            .draw()?;
        if !one_depth {
            // Under each b's tick label, the depth its EBF was measured at.
            let style = text(13, MUTED, HPos::Center, VPos::Top);
            for &(b, d) in &deepest {
                let (x, y) = chart.backend_coord(&(f64::from(b), 1.0));
                root.draw(&Text::new(format!("d={d}"), (x, y + 26), style.clone()))?;
            }
        }

        let xs: Vec<f64> = deepest.iter().map(|&(b, _)| f64::from(b)).collect();
        let references = [(MINIMAX_DASHES, minimax), (KNUTH_MOORE_DASHES, knuth_moore), (PEARL_DASHES, pearl)];
        draw_lines(&mut chart, &series, &xs, references, 4)
    })
}
