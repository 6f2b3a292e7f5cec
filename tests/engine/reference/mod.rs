//! A second, deliberately plain implementation of the rules, written straight from the rule text
//! with no regard for speed. The tests play both side by side: any difference is a bug in one.

pub mod plain;

use o_an_quan::rules::{Direction, MandarinStart, Move, Position, Refill, RuleSet, Setup, Store};

#[derive(Clone, Debug)]
pub struct Reference {
    rules: RuleSet,
    n: usize,
    players: usize,
    pits: Vec<i32>,
    quan: Vec<bool>,
    stones: Vec<i32>,
    mandarins: Vec<i32>,
    /// owes[p][q]: what p owes q.
    owes: Vec<Vec<i32>>,
    ply: u32,
    to_move: usize,
    over: bool,
    forfeit: Option<usize>,
    swapped: bool,
    moves: Vec<(usize, i32)>,
}

fn is_quan_pit(i: usize) -> bool {
    i % 6 == 5
}

impl Reference {
    pub fn from_position(pos: &Position) -> Reference {
        let s = pos.setup();
        let players = s.quan.len();
        Reference {
            rules: *pos.rules(),
            n: s.pits.len(),
            players,
            pits: s.pits.iter().map(|&x| i32::from(x)).collect(),
            quan: s.quan.clone(),
            stones: s.stores.iter().map(|st| i32::from(st.stones)).collect(),
            mandarins: s.stores.iter().map(|st| i32::from(st.mandarins)).collect(),
            owes: s
                .stores
                .iter()
                .map(|st| st.owes[..players].iter().map(|&o| i32::from(o)).collect())
                .collect(),
            ply: s.ply,
            to_move: usize::from(s.to_move),
            over: s.over,
            forfeit: s.forfeit.map(usize::from),
            swapped: s.swapped,
            moves: Vec::new(),
        }
    }

    pub fn setup(&self) -> Setup {
        Setup {
            ply: self.ply,
            to_move: self.to_move as u8,
            pits: self.pits.iter().map(|&x| x as u8).collect(),
            quan: self.quan.clone(),
            stores: (0..self.players)
                .map(|p| {
                    let mut owes = [0u16; 3];
                    for (owed, &amount) in owes.iter_mut().zip(&self.owes[p]) {
                        *owed = amount as u16;
                    }
                    Store {
                        stones: self.stones[p] as i16,
                        mandarins: self.mandarins[p] as u8,
                        owes,
                    }
                })
                .collect(),
            over: self.over,
            forfeit: self.forfeit.map(|p| p as u8),
            swapped: self.swapped,
        }
    }

    fn empty(&self, i: usize) -> bool {
        self.pits[i] == 0 && !(is_quan_pit(i) && self.quan[i / 6])
    }

    fn step(&self, i: usize, d: i64) -> usize {
        (i as i64 + d).rem_euclid(self.n as i64) as usize
    }

    /// Every legal move, in any order.
    pub fn moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        if self.over {
            return out;
        }
        for k in 0..5 {
            let i = self.to_move * 6 + k;
            if self.pits[i] > 0 {
                out.push(Move::Sow {
                    pit: i as u8,
                    dir: Direction::Clockwise,
                });
                out.push(Move::Sow {
                    pit: i as u8,
                    dir: Direction::CounterClockwise,
                });
            }
        }
        if self.rules.table_flip && self.ply == 1 && !self.swapped {
            out.push(Move::Swap);
        }
        out
    }

    fn protected(&self, i: usize) -> bool {
        let Some(p) = self.rules.protection else {
            return false;
        };
        let has = match self.rules.mandarin_start {
            MandarinStart::Piece => self.quan[i / 6],
            MandarinStart::TenStones => true,
        };
        let young = match p.plies {
            None => true,
            Some(k) => self.ply < u32::from(k),
        };
        let light = match p.min_stones {
            None => true,
            Some(m) => self.pits[i] < i32::from(m),
        };
        has && young && light
    }

    pub fn play(&mut self, m: Move) {
        assert!(self.moves().contains(&m), "reference: {m} is not legal");
        let (pit, dir) = match m {
            Move::Swap => {
                self.swapped = true;
                return;
            }
            Move::Sow { pit, dir } => (usize::from(pit), dir),
        };
        let d: i64 = if dir == Direction::CounterClockwise {
            1
        } else {
            -1
        };
        let me = self.to_move;
        let mut i = pit;
        let mut hand = self.pits[i];
        self.pits[i] = 0;
        loop {
            while hand > 0 {
                i = self.step(i, d);
                self.pits[i] += 1;
                hand -= 1;
            }
            let next = self.step(i, d);
            if is_quan_pit(next) && !self.empty(next) {
                break;
            }
            if !is_quan_pit(next) && self.pits[next] > 0 {
                hand = self.pits[next];
                self.pits[next] = 0;
                i = next;
                continue;
            }
            // next is empty: capture in a chain.
            let mut gap = next;
            loop {
                let t = self.step(gap, d);
                if self.empty(t) || (is_quan_pit(t) && self.protected(t)) {
                    break;
                }
                self.stones[me] += self.pits[t];
                self.pits[t] = 0;
                if is_quan_pit(t) && self.quan[t / 6] {
                    self.quan[t / 6] = false;
                    self.mandarins[me] += 1;
                }
                let after = self.step(t, d);
                if !self.empty(after) {
                    break;
                }
                gap = after;
            }
            break;
        }
        self.ply += 1;
        self.moves.push((pit, d as i32));
        self.to_move = (self.to_move + 1) % self.players;

        let quan_pits_empty = (0..self.players).all(|p| self.empty(p * 6 + 5));
        let l = self.moves.len();
        let repeated = self.rules.repetition
            && l >= 6
            && self.moves[l - 1] == self.moves[l - 3]
            && self.moves[l - 3] == self.moves[l - 5]
            && self.moves[l - 2] == self.moves[l - 4]
            && self.moves[l - 4] == self.moves[l - 6];
        let limit = self.ply >= self.rules.max_plies();
        let won = self
            .rules
            .win_at
            .is_some_and(|n| (0..self.players).any(|p| self.score(p) >= i32::from(n)));
        if quan_pits_empty {
            self.finish(false);
        } else if won || repeated || limit {
            self.finish(true);
        } else if (0..5).all(|k| self.pits[self.to_move * 6 + k] == 0) {
            self.refill();
        }
    }

    /// Stones, 10 a mandarin, less what the player owes, plus what is owed to them.
    fn score(&self, p: usize) -> i32 {
        let owed_by: i32 = self.owes[p].iter().sum();
        let owed_to: i32 = (0..self.players).map(|q| self.owes[q][p]).sum();
        self.stones[p] + 10 * self.mandarins[p] - owed_by + owed_to
    }

    fn refill(&mut self) {
        let p = self.to_move;
        if self.stones[p] < 5 && self.mandarins[p] > 0 {
            self.mandarins[p] -= 1;
            self.stones[p] += 10;
        }
        match self.rules.refill {
            // A board that cannot take five more stones ends the game.
            Refill::Deduct if self.pits.iter().sum::<i32>() + 5 > 255 => {
                self.finish(true);
                return;
            }
            Refill::Deduct => self.stones[p] -= 5,
            Refill::Forfeit => {
                if self.stones[p] < 5 {
                    self.forfeit = Some(p);
                    self.finish(false);
                    return;
                }
                self.stones[p] -= 5;
            }
            Refill::Borrow => {
                if self.stones[p] >= 5 {
                    self.stones[p] -= 5;
                } else {
                    let short = 5 - self.stones[p].max(0);
                    // The richest opponent lends, ties to the next in turn order.
                    let mut lender = (p + 1) % self.players;
                    for k in 2..self.players {
                        let q = (p + k) % self.players;
                        if self.stones[q] + 10 * self.mandarins[q]
                            > self.stones[lender] + 10 * self.mandarins[lender]
                        {
                            lender = q;
                        }
                    }
                    if self.stones[lender] < short && self.mandarins[lender] > 0 {
                        self.mandarins[lender] -= 1;
                        self.stones[lender] += 10;
                    }
                    if self.stones[lender] < short {
                        self.finish(false);
                        return;
                    }
                    self.stones[lender] -= short;
                    self.stones[p] -= 5 - short;
                    self.owes[p][lender] += short;
                    let net = self.owes[p][lender].min(self.owes[lender][p]);
                    self.owes[p][lender] -= net;
                    self.owes[lender][p] -= net;
                }
            }
        }
        for k in 0..5 {
            self.pits[p * 6 + k] = 1;
        }
    }

    fn finish(&mut self, discard: bool) {
        for i in 0..self.n {
            if is_quan_pit(i) {
                if discard {
                    self.pits[i] = 0;
                    self.quan[i / 6] = false;
                }
            } else {
                self.stones[i / 6] += self.pits[i];
                self.pits[i] = 0;
            }
        }
        self.over = true;
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .into_iter()
            .map(|m| {
                let mut next = self.clone();
                next.play(m);
                next.perft(depth - 1)
            })
            .sum()
    }
}
