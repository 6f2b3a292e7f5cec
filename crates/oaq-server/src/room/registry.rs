//! The rooms of this node: opening new ones under fresh codes, and finding a room by its code,
//! loading it from the store (and bringing its clocks back) when it is not in memory.

use std::sync::Arc;

use oaq_net::protocol::{
    CODE_ALPHABET, CODE_LEN, ClockSpec, ErrorCode, First, PlayerInfo, RoomEvent,
};
use oaq_rules::RuleSet;
use rand::RngExt;

use crate::mailbox::{Command, RoomHandle};
use crate::policy::{self, Meeting, Seating, Table};
use crate::room::Room;
use crate::settings::now_ms;
use crate::shared::Server;
use crate::store::{RoomRow, StoreError};
use oaq_net::room::{Phase, RoomState};

/// A code no room has had, drawn from the OS's randomness.
fn fresh_code() -> String {
    let mut rng = rand::rng();
    (0..CODE_LEN)
        .map(|_| CODE_ALPHABET[rng.random_range(0..CODE_ALPHABET.len())] as char)
        .collect()
}

/// What a new room plays: the rule set (by its preset's name), the clock, who moves first,
/// and whether the lobby may list it.
#[derive(Clone, Debug)]
pub struct NewRoom {
    pub preset: String,
    pub rules: RuleSet,
    pub clock: ClockSpec,
    pub first: First,
    pub public: bool,
    /// No rating changes (a tournament's choice).
    pub unrated: bool,
    /// No chat (a tournament's choice).
    pub no_chat: bool,
}

pub use crate::policy::OpenRefused;

impl From<OpenRefused> for super::Refusal {
    fn from(e: OpenRefused) -> Self {
        match e {
            OpenRefused::Store(e) => super::Refusal::Store(e),
            OpenRefused::Hidden => super::Refusal::To(ErrorCode::NoSuchRoom, e.to_string()),
            other => super::Refusal::To(ErrorCode::NotAllowed, other.to_string()),
        }
    }
}

impl NewRoom {
    /// The table the policy seats players at for this room.
    pub fn table(&self) -> Table {
        Table {
            seats: usize::from(self.rules.players),
            clock: self.clock,
            first: self.first,
        }
    }
}

/// Seat `players` for `meeting` as the policy allows ([`policy::seat`]) and open the room:
/// the way every path opens one.
pub async fn seat_and_open(
    server: &Arc<Server>,
    meeting: Meeting,
    room: NewRoom,
    players: Vec<PlayerInfo>,
) -> Result<String, OpenRefused> {
    let seating = policy::seat(server, meeting, room.table(), players).await?;
    Ok(open_room(server, room, seating).await?)
}

/// Open a room with the players of `seating` in their seats (the creator alone, or every
/// player of a challenge, a pairing or a rematch, who then start at once in the seating's
/// order of play). Only the policy makes a [`Seating`]: whatever opens a room, its rules were
/// checked, under the players' locks, which the seating holds until the room is written.
/// Returns its code.
pub async fn open_room(
    server: &Arc<Server>,
    room: NewRoom,
    seating: Seating,
) -> Result<String, StoreError> {
    open_unchecked(server, room, &seating).await
}

async fn open_unchecked(
    server: &Arc<Server>,
    room: NewRoom,
    seating: &Seating,
) -> Result<String, StoreError> {
    let players = seating.players();
    let NewRoom {
        preset,
        rules,
        clock,
        first,
        public,
        unrated,
        no_chat,
    } = room;
    let players_n = usize::from(rules.players);
    for _attempt in 0..8 {
        let code = fresh_code();
        let opened = RoomEvent::Opened {
            code: code.clone(),
            preset: preset.clone(),
            rules,
            clock,
            first,
            public,
            at_ms: now_ms(),
            unrated,
            no_chat,
        };
        let mut state = RoomState::from_log(std::slice::from_ref(&opened))
            .map_err(|e| StoreError::Corrupt(e.0))?;
        let mut events = vec![opened];
        for (seat, player) in players.iter().enumerate() {
            events.push(RoomEvent::Seated {
                seat,
                player: player.clone(),
            });
        }
        if let Some(order) = seating.order() {
            events.push(RoomEvent::Started {
                order: order.to_vec(),
                clocks: clock.starting_clocks(players_n, server.settings.day_ms()),
                at_ms: now_ms(),
            });
        }
        let mut written = true;
        for (seq, event) in events.iter().enumerate() {
            if seq > 0 {
                state.apply(event).map_err(|e| StoreError::Corrupt(e.0))?;
            }
            let row = RoomRow::of(&state);
            match server
                .store
                .append(&code, seq as u64, event, &row, &[], now_ms())
                .await
            {
                Ok(()) => {}
                // The code was taken (one in 887 million): draw another.
                Err(StoreError::Conflict) if seq == 0 => {
                    written = false;
                    break;
                }
                Err(e) => return Err(e),
            }
        }
        if !written {
            continue;
        }
        let owner = match &server.cluster {
            Some(cluster) => cluster.own(&code, false).await,
            None => true,
        };
        let handle = Room::spawn(server.clone(), state, owner);
        server
            .rooms
            .lock()
            .await
            .insert(code.clone(), handle.clone());
        if clock.days().is_some() && players.len() == players_n {
            // Begun at once (a challenge): paused if one of them is on vacation.
            let _ = handle.tx.send(Command::Vacations).await;
        }
        return Ok(code);
    }
    Err(StoreError::Corrupt(
        "no free room code after 8 draws".into(),
    ))
}

/// The room called `code`, loaded here if need be; `None` when there is no such room.
pub async fn find(server: &Arc<Server>, code: &str) -> Result<Option<RoomHandle>, StoreError> {
    let mut rooms = server.rooms.lock().await;
    if let Some(handle) = rooms.get(code)
        && !handle.tx.is_closed()
    {
        return Ok(Some(handle.clone()));
    }
    let events = server.store.events(code, None).await?;
    if events.is_empty() {
        return Ok(None);
    }
    let state = RoomState::from_log(&events).map_err(|e| StoreError::Corrupt(e.0))?;
    let playing = state.phase == Phase::Playing;
    let owner = match &server.cluster {
        Some(cluster) => cluster.own(code, false).await,
        None => true,
    };
    let handle = Room::spawn(server.clone(), state, owner);
    rooms.insert(code.to_owned(), handle.clone());
    drop(rooms);
    if playing && owner {
        // Nobody kept this game's clocks: start them again from the last move.
        let _ = handle.tx.send(Command::Resume).await;
    }
    Ok(Some(handle))
}

/// What became of a command for a room.
pub enum Delivered<T> {
    /// The room took the command and answered `T`.
    Answered(RoomHandle, T),
    /// There is no such room.
    NoRoom,
    /// The room left memory three times as it was found: try again later.
    Unloaded,
}

/// Send room `code` the command `make` makes, with the receiver of its answer, loading the
/// room if need be, and wait for the answer. A room task may be leaving memory just as it is
/// found (the command is not taken, or the task stops before it answers): then the room is
/// loaded again and sent a new command, three times at most. Every way in (a connection, the
/// bot API's actions and streams) reaches a room through here.
pub async fn deliver<T>(
    server: &Arc<Server>,
    code: &str,
    mut make: impl FnMut() -> (Command, tokio::sync::oneshot::Receiver<T>),
) -> Result<Delivered<T>, StoreError> {
    for _ in 0..3 {
        let Some(room) = find(server, code).await? else {
            return Ok(Delivered::NoRoom);
        };
        let (command, answer) = make();
        if room.tx.send(command).await.is_err() {
            continue;
        }
        if let Ok(answer) = answer.await {
            return Ok(Delivered::Answered(room, answer));
        }
    }
    Ok(Delivered::Unloaded)
}

/// Bring back every game in progress (after a restart), so their clocks run again.
pub async fn resume_all(server: &Arc<Server>) -> Result<usize, StoreError> {
    let codes = server.store.playing_rooms().await?;
    for code in &codes {
        find(server, code).await?;
    }
    Ok(codes.len())
}
