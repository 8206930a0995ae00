//! What both plots draw alike: the white canvas, the header with its title, subtitle and legend, and the
//! orderings' lines with the dashed references.

use super::axis::Axis;
use super::data::{Data, Series};
use super::look::{Dashes, MUTED, Swatch, bold, ordering_look, text};
use anyhow::Result;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

/// Draws the SVG with `draw` on a white canvas of `size` and returns it.
pub fn render(size: (u32, u32), draw: impl FnOnce(&DrawingArea<SVGBackend, Shift>) -> Result<()>) -> Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE)?;
        draw(&root)?;
        root.present()?;
    }
    Ok(svg)
}

/// The legend entries of the orderings, in legend order.
pub fn ordering_legend(data: &Data) -> Vec<(String, Swatch)> {
    data.orderings.iter().enumerate().map(|(i, &o)| (o.to_string(), Swatch::Series(ordering_look(i, o)))).collect()
}

/// The height of a header with a title, a subtitle and `legend_rows` rows of legend.
pub fn header_height(legend_rows: usize) -> u32 {
    80 + 28 * legend_rows as u32
}

/// Draws the title, the subtitle and the legend, one centred row per entry of `legend`.
pub fn draw_header(
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

/// Draws each ordering's line (cut at missing points, see [`runs`]), the dashed `references` over them (best
/// ordering meets Knuth–Moore and worst meets minimax exactly, and the dashes show it), and the markers on top.
pub fn draw_lines<const N: usize>(
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_break_at_missing_points() {
        let xs = [2.0, 3.0, 4.0, 5.0, 6.0];
        let line = [(2.0, 1.0), (3.0, 1.0), (5.0, 1.0), (6.0, 1.0)];
        assert_eq!(runs(&line, &xs), vec![vec![(2.0, 1.0), (3.0, 1.0)], vec![(5.0, 1.0), (6.0, 1.0)]]);
        assert_eq!(runs(&line[1..3], &xs), vec![vec![(3.0, 1.0)], vec![(5.0, 1.0)]]);
        assert!(runs(&[], &xs).is_empty());
    }
}
