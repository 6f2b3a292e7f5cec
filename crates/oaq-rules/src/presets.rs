//! The rule sets players know, shipped as RON files with a name and a description in English and
//! Vietnamese for the menu.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::error::RuleSetError;
use super::ruleset::RuleSet;

/// A piece of text in each of the game's languages.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Text {
    pub en: String,
    pub vi: String,
}

/// A named rule set, as the menu shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Preset {
    /// Short name for the command line and save files: `standard`, `mature-quan`, ...
    pub id: String,
    pub name: Text,
    /// One paragraph for the menu.
    pub description: Text,
    pub rules: RuleSet,
}

impl Preset {
    /// Parse a preset file (the format of `oaq rules show`) and check its rule set.
    ///
    /// ```
    /// use oaq_rules::presets::{self, Preset};
    /// let text = presets::source("basic").unwrap();
    /// assert_eq!(Preset::from_ron(text).unwrap().rules.players, 2);
    /// let broken = text.replace("players: 2", "players: 7");
    /// assert!(Preset::from_ron(&broken).unwrap_err().to_string().contains("players"));
    /// ```
    pub fn from_ron(text: &str) -> Result<Preset, RuleSetError> {
        let preset: Preset =
            ron::from_str(text).map_err(|e| RuleSetError::Syntax(e.to_string()))?;
        preset.rules.validate()?;
        for (field, value) in [
            ("id", &preset.id),
            ("name.en", &preset.name.en),
            ("name.vi", &preset.name.vi),
            ("description.en", &preset.description.en),
            ("description.vi", &preset.description.vi),
        ] {
            if value.trim().is_empty() {
                return Err(RuleSetError::Invalid {
                    field,
                    reason: "must not be empty".into(),
                });
            }
        }
        Ok(preset)
    }
}

/// The shipped preset files, in menu order.
const SOURCES: [(&str, &str); 7] = [
    (
        "standard",
        include_str!("../../../assets/rules/standard.ron"),
    ),
    (
        "young-mandarin",
        include_str!("../../../assets/rules/young-mandarin.ron"),
    ),
    ("basic", include_str!("../../../assets/rules/basic.ron")),
    (
        "mature-quan",
        include_str!("../../../assets/rules/mature-quan.ron"),
    ),
    (
        "table-flip",
        include_str!("../../../assets/rules/table-flip.ron"),
    ),
    (
        "mature-quan-3p",
        include_str!("../../../assets/rules/mature-quan-3p.ron"),
    ),
    (
        "ten-seeds",
        include_str!("../../../assets/rules/ten-seeds.ron"),
    ),
];

/// Every shipped preset, in menu order.
pub fn all() -> &'static [Preset] {
    static PRESETS: OnceLock<Vec<Preset>> = OnceLock::new();
    PRESETS.get_or_init(|| {
        SOURCES
            .iter()
            .map(|(id, text)| match Preset::from_ron(text) {
                Ok(preset) => preset,
                // The files are part of the program and a test parses each one.
                Err(e) => panic!("shipped preset {id} is broken: {e}"),
            })
            .collect()
    })
}

/// The shipped preset called `id`.
pub fn get(id: &str) -> Option<&'static Preset> {
    all().iter().find(|p| p.id == id)
}

/// The RON text of the shipped preset called `id`.
pub fn source(id: &str) -> Option<&'static str> {
    SOURCES
        .iter()
        .find(|(name, _)| *name == id)
        .map(|(_, text)| *text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{MandarinStart, Protection, Refill};

    #[test]
    fn every_preset_parses_under_its_own_id() {
        for (id, text) in SOURCES {
            let preset = Preset::from_ron(text).unwrap();
            assert_eq!(preset.id, id);
        }
        assert_eq!(all().len(), SOURCES.len());
    }

    #[test]
    fn presets_match_the_table() {
        let p = |id| get(id).unwrap().rules;
        let always5 = Some(Protection {
            plies: None,
            min_stones: Some(5),
        });
        // Every preset ends: players repeating themselves stop at 100 moves each.
        assert!(
            all()
                .iter()
                .all(|p| p.rules.move_limit == Some(100 * u16::from(p.rules.players)))
        );
        assert_eq!(
            p("standard"),
            RuleSet {
                move_limit: Some(200),
                ..RuleSet::default()
            }
        );
        assert_eq!(
            p("young-mandarin").protection,
            Some(Protection {
                plies: Some(10),
                min_stones: Some(5)
            })
        );
        assert_eq!(p("basic").refill, Refill::Forfeit);
        assert_eq!(
            (p("mature-quan").protection, p("mature-quan").repetition),
            (always5, true)
        );
        assert!(p("table-flip").table_flip && p("table-flip").repetition);
        assert_eq!(
            (p("mature-quan-3p").players, p("mature-quan-3p").protection),
            (3, always5)
        );
        let ten = p("ten-seeds");
        assert_eq!(ten.mandarin_start, MandarinStart::TenStones);
        assert_eq!(
            ten.protection,
            Some(Protection {
                plies: Some(1),
                min_stones: None
            })
        );
        assert_eq!(ten.refill, Refill::Deduct);
    }
}
