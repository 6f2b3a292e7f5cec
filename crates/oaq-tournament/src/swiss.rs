//! A Swiss round by the Dutch system (FIDE's handbook, C.04.3), the way bbpPairings pairs it:
//! one maximum-weight matching whose weights rank the system's criteria in its order of
//! priority, so that no gain in a later criterion can pay for a loss in an earlier one.
//!
//! - **Absolute**: two players meet at most once; a forbidden pair (siblings) never meets; two
//!   players who must both move first (or both second) do not meet, except topscorers in the
//!   last round; a player has at most one bye.
//! - **Completion**: as many games as can be made; with an odd number, one bye.
//! - **The bye**: to a player of the lowest score group possible.
//! - **Scores**: as few players floating out of their score group as possible (a player
//!   floating past a group counts as one out of each), then the smallest score differences,
//!   floats taken from the lowest groups first (the top groups stay whole); the bye to a player
//!   who has missed the fewest games.
//! - **First moves**: as many players as possible move as they prefer (a strong preference
//!   before a mild one).
//! - **Floats again**: no one floats down (or up) two rounds running where it can be helped.
//! - **Order**: in a score group the top half meets the bottom half in order (1 meets
//!   `m + 1`, 2 meets `m + 2`), a floater meets the best of the group below, and the bye goes
//!   to the lowest of the lowest group.
//!
//! Who moves first follows the system's allocation: both preferences where they differ, else
//! the stronger one, else the reverse of the last round in which the two moved differently,
//! else the higher player's preference.
//!
//! The matching is cubic in the players; its weights are 128-bit integers wide enough for 500
//! players and 15 rounds.

use crate::Pairing;

/// How a player floated in the last round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Float {
    #[default]
    None,
    /// Met a player of a lower score group, or had the bye.
    Down,
    /// Met a player of a higher score group.
    Up,
}

/// A player to pair in this round.
#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    pub player: usize,
    /// Points so far, in half points (a win is 2).
    pub halves: u32,
    /// Place in the seeding (by rating when they joined, then by arrival): 0 is the first.
    pub seed: usize,
    /// Players already met.
    pub met: Vec<usize>,
    /// Each game played in order: whether the player moved first.
    pub firsts: Vec<bool>,
    pub had_bye: bool,
    /// Rounds played so far without a game (absent, or a bye).
    pub unplayed: usize,
    pub last_float: Float,
}

/// How much a player wants to move first (`true`) or second (`false`) in the next game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Preference {
    None,
    /// The other side than in the last game, with as many games first as second.
    Mild(bool),
    /// One game more on one side.
    Strong(bool),
    /// Two games more on one side, or the last two on the same side.
    Absolute(bool),
}

impl Preference {
    /// The preference of a player who moved first in `firsts` (in order).
    ///
    /// ```
    /// use oaq_tournament::swiss::Preference;
    /// assert_eq!(Preference::of(&[]), Preference::None);
    /// assert_eq!(Preference::of(&[true, false]), Preference::Mild(true));
    /// assert_eq!(Preference::of(&[true]), Preference::Strong(false));
    /// assert_eq!(Preference::of(&[true, false, false]), Preference::Absolute(true));
    /// ```
    pub fn of(firsts: &[bool]) -> Preference {
        let difference: i32 = firsts.iter().map(|&f| if f { 1 } else { -1 }).sum();
        let last_two_alike =
            firsts.len() >= 2 && firsts[firsts.len() - 1] == firsts[firsts.len() - 2];
        match (difference, firsts.last()) {
            (_, None) => Preference::None,
            (d, _) if d < -1 => Preference::Absolute(true),
            (d, _) if d > 1 => Preference::Absolute(false),
            (_, Some(&last)) if last_two_alike => Preference::Absolute(!last),
            (-1, _) => Preference::Strong(true),
            (1, _) => Preference::Strong(false),
            (_, Some(&last)) => Preference::Mild(!last),
        }
    }

    fn side(self) -> Option<bool> {
        match self {
            Preference::None => None,
            Preference::Mild(s) | Preference::Strong(s) | Preference::Absolute(s) => Some(s),
        }
    }

    fn strength(self) -> u32 {
        match self {
            Preference::None => 0,
            Preference::Mild(_) => 1,
            Preference::Strong(_) => 2,
            Preference::Absolute(_) => 3,
        }
    }
}

/// A round's games and its bye (a point, to a player who has not had one).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Round {
    pub games: Vec<Pairing>,
    pub bye: Option<usize>,
    /// Players who could not be paired at all (everyone left has met them): no game, no point.
    pub unpaired: Vec<usize>,
}

/// What the round must know beyond its players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Context {
    /// Rounds played before this one.
    pub played: usize,
    /// This is the tournament's last round (topscorers may then meet against their colours).
    pub last: bool,
}

/// The pairings of one round. `forbidden(a, b)` (players, either order) says who must never
/// meet; `coin()` settles the first move of two players with no preference at all.
///
/// ```
/// use oaq_tournament::swiss::{Context, Float, Player, pair};
/// let fresh = |player, seed| Player { player, halves: 0, seed, met: vec![], firsts: vec![],
///     had_bye: false, unplayed: 0, last_float: Float::None };
/// // The first round of five: seed 1 meets seed 3, 2 meets 4 (top half against bottom
/// // half), and the lowest seed has the bye.
/// let players: Vec<Player> = (0..5).map(|p| fresh(p, p)).collect();
/// let round = pair(&players, Context { played: 0, last: false }, |_, _| false, || true);
/// let mut met: Vec<_> = round.games.iter().map(|g| (g.first.min(g.second), g.first.max(g.second)))
///     .collect();
/// met.sort();
/// assert_eq!(met, [(0, 2), (1, 3)]);
/// assert_eq!(round.bye, Some(4));
/// ```
pub fn pair(
    players: &[Player],
    context: Context,
    forbidden: impl Fn(usize, usize) -> bool,
    mut coin: impl FnMut() -> bool,
) -> Round {
    let field = Field::new(players, context);
    let n = players.len();
    // One vertex more, the bye, with an odd number of players.
    let vertices = n + n % 2;
    let weigh = |a: usize, b: usize| -> Option<Cost> {
        if b == n {
            return field.bye_cost(a);
        }
        field.pair_cost(a, b, &forbidden)
    };
    let mut weights = vec![0i128; vertices * vertices];
    let scale = field.scale();
    for a in 0..vertices {
        for b in a + 1..vertices {
            if let Some(cost) = weigh(a, b) {
                weights[a * vertices + b] = scale.weight(cost);
            }
        }
    }
    let mate = integer_blossom::max_weight_matching(&weights, vertices);
    let mut round = Round::default();
    let mut boards = Vec::new();
    for a in 0..n {
        match mate[a] {
            Some(b) if b == n => round.bye = Some(players[a].player),
            Some(b) if a < b && field.above(a, b) => boards.push((a, b)),
            Some(b) if a < b => boards.push((b, a)),
            Some(_) => {}
            None => round.unpaired.push(players[a].player),
        }
    }
    // Boards in the order of their higher player; where neither player has a preference (the
    // first round), one coin gives the first board's first move and the boards alternate.
    boards.sort_by_key(|&(high, _)| field.rank_key(high));
    let first_board = coin();
    round.games = boards
        .iter()
        .enumerate()
        .map(|(board, &(high, low))| field.allocate(high, low, first_board ^ (board % 2 == 1)))
        .collect();
    round
}

/// A candidate pair's shortfalls, each criterion's count, most important first.
type Cost = [u64; CRITERIA];
const CRITERIA: usize = 8;

/// The players in the order the system ranks them, with each one's score group.
struct Field<'a> {
    players: &'a [Player],
    context: Context,
    /// Each player's place in their score group (by seed), and the group's size.
    place: Vec<(usize, usize)>,
    lowest_halves: u32,
    highest_halves: u32,
    /// The score groups' points, in half points.
    groups: Vec<u32>,
}

impl<'a> Field<'a> {
    fn new(players: &'a [Player], context: Context) -> Field<'a> {
        let mut place = vec![(0, 0); players.len()];
        let mut order: Vec<usize> = (0..players.len()).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(players[i].halves), players[i].seed, i));
        for group in order.chunk_by(|&a, &b| players[a].halves == players[b].halves) {
            for (at, &i) in group.iter().enumerate() {
                place[i] = (at, group.len());
            }
        }
        let halves = players.iter().map(|p| p.halves);
        let mut groups: Vec<u32> = halves.clone().collect();
        groups.sort_unstable();
        groups.dedup();
        Field {
            groups,
            players,
            context,
            place,
            lowest_halves: halves.clone().min().unwrap_or(0),
            highest_halves: halves.max().unwrap_or(0),
        }
    }

    /// The order of the ranking: more points, then a better seed (then the caller's order,
    /// should two seeds be alike).
    fn rank_key(&self, a: usize) -> (std::cmp::Reverse<u32>, usize, usize) {
        let p = &self.players[a];
        (std::cmp::Reverse(p.halves), p.seed, a)
    }

    /// Whether `a` ranks above `b`.
    fn above(&self, a: usize, b: usize) -> bool {
        self.rank_key(a) < self.rank_key(b)
    }

    /// More than half the points possible so far: may break the colour rule in the last round.
    fn topscorer(&self, a: usize) -> bool {
        self.context.last && self.players[a].halves as usize > self.context.played
    }

    fn pair_cost(
        &self,
        a: usize,
        b: usize,
        forbidden: &impl Fn(usize, usize) -> bool,
    ) -> Option<Cost> {
        let (hi, lo) = if self.above(a, b) { (a, b) } else { (b, a) };
        let (ph, pl) = (&self.players[hi], &self.players[lo]);
        if ph.met.contains(&pl.player)
            || pl.met.contains(&ph.player)
            || forbidden(ph.player, pl.player)
        {
            return None;
        }
        let (prefer_h, prefer_l) = (Preference::of(&ph.firsts), Preference::of(&pl.firsts));
        let clash = prefer_h.side().is_some() && prefer_h.side() == prefer_l.side();
        let both_absolute = clash && prefer_h.strength() == 3 && prefer_l.strength() == 3;
        if both_absolute && !(self.topscorer(hi) || self.topscorer(lo)) {
            return None;
        }
        let gap = u64::from(ph.halves - pl.halves);
        // A float out of each group between the two, the higher's included: one float down
        // three groups costs as much as three floats down one (and its gap costs more).
        let floats = self
            .groups
            .iter()
            .filter(|&&g| g > pl.halves && g <= ph.halves)
            .count() as u64;
        let colour = if clash {
            u64::from(prefer_h.strength().min(prefer_l.strength()))
        } else {
            0
        };
        let again = if gap > 0 {
            u64::from(ph.last_float == Float::Down) + u64::from(pl.last_float == Float::Up)
        } else {
            0
        };
        let (at_h, size) = self.place[hi];
        let (at_l, _) = self.place[lo];
        let order = if gap == 0 {
            // The top half against the bottom half in order: `at_l` should be `at_h + size / 2`.
            (at_l as i64 - (at_h + size / 2) as i64).unsigned_abs()
        } else {
            at_l as u64
        };
        let height = if gap > 0 {
            u64::from(ph.halves - self.lowest_halves)
        } else {
            0
        };
        Some([0, floats, gap * gap, height, 0, colour, again, order])
    }

    /// The cost of player `a` having the bye: a float below the lowest group.
    fn bye_cost(&self, a: usize) -> Option<Cost> {
        let p = &self.players[a];
        if p.had_bye {
            return None;
        }
        let height = u64::from(p.halves - self.lowest_halves);
        let again = u64::from(p.last_float == Float::Down);
        let (at, size) = self.place[a];
        let unplayed = p.unplayed as u64;
        // Moving a player of the group's upper part to the bye undoes more of the group's order
        // than any one game out of place.
        let order = ((size - 1 - at) * size) as u64;
        Some([height, 0, 0, 0, unplayed, 0, again, order])
    }

    /// Each criterion's largest count for one pair.
    fn largest(&self) -> Cost {
        let gap = u64::from(self.highest_halves - self.lowest_halves);
        let rounds = self.context.played as u64;
        let n = self.players.len() as u64;
        let groups = self.groups.len() as u64;
        [gap, groups, gap * gap, gap, rounds, 3, 2, n * n]
    }

    fn scale(&self) -> Scale {
        let pairs = (self.players.len() / 2 + 1) as i128;
        let mut units = [0i128; CRITERIA];
        let mut unit = 1i128;
        let largest = self.largest();
        for c in (0..CRITERIA).rev() {
            units[c] = unit;
            unit *= pairs * largest[c] as i128 + 1;
        }
        // One game more outweighs every criterion's shortfall together.
        Scale { units, base: unit }
    }

    /// The game between `hi` and `lo` (ranked lower), the first move allocated as the system
    /// does; `board_coin` where neither has a preference.
    fn allocate(&self, hi: usize, lo: usize, board_coin: bool) -> Pairing {
        let (ph, pl) = (&self.players[hi], &self.players[lo]);
        let (prefer_h, prefer_l) = (Preference::of(&ph.firsts), Preference::of(&pl.firsts));
        let high_first = match (prefer_h.side(), prefer_l.side()) {
            (Some(h), Some(l)) if h != l => h,
            (Some(h), None) => h,
            (None, Some(l)) => !l,
            (None, None) => board_coin,
            (Some(h), Some(_)) => match prefer_h.strength().cmp(&prefer_l.strength()) {
                std::cmp::Ordering::Greater => h,
                std::cmp::Ordering::Less => !h,
                std::cmp::Ordering::Equal => last_difference(&ph.firsts, &pl.firsts)
                    .map_or(h, |high_was_first| !high_was_first),
            },
        };
        let (first, second) = if high_first { (ph, pl) } else { (pl, ph) };
        Pairing {
            first: first.player,
            second: second.player,
        }
    }
}

/// In the latest round in which the two moved differently (counted back from their last
/// games), whether the first of them moved first.
fn last_difference(a: &[bool], b: &[bool]) -> Option<bool> {
    a.iter()
        .rev()
        .zip(b.iter().rev())
        .find(|(x, y)| x != y)
        .map(|(&x, _)| x)
}

/// The weights: each criterion's unit, and the weight of a game before its costs.
struct Scale {
    units: [i128; CRITERIA],
    base: i128,
}

impl Scale {
    fn weight(&self, cost: Cost) -> i128 {
        let shortfall: i128 = cost
            .iter()
            .zip(self.units)
            .map(|(&c, unit)| c as i128 * unit)
            .sum();
        self.base - shortfall
    }
}

#[cfg(test)]
mod tests;
