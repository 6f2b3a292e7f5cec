//! The server's HTTP side: `/ws` (the game's WebSocket), `/health`, `/metrics`, `/players/ID`,
//! `/leaderboard`, `/games/CODE` (a room's game as the game's own replay file) and, with
//! `--web DIR`, the web build's files on the same origin.
//!
//! The web build's files go out as `.ci/web` wrote them: a file's brotli or gzip copy
//! (`NAME.br`, `NAME.gz`) when the browser accepts it (with `Vary: accept-encoding`), and
//! conditional requests answered `304 Not Modified`. Files named for their content
//! (`o-an-quan-0123456789abcdef.wasm`) may be kept by browsers for a year without asking
//! again; every other file (the page, the service worker, the fonts) is revalidated each time.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use crate::net::protocol::{RoomEvent, is_room_code};
use crate::session::{History, Record, Seat};
use axum::Router;
use axum::extract::{ConnectInfo, Path, State, WebSocketUpgrade};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::json;

use crate::net::room::RoomState;
use crate::server::shared::Server;

pub fn router(server: Arc<Server>, web: Option<PathBuf>) -> Router {
    let router = Router::new()
        .route("/ws", get(ws))
        .route("/health", get(health))
        .route("/metrics", get(metrics))
        .route("/players/{id}", get(player))
        .route("/leaderboard", get(leaderboard))
        .route("/games/{code}", get(game))
        .with_state(server);
    match web {
        Some(dir) => router.fallback_service(web_files(dir)),
        None => router,
    }
}

/// The web build's folder, with its pre-compressed copies and a caching policy per file.
fn web_files(dir: PathBuf) -> Router {
    let files = tower_http::services::ServeDir::new(dir)
        .precompressed_br()
        .precompressed_gzip();
    Router::new()
        .fallback_service(files)
        .layer(axum::middleware::map_response(caching))
}

/// Whether a path's last part carries a content hash before its extension, as the game's
/// `.wasm` and `.js` and the thinking worker's endgame table (`.tb`) do (`name-` and 16
/// lowercase hex digits).
fn named_for_content(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let Some((stem, extension)) = name.rsplit_once('.') else {
        return false;
    };
    let Some((_, hash)) = stem.rsplit_once('-') else {
        return false;
    };
    matches!(extension, "wasm" | "js" | "tb")
        && hash.len() == 16
        && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// The caching policy, by the request's path.
async fn caching(uri: axum::http::Uri, mut response: Response) -> Response {
    let immutable = named_for_content(uri.path());
    let status = response.status();
    if status.is_success() || status == StatusCode::NOT_MODIFIED {
        let policy = if immutable {
            "public, max-age=31536000, immutable"
        } else {
            "no-cache"
        };
        let headers = response.headers_mut();
        headers.insert(
            header::CACHE_CONTROL,
            header::HeaderValue::from_static(policy),
        );
        headers.insert(
            header::X_CONTENT_TYPE_OPTIONS,
            header::HeaderValue::from_static("nosniff"),
        );
    }
    response
}

async fn ws(
    upgrade: WebSocketUpgrade,
    State(server): State<Arc<Server>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    slot: Option<axum::Extension<crate::server::accept::Slot>>,
) -> Response {
    if server.is_stopping() {
        return (StatusCode::SERVICE_UNAVAILABLE, "stopping").into_response();
    }
    // The connection keeps its place in the count while it is a WebSocket.
    let slot = slot.map(|s| s.0);
    crate::server::conn::limits(upgrade).on_upgrade(move |socket| async move {
        crate::server::conn::serve(socket, server, addr).await;
        drop(slot);
    })
}

fn problem(status: StatusCode, message: impl Into<String>) -> Response {
    (status, axum::Json(json!({ "error": message.into() }))).into_response()
}

fn store_down(e: impl std::fmt::Display) -> Response {
    tracing::error!("store: {e}");
    problem(StatusCode::SERVICE_UNAVAILABLE, "the store does not answer")
}

/// For load balancers: 200 while this node can serve, 503 while stopping or without its store
/// or Redis (the body says which is down). Each check waits a bounded time.
async fn health(State(server): State<Arc<Server>>) -> Response {
    let wait = std::time::Duration::from_secs(2);
    let store = tokio::time::timeout(wait, server.store.ping())
        .await
        .unwrap_or(false);
    let redis = match &server.cluster {
        Some(c) => Some(c.ping().await),
        None => None,
    };
    let ok = store && redis.unwrap_or(true) && !server.is_stopping();
    let body = json!({
        "status": if ok { "ok" } else { "unavailable" },
        "node": server.settings.node,
        "store": store,
        "redis": redis,
        "connections": server.counters.connections.load(Ordering::Relaxed),
        "sockets": server.connections.count(),
        "rooms": server.rooms.lock().await.len(),
        "moves": server.counters.moves.load(Ordering::Relaxed),
    });
    let status = if ok {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (status, axum::Json(body)).into_response()
}

/// Prometheus's text format.
async fn metrics(State(server): State<Arc<Server>>) -> Response {
    let rooms = server.rooms.lock().await.len();
    let text = server
        .metrics
        .render(server.counters.connections.load(Ordering::Relaxed), rooms);
    (
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        text,
    )
        .into_response()
}

async fn player(State(server): State<Arc<Server>>, Path(id): Path<String>) -> Response {
    if id.len() > 64 {
        return problem(StatusCode::NOT_FOUND, "no such player");
    }
    let row = match server.store.player(&id).await {
        Ok(Some(row)) => row,
        Ok(None) => return problem(StatusCode::NOT_FOUND, format!("no player {id}")),
        Err(e) => return store_down(e),
    };
    let (recent, rank) = match (
        server.store.recent_games(&id, 20).await,
        server.store.rank(row.rating.rating).await,
    ) {
        (Ok(recent), Ok(rank)) => (recent, rank),
        (Err(e), _) | (_, Err(e)) => return store_down(e),
    };
    let place = (row.info.games > 0).then_some(rank + 1);
    axum::Json(json!({ "player": row.info, "place": place, "recent": recent })).into_response()
}

async fn leaderboard(State(server): State<Arc<Server>>) -> Response {
    match server.store.leaderboard(100).await {
        Ok(players) => axum::Json(json!({ "players": players })).into_response(),
        Err(e) => store_down(e),
    }
}

/// Room `code`'s game as a replay file (RON), which the game's Import reads.
async fn game(State(server): State<Arc<Server>>, Path(code): Path<String>) -> Response {
    let code = code.to_ascii_uppercase();
    if !is_room_code(&code) {
        return problem(StatusCode::NOT_FOUND, "not a room code");
    }
    let events = match server.store.events(&code, None).await {
        Ok(events) if events.is_empty() => {
            return problem(StatusCode::NOT_FOUND, format!("no room {code}"));
        }
        Ok(events) => events,
        Err(e) => return store_down(e),
    };
    let room = match RoomState::from_log(&events) {
        Ok(room) => room,
        Err(e) => return store_down(e.0),
    };
    if !events
        .iter()
        .any(|e| matches!(e, RoomEvent::Started { .. }))
    {
        return problem(StatusCode::CONFLICT, format!("room {code} has not begun"));
    }
    let mut history = History::new(&room.preset, room.rules, vec![Seat::Human; room.players()]);
    for &mv in &room.moves {
        if let Err(e) = history.play(mv) {
            return store_down(format!("room {code}: its own move {mv}: {e}"));
        }
    }
    let record = Record::of(&history);
    (
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"o-an-quan-online.ron\"",
            ),
        ],
        record.to_ron(),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::named_for_content;

    #[test]
    fn only_the_builds_hashed_wasm_js_and_table_are_named_for_their_content() {
        assert!(named_for_content("/o-an-quan-0123456789abcdef.wasm"));
        assert!(named_for_content("/play/o-an-quan-fedcba9876543210.js"));
        assert!(named_for_content("/endgame-8-0123456789abcdef.tb"));
        for path in [
            "/",
            "/index.html",
            "/sw.js",
            "/o-an-quan.wasm",
            "/o-an-quan-0123456789ABCDEF.wasm",
            "/o-an-quan-0123456789abcde.wasm",
            "/o-an-quan-0123456789abcdef0.js",
            "/assets/fonts/NotoSans-Regular.ttf",
            "/o-an-quan-0123456789abcdef.wasm.br",
            "/x-0123456789abcdef.html",
            "/endgame-8.tb",
        ] {
            assert!(!named_for_content(path), "{path}");
        }
    }
}
