//! What a player has captured and owes, and the score it makes.

use super::geometry::MAX_PLAYERS;

/// What a player has captured, and what they owe.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Store {
    /// Small stones, 1 point each. Below zero only under the `deduct` refill.
    pub stones: i16,
    /// Captured mandarin pieces, 10 points each.
    pub mandarins: u8,
    /// Stones owed to each player, borrowed for refills and repaid at the end.
    pub owes: [u16; MAX_PLAYERS],
}

impl Store {
    /// Stones and mandarins at face value, before debts.
    pub fn worth(&self) -> i32 {
        i32::from(self.stones) + 10 * i32::from(self.mandarins)
    }
}

/// `player`'s score among `stores`: worth, less debts, plus what is owed to them.
pub(super) fn score_of(stores: &[Store], player: usize) -> i32 {
    let owed_by: i32 = stores[player].owes.iter().map(|&o| i32::from(o)).sum();
    let owed_to: i32 = stores.iter().map(|s| i32::from(s.owes[player])).sum();
    stores[player].worth() - owed_by + owed_to
}
