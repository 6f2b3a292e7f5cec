//! Paired margins: each opening is played twice, seats swapped, and A's score differences over
//! its two games are averaged. The first mover's edge cancels out within a pair, so what is left
//! is how much better A plays, in points.

use crate::arena::GameResult;

/// The paired margins of a match, summarised.
#[derive(Clone, Debug, PartialEq)]
pub struct PairedMargin {
    /// Openings with both games played.
    pub openings: usize,
    /// The mean paired margin, in points.
    pub mean: f64,
    /// Half the width of its 95% interval (normal approximation over openings).
    pub half_width: f64,
    /// Openings where A's paired margin is above, at and below zero.
    pub positive: usize,
    pub zero: usize,
    pub negative: usize,
}

/// Each opening's paired margin (A's two margins averaged), in the openings' order; an opening
/// with only one game played is left out.
pub fn pair_margins(results: &[GameResult]) -> Vec<f64> {
    let mut by_opening = std::collections::BTreeMap::<usize, (i32, u32)>::new();
    for r in results {
        let entry = by_opening.entry(r.opening).or_default();
        entry.0 += r.margin;
        entry.1 += 1;
    }
    by_opening
        .values()
        .filter(|&&(_, games)| games == 2)
        .map(|&(sum, _)| f64::from(sum) / 2.0)
        .collect()
}

impl PairedMargin {
    /// From a match's games; an opening with only one game played is left out.
    pub fn of(results: &[GameResult]) -> PairedMargin {
        let pairs = pair_margins(results);
        let n = pairs.len() as f64;
        let mean = if pairs.is_empty() {
            0.0
        } else {
            pairs.iter().sum::<f64>() / n
        };
        let variance = if pairs.len() > 1 {
            pairs.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / (n - 1.0)
        } else {
            0.0
        };
        PairedMargin {
            openings: pairs.len(),
            mean,
            half_width: 1.96 * (variance / n.max(1.0)).sqrt(),
            positive: pairs.iter().filter(|&&m| m > 0.0).count(),
            zero: pairs.iter().filter(|&&m| m == 0.0).count(),
            negative: pairs.iter().filter(|&&m| m < 0.0).count(),
        }
    }

    /// The share of openings, in percent.
    pub fn percent(&self, count: usize) -> f64 {
        100.0 * count as f64 / self.openings.max(1) as f64
    }
}

impl std::fmt::Display for PairedMargin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "paired margin A - B: {:+.2} ± {:.2} points (95% interval, {} openings); positive on {:.1}%, zero on {:.1}%, negative on {:.1}%",
            self.mean,
            self.half_width,
            self.openings,
            self.percent(self.positive),
            self.percent(self.zero),
            self.percent(self.negative)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn game(opening: usize, margin: i32) -> GameResult {
        GameResult {
            opening,
            a_first: margin > 0,
            points: f64::from(u8::from(margin > 0)),
            margin,
            time: [(Duration::ZERO, 0, Duration::ZERO); 2],
        }
    }

    #[test]
    fn pairs_average_the_two_seats() {
        // Opening 0: A wins by 20 moving first, loses by 10 moving second: +5.
        // Opening 1: -4 and +4: 0. Opening 2: -10 and -2: -6. Opening 3 has one game only.
        let results = [
            game(0, 20),
            game(1, -4),
            game(0, -10),
            game(2, -10),
            game(1, 4),
            game(2, -2),
            game(3, 50),
        ];
        let paired = PairedMargin::of(&results);
        assert_eq!(paired.openings, 3);
        assert!((paired.mean - (-1.0 / 3.0)).abs() < 1e-9);
        assert_eq!((paired.positive, paired.zero, paired.negative), (1, 1, 1));
        // Sample deviation of (5, 0, -6) around -1/3: sqrt(30.33...) = 5.507; / sqrt(3) × 1.96.
        assert!((paired.half_width - 1.96 * (91.0f64 / 3.0 / 3.0).sqrt()).abs() < 1e-9);
        assert!(paired.to_string().contains("-0.33 ± 6.23"), "{paired}");
    }

    #[test]
    fn no_pairs_is_no_claim() {
        let paired = PairedMargin::of(&[game(0, 3)]);
        assert_eq!(paired.openings, 0);
        assert_eq!(paired.half_width, 0.0);
    }
}
