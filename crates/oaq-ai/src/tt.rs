//! The transposition table: search results by position key, so that a position reached again
//! (by another move order, in the next iteration, or by a helper searching on another core) is
//! not searched again. Lock-free: each slot holds an entry packed in one word and its key
//! mixed with that word, so a slot torn by two threads writing at once reads as empty.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use oaq_rules::Move;

/// What a stored value says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true value is at least this (the search failed high).
    Lower,
    /// The true value is at most this (the search failed low).
    Upper,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub key: u64,
    pub value: i32,
    pub depth: u8,
    pub bound: Bound,
    /// Every line below ended the game: the value is the game's, not an estimate.
    pub solved: bool,
    pub best: Option<Move>,
}

/// Bits of a packed entry: value (0..32), depth (32..40), bound (40..42), solved (42), best
/// move's code (44..52) when bit 43 is set, and bit 63 so that no entry packs to zero.
const DEPTH: u32 = 32;
const BOUND: u32 = 40;
const SOLVED: u32 = 42;
const HAS_BEST: u32 = 43;
const BEST: u32 = 44;
const PRESENT: u64 = 1 << 63;

impl Entry {
    fn pack(&self) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 0,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        let best = self
            .best
            .map_or(0, |m| (1 << HAS_BEST) | (u64::from(m.code()) << BEST));
        u64::from(self.value as u32)
            | u64::from(self.depth) << DEPTH
            | bound << BOUND
            | u64::from(self.solved) << SOLVED
            | best
            | PRESENT
    }

    fn unpack(key: u64, data: u64) -> Entry {
        let bound = match (data >> BOUND) & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        };
        let best = if data & (1 << HAS_BEST) != 0 {
            Move::from_code((data >> BEST) as u8)
        } else {
            None
        };
        Entry {
            key,
            value: data as u32 as i32,
            depth: (data >> DEPTH) as u8,
            bound,
            solved: data & (1 << SOLVED) != 0,
            best,
        }
    }
}

/// One entry: the packed entry, and the key mixed with it.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// A fixed-size table, one entry per slot, replaced by depth. Clones share the same slots:
/// hand one to each search that should learn from the others.
#[derive(Clone)]
pub struct Table {
    slots: Arc<[Slot]>,
    mask: usize,
}

impl Table {
    /// A table of about `megabytes` MB (rounded down to a power of two of entries).
    pub fn new(megabytes: usize) -> Table {
        let wanted = (megabytes.max(1) << 20) / std::mem::size_of::<Slot>();
        let slots = 1usize << (usize::BITS - 1 - wanted.max(2).leading_zeros());
        Table {
            slots: (0..slots).map(|_| Slot::default()).collect(),
            mask: slots - 1,
        }
    }

    pub fn get(&self, key: u64) -> Option<Entry> {
        let slot = &self.slots[key as usize & self.mask];
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        (data != 0 && check ^ data == key).then(|| Entry::unpack(key, data))
    }

    pub fn put(&self, entry: Entry) {
        let slot = &self.slots[entry.key as usize & self.mask];
        let old_data = slot.data.load(Ordering::Relaxed);
        let old_key = slot.check.load(Ordering::Relaxed) ^ old_data;
        // Keep the deeper result of another position; always refresh the same position.
        let keep_old = old_data != 0
            && old_key != entry.key
            && u64::from(entry.depth) < (old_data >> DEPTH) & 0xFF;
        if !keep_old {
            let data = entry.pack();
            slot.data.store(data, Ordering::Relaxed);
            slot.check.store(entry.key ^ data, Ordering::Relaxed);
        }
    }

    pub fn clear(&self) {
        for slot in self.slots.iter() {
            slot.data.store(0, Ordering::Relaxed);
            slot.check.store(0, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oaq_rules::Direction;

    #[test]
    fn entries_come_back_as_they_went_in() {
        let table = Table::new(1);
        let entries = [
            Entry {
                key: 0x1234_5678_9abc_def0,
                value: -1_000_123,
                depth: 17,
                bound: Bound::Upper,
                solved: false,
                best: Some(Move::Swap),
            },
            Entry {
                key: 0x0fed_cba9_8765_4321,
                value: 2_000_000,
                depth: 255,
                bound: Bound::Lower,
                solved: true,
                best: Move::sow(15, Direction::CounterClockwise),
            },
            Entry {
                key: 42,
                value: 0,
                depth: 0,
                bound: Bound::Exact,
                solved: false,
                best: None,
            },
        ];
        for entry in entries {
            table.put(entry);
            assert_eq!(table.get(entry.key), Some(entry));
            // Another key in the same slot is not this entry.
            assert_eq!(table.get(entry.key ^ (1 << 40)), None);
        }
    }

    #[test]
    fn a_deeper_entry_of_another_position_stays_and_clones_share() {
        let table = Table::new(1);
        let shared = table.clone();
        let deep = Entry {
            key: 7,
            value: 5,
            depth: 9,
            bound: Bound::Exact,
            solved: false,
            best: None,
        };
        table.put(deep);
        let same_slot = (table.mask as u64 + 1) | 7;
        shared.put(Entry {
            key: same_slot,
            depth: 3,
            ..deep
        });
        assert_eq!(shared.get(7), Some(deep), "the deeper entry stays");
        assert_eq!(table.get(same_slot), None);
        shared.put(Entry { depth: 2, ..deep });
        assert_eq!(
            table.get(7).map(|e| e.depth),
            Some(2),
            "the same position is refreshed"
        );
        table.clear();
        assert_eq!(shared.get(7), None);
    }
}
