//! The bounds every game stays within, whatever its rule set, and why each one is enough for
//! the narrow integers a position is made of.
//!
//! A refill is the only thing that makes a number grow without a capture: it costs five stones
//! (or lends them), and comes at most once a move. So after `ply` moves no debt or negative
//! store can be larger than `REFILL_COST × ply`, and with the game's length bounded by
//! [`MAX_PLIES`] every counter has a bound that fits its type:
//!
//! - a store's stones (`i16`): at most the game's 105 points plus `5 × 1,000` lent or deducted;
//! - a debt (`u16`): at most `5 × 1,000`;
//! - a pit (`u8`): never more than the small stones on the whole board, which a position keeps
//!   at [`MAX_BOARD_STONES`] or below (only the deduct refill adds stones to the board, and a
//!   refill that would pass the bound ends the game instead).
//!
//! `Position::from_setup` refuses what could not have arisen within these bounds, so that
//! whatever it accepts, `play` handles exactly for any sequence of moves.

/// No game lasts longer than this many moves: a rule set's own move limit may be lower (every
/// preset's is: 100 moves for each player), and a rule set without one ends here as at a move
/// limit. Games between the computer's levels take 20 to 75 moves on the 2-player board, up to
/// 175 on the 3-player one; only players repeating themselves for ever get near a limit.
pub const MAX_PLIES: u32 = 1_000;

/// The most small stones the board may hold in all (and so any one pit). The stones begin at 70
/// or 105; only a refill under the deduct rule adds to them.
pub const MAX_BOARD_STONES: u32 = 255;

/// What one refill costs: a stone for each citizen pit of the row.
pub const REFILL_COST: u32 = 5;

/// The most a player can have borrowed, or paid below zero, after `ply` moves.
pub(super) fn most_refilled(ply: u32) -> u32 {
    REFILL_COST * ply.min(MAX_PLIES)
}

// Every counter fits its type even at the longest game.
const _: () = assert!(REFILL_COST * MAX_PLIES + 105 <= i16::MAX as u32);
const _: () = assert!(REFILL_COST * MAX_PLIES <= u16::MAX as u32);
const _: () = assert!(MAX_BOARD_STONES <= u8::MAX as u32);
