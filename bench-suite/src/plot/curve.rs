//! A learning curve drawn: shares in [0, 1] (accuracies, a win rate) against training time, one line per
//! measurement.

use super::chart::{draw_legend, draw_mesh, frame};
use super::draw::render;
use super::look::SERIES;
use anyhow::{Result, bail};
use plotters::prelude::*;

/// One line: its name, and its points (minutes of training, share).
pub type CurveLine = (String, Vec<(f64, f64)>);

/// The SVG of learning curves titled `title`: a line per measurement (at most [`SERIES`]`.len()`), with markers
/// at the points measured.
///
/// # Errors
///
/// Too many lines, or none with a point.
pub fn curve_svg(title: &str, lines: &[CurveLine]) -> Result<String> {
    if lines.len() > SERIES.len() {
        bail!("{} lines to draw, at most {}", lines.len(), SERIES.len());
    }
    let right = lines.iter().flat_map(|(_, points)| points.iter().map(|&(x, _)| x)).fold(f64::NAN, f64::max);
    if right.is_nan() {
        bail!("no point to draw");
    }
    render((900, 620), |root| {
        let mut chart = frame(root, title).build_cartesian_2d(0.0..right.max(1.0) * 1.02, 0.0..1.0)?;
        draw_mesh(&mut chart, "minutes of training", "share")?;
        for ((name, points), colour) in lines.iter().zip(SERIES) {
            chart
                .draw_series(LineSeries::new(points.iter().copied(), colour.stroke_width(2)))?
                .label(name.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2)));
            chart.draw_series(points.iter().map(|&p| Circle::new(p, 3, colour.filled())))?;
        }
        draw_legend(&mut chart, SeriesLabelPosition::LowerRight)?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_a_line_per_measurement_the_same_every_time() {
        let lines = vec![
            ("policy_top1_optimal".to_string(), vec![(1.0, 0.4), (2.5, 0.7), (4.0, 0.9)]),
            ("value_sign_accuracy".to_string(), vec![(1.0, 0.5), (2.5, 0.6), (4.0, 0.8)]),
        ];
        let svg = curve_svg("Tic-tac-toe: learning curve", &lines).unwrap();
        assert!(svg.starts_with("<svg"));
        for text in ["Tic-tac-toe: learning curve", "policy_top1_optimal", "value_sign_accuracy", "minutes"] {
            assert!(svg.contains(text), "missing {text}");
        }
        assert_eq!(svg, curve_svg("Tic-tac-toe: learning curve", &lines).unwrap());
        let seven: Vec<CurveLine> = (0..7).map(|i| (i.to_string(), vec![(1.0, 0.5)])).collect();
        assert!(curve_svg("t", &seven).unwrap_err().to_string().contains("7 lines"));
        assert!(curve_svg("t", &[("a".to_string(), vec![])]).unwrap_err().to_string().contains("no point"));
    }
}
