//! A rule set: every option that differs between the ways Ô ăn quan is played.

use serde::{Deserialize, Serialize};

use super::error::RuleSetError;
use super::limits::MAX_PLIES;

/// What a mandarin pit holds at the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MandarinStart {
    /// One mandarin piece worth 10 and no small stones.
    Piece,
    /// Ten small stones and no piece.
    TenStones,
}

/// When a mandarin pit cannot be captured. A bound left out means "always".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Protection {
    /// Protected while the move's ply (0 for the game's first move) is below this.
    #[serde(default)]
    pub plies: Option<u16>,
    /// Protected while the pit holds fewer small stones than this.
    #[serde(default)]
    pub min_stones: Option<u16>,
}

/// How a player whose five citizen pits are all empty refills them at the start of their turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Refill {
    /// Pay 5 from the store; borrow what is missing from an opponent, to be repaid at the end.
    Borrow,
    /// Pay 5 from the store; a player whose store is worth less than 5 loses at once.
    Forfeit,
    /// Pay 5 from the store even if the score goes below zero.
    Deduct,
}

/// Every rule option of a game.
///
/// ```
/// use oaq_rules::{Refill, RuleSet};
/// let rules = RuleSet::from_ron("(players: 2, refill: forfeit, repetition: true)").unwrap();
/// assert_eq!(rules.refill, Refill::Forfeit);
/// assert!(RuleSet::from_ron("(players: 4)").unwrap_err().to_string().contains("players"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleSet {
    /// 2, or 3 for the 3-player board.
    pub players: u8,
    #[serde(default = "piece")]
    pub mandarin_start: MandarinStart,
    /// `None`: mandarin pits can always be captured.
    #[serde(default)]
    pub protection: Option<Protection>,
    #[serde(default = "borrow")]
    pub refill: Refill,
    /// End the game when the last six moves read `a b a b a b` (2 players only).
    #[serde(default)]
    pub repetition: bool,
    /// The second player may `swap` sides right after the opening move (2 players only).
    #[serde(default)]
    pub table_flip: bool,
    /// End the game after this many moves (at most [`MAX_PLIES`], where every game ends).
    #[serde(default)]
    pub move_limit: Option<u16>,
    /// A player whose score reaches this wins at once: the rows are swept as at the end, and
    /// what the mandarin pits hold is set aside. It must be more than half the game's points,
    /// so that only one player can reach it; [`RuleSet::majority`] gives the usual one, 36 of
    /// 70 (53 of 105 on the 3-player board).
    #[serde(default)]
    pub win_at: Option<u16>,
}

fn piece() -> MandarinStart {
    MandarinStart::Piece
}

fn borrow() -> Refill {
    Refill::Borrow
}

impl Default for RuleSet {
    /// The classic rules: two players, no protection, borrowing.
    fn default() -> RuleSet {
        RuleSet {
            players: 2,
            mandarin_start: MandarinStart::Piece,
            protection: None,
            refill: Refill::Borrow,
            repetition: false,
            table_flip: false,
            move_limit: None,
            win_at: None,
        }
    }
}

impl RuleSet {
    /// Parse a rule set from RON and check it.
    pub fn from_ron(text: &str) -> Result<RuleSet, RuleSetError> {
        let rules: RuleSet =
            ron::from_str(text).map_err(|e| RuleSetError::Syntax(e.to_string()))?;
        rules.validate()?;
        Ok(rules)
    }

    /// Check that every value is in range and that the options fit together.
    pub fn validate(&self) -> Result<(), RuleSetError> {
        let invalid =
            |field: &'static str, reason: String| Err(RuleSetError::Invalid { field, reason });
        if !(2..=3).contains(&self.players) {
            return invalid(
                "players",
                format!("{} players: it must be 2 or 3", self.players),
            );
        }
        if let Some(p) = self.protection {
            if p.plies == Some(0) {
                return invalid(
                    "protection.plies",
                    "0 would protect nothing: leave protection out instead".into(),
                );
            }
            if p.min_stones == Some(0) {
                return invalid(
                    "protection.min_stones",
                    "0 would protect nothing: leave protection out instead".into(),
                );
            }
            if let Some(min) = p
                .min_stones
                .filter(|&min| i32::from(min) > self.total_value())
            {
                return invalid(
                    "protection.min_stones",
                    format!("{min} is more stones than the game has: leave min_stones out instead"),
                );
            }
        }
        if self.players != 2 && self.repetition {
            return invalid(
                "repetition",
                "the repetition end is for two players only".into(),
            );
        }
        if self.players != 2 && self.table_flip {
            return invalid("table_flip", "table flip is for two players only".into());
        }
        if self.move_limit == Some(0) {
            return invalid("move_limit", "a game needs at least one move".into());
        }
        if let Some(limit) = self.move_limit.filter(|&l| u32::from(l) > MAX_PLIES) {
            return invalid(
                "move_limit",
                format!("{limit} moves: no game may last more than {MAX_PLIES}"),
            );
        }
        if let Some(score) = self.win_at {
            let total = self.total_value();
            if i32::from(score) <= total / 2 || i32::from(score) > total {
                return invalid(
                    "win_at",
                    format!(
                        "{score} points: it must be more than half of the game's {total} and \
                         at most all of them"
                    ),
                );
            }
        }
        Ok(())
    }

    /// The smallest score no other player can match: 36 of 70, 53 of 105.
    ///
    /// ```
    /// use oaq_rules::RuleSet;
    /// assert_eq!(RuleSet::default().majority(), 36);
    /// assert_eq!(RuleSet { players: 3, ..RuleSet::default() }.majority(), 53);
    /// ```
    pub fn majority(&self) -> u16 {
        (self.total_value() / 2 + 1) as u16
    }

    /// Number of players, as an index bound.
    pub fn player_count(&self) -> usize {
        usize::from(self.players)
    }

    /// The move at which the game ends by the move limit: the rule set's own, or the limit
    /// every game has.
    pub fn max_plies(&self) -> u32 {
        self.move_limit.map_or(MAX_PLIES, u32::from).min(MAX_PLIES)
    }

    /// What the board and stores are worth in all: 70 on the 2-player board, 105 on the 3-player.
    pub fn total_value(&self) -> i32 {
        35 * i32::from(self.players)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_fill_what_a_file_leaves_out() {
        assert_eq!(
            RuleSet::from_ron("(players: 2)").unwrap(),
            RuleSet::default()
        );
    }

    #[test]
    fn errors_name_the_field() {
        let cases = [
            ("(players: 3, repetition: true)", "repetition"),
            ("(players: 3, table_flip: true)", "table_flip"),
            (
                "(players: 2, protection: Some((plies: Some(0))))",
                "protection.plies",
            ),
            (
                "(players: 2, protection: Some((min_stones: Some(0))))",
                "protection.min_stones",
            ),
            ("(players: 2, move_limit: Some(0))", "move_limit"),
            (
                "(players: 2, move_limit: Some(1001))",
                "no game may last more than 1000",
            ),
            ("(players: 2, refill: lend)", "lend"),
            ("(players: 2, win_at: Some(35))", "win_at"),
            ("(players: 3, win_at: Some(106))", "105"),
            ("(players: 2, colour: 3)", "colour"),
            (
                "(players: 2, protection: Some((min_stones: Some(300))))",
                "300",
            ),
        ];
        for (text, field) in cases {
            let err = RuleSet::from_ron(text).unwrap_err().to_string();
            assert!(err.contains(field), "{text}: {err}");
        }
    }
}
