//! Elo ratings from a match's pairings: the strengths of the Bradley–Terry model (a player of strength γᵢ
//! scores γᵢ / (γᵢ + γⱼ) against one of γⱼ, a draw half a win) that make the scores seen most likely, fitted
//! by Hunter's minorization–maximization, as 400·log₁₀ γ with the first player at 0.
//!
//! Each pairing counts one more game, a draw: without it a player who never scored would be rated −∞, and
//! one who never lost +∞. With many games it moves the ratings little. With it every strength stays positive,
//! and the fit converges wherever the pairings connect the players (a match plays every pair).

/// A pairing's result: the two players (indices), A's points (a draw half a point) and the games played.
#[derive(Clone, Copy, Debug)]
pub struct Pairing {
    /// Player A.
    pub a: usize,
    /// Player B.
    pub b: usize,
    /// A's points.
    pub a_points: f64,
    /// The games played.
    pub games: u64,
}

/// The fit stops when no strength moves by more than this, relatively, in an iteration.
const TOLERANCE: f64 = 1e-12;

/// The most iterations of the fit.
const MAX_ITERATIONS: usize = 100_000;

/// The Elo rating of each of `players` from `pairings` (every player must be in one), the first player's 0.
pub fn ratings(players: usize, pairings: &[Pairing]) -> Vec<f64> {
    let (mut points, mut strength) = (vec![0.0; players], vec![1.0; players]);
    for p in pairings {
        points[p.a] += p.a_points + 0.5;
        points[p.b] += p.games as f64 - p.a_points + 0.5;
    }
    for _ in 0..MAX_ITERATIONS {
        let mut expected = vec![0.0; players];
        for p in pairings {
            let share = (p.games + 1) as f64 / (strength[p.a] + strength[p.b]);
            expected[p.a] += share;
            expected[p.b] += share;
        }
        let next: Vec<f64> = points.iter().zip(&expected).map(|(w, e)| w / e).collect();
        let next: Vec<f64> = next.iter().map(|g| g / next[0]).collect();
        let moved = next.iter().zip(&strength).map(|(n, s)| (n / s - 1.0).abs()).fold(0.0, f64::max);
        strength = next;
        if moved < TOLERANCE {
            break;
        }
    }
    strength.iter().map(|g| 400.0 * g.log10()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairing(a: usize, b: usize, a_points: f64, games: u64) -> Pairing {
        Pairing { a, b, a_points, games }
    }

    #[test]
    fn two_players_differ_by_the_logistic_of_the_score_with_the_draw_added() {
        // 15 of 20 points, and the added draw: 15.5 to 5.5.
        let elo = ratings(2, &[pairing(0, 1, 15.0, 20)]);
        assert_eq!(elo[0], 0.0);
        let expected = -400.0 * (15.5f64 / 5.5).log10();
        assert!((elo[1] - expected).abs() < 1e-9, "{} against {expected}", elo[1]);
        // Even scores rate even; a player who never scored is rated finitely below.
        assert!(ratings(2, &[pairing(0, 1, 10.0, 20)])[1].abs() < 1e-9);
        let never = ratings(2, &[pairing(0, 1, 20.0, 20)])[1];
        assert!(never.is_finite() && never < -500.0, "{never}");
    }

    #[test]
    fn a_consistent_round_robin_is_recovered() {
        // Strengths 1, 2 and 4 (Elo 0, 120.4, 240.8): each pairing scored exactly as the model expects.
        let gamma = [1.0, 2.0, 4.0];
        let games = 3000;
        let mut pairings = Vec::new();
        for (a, b) in [(0, 1), (0, 2), (1, 2)] {
            // The added draw is part of the expectation: A's points plus ½ is (games + 1) γa / (γa + γb).
            let a_points = (games + 1) as f64 * gamma[a] / (gamma[a] + gamma[b]) - 0.5;
            pairings.push(pairing(a, b, a_points, games));
        }
        let elo = ratings(3, &pairings);
        for (i, g) in gamma.iter().enumerate() {
            assert!((elo[i] - 400.0 * g.log10()).abs() < 1e-6, "player {i}: {}", elo[i]);
        }
        // The order of the pairings and the names of A and B do not matter.
        let swapped: Vec<Pairing> =
            pairings.iter().rev().map(|p| pairing(p.b, p.a, p.games as f64 - p.a_points, p.games)).collect();
        for (x, y) in elo.iter().zip(ratings(3, &swapped)) {
            assert!((x - y).abs() < 1e-6);
        }
    }
}
