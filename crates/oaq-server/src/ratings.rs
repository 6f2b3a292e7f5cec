//! Glicko-2 ratings (the skillratings crate): every guest starts at 1500 ± 350, and a finished
//! game between people moves each player by their places. On the 3-player board each player's
//! game counts as one result against each of the other two, in one rating period.

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};

/// A player's rating as stored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Rating {
        Rating::new()
    }
}

impl Rating {
    pub fn new() -> Rating {
        let r = Glicko2Rating::new();
        Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }

    fn glicko(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }
}

/// A rating as players see it: one decimal.
pub fn shown(value: f64) -> f64 {
    (value * 10.0).round() / 10.0
}

/// The ratings after a game in which `places[i]` is the place of the player rated `before[i]`
/// (0 for the winner; equal places drew).
pub fn after_game(before: &[Rating], places: &[u8]) -> Vec<Rating> {
    let config = Glicko2Config::new();
    (0..before.len())
        .map(|i| {
            let results: Vec<(Glicko2Rating, Outcomes)> = (0..before.len())
                .filter(|&j| j != i)
                .map(|j| {
                    let outcome = match places[i].cmp(&places[j]) {
                        std::cmp::Ordering::Less => Outcomes::WIN,
                        std::cmp::Ordering::Equal => Outcomes::DRAW,
                        std::cmp::Ordering::Greater => Outcomes::LOSS,
                    };
                    (before[j].glicko(), outcome)
                })
                .collect();
            let r = glicko2_rating_period(&before[i].glicko(), &results, &config);
            Rating {
                rating: r.rating,
                deviation: r.deviation,
                volatility: r.volatility,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_winner_gains_what_the_loser_loses_between_equals() {
        let after = after_game(&[Rating::new(), Rating::new()], &[0, 1]);
        assert!(after[0].rating > 1500.0 && after[1].rating < 1500.0);
        assert!(((after[0].rating - 1500.0) + (after[1].rating - 1500.0)).abs() < 1e-6);
        assert!(after[0].deviation < 350.0);
    }

    #[test]
    fn a_draw_between_equals_moves_nobody() {
        let after = after_game(&[Rating::new(), Rating::new()], &[0, 0]);
        assert!((after[0].rating - 1500.0).abs() < 1e-6);
    }

    #[test]
    fn three_players_rank_by_place() {
        let after = after_game(&[Rating::new(); 3], &[2, 0, 1]);
        assert!(after[1].rating > after[2].rating && after[2].rating > after[0].rating);
    }
}
