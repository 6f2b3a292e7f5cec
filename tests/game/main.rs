//! The game itself, one test binary: headless Bevy apps played as a player plays them (the
//! board, the screens, the review, puzzles), its accessibility tree, the desktop build started
//! under Xvfb and screenshotted, and online play against a real `oaq-server`.
#![cfg(feature = "gui")]

mod headless;

mod access;
mod layout;
mod online;
mod play;
mod review;
mod smoke;
