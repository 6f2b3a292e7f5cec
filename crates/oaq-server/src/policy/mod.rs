//! Who may meet whom and who may see what: the one place the server decides it, below every
//! way in (the WebSocket's handlers, the bot API, the pools, the tournaments' runner).
//!
//! - `meet`: the only way to a [`Seating`], and a room opens with players seated only from
//!   one ([`crate::room::registry::open_room`] takes nothing else), so no path can skip a
//!   check: blocks, child mode, bots among people, bans, caps, and who moves first. A player
//!   taking a free seat goes through [`may_take_seat`]; a challenge through
//!   [`may_challenge`]; a pairing's forbidden pairs come from [`apart`].
//! - `view`: another player as a viewer may see them ([`Shown`]): a child is nobody to a
//!   stranger, in standings, results and rooms alike.
//! - `own`: what a player keeps for themselves (practice, puzzle progress) is theirs alone,
//!   from any of their devices, and a bot's never ([`may_keep_own`]).
//! - `guess`: every guessable thing (room codes, tournament ids, link and friend codes,
//!   tokens, passwords) is counted by one [`Guess`], taken before the look-up and given back
//!   when it was right; a sign-in name and password by [`sign_in()`], however they come.
//!
//! The rules in words, with a row for every message and route: `docs/security.md`.

mod guess;
mod meet;
mod own;
mod sign_in;
mod view;

pub use guess::{Guess, TooManyGuesses};
pub use meet::{
    Apart, Meeting, OpenRefused, SeatTaken, Seating, Table, apart, may_challenge, may_meet,
    may_take_seat, seat,
};
pub use own::may_keep_own;
pub use sign_in::{busy, sign_in};
pub use view::{Shown, Viewer, anonymous, children_among, may_see, may_watch};
