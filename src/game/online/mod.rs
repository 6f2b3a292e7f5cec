//! Online play: the connection to `oaq-server`, the protocol's state on our side, the room's
//! game on the board, its clocks, the online screen and the waiting room, and the controls of
//! a game against people. The server referees; this only asks and shows.
//!
//! # What the player sees
//!
//! "Play online" on the title screen connects to the server (the page's own on the web; on desktop
//! the settings' `server`, `ws://127.0.0.1:8080/ws` until changed, or `--server URL`) and shows the
//! online screen: your name (typed into the field, kept in the settings, sent at the next
//! connection) and rating, Create a room (rule set, untimed, 3+2, 5+3, 10+5 or custom minutes +
//! seconds, who moves first, public or private, the winning score), a room code to Join or Watch
//! (typed; look-alike letters are refused), and the public rooms waiting, asked again every 4 s.
//! Seated in a room not yet full: the waiting room, with the code in large letters, the room's link
//! (`?room=CODE` on the page) as a QR code drawn by the game, Copy link (in the browser) and
//! Cancel. Opening the web build with `?room=CODE` goes straight into that room.
//!
//! Beside your name: **Play now** (a grid of 1+0, 3+2, 5+3, 10+5 and a day a move for the form's
//! rule set; while you wait, the seconds, why you may wait longer, Stop looking, and after a wave
//! with nobody, "Play the computer (level N, unrated)") and **My games** (your games by days,
//! yours to move first, each with its time left and an Open button; your vacation days; the
//! Notifications page: which news you hear of when away, "Notify this device" in a browser that
//! can, the daily e-mail). Create a room also offers "By days" (1 to 14 days a move); such a
//! game's clocks read `2d 03h` above a day.
//!
//! In the game the server's log is the truth. The client folds the room's events with the
//! server's own fold (`net::room`); the opponent's moves play through the same pipeline as the
//! computer's (lit, animated, snapped); your moves show at once and are sent, and sent again
//! after a reconnection until the log has them; whenever the board and the log disagree the
//! board takes the log's game and logs it. Clocks stand beside the stores (m:ss, tenths under
//! 10 s, the running one lit, a tick each second under ten on your own), counted down between
//! messages by the server's time, estimated from a ping every 10 s (the sample with the shortest
//! round trip). The connection is always worded: "Connecting…", "Reconnecting…" (300 ms, doubling
//! to 5 s, a fifth of jitter), after three failures the server's address, why, and Retry; a
//! server of another protocol version is said plainly and not retried. An opponent gone shows
//! "left: 0:47 until you can claim the win", then a Claim button; Resign (asked first), Offer
//! / Accept a draw, Leave; at the end the result with its cause (rules, time, resignation,
//! agreement, abandonment, aborted) and your rating's change, and Rematch (a new room, seats
//! turned round, both boards follow). Hints and undo are off against people and say why;
//! spectators see the same board and clocks, "Watching", and no input. The token is kept in the
//! config directory (`online-token.txt`; local storage on the web), so a restart or reload is the
//! same player back in the same seat. Checks from the command line: `--online`, `--create`,
//! `--join CODE`, `--watch CODE`, and `--screenshot FILE --shot-after SECS`.
//!
//! **People** (`src/game/online/people/`, `social.rs`, `graph.rs`). The first visit asks who is
//! playing on this device, a child or a grown-up, before any player is made. Friends (from the
//! online screen; the count of challenges waiting is on its button): your friend code large and
//! as a QR code, a friend's code typed in, challenges and requests with Accept and Decline,
//! friends (online first, in bold with a dot) with Challenge (the online screen's rule set and
//! time control) and Profile, challenges waiting for others with Cancel, blocks with Unblock.
//! A profile: the rating with its `?` while provisional, the record, the rating after each rated
//! game drawn by the game as a graph (`graph.rs`: a line over a grid of hundreds), and the recent
//! games, each with Review (watched, then opened in the review); on another's, Add friend,
//! Challenge or Remove, Block, Report with its reasons. Account and devices: Link a device (the
//! code large, its QR, the minutes left), a code typed here (Use link code, Use recovery code),
//! Recovery code (shown once, large), a login and password (the password shown as dots, cleared
//! once sent), the devices with Sign out, child mode (off behind "how much is 7 × 8?"). In a game
//! against people: Chat opens the eight phrases and Mute; phrases heard show above the board for
//! 8 s, in your language ("Bình: Well played!"); at the end, Add friend and Challenge later beside
//! Rematch. In child mode the online screen has no lobby and the game no Chat. News ("Bình
//! challenges you to a game") shows on the online screen, the pages and over the board. On the
//! web `?friend=CODE` and `?link=CODE` (the QR codes' links; `--open-link` elsewhere) ask first,
//! naming whom, and a device that became another player can go back (`follow.rs`). A
//! device that becomes another device's player (a link code, a recovery code, a password) takes
//! that player's name, as it does a name an operator set, so its next `hello` renames no one.
//! `--people friends|profile|account` opens a page (for screenshots; `tests/web/people-scene.mjs`
//! sets up a server with friends, challenges and rated games for them).

pub mod client;
mod clocks;
pub mod controls;
pub mod ended;
pub mod follow;
pub mod form;
mod game_action;
pub mod graph;
pub mod link;
pub mod lobby;
#[cfg(target_arch = "wasm32")]
mod page;
pub mod people;
pub mod push;
pub mod qr;
pub mod social;
pub mod table;
#[cfg(target_arch = "wasm32")]
mod web_field;

use bevy::prelude::*;

use crate::game::state::{Files, Prefs};
use crate::session::Settings;

pub(in crate::game) fn plugin(app: &mut App) {
    let url = server_url(app.world().resource::<Prefs>());
    let token = client::kept_token(app.world().get_resource::<Files>());
    let previous = follow::Previous::kept(app.world().get_resource::<Files>());
    app.insert_resource(link::Link::new(url))
        .insert_resource(client::Online::with_token(token).with_previous(previous));
    app.add_plugins((
        link::plugin,
        client::plugin,
        table::plugin,
        clocks::plugin,
        lobby::plugin,
        people::plugin,
        controls::plugin,
        controls::retry_plugin,
        push::plugin,
    ));
    #[cfg(target_arch = "wasm32")]
    app.add_plugins((page::plugin, web_field::plugin))
        .add_systems(PostStartup, open_the_link_s_room);
}

/// The server to play on: the page's own on the web (`wss://` for an https page), the
/// settings' (or `--server`'s) on desktop and phones.
pub fn server_url(settings: &Settings) -> String {
    #[cfg(target_arch = "wasm32")]
    if let Some(location) = web_sys::window().map(|w| w.location()) {
        let secure = location.protocol().is_ok_and(|p| p == "https:");
        if let Ok(host) = location.host() {
            return format!("{}://{host}/ws", if secure { "wss" } else { "ws" });
        }
    }
    settings.server.clone()
}

/// The link that opens room `code`: the web build's page with `?room=CODE`; outside the
/// browser, the server's own page (it serves the web build with `--web`).
pub fn room_link(settings: &Settings, code: &str) -> String {
    #[cfg(target_arch = "wasm32")]
    if let Some(location) = web_sys::window().map(|w| w.location())
        && let (Ok(origin), Ok(path)) = (location.origin(), location.pathname())
    {
        return format!("{origin}{path}?room={code}");
    }
    let url = server_url(settings);
    let http = url
        .replacen("wss://", "https://", 1)
        .replacen("ws://", "http://", 1);
    let base = http.strip_suffix("/ws").unwrap_or(&http);
    format!("{base}/?room={code}")
}

/// Whether the device says it has no network (the browser's `navigator.onLine`; a desktop
/// finds out by trying).
pub fn device_offline() -> bool {
    #[cfg(target_arch = "wasm32")]
    return web_sys::window().is_some_and(|w| !w.navigator().on_line());
    #[cfg(not(target_arch = "wasm32"))]
    false
}

/// Put `text` on the clipboard: the page's in a browser.
#[cfg(target_arch = "wasm32")]
pub fn copy_text(text: &str) -> Result<(), String> {
    let window = web_sys::window().ok_or("no window")?;
    let _promise = window.navigator().clipboard().write_text(text);
    Ok(())
}

/// Outside the browser there is no clipboard the game can reach without a windowing library of
/// its own; the waiting room shows the link and the code to read out or type.
/// Put `text` on the desktop's clipboard. The clipboard is kept for the life of the game: on
/// X11 what was copied is served by the program that copied it.
#[cfg(not(any(target_arch = "wasm32", target_os = "android", target_os = "ios")))]
pub fn copy_text(text: &str) -> Result<(), String> {
    use std::sync::Mutex;
    static CLIPBOARD: Mutex<Option<arboard::Clipboard>> = Mutex::new(None);
    let mut kept = CLIPBOARD.lock().map_err(|e| e.to_string())?;
    if kept.is_none() {
        *kept = Some(arboard::Clipboard::new().map_err(|e| e.to_string())?);
    }
    let clipboard = kept.as_mut().ok_or("no clipboard")?;
    clipboard.set_text(text).map_err(|e| e.to_string())
}

/// Phones have no clipboard the game can reach yet: the code is on screen to read out.
#[cfg(any(target_os = "android", target_os = "ios"))]
pub fn copy_text(_: &str) -> Result<(), String> {
    Err("no clipboard".to_owned())
}

/// `?room=CODE` in the page's address: straight into that room. `?friend=CODE` (a friend
/// code's QR) and `?link=CODE` (a link code's QR) ask the player first (see [`follow`]).
#[cfg(target_arch = "wasm32")]
fn open_the_link_s_room(
    mut commands: Commands,
    mut next_screen: ResMut<NextState<crate::game::state::Screen>>,
) {
    let Some(search) = web_sys::window().and_then(|w| w.location().search().ok()) else {
        return;
    };
    open_from_address(&mut commands, &mut next_screen, &search);
}

/// What a link's address asks (`?room=`, `?friend=`, `?link=`), from the page or `--open`.
pub fn open_from_address(
    commands: &mut Commands,
    next_screen: &mut NextState<crate::game::state::Screen>,
    search: &str,
) {
    use crate::net::social::CodeKind;
    for asked in follow::from_address(search) {
        next_screen.set(crate::game::state::Screen::Online);
        commands.trigger(match asked {
            follow::FromAddress::Room(code) => client::Ask::Join(code),
            follow::FromAddress::Friend(code) => client::Ask::Offer(CodeKind::Friend, code),
            follow::FromAddress::Link(code) => client::Ask::Offer(CodeKind::Link, code),
        });
    }
}
