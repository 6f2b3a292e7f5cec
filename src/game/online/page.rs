//! In the browser: the online state as attributes of the game's canvas, beside the board's
//! (`data-link` open/connecting/retrying/off, `data-room` the code, `data-room-phase`
//! none/waiting/playing/ended, `data-you` our seat, `data-clocks` by seat in ms as of the
//! last frame, `data-result` the cause of the end), for browser tests to read.

use bevy::prelude::*;

use super::client::Online;
use super::link::{Link, LinkState};
use crate::net::room;

/// What was last written, so that an unchanged attribute is not written again.
#[derive(Default)]
struct Written(Vec<(&'static str, String)>);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Last, publish);
}

fn publish(online: Res<Online>, link: Res<Link>, mut written: Local<Written>) {
    let Some(canvas) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("game"))
    else {
        return;
    };
    let link_state = match link.state() {
        LinkState::Open if online.welcomed() => "open",
        LinkState::Off => "off",
        LinkState::Retrying { .. } => "retrying",
        _ => "connecting",
    };
    let room = online.room.as_ref();
    let state = room.and_then(|r| r.state.as_ref());
    let phase = match state.map(|s| &s.phase) {
        None => "none",
        Some(room::Phase::Waiting) => "waiting",
        Some(room::Phase::Playing) => "playing",
        Some(room::Phase::Ended(_)) => "ended",
    };
    let clocks = state
        .and_then(|s| s.clocks_at(online.server_now()))
        .map(|c| c.iter().map(i64::to_string).collect::<Vec<_>>().join(","))
        .unwrap_or_default();
    let result = match state.map(|s| &s.phase) {
        Some(room::Phase::Ended(result)) => format!("{:?}", result.cause).to_lowercase(),
        _ => String::new(),
    };
    let values: Vec<(&'static str, String)> = vec![
        ("data-link", link_state.to_owned()),
        ("data-room", room.map_or(String::new(), |r| r.code.clone())),
        ("data-room-phase", phase.to_owned()),
        (
            "data-you",
            room.and_then(|r| r.you)
                .map_or("none".to_owned(), |s| s.to_string()),
        ),
        ("data-clocks", clocks),
        ("data-result", result),
    ];
    for (name, value) in &values {
        if !written.0.iter().any(|(n, v)| n == name && v == value) {
            // A page without the attribute loses nothing but the tests' view.
            let _ = canvas.set_attribute(name, value);
        }
    }
    written.0 = values;
}
