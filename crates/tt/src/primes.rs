//! The arithmetic of the compact table's prime sizes: products and powers modulo a number without overflow, and
//! the largest prime that fits a size.

/// `a · b mod m`, without overflow.
pub(crate) fn mul_mod(a: u64, b: u64, m: u64) -> u64 {
    (u128::from(a) * u128::from(b) % u128::from(m)) as u64
}

/// `base^exp mod m`, by squaring.
pub(crate) fn pow_mod(mut base: u64, mut exp: u64, m: u64) -> u64 {
    let mut result = 1 % m;
    while exp > 0 {
        if exp & 1 == 1 {
            result = mul_mod(result, base, m);
        }
        (base, exp) = (mul_mod(base, base, m), exp >> 1);
    }
    result
}

/// The largest prime at most `n` (n ≥ 2).
pub(crate) fn largest_prime_at_most(n: u64) -> u64 {
    let is_prime = |k: u64| k >= 2 && (2..).take_while(|d| d * d <= k).all(|d| !k.is_multiple_of(d));
    (2..=n).rev().find(|&k| is_prime(k)).expect("2 is prime")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primes_and_powers() {
        assert_eq!([2, 3, 10, 100, 131_072].map(largest_prime_at_most), [2, 3, 7, 97, 131_071]);
        // Fermat: a^(p−1) = 1 mod a prime p, near the top of 64 bits too (no overflow).
        let p = 18_446_744_073_709_551_557; // the largest 64-bit prime
        assert_eq!(pow_mod(3, p - 1, p), 1);
        assert_eq!(mul_mod(p - 1, p - 1, p), 1);
    }
}
