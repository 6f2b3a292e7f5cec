//! The static evaluation: what a position is worth to one side when the search stops short of
//! the end, in hundredths of a point. Points already scored count 100 each; the rest is a
//! weighted sum of features of each side, fitted to how games between deep searches end
//! (`oaq fit`).

use serde::{Deserialize, Serialize};

use oaq_rules::Position;
use oaq_rules::geometry::{self, ROW_LEN};

/// A finished game is worth this much to the winner, plus the final margin: more than any
/// unfinished position can be.
pub const WIN: i32 = 1_000_000;

/// Features the evaluation weighs.
pub const FEATURES: usize = 8;

/// Board stones below which the end-game race starts to count (`Weights::late_row_stones`).
const LATE: i32 = 40;

/// The weights of the evaluation, in hundredths of a point per unit of each feature. Every
/// feature is counted for each side, and a side's value is its own minus its opponents'.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weights {
    /// Per stone on the side's own row: stones it collects at the end, if nobody captures them
    /// first.
    pub row_stones: i32,
    /// Per stone on the own row, scaled by how far the game has run down (none while the board
    /// holds `LATE` stones or more, the full weight on an empty board): the end-game race.
    pub late_row_stones: i32,
    /// Per pit of the own row that holds stones: moves to choose from, and fewer holes for the
    /// opponent to capture across.
    pub stocked_pits: i32,
    /// For the side to move: the move itself.
    pub tempo: i32,
    /// For the side to move, per point of the largest capture one of its moves makes without a
    /// relay.
    pub capture_now: i32,
    /// For a side not to move, per point of the largest capture it would have without a relay
    /// if it were its turn: what the mover must defend.
    pub capture_next: i32,
    /// For the side to move, per point in mandarin pits that lie next to an empty pit: the
    /// pattern a mandarin capture needs, reached through relays too.
    pub mandarin_threat: i32,
    /// For a side not to move whose row is empty: the refill it pays for on its turn.
    pub refill_due: i32,
}

impl Weights {
    /// The shipped weights (`assets/ai/weights.ron`, made by `oaq fit`).
    pub fn shipped() -> Weights {
        // Parsed once: every computer move asks for them.
        static SHIPPED: std::sync::OnceLock<Weights> = std::sync::OnceLock::new();
        *SHIPPED.get_or_init(|| {
            match ron::from_str(include_str!("../../../assets/ai/weights.ron")) {
                Ok(weights) => weights,
                // The file is part of the program and a test parses it.
                Err(e) => panic!("assets/ai/weights.ron is broken: {e}"),
            }
        })
    }

    /// Every weight, in the order of `features`.
    pub fn to_array(self) -> [i32; FEATURES] {
        [
            self.row_stones,
            self.late_row_stones,
            self.stocked_pits,
            self.tempo,
            self.capture_now,
            self.capture_next,
            self.mandarin_threat,
            self.refill_due,
        ]
    }

    pub fn from_array(w: [i32; FEATURES]) -> Weights {
        Weights {
            row_stones: w[0],
            late_row_stones: w[1],
            stocked_pits: w[2],
            tempo: w[3],
            capture_now: w[4],
            capture_next: w[5],
            mandarin_threat: w[6],
            refill_due: w[7],
        }
    }

    /// The names of the weights, in the order of `features`.
    pub const NAMES: [&'static str; FEATURES] = [
        "row_stones",
        "late_row_stones",
        "stocked_pits",
        "tempo",
        "capture_now",
        "capture_next",
        "mandarin_threat",
        "refill_due",
    ];
}

/// What `pos` is worth to seat `me`: final result when the game is over, else the points
/// scored and the weighted features of `me` minus those of the average opponent.
pub fn evaluate(pos: &Position, me: usize, weights: &Weights) -> i32 {
    if pos.is_over() {
        return final_value(pos, me);
    }
    let w = weights.to_array();
    // The relay-free capture is the costly feature: skipped when nothing weighs it.
    let captures = w[4] != 0 || w[5] != 0;
    let players = pos.players();
    let board = board_stones(pos);
    let threat = if w[6] != 0 {
        mandarin_points_in_reach(pos)
    } else {
        0
    };
    let mut own = 0;
    let mut others = 0;
    for p in 0..players {
        let f = side_features(pos, p, board, captures, threat);
        let mut value = 100 * pos.score(p);
        for j in 0..FEATURES {
            value += w[j] * f[j];
        }
        if p == me {
            own = value;
        } else {
            others += value;
        }
    }
    own - others / (players - 1) as i32
}

/// The features of `me` minus those of the average opponent, in the order of the weights: what
/// `evaluate` weighs, for fitting the weights.
pub fn features(pos: &Position, me: usize) -> [f64; FEATURES] {
    let players = pos.players();
    let opponents = (players - 1) as f64;
    let mut diff = [0.0; FEATURES];
    let board = board_stones(pos);
    let threat = mandarin_points_in_reach(pos);
    for p in 0..players {
        let f = side_features(pos, p, board, true, threat);
        for j in 0..FEATURES {
            if p == me {
                diff[j] += f64::from(f[j]);
            } else {
                diff[j] -= f64::from(f[j]) / opponents;
            }
        }
    }
    diff
}

/// The value of a finished game to `me`: a win, draw or loss (by places; a middle place on the
/// 3-player board is even), plus the score margin.
pub fn final_value(pos: &Position, me: usize) -> i32 {
    let players = pos.players();
    let opponents = (players - 1) as i32;
    let others: i32 = (0..players)
        .filter(|&p| p != me)
        .map(|p| pos.score(p))
        .sum();
    final_outcome(pos, me) + 100 * (pos.score(me) - others / opponents)
}

/// The final margin a search value predicts, in points, for the side it is the value of:
/// exact for a finished line.
pub fn margin(value: i32) -> f64 {
    f64::from(margin_hundredths(value)) / 100.0
}

/// `margin` in hundredths of a point: the search value without the bonus of a won game.
pub fn margin_hundredths(value: i32) -> i32 {
    if value.abs() >= WIN / 2 {
        value - WIN * value.signum()
    } else {
        value
    }
}

/// The part of `final_value` that says who won: `WIN` for a win, `-WIN` for a loss, 0 for a
/// draw (and between, by places, on the 3-player board).
pub fn final_outcome(pos: &Position, me: usize) -> i32 {
    let players = pos.players();
    let places = pos.places().unwrap_or([0; 3]);
    let below = (0..players).filter(|&p| places[p] > places[me]).count() as i32;
    let above = (0..players).filter(|&p| places[p] < places[me]).count() as i32;
    WIN * (below - above) / (players - 1) as i32
}

fn board_stones(pos: &Position) -> i32 {
    pos.pits().iter().map(|&n| i32::from(n)).sum()
}

/// Seat `p`'s features, in the order of the weights, given the stones on the board and the
/// mandarin points in reach; the relay-free capture only when `captures` asks for it.
#[inline(always)]
fn side_features(
    pos: &Position,
    p: usize,
    board: i32,
    captures: bool,
    threat: i32,
) -> [i32; FEATURES] {
    let pits = pos.pits();
    let mut stones = 0;
    let mut stocked = 0;
    for i in geometry::row(p) {
        stones += i32::from(pits[i]);
        stocked += i32::from(pits[i] > 0);
    }
    let late = stones * (LATE - board).max(0) / LATE;
    let moving = pos.to_move() == p;
    let capture = if captures { direct_capture(pos, p) } else { 0 };
    [
        stones,
        late,
        stocked,
        i32::from(moving),
        if moving { capture } else { 0 },
        if moving { 0 } else { capture },
        if moving { threat } else { 0 },
        i32::from(!moving && stocked == 0),
    ]
}

/// The largest capture, in points, that one of `p`'s moves makes without a relay: the last
/// stone falls before an empty pit, and what lies beyond it (and beyond each further empty pit
/// of a chain) is taken.
fn direct_capture(pos: &Position, p: usize) -> i32 {
    let pits = pos.pits();
    let len = pits.len();
    let worth = |i: usize| i32::from(pits[i]) + if pos.has_piece_at(i) { 10 } else { 0 };
    let mut best = 0;
    for pit in geometry::row(p) {
        let n = usize::from(pits[pit]);
        // A hand that reaches round the ring sows into what it would capture: leave it to the
        // search.
        if n == 0 || n + 2 >= len {
            continue;
        }
        for stride in [1, len - 1] {
            // Walks the ring a pit at a time, without dividing.
            let step = |i: usize| {
                if i + stride >= len {
                    i + stride - len
                } else {
                    i + stride
                }
            };
            let mut offset = n + 1;
            let mut empty = (pit + offset * stride) % len;
            let mut taken = 0;
            // Each step: an empty pit, then something to take, all before the hand's own pits.
            while offset + 1 < len && pos.is_empty_pit(empty) {
                let target = step(empty);
                if pos.is_empty_pit(target)
                    || (geometry::is_mandarin(target) && pos.is_protected(target))
                {
                    break;
                }
                taken += worth(target);
                offset += 2;
                empty = step(target);
            }
            best = best.max(taken);
        }
    }
    best
}

/// Points in mandarin pits that have an empty neighbour.
fn mandarin_points_in_reach(pos: &Position) -> i32 {
    let len = pos.pits().len();
    (0..pos.players())
        .map(|p| {
            let pit = geometry::mandarin_pit(p);
            let value = i32::from(pos.pits()[pit]) + if pos.has_mandarin(p) { 10 } else { 0 };
            let before = pit - 1;
            let after = (pit + 1) % len;
            if value > 0 && (pos.pits()[before] == 0 || pos.pits()[after] == 0) {
                value
            } else {
                0
            }
        })
        .sum()
}

const _: () = assert!(ROW_LEN == 5, "stocked pits count a row of five");

#[cfg(test)]
mod tests {
    use super::*;
    use oaq_rules::{Move, presets};

    #[test]
    fn the_shipped_weights_parse() {
        let w = Weights::shipped();
        assert_eq!(Weights::from_array(w.to_array()), w);
    }

    #[test]
    fn the_start_is_even_but_for_the_move_and_a_capture_is_good() {
        let w = Weights::shipped();
        let mut pos = Position::new(presets::get("standard").unwrap().rules);
        let start = evaluate(&pos, 0, &w) + evaluate(&pos, 1, &w);
        assert_eq!(start, 0, "one side's gain is the other's loss");
        assert_eq!(features(&pos, 0)[3], 1.0, "only the mover has the tempo");
        pos.play("2-".parse().unwrap()).unwrap();
        assert!(evaluate(&pos, 0, &w) > evaluate(&pos, 1, &w));
    }

    #[test]
    fn a_direct_capture_is_found_as_the_rules_play_it() {
        // Every position of some random games: where the feature says a move captures without
        // a relay, playing that move captures at least as much.
        let rules = presets::get("standard").unwrap().rules;
        let mut seed = 7u64;
        for _ in 0..200 {
            let mut pos = Position::new(rules);
            while !pos.is_over() {
                let me = pos.to_move();
                let claimed = direct_capture(&pos, me);
                let before = pos.score(me);
                let best = pos
                    .legal_moves()
                    .iter()
                    .filter(|&&m| m != Move::Swap)
                    .map(|&m| {
                        let mut after = pos;
                        after.play_unchecked(m);
                        // What follows the captures (the next row's refill, the end's sweep)
                        // never takes from the mover's score.
                        after.score(me) - before
                    })
                    .max()
                    .unwrap_or(0);
                assert!(
                    best >= claimed,
                    "claimed {claimed}, best capture {best} in {:?}",
                    pos.setup()
                );
                let moves = pos.legal_moves();
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                pos.play_unchecked(moves[(seed >> 33) as usize % moves.len()]);
            }
        }
    }
}
