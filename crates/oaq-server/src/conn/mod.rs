//! One WebSocket connection: `hello` first, then lobby, room, account and social commands, each
//! answered or refused with a typed error. The server pings; a connection silent for two pings is
//! dropped and its seat stays held. A refused message changes nothing.
//!
//! Devices, friends, presence, challenges, profiles, chat, child mode and moderation, as the
//! server keeps them: docs/server.md ("Players who know each other").

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use axum::extract::ws::{CloseFrame, Message, WebSocket, close_code};
use futures_util::{SinkExt, StreamExt};
use oaq_net::protocol::{
    ClientMessage, ErrorCode, HELLO_WAITS_MS, MAX_FRAME, MAX_SERVER_FRAME, Notice, PROTOCOL,
    ServerMessage, parse_client,
};
use tokio::sync::{Notify, mpsc};

mod account;
mod bots;
pub(crate) mod correspondence;
mod notify;
mod pairing;
mod people;
mod rooms;
mod tournaments;
mod training;

use crate::hub::Member;
use crate::identity;
use crate::limits::Bucket;
use crate::mailbox::{Action, Command, ConnRef, Frame, RoomHandle};
use crate::settings::now_ms;
use crate::shared::Server;

/// Frames waiting to go out to one connection; a connection this far behind is closed.
const OUTBOX: usize = 256;
/// Refusals for rate after which the connection is closed.
const MAX_RATE_REFUSALS: u32 = 50;

struct Conn {
    server: Arc<Server>,
    addr: SocketAddr,
    me: Option<ConnRef>,
    room: Option<(String, RoomHandle)>,
    tx: mpsc::Sender<Frame>,
    close: Arc<Notify>,
    id: u64,
    /// This device's id in the player's list.
    device: String,
    /// Chat phrases, counted apart from other messages.
    chat: Bucket,
    /// The client's hello said it reads batches: frames waiting together go as one.
    batches: bool,
    /// What goes out waits for the frames the hello said follow it: how many are still to
    /// come, and until when it waits for them.
    hold: Option<(u8, tokio::time::Instant)>,
}

pub async fn serve(socket: WebSocket, server: Arc<Server>, addr: SocketAddr) {
    server.counters.connections.fetch_add(1, Ordering::Relaxed);
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::channel::<Frame>(OUTBOX);
    let close = Arc::new(Notify::new());
    let mut conn = Conn {
        id: server.next_id(),
        server: server.clone(),
        addr,
        me: None,
        room: None,
        tx,
        close: close.clone(),
        device: String::new(),
        chat: Bucket::new(server.settings.chat_per_second, server.settings.chat_burst),
        batches: false,
        hold: None,
    };
    let settings = server.settings.clone();
    let mut bucket = Bucket::new(settings.messages_per_second, settings.message_burst);
    let mut rate_refusals = 0;
    let mut ping = tokio::time::interval(settings.ping_every);
    ping.tick().await;
    let mut heard = Instant::now();
    let mut stopping = server.stopping.clone();
    // A connection that has not said `hello` in time is closed: it holds a place for nobody.
    let hello_by = tokio::time::Instant::now() + settings.handshake;
    loop {
        tokio::select! {
            // What the client has already sent is taken before what waits to go out: a hello
            // and a join sent together are answered together (one batch, for a client that
            // reads them), not the welcome alone a frame before the room.
            biased;
            incoming = stream.next() => {
                let Some(Ok(msg)) = incoming else { break };
                heard = Instant::now();
                if matches!(msg, Message::Close(_)) {
                    break;
                }
                // Every frame the client chooses to send is counted, whatever its kind: by the
                // rate bucket, and against the frames its hello said would follow it.
                let chosen = !matches!(msg, Message::Pong(_));
                if chosen {
                    conn.hold = conn.hold.and_then(|(n, until)| (n > 1).then_some((n - 1, until)));
                }
                if chosen && !bucket.take() {
                    rate_refusals += 1;
                    conn.error(ErrorCode::RateLimited, format!(
                        "more than {} messages a second", settings.messages_per_second));
                    if rate_refusals >= MAX_RATE_REFUSALS {
                        break;
                    }
                    continue;
                }
                let text = match msg {
                    Message::Text(text) => text,
                    Message::Binary(bytes) => {
                        conn.error(ErrorCode::BadMessage, format!(
                            "a binary frame of {} bytes: the protocol is JSON text", bytes.len()));
                        continue;
                    }
                    _ => continue,
                };
                match parse_client(&text) {
                    Ok(msg) => conn.handle(msg).await,
                    Err((code, message)) => conn.error(code, message),
                }
            }
            Some(frame) = rx.recv(), if conn.hold.is_none() => {
                if send_waiting(&mut sink, frame, &mut rx, conn.batches).await.is_err() {
                    break;
                }
            }
            _ = tokio::time::sleep_until(conn.hold.map_or(hello_by, |(_, until)| until)),
                if conn.hold.is_some() => {
                conn.hold = None;
            }
            _ = ping.tick() => {
                if heard.elapsed() > 2 * settings.ping_every {
                    tracing::debug!(%addr, "silent for two pings: dropped");
                    break;
                }
                if sink.send(Message::Ping(Default::default())).await.is_err() {
                    break;
                }
            }
            _ = tokio::time::sleep_until(hello_by), if conn.me.is_none() => {
                tracing::debug!(%addr, "no `hello` in time: closed");
                server.metrics.turned_away("handshake");
                let _ = sink.send(Message::Close(Some(CloseFrame {
                    code: close_code::POLICY,
                    reason: "no hello in time".into(),
                }))).await;
                break;
            }
            _ = close.notified() => {
                tracing::debug!(%addr, "too slow to take its frames: closed");
                break;
            }
            _ = stopping.changed() => {
                // Stopping: say so, then close; the client connects again and catches up.
                let bye = ServerMessage::Notice(Notice::Reconnect { after_ms: 1_000 });
                let _ = sink.send(Message::Text(bye.to_json().into())).await;
                let _ = sink.send(Message::Close(Some(CloseFrame {
                    code: close_code::RESTART,
                    reason: "server restarting".into(),
                }))).await;
                break;
            }
        }
    }
    // What was already answered still goes out (a refusal's reason, the last events), as long
    // as the other end takes it promptly.
    let flush = async {
        while let Ok(frame) = rx.try_recv() {
            if sink.send(Message::Text(frame)).await.is_err() {
                return;
            }
        }
        let _ = sink.close().await;
        // Read what the client still sends until it closes too: closing with unread data
        // would reset the connection and lose the frames just sent.
        while let Some(Ok(_)) = stream.next().await {}
    };
    let _ = tokio::time::timeout(std::time::Duration::from_secs(2), flush).await;
    conn.gone().await;
    server.counters.connections.fetch_sub(1, Ordering::Relaxed);
}

/// Send `first` and, to a client that reads batches, whatever else waits in `rx` now, as few
/// frames as `MAX_SERVER_FRAME` allows (a JSON array of the messages; one alone goes as itself).
async fn send_waiting(
    sink: &mut futures_util::stream::SplitSink<WebSocket, Message>,
    first: Frame,
    rx: &mut mpsc::Receiver<Frame>,
    batches: bool,
) -> Result<(), axum::Error> {
    if !batches {
        return sink.send(Message::Text(first)).await;
    }
    let mut batch = vec![first];
    let mut bytes = batch[0].len();
    while let Ok(next) = rx.try_recv() {
        // The brackets and a comma for each message.
        if bytes + next.len() + batch.len() + 2 > MAX_SERVER_FRAME {
            sink.feed(Message::Text(joined(&batch))).await?;
            batch.clear();
            bytes = 0;
        }
        bytes += next.len();
        batch.push(next);
    }
    sink.send(Message::Text(joined(&batch))).await
}

/// The frames as one: the message itself for one, else the array of them.
fn joined(batch: &[Frame]) -> Frame {
    match batch {
        [one] => one.clone(),
        many => {
            let parts: Vec<&str> = many.iter().map(|f| f.as_str()).collect();
            format!("[{}]", parts.join(",")).into()
        }
    }
}

impl Conn {
    fn send(&self, msg: &ServerMessage) {
        if self.tx.try_send(msg.to_json().into()).is_err() {
            self.close.notify_one();
        }
    }

    fn error(&self, code: ErrorCode, message: impl Into<String>) {
        self.server.metrics.refused(code);
        self.send(&ServerMessage::error(code, message));
    }

    async fn handle(&mut self, msg: ClientMessage) {
        if let ClientMessage::Ping { id } = msg {
            self.send(&ServerMessage::Notice(Notice::Pong {
                id,
                at_ms: now_ms(),
            }));
            return;
        }
        let Some(me) = self.me.clone() else {
            return match msg {
                ClientMessage::Hello {
                    protocol,
                    name,
                    token,
                    device,
                    child,
                    batches,
                    then,
                } => {
                    self.batches = batches;
                    let waits = std::time::Duration::from_millis(HELLO_WAITS_MS);
                    self.hold = (then > 0).then(|| (then, tokio::time::Instant::now() + waits));
                    self.hello(protocol, &name, token.as_deref(), device.as_deref(), child)
                        .await
                }
                _ => self.error(ErrorCode::BadMessage, "say `hello` first"),
            };
        };
        match msg {
            ClientMessage::Hello { .. } => {
                self.error(ErrorCode::NotAllowed, "`hello` comes once per connection")
            }
            ClientMessage::Ping { .. } => unreachable!("answered above"),
            ClientMessage::Lobby => self.lobby(&me).await,
            ClientMessage::Leaderboard => self.leaderboard().await,
            ClientMessage::Create {
                rules,
                clock,
                first,
                public,
            } => {
                if let Err(r) = self.create(&me, rules, clock, first, public).await {
                    self.refused(r);
                }
            }
            ClientMessage::Join { code, since } => {
                self.unpool(&me, false).await;
                self.enter(&code, since, false).await
            }
            ClientMessage::Watch { code, since } => self.enter(&code, since, true).await,
            ClientMessage::Leave => match self.room.take() {
                Some((_, room)) => {
                    let leave = Command::Leave {
                        conn: self.id,
                        switching: false,
                    };
                    let _ = room.tx.send(leave).await;
                }
                None => self.error(ErrorCode::NotAllowed, "you are in no room"),
            },
            ClientMessage::Move { ply, mv, think_ms } => {
                self.act(Action::Move { ply, mv, think_ms }).await
            }
            ClientMessage::Resign => self.act(Action::Resign).await,
            ClientMessage::OfferDraw => self.act(Action::OfferDraw).await,
            ClientMessage::AcceptDraw => self.act(Action::AcceptDraw).await,
            ClientMessage::Rematch => self.act(Action::Rematch).await,
            ClientMessage::Claim => self.act(Action::Claim).await,
            ClientMessage::Chat { phrase } => self.chat(&me, phrase).await,
            ClientMessage::LeavePool => self.unpool(&me, true).await,
            other => self.services(me, other).await,
        }
    }

    /// The pools, notifications, games by days and vacations: each answered or refused.
    async fn services(&mut self, me: ConnRef, msg: ClientMessage) {
        let result = match msg {
            ClientMessage::Pool { rules, clock } => self.pool(&me, rules, clock).await,
            ClientMessage::Notifications => self.notifications(&me).await,
            ClientMessage::SetNotifications { settings } => {
                self.set_notifications(&me, settings).await
            }
            ClientMessage::PushSubscribe { subscription } => {
                self.push_subscribe(&me, subscription).await
            }
            ClientMessage::PushUnsubscribe { endpoint } => {
                self.push_unsubscribe(&me, &endpoint).await
            }
            ClientMessage::MyGames => self.my_games(&me).await,
            ClientMessage::Vacation { days } => self.vacation(&me, days).await,
            ClientMessage::KeepTraining { records } => self.keep_training(&me, records).await,
            ClientMessage::Training { since } => self.training(&me, since).await,
            msg @ (ClientMessage::BecomeBot
            | ClientMessage::BotToken { .. }
            | ClientMessage::Bots
            | ClientMessage::PlayBot { .. }) => self.bots(&me, msg).await,
            msg @ (ClientMessage::CreateTournament { .. }
            | ClientMessage::Tournaments
            | ClientMessage::Tournament { .. }
            | ClientMessage::JoinTournament { .. }
            | ClientMessage::LeaveTournament { .. }
            | ClientMessage::PauseTournament { .. }
            | ClientMessage::StartTournament { .. }
            | ClientMessage::KeepApart { .. }
            | ClientMessage::InviteToTournament { .. }) => self.tournament(&me, msg).await,
            other => return self.people(me, other).await,
        };
        if let Err(r) = result {
            self.refused(r);
        }
    }

    /// Whether the player is in child mode now: read from the store each time it matters, so
    /// a change holds on every connection of theirs at once, on every node.
    async fn is_child(&self, me: &ConnRef) -> Result<bool, crate::store::StoreError> {
        self.server.store.is_child(&me.player.id, now_ms()).await
    }

    /// The top 50, and the asker as they stand now (their rating changes with every game).
    async fn leaderboard(&mut self) {
        let Some(me) = self.me.as_ref().map(|m| m.player.id.clone()) else {
            return;
        };
        let store = &self.server.store;
        let answer = async {
            let players = store.leaderboard(50, false).await?;
            let row = store.player(&me).await?;
            let you = match row {
                Some(row) => row,
                None => return Ok(None),
            };
            let rank = store.rank(you.rating.rating, you.info.bot).await?;
            let place = (you.info.games > 0).then_some(rank as u64 + 1);
            Ok::<_, crate::store::StoreError>(Some((players, you.info, place)))
        }
        .await;
        match answer {
            Ok(Some((players, you, place))) => {
                self.send(&ServerMessage::Notice(Notice::Leaderboard {
                    players,
                    you,
                    place,
                }))
            }
            Ok(None) => self.error(ErrorCode::NotAllowed, "no such player"),
            Err(e) => self.unavailable(e),
        }
    }

    async fn hello(
        &mut self,
        protocol: u32,
        name: &str,
        token: Option<&str>,
        device: Option<&str>,
        child: bool,
    ) {
        if protocol != PROTOCOL {
            return self.error(
                ErrorCode::UnsupportedProtocol,
                format!("protocol {protocol}: this server speaks {PROTOCOL}"),
            );
        }
        let server = self.server.clone();
        let (guests, ip) = (&server.guests, self.addr.ip());
        let store = &server.store;
        match identity::sign_in(store, name, token, device, child, || guests.take(ip)).await {
            Ok(signed) => {
                self.become_player(signed).await;
                // Challenges that waited for the player to come back.
                let me = self.me.as_ref().map(|m| m.player.id.clone()).unwrap_or_default();
                if let Ok(incoming) = store.challenges(&me, true, now_ms()).await
                    && !incoming.is_empty()
                {
                    let outgoing = store.challenges(&me, false, now_ms()).await.unwrap_or_default();
                    self.send(&ServerMessage::Notice(Notice::Challenges { incoming, outgoing }));
                }
            }
            Err(identity::SignInError::Name(e)) => self.error(ErrorCode::BadMessage, e),
            Err(identity::SignInError::Banned) => self.error(
                ErrorCode::Banned,
                "this player is banned by the server's operators",
            ),
            Err(identity::SignInError::TooManyGuests) => self.error(
                ErrorCode::RateLimited,
                format!(
                    "more than {} new players a minute from your address: sign in with your token, or wait a minute",
                    self.server.settings.guests_per_minute
                ),
            ),
            Err(identity::SignInError::Store(e)) => self.unavailable(e),
        }
    }

    /// This connection is now `signed`'s player (at `hello`, or after a link code, a recovery
    /// code or a password): out of the room and the hub as whoever it was, in as them.
    async fn become_player(&mut self, signed: identity::SignedIn) {
        if let Some(old) = self.me.take() {
            self.leave_room().await;
            self.left_hub(&old.player.id).await;
        }
        let player = signed.player.clone();
        self.me = Some(ConnRef {
            id: self.id,
            player: player.clone(),
            tx: self.tx.clone(),
            close: self.close.clone(),
        });
        self.device = signed.device.clone();
        // Child mode as it stands now (a switch-off asked without a password may have come
        // due).
        let child = match self.server.store.is_child(&player.id, now_ms()).await {
            Ok(child) => child,
            Err(_) => signed.child,
        };
        // The owner's addresses: a sign-in name's limit holds strangers back, not her.
        self.server.known.note(&player.id, self.addr.ip());
        let member = Member {
            conn: self.id,
            device: signed.device,
            tx: self.tx.clone(),
            close: self.close.clone(),
        };
        if self.server.hub.enter(&player.id, member)
            && let Some(cluster) = &self.server.cluster
        {
            cluster.here(std::slice::from_ref(&player.id)).await;
        }
        self.send(&ServerMessage::Notice(Notice::Welcome {
            protocol: PROTOCOL,
            player,
            token: signed.token,
            child,
        }));
    }

    async fn left_hub(&self, player: &str) {
        if self.server.hub.leave(player, self.id)
            && let Some(cluster) = &self.server.cluster
        {
            cluster.gone(player).await;
        }
    }

    async fn gone(&mut self) {
        if let Some((_, room)) = self.room.take() {
            let _ = room.tx.send(Command::Gone { conn: self.id }).await;
        }
        if let Some(me) = &self.me {
            crate::waves::leave(&self.server, &me.player.id, Some(self.id)).await;
        }
        if let Some(me) = self.me.take() {
            self.left_hub(&me.player.id).await;
        }
    }

    fn unavailable(&self, e: impl std::fmt::Display) {
        tracing::error!("store: {e}");
        self.error(
            ErrorCode::Unavailable,
            "the server could not reach its store; nothing changed: try again",
        );
    }
}

/// The WebSocket settings: frames up to four times the protocol's limit are read (and refused
/// with `too_large`); beyond that the connection is closed. Small buffers keep an idle
/// connection cheap.
pub fn limits(upgrade: axum::extract::WebSocketUpgrade) -> axum::extract::WebSocketUpgrade {
    upgrade
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
        .max_message_size(4 * MAX_FRAME)
        .max_frame_size(4 * MAX_FRAME)
}
