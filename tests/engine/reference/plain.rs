//! A plain copy-make engine for the `basic` rule set alone, written from the rule text for
//! speed's sake only as far as a first implementation would be: the baseline the rules engine
//! is measured against (`benches/rules.rs`), and checked against it by perft (`tests/perft.rs`).

/// Ring index 5 and 11 are the mandarin pits; 0..5 belong to player 0, 6..11 to player 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plain {
    pits: [u8; 12],
    quan: [bool; 2],
    stones: [i16; 2],
    mandarins: [u8; 2],
    ply: u16,
    to_move: usize,
    over: bool,
}

const MAX_PLIES: u16 = 200;

impl Plain {
    pub fn start() -> Plain {
        let mut pits = [5; 12];
        pits[5] = 0;
        pits[11] = 0;
        Plain {
            pits,
            quan: [true; 2],
            stones: [0; 2],
            mandarins: [0; 2],
            ply: 0,
            to_move: 0,
            over: false,
        }
    }

    fn empty(&self, i: usize) -> bool {
        self.pits[i] == 0 && !(i % 6 == 5 && self.quan[i / 6])
    }

    /// Every legal move as (pit, step): step 1 toward higher numbers, 11 (that is, −1) back.
    pub fn moves(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::with_capacity(10);
        if !self.over {
            for i in self.to_move * 6..self.to_move * 6 + 5 {
                if self.pits[i] > 0 {
                    out.push((i, 11));
                    out.push((i, 1));
                }
            }
        }
        out
    }

    pub fn play(&mut self, (pit, step): (usize, usize)) {
        let me = self.to_move;
        let mut i = pit;
        let mut hand = std::mem::take(&mut self.pits[i]);
        loop {
            while hand > 0 {
                i = (i + step) % 12;
                self.pits[i] += 1;
                hand -= 1;
            }
            let next = (i + step) % 12;
            if next % 6 == 5 && !self.empty(next) {
                break;
            }
            if next % 6 != 5 && self.pits[next] > 0 {
                hand = std::mem::take(&mut self.pits[next]);
                i = next;
                continue;
            }
            // The next pit is empty: capture the one after it, and on along the chain.
            let mut gap = next;
            loop {
                let t = (gap + step) % 12;
                if self.empty(t) {
                    break;
                }
                self.stones[me] += i16::from(std::mem::take(&mut self.pits[t]));
                if t % 6 == 5 && self.quan[t / 6] {
                    self.quan[t / 6] = false;
                    self.mandarins[me] += 1;
                }
                let after = (t + step) % 12;
                if !self.empty(after) {
                    break;
                }
                gap = after;
            }
            break;
        }
        self.ply += 1;
        self.to_move = 1 - me;
        if self.empty(5) && self.empty(11) {
            self.finish(false);
        } else if self.ply >= MAX_PLIES {
            self.finish(true);
        } else if (0..5).all(|k| self.pits[self.to_move * 6 + k] == 0) {
            let p = self.to_move;
            if self.stones[p] < 5 && self.mandarins[p] > 0 {
                self.mandarins[p] -= 1;
                self.stones[p] += 10;
            }
            if self.stones[p] < 5 {
                self.finish(false);
            } else {
                self.stones[p] -= 5;
                self.pits[p * 6..p * 6 + 5].fill(1);
            }
        }
    }

    fn finish(&mut self, discard: bool) {
        for i in 0..12 {
            if i % 6 != 5 {
                self.stones[i / 6] += i16::from(std::mem::take(&mut self.pits[i]));
            } else if discard {
                self.pits[i] = 0;
                self.quan[i / 6] = false;
            }
        }
        self.over = true;
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|m| {
                let mut next = *self;
                next.play(m);
                next.perft(depth - 1)
            })
            .sum()
    }
}
