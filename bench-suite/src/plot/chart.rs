//! What the charts of a few named lines (Pig's hold boundary, a learning curve) draw alike: the frame with its
//! title, the mesh and the legend.

use super::look::{AXIS, FONT, GRID, MUTED};
use anyhow::Result;
use plotters::coord::Shift;
use plotters::coord::ranged1d::ValueFormatter;
use plotters::prelude::*;

/// The chart on `root` titled `title`, with room for the axes' labels, to be given its coordinates.
pub fn frame<'a, 'b>(
    root: &'a DrawingArea<SVGBackend<'b>, Shift>,
    title: &str,
) -> ChartBuilder<'a, 'b, SVGBackend<'b>> {
    let mut builder = ChartBuilder::on(root);
    builder.caption(title, (FONT, 22)).margin(20).x_label_area_size(45).y_label_area_size(60);
    builder
}

/// Draws the mesh of `chart`: the axes described by `x` and `y`, muted tick labels, a light grid.
pub fn draw_mesh<'a, X, Y>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, Y>>,
    x: &str,
    y: &str,
) -> Result<()>
where
    X: Ranged + ValueFormatter<X::ValueType>,
    Y: Ranged + ValueFormatter<Y::ValueType>,
{
    chart
        .configure_mesh()
        .x_desc(x)
        .y_desc(y)
        .axis_desc_style((FONT, 16))
        .label_style((FONT, 13).into_font().color(&MUTED))
        .axis_style(AXIS)
        .light_line_style(GRID)
        .bold_line_style(GRID)
        .draw()?;
    Ok(())
}

/// Draws the legend of `chart`'s labelled lines at `position`, on a light box.
pub fn draw_legend<'a, X: Ranged, Y: Ranged>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, Y>>,
    position: SeriesLabelPosition,
) -> Result<()> {
    chart
        .configure_series_labels()
        .position(position)
        .label_font((FONT, 14))
        .background_style(WHITE.mix(0.9))
        .border_style(GRID)
        .draw()?;
    Ok(())
}
