//! A room: one task per room on each node that has it loaded, taking its commands one at a time.
//! Each command is checked against the room's state, what it decides is written to the store
//! first and only then applied and sent to everyone in the room (write-ahead), so nothing a
//! player was told is lost to a crash. On several nodes a short lease in Redis makes one node at
//! a time the writer, and the store's key on (room, seq) makes a sequence number be written once.

mod actions;
pub mod correspondence;
mod fanout;
mod presence;
pub mod registry;

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use oaq_net::protocol::{ErrorCode, Notice, RoomEvent, Sequenced, ServerMessage};
use tokio::sync::mpsc;
use tokio::time::{Instant, sleep_until};

use crate::mailbox::{Action, Command, ConnRef, Frame, RoomHandle};
use crate::settings::now_ms;
use crate::shared::Server;
use crate::store::{RoomRow, StoreError};
use fanout::Subscribers;
use oaq_net::room::{self as state, RoomState};

/// Events kept in memory for clients that come back; older gaps get the whole log.
const TAIL: usize = 64;

/// A room's task.
pub struct Room {
    server: Arc<Server>,
    state: RoomState,
    tail: VecDeque<(u64, Frame)>,
    subs: Subscribers,
    rx: mpsc::Receiver<Command>,
    /// This task's own mailbox, for the cluster's fan-out (weak: it does not keep the room).
    me: mpsc::WeakSender<Command>,
    generation: u64,
    /// Whether this node keeps the room's clocks (its owner).
    owner: bool,
    /// After a failed timed write: not before this.
    retry_at: Option<Instant>,
    /// Departures kept out of the log within a claim period ([`presence`]).
    presence: presence::Presence,
}

/// Why a command could not be carried out.
pub enum Refusal {
    To(ErrorCode, String),
    /// `illegal_move`, with the moves that are legal.
    Legal(String, Vec<String>),
    /// The store failed: nothing was written.
    Store(StoreError),
}

impl From<StoreError> for Refusal {
    fn from(e: StoreError) -> Self {
        Refusal::Store(e)
    }
}

pub type Decided = Result<(), Refusal>;

impl Room {
    /// Start the task of a room whose log is `state` (already stored).
    pub fn spawn(server: Arc<Server>, state: RoomState, owner: bool) -> RoomHandle {
        let state_players = state.rules.players;
        let (tx, rx) = mpsc::channel(256);
        let generation = server.next_id();
        let room = Room {
            server,
            state,
            tail: VecDeque::new(),
            subs: Subscribers::default(),
            rx,
            me: tx.downgrade(),
            generation,
            owner,
            retry_at: None,
            presence: presence::Presence::new(usize::from(state_players)),
        };
        tokio::spawn(room.run());
        RoomHandle { tx, generation }
    }

    async fn run(mut self) {
        if let Some(cluster) = self.server.cluster.clone() {
            cluster.follow(&self.state.code, self.me.clone()).await;
        }
        let mut lease_tick = tokio::time::interval(Duration::from_secs(3));
        loop {
            let deadline = self.deadline();
            let command = tokio::select! {
                c = self.rx.recv() => c,
                _ = sleep_until(deadline.unwrap_or_else(far_future)), if deadline.is_some() => {
                    self.on_timer().await;
                    continue;
                }
                _ = lease_tick.tick(), if self.server.cluster.is_some() => {
                    self.keep_lease().await;
                    continue;
                }
            };
            let Some(command) = command else { break };
            match command {
                Command::Join {
                    conn,
                    since,
                    watch,
                    done,
                } => {
                    let ok = self.join(conn, since, watch).await;
                    let _ = done.send(ok);
                }
                Command::Leave { conn, switching } => self.leave(conn, true, switching).await,
                Command::Gone { conn } => self.leave(conn, false, false).await,
                Command::Act { conn, action } => self.act(conn, action).await,
                Command::ActAs {
                    player,
                    action,
                    reply,
                } => {
                    let answer = self.act_as(&player, action).await;
                    let _ = reply.send(answer);
                }
                Command::Remote(ev) => self.remote(ev).await,
                Command::CatchUp => {
                    if let Err(e) = self.sync_from_store().await {
                        tracing::warn!(room = %self.state.code, "catching up: {e}");
                    }
                }
                Command::Resume => self.resume().await,
                Command::Expel { player } => self.expel(&player).await,
                Command::Vacations => self.on_vacations().await,
                Command::Peek { player, reply } => {
                    let _ = reply.send(self.peek(&player));
                }
                Command::Stop => break,
            }
            if self.idle() {
                break;
            }
        }
        self.unload().await;
    }

    /// A room nobody is in and whose clocks this node does not keep can leave memory (the
    /// store has it).
    fn idle(&self) -> bool {
        self.subs.is_empty() && (self.state.phase != state::Phase::Playing || !self.owner)
    }

    async fn unload(&mut self) {
        let mut rooms = self.server.rooms.lock().await;
        if rooms
            .get(&self.state.code)
            .is_some_and(|h| h.generation == self.generation)
        {
            rooms.remove(&self.state.code);
        }
        drop(rooms);
        if let Some(cluster) = &self.server.cluster {
            cluster.unfollow(&self.state.code, self.owner).await;
        }
    }

    /// Write `event` as the room's next, then apply it and send it to everyone in the room.
    async fn commit(&mut self, event: RoomEvent) -> Result<u64, StoreError> {
        self.commit_rated(event, &[]).await
    }

    async fn commit_rated(
        &mut self,
        event: RoomEvent,
        ratings: &[(String, crate::ratings::Rating)],
    ) -> Result<u64, StoreError> {
        let seq = self.state.next_seq;
        let mut after = self.state.clone();
        if let Err(e) = after.apply(&event) {
            // The room decided something its own log refuses: a bug, never written.
            tracing::error!(room = %self.state.code, "refused own event: {}", e.0);
            return Err(StoreError::Corrupt(e.0));
        }
        let row = RoomRow::of(&after);
        self.server
            .store
            .append(&self.state.code, seq, &event, &row, ratings, now_ms())
            .await?;
        self.state = after;
        if matches!(event, RoomEvent::Moved { .. }) {
            self.server
                .counters
                .moves
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            self.server.metrics.moves.inc();
        }
        let sequenced = Sequenced {
            code: self.state.code.clone(),
            seq,
            event,
        };
        if let Some(cluster) = &self.server.cluster {
            cluster.publish(&sequenced).await;
        }
        self.broadcast(seq, ServerMessage::Room(sequenced).to_json().into());
        Ok(seq)
    }

    fn broadcast(&mut self, seq: u64, frame: Frame) {
        self.subs.send_all(&frame);
        self.tail.push_back((seq, frame));
        if self.tail.len() > TAIL {
            self.tail.pop_front();
        }
    }

    /// Send `conn` what it missed after `since`: the events themselves when this node still
    /// has them, else the whole log.
    async fn catch_up(&self, conn: &ConnRef, since: Option<u64>) -> Result<(), StoreError> {
        let next = self.state.next_seq;
        if let Some(since) = since {
            if since.saturating_add(1) >= next {
                return Ok(());
            }
            if let Some(&(first, _)) = self.tail.front()
                && first <= since.saturating_add(1)
            {
                for (_, frame) in self.tail.iter().filter(|(s, _)| *s > since) {
                    conn.send(frame.clone());
                }
                return Ok(());
            }
        }
        let events = self.server.store.events(&self.state.code, None).await?;
        let you = self.state.seat_of_player(&conn.player.id);
        conn.reply(&ServerMessage::Notice(Notice::Snapshot {
            code: self.state.code.clone(),
            seq: next - 1,
            events,
            you,
            clocks: self.state.clocks_at(now_ms()),
        }));
        Ok(())
    }

    /// With other nodes: take the room's write lease and read what they wrote meanwhile. Alone:
    /// nothing to do, this task is the only writer.
    async fn lease(&mut self) -> Result<Option<crate::cluster::Lease>, Refusal> {
        let Some(cluster) = self.server.cluster.clone() else {
            return Ok(None);
        };
        let lease = cluster
            .lock(&self.state.code)
            .await
            .map_err(|e| Refusal::To(ErrorCode::Unavailable, e))?;
        self.sync_from_store().await?;
        Ok(Some(lease))
    }

    async fn release(&self, lease: Option<crate::cluster::Lease>) {
        if let (Some(cluster), Some(lease)) = (&self.server.cluster, lease) {
            cluster.unlock(lease).await;
        }
    }

    /// Apply and pass on the events of the store this node has not seen.
    async fn sync_from_store(&mut self) -> Result<(), StoreError> {
        let after = self.state.next_seq - 1;
        let events = self
            .server
            .store
            .events(&self.state.code, Some(after))
            .await?;
        for event in events {
            let seq = self.state.next_seq;
            if let Err(e) = self.state.apply(&event) {
                return Err(StoreError::Corrupt(e.0));
            }
            let frame: Frame = ServerMessage::Room(Sequenced {
                code: self.state.code.clone(),
                seq,
                event,
            })
            .to_json()
            .into();
            self.broadcast(seq, frame);
        }
        Ok(())
    }

    async fn remote(&mut self, ev: Sequenced) {
        if ev.seq < self.state.next_seq {
            return;
        }
        if ev.seq == self.state.next_seq && self.state.apply(&ev.event).is_ok() {
            let seq = ev.seq;
            self.broadcast(seq, ServerMessage::Room(ev).to_json().into());
            return;
        }
        if let Err(e) = self.sync_from_store().await {
            tracing::warn!(room = %self.state.code, "catching up: {e}");
        }
    }

    /// The owner renews its claim; another node takes over a room whose owner is gone.
    async fn keep_lease(&mut self) {
        let Some(cluster) = self.server.cluster.clone() else {
            return;
        };
        let was_owner = self.owner;
        self.owner = cluster.own(&self.state.code, was_owner).await;
        if self.owner && !was_owner {
            tracing::info!(room = %self.state.code, "took over the room's clocks");
            self.resume().await;
        }
    }

    /// Start the clocks again from where the last move left them (the time the room was not
    /// kept by any server is nobody's).
    async fn resume(&mut self) {
        if self.state.phase != state::Phase::Playing {
            return;
        }
        if self.state.clock_spec.days().is_some() {
            // A correspondence clock runs in calendar time, kept or not: a restart changes
            // nothing (the log's stamps say when each turn began), but a vacation may have
            // begun or ended meanwhile.
            self.on_vacations().await;
            return;
        }
        let lease = match self.lease().await {
            Ok(l) => l,
            Err(_) => return,
        };
        let now = now_ms();
        if let Err(e) = self.commit(RoomEvent::Resumed { at_ms: now }).await {
            tracing::warn!(room = %self.state.code, "resuming: {e}");
        }
        // Alone, this node had every connection: a seated player not back in the room is
        // away from now (else her opponent could never claim). With other nodes she may be
        // connected to another: that node says so when her connection goes.
        if self.server.cluster.is_none() {
            for seat in 0..self.state.players() {
                if self.state.seats[seat].is_some()
                    && self.state.away[seat].is_none()
                    && !self.subs.holds(seat)
                    && let Err(e) = self.commit(RoomEvent::Away { seat, at_ms: now }).await
                {
                    tracing::warn!(room = %self.state.code, "marking seat {seat} away: {e}");
                }
            }
        }
        self.release(lease).await;
    }

    /// When the room must act by itself: a flag falling, the first moves taking too long.
    fn deadline(&self) -> Option<Instant> {
        if !self.owner || self.state.phase != state::Phase::Playing {
            return None;
        }
        let every_ms = self.server.settings.claim_after.as_millis() as i64;
        let due = self.presence.due_ms(every_ms);
        let at = match (
            actions::deadline_ms(&self.state, &self.server.settings),
            due,
        ) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => a.or(b)?,
        };
        let wait = (at - now_ms()).max(0) as u64;
        let at = Instant::now() + Duration::from_millis(wait);
        Some(self.retry_at.map_or(at, |r| at.max(r)))
    }
}

fn far_future() -> Instant {
    Instant::now() + Duration::from_secs(86_400)
}
