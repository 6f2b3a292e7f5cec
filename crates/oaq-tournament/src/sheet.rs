//! A player's results in a tournament and the points they make: an arena's 2, 1 and 0 with
//! its streak (lichess's "on fire": after two wins in a row, a win counts 4 and a draw 2, until
//! a game is not won), a Swiss's or a round robin's 1, ½ and 0.

use serde::{Deserialize, Serialize};

/// How a game ended for one player, or the round they sat out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Win,
    Draw,
    Loss,
    /// No opponent this round (a Swiss's odd player out, a round robin's rest).
    Bye,
}

/// One entry of a player's sheet: the opponent (none for a bye), the outcome, and whether
/// the player moved first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Result {
    pub opponent: Option<usize>,
    pub outcome: Outcome,
    pub first: bool,
}

/// How a format counts points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scoring {
    /// 2 a win, 1 a draw; with `streaks`, double after two wins in a row.
    Arena { streaks: bool },
    /// 1 a win and a bye, ½ a draw.
    Swiss,
    /// 1 a win, ½ a draw; a rest is worth nothing (everyone rests once with an odd number).
    RoundRobin,
}

/// A player's results in order, and what they are worth.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sheet {
    pub results: Vec<Result>,
}

impl Sheet {
    /// Each result's points in order, as `scoring` counts them.
    ///
    /// ```
    /// use oaq_tournament::{Outcome, Result, Scoring, Sheet};
    /// let r = |outcome| Result { opponent: Some(1), outcome, first: true };
    /// let sheet = Sheet { results: vec![r(Outcome::Win), r(Outcome::Win), r(Outcome::Win),
    ///     r(Outcome::Draw), r(Outcome::Loss), r(Outcome::Win)] };
    /// // The third win and the draw after it come on fire.
    /// assert_eq!(sheet.scores(Scoring::Arena { streaks: true }), [2.0, 2.0, 4.0, 2.0, 0.0, 2.0]);
    /// assert_eq!(sheet.points(Scoring::Arena { streaks: false }), 9.0);
    /// assert_eq!(sheet.points(Scoring::Swiss), 4.5);
    /// ```
    pub fn scores(&self, scoring: Scoring) -> Vec<f64> {
        let mut wins_in_a_row = 0;
        self.results
            .iter()
            .map(|r| {
                let on_fire =
                    matches!(scoring, Scoring::Arena { streaks: true }) && wins_in_a_row >= 2;
                wins_in_a_row = if r.outcome == Outcome::Win {
                    wins_in_a_row + 1
                } else {
                    0
                };
                let base = match (scoring, r.outcome) {
                    (Scoring::Arena { .. }, Outcome::Win) => 2.0,
                    (Scoring::Arena { .. }, Outcome::Draw) => 1.0,
                    (Scoring::Swiss, Outcome::Win | Outcome::Bye) => 1.0,
                    (Scoring::RoundRobin, Outcome::Win) => 1.0,
                    (Scoring::Swiss | Scoring::RoundRobin, Outcome::Draw) => 0.5,
                    _ => 0.0,
                };
                if on_fire { base * 2.0 } else { base }
            })
            .collect()
    }

    /// The points, as `scoring` counts them.
    pub fn points(&self, scoring: Scoring) -> f64 {
        self.scores(scoring).iter().sum()
    }

    /// Whether the next win counts double (an arena with streaks, after two wins in a row).
    pub fn on_fire(&self, scoring: Scoring) -> bool {
        matches!(scoring, Scoring::Arena { streaks: true })
            && self.results.len() >= 2
            && self.results[self.results.len() - 2..]
                .iter()
                .all(|r| r.outcome == Outcome::Win)
    }

    /// The record as first mover, from the games played (byes left out).
    pub fn first_moves(&self) -> crate::FirstMoves {
        crate::FirstMoves::of(
            self.results
                .iter()
                .filter(|r| r.opponent.is_some())
                .map(|r| r.first),
        )
    }

    /// The opponents met, in order.
    pub fn opponents(&self) -> impl Iterator<Item = usize> + '_ {
        self.results.iter().filter_map(|r| r.opponent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sheet(outcomes: &[Outcome]) -> Sheet {
        let results = outcomes
            .iter()
            .map(|&outcome| Result {
                opponent: (outcome != Outcome::Bye).then_some(0),
                outcome,
                first: false,
            })
            .collect();
        Sheet { results }
    }

    #[test]
    fn a_streak_doubles_until_a_game_is_not_won() {
        use Outcome::*;
        let s = sheet(&[Win, Win, Win, Win, Loss, Win, Win, Draw, Win]);
        let arena = Scoring::Arena { streaks: true };
        assert_eq!(s.scores(arena), [2., 2., 4., 4., 0., 2., 2., 2., 2.]);
        assert!(!s.on_fire(arena));
        assert!(sheet(&[Loss, Win, Win]).on_fire(arena));
        assert!(!sheet(&[Loss, Win, Win]).on_fire(Scoring::Arena { streaks: false }));
        let flat = Scoring::Arena { streaks: false };
        assert_eq!(s.points(flat), 15.0);
    }

    #[test]
    fn a_bye_is_a_point_in_a_swiss_and_a_rest_in_a_round_robin() {
        use Outcome::*;
        let s = sheet(&[Bye, Draw, Win]);
        assert_eq!(s.points(Scoring::Swiss), 2.5);
        assert_eq!(s.points(Scoring::RoundRobin), 1.5);
        assert_eq!(s.opponents().count(), 2);
    }
}
