//! The server's HTTP side: `/ws` (the game's WebSocket), `/health`, `/metrics`, `/players/ID`,
//! `/leaderboard`, `/games/CODE` (a started room's game as the game's own replay file),
//! `/tournaments/ID/results.csv` (a tournament's standings for a spreadsheet),
//! `/mail/confirm` and `/mail/stop` (the links in e-mails) and, with `--web DIR`, the web
//! build's files on the same origin.
//!
//! Every request counts against its address (`--requests-per-minute`; past it `429` with
//! `Retry-After`), and a `/games/CODE` that finds no started game counts as a miss against
//! the same limit as the WebSocket's room codes: codes cannot be guessed over HTTP either.
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

use axum::Router;
use axum::extract::{ConnectInfo, Path, State, WebSocketUpgrade};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use oaq_net::protocol::{RoomEvent, is_room_code};
use oaq_session::{History, Record, Seat};
use serde_json::json;

use crate::shared::Server;
use oaq_net::room::RoomState;

pub fn router(server: Arc<Server>, web: Option<PathBuf>) -> Router {
    let router = Router::new()
        .route("/ws", get(ws))
        .route("/health", get(health))
        .route("/metrics", get(metrics))
        .route("/players/{id}", get(player))
        .route("/leaderboard", get(leaderboard))
        .route("/games/{code}", get(game))
        .route("/tournaments/{id}/results.csv", get(tournament_results))
        .route("/mail/confirm", get(mail_confirm))
        .route("/mail/stop", get(mail_stop_page).post(mail_stop))
        .merge(crate::api::router())
        .with_state(server.clone());
    let router = router.layer(axum::middleware::from_fn_with_state(
        server.clone(),
        per_address,
    ));
    match web {
        Some(dir) => router.fallback_service(web_files(dir).layer(
            axum::middleware::from_fn_with_state(server, per_address_files),
        )),
        None => router,
    }
}

/// Every request to a route counts against its address; past the limit, `429` and nothing
/// done.
async fn per_address(
    State(server): State<Arc<Server>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    if !server.requests.take(addr.ip()) {
        return too_many(format!(
            "more than {} requests a minute from your address: wait a minute",
            server.settings.requests_per_minute
        ));
    }
    next.run(request).await
}

/// The web build's files count against their own, ten times larger allowance: a class of
/// thirty behind one school's address loads every file at once.
async fn per_address_files(
    State(server): State<Arc<Server>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    if !server.file_requests.take(addr.ip()) {
        return too_many(format!(
            "more than {} files a minute from your address: wait a minute",
            10.0 * server.settings.requests_per_minute
        ));
    }
    next.run(request).await
}

fn too_many(message: String) -> Response {
    let mut response = problem(StatusCode::TOO_MANY_REQUESTS, message);
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, header::HeaderValue::from_static("60"));
    response
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
    slot: Option<axum::Extension<crate::accept::Slot>>,
) -> Response {
    if server.is_stopping() {
        return (StatusCode::SERVICE_UNAVAILABLE, "stopping").into_response();
    }
    // The connection keeps its place in the count while it is a WebSocket.
    let slot = slot.map(|s| s.0);
    crate::conn::limits(upgrade).on_upgrade(move |socket| async move {
        crate::conn::serve(socket, server, addr).await;
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
    // Read by anyone: a child is nobody here (the policy's view for a reader nobody knows).
    match crate::policy::children_among(&server, &[id.as_str()]).await {
        Ok(children) if children.is_empty() => {}
        Ok(_) => return problem(StatusCode::NOT_FOUND, format!("no player {id}")),
        Err(e) => return store_down(e),
    }
    let (recent, rank) = match (
        server.store.recent_games(&id, 20).await,
        server.store.rank(row.rating.rating, row.info.bot).await,
    ) {
        (Ok(recent), Ok(rank)) => (recent, rank),
        (Err(e), _) | (_, Err(e)) => return store_down(e),
    };
    let place = (row.info.games > 0).then_some(rank + 1);
    axum::Json(json!({ "player": row.info, "place": place, "recent": recent })).into_response()
}

async fn leaderboard(State(server): State<Arc<Server>>) -> Response {
    match server.store.leaderboard(100, false).await {
        Ok(players) => axum::Json(json!({ "players": players })).into_response(),
        Err(e) => store_down(e),
    }
}

/// Tournament `id`'s results as a CSV file. The id is the tournament's code, as on the
/// WebSocket: an id that finds nothing counts as a miss against the address, taken before the
/// look-up (so that many requests at once cannot look up more than the limit) and given back
/// when the tournament is there.
async fn tournament_results(
    State(server): State<Arc<Server>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
) -> Response {
    let ip = addr.ip();
    if !server.misses.take(ip) {
        return too_many("too many codes that do not exist: wait a minute".into());
    }
    let id = id.to_ascii_uppercase();
    let not_found = || problem(StatusCode::NOT_FOUND, "no tournament by that id");
    if id.len() != crate::tournaments::ID_LEN {
        return not_found();
    }
    match crate::tournaments::results_csv(&server, &id).await {
        Ok(Some(csv)) => {
            server.misses.give_back(ip);
            let disposition = format!("attachment; filename=\"tournament-{id}.csv\"");
            let headers = [
                (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()),
                (header::CONTENT_DISPOSITION, disposition),
            ];
            (headers, csv).into_response()
        }
        Ok(None) => not_found(),
        Err(e) => {
            server.misses.give_back(ip);
            store_down(e)
        }
    }
}

/// Room `code`'s game as a replay file (RON), which the game's Import reads: a started game
/// only. Anything else (no such room, a room still waiting for players) answers the same
/// `404` and counts as a miss against the address, as an unknown code on the WebSocket does:
/// neither tells a guesser that a code is a room someone could join.
async fn game(
    State(server): State<Arc<Server>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    Path(code): Path<String>,
) -> Response {
    let ip = addr.ip();
    if !server.misses.allow(ip) {
        return too_many("too many room codes that do not exist: wait a minute".into());
    }
    let code = code.to_ascii_uppercase();
    let not_found = |server: &Server| {
        server.misses.take(ip);
        problem(StatusCode::NOT_FOUND, "no game by that code")
    };
    if code.len() > oaq_net::protocol::MAX_TOKEN || !is_room_code(&code) {
        return not_found(&server);
    }
    let events = match server.store.events(&code, None).await {
        Ok(events) => events,
        Err(e) => return store_down(e),
    };
    if !events
        .iter()
        .any(|e| matches!(e, RoomEvent::Started { .. }))
    {
        return not_found(&server);
    }
    let room = match RoomState::from_log(&events) {
        Ok(room) => room,
        Err(e) => return store_down(e.0),
    };
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

/// A page of the mail links' answers: plain, in both languages, nothing from the request in it.
fn page(status: StatusCode, english: &str, vietnamese: &str) -> Response {
    let html = format!(
        "<!doctype html><meta charset=utf-8><meta name=viewport \
         content=\"width=device-width\"><title>Ô ăn quan</title><p>{english}<p lang=vi>{vietnamese}"
    );
    (
        status,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        html,
    )
        .into_response()
}

#[derive(serde::Deserialize)]
struct Confirm {
    #[serde(default)]
    p: String,
    #[serde(default)]
    n: String,
}

/// The confirmation link of a new address: the daily e-mail may go to it from now on. The
/// nonce is used once; a wrong one counts as a miss against the address.
async fn mail_confirm(
    State(server): State<Arc<Server>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    axum::extract::Query(q): axum::extract::Query<Confirm>,
) -> Response {
    let ip = addr.ip();
    if !server.misses.allow(ip) {
        return too_many("too many links that do not exist: wait a minute".into());
    }
    if q.p.len() > 64 || q.n.len() > 64 {
        server.misses.take(ip);
        return page(
            StatusCode::NOT_FOUND,
            "This link is not valid.",
            "Liên kết này không hợp lệ.",
        );
    }
    match server.store.confirm_email(&q.p, &q.n).await {
        Ok(Some(_)) => page(
            StatusCode::OK,
            "Your address is confirmed: the daily e-mail of your games will come here.",
            "Địa chỉ của bạn đã được xác nhận: thư hằng ngày về các ván của bạn sẽ được gửi đến đây.",
        ),
        Ok(None) => {
            server.misses.take(ip);
            page(
                StatusCode::NOT_FOUND,
                "This link is not valid any more (used, or replaced by a newer one).",
                "Liên kết này không còn hiệu lực (đã dùng, hoặc đã có liên kết mới hơn).",
            )
        }
        Err(e) => store_down(e),
    }
}

#[derive(serde::Deserialize)]
struct Stop {
    #[serde(default)]
    a: String,
    #[serde(default)]
    s: String,
}

/// The address a stop link names, if the server signed it.
fn stop_address(server: &Server, q: &Stop) -> Option<String> {
    let mail = server.mail.as_ref()?;
    (q.a.len() <= 512 && q.s.len() <= 128)
        .then(|| mail.signed_address(&q.a, &q.s))
        .flatten()
}

/// The stop link opened in a browser: a button that stops the mail (a GET changes nothing, so
/// a mail scanner following links stops nothing by mistake).
async fn mail_stop_page(
    State(server): State<Arc<Server>>,
    axum::extract::Query(q): axum::extract::Query<Stop>,
) -> Response {
    if stop_address(&server, &q).is_none() {
        return page(
            StatusCode::NOT_FOUND,
            "This link is not valid.",
            "Liên kết này không hợp lệ.",
        );
    }
    let html = format!(
        "<!doctype html><meta charset=utf-8><meta name=viewport \
         content=\"width=device-width\"><title>Ô ăn quan</title>\
         <form method=post action=\"/mail/stop?a={}&amp;s={}\">\
         <p>Send no more e-mail to this address? <p lang=vi>Không gửi thư đến địa chỉ này nữa?\
         <p><button name=List-Unsubscribe value=One-Click>Stop · Dừng</button></form>",
        q.a, q.s
    );
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        html,
    )
        .into_response()
}

/// RFC 8058's one-click unsubscribe (and the page's button): nothing more is sent to the
/// address, whoever gave it.
async fn mail_stop(
    State(server): State<Arc<Server>>,
    axum::extract::Query(q): axum::extract::Query<Stop>,
) -> Response {
    let (Some(address), Some(mail)) = (stop_address(&server, &q), server.mail.as_ref()) else {
        return page(
            StatusCode::NOT_FOUND,
            "This link is not valid.",
            "Liên kết này không hợp lệ.",
        );
    };
    let hash = mail.address_hash(&address);
    match server
        .store
        .refuse_mail(&address, &hash, crate::settings::now_ms())
        .await
    {
        Ok(()) => page(
            StatusCode::OK,
            "No more e-mail will be sent to this address.",
            "Sẽ không có thư nào được gửi đến địa chỉ này nữa.",
        ),
        Err(e) => store_down(e),
    }
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
