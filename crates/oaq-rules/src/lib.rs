//! The rules of Ô ăn quan, for every rule set: positions, moves, sowing, captures, refills and
//! the end of the game. Pure: no I/O and no engine code, so the game, the AI and the command
//! line share it.
//!
//! ```
//! use oaq_rules::{presets, Position};
//! let mut pos = Position::new(presets::get("mature-quan").unwrap().rules);
//! while !pos.is_over() {
//!     let mv = pos.legal_moves()[0];
//!     pos.play(mv).unwrap();
//! }
//! assert!(pos.places().is_some());
//! ```
//!
//! A move is written as the pit's number and the direction (`"2+"`: pit 2, toward higher
//! numbers); playing it returns what happened, event by event, or says why it cannot be played
//! and changes nothing:
//!
//! ```
//! use oaq_rules::{presets, Event, Move, Position};
//! let mut pos = Position::new(presets::get("basic").unwrap().rules);
//! let outcome = pos.play("2+".parse::<Move>().unwrap()).unwrap();
//! assert_eq!(outcome.events[0], Event::PickUp { pit: 1, count: 5 });
//! let before = pos.clone();
//! let refused = pos.play("3+".parse::<Move>().unwrap()).unwrap_err();
//! assert!(refused.to_string().starts_with("illegal move 3+"), "{refused}");
//! assert_eq!(pos, before);
//! ```
//!
//! # Conventions
//!
//! Pure Rust with no I/O: a validated `Position`, `legal_moves()`, `play(move)` returning the
//! move's events or a typed error, `play_unchecked` for search, `perft`. The events (pick up, each
//! stone dropped, relays, captures, why the turn ended, refills and loans, sweeps, game over) are
//! what the game animates and narrates; applying them to the old board gives the new one.
//!
//! Rule sets are RON files in `assets/rules/`, each with an English and a Vietnamese name and
//! description:
//!
//! | preset | players | mandarin protection | empty row | other |
//! |---|---|---|---|---|
//! | `standard` (Cổ điển) | 2 | none | borrow | |
//! | `young-mandarin` (Quan non) | 2 | first 10 moves, under 5 stones | borrow | |
//! | `basic` (Cơ bản) | 2 | none | forfeit | |
//! | `mature-quan` (Quan Già) | 2 | always, under 5 stones | forfeit | repetition end |
//! | `table-flip` (Lật bàn) | 2 | none | forfeit | repetition end, swap after the opening |
//! | `mature-quan-3p` | 3 | always, under 5 stones | forfeit | |
//! | `ten-seeds` (Quan mười sỏi) | 2 | first move | deduct | ten stones per mandarin pit |
//!
//! **The winning score** (`win_at`, off in every preset): a player whose score reaches it wins at
//! once; the rows are swept as at the end and what is still in the mandarin pits counts for nobody.
//! It must be more than half the points, so only one player can reach it: the menu's switch (and
//! the online room's) sets 36 of 70, or 53 of 105 on the 3-player board, as one online game plays.
//! `EndReason::ScoreReached` says so, and a position past it that is not over is refused.
//!
//! `oaq rules show NAME > house.ron` gives a file to edit; `--rules house.ron` plays by it. A bad
//! value is reported with the field that holds it.
//!
//! **Every game ends.** Each preset has a move limit of 100 moves a player (200 moves, 300 on the
//! 3-player board): then each player takes the stones left in their row and what is still in the
//! mandarin pits counts for nobody, as at the repetition end. No real game comes near it (games
//! between the levels last 20–75 moves, up to 175 on the 3-player board; `tests/limits.rs` and the
//! rules help say so too); it ends the games where both sides would repeat themselves for ever,
//! which under borrowing also let the debts grow without end. A rule set without a limit of its
//! own still ends at move 1,000, the longest game any rule set may ask for (`rules::limits`).
//!
//! **Bounds** (`limits.rs`): a refill, the only thing that grows a number without a
//! capture, costs five stones and comes at most once a move, so within 1,000 moves every counter
//! fits its type: debts (`u16`) stay under 5,000, stores (`i16`) between −5,000 and 5,105, and a
//! pit (`u8`) never holds more than the board's small stones, which are kept at 255 at most (only
//! the deduct refill adds stones to the board; a refill that would pass 255 ends the game, "the
//! board is full"). `Position::from_setup` (and so `--position`, `oaq ai` and every saved game)
//! refuses what could not have arisen within these bounds, naming the field: more debt than five
//! stones a move, a store further below zero than that, over 255 small stones on the board, a
//! ply past 1,000 or past the move limit in a game still going, two players owing each other.
//! Whatever it accepts plays by every rule for any sequence of moves; the fuzz suite checks it.
//!
//! Board numbering: ring index 0..4 are pits 1..5 (player 0's row, left to right), 5 is the
//! mandarin pit after it, 6..10 are pits 6..10 (player 1's row, left to right from that player's
//! seat), 11 is the other mandarin pit; the 3-player board continues with pits 11..15 at 12..16
//! and a mandarin pit at 17. `+` sows counter-clockwise (toward higher numbers), `-` clockwise.

mod error;
mod event;
pub mod excerpt;
pub mod geometry;
pub mod limits;
mod moves;
mod outcome;
mod perft;
mod pits;
mod position;
pub mod presets;
mod ruleset;
mod setup;
mod sowing;
pub mod state_json;
mod store;
mod turn;

pub use error::{IllegalReason, PlayError, PositionError, RuleSetError};
pub use event::{EndReason, Event, EventSink, Loan, NoEvents, TurnEnd};
pub use geometry::Direction;
pub use moves::{MAX_MOVES, Move, MoveList, ParseMoveError};
pub use outcome::Outcome;
pub use perft::perft;
pub use position::Position;
pub use ruleset::{MandarinStart, Protection, Refill, RuleSet};
pub use setup::Setup;
pub use store::Store;
