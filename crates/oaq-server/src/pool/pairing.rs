//! How a pool's wave pairs its players, pure so that it can be tested and simulated. The idea
//! is lichess's (lila's pool): pair in waves, not one by one, so that each wave can choose the
//! closest ratings; widen what counts as close the longer a player has waited; and put players
//! who abandon games behind everyone else.
//!
//! Sorted by rating, a matching that minimises the sum of rating gaps never crosses (pairing
//! a–c and b–d for a ≤ b ≤ c ≤ d is never better than a–b and c–d), so the best one pairs only
//! neighbours and a dynamic programme over the sorted list finds it exactly. Leaving a player
//! unpaired costs their window, which is at least any gap they would accept: every acceptable
//! pair is made, and a long wait weighs in favour of being paired.
//!
//! ```
//! use oaq_server::pool::pairing::{Candidate, pair};
//! let c = |rating: f64, waves: u32| Candidate { rating, waves, last: false };
//! let wave = pair(&[c(1500.0, 0), c(1900.0, 0), c(1540.0, 0), c(1880.0, 0), c(2600.0, 0)]);
//! assert_eq!(wave.pairs, vec![(0, 2), (3, 1)]);
//! assert_eq!(wave.alone, vec![4], "nobody within 2600's window yet");
//! ```

/// A player in a wave.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    pub rating: f64,
    /// Waves gone by since they joined.
    pub waves: u32,
    /// Abandoned games recently: paired only after everyone else.
    pub last: bool,
}

/// A wave's outcome: pairs of indices into the candidates (the lower rating first) and those
/// left for the next wave.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Wave {
    pub pairs: Vec<(usize, usize)>,
    pub alone: Vec<usize>,
}

/// The rating gap a player accepts after waiting `waves`: 100 points at once, 60 more each
/// wave, up to 1,000.
pub fn window(waves: u32) -> f64 {
    (100.0 + 60.0 * f64::from(waves)).min(1_000.0)
}

/// Whether `a` and `b` may be paired: their gap within the mean of their windows.
pub fn acceptable(a: &Candidate, b: &Candidate) -> bool {
    (a.rating - b.rating).abs() <= (window(a.waves) + window(b.waves)) / 2.0
}

/// Pair a wave: everyone but the `last` first, then what is left of them with the `last`.
pub fn pair(candidates: &[Candidate]) -> Wave {
    pair_except(candidates, |_, _| false)
}

/// [`pair`], never pairing two candidates that `forbidden` says must not meet (one blocks
/// the other): such a pair costs as much as leaving both alone, so each is paired with
/// someone else where the ratings allow.
pub fn pair_except(candidates: &[Candidate], forbidden: impl Fn(usize, usize) -> bool) -> Wave {
    let first: Vec<usize> = (0..candidates.len())
        .filter(|&i| !candidates[i].last)
        .collect();
    let mut wave = pair_among(candidates, first, &forbidden);
    let rest: Vec<usize> = wave
        .alone
        .iter()
        .copied()
        .chain((0..candidates.len()).filter(|&i| candidates[i].last))
        .collect();
    let second = pair_among(candidates, rest, &forbidden);
    wave.pairs.extend(second.pairs);
    wave.alone = second.alone;
    wave.alone.sort_unstable();
    wave
}

/// The best matching of `among` by the dynamic programme over their ratings.
fn pair_among(
    candidates: &[Candidate],
    mut among: Vec<usize>,
    forbidden: &impl Fn(usize, usize) -> bool,
) -> Wave {
    among.sort_by(|&a, &b| {
        candidates[a]
            .rating
            .total_cmp(&candidates[b].rating)
            .then(a.cmp(&b))
    });
    let n = among.len();
    // best[i]: the least cost for the first i; paired[i]: whether i-1 pairs with i-2 in it.
    let mut best = vec![0.0f64; n + 1];
    let mut paired = vec![false; n + 1];
    for i in 1..=n {
        let me = &candidates[among[i - 1]];
        best[i] = best[i - 1] + window(me.waves);
        if i >= 2 {
            let other = &candidates[among[i - 2]];
            if acceptable(other, me) && !forbidden(among[i - 2], among[i - 1]) {
                let cost = best[i - 2] + (me.rating - other.rating).abs();
                if cost < best[i] {
                    best[i] = cost;
                    paired[i] = true;
                }
            }
        }
    }
    let mut wave = Wave::default();
    let mut i = n;
    while i > 0 {
        if paired[i] {
            wave.pairs.push((among[i - 2], among[i - 1]));
            i -= 2;
        } else {
            wave.alone.push(among[i - 1]);
            i -= 1;
        }
    }
    wave.pairs.reverse();
    wave
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_who_block_one_another_are_never_paired() {
        let wave = |forbid: &[(usize, usize)]| {
            let forbid = forbid.to_vec();
            pair_except(
                &[
                    c(1500.0, 0, false),
                    c(1540.0, 0, false),
                    c(1550.0, 0, false),
                ],
                move |a, b| forbid.contains(&(a.min(b), a.max(b))),
            )
        };
        assert_eq!(wave(&[]).pairs, vec![(1, 2)], "the closest pair");
        let apart = wave(&[(1, 2)]);
        assert_eq!(apart.pairs, vec![(0, 1)], "1 and 2 block one another");
        assert_eq!(apart.alone, vec![2]);
        assert!(wave(&[(0, 1), (1, 2)]).pairs.is_empty());
    }

    fn c(rating: f64, waves: u32, last: bool) -> Candidate {
        Candidate {
            rating,
            waves,
            last,
        }
    }

    #[test]
    fn the_window_widens_with_waiting_until_a_pair_is_made() {
        let far = [c(1500.0, 0, false), c(1800.0, 0, false)];
        assert_eq!(pair(&far).pairs, vec![]);
        assert_eq!(pair(&far).alone, vec![0, 1]);
        let later = [c(1500.0, 4, false), c(1800.0, 4, false)];
        assert_eq!(pair(&later).pairs, vec![(0, 1)]);
    }

    #[test]
    fn the_matching_minimises_the_gaps_and_never_crosses() {
        // 1500 with 1560 and 1600 with 1650 (gaps 60 + 50) beats 1560 with 1600 and the ends
        // apart (40 + 150, and 150 is outside the windows anyway).
        let wave = pair(&[
            c(1650.0, 0, false),
            c(1500.0, 0, false),
            c(1600.0, 0, false),
            c(1560.0, 0, false),
        ]);
        assert_eq!(wave.pairs, vec![(1, 3), (2, 0)]);
        assert!(wave.alone.is_empty());
    }

    #[test]
    fn an_odd_one_out_is_the_one_whose_leaving_costs_least() {
        // Three close players: the one who has waited longest is paired.
        let wave = pair(&[
            c(1500.0, 0, false),
            c(1520.0, 6, false),
            c(1540.0, 0, false),
        ]);
        assert_eq!(wave.pairs.len(), 1);
        assert!(wave.pairs[0].0 == 1 || wave.pairs[0].1 == 1, "{wave:?}");
    }

    #[test]
    fn players_who_abandon_games_are_paired_after_everyone_else() {
        // The abandoner is the closer rating, but the other two are paired together first.
        let wave = pair(&[c(1500.0, 0, false), c(1505.0, 0, true), c(1560.0, 0, false)]);
        assert_eq!(wave.pairs, vec![(0, 2)]);
        assert_eq!(wave.alone, vec![1]);
        // With nobody else, they are paired with each other.
        let wave = pair(&[c(1500.0, 0, true), c(1505.0, 0, true)]);
        assert_eq!(wave.pairs, vec![(0, 1)]);
    }
}
