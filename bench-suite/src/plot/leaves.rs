//! `leaves-vs-depth.svg`: one log-scale panel per `b` of the leaves visited against depth, one line per
//! ordering, with the Knuth–Moore minimum and minimax's `b^d` dashed.

use super::axis::{Axis, count_label, log_keys, positive, thin};
use super::data::Data;
use super::draw::{draw_header, draw_lines, header_height, ordering_legend, render};
use super::look::{AXIS, FONT, GRID, KNUTH_MOORE_DASHES, MINIMAX_DASHES, Swatch, bold, text};
use anyhow::{Context, Result};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

/// The file name of the leaves-against-depth plot.
pub const LEAVES_FILE: &str = "leaves-vs-depth.svg";
/// The size of one panel of the leaves plot, in pixels.
const PANEL: (u32, u32) = (420, 320);

/// The SVG of `leaves-vs-depth.svg`: one log-scale panel per `b`.
pub fn leaves_svg(data: &Data) -> Result<String> {
    let bs = data.bs();
    let cols = match bs.len() {
        n @ 0..=3 => n,
        4 => 2,
        _ => 3,
    } as u32;
    let rows = (bs.len() as u32).div_ceil(cols);
    let references = vec![
        ("Knuth–Moore minimum".to_string(), Swatch::Reference(KNUTH_MOORE_DASHES)),
        ("minimax, bᵈ".to_string(), Swatch::Reference(MINIMAX_DASHES)),
    ];
    let legend = [ordering_legend(data), references];
    let header_height = header_height(legend.len());
    let size = (cols.max(2) * PANEL.0, header_height + rows * PANEL.1);
    render(size, |root| {
        let (header, body) = root.split_vertically(header_height);
        draw_header(
            &header,
            "Alpha-beta: leaves visited against depth",
            &format!("model {}, mean over seeds; one panel per branching factor b", data.model),
            &legend,
        )?;
        let panels = body.split_evenly((rows as usize, cols as usize));
        for (&b, panel) in bs.iter().zip(&panels) {
            leaves_panel(data, b, panel)?;
        }
        Ok(())
    })
}

/// Draws the panel for branching factor `b`.
fn leaves_panel(data: &Data, b: u32, panel: &DrawingArea<SVGBackend, Shift>) -> Result<()> {
    let depths = data.depths(b);
    let (&d_min, &d_max) = (depths.first().context("no depths")?, depths.last().context("no depths")?);
    let references: Vec<(f64, f64, f64)> =
        depths.iter().map(|&d| (f64::from(d), data.reference[&(b, d)].0, data.reference[&(b, d)].1)).collect();
    let cells: Vec<(u32, u32)> = depths.iter().map(|&d| (b, d)).collect();
    let series = data.series(&cells, |p| (f64::from(p.d), p.mean_leaves));

    let values = references
        .iter()
        .flat_map(|&(_, km, mm)| [km, mm])
        .chain(series.iter().flat_map(|s| s.line.iter().map(|&(_, y)| y)))
        .filter(|&y| positive(y));
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), y| (lo.min(y), hi.max(y)));
    let (lo, hi) = if lo <= hi { (lo / 1.6, hi * 1.6) } else { (1.0, 10.0) };

    let x_keys = thin(depths.iter().map(|&d| f64::from(d)).collect(), 10);
    let x_range = Axis { lo: f64::from(d_min) - 0.4, hi: f64::from(d_max) + 0.4, log: false, keys: x_keys };
    let y_range = Axis { lo, hi, log: true, keys: log_keys(lo, hi) };
    let mut chart = ChartBuilder::on(panel)
        .caption(format!("b = {b}"), bold(20, HPos::Center, VPos::Top))
        .margin_top(6)
        .margin_left(8)
        .margin_right(20)
        .margin_bottom(8)
        .x_label_area_size(44)
        .y_label_area_size(64)
        .build_cartesian_2d(x_range, y_range)?;
    chart
        .configure_mesh()
        .x_desc("depth d")
        .y_desc("leaves visited")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| count_label(*y))
        .x_label_style(text(14, AXIS, HPos::Center, VPos::Top))
        .y_label_style(text(14, AXIS, HPos::Right, VPos::Center))
        .axis_desc_style((FONT, 15))
        .axis_style(AXIS)
        .bold_line_style(GRID)
        .draw()?;

    let xs: Vec<f64> = depths.iter().map(|&d| f64::from(d)).collect();
    let minimax = references.iter().map(|&(d, _, mm)| (d, mm)).collect();
    let knuth_moore = references.iter().map(|&(d, km, _)| (d, km)).collect();
    draw_lines(&mut chart, &series, &xs, [(MINIMAX_DASHES, minimax), (KNUTH_MOORE_DASHES, knuth_moore)], 3)
}
