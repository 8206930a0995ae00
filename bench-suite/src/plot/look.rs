//! How the plots look: colours, the orderings' markers and legend order, the reference lines' dashes, the
//! legend's swatches and the text styles.

use anyhow::Result;
use khela_exact::OrderingKind;
use plotters::coord::Shift;
use plotters::element::{DashedPathElement, DynElement, IntoDynElement};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// The font family the SVG asks for; the viewer picks the face.
pub const FONT: &str = "sans-serif";

/// Grid lines.
pub const GRID: RGBColor = RGBColor(225, 225, 225);
/// Axes and tick labels.
pub const AXIS: RGBColor = RGBColor(90, 90, 90);
/// The subtitle and the depth notes.
pub const MUTED: RGBColor = RGBColor(110, 110, 110);
/// The colours of a chart's lines, in order, where a line is one of a few series (not an ordering).
pub const SERIES: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
];
/// Minimax, the ceiling: a long grey dash.
const MINIMAX: RGBColor = RGBColor(120, 120, 120);
/// Knuth–Moore, the floor: a short dark-grey dash.
const KNUTH_MOORE: RGBColor = RGBColor(60, 60, 60);
/// Pearl's curve: black dots.
const PEARL: RGBColor = RGBColor(0, 0, 0);

/// How an ordering's line looks: its colour and the shape of its markers, so that lines that lie on top of each
/// other can still be told apart.
#[derive(Clone, Copy)]
pub struct Look {
    /// The colour of the line and its markers.
    pub colour: RGBColor,
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
    pub fn marker<DB: DrawingBackend>(self, r: i32) -> DynElement<'static, DB, (i32, i32)> {
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
/// first, worst last), then any other.
pub fn ordering_rank(ordering: OrderingKind) -> usize {
    use OrderingKind::{BestFirst, History, Natural, Random, Static, WorstFirst};
    [BestFirst, Natural, Random, Static, History, WorstFirst].iter().position(|&o| o == ordering).unwrap_or(usize::MAX)
}

/// How an ordering looks: fixed for the sweep's orderings (colours from the Okabe–Ito palette, which colour-blind
/// readers can tell apart), the rest of a palette with ring markers by legend position for any other.
pub fn ordering_look(index: usize, ordering: OrderingKind) -> Look {
    const OTHERS: [RGBColor; 3] = [RGBColor(140, 86, 75), RGBColor(150, 150, 0), RGBColor(120, 70, 160)];
    let (colour, marker) = match ordering {
        OrderingKind::BestFirst => (RGBColor(0, 158, 115), Marker::Circle),
        OrderingKind::Natural => (RGBColor(0, 114, 178), Marker::Square),
        OrderingKind::Random => (RGBColor(230, 159, 0), Marker::Triangle),
        OrderingKind::Static => (RGBColor(204, 121, 167), Marker::Diamond),
        OrderingKind::History => (RGBColor(86, 180, 233), Marker::Cross),
        OrderingKind::WorstFirst => (RGBColor(213, 94, 0), Marker::Circle),
        OrderingKind::Reversed | OrderingKind::Preference | OrderingKind::Shallow => {
            (OTHERS[index % OTHERS.len()], Marker::Ring)
        }
    };
    Look { colour, marker }
}

/// A text style in khela's font, anchored at `(h, v)`.
pub fn text(size: u32, colour: RGBColor, h: HPos, v: VPos) -> TextStyle<'static> {
    TextStyle { font: (FONT, size).into_font(), color: colour.to_backend_color(), pos: Pos::new(h, v) }
}

/// A bold [`text`] style.
pub fn bold(size: u32, h: HPos, v: VPos) -> TextStyle<'static> {
    TextStyle { font: (FONT, size).into_font().style(FontStyle::Bold), ..text(size, BLACK, h, v) }
}

/// How a dashed reference line is drawn: colour, dash and gap in pixels.
#[derive(Clone, Copy)]
pub struct Dashes {
    colour: RGBColor,
    dash: u32,
    gap: u32,
}

/// Minimax's `b^d` leaves, or `EBF = b`.
pub const MINIMAX_DASHES: Dashes = Dashes { colour: MINIMAX, dash: 10, gap: 5 };
/// Knuth and Moore's minimum.
pub const KNUTH_MOORE_DASHES: Dashes = Dashes { colour: KNUTH_MOORE, dash: 4, gap: 4 };
/// Pearl's `R_b`.
pub const PEARL_DASHES: Dashes = Dashes { colour: PEARL, dash: 2, gap: 4 };

impl Dashes {
    /// The dashed line through `points`.
    pub fn element<C: Clone>(self, points: Vec<C>) -> DashedPathElement<std::vec::IntoIter<C>, u32> {
        DashedPathElement::new(points, self.dash, self.gap, self.colour.stroke_width(2))
    }
}

/// One legend entry's picture: an ordering's line with its marker, or a dashed reference line.
pub enum Swatch {
    /// An ordering's line with its marker.
    Series(Look),
    /// A dashed reference line.
    Reference(Dashes),
}

impl Swatch {
    /// Draws the swatch, 28 pixels wide, with its left end at `(x, y)`.
    pub fn draw(&self, area: &DrawingArea<SVGBackend, Shift>, (x, y): (i32, i32)) -> Result<()> {
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
