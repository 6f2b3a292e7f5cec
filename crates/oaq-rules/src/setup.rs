//! The parts of a position, unchecked, and the checks that make them a `Position`.

use super::error::PositionError;
use super::geometry;
use super::limits::{self, MAX_BOARD_STONES, MAX_PLIES};
use super::ruleset::{MandarinStart, Refill, RuleSet};
use super::store::{Store, score_of};

/// A position's parts, as they appear in the state JSON. `Position::from_setup` checks them, and
/// `Position::setup` and `Setup::start` make them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub ply: u32,
    pub to_move: u8,
    /// Small stones per ring index.
    pub pits: Vec<u8>,
    /// Per player: the mandarin pit after their row still holds its piece.
    pub quan: Vec<bool>,
    pub stores: Vec<Store>,
    pub over: bool,
    pub forfeit: Option<u8>,
    pub swapped: bool,
}

impl Setup {
    /// Every check that makes these parts a position that can arise under `rules`.
    pub(super) fn validate(&self, rules: &RuleSet) -> Result<(), PositionError> {
        rules
            .validate()
            .map_err(|e| PositionError::new("rules", e.detail()))?;
        let players = rules.player_count();
        let ring = geometry::ring_len(players);
        let count = |field: &str, found: usize, expected: usize| {
            if found == expected {
                Ok(())
            } else {
                Err(PositionError::new(
                    field,
                    format!("{found} entries, expected {expected} for {players} players"),
                ))
            }
        };
        count("pits", self.pits.len(), ring)?;
        count("quan", self.quan.len(), players)?;
        count("stores", self.stores.len(), players)?;
        if usize::from(self.to_move) >= players {
            return Err(PositionError::new(
                "to_move",
                format!("player {} does not exist", self.to_move),
            ));
        }
        if rules.mandarin_start == MandarinStart::TenStones
            && let Some(p) = self.quan.iter().position(|&q| q)
        {
            return Err(PositionError::new(
                format!("quan[{p}]"),
                "this rule set has no mandarin pieces",
            ));
        }
        self.validate_stores(rules)?;
        self.validate_total(rules)?;
        self.validate_flags(rules)
    }

    fn validate_stores(&self, rules: &RuleSet) -> Result<(), PositionError> {
        let players = rules.player_count();
        let pieces = |store: &Store| usize::from(store.mandarins);
        // Refills are what make debts and negative stores: at most one a move, five stones each.
        let refilled = limits::most_refilled(self.ply);
        let mut captured = 0;
        for (p, store) in self.stores.iter().enumerate() {
            if store.stones < 0 && rules.refill != Refill::Deduct {
                return Err(PositionError::new(
                    format!("stores[{p}].stones"),
                    "below zero, which only the deduct refill allows",
                ));
            }
            if i64::from(store.stones) < -i64::from(refilled) {
                return Err(PositionError::new(
                    format!("stores[{p}].stones"),
                    format!(
                        "{} after {} moves, but refills take at most {} points a move",
                        store.stones,
                        self.ply,
                        limits::REFILL_COST
                    ),
                ));
            }

            if rules.mandarin_start == MandarinStart::TenStones && store.mandarins > 0 {
                return Err(PositionError::new(
                    format!("stores[{p}].mandarins"),
                    "this rule set has no mandarin pieces",
                ));
            }
            captured += pieces(store);
            for (q, &owed) in store.owes.iter().enumerate() {
                if owed > 0 && (q == p || q >= players) {
                    return Err(PositionError::new(
                        format!("stores[{p}].owes[{q}]"),
                        "a player can only owe an opponent",
                    ));
                }
                if owed > 0 && rules.refill != Refill::Borrow {
                    return Err(PositionError::new(
                        format!("stores[{p}].owes"),
                        "only the borrow refill lends stones",
                    ));
                }
                if owed > 0 && self.stores.get(q).is_some_and(|s| s.owes[p] > 0) {
                    return Err(PositionError::new(
                        format!("stores[{p}].owes[{q}]"),
                        format!(
                            "players {p} and {q} owe each other; a new loan pays off the old one first"
                        ),
                    ));
                }
            }
            let owed: u32 = store.owes.iter().map(|&o| u32::from(o)).sum();
            if owed > refilled {
                return Err(PositionError::new(
                    format!("stores[{p}].owes"),
                    format!(
                        "{owed} stones owed after {} moves, but a refill borrows at most {} a move",
                        self.ply,
                        limits::REFILL_COST
                    ),
                ));
            }
        }
        // A refill can change a captured mandarin into ten stones, so pieces can only be fewer.
        let on_board = self.quan.iter().filter(|&&q| q).count();
        let all = if rules.mandarin_start == MandarinStart::Piece {
            players
        } else {
            0
        };
        if captured + on_board > all {
            return Err(PositionError::new(
                "quan",
                format!(
                    "{on_board} mandarin pieces on the board and {captured} in stores; the game has {all}"
                ),
            ));
        }
        Ok(())
    }

    /// Stones are conserved: board and stores add up to 35 per player (until a repetition or
    /// move-limit end sets aside what was left in the mandarin pits).
    fn validate_total(&self, rules: &RuleSet) -> Result<(), PositionError> {
        let small: u32 = self.pits.iter().map(|&n| u32::from(n)).sum();
        if small > MAX_BOARD_STONES {
            return Err(PositionError::new(
                "pits",
                format!(
                    "{small} small stones on the board, which holds at most {MAX_BOARD_STONES}"
                ),
            ));
        }
        let board = small as i32 + 10 * self.quan.iter().filter(|&&q| q).count() as i32;
        let stores: i32 = self.stores.iter().map(Store::worth).sum();
        let total = board + stores;
        let expected = rules.total_value();
        if total > expected || (!self.over && total != expected) {
            return Err(PositionError::new(
                "pits",
                format!(
                    "the board holds {board} points and the stores {stores}: {total} in all, expected {expected}"
                ),
            ));
        }
        Ok(())
    }

    fn validate_flags(&self, rules: &RuleSet) -> Result<(), PositionError> {
        let players = rules.player_count();
        if let Some(p) = self.forfeit {
            if !self.over {
                return Err(PositionError::new(
                    "forfeit",
                    "a forfeit ends the game, but over is false",
                ));
            }
            if usize::from(p) >= players || rules.refill != Refill::Forfeit {
                return Err(PositionError::new(
                    "forfeit",
                    format!("player {p} cannot forfeit under these rules"),
                ));
            }
        }
        if self.swapped && (!rules.table_flip || self.ply == 0) {
            return Err(PositionError::new(
                "swapped",
                "only a table-flip game can be swapped, after the opening move",
            ));
        }
        if self.ply > MAX_PLIES {
            return Err(PositionError::new(
                "ply",
                format!("{}: no game lasts more than {MAX_PLIES} moves", self.ply),
            ));
        }
        if self.over {
            return Ok(());
        }
        if self.ply >= rules.max_plies() {
            return Err(PositionError::new(
                "ply",
                format!(
                    "the move limit ({}) is reached, but over is false",
                    rules.max_plies()
                ),
            ));
        }
        let mandarin_pits = (0..players).map(geometry::mandarin_pit);
        if mandarin_pits.clone().all(|i| self.pits[i] == 0) && !self.quan.iter().any(|&q| q) {
            return Err(PositionError::new(
                "pits",
                "every mandarin pit is empty, so the game is over, but over is false",
            ));
        }
        if let Some(target) = rules.win_at {
            for p in 0..players {
                let score = score_of(&self.stores, p);
                if score >= i32::from(target) {
                    return Err(PositionError::new(
                        format!("stores[{p}]"),
                        format!(
                            "a score of {score} reaches the rule set's win_at ({target}), so the \
                             game is over, but over is false"
                        ),
                    ));
                }
            }
        }
        let to_move = usize::from(self.to_move);
        if geometry::row(to_move).all(|i| self.pits[i] == 0) {
            return Err(PositionError::new(
                "pits",
                format!(
                    "player {to_move} is to move with an empty row; give the position after the refill"
                ),
            ));
        }
        Ok(())
    }
}
