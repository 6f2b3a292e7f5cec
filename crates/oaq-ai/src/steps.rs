//! Work made of searches run one after another, each anywhere (a thread, a worker, slices of
//! a frame): the explanation of a mistake, a mistake made a puzzle.

use super::limits::Report;
use super::search::Search;

/// Work that asks for searches one at a time and takes their reports.
pub trait Searches {
    /// The next search to run (`None` once every one is answered).
    fn next_search(&mut self) -> Option<Search>;

    /// The report of the search `next_search` gave last.
    fn answer(&mut self, report: &Report);

    /// Every search run here and now, one after another.
    fn run_all(&mut self) {
        while let Some(mut search) = self.next_search() {
            self.answer(&search.run());
        }
    }
}
