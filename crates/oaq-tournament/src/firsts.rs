//! Who moves first: in Ô ăn quan as in chess the first move is worth something, so a player's
//! games as first mover are kept in balance, and never more than three in a row either way.

use serde::{Deserialize, Serialize};

/// A player's record as first mover: the current run (positive: that many games in a row as
/// first mover; negative: as second) and the balance (games first less games second).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FirstMoves {
    pub run: i8,
    pub balance: i16,
}

impl FirstMoves {
    /// The longest run either way a pairing may make.
    pub const MAX_RUN: i8 = 3;

    /// The record after one more game, as first mover or not.
    #[must_use]
    pub fn after(self, first: bool) -> FirstMoves {
        let run = match (first, self.run) {
            (true, r) if r > 0 => r.saturating_add(1),
            (true, _) => 1,
            (false, r) if r < 0 => r.saturating_sub(1),
            (false, _) => -1,
        };
        let balance = self.balance.saturating_add(if first { 1 } else { -1 });
        FirstMoves { run, balance }
    }

    /// Whether two players may meet now: not when both have moved first, or both second, in
    /// each of their last [`Self::MAX_RUN`] games (one of them would make a run of four).
    pub fn may_meet(self, other: FirstMoves) -> bool {
        !(self.run >= Self::MAX_RUN && other.run >= Self::MAX_RUN
            || self.run <= -Self::MAX_RUN && other.run <= -Self::MAX_RUN)
    }

    /// Whether `self`'s player moves first against `other`'s: whoever is at the longest run
    /// changes side; else the one who has moved first less often, then the one with the
    /// shorter run as first mover; `coin` when they are alike.
    ///
    /// ```
    /// use oaq_tournament::FirstMoves;
    /// let fresh = FirstMoves::default();
    /// let twice_first = fresh.after(true).after(true);
    /// assert!(fresh.moves_first_against(twice_first, false));
    /// assert!(!twice_first.moves_first_against(fresh, true));
    /// ```
    pub fn moves_first_against(self, other: FirstMoves, coin: bool) -> bool {
        if self.run >= Self::MAX_RUN || other.run <= -Self::MAX_RUN {
            return false;
        }
        if self.run <= -Self::MAX_RUN || other.run >= Self::MAX_RUN {
            return true;
        }
        match (self.balance, self.run).cmp(&(other.balance, other.run)) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => coin,
        }
    }

    /// The record of a list of games in order, each as first mover or not.
    pub fn of(games: impl IntoIterator<Item = bool>) -> FirstMoves {
        games
            .into_iter()
            .fold(FirstMoves::default(), FirstMoves::after)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_count_games_in_a_row_and_the_balance_all_of_them() {
        let record = FirstMoves::of([true, true, false, false, false]);
        assert_eq!(
            record,
            FirstMoves {
                run: -3,
                balance: -1
            }
        );
        assert_eq!(record.after(true), FirstMoves { run: 1, balance: 0 });
    }

    #[test]
    fn two_players_at_the_longest_run_the_same_way_may_not_meet() {
        let thrice_first = FirstMoves::of([true; 3]);
        let thrice_second = FirstMoves::of([false; 3]);
        assert!(!thrice_first.may_meet(thrice_first));
        assert!(!thrice_second.may_meet(thrice_second));
        assert!(thrice_first.may_meet(thrice_second));
        // And then the one who moved first three times moves second.
        assert!(thrice_second.moves_first_against(thrice_first, false));
        assert!(thrice_first.may_meet(FirstMoves::of([true, true])));
        assert!(FirstMoves::of([true, true]).moves_first_against(thrice_first, false));
    }
}
