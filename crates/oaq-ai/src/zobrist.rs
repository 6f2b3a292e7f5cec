//! Zobrist keys: a 64-bit fingerprint of everything in a position that changes its future.

use std::sync::LazyLock;

use crate::limits::MAX_DEPTH;
use oaq_rules::Position;
use oaq_rules::geometry::{MAX_PLAYERS, MAX_RING};

/// Values a pit can hold: every value of its byte.
const MAX_STONES: usize = 256;
/// Store stones are keyed from a table from this offset, so that a `deduct` score below zero
/// has keys too; rarer values get a key computed on the spot.
const STORE_OFFSET: i32 = 40;
const STORE_VALUES: usize = 160;
/// Debts up to this have keys in a table; larger ones get a computed key.
const OWES_VALUES: usize = 64;
/// Moves left before a protection or the move limit runs out are keyed up to this: from
/// further away no search reaches it, so positions that differ only there play alike.
const PLIES_LEFT: usize = 256;
const _: () = assert!(MAX_DEPTH < PLIES_LEFT as u32);

/// A fixed, well-mixed sequence: keys are the same in every build and on every platform.
const fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The `N` keys of table `salt`.
fn table<const N: usize>(salt: u64) -> [u64; N] {
    std::array::from_fn(|i| splitmix(salt.wrapping_mul(0x1000_0000_01B3) ^ i as u64))
}

/// Every table of keys. Made at the first use (about 7,000 keys: microseconds), not at build
/// time: as constants their 60 KB of random bytes were in every binary, the browser's first
/// download included, where nothing compresses them.
struct Keys {
    pits: [u64; MAX_RING * MAX_STONES],
    store_stones: [u64; MAX_PLAYERS * STORE_VALUES],
    store_mandarins: [u64; MAX_PLAYERS * 4],
    owes: [u64; MAX_PLAYERS * MAX_PLAYERS * OWES_VALUES],
    quan: [u64; MAX_PLAYERS],
    to_move: [u64; MAX_PLAYERS],
    protection_left: [u64; PLIES_LEFT],
    limit_left: [u64; PLIES_LEFT],
    recent: [u64; 6 * 256],
    flags: [u64; 4],
}

static KEYS: LazyLock<Box<Keys>> = LazyLock::new(|| {
    Box::new(Keys {
        pits: table(1),
        store_stones: table(2),
        store_mandarins: table(3),
        owes: table(4),
        quan: table(5),
        to_move: table(6),
        protection_left: table(7),
        limit_left: table(10),
        recent: table(8),
        flags: table(9),
    })
});

/// The key of `pos`. Equal positions have equal keys; the ply and the last moves are included
/// only while the rules make them matter.
pub fn key(pos: &Position) -> u64 {
    let keys: &Keys = &KEYS;
    let players = pos.players();
    let mut k = keys.to_move[pos.to_move()];
    for (i, &stones) in pos.pits().iter().enumerate() {
        k ^= keys.pits[i * MAX_STONES + usize::from(stones)];
    }
    for p in 0..players {
        if pos.has_mandarin(p) {
            k ^= keys.quan[p];
        }
        let store = pos.store(p);
        let stones = i32::from(store.stones) + STORE_OFFSET;
        k ^= match usize::try_from(stones) {
            Ok(i) if i < STORE_VALUES => keys.store_stones[p * STORE_VALUES + i],
            _ => splitmix(0x5354_4F4E_4553 ^ (p as u64) << 32 ^ u64::from(store.stones as u16)),
        };
        k ^= keys.store_mandarins[p * 4 + usize::from(store.mandarins.min(3))];
        for (q, &owed) in store.owes.iter().enumerate().take(players) {
            let slot = p * MAX_PLAYERS + q;
            k ^= match usize::from(owed) {
                0 => 0,
                i if i < OWES_VALUES => keys.owes[slot * OWES_VALUES + i],
                _ => splitmix(0x4F57_4553 ^ (slot as u64) << 32 ^ u64::from(owed)),
            };
        }
    }
    let rules = pos.rules();
    // The ply changes the future while a protection by plies is live, and as the move limit
    // nears.
    let left = |until: u32| (until - pos.ply()).min(PLIES_LEFT as u32 - 1) as usize;
    if let Some(plies) = rules.protection.and_then(|p| p.plies)
        && pos.ply() < u32::from(plies)
    {
        k ^= keys.protection_left[left(u32::from(plies))];
    }
    if pos.ply() <= rules.max_plies() {
        k ^= keys.limit_left[left(rules.max_plies())];
    }
    if rules.repetition {
        for (i, code) in pos.recent_moves().into_iter().enumerate() {
            k ^= keys.recent[i * 256 + usize::from(code)];
        }
    }
    if pos.can_swap() {
        k ^= keys.flags[0];
    }
    if pos.is_over() {
        k ^= keys.flags[1];
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;
    use oaq_rules::{Move, presets};

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
    fn large_debts_stores_and_pits_have_keys_of_their_own() {
        use oaq_rules::{Refill, RuleSet, Setup};
        let key_at = |refill: Refill, owed: u16, pit: u8| {
            let rules = RuleSet {
                refill,
                ..RuleSet::default()
            };
            let mut setup = Setup::start(&rules);
            setup.ply = 900;
            setup.stores[1].owes[0] = owed;
            // Keep the count right: stones move between pit 1 and the first store, which only
            // the deduct refill lets go below zero.
            setup.pits[0] = pit;
            setup.stores[0].stones = 5 - i16::from(pit);
            key(&Position::from_setup(rules, &setup).unwrap())
        };
        // Past the tables' ends (debts of 63, pits of 105, stores of −40) values key apart.
        assert_ne!(
            key_at(Refill::Borrow, 100, 5),
            key_at(Refill::Borrow, 101, 5)
        );
        assert_ne!(
            key_at(Refill::Deduct, 0, 120),
            key_at(Refill::Deduct, 0, 121)
        );
        assert_ne!(
            key_at(Refill::Deduct, 0, 200),
            key_at(Refill::Deduct, 0, 201)
        );
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
