//! Everyone can play: the game as a screen reader meets it (every button and text named in the
//! player's language, the board a grid of pits, each move announced, single keys that read the
//! board), keyboard-only play through every screen, and the settings for eyes and hands (text
//! size, contrast, reduced motion, large buttons). On the desktop Bevy hands the tree to
//! AccessKit; on the web, where AccessKit has no adapter, `web_mirror` copies it into the page.
//!
//! # What each part does
//!
//! - **Screen readers on the desktop**: Bevy hands the accessibility tree to AccessKit (on Linux
//!   through AT-SPI: Bevy's `accesskit_unix` feature). Every button is named by its words in the
//!   current language (a picture-only button by its hidden words, a stepping button "‹ ›" by its
//!   setting, "Text size: next", a switch by its line, "Sound: On"), every line of text is a
//!   label, every panel a dialog named by its title, and a button that would do nothing now is
//!   disabled (`names.rs`). The board is a grid with a row per player, each pit a focusable cell
//!   laid over the drawn pit and named "your pit 3, 5 stones" / "ô của bạn số 3, 5 viên" ("the
//!   left mandarin pit, the mandarin and 2 stones"); pressing a cell chooses the pit, and two
//!   buttons, "Sow to the left" and "Sow to the right", appear beside it (`board.rs`). A polite
//!   live region announces each move as it is played, whoever played it: "The computer sowed the
//!   computer's pit 8 to the left, 4 stones. Picked up 3 stones from your pit 2 and went on. The
//!   computer captured 5 stones. Two empty pits: turn over. Your move." and at the end the result
//!   and every side's count (`speech.rs`, `announce.rs`). Online news is read out as it comes:
//!   a friend's request, a challenge, a tournament's invitation, start, rounds and winner
//!   (`online_news.rs`). AccessKit's click and focus requests
//!   press and focus as the keyboard does.
//! - **The web**: AccessKit has no web adapter, so the same tree is mirrored into the page as the
//!   canvas's fallback content (exposed to assistive technology, never drawn): `<button>`s, a
//!   `role="grid"` of focusable cells, `role="dialog"`s, text, and a `role="status"` region with
//!   `aria-live="polite"` for the announcements (`web_mirror.rs`). A click or a focus there comes
//!   back as AccessKit's requests; the game's focus moves the page's focus. Keys typed there
//!   reach the game (they bubble to the canvas); Enter, Space and Tab do only what the game makes
//!   of them.
//! - **Keyboard only, every screen**: Tab and Shift+Tab walk the buttons of the screen, or of the
//!   panel on top (which keeps the focus; a panel rebuilt under the focus, as the menu is at every
//!   change, gives it back at the same place); on the title, the online screens and in panels the
//!   arrow keys do the same; Enter or Space presses; Esc backs out. The focus is always on
//!   something the screen reader knows. A yellow ring shows it once the keyboard is used; a click
//!   hides it (`focus.rs`).
//! - **Sides not by colour alone**: amber, teal and violet stay apart under simulated
//!   protanopia, deuteranopia and tritanopia (Machado et al. 2009; CIE76 ΔE ≥ 20 between sides,
//!   their glows ≥ 10 from the wood and ≥ 12 from each other), and every text keeps a contrast of
//!   at least 4.5:1 (`vision.rs`, a test; the third side was plum, 14.6 from teal for a
//!   deuteranope). Each side also has a shape, a disc, a triangle, a diamond, in its store and
//!   beyond its row while it is to move; the message line says whose move it is in words.
//! - **Settings** (Menu → Accessibility, kept with the others): text size 100–200 % (the whole
//!   interface, `UiScale`, and the words on the board), high contrast (the board's counts and
//!   words on black), motion (as the system asks, full, reduced: no animation, no pulsing or
//!   breathing glows; the system's wish is read at start-up from the browser's
//!   `prefers-reduced-motion`, GNOME's `enable-animations` or macOS's `reduceMotion`), confirm
//!   each move (a chosen move waits for "Sow" or Enter; Esc chooses again) and large buttons
//!   (64 points). New games are untimed unless a clock is chosen.

pub mod announce;
pub mod board;
mod comfort;
pub mod focus;
mod names;
mod online_news;
pub mod speech;
#[cfg(test)]
mod vision;
#[cfg(target_arch = "wasm32")]
mod web_mirror;

use bevy::prelude::*;

pub(in crate::game) fn plugin(app: &mut App) {
    app.add_plugins((
        comfort::plugin,
        focus::plugin,
        names::plugin,
        announce::plugin,
        board::plugin,
        online_news::plugin,
    ));
    #[cfg(target_arch = "wasm32")]
    app.add_plugins(web_mirror::plugin);
}
