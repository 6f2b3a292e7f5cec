//! Sowing, relay sowing and chain capture: the heart of a move.

use std::collections::HashSet;

use super::event::{Event, EventSink, TurnEnd};
use super::geometry::{self, Direction};
use super::pits::{Pits, Ring, Sown};
use super::position::Position;
use super::ruleset::MandarinStart;

/// Relay pick-ups in one move before the engine starts looking for a cycle.
///
/// Relay sowing cannot actually cycle: the hand only moves forward, every pit it passes gets a
/// stone except the citizen pits it relays from, and mandarin pits are never emptied during a
/// move. So each lap of the ring adds a stone to every mandarin pit for good, a move makes at
/// most 105 / 2 laps, and relays at most 15 times a lap: well under this budget. The check
/// stays as a guard for rule changes, and costs the fast path one counter.
const RELAYS_BEFORE_CYCLE_CHECK: u32 = 1_000;

/// Decides, at each relay pick-up, whether relay sowing may go on.
trait RelayGuard {
    fn check<R: Ring>(&mut self, pits: &R, at: usize) -> Relay;
}

enum Relay {
    Continue,
    /// This (board, pit) state came up before: the move would never end.
    Cycle,
    /// Too many relays to trust the fast path: replay the move with the cycle check on.
    Recheck,
}

/// The fast path: counts relays only.
struct CountRelays {
    count: u32,
    limit: u32,
}

impl RelayGuard for CountRelays {
    #[inline(always)]
    fn check<R: Ring>(&mut self, _: &R, _: usize) -> Relay {
        self.count += 1;
        if self.count > self.limit {
            Relay::Recheck
        } else {
            Relay::Continue
        }
    }
}

/// The exact path: remembers every (board, pit) state at a relay pick-up.
#[derive(Default)]
struct FindCycle {
    seen: HashSet<(Pits, usize)>,
}

impl RelayGuard for FindCycle {
    fn check<R: Ring>(&mut self, pits: &R, at: usize) -> Relay {
        let mut board = Pits::empty();
        pits.store(&mut board);
        if self.seen.insert((board, at)) {
            Relay::Continue
        } else {
            Relay::Cycle
        }
    }
}

/// Whether ring index `index` (below [`geometry::MAX_RING`]) is a mandarin pit: a bit test,
/// where [`geometry::is_mandarin`] divides.
#[inline(always)]
fn is_mandarin_pit(index: usize) -> bool {
    const MANDARIN_PITS: u32 = {
        let mut bits = 0;
        let mut p = 0;
        while p < geometry::MAX_PLAYERS {
            bits |= 1 << geometry::mandarin_pit(p);
            p += 1;
        }
        bits
    };
    MANDARIN_PITS >> index & 1 != 0
}

/// Which way the hand walks round a ring of `len` pits.
#[derive(Clone, Copy)]
struct Walk {
    stride: usize,
    len: usize,
}

impl Walk {
    #[inline(always)]
    fn next(self, index: usize) -> usize {
        let i = index + self.stride;
        if i >= self.len { i - self.len } else { i }
    }
}

impl Position {
    /// Sow from citizen pit `pit` in `dir` round the ring `R`, relay, and capture,
    /// ending the move's board work.
    #[inline(always)]
    pub(super) fn sow_and_capture<S: EventSink, R: Ring>(
        &mut self,
        pit: usize,
        dir: Direction,
        sink: &mut S,
    ) {
        self.sow_guarded::<S, R>(pit, dir, sink, RELAYS_BEFORE_CYCLE_CHECK);
    }

    /// `sow_and_capture` with the fast path's relay budget as a parameter, so that tests can
    /// force the exact path.
    #[inline(always)]
    pub(super) fn sow_guarded<S: EventSink, R: Ring>(
        &mut self,
        pit: usize,
        dir: Direction,
        sink: &mut S,
        relays_before_check: u32,
    ) {
        // A recheck comes before anything is written back, so the position is as it was.
        let mark = sink.mark();
        let mut fast = CountRelays {
            count: 0,
            limit: relays_before_check,
        };
        if self
            .sow::<S, CountRelays, R>(pit, dir, sink, &mut fast)
            .is_err()
        {
            sink.rewind(mark);
            self.sow_exactly::<S, R>(pit, dir, sink);
        }
    }

    /// The slow path, out of line: it never runs in practice (see [`RELAYS_BEFORE_CYCLE_CHECK`]).
    #[inline(never)]
    #[cold]
    fn sow_exactly<S: EventSink, R: Ring>(&mut self, pit: usize, dir: Direction, sink: &mut S) {
        let finished = self.sow::<S, FindCycle, R>(pit, dir, sink, &mut FindCycle::default());
        debug_assert!(finished.is_ok(), "the exact path never asks for a recheck");
    }

    /// Returns `Err(())`, with the position untouched, when the guard asks for a recheck.
    #[inline(always)]
    fn sow<S: EventSink, G: RelayGuard, R: Ring>(
        &mut self,
        pit: usize,
        dir: Direction,
        sink: &mut S,
        guard: &mut G,
    ) -> Result<(), ()> {
        let walk = Walk {
            stride: dir.stride(R::LEN),
            len: R::LEN,
        };
        // The relay loop works on a local copy of the pits, in the ring's own form.
        let mut pits = R::load(&self.pits);
        let mut at = pit;
        if let Relay::Cycle = guard.check(&pits, at) {
            unreachable!("the first state cannot repeat");
        }
        let mut hand = pits.take(at);
        sink.push(Event::PickUp {
            pit: at as u8,
            count: hand,
        });
        // One branch a hand: whether it relays. Where it stopped is sorted out after the loop.
        let (next, stones, mandarin) = loop {
            let Sown {
                next,
                stones,
                mandarin,
            } = pits.sow(at, hand, dir);
            if S::RECORDS {
                let mut drop = at;
                for _ in 0..hand {
                    drop = walk.next(drop);
                    sink.push(Event::Drop { pit: drop as u8 });
                }
            }
            if (stones == 0) | mandarin {
                break (next, stones, mandarin);
            }
            match guard.check(&pits, next) {
                Relay::Continue => {}
                Relay::Cycle => {
                    pits.store(&mut self.pits);
                    sink.push(Event::TurnEnd {
                        reason: TurnEnd::Cycle,
                    });
                    return Ok(());
                }
                Relay::Recheck => return Err(()),
            }
            at = next;
            hand = stones;
            pits.empty(at);
            sink.push(Event::Relay {
                pit: at as u8,
                count: hand,
            });
        };
        if mandarin & ((stones > 0) | self.has_piece_at(next)) {
            sink.push(Event::TurnEnd {
                reason: TurnEnd::MandarinPit { pit: next as u8 },
            });
        } else {
            self.capture_chain(&mut pits, next, walk, sink);
        }
        pits.store(&mut self.pits);
        Ok(())
    }

    /// `empty` is an empty pit right after the last stone: capture what follows it, and go on
    /// while an empty pit is followed by a pit with something in it. Works on the ring's own
    /// form of the pits, which the caller stores back.
    #[inline(always)]
    fn capture_chain<S: EventSink, R: Ring>(
        &mut self,
        pits: &mut R,
        mut empty: usize,
        walk: Walk,
        sink: &mut S,
    ) {
        let mover = self.to_move();
        let is_empty =
            |pits: &R, quan: u32, pit: usize| (pits.get(pit) == 0) & (quan >> pit & 1 == 0);
        loop {
            let target = walk.next(empty);
            // Each pit read once: what it holds decides, and is what is captured.
            let stones = pits.get(target);
            if (stones == 0) & !self.has_piece_at(target) {
                sink.push(Event::TurnEnd {
                    reason: TurnEnd::TwoEmpty { pit: empty as u8 },
                });
                return;
            }
            if is_mandarin_pit(target) && self.is_protected_holding(target, stones) {
                sink.push(Event::TurnEnd {
                    reason: TurnEnd::Protected { pit: target as u8 },
                });
                return;
            }
            pits.empty(target);
            let mandarin = self.has_piece_at(target);
            let store = &mut self.stores[mover];
            store.stones += i16::from(stones);
            if mandarin {
                self.quan &= !(1 << target);
                store.mandarins += 1;
            }
            sink.push(Event::Capture {
                pit: target as u8,
                stones,
                mandarin,
            });
            let after = walk.next(target);
            if !is_empty(pits, self.quan, after) {
                sink.push(Event::TurnEnd {
                    reason: TurnEnd::Blocked { pit: after as u8 },
                });
                return;
            }
            empty = after;
        }
    }

    /// Whether mandarin pit `pit` cannot be captured on this move.
    pub fn is_protected(&self, pit: usize) -> bool {
        self.is_protected_holding(pit, self.pits.get(pit))
    }

    /// `is_protected` for mandarin pit `pit` holding `stones` small stones.
    #[inline(always)]
    fn is_protected_holding(&self, pit: usize, stones: u8) -> bool {
        let Some(protection) = self.rules.protection else {
            return false;
        };
        let guarded = match self.rules.mandarin_start {
            MandarinStart::Piece => self.has_piece_at(pit),
            MandarinStart::TenStones => true,
        };
        guarded
            && protection
                .plies
                .is_none_or(|plies| self.ply < u32::from(plies))
            && protection
                .min_stones
                .is_none_or(|min| u16::from(stones) < min)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pits::{Ring12, Ring18};
    use crate::{Position, RuleSet};

    /// Both guards, on both boards: the same position, the same events.
    #[test]
    fn the_exact_path_plays_like_the_fast_path() {
        let mut seed = 1u64;
        for rules in [
            RuleSet::default(),
            crate::presets::get("mature-quan-3p").unwrap().rules,
        ] {
            for _ in 0..200 {
                let mut pos = Position::new(rules);
                while !pos.is_over() && pos.ply() < 200 {
                    let moves = pos.legal_moves();
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let mv = moves[(seed >> 33) as usize % moves.len()];
                    if let crate::Move::Sow { pit, dir } = mv {
                        let (mut fast, mut exact) = (pos, pos);
                        let (mut fast_events, mut exact_events) = (Vec::new(), Vec::new());
                        let pit = usize::from(pit);
                        if pos.players() == 2 {
                            fast.sow_guarded::<_, Ring12>(pit, dir, &mut fast_events, u32::MAX);
                            exact.sow_guarded::<_, Ring12>(pit, dir, &mut exact_events, 0);
                        } else {
                            fast.sow_guarded::<_, Ring18>(pit, dir, &mut fast_events, u32::MAX);
                            exact.sow_guarded::<_, Ring18>(pit, dir, &mut exact_events, 0);
                        }
                        assert_eq!(fast, exact);
                        assert_eq!(fast_events, exact_events);
                    }
                    pos.play_unchecked(mv);
                }
            }
        }
    }

    #[test]
    fn a_repeated_state_is_a_cycle() {
        let mut guard = FindCycle::default();
        let mut pits = Pits::empty();
        pits.set(3, 4);
        let ring = |pits: &Pits| Ring12::load(pits);
        assert!(matches!(guard.check(&ring(&pits), 3), Relay::Continue));
        assert!(matches!(guard.check(&ring(&pits), 4), Relay::Continue));
        pits.set(4, 1);
        assert!(matches!(guard.check(&ring(&pits), 3), Relay::Continue));
        pits.set(4, 0);
        assert!(matches!(guard.check(&ring(&pits), 3), Relay::Cycle));
    }

    #[test]
    fn the_fast_path_hands_over_when_its_budget_runs_out() {
        let mut guard = CountRelays { count: 0, limit: 2 };
        let pits = Ring18::load(&Pits::empty());
        assert!(matches!(guard.check(&pits, 0), Relay::Continue));
        assert!(matches!(guard.check(&pits, 0), Relay::Continue));
        assert!(matches!(guard.check(&pits, 0), Relay::Recheck));
    }
}
