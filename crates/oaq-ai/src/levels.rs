//! The computer's levels, 1 to 10, as a RON table: limits for the search and a model of the
//! mistakes a player of that strength makes. Easy, Medium, Hard and Master name four of them.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

/// One level: how far it looks and how it errs.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Level {
    pub level: u8,
    /// Deepest search, in moves (`None`: as deep as time allows).
    pub depth: Option<u32>,
    /// Time per move.
    pub time_ms: u64,
    /// Typical misjudgement of a move, in points (the spread of a normal distribution).
    pub noise: f32,
    /// Relay pick-ups the level follows when it reads a move; a capture after more goes unseen.
    pub sight: Option<u8>,
    /// The level may search on every core it is given (`Thinker::threads`).
    #[serde(default)]
    pub all_cores: bool,
    /// The level answers the opening book's positions from the book.
    #[serde(default)]
    pub book: bool,
    /// The level's search looks positions up in the shipped endgame table, where there is one
    /// (`super::tablebase::shipped`).
    #[serde(default)]
    pub endgame_table: bool,
}

/// The levels' ratings, as `oaq rate` writes them (`assets/ai/ratings.ron`): one scale for
/// every level, from paired matches between them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ratings {
    /// The preset the matches were played on.
    pub rules: String,
    pub games_per_pair: usize,
    /// Levels at most this far apart played each other.
    pub span: u8,
    /// Every level's time per move was multiplied by this.
    pub time_scale: f64,
    pub seed: u64,
    /// What one result was: `pairs` (each opening's two games, by paired margin) or `games`.
    #[serde(default = "by_games")]
    pub scored_by: String,
    /// Level and rating (Elo scale, rounded to tens).
    pub ratings: Vec<(u8, i32)>,
}

/// Ratings files from before `scored_by` counted games.
fn by_games() -> String {
    "games".to_owned()
}

impl Ratings {
    /// The shipped ratings.
    pub fn shipped() -> &'static Ratings {
        static RATINGS: OnceLock<Ratings> = OnceLock::new();
        RATINGS.get_or_init(|| {
            match ron::from_str(include_str!("../../../assets/ai/ratings.ron")) {
                Ok(ratings) => ratings,
                // The file is part of the program and a test reads it.
                Err(e) => panic!("assets/ai/ratings.ron is broken: {e}"),
            }
        })
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Table {
    levels: Vec<Level>,
    easy: u8,
    medium: u8,
    hard: u8,
    master: u8,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        match ron::from_str::<Table>(include_str!("../../../assets/ai/levels.ron")) {
            Ok(table) => table,
            // The file is part of the program and a test checks it.
            Err(e) => panic!("assets/ai/levels.ron is broken: {e}"),
        }
    })
}

impl Level {
    /// Level `n` (1..=10).
    pub fn get(n: u8) -> Option<Level> {
        table().levels.iter().find(|l| l.level == n).copied()
    }

    pub fn easy() -> Level {
        Level::named(table().easy)
    }

    pub fn medium() -> Level {
        Level::named(table().medium)
    }

    pub fn hard() -> Level {
        Level::named(table().hard)
    }

    pub fn master() -> Level {
        Level::named(table().master)
    }

    fn named(n: u8) -> Level {
        Level::get(n)
            .unwrap_or_else(|| panic!("assets/ai/levels.ron names level {n}, which it lacks"))
    }

    /// The level's rating on the scale of `Ratings::shipped`.
    pub fn rating(&self) -> Option<i32> {
        Ratings::shipped()
            .ratings
            .iter()
            .find(|&&(level, _)| level == self.level)
            .map(|&(_, rating)| rating)
    }

    /// The name the game shows, when the level has one.
    pub fn name(&self) -> Option<&'static str> {
        let t = table();
        [
            (t.easy, "easy"),
            (t.medium, "medium"),
            (t.hard, "hard"),
            (t.master, "master"),
        ]
        .into_iter()
        .find(|&(n, _)| n == self.level)
        .map(|(_, name)| name)
    }
}

/// A level written as a number (1..10) or a name (easy, medium, hard, master).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseLevelError(pub String);

impl fmt::Display for ParseLevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} is not a level: give 1 to 10, or easy, medium, hard or master",
            oaq_rules::excerpt::quoted(&self.0)
        )
    }
}

impl std::error::Error for ParseLevelError {}

impl FromStr for Level {
    type Err = ParseLevelError;

    fn from_str(text: &str) -> Result<Level, ParseLevelError> {
        match text.to_ascii_lowercase().as_str() {
            "easy" => Ok(Level::easy()),
            "medium" => Ok(Level::medium()),
            "hard" => Ok(Level::hard()),
            "master" => Ok(Level::master()),
            n => n
                .parse()
                .ok()
                .and_then(Level::get)
                .ok_or_else(|| ParseLevelError(text.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_has_levels_1_to_10_growing_stronger() {
        let levels: Vec<Level> = (1..=10).map(|n| Level::get(n).unwrap()).collect();
        for pair in levels.windows(2) {
            let (weaker, stronger) = (pair[0], pair[1]);
            assert!(stronger.noise <= weaker.noise);
            assert!(stronger.time_ms >= weaker.time_ms);
            assert!(stronger.depth.unwrap_or(u32::MAX) >= weaker.depth.unwrap_or(u32::MAX));
            assert!(stronger.time_ms <= 2000, "every level answers within 2 s");
        }
        assert_eq!(Level::easy().name(), Some("easy"));
        assert!(Level::easy().level < Level::medium().level);
        assert!(Level::hard().level < Level::master().level);
    }

    #[test]
    fn every_level_rates_at_least_the_one_below_and_named_levels_stand_apart() {
        // The menu shows these numbers beside the levels: a level rated below the one under
        // it, or named levels a step apart that players cannot feel, would mislead.
        let ratings: Vec<i32> = (1..=10)
            .map(|n| Level::get(n).unwrap().rating().unwrap())
            .collect();
        assert!(ratings.windows(2).all(|w| w[1] >= w[0]), "{ratings:?}");
        let named = [
            Level::easy(),
            Level::medium(),
            Level::hard(),
            Level::master(),
        ]
        .map(|l| l.rating().unwrap());
        assert!(named.windows(2).all(|w| w[1] - w[0] >= 150), "{named:?}");
        assert_eq!(Ratings::shipped().scored_by, "pairs");
    }

    #[test]
    fn levels_parse_from_numbers_and_names() {
        assert_eq!("master".parse::<Level>().unwrap(), Level::master());
        assert_eq!("3".parse::<Level>().unwrap().level, 3);
        assert!("11".parse::<Level>().is_err());
        assert!(
            "expert"
                .parse::<Level>()
                .unwrap_err()
                .to_string()
                .contains("expert")
        );
    }
}
