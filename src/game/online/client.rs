//! The game's side of the protocol: who we are on the server (the token, kept like the
//! settings), the room we sit in as its log folds (the same fold as the server's), the lobby,
//! and what must be said again after a reconnection (hello, the room with the last `seq` seen,
//! a move not yet acknowledged).

use bevy::platform::time::Instant;
use bevy::prelude::*;
use std::time::Duration;

use super::follow::{Answer, GoBack, Offer, Previous};
use super::link::{Link, LinkEvent};
use crate::game::state::{Files, Prefs};
use crate::net::correspondence::{MyGame, Vacation};
use crate::net::protocol::{
    ClientMessage, ClockSpec, ErrorCode, First, Notice, PROTOCOL, PlayerInfo, RatingChange,
    RoomEvent, RoomSummary, RulesChoice, Sequenced, ServerMessage,
};
use crate::net::room::RoomState;
use crate::rules::{RuleSet, presets};
use crate::session::ONLINE_TOKEN;

/// How often the lobby is asked again while it is on screen, and the clock probe sent.
const LOBBY_EVERY: Duration = Duration::from_secs(4);
const PING_EVERY: Duration = Duration::from_secs(30);

/// Something the player asked of the server, from a button or a test.
#[derive(Event, Debug, Clone, PartialEq)]
pub enum Ask {
    /// Open a room and sit in it.
    Create {
        preset: String,
        /// The winning-score switch: a majority of the points wins at once.
        majority: bool,
        clock: ClockSpec,
        first: First,
        public: bool,
    },
    Join(String),
    Watch(String),
    /// Give up the seat of a room not started, or step away from a game (the seat stays held).
    Leave,
    Resign,
    OfferDraw,
    AcceptDraw,
    Rematch,
    Claim,
    /// The top players and our place.
    Leaderboard,
    /// An account or social message, sent as it is (once welcomed).
    Say(ClientMessage),
    /// A finished game of a profile: watched, then opened in the review.
    Review(String),
    /// A code from a link: ask whose it is, and show the offer until the player answers.
    Offer(crate::net::social::CodeKind, String),
}

/// The server's leaderboard, as last asked.
#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    pub players: Vec<PlayerInfo>,
    pub you: PlayerInfo,
    /// From 1; `None` before a rated game.
    pub place: Option<u64>,
}

/// A move sent and not yet seen in the room's log.
#[derive(Clone, Debug, PartialEq)]
pub struct Pending {
    pub ply: u32,
    pub mv: String,
    pub think_ms: Option<u64>,
}

/// The room we are in.
#[derive(Clone, Debug)]
pub struct Room {
    pub code: String,
    /// Watching, not playing.
    pub watching: bool,
    /// Our seat, once the server has said it.
    pub you: Option<usize>,
    /// The room's log folded, once it has arrived.
    pub state: Option<RoomState>,
    /// The last `seq` applied.
    pub seq: Option<u64>,
    pub pending: Option<Pending>,
    /// The rating changes of the game's end.
    pub ratings: Vec<RatingChange>,
}

impl Room {
    fn new(code: String, watching: bool) -> Room {
        Room {
            code,
            watching,
            you: None,
            state: None,
            seq: None,
            pending: None,
            ratings: Vec::new(),
        }
    }

    /// The message that takes (or takes back) our place in it.
    fn enter(&self) -> ClientMessage {
        let code = self.code.clone();
        let since = self.seq;
        if self.watching {
            ClientMessage::Watch { code, since }
        } else {
            ClientMessage::Join { code, since }
        }
    }
}

/// A refusal from the server, shown until the next action.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub code: ErrorCode,
    pub message: String,
}

/// Online play's state.
#[derive(Resource, Default)]
pub struct Online {
    /// Who the server says we are.
    pub me: Option<PlayerInfo>,
    token: Option<String>,
    pub lobby: Vec<RoomSummary>,
    /// How many wait in each pool with anyone waiting, as the lobby last said.
    pub pool_counts: Vec<crate::net::pool::PoolCount>,
    pub leaderboard: Option<Board>,
    /// The bots: those whose program is connected now, and their own leaderboard.
    pub bots: Option<(Vec<PlayerInfo>, Vec<PlayerInfo>)>,
    pub room: Option<Room>,
    pub problem: Option<Problem>,
    /// The server speaks another protocol: no point retrying until the game is updated.
    pub incompatible: Option<String>,
    /// Something to do once welcomed (a room of a link, a room to create).
    queued: Vec<ClientMessage>,
    /// The room was asked for right behind this connection's hello, not after the welcome.
    entered_with_hello: bool,
    /// The server's clock minus ours, in ms, from the probe with the shortest round trip (one
    /// at the start, then every 30 s: each wakes a sleeping game for a frame).
    offset: Option<(i64, i64)>,
    ping_sent: Option<(u64, i64)>,
    last_ping: Option<Instant>,
    last_lobby: Option<Instant>,
    /// Whether the lobby is on screen (asked for every few seconds).
    pub browsing: bool,
    /// Friends, challenges, profiles, chat.
    pub people: super::social::People,
    /// Tournaments: the lists, the pages, an invitation.
    pub tournaments: super::tournaments::Tournaments,
    /// A room to open in the review once its game is on the board.
    pub review_next: Option<String>,
    /// Our correspondence games and vacation, as last asked.
    pub my_games: Option<(Vec<MyGame>, Vacation)>,
    /// We wait in a pool ("Play now").
    pub pool: Option<PoolWait>,
    /// Our notification settings, as last told.
    pub notifications: Option<NotifyState>,
    /// A code from a link, waiting for the player's yes.
    pub offer: Option<Offer>,
    /// The player this device was before it became another, to go back to.
    pub previous: Option<Previous>,
}

/// What the server says of our notifications.
#[derive(Clone, Debug, PartialEq)]
pub struct NotifyState {
    pub settings: crate::net::notify::NotifySettings,
    /// The server's VAPID key (empty: it sends no pushes).
    pub push_key: String,
    pub devices: u64,
    /// The server sends the daily e-mail.
    pub mail: bool,
}

/// Waiting to be paired.
#[derive(Clone, Debug, PartialEq)]
pub struct PoolWait {
    pub rules: String,
    pub clock: crate::net::protocol::ClockSpec,
    /// Since when, by this device's clock.
    pub since_ms: i64,
    pub paired_last: Option<crate::net::pool::PairedLast>,
    /// Nobody to pair with after a wave: the computer's level offered.
    pub computer: Option<u8>,
}

impl Online {
    /// The token kept from before (a saved file, local storage in the browser).
    pub fn with_token(token: Option<String>) -> Online {
        Online {
            token,
            ..Online::default()
        }
    }

    /// The player this device was before another, kept from before.
    pub fn with_previous(self, previous: Option<Previous>) -> Online {
        Online { previous, ..self }
    }

    /// Whether this device has a player on the server (a token kept from before).
    pub fn has_token(&self) -> bool {
        self.token.is_some()
    }

    pub fn welcomed(&self) -> bool {
        self.me.is_some()
    }

    /// The server's time now, Unix milliseconds, as well as we can tell.
    pub fn server_now(&self) -> i64 {
        unix_ms() + self.offset.map_or(0, |(_, offset)| offset)
    }

    /// The room's fold, once it has arrived.
    pub fn state(&self) -> Option<&RoomState> {
        self.room.as_ref().and_then(|r| r.state.as_ref())
    }

    /// Send `msg` now, or once connected and welcomed.
    fn say(&mut self, link: &mut Link, msg: ClientMessage) {
        if !(self.welcomed() && link.send(&msg)) {
            self.queued.push(msg);
        }
    }

    /// Our move `mv`, number `ply` of the room: sent, and sent again after a reconnection
    /// until the room's log has it.
    pub fn send_move(&mut self, link: &mut Link, ply: u32, mv: String, think_ms: Option<u64>) {
        let Some(room) = self.room.as_mut() else {
            return;
        };
        let pending = Pending { ply, mv, think_ms };
        room.pending = Some(pending.clone());
        if self.welcomed() {
            link.send(&move_message(&pending));
        }
    }
}

fn move_message(p: &Pending) -> ClientMessage {
    ClientMessage::Move {
        ply: p.ply,
        mv: p.mv.clone(),
        think_ms: p.think_ms,
    }
}

/// Milliseconds since the Unix epoch by this device's clock.
pub fn unix_ms() -> i64 {
    web_time::SystemTime::now()
        .duration_since(web_time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

pub(super) fn plugin(app: &mut App) {
    app.add_observer(ask)
        .add_observer(answer_offer)
        .add_observer(go_back);
    app.add_systems(
        Update,
        (receive, keep_up)
            .chain()
            .after(super::link::pump)
            .in_set(crate::game::state::GameSet::Input),
    );
}

/// A player's request: remembered as the room we are in (so that a reconnection takes it back)
/// and sent.
fn ask(ask: On<Ask>, mut online: ResMut<Online>, mut link: ResMut<Link>) {
    online.problem = None;
    let msg = match ask.event().clone() {
        Ask::Create {
            preset,
            majority,
            clock,
            first,
            public,
        } => {
            online.room = None;
            let rules = match presets::get(&preset) {
                Some(p) if majority => RulesChoice::Custom(RuleSet {
                    win_at: Some(p.rules.majority()),
                    ..p.rules
                }),
                _ => RulesChoice::Preset(preset),
            };
            ClientMessage::Create {
                rules,
                clock,
                first,
                public,
            }
        }
        Ask::Join(code) => {
            online.room = Some(Room::new(code.clone(), false));
            ClientMessage::Join { code, since: None }
        }
        Ask::Watch(code) => {
            online.room = Some(Room::new(code.clone(), true));
            ClientMessage::Watch { code, since: None }
        }
        Ask::Leave => {
            online.room = None;
            ClientMessage::Leave
        }
        Ask::Resign => ClientMessage::Resign,
        Ask::OfferDraw => ClientMessage::OfferDraw,
        Ask::AcceptDraw => ClientMessage::AcceptDraw,
        Ask::Rematch => ClientMessage::Rematch,
        Ask::Claim => ClientMessage::Claim,
        Ask::Leaderboard => ClientMessage::Leaderboard,
        Ask::Say(msg) => msg,
        Ask::Offer(kind, code) => {
            online.offer = Some(Offer::new(kind, code.clone()));
            ClientMessage::WhoseCode { kind, code }
        }
        Ask::Review(code) => {
            online.review_next = Some(code.clone());
            let room = Room::new(code, true);
            let msg = room.enter();
            online.room = Some(room);
            msg
        }
    };
    online.say(&mut link, msg);
}

/// What the server said this frame.
fn receive(
    mut events: MessageReader<LinkEvent>,
    mut online: ResMut<Online>,
    mut link: ResMut<Link>,
    mut prefs: ResMut<Prefs>,
    files: Option<Res<Files>>,
) {
    for event in events.read() {
        // The name the server knows us by, when it is not the one we sent, is ours here too:
        // another device's player came to this one (a link code, a password), or an operator
        // renamed us.
        if let LinkEvent::Message(msg) = event
            && let ServerMessage::Notice(Notice::Welcome { player, .. }) = &**msg
            && player.name != display_name(&prefs.name, prefs.lang())
        {
            prefs.name = player.name.clone();
        }
        match event {
            LinkEvent::Up => {
                let hello = ClientMessage::Hello {
                    protocol: PROTOCOL,
                    name: display_name(&prefs.name, prefs.lang()),
                    token: online.token.clone(),
                    device: Some(device_label()),
                    child: prefs.child == Some(true),
                };
                link.send(&hello);
                // The room (a link's, or the one we were in) goes right behind the hello, a
                // round trip sooner: the server takes a connection's frames in order, so the
                // hello's player is the one seated.
                if let Some(room) = &online.room {
                    let enter = room.enter();
                    link.send(&enter);
                    online.entered_with_hello = true;
                }
            }
            LinkEvent::Down(why) => {
                online.entered_with_hello = false;
                info!("online: connection lost ({why}); trying again");
                online.me = None;
                online.ping_sent = None;
            }
            // A pong is the clock probe's bookkeeping: nothing on screen changes with it.
            LinkEvent::Message(msg)
                if matches!(**msg, ServerMessage::Notice(Notice::Pong { .. })) =>
            {
                handle(
                    online.bypass_change_detection(),
                    &mut link,
                    (**msg).clone(),
                    files.as_deref(),
                )
            }
            LinkEvent::Message(msg) => {
                handle(&mut online, &mut link, (**msg).clone(), files.as_deref());
            }
        }
    }
}

/// What this device is called in the player's list of devices.
pub fn device_label() -> String {
    #[cfg(target_arch = "wasm32")]
    {
        let agent = web_sys::window()
            .and_then(|w| w.navigator().user_agent().ok())
            .unwrap_or_default();
        let browser = ["Edg", "Firefox", "Chrome", "Safari"]
            .into_iter()
            .find(|b| agent.contains(b))
            .map_or("Browser", |b| if b == "Edg" { "Edge" } else { b });
        let system = ["Android", "iPhone", "iPad", "Windows", "Mac OS", "Linux"]
            .into_iter()
            .find(|s| agent.contains(s))
            .unwrap_or("web");
        format!("{browser} ({system})")
    }
    #[cfg(not(target_arch = "wasm32"))]
    format!("Ô ăn quan ({})", std::env::consts::OS)
}

/// The name sent to the server: the settings' one, or "Player" (in the game's language) until
/// one is chosen.
pub fn display_name(name: &str, lang: crate::session::Lang) -> String {
    let name = name.trim();
    if name.is_empty() {
        lang.tr("online.default_name").to_owned()
    } else {
        name.chars().take(crate::net::protocol::MAX_NAME).collect()
    }
}

fn handle(online: &mut Online, link: &mut Link, msg: ServerMessage, files: Option<&Files>) {
    match msg {
        ServerMessage::Room(event) => apply(online, link, event),
        ServerMessage::Notice(Notice::Welcome {
            player,
            token,
            child,
            ..
        }) => welcomed(online, link, files, player, token, child),
        ServerMessage::Notice(Notice::Error { code, message, .. }) => {
            refused(online, link, code, message)
        }
        ServerMessage::Notice(notice) => {
            if let Some(notice) = room_notice(online, link, notice) {
                people_notice(online, link, notice);
            }
        }
    }
}

/// The server says who we are: kept, and what waited for the welcome is sent.
fn welcomed(
    online: &mut Online,
    link: &mut Link,
    files: Option<&Files>,
    player: PlayerInfo,
    token: String,
    child: bool,
) {
    if online.me.as_ref().is_some_and(|me| me.id != player.id) {
        online.my_games = None;
    }
    keep_previous(online, files, &player);
    online.people.signed_in_as(&player, child);
    if online.token.as_deref() != Some(&token) {
        keep_token(files, &token);
    }
    online.token = Some(token);
    online.me = Some(player);
    online.last_ping = None;
    // Back in the room we were in, from the last event seen (unless the hello took it along);
    // then anything asked while away.
    let entered = std::mem::take(&mut online.entered_with_hello);
    if let Some(room) = &online.room {
        if entered {
            let code = &room.code;
            online.queued.retain(|m| {
                !matches!(m, ClientMessage::Join { code: c, .. } | ClientMessage::Watch { code: c, .. } if c == code)
            });
        } else {
            link.send(&room.enter());
        }
    }
    for msg in std::mem::take(&mut online.queued) {
        link.send(&msg);
    }
    // What waits for us (the online home says): our move in games by days, friends'
    // challenges.
    link.send(&ClientMessage::MyGames);
    link.send(&ClientMessage::Challenges);
}

/// A refusal: shown, and what it undoes undone.
fn refused(online: &mut Online, link: &mut Link, code: ErrorCode, message: String) {
    warn!("online: the server refused: {code:?}: {message}");
    if code == ErrorCode::UnsupportedProtocol {
        online.incompatible = Some(message.clone());
        link.stop();
    }
    if matches!(
        code,
        ErrorCode::StalePly | ErrorCode::IllegalMove | ErrorCode::NotYourTurn
    ) && let Some(room) = online.room.as_mut()
    {
        // The board goes back to the room's log (see `table`).
        room.pending = None;
    }
    if matches!(code, ErrorCode::NoSuchRoom | ErrorCode::RoomFull) {
        online.room = None;
    }
    // The code of a link was refused: there is nothing to ask the player.
    if matches!(
        code,
        ErrorCode::BadCredentials | ErrorCode::NoSuchPlayer | ErrorCode::RateLimited
    ) && online.offer.as_ref().is_some_and(|o| o.owner.is_none())
    {
        online.offer = None;
    }
    // A player we meant is gone from our lists (a block, a ban): ask for them again.
    if code == ErrorCode::NoSuchPlayer && online.people.relations.is_some() {
        link.send(&ClientMessage::Relations);
    }
    online.problem = Some(Problem { code, message });
}

/// A notice of rooms: ours, the lobby, the leaderboard, the clock's probe; any other is given
/// back.
fn room_notice(online: &mut Online, link: &mut Link, notice: Notice) -> Option<Notice> {
    match notice {
        Notice::Created { code } => {
            info!("online: room {code} created");
            online.room = Some(Room::new(code, false));
        }
        Notice::Lobby { rooms, pools } => {
            if online.pool_counts != pools {
                online.pool_counts = pools;
            }
            if online.lobby != rooms {
                online.lobby = rooms;
            }
        }
        Notice::Leaderboard {
            players,
            you,
            place,
        } => {
            // Our rating as it is now, for the online screen too.
            online.me = Some(you.clone());
            online.leaderboard = Some(Board {
                players,
                you,
                place,
            });
        }
        Notice::Snapshot {
            code,
            seq,
            events,
            you,
            ..
        } => {
            let room = online.room.as_mut().filter(|r| r.code == code)?;
            match RoomState::from_log(&events) {
                Ok(state) => {
                    room.state = Some(state);
                    room.seq = Some(seq);
                    if you.is_some() {
                        room.you = you;
                    }
                    acknowledge(room);
                }
                Err(e) => error!("online: room {code}'s log does not fold: {}", e.0),
            }
        }
        Notice::Seat { code, seat } => {
            if let Some(room) = online.room.as_mut().filter(|r| r.code == code) {
                room.you = seat;
                room.watching = seat.is_none();
                // Caught up: a move still not in the log goes again.
                if let Some(p) = &room.pending {
                    link.send(&move_message(p));
                }
            }
        }
        Notice::Left { code } => {
            if online.room.as_ref().is_some_and(|r| r.code == code) {
                online.room = None;
            }
        }
        Notice::Pong { id, at_ms } => {
            if let Some((sent_id, sent_at)) = online.ping_sent.take()
                && sent_id == id
            {
                let now = unix_ms();
                let rtt = (now - sent_at).max(0);
                let offset = at_ms - (sent_at + now) / 2;
                if online.offset.is_none_or(|(best, _)| rtt <= best) {
                    online.offset = Some((rtt, offset));
                }
            }
        }
        Notice::Reconnect { after_ms } => {
            link.reconnect_after(Duration::from_millis(after_ms.min(10_000)));
            online.me = None;
        }
        other => return Some(other),
    }
    None
}

/// The other notices: people, games by days, pools, notifications.
fn people_notice(online: &mut Online, link: &mut Link, notice: Notice) {
    match notice {
        Notice::ChallengeAccepted { id, room } => {
            // A challenge of ours or to us was accepted: its room is open with both seated.
            info!("online: challenge accepted, room {room}");
            let accepted = Notice::ChallengeAccepted {
                id,
                room: room.clone(),
            };
            online.people.take(&accepted, unix_ms());
            let entering = Room::new(room, false);
            link.send(&entering.enter());
            online.room = Some(entering);
        }
        Notice::CodeOwner { kind, code, player } => {
            if let Some(offer) = online.offer.as_mut() {
                offer.told(kind, &code, player);
            }
        }
        Notice::MyGames { games, vacation } => online.my_games = Some((games, vacation)),
        Notice::Bots {
            online: connected,
            leaderboard,
        } => online.bots = Some((connected, leaderboard)),
        Notice::Notifications {
            settings,
            push_key,
            devices,
            mail,
        } => {
            online.notifications = Some(NotifyState {
                settings,
                push_key,
                devices,
                mail,
            })
        }
        Notice::YourTurn { code } => {
            online.people.news = Some(super::social::News::YourTurn(code));
            link.send(&ClientMessage::MyGames);
        }
        Notice::Pooled {
            rules,
            clock,
            paired_last,
        } => {
            online.pool = Some(PoolWait {
                rules,
                clock,
                since_ms: unix_ms(),
                paired_last,
                computer: None,
            });
        }
        Notice::PoolAlone { level } => {
            if let Some(pool) = online.pool.as_mut() {
                pool.computer = Some(level);
            }
        }
        Notice::Unpooled => online.pool = None,
        Notice::Paired { room } => {
            // Paired: the room is open with both seated and the game begun.
            info!("online: paired, room {room}");
            online.pool = None;
            let entering = Room::new(room, false);
            link.send(&entering.enter());
            online.room = Some(entering);
        }
        notice @ (Notice::LinkCode { .. }
        | Notice::RecoveryCode { .. }
        | Notice::Devices { .. }
        | Notice::Profile { .. }
        | Notice::Relations { .. }
        | Notice::FriendRequest { .. }
        | Notice::FriendAccepted { .. }
        | Notice::Challenges { .. }
        | Notice::Challenged { .. }
        | Notice::ChallengeClosed { .. }
        | Notice::Chat { .. }
        | Notice::Reported { .. }) => {
            online.people.take(&notice, unix_ms());
        }
        notice @ (Notice::Tournaments { .. }
        | Notice::Tournament { .. }
        | Notice::TournamentInvite { .. }) => {
            if let Notice::TournamentInvite { from, line } = &notice {
                let news =
                    super::social::News::TournamentInvite(from.name.clone(), line.name.clone());
                online.people.news = Some(news);
            }
            let me = online.me.as_ref().map(|p| p.id.clone());
            online.tournaments.take(notice, me.as_deref());
        }
        _ => {}
    }
}

/// One event of the room's log: applied in order; a gap asks for what is missing.
fn apply(online: &mut Online, link: &mut Link, event: Sequenced) {
    let Some(room) = online.room.as_mut().filter(|r| r.code == event.code) else {
        return;
    };
    let (Some(state), Some(seq)) = (room.state.as_mut(), room.seq) else {
        // Before the snapshot: the snapshot will have it.
        return;
    };
    if event.seq <= seq {
        return;
    }
    if event.seq > seq + 1 {
        // Something was missed: the server sends it from the last one seen.
        link.send(&room.enter());
        return;
    }
    if let Err(e) = state.apply(&event.event) {
        error!(
            "online: room {}: {}; fetching the whole room",
            room.code, e.0
        );
        room.seq = None;
        room.state = None;
        link.send(&room.enter());
        return;
    }
    room.seq = Some(event.seq);
    match &event.event {
        RoomEvent::Ended { ratings, .. } => room.ratings = ratings.clone(),
        RoomEvent::Rematch { room: next } => {
            // Both players sit in the new room: follow it.
            let next = Room::new(next.clone(), room.watching);
            link.send(&next.enter());
            online.room = Some(next);
            return;
        }
        _ => {}
    }
    acknowledge(room);
}

/// A pending move the log now has is done.
fn acknowledge(room: &mut Room) {
    if let (Some(p), Some(state)) = (&room.pending, &room.state)
        && state.turn() > p.ply
    {
        room.pending = None;
    }
}

/// The clock probe and the lobby, every few seconds.
fn keep_up(
    mut online: ResMut<Online>,
    mut link: ResMut<Link>,
    mut wake: ResMut<crate::game::state::Wake>,
) {
    if !online.welcomed() || !link.is_open() {
        return;
    }
    let wake = wake.bypass_change_detection();
    wake.within(PING_EVERY);
    // The lobby matters on the online screen, not in a room.
    // A child has no public lobby to ask for.
    let browsing = online.browsing && online.room.is_none() && !online.people.child;
    if browsing {
        wake.within(LOBBY_EVERY);
    }
    // Probes are bookkeeping, not news for the screens.
    let online = online.bypass_change_detection();
    let link = link.bypass_change_detection();
    let now = Instant::now();
    if online
        .last_ping
        .is_none_or(|t| now.duration_since(t) >= PING_EVERY)
    {
        online.last_ping = Some(now);
        let id = online.ping_sent.map_or(1, |(id, _)| id + 1);
        online.ping_sent = Some((id, unix_ms()));
        link.send(&ClientMessage::Ping { id });
    }
    if browsing
        && online
            .last_lobby
            .is_none_or(|t| now.duration_since(t) >= LOBBY_EVERY)
    {
        online.last_lobby = Some(now);
        link.send(&ClientMessage::Lobby);
    }
}

/// Ask for the lobby at once (the screen just opened).
pub fn refresh_lobby(online: &mut Online) {
    online.last_lobby = None;
}

/// The player answered a link's offer: yes uses the code (a friend request, or this device
/// becomes the code's player, keeping who it was), no forgets it.
fn answer_offer(answer: On<Answer>, mut online: ResMut<Online>, mut link: ResMut<Link>) {
    let Some(offer) = online.offer.take() else {
        return;
    };
    if !answer.event().0 || offer.owner.is_none() || offer.is_ours(online.me.as_ref()) {
        return;
    }
    let code = offer.code;
    let msg = match offer.kind {
        crate::net::social::CodeKind::Friend => ClientMessage::AddFriend { code },
        crate::net::social::CodeKind::Link => ClientMessage::Link { code },
    };
    online.say(&mut link, msg);
}

/// We became another player on a live connection: the one we were is kept, to go back to.
fn keep_previous(online: &mut Online, files: Option<&Files>, now: &PlayerInfo) {
    let (Some(was), Some(token)) = (online.me.as_ref(), online.token.as_ref()) else {
        return;
    };
    if was.id == now.id {
        return;
    }
    let previous = Previous {
        token: token.clone(),
        name: was.name.clone(),
    };
    previous.keep(files);
    online.previous = Some(previous);
}

/// Back to the player this device was: their token, and a new connection with it.
fn go_back(
    _: On<GoBack>,
    mut online: ResMut<Online>,
    mut link: ResMut<Link>,
    files: Option<Res<Files>>,
) {
    let Some(previous) = online.previous.take() else {
        return;
    };
    Previous::forget(files.as_deref());
    keep_token(files.as_deref(), &previous.token);
    online.token = Some(previous.token);
    // Not welcomed until the server says who we are: that welcome is not a switch to keep.
    online.me = None;
    online.room = None;
    link.retry_now();
}

/// The token where the settings are kept.
fn keep_token(files: Option<&Files>, token: &str) {
    if let Some(files) = files
        && let Err(e) = files.config.write(ONLINE_TOKEN, token)
    {
        warn!("online: the identity could not be kept ({e}): the next start is a new player");
    }
}

/// The token kept by an earlier run.
pub fn kept_token(files: Option<&Files>) -> Option<String> {
    let text = files?.config.read(ONLINE_TOKEN).ok()??;
    let token = text.trim();
    (!token.is_empty() && token.len() <= 128).then(|| token.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::online::follow::tests::player;

    #[test]
    fn a_switch_keeps_who_we_were_and_a_welcome_back_does_not() {
        let mut online = Online::with_token(Some("old-token".into()));
        online.me = Some(player("a"));
        keep_previous(&mut online, None, &player("a"));
        assert_eq!(online.previous, None, "the same player");
        keep_previous(&mut online, None, &player("b"));
        assert_eq!(
            online.previous,
            Some(Previous {
                token: "old-token".into(),
                name: "An".into()
            })
        );
    }
}
