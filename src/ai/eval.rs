//! The static evaluation: what a position is worth to one side when the search stops short of
//! the end, in hundredths of a point.

use serde::{Deserialize, Serialize};

use crate::rules::Position;
use crate::rules::geometry::{self, ROW_LEN};

/// A finished game is worth this much to the winner, plus the final margin: more than any
/// unfinished position can be.
pub const WIN: i32 = 1_000_000;

/// The weights of the evaluation, in hundredths of a point per unit of each feature. Points
/// already scored count 100 each, always.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weights {
    /// Per stone on the player's own row: stones the player collects at the end, if nobody
    /// captures them first.
    pub row_stones: i32,
    /// Per point in a mandarin pit that lies next to an empty pit, for the player to move: the
    /// pattern a capture needs.
    pub mandarin_threat: i32,
    /// Per empty pit on the player's row: holes an opponent captures across, and a refill that
    /// comes closer.
    pub empty_pits: i32,
    /// Per pit the player can sow from.
    pub mobility: i32,
}

impl Weights {
    /// The shipped weights (`assets/ai/weights.ron`, made by `oaq tune`).
    pub fn shipped() -> Weights {
        // Parsed once: every computer move asks for them.
        static SHIPPED: std::sync::OnceLock<Weights> = std::sync::OnceLock::new();
        *SHIPPED.get_or_init(
            || match ron::from_str(include_str!("../../assets/ai/weights.ron")) {
                Ok(weights) => weights,
                // The file is part of the program and a test parses it.
                Err(e) => panic!("assets/ai/weights.ron is broken: {e}"),
            },
        )
    }

    /// Every weight, in a fixed order, for tuning.
    pub fn to_array(self) -> [i32; 4] {
        [
            self.row_stones,
            self.mandarin_threat,
            self.empty_pits,
            self.mobility,
        ]
    }

    pub fn from_array(w: [i32; 4]) -> Weights {
        Weights {
            row_stones: w[0],
            mandarin_threat: w[1],
            empty_pits: w[2],
            mobility: w[3],
        }
    }
}

/// What `pos` is worth to seat `me`: final result when the game is over, else the weighted
/// features of `me` minus those of the average opponent.
pub fn evaluate(pos: &Position, me: usize, weights: &Weights) -> i32 {
    let players = pos.players();
    let opponents = (players - 1) as i32;
    if pos.is_over() {
        return final_value(pos, me);
    }
    let mut own = 0;
    let mut others = 0;
    for p in 0..players {
        let value = 100 * pos.score(p) + row_features(pos, p, weights);
        if p == me {
            own = value;
        } else {
            others += value;
        }
    }
    let threat = weights.mandarin_threat * mandarin_points_in_reach(pos);
    let threat = if pos.to_move() == me {
        threat
    } else {
        -threat / opponents
    };
    own - others / opponents + threat
}

/// The value of a finished game to `me`: a win, draw or loss (by places; a middle place on the
/// 3-player board is even), plus the score margin.
pub fn final_value(pos: &Position, me: usize) -> i32 {
    let players = pos.players();
    let opponents = (players - 1) as i32;
    let places = pos.places().unwrap_or([0; 3]);
    let below = (0..players).filter(|&p| places[p] > places[me]).count() as i32;
    let above = (0..players).filter(|&p| places[p] < places[me]).count() as i32;
    let others: i32 = (0..players)
        .filter(|&p| p != me)
        .map(|p| pos.score(p))
        .sum();
    WIN * (below - above) / opponents + 100 * (pos.score(me) - others / opponents)
}

fn row_features(pos: &Position, p: usize, weights: &Weights) -> i32 {
    let pits = pos.pits();
    let mut stones = 0;
    let mut stocked = 0;
    for i in geometry::row(p) {
        stones += i32::from(pits[i]);
        stocked += i32::from(pits[i] > 0);
    }
    weights.row_stones * stones
        + weights.empty_pits * (ROW_LEN as i32 - stocked)
        + weights.mobility * stocked
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::presets;

    #[test]
    fn the_shipped_weights_parse() {
        let w = Weights::shipped();
        assert_eq!(Weights::from_array(w.to_array()), w);
    }

    #[test]
    fn the_start_is_even_and_a_capture_is_good() {
        let w = Weights::shipped();
        let mut pos = Position::new(presets::get("standard").unwrap().rules);
        let start = evaluate(&pos, 0, &w) - evaluate(&pos, 1, &w);
        assert_eq!(start, 0, "the start is symmetric");
        pos.play("2-".parse().unwrap()).unwrap();
        assert!(evaluate(&pos, 0, &w) > evaluate(&pos, 1, &w));
    }
}
