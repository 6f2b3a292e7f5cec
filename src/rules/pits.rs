//! The small stones in every pit, laid out so that a whole hand is sown, and a whole row
//! checked, with a few word operations instead of a loop per stone.

use super::geometry::{Direction, MAX_RING, ROW_LEN, SLOTS_PER_PLAYER};

const WORDS: usize = MAX_RING.div_ceil(8);

// Byte i of the ring is bits 8i.. of the words, which is also its place in memory only on a
// little-endian machine (every target the game ships on).
#[cfg(target_endian = "big")]
compile_error!("the pit layout assumes a little-endian target");

/// `EXPAND[b]` has byte i set to 1 for every bit i set in `b`.
const EXPAND: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut bit = 0;
        while bit < 8 {
            if (b >> bit) & 1 == 1 {
                table[b] |= 1 << (8 * bit);
            }
            bit += 1;
        }
        b += 1;
    }
    table
};

/// Stones per ring index, a byte each, packed into words; bytes past the ring stay 0. No pit
/// ever holds more than the 105 stones of the largest game, so adding ones byte by byte inside a
/// word never carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Pits([u64; WORDS]);

impl Pits {
    pub(super) fn empty() -> Pits {
        Pits([0; WORDS])
    }

    pub(super) fn from_slice(stones: &[u8]) -> Pits {
        let mut pits = Pits::empty();
        bytemuck::cast_slice_mut::<u64, u8>(&mut pits.0)[..stones.len()].copy_from_slice(stones);
        pits
    }

    pub(super) fn as_slice(&self, ring_len: usize) -> &[u8] {
        &bytemuck::cast_slice::<u64, u8>(&self.0)[..ring_len]
    }

    #[inline(always)]
    pub(super) fn get(&self, index: usize) -> u8 {
        (self.0[index / 8] >> (8 * (index % 8))) as u8
    }

    #[inline(always)]
    pub(super) fn set(&mut self, index: usize, stones: u8) {
        let (w, shift) = (index / 8, 8 * (index % 8));
        self.0[w] = self.0[w] & !(0xFF << shift) | u64::from(stones) << shift;
    }

    /// Empty `index` and return what it held.
    #[inline(always)]
    pub(super) fn take(&mut self, index: usize) -> u8 {
        let (w, shift) = (index / 8, 8 * (index % 8));
        let word = self.0[w];
        self.0[w] = word & !(0xFF << shift);
        (word >> shift) as u8
    }

    /// Bit k set for each citizen pit `k` (0..5, left to right) of `player` that holds stones.
    #[inline(always)]
    pub(super) fn row_stocked(&self, player: usize) -> u32 {
        const LOW: u64 = 0x7F7F_7F7F_7F7F_7F7F;
        let mut bits = 0u32;
        for (w, &word) in self.0.iter().enumerate() {
            // The top bit of each byte says whether the byte is non-zero (bytes stay below 128).
            let high = (((word & LOW) + LOW) | word) & !LOW;
            // Gather the eight top bits into one byte.
            let byte = ((high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32;
            bits |= byte << (8 * w);
        }
        bits >> (player * SLOTS_PER_PLAYER) & ((1 << ROW_LEN) - 1)
    }

    /// Drop `count` stones one per pit, starting at `first` and walking `dir` round a ring of
    /// `ring_len` pits, lapping it as often as needed. Returns the pit of the last stone
    /// (`count` must be at least 1).
    #[inline(always)]
    pub(super) fn sow(
        &mut self,
        first: usize,
        count: u8,
        dir: Direction,
        ring_len: usize,
    ) -> usize {
        let count = usize::from(count);
        let (laps, rest) = if count < ring_len {
            (0, count)
        } else {
            (count / ring_len, count % ring_len)
        };
        let run = (1u64 << rest) - 1;
        // The run of pits reached after the laps, on a doubled ring so that it never wraps, then
        // folded back onto the ring.
        let (doubled, last) = match dir {
            Direction::CounterClockwise => (run << first, first + rest + ring_len - 1),
            Direction::Clockwise => (
                run << (first + 1 + ring_len - rest),
                first + 1 + ring_len - rest,
            ),
        };
        let ring = (1u64 << ring_len) - 1;
        let mask = (doubled | (doubled >> ring_len)) & ring;
        for (w, word) in self.0.iter_mut().enumerate() {
            let byte = |m: u64| EXPAND[((m >> (8 * w)) & 0xFF) as usize];
            *word += byte(mask) + laps as u64 * byte(ring);
        }
        // `last` is below 3 rings: bring it onto the ring without a division.
        let last = if last >= ring_len {
            last - ring_len
        } else {
            last
        };
        if last >= ring_len {
            last - ring_len
        } else {
            last
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The obvious way: one stone at a time.
    fn sow_slowly(pits: &mut [u8], first: usize, count: u8, dir: Direction) -> usize {
        let n = pits.len();
        let mut at = first;
        for i in 0..count {
            if i > 0 {
                at = match dir {
                    Direction::CounterClockwise => (at + 1) % n,
                    Direction::Clockwise => (at + n - 1) % n,
                };
            }
            pits[at] += 1;
        }
        at
    }

    #[test]
    fn sowing_a_run_matches_sowing_stone_by_stone() {
        for ring_len in [12, 18] {
            for first in 0..ring_len {
                for count in 1..=60u8 {
                    for dir in Direction::ALL {
                        let start: Vec<u8> = (0..ring_len as u8).map(|i| i % 4).collect();
                        let mut fast = Pits::from_slice(&start);
                        let mut slow = start.clone();
                        let last = fast.sow(first, count, dir, ring_len);
                        assert_eq!(last, sow_slowly(&mut slow, first, count, dir));
                        assert_eq!(
                            fast.as_slice(ring_len),
                            &slow[..],
                            "{ring_len} {first} {count} {dir}"
                        );
                        assert!(fast.as_slice(8 * WORDS)[ring_len..].iter().all(|&b| b == 0));
                    }
                }
            }
        }
    }

    #[test]
    fn rows_are_read_whole() {
        let mut pits = Pits::empty();
        pits.set(5, 3);
        pits.set(11, 3);
        pits.set(17, 3);
        assert!((0..3).all(|p| pits.row_stocked(p) == 0));
        pits.set(16, 1);
        pits.set(7, 9);
        assert!((0..3).map(|p| pits.row_stocked(p)).eq([0, 0b10, 0b10000]));
    }
}
