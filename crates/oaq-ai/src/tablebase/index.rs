//! Where a position lies in a table: the board seen from the side to move, ranked among every
//! board with as many small stones or fewer, then the mandarin pieces.
//!
//! The ranking is the combinatorial number system of the twelve pit counts (compositions with a
//! bounded sum, in lexicographic order), so the table holds every board once and nothing else:
//! `C(N + 12, 12)` boards of at most `N` stones, times four for the pieces still on the board.

use oaq_rules::Position;
use oaq_rules::geometry::{self, SLOTS_PER_PLAYER};

/// Pits of the 2-player ring: a table's board.
pub const PITS: usize = 2 * SLOTS_PER_PLAYER;
/// The most stones a table can be built for (values and their bounds fit an `i8`).
pub const MAX_STONES: u8 = 20;

/// All the points of a 2-player game.
pub const TOTAL: i32 = 70;

/// The board of a 2-player position from the side to move: pit counts starting at that side's
/// leftmost pit, and the mandarin pieces (bit 0: the one after the mover's row, bit 1: the
/// other).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    pub pits: [u8; PITS],
    pub pieces: u8,
}

impl Board {
    /// `pos` seen from its side to move. `None` for a board other than the 2-player one.
    pub fn of(pos: &Position) -> Option<Board> {
        if pos.players() != 2 {
            return None;
        }
        let mover = pos.to_move();
        let ring = pos.pits();
        let pits = std::array::from_fn(|i| ring[(SLOTS_PER_PLAYER * mover + i) % PITS]);
        let pieces = u8::from(pos.has_mandarin(mover)) | u8::from(pos.has_mandarin(1 - mover)) << 1;
        Some(Board { pits, pieces })
    }

    pub fn stones(&self) -> u32 {
        self.pits.iter().map(|&n| u32::from(n)).sum()
    }

    /// Points still on the board: small stones and 10 for each mandarin piece.
    pub fn points(&self) -> i32 {
        self.stones() as i32 + 10 * self.pieces.count_ones() as i32
    }

    /// The side to move has no stones on its row (no game stops there: a refill comes first).
    pub fn mover_row_empty(&self) -> bool {
        geometry::row(0).all(|i| self.pits[i] == 0)
    }
}

/// Ranks boards of at most `stones` small stones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Indexer {
    stones: u32,
    /// `below[k][s]`: boards of `k` pits holding at most `s` stones, C(s + k, k).
    below: Vec<Vec<u64>>,
}

impl Indexer {
    pub fn new(stones: u8) -> Indexer {
        let stones = u32::from(stones.min(MAX_STONES));
        let s = stones as usize;
        let mut below = vec![vec![1u64; s + 1]; PITS + 2];
        for k in 1..PITS + 2 {
            for t in 0..=s {
                // Boards of k pits with at most t stones: the first pit's count, then the rest.
                below[k][t] = (0..=t).map(|v| below[k - 1][t - v]).sum();
            }
        }
        Indexer { stones, below }
    }

    pub fn stones(&self) -> u32 {
        self.stones
    }

    /// Boards with at most `stones` small stones, for one choice of mandarin pieces.
    pub fn boards(&self) -> u64 {
        self.below[PITS][self.stones as usize]
    }

    /// Boards of a table, counted once for each of the four choices of mandarin pieces: the range
    /// of `index`.
    pub fn len(&self) -> u64 {
        4 * self.boards()
    }

    /// Never: every table has the empty board.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The index of `board`, or `None` when it holds more stones than the table.
    pub fn index(&self, board: &Board) -> Option<u64> {
        let mut left = self.stones;
        let mut rank = 0;
        for (i, &count) in board.pits.iter().enumerate() {
            let count = u32::from(count);
            if count > left {
                return None;
            }
            // Boards with this prefix and a smaller count here: all whose remaining pits (and
            // this one's excess) hold at most `left` stones, less those holding at most
            // `left - count`.
            let rest = PITS - i;
            rank += self.below[rest][left as usize] - self.below[rest][(left - count) as usize];
            left -= count;
        }
        Some(u64::from(board.pieces) * self.boards() + rank)
    }

    /// The board at `index` (the inverse of `index`).
    pub fn board(&self, index: u64) -> Board {
        let pieces = (index / self.boards()) as u8;
        let mut rank = index % self.boards();
        let mut left = self.stones as usize;
        let mut pits = [0u8; PITS];
        for (i, pit) in pits.iter_mut().enumerate() {
            let rest = PITS - 1 - i;
            // Counts are tried in order; each skips the boards of all smaller ones.
            let mut count = 0;
            while self.below[rest][left - count] <= rank {
                rank -= self.below[rest][left - count];
                count += 1;
            }
            *pit = count as u8;
            left -= count;
        }
        Board { pits, pieces }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_board_has_its_own_entry_and_back() {
        let indexer = Indexer::new(3);
        // C(15, 12) boards of at most 3 stones in 12 pits.
        assert_eq!(indexer.boards(), 455);
        for index in 0..indexer.len() {
            let board = indexer.board(index);
            assert!(board.stones() <= 3);
            assert_eq!(indexer.index(&board), Some(index));
        }
        let mut full = indexer.board(0);
        full.pits[7] = 4;
        assert_eq!(indexer.index(&full), None);
    }
}
