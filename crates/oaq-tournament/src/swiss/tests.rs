//! The Swiss pairing against published worked examples, against every pairing of small fields
//! (the matching's weights must rank the criteria as the system does), and over whole
//! tournaments with absences, draws and forbidden pairs.

use super::*;
use proptest::prelude::*;

fn player(player: usize, halves: u32, met: &[usize], firsts: &[bool]) -> Player {
    Player {
        player,
        halves,
        seed: player,
        met: met.to_vec(),
        firsts: firsts.to_vec(),
        had_bye: false,
        unplayed: 0,
        last_float: Float::None,
    }
}

fn game(first: usize, second: usize) -> Pairing {
    Pairing { first, second }
}

/// bbpPairings' test of the 2025 rules' fifth criterion: six players, the fourth absent from
/// the last round. Pairing the two leaders would leave the bye to a player with a point; the
/// system gives it to the one with none, and the leaders meet the players with a point.
#[test]
fn the_bye_goes_to_the_lowest_score_before_the_leaders_meet() {
    let (w, b) = (true, false);
    let mut third = player(2, 4, &[5, 3], &[w, b]);
    third.last_float = Float::Down;
    let players = [
        player(0, 4, &[3, 1], &[w, b]),
        player(1, 2, &[4, 0], &[b, w]),
        third,
        player(4, 2, &[1, 5], &[w, b]),
        player(5, 0, &[2, 4], &[b, w]),
    ];
    let context = Context {
        played: 2,
        last: true,
    };
    let round = pair(&players, context, |_, _| false, || true);
    assert_eq!(round.games, [game(0, 4), game(2, 1)]);
    assert_eq!(round.bye, Some(5));
    assert!(round.unpaired.is_empty());
}

/// bbpPairings' test of the 2025 rules' ninth criterion: five players in the second round, the
/// fifth absent from the first. The bye goes to a player who has played, the lowest of them
/// that lets the rest pair; the leaders meet with their first moves reversed.
#[test]
fn the_bye_goes_to_a_player_who_missed_no_game() {
    let (w, b) = (true, false);
    let mut absent = player(4, 0, &[], &[]);
    absent.unplayed = 1;
    let players = [
        player(0, 2, &[2], &[w]),
        player(1, 2, &[3], &[b]),
        player(2, 0, &[0], &[b]),
        player(3, 0, &[1], &[w]),
        absent,
    ];
    let context = Context {
        played: 1,
        last: false,
    };
    let round = pair(&players, context, |_, _| false, || true);
    assert_eq!(round.games, [game(1, 0), game(2, 4)]);
    assert_eq!(round.bye, Some(3));
}

#[test]
fn the_first_round_meets_top_half_against_bottom_half_and_alternates_the_first_move() {
    let players: Vec<Player> = (0..8).map(|p| player(p, 0, &[], &[])).collect();
    let context = Context {
        played: 0,
        last: false,
    };
    let round = pair(&players, context, |_, _| false, || true);
    assert_eq!(
        round.games,
        [game(0, 4), game(5, 1), game(2, 6), game(7, 3)]
    );
    let round = pair(&players, context, |_, _| false, || false);
    assert_eq!(round.games[0], game(4, 0));
}

/// A lone leader meets the next group, and its odd player the group below, rather than the
/// leader meeting the last player three groups down.
#[test]
fn floats_go_one_group_down_rather_than_far() {
    let players: Vec<Player> = [6, 4, 4, 2, 2, 0]
        .iter()
        .enumerate()
        .map(|(p, &halves)| player(p, halves, &[], &[]))
        .collect();
    let context = Context {
        played: 3,
        last: false,
    };
    let round = pair(&players, context, |_, _| false, || true);
    assert_eq!(round.games.len(), 3);
    for g in &round.games {
        let gap = players[g.first].halves.abs_diff(players[g.second].halves);
        assert!(gap <= 2, "{g:?} floats {gap} half points");
    }
}

#[test]
fn preferences_follow_the_first_move_difference_and_the_last_two_games() {
    use Preference::*;
    assert_eq!(Preference::of(&[false, false]), Absolute(true));
    assert_eq!(Preference::of(&[true, true, false]), Strong(false));
    assert_eq!(Preference::of(&[true, false, true, false]), Mild(true));
    assert!(Absolute(false) > Strong(true) && Strong(true) > Mild(false));
}

/// A random field of `n` players after `played` rounds, for the exhaustive check.
fn field(n: usize, played: usize, seed: u64) -> Vec<Player> {
    let mut rng = seed | 1;
    let mut next = move |m: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % m
    };
    let mut players: Vec<Player> = (0..n).map(|p| player(p, 0, &[], &[])).collect();
    for _ in 0..played {
        for p in 0..n {
            players[p].halves += next(3) as u32;
            let f = next(2) == 0;
            players[p].firsts.push(f);
            if next(3) == 0 {
                let o = next(n as u64) as usize;
                if o != p && !players[p].met.contains(&o) {
                    players[p].met.push(o);
                    players[o].met.push(p);
                }
            }
        }
    }
    for p in &mut players {
        p.had_bye = next(4) == 0;
        p.last_float = [Float::None, Float::Down, Float::Up][next(3) as usize];
        p.unplayed = next(2) as usize;
        p.seed = next(1000) as usize;
    }
    players
}

/// Every criterion's total over a round, as the weights count them.
fn totals(field: &Field, players: &[Player], round: &Round) -> (usize, Cost) {
    let index = |p: usize| players.iter().position(|q| q.player == p).unwrap();
    let mut total = [0u64; CRITERIA];
    let mut add = |cost: Cost| {
        for (t, c) in total.iter_mut().zip(cost) {
            *t += c;
        }
    };
    for g in &round.games {
        add(field
            .pair_cost(index(g.first), index(g.second), &|_, _| false)
            .unwrap());
    }
    if let Some(bye) = round.bye {
        add(field.bye_cost(index(bye)).unwrap());
    }
    (round.games.len() + usize::from(round.bye.is_some()), total)
}

/// The best round by brute force: every partial matching of the players and the bye, the most
/// pairs first, then the criteria's totals compared in order.
fn best(field: &Field, n: usize) -> (usize, Cost) {
    fn search(
        field: &Field,
        n: usize,
        free: &mut Vec<bool>,
        pairs: usize,
        total: Cost,
        best: &mut (usize, Cost),
    ) {
        let Some(a) = (0..=n).find(|&v| free[v]) else {
            let key = (std::cmp::Reverse(pairs), total);
            if key < (std::cmp::Reverse(best.0), best.1) {
                *best = (pairs, total);
            }
            return;
        };
        free[a] = false;
        search(field, n, free, pairs, total, best);
        for b in a + 1..=n {
            if !free[b] {
                continue;
            }
            let cost = if b == n {
                field.bye_cost(a)
            } else if a == n {
                None
            } else {
                field.pair_cost(a, b, &|_, _| false)
            };
            if let Some(cost) = cost {
                free[b] = false;
                let mut sum = total;
                for (s, c) in sum.iter_mut().zip(cost) {
                    *s += c;
                }
                search(field, n, free, pairs + 1, sum, best);
                free[b] = true;
            }
        }
        free[a] = true;
    }
    let mut free = vec![true; n + 1];
    // The bye vertex exists only with an odd number of players.
    free[n] = n % 2 == 1;
    let mut found = (0, [u64::MAX; CRITERIA]);
    search(field, n, &mut free, 0, [0; CRITERIA], &mut found);
    found
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The matching finds the round that the criteria, compared one after another, rank
    /// first: its weights never trade an earlier criterion for later ones.
    #[test]
    fn the_matching_ranks_the_criteria_as_an_exhaustive_search_does(
        n in 2usize..9, played in 1usize..5, seed in 1u64..u64::MAX, last in any::<bool>(),
    ) {
        let players = field(n, played, seed);
        let context = Context { played, last };
        let round = pair(&players, context, |_, _| false, || true);
        let f = Field::new(&players, context);
        prop_assert_eq!(totals(&f, &players, &round), best(&f, n));
    }
}

/// A whole Swiss with results drawn at random, players absent now and then, and two pairs that
/// must never meet: every round keeps the absolute rules.
fn tournament(n: usize, rounds: usize, seed: u64) {
    let mut rng = seed | 1;
    let mut next = move |m: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % m
    };
    let forbidden = |a: usize, b: usize| matches!((a.min(b), a.max(b)), (0, 1) | (2, 5));
    let mut all: Vec<Player> = (0..n).map(|p| player(p, 0, &[], &[])).collect();
    for played in 0..rounds {
        let present: Vec<Player> = all.iter().filter(|_| next(10) != 0).cloned().collect();
        let context = Context {
            played,
            last: played + 1 == rounds,
        };
        let round = pair(&present, context, forbidden, || next(2) == 0);
        let mut seen = vec![0; n];
        for g in &round.games {
            assert!(!all[g.first].met.contains(&g.second), "{g:?} met before");
            assert!(!forbidden(g.first, g.second), "{g:?} is forbidden");
            seen[g.first] += 1;
            seen[g.second] += 1;
        }
        if let Some(bye) = round.bye {
            assert!(!all[bye].had_bye, "a second bye for {bye}");
            seen[bye] += 1;
        }
        for p in &round.unpaired {
            seen[*p] += 1;
        }
        for p in &present {
            assert_eq!(
                seen[p.player], 1,
                "{} in the round {} times",
                p.player, seen[p.player]
            );
        }
        // Early on nobody is left out, unless no round could seat them all (two players
        // present who must never meet).
        if played < n / 4 && pairable(&present, &forbidden) {
            assert!(
                round.unpaired.is_empty(),
                "round {played}: {:?} unpaired",
                round.unpaired
            );
        }
        let topscorer: Vec<bool> = all
            .iter()
            .map(|p| context.last && p.halves as usize > played)
            .collect();
        let topscorers_meet = |g: &Pairing| topscorer[g.first] || topscorer[g.second];
        for p in 0..n {
            all[p].last_float = Float::None;
            if seen[p] == 0 {
                all[p].unplayed += 1;
            }
        }
        for g in &round.games {
            let (a, b) = (g.first, g.second);
            if all[a].halves != all[b].halves {
                let (high, low) = if all[a].halves > all[b].halves {
                    (a, b)
                } else {
                    (b, a)
                };
                all[high].last_float = Float::Down;
                all[low].last_float = Float::Up;
            }
            let result = next(3) as u32;
            all[a].halves += result;
            all[b].halves += 2 - result;
            all[a].met.push(b);
            all[b].met.push(a);
            all[a].firsts.push(true);
            all[b].firsts.push(false);
            if !topscorers_meet(g) {
                for p in [a, b] {
                    let difference: i32 =
                        all[p].firsts.iter().map(|&f| if f { 1 } else { -1 }).sum();
                    assert!(difference.abs() <= 2, "{p} at {difference}");
                    let run = all[p]
                        .firsts
                        .iter()
                        .rev()
                        .take_while(|&&f| f == *all[p].firsts.last().unwrap());
                    assert!(run.count() <= 2, "{p}: three in a row");
                }
            }
        }
        if let Some(bye) = round.bye {
            all[bye].had_bye = true;
            all[bye].halves += 2;
            all[bye].unplayed += 1;
            all[bye].last_float = Float::Down;
        }
    }
}

/// Whether every player of `left` can be seated: paired with one they have not met and may
/// meet, one of an odd number given the bye if they have not had it.
fn pairable(left: &[Player], forbidden: &impl Fn(usize, usize) -> bool) -> bool {
    if left.len() % 2 == 1 {
        return (0..left.len()).any(|bye| {
            let mut rest = left.to_vec();
            !rest.remove(bye).had_bye && pairable(&rest, forbidden)
        });
    }
    let Some((first, rest)) = left.split_first() else {
        return true;
    };
    (0..rest.len()).any(|k| {
        let other = &rest[k];
        let allowed = !first.met.contains(&other.player) && !forbidden(first.player, other.player);
        let mut others = rest.to_vec();
        others.remove(k);
        allowed && pairable(&others, forbidden)
    })
}

#[test]
fn whole_tournaments_keep_the_absolute_rules() {
    tournament(9, 7, 3);
    tournament(16, 9, 5);
    tournament(61, 11, 7);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]
    #[test]
    fn any_tournament_keeps_the_absolute_rules(n in 4usize..30, rounds in 3usize..12, seed in 1u64..u64::MAX) {
        tournament(n, rounds.min(n - 1), seed);
    }
}
