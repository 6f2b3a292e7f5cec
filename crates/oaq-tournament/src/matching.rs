//! A matching of as many players as possible at the least total cost, on any graph (a
//! pair may be left out), by the `integer-blossom` crate's maximum-weight matching.

/// The pairs of a matching of `n` players that pairs as many as can be paired and, among
/// those, costs least: `cost(a, b)` for `a < b`, `None` where the two may not meet.
pub(crate) fn least_cost_most_pairs(
    n: usize,
    cost: impl Fn(usize, usize) -> Option<u32>,
) -> Vec<(usize, usize)> {
    let mut costs = vec![None; n * n];
    let mut most = 0i64;
    for a in 0..n {
        for b in a + 1..n {
            if let Some(c) = cost(a, b) {
                costs[a * n + b] = Some(i64::from(c));
                most = most.max(i64::from(c));
            }
        }
    }
    // One pair more always outweighs any saving in cost: a pair's weight is at least
    // `base - most`, more than the costs of half the players' pairs together.
    let base = (n as i64 / 2 + 2) * (most + 1);
    let mut weights = vec![0i64; n * n];
    for a in 0..n {
        for b in a + 1..n {
            if let Some(c) = costs[a * n + b] {
                weights[a * n + b] = base - c;
                weights[b * n + a] = base - c;
            }
        }
    }
    let mate = integer_blossom::max_weight_matching(&weights, n);
    (0..n)
        .filter_map(|a| mate[a].filter(|&b| a < b).map(|b| (a, b)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_pairs_come_before_a_lower_cost() {
        // 0–1 is cheap, but taking it leaves 2 and 3 with no one: 0–2 and 1–3 pair all four.
        let cost = |a, b| match (a, b) {
            (0, 1) => Some(0),
            (0, 2) | (1, 3) => Some(1000),
            _ => None,
        };
        assert_eq!(least_cost_most_pairs(4, cost), vec![(0, 2), (1, 3)]);
    }

    #[test]
    fn among_as_many_pairs_the_cheapest() {
        let cost = |a: usize, b: usize| Some((b - a) as u32 * 10);
        // Neighbours: 0–1 and 2–3 (cost 20) rather than 0–3 and 1–2 (40) or 0–2 and 1–3 (40).
        assert_eq!(least_cost_most_pairs(4, cost), vec![(0, 1), (2, 3)]);
        assert_eq!(least_cost_most_pairs(1, cost), vec![]);
        assert_eq!(least_cost_most_pairs(0, cost), vec![]);
    }
}
