//! Around the board: the title screen, the menu, the bar and message line, the review of a
//! game, the puzzles, the actions their buttons and keys share, and the UI helpers they are
//! built from.

pub mod actions;
pub mod confirm;
pub mod hud;
pub mod intro;
pub mod lesson;
pub mod menu;
pub mod puzzles;
pub mod review;
pub mod title;
pub mod ui;
