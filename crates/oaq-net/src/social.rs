//! The protocol's social parts: the codes that carry an identity to another device, friends,
//! challenges, profiles, the preset chat phrases and reports. Plain serde types; the messages
//! that carry them are in [`protocol`](super::protocol).
//!
//! Chat is a fixed list of phrases sent as ids, never free text: each reader sees the phrase in
//! their own language, and nothing a stranger types can reach a child.
//!
//! ```
//! use oaq_net::social::{Phrase, normalize_code, is_code, FRIEND_CODE_LEN};
//! assert_eq!(serde_json::to_string(&Phrase::WellPlayed).unwrap(), r#""well_played""#);
//! assert_eq!(normalize_code(" k7q2-mx3p "), "K7Q2MX3P");
//! assert!(is_code("K7Q2MX3P", FRIEND_CODE_LEN));
//! ```

use serde::{Deserialize, Serialize};

use crate::types::{CODE_ALPHABET, ClockSpec, PlayerInfo};
use oaq_rules::RuleSet;

/// A friend code: eight characters of the room codes' alphabet (no look-alikes), for reading
/// out, typing or scanning.
pub const FRIEND_CODE_LEN: usize = 8;
/// The one-time code that links another device, and how long it lasts.
pub const LINK_CODE_LEN: usize = 8;
pub const LINK_CODE_MS: i64 = 5 * 60 * 1000;
/// The recovery code: sixteen characters (about 79 bits), shown as four groups of four.
pub const RECOVERY_CODE_LEN: usize = 16;
/// A sign-in name: 3 to 24 of a–z, 0–9, `.`, `_` and `-`, compared without case.
pub const LOGIN_LEN: (usize, usize) = (3, 24);
/// A password, in bytes (argon2id takes any length; the bound keeps hashing cheap to refuse).
pub const PASSWORD_LEN: (usize, usize) = (8, 128);
/// The longest device label a client may give, in characters.
pub const MAX_DEVICE_LABEL: usize = 40;
/// How long a challenge waits for an answer.
pub const CHALLENGE_MS: i64 = 24 * 60 * 60 * 1000;
/// A deviation at or above this marks a rating as provisional ("1500?").
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// `text` as a code is compared: upper case, without the spaces and dashes people type
/// between groups.
pub fn normalize_code(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .flat_map(char::to_uppercase)
        .collect()
}

/// Whether `code` (normalized) has the shape of a code of `len` characters.
pub fn is_code(code: &str, len: usize) -> bool {
    code.len() == len && code.bytes().all(|b| CODE_ALPHABET.contains(&b))
}

/// A code in groups of four for reading: `K7Q2-MX3P`.
pub fn grouped(code: &str) -> String {
    code.as_bytes()
        .chunks(4)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect::<Vec<_>>()
        .join("-")
}

/// A sign-in name as it is kept (lower case), or what is wrong with it.
pub fn clean_login(login: &str) -> Result<String, String> {
    let login = login.trim().to_lowercase();
    let n = login.chars().count();
    if !(LOGIN_LEN.0..=LOGIN_LEN.1).contains(&n) {
        return Err(format!(
            "login: {n} characters, it takes {} to {}",
            LOGIN_LEN.0, LOGIN_LEN.1
        ));
    }
    if let Some(c) = login
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')))
    {
        return Err(format!(
            "login: {c:?} is not allowed (letters a–z, digits, '.', '_' and '-')"
        ));
    }
    Ok(login)
}

/// Whether a rating with this deviation is still provisional.
pub fn provisional(deviation: f64) -> bool {
    deviation >= PROVISIONAL_DEVIATION
}

/// A rating as a profile shows it: `1500?` while provisional.
pub fn rating_label(rating: f64, deviation: f64) -> String {
    let mark = if provisional(deviation) { "?" } else { "" };
    format!("{}{mark}", rating.round() as i64)
}

/// The chat's phrases and emotes: the only things players can say to each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phrase {
    Hello,
    GoodLuck,
    WellPlayed,
    Thanks,
    GoodGame,
    Oops,
    Wow,
    Bye,
}

impl Phrase {
    pub const ALL: [Phrase; 8] = [
        Phrase::Hello,
        Phrase::GoodLuck,
        Phrase::WellPlayed,
        Phrase::Thanks,
        Phrase::GoodGame,
        Phrase::Oops,
        Phrase::Wow,
        Phrase::Bye,
    ];

    /// The key of its words in the game's language tables.
    pub fn key(self) -> &'static str {
        match self {
            Phrase::Hello => "chat.hello",
            Phrase::GoodLuck => "chat.good_luck",
            Phrase::WellPlayed => "chat.well_played",
            Phrase::Thanks => "chat.thanks",
            Phrase::GoodGame => "chat.good_game",
            Phrase::Oops => "chat.oops",
            Phrase::Wow => "chat.wow",
            Phrase::Bye => "chat.bye",
        }
    }
}

/// What a code in a link is: a link code (it makes this device that player) or a friend code
/// (it asks that player to be friends). The game asks the server whose it is before using it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CodeKind {
    Link,
    Friend,
}

/// Why a player is reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReportReason {
    OffensiveName,
    Cheating,
    /// Letting the clock run, leaving games.
    Stalling,
    Other,
}

impl ReportReason {
    pub const ALL: [ReportReason; 4] = [
        ReportReason::OffensiveName,
        ReportReason::Cheating,
        ReportReason::Stalling,
        ReportReason::Other,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ReportReason::OffensiveName => "offensive_name",
            ReportReason::Cheating => "cheating",
            ReportReason::Stalling => "stalling",
            ReportReason::Other => "other",
        }
    }
}

/// A friend, and whether they are connected now.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Friend {
    pub player: PlayerInfo,
    pub online: bool,
}

/// Everyone a player has a relation with.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Relations {
    pub friends: Vec<Friend>,
    /// Asked to be our friend; waiting for our answer.
    pub incoming: Vec<PlayerInfo>,
    /// Asked by us; waiting for theirs.
    pub outgoing: Vec<PlayerInfo>,
    pub blocked: Vec<PlayerInfo>,
}

/// A device signed in as the player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Device {
    pub id: String,
    pub label: String,
    pub created_ms: i64,
    pub last_ms: i64,
    /// The device this connection is.
    pub this: bool,
}

/// A challenge to a game, from one player to another.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Challenge {
    pub id: String,
    pub from: PlayerInfo,
    pub to: PlayerInfo,
    pub preset: String,
    pub rules: RuleSet,
    pub clock: ClockSpec,
    pub expires_ms: i64,
}

/// How a rated game ended for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Won,
    Lost,
    Drawn,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Won => "won",
            Outcome::Lost => "lost",
            Outcome::Drawn => "drawn",
        }
    }

    pub fn parse(text: &str) -> Option<Outcome> {
        match text {
            "won" => Some(Outcome::Won),
            "lost" => Some(Outcome::Lost),
            "drawn" => Some(Outcome::Drawn),
            _ => None,
        }
    }

    /// Each seat's outcome from a result's places (0 wins; all equal is a draw).
    pub fn of_places(places: &[u8]) -> Vec<Outcome> {
        let all_equal = places.windows(2).all(|w| w[0] == w[1]);
        places
            .iter()
            .map(|&p| match (all_equal, p) {
                (true, _) => Outcome::Drawn,
                (false, 0) => Outcome::Won,
                _ => Outcome::Lost,
            })
            .collect()
    }
}

/// A rated game in a profile: the rating after it, for the graph, and its room for the review.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PastGame {
    pub code: String,
    pub preset: String,
    pub at_ms: i64,
    pub rating: f64,
    pub outcome: Outcome,
    /// The opponents' names, in seat order.
    pub opponents: Vec<String>,
}

/// A player's profile. `friend_code`, `child` and `login` are only in one's own.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    pub player: PlayerInfo,
    pub won: u64,
    pub lost: u64,
    pub drawn: u64,
    /// Rated games, oldest first (at most the last 200): the rating-over-time graph.
    pub games: Vec<PastGame>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub friend_code: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub child: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub login: Option<String>,
    /// Whether a recovery code has been taken (the code itself is shown once).
    #[serde(default)]
    pub recovery: bool,
    /// Whether we are friends (for another's profile).
    #[serde(default)]
    pub friend: bool,
    /// One's own: child mode ends then (Unix ms), switched off without a password.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub child_off_ms: Option<i64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_read_as_people_type_them() {
        assert_eq!(normalize_code("abcd efgh"), "ABCDEFGH");
        assert!(is_code(&normalize_code("abcd-efgh"), FRIEND_CODE_LEN));
        assert!(!is_code("ABCDEFG0", FRIEND_CODE_LEN));
        assert!(!is_code("ABCDEFG", FRIEND_CODE_LEN));
        assert_eq!(grouped("ABCDEFGHJKMNPQRS"), "ABCD-EFGH-JKMN-PQRS");
    }

    #[test]
    fn logins_are_bounded_and_plain() {
        assert_eq!(clean_login(" Ba.Nam_1 ").unwrap(), "ba.nam_1");
        assert!(clean_login("ab").unwrap_err().contains("3 to 24"));
        assert!(clean_login("bà năm").unwrap_err().contains("not allowed"));
        assert!(clean_login(&"a".repeat(25)).is_err());
    }

    #[test]
    fn provisional_ratings_carry_a_mark() {
        assert_eq!(rating_label(1500.0, 350.0), "1500?");
        assert_eq!(rating_label(1612.4, 109.9), "1612");
        assert_eq!(rating_label(1612.6, 110.0), "1613?");
    }

    #[test]
    fn outcomes_follow_places() {
        use Outcome::*;
        assert_eq!(Outcome::of_places(&[0, 1]), vec![Won, Lost]);
        assert_eq!(Outcome::of_places(&[1, 0]), vec![Lost, Won]);
        assert_eq!(Outcome::of_places(&[0, 0]), vec![Drawn, Drawn]);
        assert_eq!(Outcome::of_places(&[0, 1, 1]), vec![Won, Lost, Lost]);
    }
}
