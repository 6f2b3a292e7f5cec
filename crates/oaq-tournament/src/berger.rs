//! A round robin's rounds by Berger tables, as FIDE's handbook (C.05, annex 1) lays them out:
//! everyone meets everyone once, a different opponent each round, and first moves alternate
//! as evenly as a round robin allows. An odd number of players adds a rest: whoever would meet
//! it sits the round out. Twice round (a family over a week): the same rounds again with the
//! seats swapped, so each pair meets once with each moving first.

use crate::Pairing;

/// One round: its games, and who rests (an odd number of players).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Round {
    pub games: Vec<Pairing>,
    pub bye: Option<usize>,
}

/// The rounds of a round robin of `players` (numbered `0..players`), once or `twice`.
/// `players - 1` rounds for an even number, `players` for an odd one; twice as many twice.
///
/// ```
/// use oaq_tournament::{Pairing, berger};
/// let rounds = berger::rounds(3, false);
/// assert_eq!(rounds.len(), 3);
/// // Every round one game and one player resting, each in turn.
/// let resting: Vec<_> = rounds.iter().map(|r| r.bye.unwrap()).collect();
/// assert_eq!(resting, [0, 2, 1]);
/// assert_eq!(rounds[0].games, [Pairing { first: 1, second: 2 }]);
/// ```
pub fn rounds(players: usize, twice: bool) -> Vec<Round> {
    if players < 2 {
        return Vec::new();
    }
    // Table numbers 1..=m; with an odd number of players, number m is the rest.
    let m = players + players % 2;
    let rest = (players < m).then_some(m);
    let mut boards: Vec<(usize, usize)> = (1..=m / 2).map(|i| (i, m + 1 - i)).collect();
    let mut once = Vec::with_capacity(m - 1);
    for round in 0..m - 1 {
        if round > 0 {
            boards = next_round(&boards, m, round);
        }
        once.push(as_round(&boards, rest));
    }
    if !twice {
        return once;
    }
    let swapped: Vec<Round> = once
        .iter()
        .map(|round| Round {
            games: round
                .games
                .iter()
                .map(|g| Pairing {
                    first: g.second,
                    second: g.first,
                })
                .collect(),
            bye: round.bye,
        })
        .collect();
    once.into_iter().chain(swapped).collect()
}

/// The next round's boards: every number but `m` moves on by `m / 2` (modulo `m - 1`), keeping
/// its seat at the board; `m` stays at the first board and changes seat each round.
fn next_round(boards: &[(usize, usize)], m: usize, round: usize) -> Vec<(usize, usize)> {
    let turn = |x: usize| {
        if x == m {
            m
        } else {
            (x - 1 + m / 2) % (m - 1) + 1
        }
    };
    boards
        .iter()
        .map(|&(a, b)| {
            let (a, b) = (turn(a), turn(b));
            if a != m && b != m {
                return (a, b);
            }
            let other = if a == m { b } else { a };
            // Number m moves second in the first round (counted from 0: even rounds), first
            // in the next, and so on.
            if round.is_multiple_of(2) {
                (other, m)
            } else {
                (m, other)
            }
        })
        .collect()
}

fn as_round(boards: &[(usize, usize)], rest: Option<usize>) -> Round {
    let mut round = Round::default();
    for &(a, b) in boards {
        match rest {
            Some(r) if a == r => round.bye = Some(b - 1),
            Some(r) if b == r => round.bye = Some(a - 1),
            _ => round.games.push(Pairing {
                first: a - 1,
                second: b - 1,
            }),
        }
    }
    round
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// The published table for four players (FIDE C.05 annex 1): rounds 1–4 2–3, 4–3 1–2,
    /// 2–4 3–1, the first of each pair moving first.
    #[test]
    fn four_players_follow_the_published_table() {
        let table: Vec<Vec<(usize, usize)>> = rounds(4, false)
            .iter()
            .map(|r| {
                r.games
                    .iter()
                    .map(|g| (g.first + 1, g.second + 1))
                    .collect()
            })
            .collect();
        assert_eq!(
            table,
            [
                vec![(1, 4), (2, 3)],
                vec![(4, 3), (1, 2)],
                vec![(2, 4), (3, 1)]
            ]
        );
    }

    /// Every player of every size meets every other once (twice, once moving first each,
    /// in a double round robin), plays at most once a round, and rests at most once a cycle.
    #[test]
    fn everyone_meets_everyone_once_a_cycle() {
        for players in 2..=12 {
            for twice in [false, true] {
                let all = rounds(players, twice);
                let cycles = if twice { 2 } else { 1 };
                let per_cycle = players - 1 + players % 2;
                assert_eq!(all.len(), per_cycle * cycles, "{players} players");
                let mut met: HashMap<(usize, usize), usize> = HashMap::new();
                let mut rests = vec![0; players];
                for round in &all {
                    let mut seen = vec![false; players];
                    for g in &round.games {
                        assert!(
                            !seen[g.first] && !seen[g.second],
                            "{players}: twice in a round"
                        );
                        seen[g.first] = true;
                        seen[g.second] = true;
                        *met.entry((g.first, g.second)).or_default() += 1;
                    }
                    if let Some(b) = round.bye {
                        assert!(!seen[b]);
                        rests[b] += 1;
                    }
                    let playing = seen.iter().filter(|s| **s).count();
                    assert_eq!(playing, players - players % 2);
                }
                for (a, rested) in rests.iter().enumerate() {
                    for b in a + 1..players {
                        let ab = met.get(&(a, b)).copied().unwrap_or(0);
                        let ba = met.get(&(b, a)).copied().unwrap_or(0);
                        assert_eq!(ab + ba, cycles, "{players}: {a} and {b}");
                        if twice {
                            assert_eq!((ab, ba), (1, 1), "{players}: {a} and {b} first once each");
                        }
                    }
                    assert_eq!(*rested, (players % 2) * cycles);
                }
            }
        }
    }

    /// First moves are as even as a round robin allows: over a cycle each player moves first
    /// in half its games, one more or one less.
    #[test]
    fn first_moves_are_balanced() {
        for players in 2..=12 {
            let all = rounds(players, false);
            let mut balance = vec![0i32; players];
            for g in all.iter().flat_map(|r| &r.games) {
                balance[g.first] += 1;
                balance[g.second] -= 1;
            }
            let games = (players - 1) as i32;
            for (p, b) in balance.iter().enumerate() {
                // An odd number of games can only be one off; an even one may be two off
                // (a rest takes one game out of a player's alternation).
                let allowed = if games % 2 == 1 { 1 } else { 2 };
                assert!(b.abs() <= allowed, "{players} players: {p} is {b} off");
            }
        }
    }
}
