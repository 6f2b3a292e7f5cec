//! Endgame tables: the exact result of every position with few stones left, computed backwards
//! from the end of the game (retrograde analysis), for the search's leaves and the review.
//!
//! A table holds, for every board of the 2-player game with at most `N` small stones (and each
//! choice of mandarin pieces still on it) and every store the side to move can have, the game's
//! result under best play for that side: who wins, and the final margin ([`build::encode`]). It
//! serves the rule sets whose rules it follows exactly: two players, mandarin pieces, no
//! protection, the `forfeit` refill, no repetition end and no score target (`basic`), from far
//! enough before the move limit ([`Tablebase::settled`]). See [`build`] for how it is made.

pub mod build;
pub mod file;
pub mod index;

use std::sync::Arc;

use build::UNKNOWN;
use index::TOTAL;
use index::{Board, Indexer};
use oaq_rules::{Position, Refill, RuleSet};

/// A finished table.
#[derive(Clone, PartialEq, Eq)]
pub struct Tablebase {
    indexer: Indexer,
    /// Board b's entries start here: one per store of the mover, 0 to what the board leaves.
    start: Vec<u32>,
    /// From how many moves left the values hold: the round from which the build's rounds repeat.
    settled: u32,
    /// The results the table holds, sorted (`UNKNOWN` among them: not exact, or no position):
    /// a few hundred at most, so each entry is one byte, its place in this list.
    palette: Vec<i16>,
    codes: Vec<u8>,
}

impl std::fmt::Debug for Tablebase {
    /// The table's size, not its millions of values.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebase")
            .field("stones", &self.stones())
            .field("settled", &self.settled)
            .field("entries", &self.codes.len())
            .finish()
    }
}

/// Where each board's entries start, for a table of `indexer`'s boards.
fn starts(indexer: &Indexer) -> Vec<u32> {
    let mut start = Vec::with_capacity(indexer.len() as usize + 1);
    let mut next = 0u32;
    for b in 0..indexer.len() {
        start.push(next);
        next += (TOTAL - indexer.board(b).points() + 1) as u32;
    }
    start.push(next);
    start
}

impl Tablebase {
    /// A table from its values, as the build gives them. Refused if they are not one per entry
    /// or take more than 256 different values.
    pub fn new(stones: u8, settled: u32, values: Vec<i16>) -> Result<Tablebase, String> {
        let mut palette = values.clone();
        palette.sort_unstable();
        palette.dedup();
        if palette.len() > 256 {
            return Err(format!(
                "{} different values: a table holds at most 256",
                palette.len()
            ));
        }
        let codes = values
            .iter()
            .map(|v| palette.binary_search(v).map_or(0, |i| i as u8))
            .collect();
        Tablebase::from_codes(stones, settled, palette, codes)
    }

    /// A table from its palette and one code per entry, as a file gives them.
    pub fn from_codes(
        stones: u8,
        settled: u32,
        palette: Vec<i16>,
        codes: Vec<u8>,
    ) -> Result<Tablebase, String> {
        let indexer = Indexer::new(stones);
        let start = starts(&indexer);
        let expected = start[start.len() - 1] as usize;
        if codes.len() != expected {
            return Err(format!(
                "{} values, but a table of {stones} stones has {expected}",
                codes.len()
            ));
        }
        if palette.is_empty() || palette.len() > 256 || !palette.windows(2).all(|w| w[0] < w[1]) {
            return Err(format!(
                "{} values in the palette: 1 to 256, each once, in order",
                palette.len()
            ));
        }
        if let Some(code) = codes.iter().find(|&&c| usize::from(c) >= palette.len()) {
            return Err(format!(
                "code {code}, but the palette has {} values",
                palette.len()
            ));
        }
        Ok(Tablebase {
            indexer,
            start,
            settled,
            palette,
            codes,
        })
    }

    /// The most small stones a board of this table holds.
    pub fn stones(&self) -> u32 {
        self.indexer.stones()
    }

    pub fn settled(&self) -> u32 {
        self.settled
    }

    /// The results the table holds, sorted: what `codes` point to.
    pub fn palette(&self) -> &[i16] {
        &self.palette
    }

    /// Per entry: its result's place in `palette`.
    pub fn codes(&self) -> &[u8] {
        &self.codes
    }

    /// Entries whose value is exact.
    pub fn exact(&self) -> usize {
        match self.palette.binary_search(&UNKNOWN) {
            Ok(unknown) => self
                .codes
                .iter()
                .filter(|&&c| usize::from(c) != unknown)
                .count(),
            Err(_) => self.codes.len(),
        }
    }

    /// Whether a game under `rules` can be looked up (from `settled` moves before its limit).
    pub fn serves(rules: &RuleSet) -> bool {
        rules.players == 2
            && rules.mandarin_start == build::building_rules().mandarin_start
            && rules.protection.is_none()
            && rules.refill == Refill::Forfeit
            && !rules.repetition
            && rules.win_at.is_none()
    }

    /// The game's result under best play for the side to move, as (outcome: 1 a win, 0 a draw,
    /// −1 a loss; final margin), when the table knows it exactly for this very position: the
    /// rules are served, the board is small enough, the move limit is at least `settled` moves
    /// away and no table-flip swap is open.
    pub fn probe(&self, pos: &Position) -> Option<(i32, i32)> {
        if pos.is_over() || pos.can_swap() || !Tablebase::serves(pos.rules()) {
            return None;
        }
        if pos.rules().max_plies().saturating_sub(pos.ply()) < self.settled {
            return None;
        }
        let board = Board::of(pos)?;
        let b = self.indexer.index(&board)?;
        let mover = pos.store(pos.to_move()).worth();
        let room = TOTAL - board.points();
        if !(0..=room).contains(&mover) {
            return None;
        }
        let code = self.codes[self.start[b as usize] as usize + mover as usize];
        match self.palette[usize::from(code)] {
            UNKNOWN => None,
            v => Some(decode(v)),
        }
    }
}

/// The table for a game under `rules`, once it is loaded: `None` where it does not serve them
/// and until it is loaded. On a desktop that is the shipped 10-stone table: the first call
/// starts loading it on a thread of its own (about a second), so that no caller waits for it
/// (the moves before it is ready are not endgames anyway); whoever must have it (the command
/// line, for results that do not depend on timing) calls [`shipped`]. In the browser it is the
/// table the thinking worker was given ([`install`]: the 8-stone one, fetched beside its module
/// while it answers its first requests); the page itself goes without.
pub fn for_rules(rules: &RuleSet) -> Option<Arc<Tablebase>> {
    if Tablebase::serves(rules) {
        ready()
    } else {
        None
    }
}

/// The table in use: loaded, shipped or installed.
static IN_USE: std::sync::OnceLock<Arc<Tablebase>> = std::sync::OnceLock::new();

/// Use `table` as this program's table from now on, in place of the shipped one: for a program
/// that carries its own (the thinking worker, `oaq-think`). Refused if a table is already in
/// use: a search must not see its table change under it.
pub fn install(table: Tablebase) -> Result<(), String> {
    IN_USE.set(Arc::new(table)).map_err(|used| {
        format!(
            "an endgame table of {} stones is already in use",
            used.stones()
        )
    })
}

#[cfg(not(target_arch = "wasm32"))]
fn ready() -> Option<Arc<Tablebase>> {
    if let Some(table) = IN_USE.get() {
        return Some(table.clone());
    }
    static LOADING: std::sync::Once = std::sync::Once::new();
    LOADING.call_once(|| {
        // A machine out of threads goes without the table, as the browser's page does.
        let _ = std::thread::Builder::new()
            .name("endgame table".into())
            .spawn(shipped);
    });
    None
}

/// The table in use, loading the shipped one, `assets/ai/endgame-10.tb` (`oaq tablebase build
/// --stones 10`), now if none is (inflating it takes about a second).
#[cfg(not(target_arch = "wasm32"))]
pub fn shipped() -> Option<Arc<Tablebase>> {
    let table = IN_USE.get_or_init(|| {
        match file::read(include_bytes!("../../../../assets/ai/endgame-10.tb")) {
            Ok(table) => Arc::new(table),
            // The file is part of the program and a test reads it.
            Err(e) => panic!("assets/ai/endgame-10.tb is broken: {e}"),
        }
    });
    Some(table.clone())
}

/// The browser carries no table of its own (134 MB is too much for a page): only the one a
/// thinking worker was given.
#[cfg(target_arch = "wasm32")]
fn ready() -> Option<Arc<Tablebase>> {
    IN_USE.get().cloned()
}

#[cfg(target_arch = "wasm32")]
pub fn shipped() -> Option<Arc<Tablebase>> {
    ready()
}

/// (outcome, final margin) of an encoded result.
pub fn decode(value: i16) -> (i32, i32) {
    let value = i32::from(value);
    let outcome = (value + 500).div_euclid(1000);
    (outcome, value - 1000 * outcome)
}

#[cfg(test)]
mod tests {
    use super::build::encode;
    use super::*;

    #[test]
    fn results_decode_to_what_was_encoded_in_the_search_s_order() {
        let cases = [
            (5, None),
            (0, None),
            (-12, None),
            (-7, Some(true)),
            (30, Some(false)),
        ];
        for (margin, forfeit) in cases {
            let (outcome, back) = decode(encode(margin, forfeit));
            assert_eq!(back, margin);
            let expected = forfeit.map_or(margin.signum(), |won| if won { 1 } else { -1 });
            assert_eq!(outcome, expected);
        }
        // As the search orders finished games: who wins first, then by how much. A win by
        // forfeit, even behind on points, beats a draw; a loss by forfeit ahead on points is
        // still a loss.
        assert!(encode(-7, Some(true)) > encode(0, None));
        assert!(encode(-7, Some(true)) < encode(1, None));
        assert!(encode(30, Some(false)) < encode(0, None));
        assert!(encode(30, Some(false)) > encode(-1, None));
    }
}
