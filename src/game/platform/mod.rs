//! What differs by where the game runs: keeping settings and games between runs, and in the
//! browser the page's hooks and its files.

#[cfg(target_arch = "wasm32")]
pub mod page;
pub mod persist;
#[cfg(target_arch = "wasm32")]
pub mod web_files;
