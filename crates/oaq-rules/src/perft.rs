//! Perft: counting the move sequences of each length from a position, the truth test of a
//! move generator and of `play`.

use super::position::Position;

/// The number of legal move sequences of exactly `depth` moves from `pos` (`swap` counts as a
/// move; a finished game has none).
///
/// ```
/// use oaq_rules::{perft, Position, RuleSet};
/// let start = Position::new(RuleSet::default());
/// assert_eq!(perft(&start, 1), 10);
/// assert_eq!(perft(&start, 2), 80);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return pos.legal_move_count() as u64;
    }
    let moves = pos.legal_moves();
    // The last move of each sequence is counted, not played: its position's moves are only
    // counted in turn, so that level needs no list and no call.
    if depth == 2 {
        return moves
            .iter()
            .map(|&mv| {
                let mut next = *pos;
                next.play_unchecked(mv);
                next.legal_move_count() as u64
            })
            .sum();
    }
    moves
        .iter()
        .map(|&mv| {
            let mut next = *pos;
            next.play_unchecked(mv);
            perft(&next, depth - 1)
        })
        .sum()
}
