//! What a client sends: every request of online play, one JSON object with a `"type"` each.

use serde::{Deserialize, Serialize};

/// For serde: a count left out of the frame when it is zero.
fn is_zero(n: &u8) -> bool {
    *n == 0
}

use super::carried::RulesChoice;
use crate::types::{ClockSpec, First};

/// What a client sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    /// The first message of every connection. `token` takes back an identity from before.
    Hello {
        protocol: u32,
        name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<String>,
        /// What this device is called in the player's list of devices ("Firefox on Android").
        #[serde(default, skip_serializing_if = "Option::is_none")]
        device: Option<String>,
        /// A new player is made in child mode (no chat, not in the lobby or the leaderboard).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        child: bool,
        /// The client reads batches: what waits to go out to it at once may come as one frame,
        /// a JSON array of messages (`parse_server_frame`). A browser hands a page one frame
        /// per task, between its animation frames: a welcome and a room sent apart reach a
        /// phone's game a frame apart.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        batches: bool,
        /// How many frames the client sends right behind this hello (a room link's `join`):
        /// the server answers them with it, holding the welcome until they come (at most
        /// `HELLO_WAITS_MS`), so that a batch carries the welcome and the room together.
        #[serde(default, skip_serializing_if = "is_zero")]
        then: u8,
    },
    /// A one-time code (and its QR) that makes another device this player; answered by
    /// `link_code`.
    LinkCode,
    /// Become the player whose link code this is; answered by `welcome` with this device's token.
    Link {
        code: String,
    },
    /// Whose is this link or friend code, before it is used: the game asks "become NAME on this
    /// device?" or "ask NAME to be friends?" first. Answered by `code_owner`; a code that is not
    /// one counts against the address as a wrong `link` or `add_friend` does.
    WhoseCode {
        kind: crate::social::CodeKind,
        code: String,
    },
    /// A new recovery code, shown once (any earlier one stops working); answered by
    /// `recovery_code`. An account with a password or a recovery code already must show one of
    /// them (`current`).
    RecoveryCode {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        current: Option<String>,
    },
    /// Become the player whose recovery code this is; answered by `welcome`.
    Recover {
        code: String,
    },
    /// Set (or change) a sign-in name and password; answered by `profile`. Changing them
    /// needs the current password or the recovery code (`current`), and signs every other
    /// device out.
    SetLogin {
        login: String,
        password: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        current: Option<String>,
    },
    /// Become the player with this sign-in name and password; answered by `welcome`.
    SignIn {
        login: String,
        password: String,
    },
    /// The devices signed in as this player; answered by `devices`.
    Devices,
    /// Sign a device out (its token stops working, its connections close); answered by
    /// `devices`.
    RevokeDevice {
        id: String,
    },
    /// Child mode on or off (the game asks a parent's question first); answered by `profile`.
    /// Off needs the account's password or recovery code (`current`); an account with neither
    /// leaves child mode only after a day, its other devices told.
    SetChild {
        child: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        current: Option<String>,
    },
    /// A player's profile, or one's own (`player` absent); answered by `profile`.
    Profile {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<String>,
    },
    /// Friends, requests and blocks; answered by `relations`.
    Relations,
    /// Ask the player with this friend code to be friends (or accept their request).
    AddFriend {
        code: String,
    },
    /// Ask an opponent of a game we played to be friends (from the game's end).
    AddOpponent {
        player: String,
    },
    /// Answer a friend request.
    AnswerFriend {
        player: String,
        accept: bool,
    },
    RemoveFriend {
        player: String,
    },
    /// They can no longer challenge us, chat with us or find us; friendship and requests end.
    Block {
        player: String,
    },
    Unblock {
        player: String,
    },
    /// Challenge a friend (or a past opponent) to a game; answered by `challenges`.
    Challenge {
        player: String,
        rules: RulesChoice,
        clock: ClockSpec,
    },
    /// Challenges to us and from us; answered by `challenges`.
    Challenges,
    /// Accept (a room opens with both seated; both hear `challenge_accepted`) or decline.
    AnswerChallenge {
        id: String,
        accept: bool,
    },
    CancelChallenge {
        id: String,
    },
    /// A chat phrase to the other players of our room.
    Chat {
        phrase: crate::social::Phrase,
    },
    /// Report a player to the operators; answered by `reported`.
    Report {
        player: String,
        reason: crate::social::ReportReason,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        room: Option<String>,
    },
    /// Open a room and sit in it; answered by `created` and the room's log.
    Create {
        rules: RulesChoice,
        clock: ClockSpec,
        #[serde(default)]
        first: First,
        #[serde(default)]
        public: bool,
    },
    /// Take a seat in a room, or take back the seat already held there. `since` is the last
    /// `seq` this client saw of the room: only what came after it is sent.
    Join {
        code: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        since: Option<u64>,
    },
    /// Follow a room's game without a seat.
    Watch {
        code: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        since: Option<u64>,
    },
    /// The public rooms waiting for players.
    Lobby,
    /// Our correspondence games, ours to move first; answered by `my_games`.
    MyGames,
    /// "Play now": wait in the pool of `rules` (a name of [`crate::pool::POOL_RULES`])
    /// and `clock` (one of [`crate::pool::POOLS`]) to be paired with a player of about
    /// our rating; answered by `pooled`, then `paired` (or `pool_alone`).
    Pool {
        rules: String,
        clock: ClockSpec,
    },
    /// Stop waiting in the pool; answered by `unpooled`.
    LeavePool,
    /// Our notification settings, the server's push key and how many devices are
    /// subscribed; answered by `notifications`.
    Notifications,
    /// Change them; answered by `notifications`.
    SetNotifications {
        settings: crate::notify::NotifySettings,
    },
    /// Have this device's browser notified (a `PushSubscription`); answered by
    /// `notifications`.
    PushSubscribe {
        subscription: crate::notify::PushSubscription,
    },
    PushUnsubscribe {
        endpoint: String,
    },
    /// Go on vacation for `days` (out of the year's allowance), pausing the clocks of every
    /// correspondence game we are in; `0` comes back early (the days not taken are returned).
    /// Answered by `my_games`.
    Vacation {
        days: u8,
    },
    /// Keep these records of our practice and puzzle progress (at most
    /// [`super::MAX_TRAINING_PUT`]), for our other devices: of two versions of a record the
    /// higher rank is kept. Answered by `training_kept`; every connection of ours hears
    /// `training_changed`.
    KeepTraining {
        records: Vec<oaq_session::TrainingRecord>,
    },
    /// Our training records written after `since` (a number the server gave, `0`: all of
    /// them), a page at a time; answered by `training`.
    Training {
        since: u64,
    },
    /// The top players, and where the asker stands.
    Leaderboard,
    /// Turn this player into a bot, for good: it needs a sign-in name, no rated game yet and
    /// no child mode. Answered by `bot_token` (the API's token, shown once).
    BecomeBot,
    /// A bot's new API token (the old one stops working at once, its streams close);
    /// `revoke`: no token at all until the next. Answered by `bot_token`.
    BotToken {
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        revoke: bool,
    },
    /// The bots online now and the bots' leaderboard; answered by `bots`.
    Bots,
    /// Challenge the online bot nearest our rating (that takes these rules and clock, as its
    /// program decides); answered by `challenges`.
    PlayBot {
        rules: RulesChoice,
        clock: ClockSpec,
    },
    #[cfg(feature = "tournaments")]
    /// Organise a tournament of `format` (its numbers checked by the server); answered by
    /// `tournament`, its page.
    CreateTournament {
        name: String,
        rules: RulesChoice,
        clock: ClockSpec,
        format: crate::tournament::Format,
        #[serde(default)]
        public: bool,
        /// When it starts (ms since 1970); none: when the organiser says.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        starts_ms: Option<i64>,
        /// It starts by itself once this many players are in.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        start_when: Option<u32>,
        /// Players join with it (the organiser and the players invited need none).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        password: Option<String>,
        /// Its games change no rating.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        unrated: bool,
        /// Its players may not chat in its games (else: the preset phrases, as everywhere).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        no_chat: bool,
        /// Bots may join it (else only people).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        bots: bool,
    },
    #[cfg(feature = "tournaments")]
    /// Ours (organised or joined) and the public ones not over; answered by `tournaments`.
    Tournaments,
    #[cfg(feature = "tournaments")]
    /// A tournament's page; answered by `tournament` (and again as it changes, to its players).
    Tournament {
        id: String,
    },
    #[cfg(feature = "tournaments")]
    JoinTournament {
        id: String,
        /// The tournament's password, when it has one and we were not invited.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        password: Option<String>,
    },
    #[cfg(feature = "tournaments")]
    /// The organiser invites a friend (`player`, an id): they are told, and join without the
    /// password.
    InviteToTournament {
        id: String,
        player: String,
    },
    #[cfg(feature = "tournaments")]
    /// Leave: before the start as if never in it; after it, withdrawn (results stand).
    LeaveTournament {
        id: String,
    },
    #[cfg(feature = "tournaments")]
    /// An arena's break (`paused`), or the end of it.
    PauseTournament {
        id: String,
        paused: bool,
    },
    #[cfg(feature = "tournaments")]
    /// The organiser starts it now (once a Swiss has begun: its next round).
    StartTournament {
        id: String,
    },
    #[cfg(feature = "tournaments")]
    /// The organiser keeps two of its players (by id) from meeting from now on (`apart`), or
    /// lets them meet again: siblings, twins.
    KeepApart {
        id: String,
        players: [String; 2],
        apart: bool,
    },
    /// Leave the room: before the game starts the seat is given up; during it the seat stays
    /// held (as when the connection drops).
    Leave,
    /// Play `mv` (`oaq` notation: `3+`, `7-`, `swap`) as move number `ply` of the room (the
    /// number of moves played before it, a `swap` included). `think_ms` is the time
    /// the client itself measured between seeing the position and moving, for lag compensation.
    Move {
        ply: u32,
        #[serde(rename = "move")]
        mv: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        think_ms: Option<u64>,
    },
    Resign,
    OfferDraw,
    AcceptDraw,
    /// After the game: a new room with the same rules, the seats turned round.
    Rematch,
    /// The opponent has been gone past the limit: take the win.
    Claim,
    /// Round-trip probe; answered by `pong` with the same `id`.
    Ping {
        id: u64,
    },
}
