//! The sweep's plots: leaves visited against depth, and the effective branching factor against `b`, as SVG.
//!
//! Text is emitted as SVG `<text>` elements and laid out with plotters' built-in size estimate, so no font
//! files or system font libraries are needed; the viewer renders the text in its own sans-serif font.
//! The same points always give byte-identical files: every grouping is a `BTreeMap` and every series is drawn
//! in a fixed order.

use anyhow::{Context, Result};
use plotters::coord::Shift;
use plotters::element::{DashedPathElement, DynElement, IntoDynElement};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One row of the sweep summary, as the plots need it.
pub struct SummaryPoint {
    /// The tree model, e.g. `iid`.
    pub model: String,
    /// Branching factor.
    pub b: u32,
    /// Depth.
    pub d: u32,
    /// Search algorithm, e.g. `alphabeta`; the plots show `alphabeta` only.
    pub algorithm: String,
    /// Move ordering, e.g. `natural`, `best`, `worst`, `random`.
    pub ordering: String,
    /// Leaves visited, mean over seeds.
    pub mean_leaves: f64,
    /// Effective branching factor, `mean_leaves^(1/d)`.
    pub ebf: f64,
    /// Knuth and Moore's minimum leaf count, `b^⌈d/2⌉ + b^⌊d/2⌋ − 1`.
    pub knuth_moore: f64,
    /// Leaves plain minimax visits, `b^d`.
    pub minimax_leaves: f64,
    /// Pearl's asymptotic branching factor `R_b`, where the sweep computed it.
    pub pearl: Option<f64>,
}

/// The file name of the leaves-against-depth plot.
const LEAVES_FILE: &str = "leaves-vs-depth.svg";
/// The file name of the branching-factor plot.
const EBF_FILE: &str = "ebf-vs-b.svg";
/// The only algorithm the plots show.
const ALGORITHM: &str = "alphabeta";
/// The model the plots prefer when the points hold several.
const PREFERRED_MODEL: &str = "iid";

/// The font family the SVG asks for; the viewer picks the face.
const FONT: &str = "sans-serif";
/// The size of one panel of the leaves plot, in pixels.
const PANEL: (u32, u32) = (420, 320);
/// The size of the EBF plot, in pixels.
const EBF_SIZE: (u32, u32) = (900, 660);

/// Grid lines.
const GRID: RGBColor = RGBColor(225, 225, 225);
/// Axes and tick labels.
const AXIS: RGBColor = RGBColor(90, 90, 90);
/// The subtitle and the depth notes.
const MUTED: RGBColor = RGBColor(110, 110, 110);
/// Minimax, the ceiling: a long grey dash.
const MINIMAX: RGBColor = RGBColor(120, 120, 120);
/// Knuth–Moore, the floor: a short dark-grey dash.
const KNUTH_MOORE: RGBColor = RGBColor(60, 60, 60);
/// Pearl's curve: black dots.
const PEARL: RGBColor = RGBColor(0, 0, 0);

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
    for (name, svg) in [(LEAVES_FILE, leaves_svg(&data)?), (EBF_FILE, ebf_svg(&data)?)] {
        let path = dir.join(name);
        crate::output::write_atomically(&path, svg.as_bytes())?;
        written.push(path);
    }
    Ok(written)
}

/// The points one plot run shows, grouped.
struct Data<'a> {
    model: &'a str,
    /// Orderings in legend order (see [`ordering_rank`]).
    orderings: Vec<&'a str>,
    /// `(b, d, ordering)` → point. Duplicates keep the first.
    points: BTreeMap<(u32, u32, &'a str), &'a SummaryPoint>,
    /// `(b, d)` → the reference counts (Knuth–Moore, minimax), from the first point with that shape.
    reference: BTreeMap<(u32, u32), (f64, f64)>,
}

impl<'a> Data<'a> {
    /// The `alphabeta` points of the chosen model, or `None` if there are none.
    fn select(points: &'a [SummaryPoint]) -> Option<Data<'a>> {
        let alphabeta = || points.iter().filter(|p| p.algorithm == ALGORITHM);
        let model = match alphabeta().find(|p| p.model == PREFERRED_MODEL) {
            Some(p) => p.model.as_str(),
            None => alphabeta().next()?.model.as_str(),
        };
        let mut data = Data { model, orderings: Vec::new(), points: BTreeMap::new(), reference: BTreeMap::new() };
        for p in alphabeta().filter(|p| p.model == model) {
            if let Some(pearl) = p.pearl {
                debug_assert!((pearl - pearl_r(p.b)).abs() < 1e-6, "R_{} = {pearl}, not {}", p.b, pearl_r(p.b));
            }
            data.points.entry((p.b, p.d, p.ordering.as_str())).or_insert(p);
            data.reference.entry((p.b, p.d)).or_insert((p.knuth_moore, p.minimax_leaves));
            if !data.orderings.contains(&p.ordering.as_str()) {
                data.orderings.push(p.ordering.as_str());
            }
        }
        data.orderings.sort_by_key(|o| (ordering_rank(o), *o));
        Some(data)
    }

    /// The branching factors present, ascending.
    fn bs(&self) -> Vec<u32> {
        let mut bs: Vec<u32> = self.reference.keys().map(|&(b, _)| b).collect();
        bs.dedup();
        bs
    }

    /// One [`Series`] per ordering, in legend order: the points at `cells` (`(b, d)`, ascending in x) mapped
    /// by `xy`, skipping cells the ordering lacks and values that are not positive and finite.
    fn series(&self, cells: &[(u32, u32)], xy: impl Fn(&SummaryPoint) -> (f64, f64)) -> Vec<Series> {
        let line = |o| {
            cells
                .iter()
                .filter_map(|&(b, d)| self.points.get(&(b, d, o)))
                .map(|p| xy(p))
                .filter(|&(_, y)| positive(y))
                .collect()
        };
        self.orderings.iter().enumerate().map(|(i, &o)| Series { look: ordering_look(i, o), line: line(o) }).collect()
    }

    /// For each `b`, ascending, the deepest `d` among those with the most orderings: a sweep runs the oracle
    /// orderings on smaller trees only, and an EBF curve that lost them at its deepest `d` would compare nothing.
    fn deepest(&self) -> Vec<(u32, u32)> {
        let coverage = |b, d| self.orderings.iter().filter(|&&o| self.points.contains_key(&(b, d, o))).count();
        self.bs()
            .into_iter()
            .filter_map(|b| self.depths(b).into_iter().max_by_key(|&d| (coverage(b, d), d)).map(|d| (b, d)))
            .collect()
    }

    /// The depths present for `b`, ascending.
    fn depths(&self, b: u32) -> Vec<u32> {
        self.reference.range((b, 0)..=(b, u32::MAX)).map(|(&(_, d), _)| d).collect()
    }
}

/// One ordering's line: how it looks and its points, ascending in x.
struct Series {
    look: Look,
    line: Vec<(f64, f64)>,
}

/// How an ordering's line looks: its colour and the shape of its markers, so that lines that lie on top of each
/// other can still be told apart.
#[derive(Clone, Copy)]
struct Look {
    colour: RGBColor,
    marker: Marker,
}

/// The shape of a line's markers.
#[derive(Clone, Copy)]
enum Marker {
    Circle,
    Square,
    Triangle,
    Diamond,
    Cross,
    Ring,
}

impl Look {
    /// The marker of radius `r` centred on the origin, to compose with [`EmptyElement::at`].
    fn marker<DB: DrawingBackend>(self, r: i32) -> DynElement<'static, DB, (i32, i32)> {
        let (fill, stroke) = (self.colour.filled(), self.colour.stroke_width(2));
        match self.marker {
            Marker::Circle => Circle::new((0, 0), r, fill).into_dyn(),
            Marker::Square => Rectangle::new([(-r + 1, -r + 1), (r - 1, r - 1)], fill).into_dyn(),
            Marker::Triangle => Polygon::new(vec![(0, -r - 1), (r + 1, r), (-r - 1, r)], fill).into_dyn(),
            Marker::Diamond => Polygon::new(vec![(0, -r - 1), (r + 1, 0), (0, r + 1), (-r - 1, 0)], fill).into_dyn(),
            Marker::Cross => Cross::new((0, 0), r, stroke).into_dyn(),
            Marker::Ring => Circle::new((0, 0), r, stroke).into_dyn(),
        }
    }
}

/// Where an ordering goes in the legend: the sweep's orderings first, the oracles bracketing the others (best
/// first, worst last), then any other name alphabetically.
fn ordering_rank(ordering: &str) -> usize {
    ["best", "natural", "random", "static", "history", "worst"]
        .iter()
        .position(|&o| o == ordering)
        .unwrap_or(usize::MAX)
}

/// How an ordering looks: fixed for the sweep's orderings (colours from the Okabe–Ito palette, which colour-blind
/// readers can tell apart), the rest of a palette with ring markers by legend position for any other.
fn ordering_look(index: usize, ordering: &str) -> Look {
    const KNOWN: [(&str, RGBColor, Marker); 6] = [
        ("best", RGBColor(0, 158, 115), Marker::Circle),
        ("natural", RGBColor(0, 114, 178), Marker::Square),
        ("random", RGBColor(230, 159, 0), Marker::Triangle),
        ("static", RGBColor(204, 121, 167), Marker::Diamond),
        ("history", RGBColor(86, 180, 233), Marker::Cross),
        ("worst", RGBColor(213, 94, 0), Marker::Circle),
    ];
    const OTHERS: [RGBColor; 3] = [RGBColor(140, 86, 75), RGBColor(150, 150, 0), RGBColor(120, 70, 160)];
    match KNOWN.iter().find(|(name, ..)| *name == ordering) {
        Some(&(_, colour, marker)) => Look { colour, marker },
        None => Look { colour: OTHERS[index % OTHERS.len()], marker: Marker::Ring },
    }
}

/// A text style in khela's font, anchored at `(h, v)`.
fn text(size: u32, colour: RGBColor, h: HPos, v: VPos) -> TextStyle<'static> {
    TextStyle { font: (FONT, size).into_font(), color: colour.to_backend_color(), pos: Pos::new(h, v) }
}

/// A bold [`text`] style.
fn bold(size: u32, h: HPos, v: VPos) -> TextStyle<'static> {
    TextStyle { font: (FONT, size).into_font().style(FontStyle::Bold), ..text(size, BLACK, h, v) }
}

/// A linear or logarithmic axis from `lo` to `hi` with grid lines and labels at exactly `keys`.
///
/// Plotters' own ranges choose their key points themselves, and its key-point combinator loses the default
/// value formatter the mesh needs, so the plots use this instead.
struct Axis {
    lo: f64,
    hi: f64,
    log: bool,
    keys: Vec<f64>,
}

impl Axis {
    /// Where `v` lies on the axis, as a scale position.
    fn scaled(&self, v: f64) -> f64 {
        if self.log { v.ln() } else { v }
    }
}

impl Ranged for Axis {
    type FormatOption = plotters::coord::ranged1d::DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let (lo, hi) = (self.scaled(self.lo), self.scaled(self.hi));
        let t = if hi > lo { (self.scaled(*value) - lo) / (hi - lo) } else { 0.5 };
        limit.0 + (f64::from(limit.1 - limit.0) * t + 1e-3).floor() as i32
    }

    fn key_points<Hint: plotters::coord::ranged1d::KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        // Bold points only: no light grid.
        if hint.weight().allow_light_points() { Vec::new() } else { self.keys.clone() }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.lo..self.hi
    }
}

/// Draws the SVG with `draw` on a white canvas of `size` and returns it.
fn render(size: (u32, u32), draw: impl FnOnce(&DrawingArea<SVGBackend, Shift>) -> Result<()>) -> Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE)?;
        draw(&root)?;
        root.present()?;
    }
    Ok(svg)
}

/// How a dashed reference line is drawn: colour, dash and gap in pixels.
#[derive(Clone, Copy)]
struct Dashes {
    colour: RGBColor,
    dash: u32,
    gap: u32,
}

const MINIMAX_DASHES: Dashes = Dashes { colour: MINIMAX, dash: 10, gap: 5 };
const KNUTH_MOORE_DASHES: Dashes = Dashes { colour: KNUTH_MOORE, dash: 4, gap: 4 };
const PEARL_DASHES: Dashes = Dashes { colour: PEARL, dash: 2, gap: 4 };

impl Dashes {
    fn element<C: Clone>(self, points: Vec<C>) -> DashedPathElement<std::vec::IntoIter<C>, u32> {
        DashedPathElement::new(points, self.dash, self.gap, self.colour.stroke_width(2))
    }
}

/// One legend entry's picture: an ordering's line with its marker, or a dashed reference line.
enum Swatch {
    Series(Look),
    Reference(Dashes),
}

impl Swatch {
    /// Draws the swatch, 28 pixels wide, with its left end at `(x, y)`.
    fn draw(&self, area: &DrawingArea<SVGBackend, Shift>, (x, y): (i32, i32)) -> Result<()> {
        match *self {
            Swatch::Series(look) => {
                area.draw(&PathElement::new(vec![(x, y), (x + 28, y)], look.colour.stroke_width(2)))?;
                area.draw(&(EmptyElement::at((x + 14, y)) + look.marker(4)))?;
            }
            Swatch::Reference(dashes) => area.draw(&dashes.element(vec![(x, y), (x + 28, y)]))?,
        }
        Ok(())
    }
}

/// The SVG of `leaves-vs-depth.svg`: one log-scale panel per `b`.
fn leaves_svg(data: &Data) -> Result<String> {
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

/// The legend entries of the orderings, in legend order.
fn ordering_legend(data: &Data) -> Vec<(String, Swatch)> {
    data.orderings.iter().enumerate().map(|(i, &o)| (o.to_string(), Swatch::Series(ordering_look(i, o)))).collect()
}

/// The height of a header with a title, a subtitle and `legend_rows` rows of legend.
fn header_height(legend_rows: usize) -> u32 {
    80 + 28 * legend_rows as u32
}

/// Draws the title, the subtitle and the legend, one centred row per entry of `legend`.
fn draw_header(
    area: &DrawingArea<SVGBackend, Shift>,
    title: &str,
    subtitle: &str,
    legend: &[Vec<(String, Swatch)>],
) -> Result<()> {
    let centre = area.dim_in_pixel().0 as i32 / 2;
    area.draw(&Text::new(title, (centre, 12), bold(26, HPos::Center, VPos::Top)))?;
    area.draw(&Text::new(subtitle, (centre, 46), text(17, MUTED, HPos::Center, VPos::Top)))?;
    for (row, entries) in legend.iter().enumerate() {
        draw_legend_row(area, entries, (centre, 90 + 28 * row as i32))?;
    }
    Ok(())
}

/// Draws `entries` in one row centred on `(centre_x, y)`.
fn draw_legend_row(
    area: &DrawingArea<SVGBackend, Shift>,
    entries: &[(String, Swatch)],
    (centre_x, y): (i32, i32),
) -> Result<()> {
    let style = text(16, BLACK, HPos::Left, VPos::Center);
    let widths: Vec<i32> = entries
        .iter()
        .map(|(label, _)| Ok(36 + area.estimate_text_size(label, &style)?.0 as i32))
        .collect::<Result<_>>()?;
    let gap = 28;
    let total: i32 = widths.iter().sum::<i32>() + gap * (entries.len() as i32 - 1);
    let mut x = centre_x - total / 2;
    for ((label, swatch), width) in entries.iter().zip(widths) {
        swatch.draw(area, (x, y))?;
        area.draw(&Text::new(label.as_str(), (x + 36, y), style.clone()))?;
        x += width + gap;
    }
    Ok(())
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

/// The SVG of `ebf-vs-b.svg`.
fn ebf_svg(data: &Data) -> Result<String> {
    let bs = data.bs();
    let (&b_min, &b_max) = (bs.first().context("no b")?, bs.last().context("no b")?);
    let deepest = data.deepest();
    let series = data.series(&deepest, |p| (f64::from(p.b), p.ebf));
    let knuth_moore: Vec<(f64, f64)> = deepest.iter().map(|&(b, d)| (f64::from(b), knuth_moore_ebf(b, d))).collect();
    let pearl: Vec<(f64, f64)> = (b_min..=b_max).map(|b| (f64::from(b), pearl_r(b))).collect();
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

/// Draws each ordering's line (cut at missing points, see [`runs`]), the dashed `references` over them (best
/// ordering meets Knuth–Moore and worst meets minimax exactly, and the dashes show it), and the markers on top.
fn draw_lines<const N: usize>(
    chart: &mut ChartContext<SVGBackend, Cartesian2d<Axis, Axis>>,
    series: &[Series],
    xs: &[f64],
    references: [(Dashes, Vec<(f64, f64)>); N],
    marker: i32,
) -> Result<()> {
    for s in series {
        chart.draw_series(
            runs(&s.line, xs).into_iter().map(|run| PathElement::new(run, s.look.colour.stroke_width(2))),
        )?;
    }
    for (dashes, line) in references {
        chart.draw_series(std::iter::once(dashes.element(line)))?;
    }
    for s in series {
        chart.draw_series(s.line.iter().map(|&xy| EmptyElement::at(xy) + s.look.marker(marker)))?;
    }
    Ok(())
}

/// `line` cut where it skips one of `xs` (both ascending in x), so a missing point leaves a gap rather than a
/// segment that pretends to pass through it.
fn runs(line: &[(f64, f64)], xs: &[f64]) -> Vec<Vec<(f64, f64)>> {
    let mut runs: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut previous: Option<usize> = None;
    for &(x, y) in line {
        let Some(index) = xs.iter().position(|&k| k == x) else { continue };
        match runs.last_mut() {
            Some(run) if previous == index.checked_sub(1) => run.push((x, y)),
            _ => runs.push(vec![(x, y)]),
        }
        previous = Some(index);
    }
    runs
}

/// Whether `y` can go on a log scale.
fn positive(y: f64) -> bool {
    y.is_finite() && y > 0.0
}

/// At most `max` of `keys`, keeping every k-th from the first.
fn thin(keys: Vec<f64>, max: usize) -> Vec<f64> {
    let step = keys.len().div_ceil(max.max(1)).max(1);
    keys.into_iter().step_by(step).collect()
}

/// Tick positions on a log axis from `lo` to `hi`: the powers of ten, every other one when there are many, and
/// 2× and 5× as well when there are fewer than three.
fn log_keys(lo: f64, hi: f64) -> Vec<f64> {
    let decades = |mantissas: &[f64]| -> Vec<f64> {
        let (first, last) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
        (first..=last)
            .flat_map(|k| mantissas.iter().map(move |m| m * 10f64.powi(k)))
            .filter(|&y| lo <= y && y <= hi)
            .collect()
    };
    let powers = decades(&[1.0]);
    match powers.len() {
        0..=2 => decades(&[1.0, 2.0, 5.0]),
        3..=8 => powers,
        _ => powers.into_iter().step_by(2).collect(),
    }
}

/// Tick positions on a linear axis from `lo` to `top`: multiples of a whole step, at most about ten.
fn linear_keys(lo: f64, top: f64) -> Vec<f64> {
    let step = [1.0, 2.0, 5.0, 10.0, 20.0, 50.0].into_iter().find(|s| (top - lo) / s < 11.0).unwrap_or(100.0);
    let first = (lo / step).ceil() as i32;
    (first..).map(|i| f64::from(i) * step).take_while(|&y| y <= top).collect()
}

/// A tick label for a count on a log axis: `1`, `20`, `500` as they are, larger ones as `10⁴` or `2·10⁴`.
fn count_label(y: f64) -> String {
    if y < 1000.0 {
        return format!("{y:.0}");
    }
    let exponent = y.log10().floor() as i32;
    let mantissa = (y / 10f64.powi(exponent)).round();
    let superscript: String = exponent
        .to_string()
        .chars()
        .map(|c| match c {
            '-' => '⁻',
            c => ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'][c.to_digit(10).unwrap_or(0) as usize],
        })
        .collect();
    if mantissa == 1.0 { format!("10{superscript}") } else { format!("{mantissa:.0}·10{superscript}") }
}

/// The effective branching factor of Knuth and Moore's minimum, `(b^⌈d/2⌉ + b^⌊d/2⌋ − 1)^(1/d)`.
fn knuth_moore_ebf(b: u32, d: u32) -> f64 {
    let b = f64::from(b);
    let leaves = b.powi(d.div_ceil(2) as i32) + b.powi((d / 2) as i32) - 1.0;
    leaves.powf(1.0 / f64::from(d.max(1)))
}

/// Pearl's asymptotic branching factor of alpha-beta on random trees, `R_b = ξ_b / (1 − ξ_b)`, where `ξ_b` is
/// the positive root of `x^b + x − 1 = 0` (found by bisection on `(0, 1)`, where the polynomial rises from −1
/// to 1).
fn pearl_r(b: u32) -> f64 {
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    loop {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if mid.powi(b as i32) + mid - 1.0 > 0.0 {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    lo / (1.0 - lo)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plausible numbers for b = 2..4, d = 2..6 and four orderings.
    fn synthetic() -> Vec<SummaryPoint> {
        let mut points = Vec::new();
        for b in 2..=4 {
            for d in 2..=6_u32 {
                let bf = f64::from(b);
                let minimax = bf.powi(d as i32);
                let km = bf.powi(d.div_ceil(2) as i32) + bf.powi((d / 2) as i32) - 1.0;
                for (ordering, leaves) in [
                    ("natural", (km * minimax).sqrt()),
                    ("best", km),
                    ("worst", minimax),
                    ("random", pearl_r(b).powi(d as i32).max(km)),
                ] {
                    points.push(SummaryPoint {
                        model: "iid".to_string(),
                        b,
                        d,
                        algorithm: ALGORITHM.to_string(),
                        ordering: ordering.to_string(),
                        mean_leaves: leaves,
                        ebf: leaves.powf(1.0 / f64::from(d)),
                        knuth_moore: km,
                        minimax_leaves: minimax,
                        pearl: Some(pearl_r(b)),
                    });
                }
            }
        }
        points
    }

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
            synthetic().into_iter().map(|p| SummaryPoint { algorithm: "minimax".to_string(), ..p }).collect();
        assert!(write_plots(&minimax_only, dir.path()).unwrap().is_empty());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn prefers_iid_then_the_first_model() {
        let mut points = synthetic();
        for p in &mut points[..8] {
            p.model = "other".to_string();
        }
        assert_eq!(Data::select(&points).unwrap().model, "iid");
        for p in &mut points {
            if p.model == "iid" {
                p.model = "zeta".to_string();
            }
        }
        assert_eq!(Data::select(&points).unwrap().model, "other");
    }

    #[test]
    fn missing_points_are_skipped() {
        let mut points = synthetic();
        points.retain(|p| !(p.ordering == "worst" && p.b == 3 || p.b == 4 && p.d > 4));
        let data = Data::select(&points).unwrap();
        let ebf = ebf_svg(&data).unwrap();
        assert!(ebf.contains("deepest d searched with the most orderings"));
        assert!(ebf.contains("d=4") && ebf.contains("d=6"));
        leaves_svg(&data).unwrap();
    }

    /// Pearl (1982), "The solution for the branching factor of the alpha-beta pruning algorithm and its
    /// optimality", CACM 25(8): R_b = ξ_b/(1 − ξ_b). R_2 is the golden ratio; the others were computed
    /// independently by 200-step bisection in Python's 50-digit `decimal`.
    #[test]
    fn pearl_branching_factors() {
        fn check(b: u32, expected: f64) {
            let r = pearl_r(b);
            assert!((r - expected).abs() < 5e-7, "R_{b} = {r}, expected {expected}");
        }
        check(1, 1.0);
        check(2, 1.618034);
        check(3, 2.147899);
        check(4, 2.629658);
        check(5, 3.079596);
        check(10, 5.063511);
    }

    #[test]
    fn knuth_moore_branching_factor() {
        // d = 2: b + b − 1 leaves; d = 3: b² + b − 1.
        assert!((knuth_moore_ebf(3, 2) - 5f64.sqrt()).abs() < 1e-12);
        assert!((knuth_moore_ebf(2, 3) - 5f64.cbrt()).abs() < 1e-12);
    }

    #[test]
    fn ebf_uses_the_deepest_depth_with_the_most_orderings() {
        let mut points = synthetic();
        // Natural ordering alone goes deeper at b = 2 and b = 3, as when a sweep skips the oracles on big trees.
        for (b, d) in [(2, 7), (2, 8), (3, 7)] {
            let mut deeper = SummaryPoint { b, d, pearl: Some(pearl_r(b)), ..synthetic().swap_remove(0) };
            deeper.ordering = "natural".to_string();
            points.push(deeper);
        }
        // Random ordering is missing at b = 4, d = 6 and d = 5.
        points.retain(|p| !(p.ordering == "random" && p.b == 4 && p.d >= 5));
        let data = Data::select(&points).unwrap();
        assert_eq!(data.deepest(), vec![(2, 6), (3, 6), (4, 4)]);
    }

    #[test]
    fn a_single_point_is_a_plot() {
        let mut points = synthetic();
        points.retain(|p| p.b == 3 && p.d == 2 && p.ordering == "natural");
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(write_plots(&points, dir.path()).unwrap().len(), 2);
    }

    #[test]
    fn lines_break_at_missing_points() {
        let xs = [2.0, 3.0, 4.0, 5.0, 6.0];
        let line = [(2.0, 1.0), (3.0, 1.0), (5.0, 1.0), (6.0, 1.0)];
        assert_eq!(runs(&line, &xs), vec![vec![(2.0, 1.0), (3.0, 1.0)], vec![(5.0, 1.0), (6.0, 1.0)]]);
        assert_eq!(runs(&line[1..3], &xs), vec![vec![(3.0, 1.0)], vec![(5.0, 1.0)]]);
        assert!(runs(&[], &xs).is_empty());
    }

    #[test]
    fn tick_labels() {
        fn check(y: f64, expected: &str) {
            assert_eq!(count_label(y), expected);
        }
        check(1.0, "1");
        check(500.0, "500");
        check(1000.0, "10³");
        check(2e4, "2·10⁴");
        check(1e12, "10¹²");
        assert_eq!(log_keys(3.0, 5e5), vec![10.0, 100.0, 1e3, 1e4, 1e5]);
        assert_eq!(log_keys(3.0, 30.0), vec![5.0, 10.0, 20.0]);
        assert_eq!(linear_keys(1.0, 10.5), vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0]);
        assert_eq!(linear_keys(1.0, 21.0), vec![2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 14.0, 16.0, 18.0, 20.0]);
    }
}
