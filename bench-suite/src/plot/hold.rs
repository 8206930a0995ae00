//! Pig's optimal policy drawn: the turn total at which to hold against the player's own score, one line per
//! opponent's score — the surface of Neller and Presser's figure, cut at a few heights.

use super::chart::{draw_legend, draw_mesh, frame};
use super::draw::render;
use super::look::SERIES;
use anyhow::Result;
use plotters::prelude::*;

/// One line: the opponent's score, and for each of the player's scores the turn total from which she holds.
pub type HoldLine = (u16, Vec<(u16, u16)>);

/// The SVG of the hold boundary of a game to `goal` titled `title`: a line per opponent's score (at most
/// [`SERIES`]`.len()`).
pub fn hold_svg(title: &str, goal: u16, lines: &[HoldLine]) -> Result<String> {
    let top = lines.iter().flat_map(|(_, points)| points.iter().map(|&(_, k)| k)).max().unwrap_or(1).max(1);
    render((900, 620), |root| {
        let mut chart = frame(root, title).build_cartesian_2d(0u32..u32::from(goal), 0u32..u32::from(top) + 1)?;
        draw_mesh(&mut chart, "the player's score", "hold at a turn total of")?;
        for ((opponent, points), colour) in lines.iter().zip(SERIES) {
            let series = points.iter().map(|&(i, k)| (u32::from(i), u32::from(k)));
            chart
                .draw_series(LineSeries::new(series, colour.stroke_width(2)))?
                .label(format!("opponent's score {opponent}"))
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2)));
        }
        draw_legend(&mut chart, SeriesLabelPosition::UpperRight)?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_a_line_per_opponent_score_with_its_label() {
        let lines = vec![(0, vec![(0, 25), (50, 20), (90, 10)]), (50, vec![(0, 30), (50, 22), (90, 10)])];
        let svg = hold_svg("Pig to 100: when to hold", 100, &lines).unwrap();
        assert!(svg.starts_with("<svg"));
        for text in ["Pig to 100: when to hold", "opponent&apos;s score 0", "opponent&apos;s score 50", "the player"] {
            assert!(svg.contains(text) || svg.contains(&text.replace("&apos;", "'")), "missing {text}");
        }
        assert_eq!(svg, hold_svg("Pig to 100: when to hold", 100, &lines).unwrap(), "the same file every time");
    }
}
