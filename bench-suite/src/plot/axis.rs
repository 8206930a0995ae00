//! The plots' axes: the [`Axis`] range with ticks exactly where the plots put them, the tick positions on
//! linear and log scales, and the labels of counts.

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};

/// A linear or logarithmic axis from `lo` to `hi` with grid lines and labels at exactly `keys`.
///
/// Plotters' own ranges choose their key points themselves, and its key-point combinator loses the default
/// value formatter the mesh needs, so the plots use this instead.
pub struct Axis {
    /// The value at the start of the axis.
    pub lo: f64,
    /// The value at the end of the axis.
    pub hi: f64,
    /// Whether the scale is logarithmic.
    pub log: bool,
    /// Where the grid lines and labels go.
    pub keys: Vec<f64>,
}

impl Axis {
    /// Where `v` lies on the axis, as a scale position.
    fn scaled(&self, v: f64) -> f64 {
        if self.log { v.ln() } else { v }
    }
}

impl Ranged for Axis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let (lo, hi) = (self.scaled(self.lo), self.scaled(self.hi));
        let t = if hi > lo { (self.scaled(*value) - lo) / (hi - lo) } else { 0.5 };
        limit.0 + (f64::from(limit.1 - limit.0) * t + 1e-3).floor() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        // Bold points only: no light grid.
        if hint.weight().allow_light_points() { Vec::new() } else { self.keys.clone() }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.lo..self.hi
    }
}

/// Whether `y` can go on a log scale.
pub fn positive(y: f64) -> bool {
    y.is_finite() && y > 0.0
}

/// At most `max` of `keys`, keeping every k-th from the first.
pub fn thin(keys: Vec<f64>, max: usize) -> Vec<f64> {
    let step = keys.len().div_ceil(max.max(1)).max(1);
    keys.into_iter().step_by(step).collect()
}

/// Tick positions on a log axis from `lo` to `hi`: the powers of ten, every other one when there are many, and
/// 2× and 5× as well when there are fewer than three.
pub fn log_keys(lo: f64, hi: f64) -> Vec<f64> {
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
pub fn linear_keys(lo: f64, top: f64) -> Vec<f64> {
    let step = [1.0, 2.0, 5.0, 10.0, 20.0, 50.0].into_iter().find(|s| (top - lo) / s < 11.0).unwrap_or(100.0);
    let first = (lo / step).ceil() as i32;
    (first..).map(|i| f64::from(i) * step).take_while(|&y| y <= top).collect()
}

/// A tick label for a count on a log axis: `1`, `20`, `500` as they are, larger ones as `10⁴` or `2·10⁴`.
pub fn count_label(y: f64) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

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
