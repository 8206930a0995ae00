//! The closed forms the plots draw for reference: the effective branching factor of Knuth and Moore's minimum
//! and Pearl's asymptotic branching factor of alpha-beta.

/// The effective branching factor of Knuth and Moore's minimum, `(b^⌈d/2⌉ + b^⌊d/2⌋ − 1)^(1/d)`.
pub fn knuth_moore_ebf(b: u32, d: u32) -> f64 {
    let b = f64::from(b);
    let leaves = b.powi(d.div_ceil(2) as i32) + b.powi((d / 2) as i32) - 1.0;
    leaves.powf(1.0 / f64::from(d.max(1)))
}

/// Pearl's asymptotic branching factor of alpha-beta on random trees, `R_b = ξ_b / (1 − ξ_b)`, where `ξ_b` is
/// the positive root of `x^b + x − 1 = 0` (found by bisection on `(0, 1)`, where the polynomial rises from −1
/// to 1).
pub fn pearl_r(b: u32) -> f64 {
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
}
