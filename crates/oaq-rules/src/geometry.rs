//! Where the pits are: ring indices, citizen pit numbers, owners and sowing directions.
//!
//! The board is a ring. Player `p` owns the citizen pits at ring indices `6p..6p+4` and the
//! mandarin pit at `6p+5`, which the sowing reaches right after that player's row when walking
//! counter-clockwise (toward higher indices).

use std::fmt;

/// The most players a board can seat (the 3-player board).
pub const MAX_PLAYERS: usize = 3;
/// Ring slots per player: five citizen pits and one mandarin pit.
pub const SLOTS_PER_PLAYER: usize = 6;
/// Citizen pits in each player's row.
pub const ROW_LEN: usize = 5;
/// Ring slots on the largest board.
pub const MAX_RING: usize = MAX_PLAYERS * SLOTS_PER_PLAYER;
/// Highest citizen pit number on the largest board.
pub const MAX_PIT_NUMBER: u8 = (MAX_PLAYERS * ROW_LEN) as u8;

/// The way a hand walks around the ring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// Toward lower ring indices and lower pit numbers; written `-`.
    Clockwise,
    /// Toward higher ring indices and higher pit numbers; written `+`.
    CounterClockwise,
}

impl Direction {
    /// Both directions, clockwise first.
    pub const ALL: [Direction; 2] = [Direction::Clockwise, Direction::CounterClockwise];

    /// `-` for clockwise, `+` for counter-clockwise.
    pub fn symbol(self) -> char {
        match self {
            Direction::Clockwise => '-',
            Direction::CounterClockwise => '+',
        }
    }

    /// The other way round.
    pub fn reversed(self) -> Direction {
        match self {
            Direction::Clockwise => Direction::CounterClockwise,
            Direction::CounterClockwise => Direction::Clockwise,
        }
    }

    /// What to add to a ring index, modulo `ring_len`, to take one step this way.
    pub(crate) fn stride(self, ring_len: usize) -> usize {
        match self {
            Direction::Clockwise => ring_len - 1,
            Direction::CounterClockwise => 1,
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Direction::Clockwise => "clockwise",
            Direction::CounterClockwise => "counter-clockwise",
        })
    }
}

/// Number of ring slots on a board for `players` players.
pub fn ring_len(players: usize) -> usize {
    players * SLOTS_PER_PLAYER
}

/// Whether ring index `index` is a mandarin pit.
///
/// ```
/// use oaq_rules::geometry::is_mandarin;
/// assert!(is_mandarin(5) && is_mandarin(11));
/// assert!(!is_mandarin(0) && !is_mandarin(6));
/// ```
pub const fn is_mandarin(index: usize) -> bool {
    index % SLOTS_PER_PLAYER == ROW_LEN
}

/// The player who owns ring index `index` (for a mandarin pit: the player whose row it follows).
pub fn owner(index: usize) -> usize {
    index / SLOTS_PER_PLAYER
}

/// Ring index of the mandarin pit that follows player `player`'s row.
pub const fn mandarin_pit(player: usize) -> usize {
    player * SLOTS_PER_PLAYER + ROW_LEN
}

/// Ring indices of player `player`'s citizen pits, left to right from their seat.
pub fn row(player: usize) -> std::ops::Range<usize> {
    let start = player * SLOTS_PER_PLAYER;
    start..start + ROW_LEN
}

/// Ring index of citizen pit number `number` (1-based), on any board.
///
/// ```
/// use oaq_rules::geometry::citizen_index;
/// assert_eq!(citizen_index(1), Some(0));
/// assert_eq!(citizen_index(6), Some(6));
/// assert_eq!(citizen_index(15), Some(16));
/// assert_eq!(citizen_index(0), None);
/// ```
pub fn citizen_index(number: u8) -> Option<usize> {
    if number == 0 || number > MAX_PIT_NUMBER {
        return None;
    }
    let k = usize::from(number - 1);
    Some(SLOTS_PER_PLAYER * (k / ROW_LEN) + k % ROW_LEN)
}

/// Citizen pit number (1-based) of ring index `index`, or `None` for a mandarin pit.
pub fn pit_number(index: usize) -> Option<u8> {
    if is_mandarin(index) {
        return None;
    }
    u8::try_from(owner(index) * ROW_LEN + index % SLOTS_PER_PLAYER + 1).ok()
}

/// A readable name for any ring index: "pit 7" or "the mandarin pit after player 0's row".
pub fn describe(index: usize) -> String {
    match pit_number(index) {
        Some(n) => format!("pit {n}"),
        None => format!("the mandarin pit after player {}'s row", owner(index)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pit_numbers_and_ring_indices_are_inverse() {
        for number in 1..=MAX_PIT_NUMBER {
            let index = citizen_index(number).unwrap();
            assert!(!is_mandarin(index));
            assert_eq!(pit_number(index), Some(number));
        }
        assert_eq!(pit_number(5), None);
        assert_eq!(citizen_index(16), None);
    }

    #[test]
    fn owners_follow_the_ring() {
        assert_eq!(row(1), 6..11);
        assert_eq!(owner(10), 1);
        assert_eq!(mandarin_pit(0), 5);
        assert_eq!(mandarin_pit(2), 17);
        assert_eq!(owner(mandarin_pit(2)), 2);
    }
}
