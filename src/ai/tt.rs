//! The transposition table: search results by position key, so that a position reached again
//! (by another move order, or in the next iteration) is not searched again.

use crate::rules::Move;

/// What a stored value says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true value is at least this (the search failed high).
    Lower,
    /// The true value is at most this (the search failed low).
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub key: u64,
    pub value: i32,
    pub depth: u8,
    pub bound: Bound,
    /// Every line below ended the game: the value is the game's, not an estimate.
    pub solved: bool,
    pub best: Option<Move>,
}

/// A fixed-size table, one entry per slot, replaced by depth.
pub struct Table {
    slots: Vec<Option<Entry>>,
    mask: usize,
}

impl Table {
    /// A table of about `megabytes` MB (rounded down to a power of two of entries).
    pub fn new(megabytes: usize) -> Table {
        let wanted = (megabytes.max(1) << 20) / std::mem::size_of::<Option<Entry>>();
        let slots = 1usize << (usize::BITS - 1 - wanted.max(2).leading_zeros());
        Table {
            slots: vec![None; slots],
            mask: slots - 1,
        }
    }

    pub fn get(&self, key: u64) -> Option<Entry> {
        self.slots[key as usize & self.mask].filter(|e| e.key == key)
    }

    pub fn put(&mut self, entry: Entry) {
        let slot = &mut self.slots[entry.key as usize & self.mask];
        // Keep the deeper result of another position; always refresh the same position.
        if slot.is_none_or(|old| old.key == entry.key || old.depth <= entry.depth) {
            *slot = Some(entry);
        }
    }

    pub fn clear(&mut self) {
        self.slots.fill(None);
    }
}
