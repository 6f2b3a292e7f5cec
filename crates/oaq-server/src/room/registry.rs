//! The rooms of this node: opening new ones under fresh codes, and finding a room by its code,
//! loading it from the store (and bringing its clocks back) when it is not in memory.

use std::sync::Arc;

use oaq_net::protocol::{
    CODE_ALPHABET, CODE_LEN, ClockSpec, ErrorCode, First, PlayerInfo, RoomEvent,
};
use oaq_rules::RuleSet;
use rand::RngExt;

use crate::mailbox::{Command, RoomHandle};
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

/// Why a room was not opened.
#[derive(Debug)]
pub enum OpenRefused {
    /// A cap of one of the players (named in the text: "you are", "they are").
    Cap(String),
    /// Two of the players block one another.
    Blocked,
    Store(StoreError),
}

impl From<StoreError> for OpenRefused {
    fn from(e: StoreError) -> Self {
        OpenRefused::Store(e)
    }
}

impl std::fmt::Display for OpenRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenRefused::Cap(why) => f.write_str(why),
            OpenRefused::Blocked => f.write_str("these players cannot play one another"),
            OpenRefused::Store(e) => write!(f, "{e}"),
        }
    }
}

impl From<OpenRefused> for crate::refused::Refused {
    fn from(e: OpenRefused) -> Self {
        match e {
            OpenRefused::Store(e) => crate::refused::Refused::Store(e),
            other => crate::refused::refused(ErrorCode::NotAllowed, other.to_string()),
        }
    }
}

impl From<OpenRefused> for super::Refusal {
    fn from(e: OpenRefused) -> Self {
        match e {
            OpenRefused::Store(e) => super::Refusal::Store(e),
            other => super::Refusal::To(ErrorCode::NotAllowed, other.to_string()),
        }
    }
}

/// Whether `players` may sit in one more room of `clock` (one that waits, when `waiting`):
/// no two of them block one another, and none is past a cap. The caller holds their locks.
pub async fn may_open(
    server: &Server,
    clock: ClockSpec,
    waiting: bool,
    players: &[PlayerInfo],
) -> Result<(), OpenRefused> {
    let store = &server.store;
    let ids: Vec<&str> = players.iter().map(|p| p.id.as_str()).collect();
    if store.any_blocked(&ids).await? {
        return Err(OpenRefused::Blocked);
    }
    let settings = &server.settings;
    for (i, id) in ids.iter().enumerate() {
        let who = if i == 0 { "you are" } else { "they are" };
        if clock.days().is_some() {
            let n = store.correspondence_rooms_of(id).await?.len() as u64;
            if n >= settings.correspondence_per_player {
                return Err(OpenRefused::Cap(format!(
                    "{who} in {n} correspondence games, the most at once: finish one first"
                )));
            }
        }
        if waiting {
            let n = store.waiting_rooms_of(id).await?;
            let cap = settings.waiting_rooms_per_player;
            if n >= cap {
                return Err(OpenRefused::Cap(format!(
                    "{who} in {n} rooms waiting for players (at most {cap}): play or leave one first"
                )));
            }
        }
    }
    Ok(())
}

/// Open a room and seat `players` in it in order (the creator alone, or both players of a
/// challenge, a pairing or a rematch, who then start at once), if [`may_open`] allows it:
/// whatever opens a room, its caps and blocks are checked here, under the players' locks, so
/// two rooms opened at once cannot both pass a cap. Returns its code.
pub async fn open_room(
    server: &Arc<Server>,
    room: NewRoom,
    players: &[PlayerInfo],
) -> Result<String, OpenRefused> {
    let ids: Vec<&str> = players.iter().map(|p| p.id.as_str()).collect();
    let _held = server.player_locks.lock(&ids).await;
    let waiting = players.len() < usize::from(room.rules.players);
    may_open(server, room.clock, waiting, players).await?;
    Ok(open_unchecked(server, room, players).await?)
}

async fn open_unchecked(
    server: &Arc<Server>,
    room: NewRoom,
    players: &[PlayerInfo],
) -> Result<String, StoreError> {
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
        if players.len() == players_n {
            events.push(RoomEvent::Started {
                order: (0..players_n).collect(),
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

/// Bring back every game in progress (after a restart), so their clocks run again.
pub async fn resume_all(server: &Arc<Server>) -> Result<usize, StoreError> {
    let codes = server.store.playing_rooms().await?;
    for code in &codes {
        find(server, code).await?;
    }
    Ok(codes.len())
}
