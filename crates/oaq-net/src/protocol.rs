//! The messages of online play: JSON text frames between the game and `oaq-server`. Plain serde
//! types with no runtime in them, so the game (native and in the browser), the server and the
//! tests share one definition.
//!
//! Every frame is one object with a `"type"`. What a room sends also carries `"seq"`, its place
//! in the room's log: a client that comes back sends the last one it saw and gets what it missed.
//!
//! ```
//! use oaq_net::protocol::{ClientMessage, PROTOCOL};
//! let hello: ClientMessage =
//!     serde_json::from_str(r#"{"type":"hello","protocol":1,"name":"Lan"}"#).unwrap();
//! assert_eq!(
//!     hello,
//!     ClientMessage::Hello {
//!         protocol: PROTOCOL,
//!         name: "Lan".into(),
//!         token: None,
//!         device: None,
//!         child: false,
//!     }
//! );
//! ```
//!
#![doc = include_str!("../../../docs/protocol.md")]

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use oaq_rules::{RuleSet, presets};

pub use crate::types::{
    BASE_MS, CODE_ALPHABET, CODE_LEN, CORRESPONDENCE_DAYS, ClockSpec, First, INCREMENT_MS,
    PlayerInfo, Untimed, is_room_code,
};

/// The protocol's version: `hello` names it and the server refuses one it does not speak.
pub const PROTOCOL: u32 = 1;

/// The largest frame either side accepts, in bytes.
pub const MAX_FRAME: usize = 16 * 1024;

/// The longest name a player may take, in characters.
pub use oaq_session::MAX_NAME;

/// The largest `since` a client may send: no room's log is longer than this.
pub const MAX_SEQ: u64 = 1 << 32;

/// The longest think time a client may report (30 days, beyond any clock's base).
pub const MAX_THINK_MS: u64 = 30 * 24 * 60 * 60 * 1000;

/// The longest token or room code a client may send, in bytes.
pub const MAX_TOKEN: usize = 128;

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

/// The rules of a room: a shipped preset's id, or a whole rule set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RulesChoice {
    Preset(String),
    Custom(RuleSet),
}

impl RulesChoice {
    /// The preset id and rules this choice stands for, or what is wrong with it.
    pub fn resolve(&self) -> Result<(String, RuleSet), String> {
        match self {
            RulesChoice::Preset(id) => presets::get(id)
                .map(|p| (p.id.clone(), p.rules))
                .ok_or_else(|| {
                    let ids: Vec<&str> = presets::all().iter().map(|p| p.id.as_str()).collect();
                    format!(
                        "rules: {} is not a preset (they are {})",
                        oaq_rules::excerpt::quoted(id),
                        ids.join(", ")
                    )
                }),
            RulesChoice::Custom(rules) => {
                rules
                    .validate()
                    .map_err(|e| format!("rules: {}", e.detail()))?;
                // Named after the preset it is, switches aside (the winning score); else the
                // first preset of the same board, as a replay file names one.
                let plain = RuleSet {
                    win_at: None,
                    ..*rules
                };
                let preset = presets::all()
                    .iter()
                    .find(|p| p.rules == plain)
                    .or_else(|| {
                        presets::all()
                            .iter()
                            .find(|p| p.rules.players == rules.players)
                    })
                    .map(|p| p.id.clone())
                    .unwrap_or_default();
                Ok((preset, *rules))
            }
        }
    }
}

/// A public room waiting for players, as the lobby lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoomSummary {
    pub code: String,
    pub preset: String,
    pub players: u8,
    pub clock: ClockSpec,
    pub creator: PlayerInfo,
    /// Seats taken so far.
    pub seated: u8,
    /// The winning score, when the room plays with one (the rule set's `win_at`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub win_at: Option<u16>,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndCause {
    /// Played to the end under the rules (the `reason` of the state says how).
    Rules,
    /// A clock ran out.
    Time,
    Resign,
    /// Both agreed to a draw.
    Agreed,
    /// A player was gone past the limit and the opponent claimed the game.
    Abandoned,
    /// The first moves were not played in time: no result, no rating change.
    Aborted,
}

/// The result of a finished game, by seat (the order players sat down in).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    pub cause: EndCause,
    /// Place of each seat: 0 for the winner, equal places for a draw. Empty when aborted.
    pub places: Vec<u8>,
    /// The board's scores by seat when it ended.
    pub scores: Vec<i32>,
    /// The seat whose action ended it (who ran out of time, resigned or was gone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<usize>,
}

/// A rating before and after a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingChange {
    pub seat: usize,
    pub before: f64,
    pub after: f64,
}

/// Everything a room records, in order. The log of these is the room: the server writes each
/// one to its store before anyone hears of it, and rebuilds rooms from the log after a restart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RoomEvent {
    /// The room was created (always `seq` 0).
    Opened {
        code: String,
        preset: String,
        rules: RuleSet,
        clock: ClockSpec,
        first: First,
        public: bool,
        at_ms: i64,
        /// The game changes no rating (a tournament's choice).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        unrated: bool,
        /// The players may not chat (a tournament's choice).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        no_chat: bool,
    },
    /// `player` took seat `seat`.
    Seated {
        seat: usize,
        player: PlayerInfo,
    },
    /// A seat was given up before the game started.
    Unseated {
        seat: usize,
    },
    /// Every seat is taken: the game begins. `order[side]` is the seat that plays that side of
    /// the board (side 0 moves first); `clocks` by seat, in milliseconds.
    Started {
        order: Vec<usize>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clocks: Option<Vec<i64>>,
        at_ms: i64,
    },
    /// A move, checked by the rules. `state` is the position after it (the state JSON of
    /// `oaq replay`); `clocks` by seat after it, `spent_ms` what it cost the mover and
    /// `lag_ms` the network time given back.
    Moved {
        ply: u32,
        #[serde(rename = "move")]
        mv: String,
        seat: usize,
        state: Value,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clocks: Option<Vec<i64>>,
        spent_ms: i64,
        lag_ms: i64,
        at_ms: i64,
    },
    DrawOffered {
        seat: usize,
    },
    /// After the game: the seat's player asks for a rematch; it opens when every player has.
    RematchOffered {
        seat: usize,
    },
    /// The seat's player lost their connection (or left); their seat stays theirs.
    Away {
        seat: usize,
        at_ms: i64,
    },
    Back {
        seat: usize,
        at_ms: i64,
    },
    /// The server came back after a stop: the clocks are as they were at the last move. In a
    /// correspondence game: the end of a pause, the clocks running on from where it began.
    Resumed {
        at_ms: i64,
    },
    /// A correspondence game stops its clocks: a player in it is on vacation.
    Paused {
        at_ms: i64,
    },
    Ended {
        result: GameResult,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        ratings: Vec<RatingChange>,
        at_ms: i64,
        /// The loser (`result.by`) had left the game: claimed, or out of time while gone.
        /// Counted against them when pools pair players.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        abandoned: bool,
    },
    /// A rematch room was opened, seats turned round.
    Rematch {
        room: String,
    },
}

/// A room event with its place in the room's log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sequenced {
    pub code: String,
    pub seq: u64,
    #[serde(flatten)]
    pub event: RoomEvent,
}

/// Replies and notices that are not part of a room's log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Notice {
    Welcome {
        protocol: u32,
        player: PlayerInfo,
        /// Keep it and send it in the next `hello` to be the same player.
        token: String,
        /// Whether the player is in child mode.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        child: bool,
    },
    LinkCode {
        code: String,
        expires_ms: i64,
    },
    /// The player a link or friend code belongs to (answering `whose_code`).
    CodeOwner {
        kind: crate::social::CodeKind,
        code: String,
        player: PlayerInfo,
    },
    /// The recovery code, shown this once.
    RecoveryCode {
        code: String,
    },
    Devices {
        devices: Vec<crate::social::Device>,
    },
    Profile {
        profile: crate::social::Profile,
    },
    Relations {
        relations: crate::social::Relations,
    },
    /// Someone asked to be our friend (sent at once when we are connected).
    FriendRequest {
        from: PlayerInfo,
    },
    /// Someone accepted our friend request.
    FriendAccepted {
        player: PlayerInfo,
    },
    Challenges {
        incoming: Vec<crate::social::Challenge>,
        outgoing: Vec<crate::social::Challenge>,
    },
    /// A challenge to us (sent at once when we are connected, and again when we come back).
    Challenged {
        challenge: crate::social::Challenge,
    },
    /// A challenge was accepted: its room is open with both players seated; join it.
    ChallengeAccepted {
        id: String,
        room: String,
    },
    /// A challenge was declined, cancelled or has expired.
    ChallengeClosed {
        id: String,
    },
    /// A chat phrase from seat `seat` of room `code`.
    Chat {
        code: String,
        seat: usize,
        phrase: crate::social::Phrase,
    },
    Reported {
        player: String,
    },
    Created {
        code: String,
    },
    /// Our correspondence games (ours to move first, then by time left) and our vacation.
    MyGames {
        games: Vec<crate::correspondence::MyGame>,
        vacation: crate::correspondence::Vacation,
    },
    /// A correspondence game of ours (whose room we are not in) waits for our move.
    YourTurn {
        code: String,
    },
    /// We wait in a pool; `paired_last` says why we wait behind the others.
    Pooled {
        rules: String,
        clock: ClockSpec,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        paired_last: Option<crate::pool::PairedLast>,
    },
    /// We were paired: the room is open with both players seated and the game begun; join it.
    Paired {
        room: String,
    },
    /// A wave went by with nobody to pair us with: we may play the computer at `level`
    /// (unrated, on our own device) and stay in the pool meanwhile, or go on waiting.
    PoolAlone {
        level: u8,
    },
    /// We no longer wait in a pool (we asked, or joined a room).
    Unpooled,
    #[cfg(feature = "tournaments")]
    /// Tournaments: ours (organised or joined, newest first), then the public ones not over.
    Tournaments {
        mine: Vec<crate::tournament::TournamentLine>,
        public: Vec<crate::tournament::TournamentLine>,
    },
    #[cfg(feature = "tournaments")]
    /// A tournament's page (asked for, or changed while we take part).
    Tournament {
        view: crate::tournament::TournamentView,
    },
    #[cfg(feature = "tournaments")]
    /// `from` invites us to a tournament (join it with its id; no password needed).
    TournamentInvite {
        from: PlayerInfo,
        line: crate::tournament::TournamentLine,
    },
    /// Our notification settings; `push_key` is the server's VAPID public key (the
    /// `applicationServerKey` to subscribe with; empty when the server sends no pushes), and
    /// `devices` how many of ours are subscribed.
    Notifications {
        settings: crate::notify::NotifySettings,
        push_key: String,
        devices: u64,
        /// Whether the server sends e-mail.
        mail: bool,
    },
    Lobby {
        rooms: Vec<RoomSummary>,
        /// The pools with players waiting after their last wave (those this server's node
        /// counts: on several nodes, the pools it runs).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pools: Vec<crate::pool::PoolCount>,
    },
    /// The top players by rating (rated games only), and the asker as the server has them now,
    /// with their place from 1 (`null` before a rated game).
    /// A bot's API token (`None`: revoked, none works now).
    BotToken {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<String>,
    },
    /// The bots whose program is connected now, nearest the asker's rating first, and the
    /// bots' own leaderboard.
    Bots {
        online: Vec<PlayerInfo>,
        leaderboard: Vec<PlayerInfo>,
    },
    /// A game of ours ended (sent to bots, for their event stream).
    GameFinished {
        code: String,
    },
    Leaderboard {
        players: Vec<PlayerInfo>,
        you: PlayerInfo,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        place: Option<u64>,
    },
    /// The room as a whole, for a client too far behind for the missed events alone (or new
    /// to it): the log from `seq` 0 up to `seq`, and where the client sits.
    Snapshot {
        code: String,
        seq: u64,
        events: Vec<RoomEvent>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        you: Option<usize>,
        /// Clocks by seat as of now (the running one counted down).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clocks: Option<Vec<i64>>,
    },
    /// Where the client now sits (after `join`), or `null` when only watching.
    Seat {
        code: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<usize>,
    },
    Left {
        code: String,
    },
    Pong {
        id: u64,
        /// The server's clock, Unix milliseconds.
        at_ms: i64,
    },
    /// The server is stopping: connect again (to this or another node) and `join` with `since`.
    Reconnect {
        after_ms: u64,
    },
    Error {
        code: ErrorCode,
        message: String,
        /// For `illegal_move`: the moves that are legal.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        legal: Option<Vec<String>>,
    },
}

/// What the server sends: a room's event, or a notice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ServerMessage {
    Room(Sequenced),
    Notice(Notice),
}

impl ServerMessage {
    /// The message as one text frame.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self)
            .unwrap_or_else(|e| unreachable!("protocol messages always serialise: {e}"))
    }

    /// A refusal.
    pub fn error(code: ErrorCode, message: impl Into<String>) -> ServerMessage {
        ServerMessage::Notice(Notice::Error {
            code,
            message: message.into(),
            legal: None,
        })
    }
}

/// The kinds of refusal. Each changes nothing on the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Not this seat's turn (or not a seat at all).
    NotYourTurn,
    IllegalMove,
    /// The move names a ply that is not the current one (already played, or ahead).
    StalePly,
    RoomFull,
    NoSuchRoom,
    /// Not a message of the protocol, or a field out of bounds; the message says which.
    BadMessage,
    TooLarge,
    RateLimited,
    UnsupportedProtocol,
    /// The server cannot do it now (storage down, stopping); try again.
    Unavailable,
    /// A player id, friend code or challenge that does not exist (or is not for us to see).
    NoSuchPlayer,
    /// A link code, recovery code or password that does not match.
    BadCredentials,
    /// The player is banned by the server's operators.
    Banned,
    /// A valid message that the room's state does not allow (a draw with no offer, a claim
    /// too early, a rematch before the end, a second `hello`).
    NotAllowed,
    /// A tournament id that does not exist (or is not for us to see).
    NoSuchTournament,
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        f.write_str(&text)
    }
}

/// A password's length, in bytes, outside its bounds.
fn password_bounds(password: &str) -> Option<String> {
    let (least, most) = crate::social::PASSWORD_LEN;
    (!(least..=most).contains(&password.len())).then(|| {
        format!(
            "password: {} bytes, it takes {least} to {most}",
            password.len()
        )
    })
}

/// Read a client frame, or say what is wrong with it.
pub fn parse_client(text: &str) -> Result<ClientMessage, (ErrorCode, String)> {
    if text.len() > MAX_FRAME {
        return Err((
            ErrorCode::TooLarge,
            format!("{} bytes; a frame holds at most {MAX_FRAME}", text.len()),
        ));
    }
    let msg: ClientMessage = serde_json::from_str(text).map_err(|e| {
        (
            ErrorCode::BadMessage,
            format!("not a message of the protocol: {e}"),
        )
    })?;
    msg.check_bounds().map_err(|e| (ErrorCode::BadMessage, e))?;
    Ok(msg)
}

impl ClientMessage {
    /// Refuses a number or text outside its bounds, naming the field: every number from the
    /// network is bounded here, where it is read, before anything does arithmetic with it.
    pub fn check_bounds(&self) -> Result<(), String> {
        let too_long = |field: &str, text: &str| {
            (text.len() > MAX_TOKEN)
                .then(|| format!("{field}: {} bytes, at most {MAX_TOKEN}", text.len()))
        };
        let problem = match self {
            ClientMessage::Hello { token, device, .. } => token
                .as_deref()
                .and_then(|t| too_long("token", t))
                .or_else(|| device.as_deref().and_then(|d| too_long("device", d))),
            ClientMessage::Link { code } | ClientMessage::Recover { code } => {
                too_long("code", code)
            }
            ClientMessage::AddFriend { code } | ClientMessage::WhoseCode { code, .. } => {
                too_long("code", code)
            }
            ClientMessage::RecoveryCode {
                current: Some(current),
            }
            | ClientMessage::SetChild {
                current: Some(current),
                ..
            } => too_long("current", current),
            ClientMessage::SetLogin {
                login,
                password,
                current,
            } => too_long("login", login)
                .or_else(|| current.as_deref().and_then(|c| too_long("current", c)))
                .or_else(|| password_bounds(password)),
            ClientMessage::SignIn { login, password } => {
                too_long("login", login).or_else(|| password_bounds(password))
            }
            ClientMessage::RevokeDevice { id }
            | ClientMessage::AnswerChallenge { id, .. }
            | ClientMessage::CancelChallenge { id } => too_long("id", id),
            ClientMessage::Profile { player } => {
                player.as_deref().and_then(|p| too_long("player", p))
            }
            ClientMessage::AddOpponent { player }
            | ClientMessage::AnswerFriend { player, .. }
            | ClientMessage::RemoveFriend { player }
            | ClientMessage::Block { player }
            | ClientMessage::Unblock { player } => too_long("player", player),
            ClientMessage::Challenge { player, clock, .. } => {
                too_long("player", player).or_else(|| clock.validate().err())
            }
            ClientMessage::Report { player, room, .. } => too_long("player", player)
                .or_else(|| room.as_deref().and_then(|r| too_long("room", r))),
            ClientMessage::Join { code, since } | ClientMessage::Watch { code, since } => {
                too_long("code", code).or_else(|| {
                    since
                        .filter(|&s| s > MAX_SEQ)
                        .map(|s| format!("since: {s} is beyond any room's log (at most {MAX_SEQ})"))
                })
            }
            ClientMessage::Move { mv, think_ms, .. } => too_long("move", mv).or_else(|| {
                think_ms
                    .filter(|&t| t > MAX_THINK_MS)
                    .map(|t| format!("think_ms: {t} is outside 0..={MAX_THINK_MS}"))
            }),
            ClientMessage::Create { clock, .. } | ClientMessage::PlayBot { clock, .. } => {
                clock.validate().err()
            }
            ClientMessage::SetNotifications { settings } => {
                (settings.email.len() > crate::notify::MAX_EMAIL).then(|| {
                    format!(
                        "email: {} bytes, at most {}",
                        settings.email.len(),
                        crate::notify::MAX_EMAIL
                    )
                })
            }
            ClientMessage::PushSubscribe { subscription: s } => {
                let max = crate::notify::MAX_ENDPOINT;
                if s.endpoint.len() > max {
                    Some(format!(
                        "endpoint: {} bytes, at most {max}",
                        s.endpoint.len()
                    ))
                } else {
                    too_long("p256dh", &s.p256dh).or_else(|| too_long("auth", &s.auth))
                }
            }
            ClientMessage::PushUnsubscribe { endpoint } => (endpoint.len()
                > crate::notify::MAX_ENDPOINT)
                .then(|| format!("endpoint: {} bytes, too long", endpoint.len())),
            ClientMessage::Pool { rules, clock } => {
                if !crate::pool::POOL_RULES.contains(&rules.as_str()) {
                    Some(format!(
                        "rules: {} has no pool; pools: {:?}",
                        oaq_rules::excerpt::quoted(rules),
                        crate::pool::POOL_RULES
                    ))
                } else if !crate::pool::POOLS.contains(clock) {
                    Some(format!("clock: {} has no pool", clock.label()))
                } else {
                    None
                }
            }
            ClientMessage::Vacation { days } => (*days > crate::correspondence::MAX_VACATION_DAYS)
                .then(|| {
                    format!(
                        "days: {days} is outside 0..={}",
                        crate::correspondence::MAX_VACATION_DAYS
                    )
                }),
            #[cfg(feature = "tournaments")]
            other => tournament_bounds(other),
            #[cfg(not(feature = "tournaments"))]
            _ => None,
        };
        problem.map_or(Ok(()), Err)
    }
}

/// Read a server frame (for clients).
pub fn parse_server(text: &str) -> Result<ServerMessage, String> {
    serde_json::from_str(text).map_err(|e| format!("not a message of the protocol: {e}"))
}

/// What is wrong with a tournament message's numbers and texts, if anything.
#[cfg(feature = "tournaments")]
fn tournament_bounds(msg: &ClientMessage) -> Option<String> {
    match msg {
        ClientMessage::CreateTournament {
            name,
            clock,
            starts_ms,
            password,
            ..
        } => {
            let chars = name.chars().count();
            let max = crate::tournament::MAX_TOURNAMENT_NAME;
            let secret = password.as_ref().map_or(0, |p| p.chars().count());
            let most = crate::tournament::MAX_TOURNAMENT_PASSWORD;
            if chars > max {
                Some(format!("name: {chars} characters, at most {max}"))
            } else if secret > most {
                Some(format!("password: {secret} characters, at most {most}"))
            } else if starts_ms.is_some_and(|s| !(0..=MAX_STARTS_MS).contains(&s)) {
                Some(format!("starts_ms: outside 0..={MAX_STARTS_MS}"))
            } else {
                clock.validate().err()
            }
        }
        ClientMessage::JoinTournament {
            password: Some(p), ..
        } if p.chars().count() > crate::tournament::MAX_TOURNAMENT_PASSWORD => Some(format!(
            "password: {} characters, at most {}",
            p.chars().count(),
            crate::tournament::MAX_TOURNAMENT_PASSWORD
        )),
        ClientMessage::InviteToTournament { id, player } => [("id", id), ("player", player)]
            .into_iter()
            .find(|(_, text)| text.len() > MAX_TOKEN)
            .map(|(what, text)| format!("{what}: {} bytes, at most {MAX_TOKEN}", text.len())),
        ClientMessage::Tournament { id }
        | ClientMessage::JoinTournament { id, .. }
        | ClientMessage::LeaveTournament { id }
        | ClientMessage::PauseTournament { id, .. }
        | ClientMessage::StartTournament { id } => {
            (id.len() > MAX_TOKEN).then(|| format!("id: {} bytes, at most {MAX_TOKEN}", id.len()))
        }
        ClientMessage::KeepApart { id, players, .. } => {
            let texts = [
                ("id", id),
                ("players", &players[0]),
                ("players", &players[1]),
            ];
            texts
                .into_iter()
                .find(|(_, text)| text.len() > MAX_TOKEN)
                .map(|(what, text)| format!("{what}: {} bytes, at most {MAX_TOKEN}", text.len()))
        }
        _ => None,
    }
}

/// The latest start a tournament may be given: the year 2100, in ms since 1970.
#[cfg(feature = "tournaments")]
pub const MAX_STARTS_MS: i64 = 4_102_444_800_000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_round_trip_as_documented() {
        let create = r#"{"type":"create","rules":"basic","clock":{"base_ms":180000,"increment_ms":2000},"first":"me","public":true}"#;
        let msg = parse_client(create).unwrap();
        assert_eq!(
            msg,
            ClientMessage::Create {
                rules: RulesChoice::Preset("basic".into()),
                clock: ClockSpec::Fischer {
                    base_ms: 180_000,
                    increment_ms: 2000
                },
                first: First::Me,
                public: true,
            }
        );
        assert_eq!(serde_json::to_string(&msg).unwrap(), create);
        let untimed = parse_client(r#"{"type":"create","rules":"standard","clock":"untimed"}"#);
        assert!(matches!(
            untimed,
            Ok(ClientMessage::Create {
                clock: ClockSpec::Untimed(_),
                first: First::Random,
                public: false,
                ..
            })
        ));
        let mv = parse_client(r#"{"type":"move","ply":3,"move":"swap"}"#).unwrap();
        assert_eq!(
            mv,
            ClientMessage::Move {
                ply: 3,
                mv: "swap".into(),
                think_ms: None
            }
        );
    }

    #[test]
    fn custom_rules_travel_whole() {
        let rules = presets::get("mature-quan").unwrap().rules;
        let msg = ClientMessage::Create {
            rules: RulesChoice::Custom(rules),
            clock: ClockSpec::UNTIMED,
            first: First::Random,
            public: false,
        };
        let text = serde_json::to_string(&msg).unwrap();
        assert_eq!(parse_client(&text).unwrap(), msg);
        let RulesChoice::Custom(back) = (match parse_client(&text).unwrap() {
            ClientMessage::Create { rules, .. } => rules,
            _ => unreachable!(),
        }) else {
            panic!("custom rules came back as a preset")
        };
        assert_eq!(resolve_players(&back), 2);
    }

    #[test]
    fn a_preset_with_a_winning_score_keeps_the_preset_name() {
        let mut rules = presets::get("mature-quan").unwrap().rules;
        rules.win_at = Some(rules.majority());
        let (preset, back) = RulesChoice::Custom(rules).resolve().unwrap();
        assert_eq!((preset.as_str(), back.win_at), ("mature-quan", Some(36)));
        rules.win_at = Some(20);
        let error = RulesChoice::Custom(rules).resolve().unwrap_err();
        assert!(error.starts_with("rules: win_at"), "{error}");
    }

    fn resolve_players(rules: &RuleSet) -> u8 {
        RulesChoice::Custom(*rules).resolve().unwrap().1.players
    }

    #[test]
    fn room_events_carry_their_sequence_number_beside_their_type() {
        let msg = ServerMessage::Room(Sequenced {
            code: "ABCDEF".into(),
            seq: 7,
            event: RoomEvent::DrawOffered { seat: 1 },
        });
        let text = msg.to_json();
        assert_eq!(
            text,
            r#"{"code":"ABCDEF","seq":7,"type":"draw_offered","seat":1}"#
        );
        assert_eq!(parse_server(&text).unwrap(), msg);
        let err = ServerMessage::error(ErrorCode::StalePly, "ply 3 was played");
        assert_eq!(parse_server(&err.to_json()).unwrap(), err);
        assert!(err.to_json().contains(r#""code":"stale_ply""#));
    }

    #[test]
    fn bad_frames_say_what_is_wrong() {
        let (code, message) = parse_client(r#"{"type":"fly"}"#).unwrap_err();
        assert_eq!(code, ErrorCode::BadMessage);
        assert!(message.contains("fly"), "{message}");
        let (code, _) = parse_client(&"x".repeat(MAX_FRAME + 1)).unwrap_err();
        assert_eq!(code, ErrorCode::TooLarge);
        let (code, _) = parse_client("\u{0}\u{1}").unwrap_err();
        assert_eq!(code, ErrorCode::BadMessage);
        assert!(
            RulesChoice::Preset("chess".into())
                .resolve()
                .unwrap_err()
                .contains("chess")
        );
    }

    #[test]
    fn numbers_out_of_bounds_are_refused_where_they_are_read() {
        let refused = |text: &str, field: &str| {
            let (code, message) = parse_client(text).unwrap_err();
            assert_eq!(code, ErrorCode::BadMessage, "{text}");
            assert!(message.starts_with(field), "{text}: {message}");
        };
        refused(
            r#"{"type":"move","ply":3,"move":"2+","think_ms":9223372036854775808}"#,
            "think_ms",
        );
        refused(
            r#"{"type":"join","code":"ABCDEF","since":18446744073709551615}"#,
            "since",
        );
        refused(
            r#"{"type":"watch","code":"ABCDEF","since":4294967297}"#,
            "since",
        );
        refused(
            r#"{"type":"create","rules":"basic","clock":{"base_ms":0,"increment_ms":0}}"#,
            "clock.base_ms",
        );
        let long = format!(
            r#"{{"type":"hello","protocol":1,"name":"a","token":"{}"}}"#,
            "t".repeat(200)
        );
        refused(&long, "token");
        assert!(parse_client(r#"{"type":"join","code":"ABCDEF","since":4294967296}"#).is_ok());
        assert!(
            parse_client(r#"{"type":"move","ply":3,"move":"2+","think_ms":2592000000}"#).is_ok()
        );
    }

    #[cfg(feature = "tournaments")]
    #[test]
    fn tournament_messages_are_read_as_documented_and_bounded() {
        let create = |name: &str, starts: &str| {
            format!(
                r#"{{"type":"create_tournament","name":"{name}","rules":"standard","clock":{{"base_ms":180000,"increment_ms":2000}},"format":{{"format":"arena","minutes":30,"streaks":true}},"public":false{starts}}}"#
            )
        };
        let parsed = parse_client(&create("Lớp 4A", r#","starts_ms":1796400000000"#)).unwrap();
        let ClientMessage::CreateTournament {
            format, starts_ms, ..
        } = parsed
        else {
            panic!("{parsed:?}");
        };
        let arena = crate::tournament::Format::Arena {
            minutes: 30,
            streaks: true,
        };
        assert_eq!((format, starts_ms), (arena, Some(1_796_400_000_000)));
        let refused = |text: &str, field: &str| {
            let (code, message) = parse_client(text).unwrap_err();
            assert_eq!(code, ErrorCode::BadMessage, "{text}");
            assert!(message.starts_with(field), "{text}: {message}");
        };
        refused(&create(&"n".repeat(41), ""), "name");
        refused(&create("A", r#","starts_ms":-5"#), "starts_ms");
        let long_id = format!(r#"{{"type":"join_tournament","id":"{}"}}"#, "x".repeat(129));
        refused(&long_id, "id");
        assert!(parse_client(&create(&"n".repeat(40), "")).is_ok());
    }

    #[test]
    fn time_controls_are_bounded() {
        let spec = |base_ms, increment_ms| ClockSpec::Fischer {
            base_ms,
            increment_ms,
        };
        assert!(spec(180_000, 2000).validate().is_ok());
        assert!(spec(0, 0).validate().unwrap_err().contains("base_ms"));
        assert!(
            spec(60_000, 61_000)
                .validate()
                .unwrap_err()
                .contains("increment_ms")
        );
        assert_eq!(spec(180_000, 2000).label(), "3+2");
        assert_eq!(ClockSpec::UNTIMED.label(), "untimed");
        assert_eq!(spec(30_000, 0).label(), "½+0");
        assert_eq!(spec(90_000, 1000).label(), "1.5+1");
    }

    #[test]
    fn room_codes_avoid_look_alikes() {
        assert!(is_room_code("K7Q2MX"));
        assert!(!is_room_code("K7Q2M0"));
        assert!(!is_room_code("k7q2mx"));
        assert!(!is_room_code("K7Q2M"));
        assert_eq!(ErrorCode::RoomFull.to_string(), "room_full");
    }
}
