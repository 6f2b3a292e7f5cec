//! An arena's wave: the players waiting for a game, paired at once, as lichess's arena pairs
//! them. Near neighbours in the standings meet, by a maximum-weight matching whose cost for a
//! pair is their gap in rank (weighted more at the top, where a place matters most) and in
//! rating. Two players never meet twice in a row (unless they are the only two playing), no one
//! moves first or second more than three games in a row, and whoever has moved first less
//! lately moves first. Pairs that must not meet (siblings, a block) never do.
//!
//! The matching is cubic in the players matched, so a large wave is matched in groups of
//! [`GROUP`] by rank, an odd player carried on to the next group.

use crate::{FirstMoves, Pairing, matching};

/// Players matched together at most, in rank order.
pub const GROUP: usize = 100;

/// A player waiting for a game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Waiting {
    pub player: usize,
    /// Place in the standings now, 0 for the first.
    pub rank: usize,
    pub rating: f64,
    /// Who they played last.
    pub last_opponent: Option<usize>,
    pub firsts: FirstMoves,
}

/// What the wave must know beyond the players waiting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wave {
    /// Players in the standings (the ranks' range).
    pub ranked: usize,
    /// Only two players are in the arena: they may meet again and again.
    pub only_two: bool,
}

/// The wave's games. `forbidden(a, b)` (players, either order) says who must never meet;
/// `coin()` settles who moves first between two players alike in their first moves.
///
/// ```
/// use oaq_tournament::arena::{Waiting, Wave, pair};
/// use oaq_tournament::FirstMoves;
/// let w = |player, rank, rating, last| Waiting {
///     player, rank, rating, last_opponent: last, firsts: FirstMoves::default(),
/// };
/// // 1 and 2 have just played each other: each meets a neighbour in the standings instead.
/// let waiting = [w(0, 0, 1500.0, None), w(1, 1, 1500.0, Some(2)), w(2, 2, 1500.0, Some(1)),
///     w(3, 3, 1500.0, None)];
/// let games = pair(&waiting, Wave { ranked: 4, only_two: false }, |_, _| false, || true);
/// let mut met: Vec<_> = games.iter().map(|g| (g.first.min(g.second), g.first.max(g.second)))
///     .collect();
/// met.sort();
/// assert_eq!(met, [(0, 1), (2, 3)]);
/// ```
pub fn pair(
    waiting: &[Waiting],
    wave: Wave,
    forbidden: impl Fn(usize, usize) -> bool,
    mut coin: impl FnMut() -> bool,
) -> Vec<Pairing> {
    let mut by_rank: Vec<&Waiting> = waiting.iter().collect();
    by_rank.sort_by_key(|w| w.rank);
    let mut games = Vec::new();
    let mut carried: Vec<&Waiting> = Vec::new();
    for chunk in by_rank.chunks(GROUP) {
        let group: Vec<&Waiting> = carried.drain(..).chain(chunk.iter().copied()).collect();
        let cost = |a: usize, b: usize| pair_cost(group[a], group[b], wave, &forbidden);
        let matched = matching::least_cost_most_pairs(group.len(), cost);
        let mut paired = vec![false; group.len()];
        for (a, b) in matched {
            paired[a] = true;
            paired[b] = true;
            games.push(first_mover(group[a], group[b], &mut coin));
        }
        // Whoever is left may meet someone of the next group.
        carried = (0..group.len())
            .filter(|&i| !paired[i])
            .map(|i| group[i])
            .collect();
    }
    games
}

/// What pairing `a` with `b` costs, or `None` where they may not meet.
fn pair_cost(
    a: &Waiting,
    b: &Waiting,
    wave: Wave,
    forbidden: &impl Fn(usize, usize) -> bool,
) -> Option<u32> {
    let rematch = a.last_opponent == Some(b.player) || b.last_opponent == Some(a.player);
    if (rematch && !wave.only_two) || !a.firsts.may_meet(b.firsts) || forbidden(a.player, b.player)
    {
        return None;
    }
    // A place near the top weighs up to 2,000 rating points; near the bottom 300.
    let ranked = wave.ranked.max(1) as f64;
    let top = a.rank.min(b.rank) as f64;
    let rank_factor = 300.0 + 1700.0 * (ranked - top).max(0.0) / ranked;
    let gap = a.rank.abs_diff(b.rank) as f64 * rank_factor + (a.rating - b.rating).abs();
    Some(gap.round().min(f64::from(u32::MAX / 4)) as u32)
}

fn first_mover(a: &Waiting, b: &Waiting, coin: &mut impl FnMut() -> bool) -> Pairing {
    if a.firsts.moves_first_against(b.firsts, coin()) {
        Pairing {
            first: a.player,
            second: b.player,
        }
    } else {
        Pairing {
            first: b.player,
            second: a.player,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn waiting(player: usize, rank: usize, rating: f64) -> Waiting {
        Waiting {
            player,
            rank,
            rating,
            last_opponent: None,
            firsts: FirstMoves::default(),
        }
    }

    #[test]
    fn the_top_meets_the_top() {
        let players: Vec<Waiting> = (0..8).map(|i| waiting(i, i, 1500.0)).collect();
        let wave = Wave {
            ranked: 8,
            only_two: false,
        };
        let mut games = pair(&players, wave, |_, _| false, || true);
        games.sort_by_key(|g| g.first.min(g.second));
        let met: Vec<_> = games
            .iter()
            .map(|g| (g.first.min(g.second), g.first.max(g.second)))
            .collect();
        assert_eq!(met, [(0, 1), (2, 3), (4, 5), (6, 7)]);
    }

    #[test]
    fn the_only_two_players_may_meet_again() {
        let mut a = waiting(0, 0, 1500.0);
        let mut b = waiting(1, 1, 1500.0);
        a.last_opponent = Some(1);
        b.last_opponent = Some(0);
        let two = |only_two| {
            pair(
                &[a, b],
                Wave {
                    ranked: 2,
                    only_two,
                },
                |_, _| false,
                || true,
            )
        };
        assert_eq!(two(true).len(), 1);
        assert!(two(false).is_empty());
    }

    #[test]
    fn a_forbidden_pair_never_meets_and_the_others_still_play() {
        let players: Vec<Waiting> = (0..4).map(|i| waiting(i, i, 1500.0)).collect();
        let siblings = |a: usize, b: usize| a.min(b) == 0 && a.max(b) == 1;
        let games = pair(
            &players,
            Wave {
                ranked: 4,
                only_two: false,
            },
            siblings,
            || true,
        );
        assert_eq!(games.len(), 2);
        assert!(games.iter().all(|g| !(g.has(0) && g.has(1))));
    }

    /// A whole arena of waves, every player waiting again at once after each game, with
    /// random ranks: no one plays twice in a wave, no immediate rematch, no forbidden pair,
    /// never four games in a row as first (or second) mover, and as many games as the rules
    /// allow in a wave of players all free to meet (an even number of fresh players pairs all).
    fn simulate(n: usize, waves: usize, seed: u64) {
        let mut rng = seed;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let forbidden = |a: usize, b: usize| (a + b).is_multiple_of(7) && a != b;
        let mut last = vec![None; n];
        let mut firsts = vec![FirstMoves::default(); n];
        let mut runs_seen = 0i8;
        for wave_no in 0..waves {
            let mut ranks: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                ranks.swap(i, next() as usize % (i + 1));
            }
            let players: Vec<Waiting> = (0..n)
                .map(|p| Waiting {
                    player: p,
                    rank: ranks[p],
                    rating: 1200.0 + (next() % 800) as f64,
                    last_opponent: last[p],
                    firsts: firsts[p],
                })
                .collect();
            let games = pair(
                &players,
                Wave {
                    ranked: n,
                    only_two: n == 2,
                },
                forbidden,
                || next() % 2 == 0,
            );
            let mut busy = vec![false; n];
            for g in &games {
                assert!(!busy[g.first] && !busy[g.second], "wave {wave_no}: twice");
                busy[g.first] = true;
                busy[g.second] = true;
                assert!(!forbidden(g.first, g.second));
                if n > 2 {
                    assert_ne!(last[g.first], Some(g.second), "wave {wave_no}: a rematch");
                }
            }
            if wave_no == 0 && n.is_multiple_of(2) && n <= GROUP {
                // Fresh players: only the forbidden pairs stand in the way of pairing all;
                // with at most one forbidden partner each here, everyone plays.
                assert_eq!(games.len(), n / 2, "the first wave pairs everyone");
            }
            for g in &games {
                firsts[g.first] = firsts[g.first].after(true);
                firsts[g.second] = firsts[g.second].after(false);
                last[g.first] = Some(g.second);
                last[g.second] = Some(g.first);
            }
            for f in &firsts {
                assert!(f.run.abs() <= FirstMoves::MAX_RUN, "a run of {}", f.run);
                runs_seen = runs_seen.max(f.run.abs());
            }
        }
    }

    #[test]
    fn a_small_arena_and_one_larger_than_a_group_keep_every_rule() {
        simulate(4, 30, 7);
        simulate(11, 40, 9);
        simulate(2 * GROUP + 31, 6, 11);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn any_arena_keeps_every_rule(n in 2usize..40, waves in 1usize..25, seed in 1u64..u64::MAX) {
            simulate(n, waves, seed);
        }
    }
}
