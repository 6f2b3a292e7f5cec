//! What the bot API's two streams share: a place in the hub (so the player's notices reach it
//! and a revoked token closes it on every node), the NDJSON body the program reads, the
//! keep-alive lines, and the token checked again now and then.

use std::convert::Infallible;
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use oaq_net::protocol::{ErrorCode, ServerMessage};
use tokio::sync::{Notify, mpsc};

use super::{ApiError, Bot, KEEP_ALIVE, RECHECK};
use crate::hub::{BOT_API, Member};
use crate::limits::CountGuard;
use crate::mailbox::{ConnRef, Frame};
use crate::shared::Server;

/// Frames waiting for a stream's task, and lines waiting for the program: a program this far
/// behind is too slow, and its stream is closed (it opens it again and gets the whole game).
const BACKLOG: usize = 256;

/// What a stream does with each message the player gets: write lines, and say whether the
/// stream goes on.
pub trait Lines: Send + 'static {
    fn message(&mut self, msg: ServerMessage, out: &Out) -> bool;
}

/// The program's side of a stream.
pub struct Out {
    lines: mpsc::Sender<Result<Bytes, Infallible>>,
}

impl Out {
    /// Write `value` as one line; false when the program is gone or too slow to read.
    pub fn line(&self, value: &serde_json::Value) -> bool {
        let mut text = value.to_string();
        text.push('\n');
        self.lines.try_send(Ok(Bytes::from(text))).is_ok()
    }

    fn keep_alive(&self) -> bool {
        self.lines.try_send(Ok(Bytes::from_static(b"\n"))).is_ok()
    }
}

/// A stream open for `bot`, in the hub, with its body to answer the request with.
pub struct Stream {
    pub server: Arc<Server>,
    pub conn: ConnRef,
    rx: mpsc::Receiver<Frame>,
    pub out: Out,
    token_hash: String,
    _counted: CountGuard,
}

impl Stream {
    /// Open one of at most `cap` streams of `kind` for `bot` on this node.
    pub async fn open(
        server: &Arc<Server>,
        bot: &Bot,
        kind: &str,
        cap: usize,
    ) -> Result<(Stream, Response), ApiError> {
        let key = format!("{kind}:{}", bot.info.id);
        let counted = server.bot_streams.open(&key, cap).ok_or_else(|| {
            ApiError::new(
                ErrorCode::RateLimited,
                format!("{cap} {kind} streams of this bot are open here: close one first"),
            )
        })?;
        let (tx, rx) = mpsc::channel(BACKLOG);
        let close = Arc::new(Notify::new());
        let conn = ConnRef {
            id: server.next_id(),
            player: bot.info.clone(),
            tx: tx.clone(),
            close: close.clone(),
        };
        let member = Member {
            conn: conn.id,
            device: BOT_API.to_owned(),
            tx,
            close,
        };
        if server.hub.enter(&bot.info.id, member)
            && let Some(cluster) = &server.cluster
        {
            cluster.here(std::slice::from_ref(&bot.info.id)).await;
        }
        let (lines, body) = mpsc::channel(BACKLOG);
        let body = futures_util::stream::unfold(body, |mut body| async move {
            body.recv().await.map(|line| (line, body))
        });
        // nginx passes each line on as it comes, instead of buffering the stream.
        let unbuffered = header::HeaderName::from_static("x-accel-buffering");
        let response = (
            [
                (header::CONTENT_TYPE, "application/x-ndjson"),
                (header::CACHE_CONTROL, "no-store"),
                (unbuffered, "no"),
            ],
            Body::from_stream(body),
        )
            .into_response();
        let stream = Stream {
            server: server.clone(),
            conn,
            rx,
            out: Out { lines },
            token_hash: bot.token_hash.clone(),
            _counted: counted,
        };
        Ok((stream, response))
    }

    /// Pass the player's messages to `lines` until it, the program, the token or the server
    /// says stop; then leave the hub.
    pub async fn run(mut self, mut lines: impl Lines) {
        let mut keep_alive = tokio::time::interval(KEEP_ALIVE);
        keep_alive.tick().await;
        let mut recheck = tokio::time::Instant::now() + RECHECK;
        let mut stopping = self.server.stopping.clone();
        let close = self.conn.close.clone();
        loop {
            tokio::select! {
                frame = self.rx.recv() => {
                    let Some(frame) = frame else { break };
                    let Ok(msg) = serde_json::from_str::<ServerMessage>(&frame) else {
                        continue;
                    };
                    if !lines.message(msg, &self.out) {
                        break;
                    }
                }
                _ = keep_alive.tick() => {
                    if !self.out.keep_alive() {
                        break;
                    }
                    if tokio::time::Instant::now() >= recheck {
                        recheck = tokio::time::Instant::now() + RECHECK;
                        if !self.token_works().await {
                            break;
                        }
                    }
                }
                _ = close.notified() => break,
                _ = self.out.lines.closed() => break,
                _ = stopping.changed() => break,
            }
        }
        self.leave().await;
    }

    /// Out of the hub (a stream ended, or one that could not begin).
    pub async fn leave(&self) {
        let player = &self.conn.player.id;
        if self.server.hub.leave(player, self.conn.id)
            && let Some(cluster) = &self.server.cluster
        {
            cluster.gone(player).await;
        }
    }

    /// Whether the stream's token still belongs to a bot not banned (a store that does not
    /// answer keeps the stream: it is no reason to drop a game).
    async fn token_works(&self) -> bool {
        match self.server.store.bot_by_token(&self.token_hash).await {
            Ok(row) => row.is_some_and(|r| r.info.id == self.conn.player.id),
            Err(_) => true,
        }
    }
}
