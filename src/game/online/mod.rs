//! Online play: the connection to `oaq-server`, the protocol's state on our side, the room's
//! game on the board, its clocks, the online screen and the waiting room, and the controls of
//! a game against people. The server referees; this only asks and shows.
//!
//! What the player sees of it, screen by screen: docs/game.md ("Online play, as the player sees
//! it").

pub mod client;
mod clocks;
pub mod controls;
pub mod ended;
pub mod field;
pub mod follow;
pub mod form;
mod game_action;
pub mod graph;
mod home;
mod joining;
pub mod link;
pub mod lobby;
#[cfg(target_arch = "wasm32")]
mod page;
pub mod pages;
pub mod push;
pub mod qr;
mod sheet;
pub mod social;
pub mod table;
#[cfg(target_arch = "wasm32")]
mod timeline;
pub mod tournaments;
pub mod training;
mod typing;
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
        .insert_resource(client::Connection::with_token(token))
        .insert_resource(client::Identity::with_previous(previous))
        .init_resource::<client::Lobby>()
        .init_resource::<client::InRoom>()
        .init_resource::<social::People>()
        .init_resource::<tournaments::Tournaments>()
        .init_resource::<client::Correspondence>();
    app.add_plugins((
        link::plugin,
        client::plugin,
        table::plugin,
        clocks::plugin,
        lobby::plugin,
        pages::plugin,
        typing::plugin,
        controls::plugin,
        controls::retry_plugin,
        push::plugin,
        training::plugin,
    ));
    #[cfg(target_arch = "wasm32")]
    {
        app.add_plugins((page::plugin, web_field::plugin, timeline::plugin))
            .add_systems(PostStartup, open_the_link_s_room);
        connect_for_the_link_s_room(app);
    }
}

/// A room link's page connects while the app is still being built (taking the socket the page
/// opened while the game downloaded), saying its hello and the room as soon as the socket is
/// open: on a phone's CPU the first frame is a second or two away, and by its end the welcome
/// and the seat are waiting. (Not while the first visit's question waits:
/// the hello says whether a child plays.) `open_the_link_s_room` then shows the room as usual.
#[cfg(target_arch = "wasm32")]
fn connect_for_the_link_s_room(app: &mut App) {
    let Some(search) = web_sys::window().and_then(|w| w.location().search().ok()) else {
        return;
    };
    let Some(code) = follow::from_address(&search)
        .into_iter()
        .find_map(|asked| match asked {
            follow::FromAddress::Room(code) => Some(code),
            _ => None,
        })
    else {
        return;
    };
    let world = app.world_mut();
    if pages::asking_who_plays(world.resource::<client::Connection>(), world.resource()) {
        link::close_early_socket();
        return;
    }
    world.resource_mut::<client::InRoom>().room = Some(client::Room::new(code, false));
    let prefs = world.resource::<Prefs>();
    let (connection, in_room) = (world.resource(), world.resource());
    let (url, greeting) = (
        server_url(prefs),
        client::greeting(connection, in_room, prefs),
    );
    let mut link = world.resource_mut::<link::Link>();
    link.start(&url);
    link.set_greeting(greeting);
    link::carry_out_now(world);
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

/// What a link's address asks (`?room=`, `?friend=`, `?link=`, `?tournament=`), from the page
/// or `--open`.
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
            follow::FromAddress::Tournament(id) => {
                let open = pages::TourAction::Open(id);
                commands.trigger(pages::Press(pages::PageAction::Tour(open)));
                continue;
            }
        });
    }
}
