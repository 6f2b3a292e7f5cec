//! Sowing, relay sowing and chain capture: the heart of a move.

use std::collections::HashSet;

use super::event::{Event, EventSink, TurnEnd};
use super::geometry::{self, Direction, MAX_RING};
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
    fn check(&mut self, pits: &[u8; MAX_RING], at: usize) -> Relay;
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
    fn check(&mut self, _: &[u8; MAX_RING], _: usize) -> Relay {
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
    seen: HashSet<([u8; MAX_RING], usize)>,
}

impl RelayGuard for FindCycle {
    fn check(&mut self, pits: &[u8; MAX_RING], at: usize) -> Relay {
        if self.seen.insert((*pits, at)) {
            Relay::Continue
        } else {
            Relay::Cycle
        }
    }
}

/// Where the hand is and which way it walks.
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
    /// Sow from citizen pit `pit` in `dir`, relay, and capture, ending the move's board work.
    pub(super) fn sow_and_capture<S: EventSink>(
        &mut self,
        pit: usize,
        dir: Direction,
        sink: &mut S,
    ) {
        self.sow_guarded(pit, dir, sink, RELAYS_BEFORE_CYCLE_CHECK);
    }

    /// `sow_and_capture` with the fast path's relay budget as a parameter, so that tests can
    /// force the exact path.
    pub(super) fn sow_guarded<S: EventSink>(
        &mut self,
        pit: usize,
        dir: Direction,
        sink: &mut S,
        relays_before_check: u32,
    ) {
        let before = *self;
        let mark = sink.mark();
        let mut fast = CountRelays {
            count: 0,
            limit: relays_before_check,
        };
        if self.sow(pit, dir, sink, &mut fast).is_err() {
            *self = before;
            sink.rewind(mark);
            let finished = self.sow(pit, dir, sink, &mut FindCycle::default());
            debug_assert!(finished.is_ok(), "the exact path never asks for a recheck");
        }
    }

    /// Returns `Err(())` when the guard asks for a recheck; the position is then half-played.
    #[inline(always)]
    fn sow<S: EventSink, G: RelayGuard>(
        &mut self,
        pit: usize,
        dir: Direction,
        sink: &mut S,
        guard: &mut G,
    ) -> Result<(), ()> {
        let len = geometry::ring_len(self.players());
        let walk = Walk {
            stride: dir.stride(len),
            len,
        };
        let mut at = pit;
        if let Relay::Cycle = guard.check(&self.pits, at) {
            unreachable!("the first state cannot repeat");
        }
        let mut hand = self.pits[at];
        self.pits[at] = 0;
        sink.push(Event::PickUp {
            pit: at as u8,
            count: hand,
        });
        loop {
            while hand > 0 {
                at = walk.next(at);
                self.pits[at] += 1;
                hand -= 1;
                sink.push(Event::Drop { pit: at as u8 });
            }
            let next = walk.next(at);
            if geometry::is_mandarin(next) {
                if !self.is_empty_pit(next) {
                    sink.push(Event::TurnEnd {
                        reason: TurnEnd::MandarinPit { pit: next as u8 },
                    });
                    return Ok(());
                }
            } else if self.pits[next] > 0 {
                match guard.check(&self.pits, next) {
                    Relay::Continue => {}
                    Relay::Cycle => {
                        sink.push(Event::TurnEnd {
                            reason: TurnEnd::Cycle,
                        });
                        return Ok(());
                    }
                    Relay::Recheck => return Err(()),
                }
                at = next;
                hand = self.pits[at];
                self.pits[at] = 0;
                sink.push(Event::Relay {
                    pit: at as u8,
                    count: hand,
                });
                continue;
            }
            self.capture_chain(next, walk, sink);
            return Ok(());
        }
    }

    /// `empty` is an empty pit right after the last stone: capture what follows it, and go on
    /// while an empty pit is followed by a pit with something in it.
    #[inline(always)]
    fn capture_chain<S: EventSink>(&mut self, mut empty: usize, walk: Walk, sink: &mut S) {
        let mover = self.to_move();
        loop {
            let target = walk.next(empty);
            if self.is_empty_pit(target) {
                sink.push(Event::TurnEnd {
                    reason: TurnEnd::TwoEmpty { pit: empty as u8 },
                });
                return;
            }
            let mandarin_pit = geometry::is_mandarin(target);
            if mandarin_pit && self.is_protected(target) {
                sink.push(Event::TurnEnd {
                    reason: TurnEnd::Protected { pit: target as u8 },
                });
                return;
            }
            let stones = self.pits[target];
            let mandarin = mandarin_pit && self.quan[geometry::owner(target)];
            self.pits[target] = 0;
            let store = &mut self.stores[mover];
            store.stones += i16::from(stones);
            if mandarin {
                self.quan[geometry::owner(target)] = false;
                store.mandarins += 1;
            }
            sink.push(Event::Capture {
                pit: target as u8,
                stones,
                mandarin,
            });
            let after = walk.next(target);
            if !self.is_empty_pit(after) {
                sink.push(Event::TurnEnd {
                    reason: TurnEnd::Blocked { pit: after as u8 },
                });
                return;
            }
            empty = after;
        }
    }

    /// Whether mandarin pit `pit` cannot be captured on this move.
    fn is_protected(&self, pit: usize) -> bool {
        let Some(protection) = self.rules.protection else {
            return false;
        };
        let guarded = match self.rules.mandarin_start {
            MandarinStart::Piece => self.quan[geometry::owner(pit)],
            MandarinStart::TenStones => true,
        };
        guarded
            && protection
                .plies
                .is_none_or(|plies| self.ply < u32::from(plies))
            && protection
                .min_stones
                .is_none_or(|min| u16::from(self.pits[pit]) < min)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Position, RuleSet};

    #[test]
    fn the_exact_path_plays_like_the_fast_path() {
        let mut seed = 1u64;
        let rules = RuleSet::default();
        for _ in 0..300 {
            let mut pos = Position::new(rules);
            while !pos.is_over() && pos.ply() < 200 {
                let moves = pos.legal_moves();
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let mv = moves[(seed >> 33) as usize % moves.len()];
                if let crate::rules::Move::Sow { pit, dir } = mv {
                    let (mut fast, mut exact) = (pos, pos);
                    let (mut fast_events, mut exact_events) = (Vec::new(), Vec::new());
                    fast.sow_guarded(usize::from(pit), dir, &mut fast_events, u32::MAX);
                    exact.sow_guarded(usize::from(pit), dir, &mut exact_events, 0);
                    assert_eq!(fast, exact);
                    assert_eq!(fast_events, exact_events);
                }
                pos.play_unchecked(mv);
            }
        }
    }

    #[test]
    fn a_repeated_state_is_a_cycle() {
        let mut guard = FindCycle::default();
        let mut pits = [0u8; MAX_RING];
        pits[3] = 4;
        assert!(matches!(guard.check(&pits, 3), Relay::Continue));
        assert!(matches!(guard.check(&pits, 4), Relay::Continue));
        pits[4] = 1;
        assert!(matches!(guard.check(&pits, 3), Relay::Continue));
        pits[4] = 0;
        assert!(matches!(guard.check(&pits, 3), Relay::Cycle));
    }

    #[test]
    fn the_fast_path_hands_over_when_its_budget_runs_out() {
        let mut guard = CountRelays { count: 0, limit: 2 };
        let pits = [0u8; MAX_RING];
        assert!(matches!(guard.check(&pits, 0), Relay::Continue));
        assert!(matches!(guard.check(&pits, 0), Relay::Continue));
        assert!(matches!(guard.check(&pits, 0), Relay::Recheck));
    }
}
