//! Notifications as the protocol carries them: which a player wants (their move in a game by
//! days, a challenge, a game lost or won on time), by Web Push to the devices that subscribed
//! and by a daily e-mail of the games waiting; and what a push message says (the page's
//! service worker shows it, in the player's language, and opens the game when tapped).
//!
//! ```
//! use oaq_net::notify::NotifySettings;
//! let off = NotifySettings::default().all_off();
//! assert!(!off.your_turn && !off.challenges && !off.ended && !off.digest);
//! assert!(NotifySettings::default().your_turn, "on unless switched off");
//! ```

use serde::{Deserialize, Serialize};

use oaq_session::Lang;

/// The longest push endpoint and e-mail address taken.
pub const MAX_ENDPOINT: usize = 1_024;
pub const MAX_EMAIL: usize = 254;
/// Devices one player may have subscribed to pushes at once.
pub const MAX_SUBSCRIPTIONS: u64 = 10;

/// What a player wants to hear of, and where.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct NotifySettings {
    /// Our move in a game by days.
    pub your_turn: bool,
    pub challenges: bool,
    /// A game by days ended on time.
    pub ended: bool,
    /// The address for the daily e-mail (empty: none).
    pub email: String,
    /// One e-mail a day listing the games waiting for our move.
    pub digest: bool,
    /// The language of e-mails.
    pub lang: Lang,
    /// Whether the address was confirmed by the link sent to it (from the server; nothing is
    /// sent to an address before).
    #[serde(default)]
    pub confirmed: bool,
}

impl Default for NotifySettings {
    fn default() -> Self {
        NotifySettings {
            your_turn: true,
            challenges: true,
            ended: true,
            email: String::new(),
            digest: false,
            lang: Lang::En,
            confirmed: false,
        }
    }
}

impl NotifySettings {
    /// Every notification switched off (the address is kept).
    pub fn all_off(self) -> NotifySettings {
        NotifySettings {
            your_turn: false,
            challenges: false,
            ended: false,
            digest: false,
            ..self
        }
    }
}

/// A device's push subscription, as the browser's `PushSubscription` gives it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PushSubscription {
    pub endpoint: String,
    /// The device's public key (P-256, uncompressed, base64url) and its secret (16 bytes).
    pub p256dh: String,
    pub auth: String,
    /// The language its notifications are written in.
    #[serde(default)]
    pub lang: Lang,
}

/// What a push message carries (encrypted to the device): the page's service worker shows
/// `title` and `body`, replaces an earlier one with the same `tag` (one per game), and opens
/// `url` when it is tapped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PushMessage {
    pub title: String,
    pub body: String,
    pub tag: String,
    pub url: String,
}

/// Why a player is told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Our move in room `code`, against `opponent`.
    YourTurn { code: String, opponent: String },
    /// `from` challenges us.
    Challenged { from: String },
    /// Room `code` ended on time: we `won` or lost.
    Ended { code: String, won: bool },
    /// Our game of `tournament` against `opponent` has begun in room `code`.
    TournamentGame {
        code: String,
        tournament: String,
        opponent: String,
    },
}

impl Event {
    /// The message, in `lang`: the page's address `url` leads to the game.
    pub fn message(&self, lang: Lang, base_url: &str) -> PushMessage {
        let base = base_url.trim_end_matches('/');
        match self {
            Event::YourTurn { code, opponent } => PushMessage {
                title: lang.tr("push.your_turn").to_owned(),
                body: lang.trf("push.your_turn.body", &[("who", opponent), ("code", code)]),
                tag: code.clone(),
                url: format!("{base}/?room={code}"),
            },
            Event::Challenged { from } => PushMessage {
                title: lang.tr("push.challenged").to_owned(),
                body: lang.trf("push.challenged.body", &[("who", from)]),
                tag: "challenges".to_owned(),
                url: format!("{base}/"),
            },
            Event::Ended { code, won } => PushMessage {
                title: lang
                    .tr(if *won {
                        "push.won_on_time"
                    } else {
                        "push.lost_on_time"
                    })
                    .to_owned(),
                body: lang.trf("push.ended.body", &[("code", code)]),
                tag: code.clone(),
                url: format!("{base}/?room={code}"),
            },
            Event::TournamentGame {
                code,
                tournament,
                opponent,
            } => PushMessage {
                title: lang.tr("push.tournament_game").to_owned(),
                body: lang.trf(
                    "push.tournament_game.body",
                    &[("tournament", tournament), ("who", opponent)],
                ),
                tag: code.clone(),
                url: format!("{base}/?room={code}"),
            },
        }
    }

    /// Whether `settings` want this.
    pub fn wanted(&self, settings: &NotifySettings) -> bool {
        match self {
            // A tournament's game waiting for us is our move, as far as we are concerned.
            Event::YourTurn { .. } | Event::TournamentGame { .. } => settings.your_turn,
            Event::Challenged { .. } => settings.challenges,
            Event::Ended { .. } => settings.ended,
        }
    }
}
