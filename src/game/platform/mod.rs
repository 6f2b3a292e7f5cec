//! What differs by where the game runs: keeping settings and games between runs, sleeping
//! between frames when nothing moves, and in the browser the page's hooks and its files.

pub mod idle;
#[cfg(target_arch = "wasm32")]
pub mod page;
pub mod persist;
#[cfg(target_arch = "wasm32")]
pub mod web_files;
