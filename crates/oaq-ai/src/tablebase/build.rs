//! Building a table: every position's value for every number of moves left, computed backwards
//! from the move limit until the values repeat.
//!
//! A position of a table is a board (at most `N` small stones, seen from the side to move) and
//! the mover's store; the opponent's store is what the game's 70 points leave. The stores are
//! part of it because under the `forfeit` refill a player who cannot pay five for a refill loses
//! at once, and because who wins depends on them. A value is the game's result for the mover:
//! `1000 × outcome + final margin` ([`encode`]), ordered as the search orders finished games.
//!
//! `V_0` is what each position is worth when the move limit ends the game on it (each side takes
//! its row, the mandarin pits are set aside). `V_k+1` of a position is the best, over its moves,
//! of the result the move gives at once (the game ends, or the opponent cannot pay a refill), or
//! else the negated value of the position it leads to with `k` moves left. So `V_k` is exact for a
//! position `k` moves before the move limit, cycles and all. A move after which a refill puts more
//! stones on the board than the table holds leads off the table: it is worth anything from the
//! worst to the best result, so values are kept as intervals, exact where the ends meet.
//!
//! Each round reads only the one before, so the result does not depend on the threads or the
//! order of the work. Once a round equals one `P` rounds before it (`P` up to [`MAX_PERIOD`],
//! compared by a 64-bit hash of each round), every later round repeats the last `P`: a position
//! whose value has not changed in them is exact however many moves are left beyond them. Most
//! settle to one value; a few whose stones can circle for ever without a capture keep changing
//! with the moves left.

use std::collections::VecDeque;
use std::thread;

use super::file::fnv1a;
use super::index::{Board, Indexer, PITS, TOTAL};
use oaq_rules::{MandarinStart, Position, Refill, RuleSet, Setup, Store};

/// The rules a table's moves are made by: those of `basic`, with every refill paid (the build
/// itself decides, from the stores, when a refill is a forfeit instead) and no move limit (the
/// rounds are the moves left).
pub fn building_rules() -> RuleSet {
    RuleSet {
        players: 2,
        mandarin_start: MandarinStart::Piece,
        protection: None,
        refill: Refill::Deduct,
        repetition: false,
        table_flip: false,
        move_limit: None,
        win_at: None,
    }
}

/// A finished game's result for one player, from its final margin and whether the game ended by
/// a forfeit (`Some(true)`: this player won by it).
pub fn encode(margin: i32, forfeit_won: Option<bool>) -> i16 {
    let outcome = match forfeit_won {
        Some(true) => 1,
        Some(false) => -1,
        None => margin.signum(),
    };
    (1000 * outcome + margin) as i16
}
/// No result is worse than this (a forfeit lost by all 70 points) or better than its negation.
const WORST: i32 = -1000 - 2 * TOTAL;

/// A move's place in the rounds: the board it leads to, or one of these.
const ENDS_GAME: u32 = u32::MAX;
const LEAVES_TABLE: u32 = u32::MAX - 1;
/// An entry that is no position (the mover's row is empty, or the game is over), and a value
/// that is not exact.
pub const UNKNOWN: i16 = i16::MIN;

/// One move of a board, the same for every store.
#[derive(Clone, Copy, Debug)]
struct BoardMove {
    /// The board it leads to (seen from the next mover), `ENDS_GAME` or `LEAVES_TABLE`.
    child: u32,
    /// Points the mover gains by it (captures, and its row if the game ends).
    mover: i8,
    /// Points the opponent gains: its row if the game ends, −5 if it must refill.
    other: i8,
    /// Stones on the mover's row after it: what the mover sweeps if the opponent forfeits.
    row: i8,
}

/// The positions of a table, their moves, and the rounds computed so far.
pub struct Builder {
    indexer: Indexer,
    /// Board b's positions are entries `start[b]..start[b + 1]`, one per store of the mover.
    start: Vec<u32>,
    /// Board b's moves are `first[b]..first[b + 1]` (none: no position).
    first: Vec<u32>,
    moves: Vec<BoardMove>,
    /// The last round's (low, high) per entry.
    now: Vec<[i16; 2]>,
    /// The round at which each entry last changed.
    changed_at: Vec<u16>,
    /// Hashes of the last rounds, newest first.
    hashes: VecDeque<u64>,
    round: u32,
}

/// The longest period of repeating rounds looked for.
pub const MAX_PERIOD: usize = 512;
/// The most rounds a build may run (`changed_at` counts them in 16 bits).
pub const MAX_ROUNDS: u32 = u16::MAX as u32;

/// Work split among this many threads: the result is the same for any number.
fn workers() -> usize {
    thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(16)
}

/// Ranges of `0..len` for each worker.
fn chunks(len: usize) -> Vec<std::ops::Range<usize>> {
    let size = len.div_ceil(workers()).max(1);
    (0..len)
        .step_by(size)
        .map(|start| start..(start + size).min(len))
        .collect()
}

/// The position of `board` with seat 0 to move and `mover` points in its store, or `None` when
/// no game stops there.
pub fn position_of(board: &Board, mover: i32) -> Option<Position> {
    let rules = building_rules();
    let other = TOTAL - board.points() - mover;
    if board.mover_row_empty() || mover < 0 || other < 0 {
        return None;
    }
    let mut setup = Setup::start(&rules);
    setup.pits = board.pits.to_vec();
    setup.quan = vec![board.pieces & 1 != 0, board.pieces & 2 != 0];
    let store = |points: i32| Store {
        stones: points as i16,
        ..Store::default()
    };
    setup.stores = vec![store(mover), store(other)];
    Position::from_setup(rules, &setup).ok()
}

fn row_of(board: &Board, start: usize) -> i32 {
    board.pits[start..start + 5]
        .iter()
        .map(|&n| i32::from(n))
        .sum()
}

/// The moves of a board (the same whatever the stores hold).
fn moves_of(indexer: &Indexer, board: &Board) -> Vec<BoardMove> {
    let Some(pos) = position_of(board, 0) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for &mv in pos.legal_moves().iter() {
        let mut next = pos;
        next.play_unchecked(mv);
        let (mover, other) = (next.score(0) - pos.score(0), next.score(1) - pos.score(1));
        let seen = Board::of(&next).expect("a 2-player position");
        let child = if next.is_over() {
            ENDS_GAME
        } else {
            indexer.index(&seen).map_or(LEAVES_TABLE, |b| b as u32)
        };
        out.push(BoardMove {
            child,
            mover: mover as i8,
            other: other as i8,
            // The next mover's view: the row after the mover's is where the mover's row starts.
            row: row_of(&seen, PITS / 2) as i8,
        });
    }
    out
}

impl Builder {
    /// Every board's moves for a table of boards with at most `stones` small stones, and `V_0`.
    /// `progress` hears of the boards done.
    pub fn new(stones: u8, progress: &(dyn Fn(usize, usize) + Sync)) -> Builder {
        let indexer = Indexer::new(stones);
        let boards = indexer.len() as usize;
        let done = std::sync::atomic::AtomicUsize::new(0);
        let parts: Vec<(Vec<u32>, Vec<BoardMove>)> = thread::scope(|scope| {
            let handles: Vec<_> = chunks(boards)
                .into_iter()
                .map(|range| {
                    let (indexer, done) = (&indexer, &done);
                    scope.spawn(move || {
                        let (mut counts, mut moves) = (Vec::new(), Vec::new());
                        for (n, b) in range.enumerate() {
                            let found = moves_of(indexer, &indexer.board(b as u64));
                            counts.push(found.len() as u32);
                            moves.extend(found);
                            if n % 65_536 == 65_535 {
                                let all =
                                    done.fetch_add(65_536, std::sync::atomic::Ordering::Relaxed);
                                progress(all + 65_536, boards);
                            }
                        }
                        (counts, moves)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a table worker panicked"))
                .collect()
        });
        progress(boards, boards);
        let mut first = vec![0u32];
        let mut moves = Vec::new();
        for (counts, found) in parts {
            for n in counts {
                first.push(first[first.len() - 1] + n);
            }
            moves.extend(found);
        }
        let mut start = vec![0u32];
        let mut now = Vec::new();
        for b in 0..boards {
            let board = indexer.board(b as u64);
            let stores = TOTAL - board.points() + 1;
            let live = first[b + 1] > first[b];
            for mover in 0..stores {
                now.push(if live {
                    let other = TOTAL - board.points() - mover;
                    let margin = mover + row_of(&board, 0) - other - row_of(&board, PITS / 2);
                    let v = encode(margin, None);
                    [v, v]
                } else {
                    [UNKNOWN; 2]
                });
            }
            start.push(now.len() as u32);
        }
        let changed_at = vec![0; now.len()];
        Builder {
            indexer,
            start,
            first,
            moves,
            hashes: VecDeque::from([hash(&now)]),
            now,
            changed_at,
            round: 0,
        }
    }

    pub fn indexer(&self) -> &Indexer {
        &self.indexer
    }

    /// Entries: one per board and store of the mover.
    pub fn entries(&self) -> usize {
        self.now.len()
    }

    /// Entries that are positions.
    pub fn positions(&self) -> usize {
        self.now.iter().filter(|v| v[0] != UNKNOWN).count()
    }

    /// The last round computed: its values are exact with this many moves left.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// The last round's values and when each last changed.
    pub fn last_round(&self) -> (&[[i16; 2]], &[u16]) {
        (&self.now, &self.changed_at)
    }

    /// Go on from a saved round, as `last_round` gave it.
    pub fn resume(
        &mut self,
        round: u32,
        now: Vec<[i16; 2]>,
        changed_at: Vec<u16>,
    ) -> Result<(), String> {
        if now.len() != self.now.len() || changed_at.len() != self.now.len() {
            return Err(format!(
                "the saved round has {} entries, the table {}",
                now.len(),
                self.now.len()
            ));
        }
        self.round = round;
        self.hashes = VecDeque::from([hash(&now)]);
        self.now = now;
        self.changed_at = changed_at;
        Ok(())
    }

    /// Compute the next round. Returns the period `P` once this round equals the one `P` rounds
    /// before (every later round then repeats the last `P`), and how many entries changed.
    pub fn step(&mut self) -> (Option<usize>, u64) {
        let len = self.now.len();
        let boards = self.start.len() - 1;
        let mut next = vec![[UNKNOWN; 2]; len];
        let (now, start, first, moves) = (&self.now, &self.start, &self.first, &self.moves);
        let round = (self.round + 1).min(MAX_ROUNDS) as u16;
        thread::scope(|scope| {
            let mut rest: &mut [[i16; 2]] = &mut next;
            let mut changed: &mut [u16] = &mut self.changed_at;
            for range in chunks(boards) {
                let size = (start[range.end] - start[range.start]) as usize;
                let (mine, tail) = rest.split_at_mut(size);
                rest = tail;
                let (stamps, tail) = changed.split_at_mut(size);
                changed = tail;
                scope.spawn(move || {
                    let offset = start[range.start] as usize;
                    for b in range {
                        let board_moves = &moves[first[b] as usize..first[b + 1] as usize];
                        if board_moves.is_empty() {
                            continue;
                        }
                        let entries = start[b] as usize..start[b + 1] as usize;
                        let points = TOTAL - (entries.len() as i32 - 1);
                        for (mover, e) in entries.enumerate() {
                            let mover = mover as i32;
                            let other = TOTAL - points - mover;
                            let value = value_of(board_moves, mover, other, now, start);
                            let slot = e - offset;
                            if value != now[e] {
                                stamps[slot] = round;
                            }
                            mine[slot] = value;
                        }
                    }
                });
            }
        });
        let changed = next.iter().zip(&self.now).filter(|(a, b)| a != b).count() as u64;
        let h = hash(&next);
        let period = self
            .hashes
            .iter()
            .position(|&old| old == h)
            .map(|back| back + 1);
        self.hashes.push_front(h);
        self.hashes.truncate(MAX_PERIOD);
        self.now = next;
        self.round += 1;
        (period, changed)
    }

    /// The finished values, once `step` found the rounds repeating with `period`: exact where the
    /// value has been one number through the last `period` rounds, `UNKNOWN` elsewhere.
    pub fn values(&self, period: usize) -> Vec<i16> {
        let since = self.round.saturating_sub(period as u32);
        self.now
            .iter()
            .zip(&self.changed_at)
            .map(|(&[low, high], &at)| {
                if low == high && u32::from(at) <= since {
                    low
                } else {
                    UNKNOWN
                }
            })
            .collect()
    }
}

/// How many positions of one kind of board a build made exact, and why the others are not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    pub positions: u64,
    pub exact: u64,
    /// Not exact because some line leads off the table (a refill past its stones).
    pub open: u64,
    /// Not exact because the value keeps changing with the moves left (stones circling).
    pub cycling: u64,
}

impl Builder {
    /// Coverage per (small stones, mandarin pieces on the board), once `step` found `period`.
    pub fn coverage(&self, period: usize) -> std::collections::BTreeMap<(u32, u32), Coverage> {
        let values = self.values(period);
        let mut by = std::collections::BTreeMap::new();
        for b in 0..self.indexer.len() {
            let board = self.indexer.board(b);
            let entries = self.start[b as usize] as usize..self.start[b as usize + 1] as usize;
            let kind: &mut Coverage = by
                .entry((board.stones(), board.pieces.count_ones()))
                .or_default();
            for e in entries {
                let [low, high] = self.now[e];
                if low == UNKNOWN {
                    continue;
                }
                kind.positions += 1;
                if values[e] != UNKNOWN {
                    kind.exact += 1;
                } else if low != high {
                    kind.open += 1;
                } else {
                    kind.cycling += 1;
                }
            }
        }
        by
    }
}

/// A whole table of boards with at most `stones` small stones, built in one go (without saving
/// rounds): `oaq tablebase build` does the same with progress and a resumable save.
///
/// ```
/// use oaq_ai::tablebase::build;
/// let table = build::table(1, 4000).unwrap();
/// assert_eq!(table.stones(), 1);
/// ```
pub fn table(stones: u8, max_rounds: u32) -> Result<super::Tablebase, String> {
    let mut builder = Builder::new(stones, &|_, _| {});
    while builder.round() < max_rounds.min(MAX_ROUNDS) {
        if let (Some(period), _) = builder.step() {
            let settled = builder.round() - period as u32;
            return super::Tablebase::new(stones, settled, builder.values(period));
        }
    }
    Err(format!("not settled after {} rounds", builder.round()))
}

/// One position's value interval from the last round: the best of its moves.
#[inline]
fn value_of(
    moves: &[BoardMove],
    mover: i32,
    other: i32,
    now: &[[i16; 2]],
    start: &[u32],
) -> [i16; 2] {
    let (mut low, mut high) = (i32::MIN, i32::MIN);
    for m in moves {
        let (gain, paid) = (i32::from(m.mover), i32::from(m.other));
        let (l, h) = if m.child == ENDS_GAME {
            let v = i32::from(encode(mover + gain - (other + paid), None));
            (v, v)
        } else if paid < 0 && other < 5 {
            // The opponent's row is empty and it cannot pay: it forfeits, and each side takes
            // its row (the opponent's is empty).
            let v = i32::from(encode(mover + gain + i32::from(m.row) - other, Some(true)));
            (v, v)
        } else if m.child == LEAVES_TABLE {
            (WORST, -WORST)
        } else {
            let e = start[m.child as usize] as usize + (other + paid) as usize;
            let [cl, ch] = now[e];
            debug_assert!(cl != UNKNOWN, "a move leads to a position of the table");
            (-i32::from(ch), -i32::from(cl))
        };
        low = low.max(l);
        high = high.max(h);
    }
    [low as i16, high as i16]
}

fn hash(values: &[[i16; 2]]) -> u64 {
    fnv1a(bytemuck::cast_slice(values))
}
