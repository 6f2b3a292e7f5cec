//! Zobrist keys: a 64-bit fingerprint of everything in a position that changes its future.

use crate::rules::Position;
use crate::rules::geometry::{MAX_PLAYERS, MAX_RING};

/// Values a pit can hold: every stone of the largest game in one pit.
const MAX_STONES: usize = 106;
/// Store stones are keyed from this offset, so that a `deduct` debt below zero has keys too.
const STORE_OFFSET: i32 = 40;
const STORE_VALUES: usize = 160;

/// A fixed, well-mixed sequence: keys are the same in every build and on every platform.
const fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn table<const N: usize>(salt: u64) -> [u64; N] {
    let mut keys = [0u64; N];
    let mut i = 0;
    while i < N {
        keys[i] = splitmix(salt.wrapping_mul(0x1000_0000_01B3) ^ i as u64);
        i += 1;
    }
    keys
}

static PITS: [u64; MAX_RING * MAX_STONES] = table(1);
static STORE_STONES: [u64; MAX_PLAYERS * STORE_VALUES] = table(2);
static STORE_MANDARINS: [u64; MAX_PLAYERS * 4] = table(3);
static OWES: [u64; MAX_PLAYERS * MAX_PLAYERS * 64] = table(4);
static QUAN: [u64; MAX_PLAYERS] = table(5);
static TO_MOVE: [u64; MAX_PLAYERS] = table(6);
static PLY: [u64; 256] = table(7);
static RECENT: [u64; 6 * 256] = table(8);
static FLAGS: [u64; 4] = table(9);

/// The key of `pos`. Equal positions have equal keys; the ply and the last moves are included
/// only while the rules make them matter.
pub fn key(pos: &Position) -> u64 {
    let players = pos.players();
    let mut k = TO_MOVE[pos.to_move()];
    for (i, &stones) in pos.pits().iter().enumerate() {
        k ^= PITS[i * MAX_STONES + usize::from(stones).min(MAX_STONES - 1)];
    }
    for p in 0..players {
        if pos.has_mandarin(p) {
            k ^= QUAN[p];
        }
        let store = pos.store(p);
        let stones =
            (i32::from(store.stones) + STORE_OFFSET).clamp(0, STORE_VALUES as i32 - 1) as usize;
        k ^= STORE_STONES[p * STORE_VALUES + stones];
        k ^= STORE_MANDARINS[p * 4 + usize::from(store.mandarins.min(3))];
        for (q, &owed) in store.owes.iter().enumerate().take(players) {
            if owed > 0 {
                k ^= OWES[(p * MAX_PLAYERS + q) * 64 + usize::from(owed.min(63))];
            }
        }
    }
    let rules = pos.rules();
    // The ply changes the future while a protection by plies is live, or a move limit counts.
    let ply_matters = rules
        .protection
        .and_then(|p| p.plies)
        .is_some_and(|plies| pos.ply() < u32::from(plies))
        || rules.move_limit.is_some();
    if ply_matters {
        k ^= PLY[(pos.ply() & 0xFF) as usize];
    }
    if rules.repetition {
        for (i, code) in pos.recent_moves().into_iter().enumerate() {
            k ^= RECENT[i * 256 + usize::from(code)];
        }
    }
    if pos.can_swap() {
        k ^= FLAGS[0];
    }
    if pos.is_over() {
        k ^= FLAGS[1];
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Move, presets};

    #[test]
    fn transpositions_share_a_key_and_differences_do_not() {
        let rules = presets::get("standard").unwrap().rules;
        let start = Position::new(rules);
        let mut seen = std::collections::HashMap::new();
        for a in start.legal_moves().iter() {
            let mut p = start;
            p.play_unchecked(*a);
            for b in p.legal_moves().iter() {
                let mut q = p;
                q.play_unchecked(*b);
                let previous = seen.insert(key(&q), q);
                if let Some(previous) = previous {
                    assert_eq!(
                        previous.setup(),
                        q.setup(),
                        "a key collision between different positions"
                    );
                }
            }
        }
        assert!(seen.len() > 50);
    }

    #[test]
    fn the_swap_right_is_part_of_the_key() {
        let rules = presets::get("table-flip").unwrap().rules;
        let mut pos = Position::new(rules);
        pos.play("2-".parse().unwrap()).unwrap();
        let mut swapped = pos;
        swapped.play(Move::Swap).unwrap();
        assert_ne!(key(&pos), key(&swapped));
    }
}
