//! The learned evaluation: a small network that corrects the hand-written evaluation
//! (`super::eval`) of a 2-player position, trained on self-play (`train`, `oaq train`).
//!
//! The board is seen from the side to move: each of the twelve pits is one of a few inputs (its
//! count of small stones, and for a mandarin pit whether the mandarin piece is still there), as
//! are the stores' small stones (a player who cannot pay for a refill loses under `forfeit`),
//! the debts (under `borrow`) and the moves left before the move limit. So a position turns on
//! 17 of `INPUTS` inputs, and the hidden layer is the sum of their 17 rows of weights, as in the
//! chess engines' NNUE: no multiplication, however many inputs there are. The output weighs the
//! hidden layer's positive parts: the points the hand-written evaluation misjudges, from the
//! side to move. The search adds it to that evaluation, which stays as the fallback and the
//! lower levels' judge. (A second hidden layer of 16 cost the search two thirds of its speed
//! as plain code; one layer in vector instructions costs about a twentieth.)
//!
//! A network serves the one rule set it was trained for (`Network::serves`): what a position is
//! worth depends on the rules. No level uses one yet: the network trained so far
//! (`assets/ai/network-basic.nn`) halves the hand-written evaluation's error on held-out positions
//! but did not make Master stronger in play (the figures are in docs/measurements.md, "The computer
//! player"). `oaq match --a-network FILE` and `oaq bench --network FILE` measure a network.

pub mod file;
pub mod train;

use oaq_rules::{Position, RuleSet};

/// Inputs per citizen pit: its stones, 0 to 15 or more.
const COUNTS: usize = 16;
const CITIZEN: usize = 0;
/// Inputs per mandarin pit: its stones, 0 to 15 or more, with or without the piece.
const MANDARIN: usize = CITIZEN + 10 * COUNTS;
/// Inputs per store: its small stones, 0 to 9 or more (under `forfeit`, 5 pays a refill).
const STORE: usize = MANDARIN + 2 * 2 * COUNTS;
const STORE_BUCKETS: usize = 10;
/// Inputs per side's debts under `borrow`: 0 to 7 stones or more owed.
const DEBT: usize = STORE + 2 * STORE_BUCKETS;
const DEBT_BUCKETS: usize = 8;
/// Moves left before the move limit, four to an input, 60 or more in the last.
const LIMIT: usize = DEBT + 2 * DEBT_BUCKETS;
const LIMIT_BUCKETS: usize = 16;
/// Every input the network has.
pub const INPUTS: usize = LIMIT + LIMIT_BUCKETS;
/// Inputs a position turns on: twelve pits, two stores, two debts, the moves left.
pub const ACTIVE: usize = 17;
/// The hidden layer's width.
pub const HIDDEN: usize = 32;
/// The largest correction, in hundredths of a point: a wild output stays far below a won game.
pub const MAX_CORRECTION: i32 = 3000;
/// Pits on the 2-player ring.
const RING: usize = 12;

/// The trained weights: the hidden layer stored by input (a row of `HIDDEN` per input), and
/// the output's weights.
#[derive(Clone, PartialEq)]
pub struct Network {
    rules: RuleSet,
    pub(crate) w1: Vec<[f32; HIDDEN]>,
    pub(crate) b1: [f32; HIDDEN],
    pub(crate) w2: [f32; HIDDEN],
    pub(crate) b2: f32,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network")
            .field("inputs", &INPUTS)
            .field("hidden", &HIDDEN)
            .finish_non_exhaustive()
    }
}

/// The inputs a position turns on, from the side to move; `mirrored` reads the board as seen
/// in a mirror (the mover's row reversed, the mandarin pits swapped), which is the same game:
/// every move has its mirror move. Training uses both; the search reads it as it stands.
pub fn inputs(pos: &Position, mirrored: bool) -> [u16; ACTIVE] {
    let me = pos.to_move();
    let them = 1 - me;
    let pits = pos.pits();
    let mut active = [0u16; ACTIVE];
    for (slot, input) in active.iter_mut().enumerate().take(RING) {
        // Slots 0–4: the mover's row; 5: the mandarin pit after it; 6–10: the other row; 11:
        // the other mandarin pit. The mirror of slot s is slot 4 − s, round the ring.
        let seen = if mirrored {
            (RING + 4 - slot) % RING
        } else {
            slot
        };
        let pit = (seen + 6 * me) % RING;
        let count = usize::from(pits[pit]).min(COUNTS - 1);
        *input = match slot {
            0..=4 => (CITIZEN + slot * COUNTS + count) as u16,
            6..=10 => (CITIZEN + (slot - 1) * COUNTS + count) as u16,
            _ => {
                let side = usize::from(slot == 11);
                let piece = usize::from(pos.has_piece_at(pit));
                (MANDARIN + (side * 2 + piece) * COUNTS + count) as u16
            }
        };
    }
    for (k, p) in [me, them].into_iter().enumerate() {
        let store = pos.store(p);
        let stones = usize::try_from(store.stones).unwrap_or(0);
        active[RING + k] = (STORE + k * STORE_BUCKETS + stones.min(STORE_BUCKETS - 1)) as u16;
        let owed: usize = store.owes.iter().map(|&o| usize::from(o)).sum();
        active[RING + 2 + k] = (DEBT + k * DEBT_BUCKETS + owed.min(DEBT_BUCKETS - 1)) as u16;
    }
    let left = pos.rules().max_plies().saturating_sub(pos.ply()) as usize;
    active[RING + 4] = (LIMIT + (left / 4).min(LIMIT_BUCKETS - 1)) as u16;
    active
}

impl Network {
    /// A network of zeros for `rules`: it corrects nothing.
    pub fn zero(rules: RuleSet) -> Network {
        Network {
            rules,
            w1: vec![[0.0; HIDDEN]; INPUTS],
            b1: [0.0; HIDDEN],
            w2: [0.0; HIDDEN],
            b2: 0.0,
        }
    }

    /// The rule set it was trained for.
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// Whether it judges positions of `rules`: the very rule set it was trained for.
    pub fn serves(&self, rules: &RuleSet) -> bool {
        *rules == self.rules && rules.players == 2
    }

    /// The correction, in points for the side to move, of the inputs `active`. Every machine
    /// computes the same number: the sums run in the same order with vector instructions or
    /// without (x86-64 has SSE2 always; elsewhere plain code in that order).
    #[inline]
    pub fn forward(&self, active: &[u16; ACTIVE]) -> f32 {
        #[cfg(target_arch = "x86_64")]
        {
            self.forward_sse(active)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self.forward_plain(active)
        }
    }

    /// `forward` as plain code: the hidden layer element by element, the output in four lanes
    /// (lane l sums the neurons l, l + 4, …) added as (0 + 1) + (2 + 3).
    pub fn forward_plain(&self, active: &[u16; ACTIVE]) -> f32 {
        let mut hidden = self.b1;
        for &i in active {
            for (h, w) in hidden.iter_mut().zip(&self.w1[usize::from(i)]) {
                *h += w;
            }
        }
        let mut lanes = [0.0f32; 4];
        for (j, (h, w)) in hidden.iter().zip(&self.w2).enumerate() {
            lanes[j % 4] += h.max(0.0) * w;
        }
        self.b2 + ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3]))
    }

    #[cfg(target_arch = "x86_64")]
    #[inline]
    fn forward_sse(&self, active: &[u16; ACTIVE]) -> f32 {
        use std::arch::x86_64::{__m128, _mm_add_ps, _mm_loadu_ps, _mm_max_ps, _mm_mul_ps};
        use std::arch::x86_64::{_mm_setzero_ps, _mm_storeu_ps};
        const CHUNKS: usize = HIDDEN / 4;
        // SAFETY: SSE is part of every x86-64 processor; each load reads 4 floats at 4 × c,
        // c < CHUNKS, of an array of HIDDEN floats, and the store writes 4 into an array of 4.
        unsafe {
            let load = |row: &[f32; HIDDEN], c: usize| _mm_loadu_ps(row.as_ptr().add(4 * c));
            let mut hidden: [__m128; CHUNKS] = std::array::from_fn(|c| load(&self.b1, c));
            for &i in active {
                let row = &self.w1[usize::from(i)];
                for (c, h) in hidden.iter_mut().enumerate() {
                    *h = _mm_add_ps(*h, load(row, c));
                }
            }
            let zero = _mm_setzero_ps();
            let mut sum = zero;
            for (c, h) in hidden.iter().enumerate() {
                sum = _mm_add_ps(sum, _mm_mul_ps(_mm_max_ps(*h, zero), load(&self.w2, c)));
            }
            let mut lanes = [0.0f32; 4];
            _mm_storeu_ps(lanes.as_mut_ptr(), sum);
            self.b2 + ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3]))
        }
    }

    /// The correction to the hand-written evaluation of `pos` for seat `me`, in hundredths of
    /// a point. `pos` must be a position of the rules it serves.
    #[inline]
    pub fn correction(&self, pos: &Position, me: usize) -> i32 {
        let points = self.forward(&inputs(pos, false));
        // Bounded: a correction never turns a position into something like a won game.
        let limit = MAX_CORRECTION as f32;
        let value = (points * 100.0).round().clamp(-limit, limit) as i32;
        if pos.to_move() == me { value } else { -value }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oaq_rules::presets;

    #[test]
    fn each_position_turns_on_one_input_of_each_group_and_the_mirror_is_a_permutation() {
        let rules = presets::get("basic").unwrap().rules;
        let mut pos = Position::new(rules);
        let mut seed = 11u64;
        while !pos.is_over() {
            for mirrored in [false, true] {
                let active = inputs(&pos, mirrored);
                assert!(active.iter().all(|&i| usize::from(i) < INPUTS));
                let mut sorted = active;
                sorted.sort_unstable();
                assert!(sorted.windows(2).all(|w| w[0] < w[1]), "{active:?}");
            }
            // The mirror's pits are the same pits: the stones counted match.
            let total = |a: &[u16; ACTIVE]| -> usize {
                a[..RING]
                    .iter()
                    .map(|&i| {
                        let i = usize::from(i);
                        if i < MANDARIN {
                            i % COUNTS
                        } else {
                            (i - MANDARIN) % COUNTS
                        }
                    })
                    .sum()
            };
            assert_eq!(total(&inputs(&pos, false)), total(&inputs(&pos, true)));
            let moves = pos.legal_moves();
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            pos.play_unchecked(moves[(seed >> 33) as usize % moves.len()]);
        }
    }

    /// The network trained by `oaq train` and measured in play (docs/measurements.md, "The computer
    /// player").
    fn trained() -> Network {
        file::read(include_bytes!("../../../../assets/ai/network-basic.nn")).unwrap()
    }

    #[test]
    fn vector_and_plain_code_give_the_same_number_bit_for_bit() {
        let network = trained();
        let rules = presets::get("basic").unwrap().rules;
        let mut pos = Position::new(rules);
        let mut seed = 3u64;
        let mut nonzero = 0;
        for _ in 0..400 {
            if pos.is_over() {
                pos = Position::new(rules);
            }
            for mirrored in [false, true] {
                let active = inputs(&pos, mirrored);
                let value = network.forward(&active);
                assert_eq!(value.to_bits(), network.forward_plain(&active).to_bits());
                nonzero += usize::from(value != 0.0);
            }
            let moves = pos.legal_moves();
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            pos.play_unchecked(moves[(seed >> 33) as usize % moves.len()]);
        }
        assert!(
            nonzero > 700,
            "the trained network says something: {nonzero} of 800"
        );
    }

    #[test]
    fn a_zero_network_corrects_nothing_and_serves_only_its_rules() {
        let basic = presets::get("basic").unwrap().rules;
        let standard = presets::get("standard").unwrap().rules;
        let network = Network::zero(basic);
        assert!(network.serves(&basic) && !network.serves(&standard));
        assert_eq!(network.correction(&Position::new(basic), 0), 0);
    }

    #[test]
    fn the_trained_network_judges_both_sides_alike() {
        let network = trained();
        let basic = presets::get("basic").unwrap().rules;
        assert!(network.serves(&basic));
        assert!(!network.serves(&presets::get("standard").unwrap().rules));
        let mut pos = Position::new(basic);
        pos.play("2-".parse().unwrap()).unwrap();
        // One side's correction is the other's loss.
        assert_eq!(network.correction(&pos, 0), -network.correction(&pos, 1));
    }
}
