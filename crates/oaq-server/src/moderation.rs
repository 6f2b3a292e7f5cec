//! Moderation: what operators do with `oaq-server admin` (list reports, rename, ban, unban),
//! written to the store as a record of who did what when, and how running servers follow it.
//! The command line talks only to the database; every node reads the new actions every two
//! seconds and applies them to its own connections and rooms (a banned player's connections
//! close and their rooms not begun give up their seat), so it works the same on one node or
//! many, and while a server is down.

use std::sync::Arc;
use std::time::Duration;

use clap::{Args, Subcommand};

use crate::identity;
use crate::mailbox::Command;
use crate::settings::now_ms;
use crate::shared::Server;
use crate::store::{Moderation, Store};
use oaq_net::protocol::{ErrorCode, ServerMessage};

/// How often a server looks for operators' new actions.
const FOLLOW_EVERY: Duration = Duration::from_secs(2);

#[derive(Args, Clone, Debug)]
pub struct AdminArgs {
    /// The server's database: `sqlite://FILE`, a file path, or `postgres://…`.
    #[arg(long)]
    pub database: Option<String>,
    #[command(subcommand)]
    pub action: AdminAction,
}

#[derive(Subcommand, Clone, Debug)]
pub enum AdminAction {
    /// Reports not yet handled, oldest first (with --all, every report).
    Reports {
        #[arg(long)]
        all: bool,
    },
    /// Give a player another name; theirs stays until an operator changes it again.
    Rename {
        player: String,
        name: String,
    },
    /// Ban a player: their devices stop signing in, their connections close, their rooms not
    /// begun give up their seat, their challenges go.
    Ban {
        player: String,
        #[arg(long, default_value = "")]
        reason: String,
    },
    Unban {
        player: String,
    },
    /// Finished games of two players as JSON lines, oldest first, for `oaq puzzles mine`: the
    /// preset, the rules and the moves of each, nothing of its players or its room.
    Games {
        /// Only games finished at or after this time (Unix ms).
        #[arg(long, default_value_t = 0)]
        since_ms: i64,
        /// At most this many.
        #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=100_000))]
        limit: u64,
    },
}

/// Run one operator's command against `store`; what to print.
pub async fn admin(store: &Store, action: &AdminAction) -> Result<String, String> {
    let store_error = |e| format!("the database: {e}");
    let (player, what, detail) = match action {
        AdminAction::Reports { all } => {
            let reports = store.reports(*all, 1000).await.map_err(store_error)?;
            let mut out = format!("{} reports\n", reports.len());
            for r in reports {
                out.push_str(&format!(
                    "{}  {}  player {} ({})  reason {}  by {}{}\n",
                    r.id,
                    r.at_ms,
                    r.player,
                    r.name,
                    r.reason,
                    r.reporter,
                    r.room.map(|c| format!("  room {c}")).unwrap_or_default()
                ));
            }
            return Ok(out);
        }
        AdminAction::Rename { player, name } => {
            let name = identity::clean_name(name)?;
            (player, "rename", name)
        }
        AdminAction::Ban { player, reason } => (player, "ban", identity::clean_label(reason)),
        AdminAction::Unban { player } => (player, "unban", String::new()),
        AdminAction::Games { since_ms, limit } => return games(store, *since_ms, *limit).await,
    };
    let m = Moderation {
        id: identity::new_id(),
        player: player.clone(),
        action: what.to_owned(),
        detail,
        at_ms: now_ms(),
    };
    match store.moderate(&m).await.map_err(store_error)? {
        true => Ok(format!("{what} {player}: done (record {})", m.id)),
        false => Err(format!("no player {player}")),
    }
}

/// Finished games of two players as JSON lines (`oaq_ai::puzzle::PlayedGame`), oldest first:
/// the moves alone (a private room's code and the players' names are no one else's). A game
/// whose log does not fold, or without a move, is left out.
async fn games(store: &Store, since_ms: i64, limit: u64) -> Result<String, String> {
    let store_error = |e| format!("the database: {e}");
    let mut out = String::new();
    for code in store
        .finished_games(since_ms, limit)
        .await
        .map_err(store_error)?
    {
        let events = store.events(&code, None).await.map_err(store_error)?;
        let Ok(room) = oaq_net::room::RoomState::from_log(&events) else {
            continue;
        };
        if room.moves.is_empty() {
            continue;
        }
        let moves: Vec<String> = room.moves.iter().map(ToString::to_string).collect();
        let game = oaq_ai::puzzle::PlayedGame {
            preset: room.preset,
            rules: room.rules,
            moves: moves.join(" "),
        };
        out.push_str(&serde_json::to_string(&game).map_err(|e| e.to_string())?);
        out.push('\n');
    }
    Ok(out)
}

/// Follow operators' actions for as long as the server runs.
pub async fn follow(server: Arc<Server>) {
    let mut since = now_ms();
    let mut seen: Vec<String> = Vec::new();
    let mut tick = tokio::time::interval(FOLLOW_EVERY);
    let mut stopping = server.stopping.clone();
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = stopping.changed() => return,
        }
        let actions = match server.store.moderation_since(since).await {
            Ok(a) => a,
            Err(e) => {
                tracing::warn!("reading operators' actions: {e}");
                continue;
            }
        };
        for m in actions {
            // Actions of the same millisecond are read again next time: each once.
            if seen.contains(&m.id) {
                continue;
            }
            if m.at_ms > since {
                since = m.at_ms;
                seen.clear();
            }
            seen.push(m.id.clone());
            apply(&server, &m).await;
        }
    }
}

/// What an operator's action changes on this node.
async fn apply(server: &Arc<Server>, m: &Moderation) {
    tracing::info!(player = %m.player, action = %m.action, "an operator's action");
    if m.action != "ban" {
        return;
    }
    let bye = ServerMessage::error(
        ErrorCode::Banned,
        "this player is banned by the server's operators",
    );
    server.hub.sign_out(&m.player, None, &bye.to_json().into());
    let rooms: Vec<_> = server.rooms.lock().await.values().cloned().collect();
    for room in rooms {
        let _ = room
            .tx
            .send(Command::Expel {
                player: m.player.clone(),
            })
            .await;
    }
}
