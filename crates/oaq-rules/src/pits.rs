//! The small stones in every pit, laid out so that a whole hand is sown, and a whole row
//! checked, with a few word operations instead of a loop per stone.

use super::geometry::{self, Direction, MAX_RING, ROW_LEN};

const WORDS: usize = MAX_RING.div_ceil(8);

// Byte i of the ring is bits 8i.. of the words, which is also its place in memory only on a
// little-endian machine (every target the game ships on).
#[cfg(target_endian = "big")]
compile_error!("the pit layout assumes a little-endian target");

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

    // Single pits are read and written as bytes in memory: one instruction each, where
    // shifting them out of a word would take four.
    #[inline(always)]
    pub(super) fn get(&self, index: usize) -> u8 {
        bytemuck::cast_slice::<u64, u8>(&self.0)[index]
    }

    #[inline(always)]
    pub(super) fn set(&mut self, index: usize, stones: u8) {
        bytemuck::cast_slice_mut::<u64, u8>(&mut self.0)[index] = stones;
    }

    /// Empty `index` and return what it held.
    #[inline(always)]
    pub(super) fn take(&mut self, index: usize) -> u8 {
        std::mem::take(&mut bytemuck::cast_slice_mut::<u64, u8>(&mut self.0)[index])
    }

    /// Bit k set for each citizen pit `k` (0..5, left to right) of `player` that holds stones.
    #[inline(always)]
    pub(super) fn row_stocked(&self, player: usize) -> u32 {
        const LOW: u64 = 0x7F7F_7F7F_7F7F_7F7F;
        let word = self.row_word(player);
        // The top bit of each byte says whether the byte is non-zero (bytes stay below 128).
        let high = (((word & LOW) + LOW) | word) & !LOW;
        // Gather the eight top bits into one byte.
        let byte = ((high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32;
        byte & ((1 << ROW_LEN) - 1)
    }

    /// Whether every citizen pit of `player`'s row is empty: one mask, where
    /// [`Pits::row_stocked`] gathers a bit per pit.
    #[inline(always)]
    pub(super) fn row_is_empty(&self, player: usize) -> bool {
        const ROW: u64 = (1 << (8 * ROW_LEN)) - 1;
        self.row_word(player) & ROW == 0
    }

    /// `player`'s row's five bytes in the low bytes of a word, and up to three after them.
    /// Shifted out of whole words, not read where they lie: a load that straddles two stores
    /// just made (the move's last write of the pits) would wait for both to retire.
    #[inline(always)]
    fn row_word(&self, player: usize) -> u64 {
        match player {
            0 => self.0[0],
            1 => self.0[0] >> 48 | self.0[1] << 16,
            _ => self.0[1] >> 32 | self.0[2] << 32,
        }
    }

    /// Whether no mandarin pit holds a small stone: one mask per word, whatever the board
    /// (the slots past a smaller ring hold none).
    #[inline(always)]
    pub(super) fn mandarin_pits_empty(&self) -> bool {
        const MASKS: [u64; WORDS] = {
            let mut masks = [0; WORDS];
            let mut p = 0;
            while p < geometry::MAX_PLAYERS {
                let pit = geometry::mandarin_pit(p);
                masks[pit / 8] |= 0xFF << (8 * (pit % 8));
                p += 1;
            }
            masks
        };
        let mut held = 0;
        for (word, mask) in self.0.iter().zip(MASKS) {
            held |= word & mask;
        }
        held == 0
    }

    /// Drop `hand` stones one per pit, starting at the pit after `from` and walking `dir` round
    /// a ring of `LEN` pits, lapping it as often as needed. Returns the pit after the last stone
    /// (the one the rules look at next) and whether it is a mandarin pit. `hand` must be at
    /// least 1.
    ///
    /// One table look-up gives the whole hand's stones (a byte per pit) and where it ends; only
    /// the words the ring covers are touched.
    #[inline(always)]
    pub(super) fn sow<const LEN: usize>(
        &mut self,
        from: usize,
        hand: u8,
        dir: Direction,
    ) -> (usize, bool) {
        let table = &SowTable::<LEN>::TABLE;
        let laps = table.laps[usize::from(hand)];
        let rest = usize::from(hand) - usize::from(laps) * LEN;
        let step = &table.steps[dir as usize][from][rest];
        for w in 0..LEN.div_ceil(8) {
            self.0[w] += step.add[w] + u64::from(laps) * table.lap[w];
        }
        (usize::from(step.next), step.mandarin)
    }
}

/// The pits as the relay loop of one ring length holds them while it sows: each board gets the
/// form that is fastest for it.
pub(super) trait Ring: Copy {
    /// Pits on the ring.
    const LEN: usize;
    fn load(pits: &Pits) -> Self;
    fn store(self, pits: &mut Pits);
    fn get(&self, index: usize) -> u8;
    /// Empty `index`.
    fn empty(&mut self, index: usize);
    /// Empty `index` and return what it held.
    #[inline(always)]
    fn take(&mut self, index: usize) -> u8 {
        let stones = self.get(index);
        self.empty(index);
        stones
    }
    /// As [`Pits::sow`], and what the pit after the last stone then holds.
    fn sow(&mut self, from: usize, hand: u8, dir: Direction) -> Sown;
}

/// The two-player ring: its twelve bytes in two words, which stay in registers for the whole
/// move. Held in memory, a pit emptied by a byte store and then read back within a wide add
/// stalls the load until the store retires, once per relay.
#[derive(Clone, Copy)]
pub(super) struct Ring12 {
    /// Pits 0..8.
    low: u64,
    /// Pits 8..12.
    high: u64,
}

impl Ring12 {
    /// Per pit, the masks that keep every other pit of the two words: emptying a pit is two
    /// `and`s with no arithmetic on the index.
    ///
    /// Sixteen rows, so that `index & 15` is known to be in bounds: the rows past the ring
    /// are never used.
    const KEEP: [[u64; 2]; 16] = {
        let mut keep = [[u64::MAX, u64::MAX]; 16];
        let mut i = 0;
        while i < 12 {
            keep[i][i / 8] = !(0xFF << (8 * (i % 8)));
            i += 1;
        }
        keep
    };
}

impl Ring for Ring12 {
    const LEN: usize = 12;

    #[inline(always)]
    fn load(pits: &Pits) -> Ring12 {
        Ring12 {
            low: pits.0[0],
            high: pits.0[1],
        }
    }

    #[inline(always)]
    fn store(self, pits: &mut Pits) {
        pits.0[0] = self.low;
        pits.0[1] = self.high;
    }

    #[inline(always)]
    fn get(&self, index: usize) -> u8 {
        let word = if index < 8 { self.low } else { self.high };
        // The shift is taken modulo 64, as the machine's shift does it: 8 × index is the
        // byte's place in whichever word holds it, with no `% 8` to compute.
        word.wrapping_shr(8 * index as u32) as u8
    }

    #[inline(always)]
    fn empty(&mut self, index: usize) {
        // Masks, not a branch, pick the word (the branch would be a coin toss).
        let [low, high] = Self::KEEP[index & 15];
        self.low &= low;
        self.high &= high;
    }

    #[inline(always)]
    fn sow(&mut self, from: usize, hand: u8, dir: Direction) -> Sown {
        let table = &SowTable::<12>::TABLE;
        // Most hands are shorter than a lap: no division or laps on their way.
        let mut rest = usize::from(hand);
        if rest >= Self::LEN {
            let laps = (rest / Self::LEN) as u64;
            rest %= Self::LEN;
            self.low += laps * table.lap[0];
            self.high += laps * table.lap[1];
        }
        let step = &table.steps[dir as usize][from][rest];
        self.low += step.add[0];
        self.high += step.add[1];
        let next = usize::from(step.next);
        Sown {
            next,
            stones: self.get(next),
            mandarin: step.mandarin,
        }
    }
}

/// The three-player ring, in memory: eighteen bytes do not fit two registers, and this board
/// is played far less.
#[derive(Clone, Copy)]
pub(super) struct Ring18(Pits);

impl Ring for Ring18 {
    const LEN: usize = 18;

    #[inline(always)]
    fn load(pits: &Pits) -> Ring18 {
        Ring18(*pits)
    }

    #[inline(always)]
    fn store(self, pits: &mut Pits) {
        *pits = self.0;
    }

    #[inline(always)]
    fn get(&self, index: usize) -> u8 {
        self.0.get(index)
    }

    #[inline(always)]
    fn empty(&mut self, index: usize) {
        self.0.set(index, 0);
    }

    #[inline(always)]
    fn sow(&mut self, from: usize, hand: u8, dir: Direction) -> Sown {
        let (next, mandarin) = self.0.sow::<18>(from, hand, dir);
        Sown {
            next,
            stones: self.0.get(next),
            mandarin,
        }
    }
}

/// Where a hand ended.
pub(super) struct Sown {
    /// The pit after the last stone.
    pub(super) next: usize,
    /// What it holds now.
    pub(super) stones: u8,
    /// Whether it is a mandarin pit.
    pub(super) mandarin: bool,
}

/// A hand of fewer stones than a lap, sown from after one pit in one direction.
#[derive(Clone, Copy)]
struct Step {
    /// One stone in each pit the hand reaches, a byte per pit as in [`Pits`].
    add: [u64; WORDS],
    /// The pit after the last stone.
    next: u8,
    /// Whether `next` is a mandarin pit: read with it, where testing the index would wait
    /// for it.
    mandarin: bool,
}

/// Every [`Step`] of a ring of `LEN` pits, and how many whole laps a hand makes.
struct SowTable<const LEN: usize> {
    /// By direction (as `Direction as usize`), the pit emptied, and the stones past whole laps.
    steps: [[[Step; LEN]; LEN]; 2],
    /// `laps[hand]`: whole laps of the ring in a hand of `hand` stones.
    laps: [u8; 256],
    /// One stone in every pit of the ring.
    lap: [u64; WORDS],
}

impl<const LEN: usize> SowTable<LEN> {
    const TABLE: SowTable<LEN> = SowTable::build();

    const fn build() -> SowTable<LEN> {
        let empty = Step {
            add: [0; WORDS],
            next: 0,
            mandarin: false,
        };
        let mut steps = [[[empty; LEN]; LEN]; 2];
        let mut d = 0;
        while d < 2 {
            // Direction 0 is clockwise: one step back round the ring.
            let stride = if d == 0 { LEN - 1 } else { 1 };
            let mut from = 0;
            while from < LEN {
                let mut rest = 0;
                while rest < LEN {
                    let step = &mut steps[d][from][rest];
                    let mut at = from;
                    let mut k = 0;
                    while k < rest {
                        at = (at + stride) % LEN;
                        step.add[at / 8] += 1 << (8 * (at % 8));
                        k += 1;
                    }
                    step.next = ((at + stride) % LEN) as u8;
                    step.mandarin = geometry::is_mandarin((at + stride) % LEN);
                    rest += 1;
                }
                from += 1;
            }
            d += 1;
        }
        let mut laps = [0; 256];
        let mut hand = 0;
        while hand < 256 {
            laps[hand] = (hand / LEN) as u8;
            hand += 1;
        }
        let mut lap = [0; WORDS];
        let mut i = 0;
        while i < LEN {
            lap[i / 8] += 1 << (8 * (i % 8));
            i += 1;
        }
        SowTable { steps, laps, lap }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The obvious way: one stone at a time. Returns the pit after the last.
    fn sow_slowly(pits: &mut [u8], from: usize, count: u8, dir: Direction) -> usize {
        let n = pits.len();
        let step = |at: usize| match dir {
            Direction::CounterClockwise => (at + 1) % n,
            Direction::Clockwise => (at + n - 1) % n,
        };
        let mut at = from;
        for _ in 0..count {
            at = step(at);
            pits[at] += 1;
        }
        step(at)
    }

    /// Both forms of the two-player ring must agree.
    fn sow(pits: &mut Pits, ring_len: usize, from: usize, count: u8, dir: Direction) -> usize {
        match ring_len {
            12 => {
                let mut ring = Ring12::load(pits);
                let sown = ring.sow(from, count, dir);
                let next = sown.next;
                assert_eq!((next, sown.mandarin), pits.sow::<12>(from, count, dir));
                assert_eq!(sown.stones, pits.get(next));
                assert_eq!(sown.mandarin, geometry::is_mandarin(next));
                let mut stored = Pits::empty();
                ring.store(&mut stored);
                assert_eq!(stored, *pits);
                next
            }
            _ => pits.sow::<18>(from, count, dir).0,
        }
    }

    #[test]
    fn sowing_a_run_matches_sowing_stone_by_stone() {
        for ring_len in [12, 18] {
            for from in 0..ring_len {
                for count in 1..=105u8 {
                    for dir in Direction::ALL {
                        let start: Vec<u8> = (0..ring_len as u8).map(|i| i % 4).collect();
                        let mut fast = Pits::from_slice(&start);
                        let mut slow = start.clone();
                        let next = sow(&mut fast, ring_len, from, count, dir);
                        assert_eq!(next, sow_slowly(&mut slow, from, count, dir));
                        assert_eq!(
                            fast.as_slice(ring_len),
                            &slow[..],
                            "{ring_len} {from} {count} {dir}"
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
        assert!((0..3).all(|p| pits.row_stocked(p) == 0 && pits.row_is_empty(p)));
        pits.set(16, 1);
        pits.set(7, 9);
        assert!((0..3).map(|p| pits.row_stocked(p)).eq([0, 0b10, 0b10000]));
        assert!(
            (0..3)
                .map(|p| pits.row_is_empty(p))
                .eq([true, false, false])
        );
        assert!(!pits.mandarin_pits_empty());
        pits.set(5, 0);
        pits.set(11, 0);
        assert!(!pits.mandarin_pits_empty());
        pits.set(17, 0);
        assert!(pits.mandarin_pits_empty());
    }
}
