//! Who may sit with whom. A room opens with players seated only from a [`Seating`], which
//! only [`seat`] makes, after every rule below, under the players' locks (held by the seating
//! until the room is written, so that two rooms opened at once cannot both pass a cap):
//!
//! - nobody shares a new room with a player either of them blocks;
//! - a child (child mode) never sits with a bot, is never pooled, never takes a seat in a room
//!   open to everyone, and is challenged and paired in tournaments only by friends;
//! - a bot sits only where bots were chosen: a challenge, a rematch of its game, a tournament
//!   that lets bots in; never in a pool's, a lobby's or a people-only tournament's game;
//! - a banned player takes no new seat;
//! - the caps: rooms waiting for players, games by days;
//! - the first mover follows `First`, a random one drawn here.
//!
//! Every fact is read from the store as it is now, not as a connection remembers it: a player
//! who turned child mode on, or became a bot, a moment ago is what counts.

use std::collections::HashSet;
use std::sync::Arc;

use oaq_net::protocol::{ClockSpec, ErrorCode, First, PlayerInfo};
use oaq_net::room::RoomState;
use rand::seq::SliceRandom;

use crate::limits::KeyedGuards;
use crate::refused::{Refused, refused};
use crate::settings::now_ms;
use crate::shared::Server;
use crate::store::{Standing, StoreError};

/// The way players meet: what decides who may sit with whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Meeting {
    /// A room of one's own, its creator seated alone (`public`: the lobby lists it).
    OwnRoom { public: bool },
    /// Quick pairing: strangers, by rating.
    Pool,
    /// A challenge accepted.
    Challenge,
    /// A rematch of a game the same players just played.
    Rematch,
    /// A tournament's pairing (`bots`: its organiser lets bots in).
    Tournament { bots: bool },
}

impl Meeting {
    /// Whether a bot may sit in this meeting's games.
    fn bots_welcome(self) -> bool {
        matches!(
            self,
            Meeting::Challenge | Meeting::Rematch | Meeting::Tournament { bots: true }
        )
    }
}

/// The table a seating is for: its seats, its clock, who moves first.
#[derive(Clone, Copy, Debug)]
pub struct Table {
    pub seats: usize,
    pub clock: ClockSpec,
    pub first: First,
}

/// Why players were not seated. Refusals name no ids.
#[derive(Debug)]
pub enum OpenRefused {
    /// A cap of one of the players (named in the text: "you are", "they are").
    Cap(String),
    /// Two of the players block one another.
    Blocked,
    /// A rule of who meets whom (child mode, bots, a ban), said in words.
    NotAllowed(String),
    /// The room is not there for this player (a block: it reads as no room at all).
    Hidden,
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
            OpenRefused::Cap(why) | OpenRefused::NotAllowed(why) => f.write_str(why),
            OpenRefused::Blocked => f.write_str("these players cannot play one another"),
            OpenRefused::Hidden => f.write_str("that room is not there"),
            OpenRefused::Store(e) => write!(f, "{e}"),
        }
    }
}

impl From<OpenRefused> for Refused {
    fn from(e: OpenRefused) -> Self {
        match e {
            OpenRefused::Store(e) => Refused::Store(e),
            OpenRefused::Hidden => refused(ErrorCode::NoSuchRoom, e.to_string()),
            other => refused(ErrorCode::NotAllowed, other.to_string()),
        }
    }
}

/// Players allowed to sit together in a new room, in their seats' order, with the order of
/// play once every seat is taken. Only [`seat`] makes one; the players' locks are held until it
/// is dropped (after the room is written).
#[must_use = "a seating opens a room: pass it to `registry::open_room`"]
pub struct Seating {
    players: Vec<PlayerInfo>,
    order: Option<Vec<usize>>,
    _locks: KeyedGuards,
}

impl Seating {
    /// The players, by seat.
    pub fn players(&self) -> &[PlayerInfo] {
        &self.players
    }

    /// The order of play (seats, first mover first) when every seat is taken; `None` while
    /// the room waits for players.
    pub fn order(&self) -> Option<&[usize]> {
        self.order.as_deref()
    }
}

/// A free seat that `player` may take: their lock is held until it is dropped (after the
/// seat is written).
#[must_use = "hold it while the seat is written"]
pub struct SeatTaken {
    _locks: KeyedGuards,
}

/// The order of play for `n` seats, as `first` says (the creator is seat 0).
fn order_of(n: usize, first: First) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    match first {
        First::Me => {}
        First::Them => order.rotate_left(1),
        First::Random => order.shuffle(&mut rand::rng()),
    }
    order
}

/// Each player's standing now; a player gone from the store cannot be seated.
async fn standings(server: &Server, players: &[PlayerInfo]) -> Result<Vec<Standing>, OpenRefused> {
    let now = now_ms();
    let mut all = Vec::with_capacity(players.len());
    for p in players {
        match server.store.standing(&p.id, now).await? {
            Some(s) => all.push(s),
            None => return Err(OpenRefused::NotAllowed("that player is not there".into())),
        }
    }
    Ok(all)
}

/// Whether a child and another player may meet in `meeting`: never a bot; a friend where a
/// friendship is asked for.
async fn child_may_meet(
    server: &Server,
    meeting: Meeting,
    child: &str,
    other: &str,
    other_is: Standing,
) -> Result<bool, StoreError> {
    if other_is.bot {
        return Ok(false);
    }
    match meeting {
        Meeting::Pool | Meeting::OwnRoom { public: true } => Ok(false),
        // They sat together already (a room's code was given by hand).
        Meeting::Rematch | Meeting::OwnRoom { public: false } => Ok(true),
        Meeting::Challenge | Meeting::Tournament { .. } => {
            server.store.are_friends(child, other).await
        }
    }
}

/// What a player's own standing allows in `meeting`, whoever the others are: no banned
/// player; no bot where bots were not chosen; no child in a pool or alone in a room open to
/// everyone. `asker`: the player who asked (named "you" in the refusal).
fn standing_allows(meeting: Meeting, is: Standing, asker: bool) -> Result<(), OpenRefused> {
    let who = if asker {
        "you"
    } else {
        "a player of this game"
    };
    if is.banned {
        return Err(OpenRefused::NotAllowed(format!(
            "{who}: banned by the operators"
        )));
    }
    if is.bot && !meeting.bots_welcome() {
        return Err(OpenRefused::NotAllowed(
            "bots play by challenges and in tournaments that let them in, not here".into(),
        ));
    }
    if is.child && matches!(meeting, Meeting::OwnRoom { public: true }) {
        return Err(OpenRefused::NotAllowed(
            "child mode: rooms are private; share the code with a friend".into(),
        ));
    }
    if is.child && meeting == Meeting::Pool {
        return Err(OpenRefused::NotAllowed(
            "child mode: no games with strangers; play friends by their code".into(),
        ));
    }
    Ok(())
}

/// Whether `player` may meet anyone in `meeting` at all, asked before anything is changed for
/// them (leaving a room, the pool): the part of [`seat`] that depends on them alone.
pub async fn may_meet(
    server: &Server,
    meeting: Meeting,
    player: &PlayerInfo,
) -> Result<(), OpenRefused> {
    let is = standings(server, std::slice::from_ref(player)).await?[0];
    standing_allows(meeting, is, true)
}

/// Seat `players` together for `meeting` at `table`, if every rule allows it: the only way to
/// a [`Seating`].
pub async fn seat(
    server: &Arc<Server>,
    meeting: Meeting,
    table: Table,
    players: Vec<PlayerInfo>,
) -> Result<Seating, OpenRefused> {
    let ids: Vec<&str> = players.iter().map(|p| p.id.as_str()).collect();
    let locks = server.player_locks.lock(&ids).await;
    if server.store.any_blocked(&ids).await? {
        return Err(OpenRefused::Blocked);
    }
    let standing = standings(server, &players).await?;
    for (i, (player, is)) in players.iter().zip(&standing).enumerate() {
        standing_allows(meeting, *is, i == 0)?;
        if is.child {
            for (j, (other, other_is)) in players.iter().zip(&standing).enumerate() {
                if i != j
                    && !child_may_meet(server, meeting, &player.id, &other.id, *other_is).await?
                {
                    return Err(OpenRefused::NotAllowed(
                        "child mode: a child plays friends only, and never a bot".into(),
                    ));
                }
            }
        }
    }
    check_caps(server, table, &ids).await?;
    let order = (players.len() == table.seats).then(|| order_of(table.seats, table.first));
    Ok(Seating {
        players,
        order,
        _locks: locks,
    })
}

/// The caps of `ids` for one more room at `table` (one that waits, when not every seat is
/// taken). The caller holds their locks.
async fn check_caps(server: &Server, table: Table, ids: &[&str]) -> Result<(), OpenRefused> {
    let store = &server.store;
    let settings = &server.settings;
    let waiting = ids.len() < table.seats;
    for (i, id) in ids.iter().enumerate() {
        let who = if i == 0 { "you are" } else { "they are" };
        if table.clock.days().is_some() {
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

/// Whether `player` may take a free seat of the waiting room `state`: no block with a player
/// seated (the room reads as not there), no child in a room open to everyone, no bot (a bot
/// sits only where it was seated) and nobody with a player who has since become a bot or been
/// banned, and the caps. Their lock is held by the answer.
pub async fn may_take_seat(
    server: &Arc<Server>,
    state: &RoomState,
    player: &PlayerInfo,
) -> Result<SeatTaken, OpenRefused> {
    let locks = server.player_locks.lock(&[player.id.as_str()]).await;
    let store = &server.store;
    for seated in state.seats.iter().flatten() {
        if store.blocked_between(&seated.id, &player.id).await? {
            return Err(OpenRefused::Hidden);
        }
    }
    let seated: Vec<PlayerInfo> = state.seats.iter().flatten().cloned().collect();
    let me = standings(server, std::slice::from_ref(player)).await?[0];
    if me.banned {
        return Err(OpenRefused::NotAllowed(
            "you: banned by the operators".into(),
        ));
    }
    if me.child && state.public {
        return Err(OpenRefused::NotAllowed(
            "child mode: rooms open to everyone are not for children; play friends by their code"
                .into(),
        ));
    }
    if me.bot {
        return Err(OpenRefused::NotAllowed(
            "bots play by challenges (the bot API), not in rooms of their own".into(),
        ));
    }
    for is in standings(server, &seated).await? {
        if is.bot || is.banned || (is.child && state.public) {
            return Err(OpenRefused::NotAllowed(
                "this room is no longer open: its player cannot play here now".into(),
            ));
        }
    }
    let table = Table {
        seats: usize::from(state.rules.players),
        clock: state.clock_spec,
        first: state.first,
    };
    // Taking a free seat never makes a new waiting room: only the games by days count.
    let table = Table {
        seats: 1.min(table.seats),
        ..table
    };
    check_caps(server, table, &[player.id.as_str()]).await?;
    Ok(SeatTaken { _locks: locks })
}

/// Whether `from` may challenge `to` (both as the store has them now): never across a block,
/// never a banned player, a child only a friend and never a bot; otherwise a friend, a past
/// opponent, or any bot.
pub async fn may_challenge(
    server: &Server,
    from: &PlayerInfo,
    to: &PlayerInfo,
) -> Result<bool, StoreError> {
    let store = &server.store;
    if store.blocked_between(&from.id, &to.id).await? {
        return Ok(false);
    }
    let now = now_ms();
    let (Some(a), Some(b)) = (
        store.standing(&from.id, now).await?,
        store.standing(&to.id, now).await?,
    ) else {
        return Ok(false);
    };
    if a.banned || b.banned {
        return Ok(false);
    }
    let friends = store.are_friends(&from.id, &to.id).await?;
    if a.child || b.child {
        return Ok(friends && !a.bot && !b.bot);
    }
    Ok(friends || b.bot || store.played_together(&from.id, &to.id).await?)
}

/// Pairs of players (by index, lower first) who must not be paired in `meeting`.
pub type Apart = HashSet<(usize, usize)>;

/// Who may not meet whom among `players` for `meeting` (a pool's wave, a tournament's
/// round): a block, a child and a stranger or a bot, a bot where bots are not welcome, a
/// banned player.
pub async fn apart<S: AsRef<str>>(
    server: &Server,
    meeting: Meeting,
    players: &[S],
) -> Result<Apart, StoreError> {
    let players: Vec<&str> = players.iter().map(AsRef::as_ref).collect();
    let now = now_ms();
    let mut standing = Vec::with_capacity(players.len());
    for p in &players {
        standing.push(server.store.standing(p, now).await?.unwrap_or(Standing {
            banned: true,
            ..Standing::default()
        }));
    }
    let mut blocks = Vec::with_capacity(players.len());
    for p in &players {
        let theirs: HashSet<String> = server.store.blocks_of(p).await?.into_iter().collect();
        blocks.push(theirs);
    }
    let mut apart = Apart::new();
    for (a, pa) in players.iter().enumerate() {
        for (b, pb) in players.iter().enumerate().skip(a + 1) {
            let (sa, sb) = (standing[a], standing[b]);
            let never = sa.banned
                || sb.banned
                || ((sa.bot || sb.bot) && !meeting.bots_welcome())
                || blocks[a].contains(*pb)
                || blocks[b].contains(*pa);
            let child_apart = (sa.child && !child_may_meet(server, meeting, pa, pb, sb).await?)
                || (sb.child && !child_may_meet(server, meeting, pb, pa, sa).await?);
            if never || child_apart {
                apart.insert((a, b));
            }
        }
    }
    Ok(apart)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_order_of_play_follows_first() {
        assert_eq!(order_of(2, First::Me), vec![0, 1]);
        assert_eq!(order_of(2, First::Them), vec![1, 0]);
        assert_eq!(order_of(3, First::Them), vec![1, 2, 0]);
        let firsts: usize = (0..400)
            .filter(|_| order_of(2, First::Random)[0] == 0)
            .count();
        assert!(
            (120..=280).contains(&firsts),
            "seat 0 first {firsts} times of 400"
        );
    }
}
