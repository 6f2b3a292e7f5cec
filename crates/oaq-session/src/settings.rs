//! What the player chose in the menu, kept between runs as a RON file: language, mode, level,
//! rule set, animation, score display and sound.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::clock::TimeControl;
use super::lang::Lang;
use super::seat::Seat;
use oaq_ai::Level;
use oaq_rules::presets::{self, Preset};
use oaq_rules::{Protection, RuleSet};

/// Who sits at the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// One human against the computer.
    Computer,
    /// Two humans on one device.
    TwoPlayers,
    /// One human and two computers on the 3-player board.
    ThreeWithComputers,
    /// Three humans on one device, on the 3-player board.
    ThreePlayers,
}

impl Mode {
    pub const ALL: [Mode; 4] = [
        Mode::Computer,
        Mode::TwoPlayers,
        Mode::ThreeWithComputers,
        Mode::ThreePlayers,
    ];

    /// Players at the board.
    pub fn players(self) -> u8 {
        match self {
            Mode::Computer | Mode::TwoPlayers => 2,
            Mode::ThreeWithComputers | Mode::ThreePlayers => 3,
        }
    }

    /// Whether the computer plays any seat.
    pub fn has_computer(self) -> bool {
        matches!(self, Mode::Computer | Mode::ThreeWithComputers)
    }

    /// The string-table key of the mode's name.
    pub fn key(self) -> &'static str {
        match self {
            Mode::Computer => "mode.computer",
            Mode::TwoPlayers => "mode.two",
            Mode::ThreeWithComputers => "mode.three_computers",
            Mode::ThreePlayers => "mode.three_humans",
        }
    }
}

/// How fast moves animate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Speed {
    #[default]
    Normal,
    Fast,
    Off,
}

impl Speed {
    pub const ALL: [Speed; 3] = [Speed::Normal, Speed::Fast, Speed::Off];

    /// Scale applied to every animation time (0: no animation).
    pub fn factor(self) -> f32 {
        match self {
            Speed::Normal => 1.0,
            Speed::Fast => 1.0 / 3.0,
            Speed::Off => 0.0,
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            Speed::Normal => "speed.normal",
            Speed::Fast => "speed.fast",
            Speed::Off => "speed.off",
        }
    }
}

/// How the stores show the score: points, or the lead over the others (as one rule sheet counts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScoreView {
    #[default]
    Points,
    Difference,
}

impl ScoreView {
    pub fn key(self) -> &'static str {
        match self {
            ScoreView::Points => "score.points",
            ScoreView::Difference => "score.difference",
        }
    }
}

/// Everything the menu sets.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Settings {
    pub language: Lang,
    pub mode: Mode,
    /// The computer's level, 1..=10.
    pub level: u8,
    /// In games against the computer: the human moves first.
    pub human_first: bool,
    /// Id of the rule set (a preset).
    pub preset: String,
    /// Protect young mandarins (first ten moves, fewer than five stones) in a rule set that has
    /// no protection of its own.
    pub young_mandarin: bool,
    /// A player who reaches a majority of the points (36 of 70, 53 of 105) wins at once.
    pub majority_wins: bool,
    pub speed: Speed,
    pub score_view: ScoreView,
    pub sound: bool,
    /// 0.0..=1.0.
    pub volume: f32,
    /// The clock of games on this device (`None`: untimed).
    pub clock: Option<TimeControl>,
    /// The name other players see online (empty: not chosen yet).
    pub name: String,
    /// The online server, `ws://` or `wss://` (the desktop's; the web build talks to the page's
    /// own server).
    pub server: String,
    /// The how-to-play card has been shown (it opens by itself on the first visit).
    pub seen_intro: bool,
    /// Who plays online on this device, asked on the first visit: a child (child mode: no
    /// chat, no public lobby) or a grown-up; `None` until answered.
    pub child: Option<bool>,
    /// Text (the panels' and the board's labels) at this percentage: 100 to 200, by 25.
    pub text_size: u16,
    /// The board's counts and labels in white on black, the panels fully opaque.
    pub high_contrast: bool,
    /// No animation, no pulsing or breathing glows; `None`: as the system (or browser) asks.
    pub reduce_motion: Option<bool>,
    /// A move is sown only after a second press ("Sow"): no slip of the hand plays it.
    pub confirm_sow: bool,
    /// Every button at least 64 points tall, on any screen.
    pub large_targets: bool,
}

/// The text sizes the menu offers, in percent.
pub const TEXT_SIZES: [u16; 5] = [100, 125, 150, 175, 200];

/// The longest name a player may take, in characters (the protocol's limit too).
pub const MAX_NAME: usize = 24;

/// The server a desktop game plays online on until another is chosen: one run on this machine.
pub const DEFAULT_SERVER: &str = "ws://127.0.0.1:8080/ws";

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            language: Lang::En,
            mode: Mode::Computer,
            level: Level::medium().level,
            human_first: true,
            preset: "standard".to_owned(),
            young_mandarin: false,
            majority_wins: false,
            speed: Speed::Normal,
            score_view: ScoreView::Points,
            sound: true,
            volume: 0.7,
            clock: None,
            name: String::new(),
            server: DEFAULT_SERVER.to_owned(),
            seen_intro: false,
            child: None,
            text_size: 100,
            high_contrast: false,
            reduce_motion: None,
            confirm_sow: false,
            large_targets: false,
        }
    }
}

/// Why a settings file was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum SettingsError {
    /// Not RON, or not the settings' shape (the message names the place).
    Syntax(String),
    /// A field's value is out of range.
    Invalid { field: &'static str, reason: String },
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingsError::Syntax(e) => write!(f, "not a settings file: {e}"),
            SettingsError::Invalid { field, reason } => write!(f, "{field}: {reason}"),
        }
    }
}

impl std::error::Error for SettingsError {}

/// The protection of the young-mandarin switch: as the `young-mandarin` preset has it.
fn young_protection() -> Protection {
    Protection {
        plies: Some(10),
        min_stones: Some(5),
    }
}

impl Settings {
    /// Defaults, in the system's language: for the first start.
    pub fn first_start() -> Settings {
        Settings {
            language: Lang::from_system(),
            ..Settings::default()
        }
    }

    /// Parse and check a settings file.
    ///
    /// ```
    /// use oaq_session::Settings;
    /// let text = Settings::default().to_ron();
    /// assert_eq!(Settings::from_ron(&text).unwrap(), Settings::default());
    /// let error = Settings::from_ron(&text.replace("level: 4", "level: 11")).unwrap_err();
    /// assert!(error.to_string().starts_with("level"));
    /// ```
    pub fn from_ron(text: &str) -> Result<Settings, SettingsError> {
        let settings: Settings =
            ron::from_str(text).map_err(|e| SettingsError::Syntax(e.to_string()))?;
        settings.validate()?;
        Ok(settings)
    }

    pub fn to_ron(&self) -> String {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .unwrap_or_else(|e| unreachable!("settings always serialise: {e}"))
    }

    fn validate(&self) -> Result<(), SettingsError> {
        let invalid = |field, reason: String| Err(SettingsError::Invalid { field, reason });
        if Level::get(self.level).is_none() {
            return invalid(
                "level",
                format!("{} is not a level from 1 to 10", self.level),
            );
        }
        if !TEXT_SIZES.contains(&self.text_size) {
            return invalid(
                "text_size",
                format!(
                    "{} is not one of 100, 125, 150, 175 or 200 (%)",
                    self.text_size
                ),
            );
        }
        if !(0.0..=1.0).contains(&self.volume) {
            return invalid("volume", format!("{} is not between 0 and 1", self.volume));
        }
        if let Some(control) = self.clock
            && let Err(why) = control.check()
        {
            return invalid("clock", why);
        }
        if self.name.chars().count() > crate::MAX_NAME {
            return invalid(
                "name",
                format!(
                    "{} is longer than {} characters",
                    oaq_rules::excerpt::quoted(&self.name),
                    crate::MAX_NAME
                ),
            );
        }
        if !(self.server.starts_with("ws://") || self.server.starts_with("wss://")) {
            return invalid(
                "server",
                format!(
                    "{} is not a ws:// or wss:// address",
                    oaq_rules::excerpt::quoted(&self.server)
                ),
            );
        }
        match presets::get(&self.preset) {
            None => invalid(
                "preset",
                format!(
                    "{} is not a rule set of this game",
                    oaq_rules::excerpt::quoted(&self.preset)
                ),
            ),
            Some(p) if p.rules.players != self.mode.players() => invalid(
                "preset",
                format!(
                    "{:?} is for {} players, the mode for {}",
                    self.preset,
                    p.rules.players,
                    self.mode.players()
                ),
            ),
            Some(_) => Ok(()),
        }
    }

    /// The chosen rule set as the menu shows it.
    pub fn preset(&self) -> &'static Preset {
        presets::get(&self.preset)
            .filter(|p| p.rules.players == self.mode.players())
            .unwrap_or_else(|| default_preset(self.mode))
    }

    /// Whether the young-mandarin switch can change the chosen rule set.
    pub fn young_mandarin_applies(&self) -> bool {
        self.preset().rules.protection.is_none()
    }

    /// The rules of a new game: the preset, with the young-mandarin and winning-score switches
    /// applied.
    pub fn rules(&self) -> RuleSet {
        let mut rules = self.preset().rules;
        if self.young_mandarin && rules.protection.is_none() {
            rules.protection = Some(young_protection());
        }
        if self.majority_wins {
            rules.win_at = Some(rules.majority());
        }
        rules
    }

    /// Change the mode, and the rule set with it when the old one is for another player count.
    pub fn set_mode(&mut self, mode: Mode) {
        self.mode = mode;
        if self.preset().id != self.preset {
            self.preset = default_preset(mode).id.clone();
        }
    }

    /// Who plays each seat of a new game.
    pub fn seats(&self) -> Vec<Seat> {
        let computer = Seat::Computer(self.level);
        match self.mode {
            Mode::TwoPlayers => vec![Seat::Human; 2],
            Mode::ThreePlayers => vec![Seat::Human; 3],
            Mode::Computer if self.human_first => vec![Seat::Human, computer],
            Mode::Computer => vec![computer, Seat::Human],
            Mode::ThreeWithComputers if self.human_first => vec![Seat::Human, computer, computer],
            Mode::ThreeWithComputers => vec![computer, computer, Seat::Human],
        }
    }

    /// The presets the menu offers for the current mode.
    pub fn presets(&self) -> Vec<&'static Preset> {
        presets::all()
            .iter()
            .filter(|p| p.rules.players == self.mode.players())
            .collect()
    }
}

/// The first preset for the mode's player count.
fn default_preset(mode: Mode) -> &'static Preset {
    presets::all()
        .iter()
        .find(|p| p.rules.players == mode.players())
        .unwrap_or_else(|| unreachable!("presets exist for 2 and 3 players"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_round_trip_through_ron() {
        let settings = Settings {
            language: Lang::Vi,
            mode: Mode::ThreeWithComputers,
            level: 9,
            human_first: false,
            preset: "mature-quan-3p".into(),
            young_mandarin: true,
            majority_wins: true,
            speed: Speed::Off,
            score_view: ScoreView::Difference,
            sound: false,
            volume: 0.25,
            clock: Some(TimeControl::new(10, 5)),
            name: "Bà Năm \"Quan\"".into(),
            server: "wss://oaq.example:8443/ws".into(),
            seen_intro: true,
            child: Some(true),
            text_size: 175,
            high_contrast: true,
            reduce_motion: Some(true),
            confirm_sow: true,
            large_targets: true,
        };
        assert_eq!(Settings::from_ron(&settings.to_ron()).unwrap(), settings);
    }

    #[test]
    fn a_text_size_off_the_scale_is_refused_by_name() {
        let text = Settings::default()
            .to_ron()
            .replace("text_size: 100", "text_size: 400");
        let error = Settings::from_ron(&text).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("text_size: 400 is not one of"),
            "{error}"
        );
        // A settings file from before the accessibility settings still reads, with defaults.
        let old = Settings::default()
            .to_ron()
            .lines()
            .filter(|l| {
                ![
                    "text_size",
                    "high_contrast",
                    "reduce_motion",
                    "confirm_sow",
                    "large_targets",
                ]
                .iter()
                .any(|k| l.trim_start().starts_with(k))
            })
            .collect::<Vec<_>>()
            .join("\n");
        assert_eq!(Settings::from_ron(&old).unwrap(), Settings::default());
    }

    #[test]
    fn a_clock_out_of_range_is_refused_by_name() {
        let text = Settings {
            clock: Some(TimeControl::new(3, 2)),
            ..Settings::default()
        }
        .to_ron();
        assert!(text.contains("minutes: 3,"), "{text}");
        let error = Settings::from_ron(&text.replace("minutes: 3", "minutes: 0")).unwrap_err();
        assert_eq!(error.to_string(), "clock: 0 minutes is not from 1 to 180");
    }

    #[test]
    fn a_file_with_fields_missing_takes_the_defaults_for_them() {
        let settings = Settings::from_ron("(language: vi, sound: false)").unwrap();
        assert_eq!(settings.language, Lang::Vi);
        assert!(!settings.sound);
        assert_eq!(settings.level, Settings::default().level);
    }

    #[test]
    fn bad_files_are_refused_with_the_field_named() {
        let bad = [
            ("(volume: 3.0)", "volume"),
            ("(server: \"http://example.org\")", "server"),
            ("(name: \"abcdefghijklmnopqrstuvwxyz\")", "name"),
            ("(preset: \"chess\")", "preset"),
            ("(mode: two_players, preset: \"mature-quan-3p\")", "preset"),
            ("(level: 0)", "level"),
            ("(colour: red)", "colour"),
            ("(language: fr)", "fr"),
            ("(language: en", "settings"),
        ];
        for (text, named) in bad {
            let error = Settings::from_ron(text).unwrap_err().to_string();
            assert!(error.contains(named), "{text}: {error}");
        }
    }

    #[test]
    fn the_young_mandarin_switch_protects_only_where_the_preset_does_not() {
        let mut settings = Settings {
            young_mandarin: true,
            ..Settings::default()
        };
        assert_eq!(
            settings.rules(),
            presets::get("young-mandarin").unwrap().rules
        );
        settings.preset = "mature-quan".into();
        assert!(!settings.young_mandarin_applies());
        assert_eq!(settings.rules(), presets::get("mature-quan").unwrap().rules);
    }

    #[test]
    fn the_winning_score_switch_sets_a_majority_of_the_board() {
        let mut settings = Settings {
            majority_wins: true,
            ..Settings::default()
        };
        assert_eq!(settings.rules().win_at, Some(36));
        settings.set_mode(Mode::ThreePlayers);
        assert_eq!(settings.rules().win_at, Some(53));
        settings.majority_wins = false;
        assert_eq!(settings.rules(), settings.preset().rules);
        assert!(presets::all().iter().all(|p| p.rules.win_at.is_none()));
    }

    #[test]
    fn modes_choose_seats_and_rule_sets() {
        let mut settings = Settings::default();
        assert_eq!(settings.seats(), [Seat::Human, Seat::Computer(4)]);
        settings.human_first = false;
        assert_eq!(settings.seats(), [Seat::Computer(4), Seat::Human]);
        settings.set_mode(Mode::ThreePlayers);
        assert_eq!(settings.rules().players, 3);
        assert_eq!(settings.seats(), [Seat::Human; 3]);
        assert!(settings.presets().iter().all(|p| p.rules.players == 3));
        settings.set_mode(Mode::TwoPlayers);
        assert_eq!(settings.rules().players, 2);
    }
}
