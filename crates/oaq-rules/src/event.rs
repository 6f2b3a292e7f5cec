//! What happens during a move, in order, for the game to animate and narrate.
//!
//! Applying a move's events one by one to the board it was played on gives the board after the
//! move: every stone that moves is in an event.

use serde::{Deserialize, Serialize};

/// One step of a move. Pits are ring indices; players are seats (0, 1, 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum Event {
    /// The mover takes every stone of the chosen pit into the hand.
    PickUp { pit: u8, count: u8 },
    /// One stone from the hand into `pit`.
    Drop { pit: u8 },
    /// The hand is empty and the next pit has stones: take them all and go on sowing.
    Relay { pit: u8, count: u8 },
    /// Everything in `pit` goes to the mover's store: `stones` small stones, and its mandarin
    /// piece when `mandarin`.
    Capture { pit: u8, stones: u8, mandarin: bool },
    /// Sowing and capturing are over for this move.
    TurnEnd { reason: TurnEnd },
    /// The table flip: the second player takes the opener's side, store and all.
    Swap,
    /// `player`'s row was empty: one stone goes into each of its five pits, `paid` of them from
    /// the player's store (after changing a mandarin into ten stones when `exchanged`), the rest
    /// lent by another player.
    Refill {
        player: u8,
        paid: u8,
        exchanged: bool,
        loan: Option<Loan>,
    },
    /// At the end, the stones left in `pit` go to `player`'s store.
    Sweep { pit: u8, player: u8, stones: u8 },
    /// At a repetition or move-limit end, what is still in mandarin pit `pit` counts for nobody.
    Discard { pit: u8, stones: u8, mandarin: bool },
    /// The game is over. `scores` is per player (0 for seats the board does not have).
    GameOver { reason: EndReason, scores: [i32; 3] },
}

/// Stones lent for a refill.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Loan {
    pub lender: u8,
    pub stones: u8,
    /// The lender changed a captured mandarin into ten stones to pay.
    pub exchanged: bool,
}

/// Why a move's sowing and capturing stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "why")]
pub enum TurnEnd {
    /// The next pit, `pit`, is a mandarin pit that still holds something.
    MandarinPit { pit: u8 },
    /// `pit` and the pit after it are both empty.
    TwoEmpty { pit: u8 },
    /// After a capture, the next pit, `pit`, is not empty.
    Blocked { pit: u8 },
    /// The capture target `pit` is a protected mandarin pit.
    Protected { pit: u8 },
    /// Relay sowing came back to a state it had already been in.
    Cycle,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "why")]
pub enum EndReason {
    /// Every mandarin pit is completely empty.
    MandarinsCaptured,
    /// `player` had to refill and nobody could lend the stones.
    NoStonesToLend { player: u8 },
    /// `player` could not pay for a refill and loses.
    Forfeit { player: u8 },
    /// The same pair of moves was played three times in a row.
    Repetition,
    /// The rule set's move limit was reached (or the longest game any rule set allows).
    MoveLimit,
    /// `player` had to refill under the deduct rule, but the board already holds as many
    /// stones as it can (`limits::MAX_BOARD_STONES`).
    BoardFull { player: u8 },
    /// `player`'s score reached the rule set's `win_at`: they have won.
    ScoreReached { player: u8 },
}

impl EndReason {
    /// Whether the end sets aside what the mandarin pits hold, instead of the game ending
    /// because they are empty.
    pub fn sets_mandarin_pits_aside(self) -> bool {
        matches!(
            self,
            EndReason::Repetition
                | EndReason::MoveLimit
                | EndReason::BoardFull { .. }
                | EndReason::ScoreReached { .. }
        )
    }
}

/// Where `play` writes its events. The fast path uses [`NoEvents`], which the compiler removes.
pub trait EventSink {
    /// Whether it keeps events at all; when not, `play` skips building them.
    const RECORDS: bool = true;
    fn push(&mut self, event: Event);
    /// A mark to roll back to: how many events it holds.
    fn mark(&self) -> usize;
    /// Forget the events pushed since `mark`.
    fn rewind(&mut self, mark: usize);
}

impl EventSink for Vec<Event> {
    fn push(&mut self, event: Event) {
        Vec::push(self, event);
    }

    fn mark(&self) -> usize {
        self.len()
    }

    fn rewind(&mut self, mark: usize) {
        self.truncate(mark);
    }
}

/// Discards every event: for search and perft, where only the new position matters.
pub struct NoEvents;

impl EventSink for NoEvents {
    const RECORDS: bool = false;

    #[inline(always)]
    fn push(&mut self, _: Event) {}

    #[inline(always)]
    fn mark(&self) -> usize {
        0
    }

    #[inline(always)]
    fn rewind(&mut self, _: usize) {}
}
