//! Standings: points first, then tie-breaks as FIDE's handbook (C.02) defines them.
//!
//! - **Buchholz**: the sum of the opponents' points.
//! - **Sonneborn–Berger**: the points of the opponents one beat, and half those of the ones
//!   one drew with.
//!
//! A round without an opponent (a Swiss's bye) counts as a game against a virtual opponent who
//! has the player's own points before that round and draws every round after it (FIDE's rule
//! for unplayed games, and lichess's); a round robin's rest counts for nothing. A Swiss ranks
//! by Buchholz, then Sonneborn–Berger; a round robin and an arena by Sonneborn–Berger, then
//! Buchholz.

use serde::{Deserialize, Serialize};

use crate::{Outcome, Scoring, Sheet};

/// One player's line in the standings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    pub player: usize,
    /// 1 for the first; players alike in points and both tie-breaks share a place.
    pub place: usize,
    pub points: f64,
    pub buchholz: f64,
    pub sonneborn_berger: f64,
    pub games: usize,
}

/// The standings of players `0..sheets.len()`, best first.
///
/// ```
/// use oaq_tournament::tiebreak::standings;
/// use oaq_tournament::{Outcome::*, Result, Scoring, Sheet};
/// let r = |opponent, outcome| Result { opponent: Some(opponent), outcome, first: true };
/// // 0 beat 1, 1 beat 2, 2 beat 0: a point each, and alike in everything.
/// let sheets = [
///     Sheet { results: vec![r(1, Win), r(2, Loss)] },
///     Sheet { results: vec![r(0, Loss), r(2, Win)] },
///     Sheet { results: vec![r(1, Loss), r(0, Win)] },
/// ];
/// let table = standings(&sheets, Scoring::RoundRobin);
/// assert!(table.iter().all(|s| s.place == 1 && s.points == 1.0 && s.sonneborn_berger == 1.0));
/// ```
pub fn standings(sheets: &[Sheet], scoring: Scoring) -> Vec<Standing> {
    let points: Vec<f64> = sheets.iter().map(|s| s.points(scoring)).collect();
    let draw = match scoring {
        Scoring::Arena { .. } => 1.0,
        Scoring::Swiss | Scoring::RoundRobin => 0.5,
    };
    let mut table: Vec<Standing> = sheets
        .iter()
        .enumerate()
        .map(|(player, sheet)| {
            let (buchholz, sonneborn_berger) = tie_breaks(sheet, &points, scoring, draw);
            Standing {
                player,
                place: 0,
                points: points[player],
                buchholz,
                sonneborn_berger,
                games: sheet.opponents().count(),
            }
        })
        .collect();
    let key = |s: &Standing| match scoring {
        Scoring::Swiss => (s.points, s.buchholz, s.sonneborn_berger),
        _ => (s.points, s.sonneborn_berger, s.buchholz),
    };
    table.sort_by(|a, b| {
        key(b)
            .partial_cmp(&key(a))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    for i in 0..table.len() {
        table[i].place = if i > 0 && key(&table[i]) == key(&table[i - 1]) {
            table[i - 1].place
        } else {
            i + 1
        };
    }
    table
}

/// Buchholz and Sonneborn–Berger of one sheet, given everyone's points.
fn tie_breaks(sheet: &Sheet, points: &[f64], scoring: Scoring, draw: f64) -> (f64, f64) {
    let scores = sheet.scores(scoring);
    let rounds = sheet.results.len();
    let (mut buchholz, mut sb) = (0.0, 0.0);
    for (i, result) in sheet.results.iter().enumerate() {
        let theirs = match result.opponent {
            Some(opponent) => points.get(opponent).copied().unwrap_or(0.0),
            // A rest in a round robin is no game at all.
            None if scoring == Scoring::RoundRobin => continue,
            None => {
                let before: f64 = scores[..i].iter().sum();
                before + draw * (rounds - i - 1) as f64
            }
        };
        buchholz += theirs;
        sb += match result.outcome {
            Outcome::Win | Outcome::Bye => theirs,
            Outcome::Draw => theirs / 2.0,
            Outcome::Loss => 0.0,
        };
    }
    (buchholz, sb)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Result;

    fn game(opponent: usize, outcome: Outcome) -> Result {
        Result {
            opponent: Some(opponent),
            outcome,
            first: false,
        }
    }

    /// A four-player round robin worked by hand: 0 beats everyone; 1 beats 2, draws 3; 2 beats
    /// 3; so 0: 3, 1: 1.5, 2: 1, 3: 0.5.
    #[test]
    fn a_round_robin_worked_by_hand() {
        use Outcome::*;
        let sheets = [
            Sheet {
                results: vec![game(1, Win), game(2, Win), game(3, Win)],
            },
            Sheet {
                results: vec![game(0, Loss), game(2, Win), game(3, Draw)],
            },
            Sheet {
                results: vec![game(0, Loss), game(1, Loss), game(3, Win)],
            },
            Sheet {
                results: vec![game(0, Loss), game(1, Draw), game(2, Loss)],
            },
        ];
        let table = standings(&sheets, Scoring::RoundRobin);
        let order: Vec<_> = table.iter().map(|s| (s.player, s.points)).collect();
        assert_eq!(order, [(0, 3.0), (1, 1.5), (2, 1.0), (3, 0.5)]);
        // 1: beat 2 (1 point), drew 3 (0.5 / 2): 1.25; Buchholz 3 + 1 + 0.5.
        assert_eq!((table[1].sonneborn_berger, table[1].buchholz), (1.25, 4.5));
        assert_eq!(table[0].sonneborn_berger, 3.0);
        assert_eq!(
            table.iter().map(|s| s.place).collect::<Vec<_>>(),
            [1, 2, 3, 4]
        );
    }

    /// A Swiss bye: a point, and a virtual opponent with the player's points before it who
    /// draws every later round.
    #[test]
    fn a_bye_counts_as_a_virtual_opponent_in_a_swiss() {
        use Outcome::*;
        let bye = Result {
            opponent: None,
            outcome: Bye,
            first: false,
        };
        // Player 0: a win over 1, then a bye, then a loss to 1; three rounds.
        let sheets = [
            Sheet {
                results: vec![game(1, Win), bye, game(1, Loss)],
            },
            Sheet {
                results: vec![game(0, Loss), game(0, Win)],
            },
        ];
        let table = standings(&sheets, Scoring::Swiss);
        let zero = table.iter().find(|s| s.player == 0).unwrap();
        assert_eq!(zero.points, 2.0);
        // Opponent 1 has 1 point (twice); the virtual one 1 (before) + 0.5 (one round after).
        assert_eq!(zero.buchholz, 1.0 + 1.5 + 1.0);
        assert_eq!(zero.sonneborn_berger, 1.0 + 1.5);
        // In a round robin the rest is nothing.
        let rr = standings(&sheets, Scoring::RoundRobin);
        let zero = rr.iter().find(|s| s.player == 0).unwrap();
        assert_eq!((zero.points, zero.buchholz), (1.0, 2.0));
    }
}
