//! After the sowing: the end of the game, the score, repetition and move-limit ends, passing
//! the turn and refilling an empty row.

use super::event::{EndReason, Event, EventSink, Loan};
use super::geometry::{self, ROW_LEN};
use super::limits::MAX_BOARD_STONES;
use super::pits::Ring;
use super::position::Position;
use super::ruleset::Refill;

/// Stones a refill puts on the row: one per citizen pit.
const REFILL: i16 = ROW_LEN as i16;

impl Position {
    /// Everything that happens between a move's last capture and the next player's choice.
    #[inline(always)]
    pub(super) fn finish_turn<S: EventSink, R: Ring>(&mut self, sink: &mut S) {
        let players = R::LEN / geometry::SLOTS_PER_PLAYER;
        // The next seat without a division: this runs after every move.
        let next = self.to_move() + 1;
        self.to_move = if next == players { 0 } else { next as u8 };
        // `quan` holds only mandarin pits' pieces.
        if self.quan == 0 && self.pits.mandarin_pits_empty() {
            self.end_game(EndReason::MandarinsCaptured, sink);
        } else if let Some(player) = self.winner_by_score() {
            self.end_game(
                EndReason::ScoreReached {
                    player: player as u8,
                },
                sink,
            );
        } else if self.rules.repetition && self.repeated_three_times() {
            self.end_game(EndReason::Repetition, sink);
        } else if self.ply >= self.rules.max_plies() {
            self.end_game(EndReason::MoveLimit, sink);
        } else if self.row_is_empty(self.to_move()) {
            self.refill(sink);
        }
    }

    /// The player whose score has reached the rule set's `win_at` (at most one can: it is more
    /// than half of all points).
    #[inline(always)]
    fn winner_by_score(&self) -> Option<usize> {
        let target = i32::from(self.rules.win_at?);
        (0..self.players()).find(|&p| self.score(p) >= target)
    }

    /// The last six moves read `a b a b a b`.
    fn repeated_three_times(&self) -> bool {
        // Bytes 0..4 equal bytes 2..6, and the oldest of the six is a real move.
        let r = self.recent;
        (r ^ r >> 16) & 0xFFFF_FFFF == 0 && r >> 40 != 0xFF
    }

    #[inline(always)]
    fn row_is_empty(&self, player: usize) -> bool {
        self.pits.row_is_empty(player)
    }

    /// The player to move has no stones on their row: put one in each pit, paid by the rule
    /// set's refill policy, or end the game when it cannot be paid.
    fn refill<S: EventSink>(&mut self, sink: &mut S) {
        let player = self.to_move();
        let exchanged = self.exchange_mandarin_if_short(player, REFILL);
        let store = self.stores[player];
        let mut paid = REFILL;
        let mut loan = None;
        match self.rules.refill {
            Refill::Deduct if self.board_stones() + REFILL as u32 > MAX_BOARD_STONES => {
                self.end_game(
                    EndReason::BoardFull {
                        player: player as u8,
                    },
                    sink,
                );
                return;
            }
            Refill::Deduct => {}
            Refill::Forfeit if store.stones < REFILL => {
                self.forfeit = Some(player as u8);
                self.end_game(
                    EndReason::Forfeit {
                        player: player as u8,
                    },
                    sink,
                );
                return;
            }
            Refill::Forfeit => {}
            Refill::Borrow if store.stones < REFILL => {
                paid = store.stones.max(0);
                let need = REFILL - paid;
                let lender = self.lender_for(player);
                let lender_exchanged = self.exchange_mandarin_if_short(lender, need);
                if self.stores[lender].stones < need {
                    self.end_game(
                        EndReason::NoStonesToLend {
                            player: player as u8,
                        },
                        sink,
                    );
                    return;
                }
                self.stores[lender].stones -= need;
                self.record_debt(player, lender, need as u16);
                loan = Some(Loan {
                    lender: lender as u8,
                    stones: need as u8,
                    exchanged: lender_exchanged,
                });
            }
            Refill::Borrow => {}
        }
        self.stores[player].stones -= paid;
        for i in geometry::row(player) {
            self.pits.set(i, 1);
        }
        sink.push(Event::Refill {
            player: player as u8,
            paid: paid as u8,
            exchanged,
            loan,
        });
    }

    /// Change one of `player`'s captured mandarins into ten stones when the store holds fewer
    /// than `need` stones. Returns whether it did.
    fn exchange_mandarin_if_short(&mut self, player: usize, need: i16) -> bool {
        let store = &mut self.stores[player];
        if store.stones < need && store.mandarins > 0 {
            store.mandarins -= 1;
            store.stones += 10;
            true
        } else {
            false
        }
    }

    /// Who lends to `player`: the opponent whose store is worth the most, ties going to the
    /// next in turn order.
    fn lender_for(&self, player: usize) -> usize {
        let players = self.players();
        let mut best = (player + 1) % players;
        for step in 2..players {
            let p = (player + step) % players;
            if self.stores[p].worth() > self.stores[best].worth() {
                best = p;
            }
        }
        best
    }

    /// `borrower` now owes `lender` `stones` more, net of what `lender` already owed them.
    fn record_debt(&mut self, borrower: usize, lender: usize, stones: u16) {
        let cancelled = stones.min(self.stores[lender].owes[borrower]);
        self.stores[lender].owes[borrower] -= cancelled;
        self.stores[borrower].owes[lender] += stones - cancelled;
    }

    /// Small stones on the whole board.
    fn board_stones(&self) -> u32 {
        self.pits().iter().map(|&n| u32::from(n)).sum()
    }

    /// Each player takes the stones left on their own row; at a repetition, move-limit or
    /// full-board end, whatever is in the mandarin pits is set aside.
    fn end_game<S: EventSink>(&mut self, reason: EndReason, sink: &mut S) {
        for player in 0..self.players() {
            for pit in geometry::row(player) {
                let stones = self.pits.take(pit);
                if stones > 0 {
                    self.stores[player].stones += i16::from(stones);
                    sink.push(Event::Sweep {
                        pit: pit as u8,
                        player: player as u8,
                        stones,
                    });
                }
            }
        }
        if reason.sets_mandarin_pits_aside() {
            for player in 0..self.players() {
                let pit = geometry::mandarin_pit(player);
                if !self.is_empty_pit(pit) {
                    let stones = self.pits.take(pit);
                    let mandarin = self.has_piece_at(pit);
                    self.quan &= !(1 << pit);
                    sink.push(Event::Discard {
                        pit: pit as u8,
                        stones,
                        mandarin,
                    });
                }
            }
        }
        self.over = true;
        sink.push(Event::GameOver {
            reason,
            scores: self.scores(),
        });
    }
}
