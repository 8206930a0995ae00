//! What theory says alpha-beta costs on uniform trees: Knuth and Moore's minimal tree and Pearl's asymptotic
//! branching factor. The sweep's summary and plots and the ordering table measure searches against these, and
//! take the figures from here (the oracle tests keep a formula of their own, to check this one against).

/// b^⌈d/2⌉ + b^⌊d/2⌋ − 1: the fewest leaves alpha-beta can visit in a uniform tree of branching `b` and depth
/// `d` (Knuth and Moore, "An analysis of alpha-beta pruning", Artificial Intelligence 6, 1975), or `None` if it
/// does not fit in 64 bits.
///
/// ```
/// assert_eq!(khela_exact::theory::knuth_moore(4, 6), Some(127));
/// assert_eq!(khela_exact::theory::knuth_moore(7, 64), None);
/// ```
pub fn knuth_moore(b: u32, d: u32) -> Option<u64> {
    let b = u64::from(b);
    b.checked_pow(d.div_ceil(2))?.checked_add(b.checked_pow(d / 2)?).map(|n| n - 1)
}

/// The effective branching factor of Knuth and Moore's minimal tree, `(b^⌈d/2⌉ + b^⌊d/2⌋ − 1)^(1/d)`, in floating
/// point, so for trees of any size (depth 0 counts as depth 1).
///
/// ```
/// assert!((khela_exact::theory::knuth_moore_ebf(3, 2) - 5f64.sqrt()).abs() < 1e-12);
/// ```
pub fn knuth_moore_ebf(b: u32, d: u32) -> f64 {
    let b = f64::from(b);
    let leaves = b.powi(d.div_ceil(2) as i32) + b.powi((d / 2) as i32) - 1.0;
    leaves.powf(1.0 / f64::from(d.max(1)))
}

/// Pearl's asymptotic branching factor of alpha-beta on uniform trees with independent, continuous leaves,
/// R_b = ξ/(1 − ξ), ξ the positive root of x^b + x − 1 = 0 (Pearl, "The solution for the branching factor of the
/// alpha-beta pruning algorithm and its optimality", CACM 25(8), 1982). R_2 is the golden ratio.
///
/// ```
/// assert_eq!(format!("{:.6}", khela_exact::theory::pearl(10)), "5.063511");
/// ```
pub fn pearl(b: u32) -> f64 {
    // x^b + x − 1 rises from −1 at 0 to 1 at 1: bisect until the interval stops shrinking.
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    loop {
        let mid = (lo + hi) / 2.0;
        if mid <= lo || mid >= hi {
            break;
        }
        if mid.powi(b as i32) + mid - 1.0 < 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let xi = (lo + hi) / 2.0;
    xi / (1.0 - xi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knuth_moore_minimal_trees() {
        assert_eq!(knuth_moore(4, 6), Some(127));
        assert_eq!(knuth_moore(3, 5), Some(27 + 9 - 1));
        assert_eq!(knuth_moore(10, 1), Some(10));
        assert_eq!(knuth_moore(7, 22), Some(2 * 7u64.pow(11) - 1));
        assert_eq!(knuth_moore(2, 128), None);
        // The floating-point branching factor agrees with the exact count where both exist.
        for (b, d) in [(2, 3), (4, 6), (8, 7), (16, 6)] {
            let exact = (knuth_moore(b, d).unwrap() as f64).powf(1.0 / f64::from(d));
            assert!((knuth_moore_ebf(b, d) - exact).abs() < 1e-12, "b={b} d={d}");
        }
        assert!((knuth_moore_ebf(2, 3) - 5f64.cbrt()).abs() < 1e-12);
    }

    #[test]
    fn pearl_matches_the_published_values() {
        // Pearl (1982), Table 1; the others computed independently by 200-step bisection in Python's 50-digit
        // `decimal`. R_2 is the golden ratio (Knuth and Moore's asymptotic analysis).
        for (b, expected) in [(2, "1.618034"), (3, "2.147899"), (4, "2.629658"), (5, "3.079596"), (10, "5.063511")] {
            assert_eq!(format!("{:.6}", pearl(b)), expected, "R_{b}");
        }
        assert!((pearl(2) - (1.0 + 5f64.sqrt()) / 2.0).abs() < 1e-12);
        assert_eq!(pearl(1), 1.0);
    }
}
