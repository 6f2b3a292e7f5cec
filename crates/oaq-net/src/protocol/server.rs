//! What the server sends: a room's events, in the order of its log, and the notices beside it
//! (replies, refusals and news).

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use oaq_rules::RuleSet;

use super::carried::{GameResult, RatingChange, RoomSummary};
use crate::types::{ClockSpec, First, PlayerInfo};

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
    /// A page of our training records written after the `since` asked, oldest first: ask
    /// again from `upto` while `more`.
    Training {
        records: Vec<oaq_session::TrainingRecord>,
        upto: u64,
        more: bool,
    },
    /// The records of a `keep_training`: `kept` of them ranked above the server's and were
    /// kept, the others were not (the server's are newer: a `training` brings them).
    TrainingKept {
        kept: u32,
        upto: u64,
    },
    /// Our training records were written up to `upto` (by this device or another): ask for
    /// what is newer than what we have.
    TrainingChanged {
        upto: u64,
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
