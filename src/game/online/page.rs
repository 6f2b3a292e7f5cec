//! In the browser: the online state as attributes of the game's canvas, beside the board's
//! (`data-link` open/connecting/retrying/off, `data-room` the code, `data-room-phase`
//! none/waiting/playing/ended, `data-you` our seat, `data-clocks` by seat in ms as of the last
//! frame, `data-result` the cause of the end), and of people (`data-player` our id, `data-rating`,
//! `data-page` the people page open, `data-friend-code`, `data-link-code`, `data-friends` their
//! ids, `data-requests` and `data-challenges` waiting for our answer, `data-chat` the last phrase
//! heard as shown, `data-problem` the last refusal's code, `data-offer` a link's code waiting for
//! the player's answer as `link:An` or `friend:An` (`link:` while looked up), `data-previous` the
//! player this device was before), and `data-push` (this device's notifications: `idle`, `asking`,
//! `subscribed`, `failed`, `unsupported`, and the player's devices notified, `subscribed:1`),
//! `data-pool` (`waiting`, `alone-LEVEL`), `data-controls`: each online screen, people and game
//! button on screen as `Action@x,y` (its centre in CSS pixels), for browser tests to read and press
//! whatever the language and the layout.

use bevy::prelude::*;

use super::client::{Online, OnlineRead};
use super::controls::GameAction;
use super::field::TextField;
use super::form::OnlineAction;
use super::link::{Link, LinkState};
use super::pages::{OnlinePage, PageAction};
use super::push::PushDevice;
use crate::net::protocol::PlayerInfo;
use crate::net::room;

/// What was last written, so that an unchanged attribute is not written again.
#[derive(Default)]
struct Written(Vec<(&'static str, String)>);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Last, publish);
}

/// The buttons of people and of the online game, with their centres; a text field as
/// `Edit(Field)`.
fn controls(
    people: &Query<(&PageAction, &UiGlobalTransform)>,
    game: &Query<(&GameAction, &UiGlobalTransform)>,
    screen: &Query<(&OnlineAction, &UiGlobalTransform)>,
    fields: &Query<(&TextField, &UiGlobalTransform)>,
) -> String {
    let at = |t: &UiGlobalTransform| format!("{:.0},{:.0}", t.translation.x, t.translation.y);
    people
        .iter()
        .map(|(a, t)| format!("{a:?}@{}", at(t)))
        .chain(game.iter().map(|(a, t)| format!("{a:?}@{}", at(t))))
        .chain(screen.iter().map(|(a, t)| format!("{a:?}@{}", at(t))))
        .chain(
            fields
                .iter()
                .map(|(f, t)| format!("Edit({:?})@{}", f.0, at(t))),
        )
        .collect::<Vec<_>>()
        .join(";")
}

fn publish(
    online: OnlineRead,
    link: Res<Link>,
    page: Option<Res<State<OnlinePage>>>,
    prefs: Res<crate::game::state::Prefs>,
    people_buttons: Query<(&PageAction, &UiGlobalTransform)>,
    game_buttons: Query<(&GameAction, &UiGlobalTransform)>,
    screen_buttons: Query<(&OnlineAction, &UiGlobalTransform)>,
    fields: Query<(&TextField, &UiGlobalTransform)>,
    device: Res<PushDevice>,
    mut written: Local<Written>,
) {
    let Some(canvas) = crate::game::platform::page::canvas() else {
        return;
    };
    let online = online.view();
    let mut values = room_values(&online, &link, &prefs);
    let page = page.map_or(OnlinePage::Home, |p| *p.get());
    values.extend(player_values(&online, page, &device));
    values.extend(people_values(&online));
    let buttons = controls(&people_buttons, &game_buttons, &screen_buttons, &fields);
    values.push(("data-controls", buttons));
    for (name, value) in &values {
        if !written.0.iter().any(|(n, v)| n == name && v == value) {
            // A page without the attribute loses nothing but the tests' view.
            let _ = canvas.set_attribute(name, value);
        }
    }
    written.0 = values;
}

/// The connection and the room: `data-link`, `data-room`, `data-room-phase`, `data-you`,
/// `data-clocks`, `data-result`, `data-chat`, `data-players` (the names as shown, a bot's with
/// its mark).
fn room_values(
    online: &Online,
    link: &Link,
    prefs: &crate::game::state::Prefs,
) -> Vec<(&'static str, String)> {
    let link_state = match link.state() {
        LinkState::Open if online.identity.welcomed() => "open",
        LinkState::Off => "off",
        LinkState::Retrying { .. } => "retrying",
        _ => "connecting",
    };
    let room = online.in_room.room.as_ref();
    let state = room.and_then(|r| r.state.as_ref());
    let phase = match state.map(|s| &s.phase) {
        None => "none",
        Some(room::Phase::Waiting) => "waiting",
        Some(room::Phase::Playing) => "playing",
        Some(room::Phase::Ended(_)) => "ended",
    };
    let clocks = state
        .and_then(|s| s.clocks_at(online.connection.server_now()))
        .map(|c| c.iter().map(i64::to_string).collect::<Vec<_>>().join(","))
        .unwrap_or_default();
    let result = match state.map(|s| &s.phase) {
        Some(room::Phase::Ended(result)) => format!("{:?}", result.cause).to_lowercase(),
        _ => String::new(),
    };
    let people = &online.people;
    let chat = people.chat.last().map_or(String::new(), |said| {
        let lang = prefs.lang();
        let who = state
            .and_then(|s| s.seats.get(said.seat).cloned().flatten())
            .map_or(String::new(), |p| p.shown_name());
        lang.trf(
            "chat.said",
            &[
                ("who", &who),
                ("phrase", &super::pages::phrase_words(said.phrase, lang)),
            ],
        )
    });
    vec![
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
        ("data-chat", chat),
        (
            "data-players",
            state.map_or(String::new(), |s| {
                let names = s.seats.iter().flatten().map(PlayerInfo::shown_name);
                names.collect::<Vec<_>>().join(",")
            }),
        ),
    ]
}

/// Who we are and what is open: `data-player`, `data-rating`, `data-page`, `data-push`,
/// `data-pool`.
fn player_values(
    online: &Online,
    page: OnlinePage,
    device: &PushDevice,
) -> Vec<(&'static str, String)> {
    vec![
        (
            "data-player",
            online
                .identity
                .me
                .as_ref()
                .map_or(String::new(), |p| p.id.clone()),
        ),
        (
            "data-rating",
            online
                .identity
                .me
                .as_ref()
                .map_or(String::new(), |p| format!("{:.0}", p.rating)),
        ),
        ("data-page", page.name().to_owned()),
        (
            "data-push",
            format!(
                "{}:{}",
                match device {
                    PushDevice::Idle => "idle",
                    PushDevice::Asking => "asking",
                    PushDevice::Subscribed => "subscribed",
                    PushDevice::Failed(_) => "failed",
                    PushDevice::Unsupported => "unsupported",
                },
                online
                    .correspondence
                    .notifications
                    .as_ref()
                    .map_or(0, |n| n.devices)
            ),
        ),
        ("data-tournament", tournament_value(online)),
        (
            "data-pool",
            match &online.lobby.pool {
                None => String::new(),
                Some(pool) => match pool.computer {
                    Some(level) => format!("alone-{level}"),
                    None => "waiting".to_owned(),
                },
            },
        ),
    ]
}

/// The tournament followed (its page opened last): `ID:STATUS:JOINED:ROUND:PLACE:POINTS`
/// (`JOINED` 1 or 0; our place and points, 0 when not in it), empty when none was opened or it
/// has not arrived.
fn tournament_value(online: &Online) -> String {
    let followed = online.tournaments.followed.as_deref();
    let Some(view) = followed.and_then(|id| online.tournaments.view(id)) else {
        return String::new();
    };
    let me = online.identity.me.as_ref().map(|m| m.id.as_str());
    let mine = view
        .standings
        .iter()
        .find(|s| Some(s.player.id.as_str()) == me);
    format!(
        "{}:{}:{}:{}:{}:{}",
        view.line.id,
        view.line.status.as_str(),
        u8::from(view.joined),
        view.round,
        mine.map_or(0, |s| s.place),
        mine.map_or(0.0, |s| s.points + 0.0)
    )
}

/// People: friend and link codes, friends, what waits for our answer, the last refusal, a
/// link's offer and the player before.
fn people_values(online: &Online) -> Vec<(&'static str, String)> {
    let people = &online.people;
    vec![
        (
            "data-friend-code",
            people
                .profile
                .as_ref()
                .and_then(|p| p.friend_code.clone())
                .unwrap_or_default(),
        ),
        (
            "data-link-code",
            people
                .link_code
                .as_ref()
                .map_or(String::new(), |(c, _)| c.clone()),
        ),
        (
            "data-friends",
            people.relations.as_ref().map_or(String::new(), |r| {
                r.friends
                    .iter()
                    .map(|f| f.player.id.as_str())
                    .collect::<Vec<_>>()
                    .join(",")
            }),
        ),
        (
            "data-requests",
            people
                .relations
                .as_ref()
                .map_or(0, |r| r.incoming.len())
                .to_string(),
        ),
        ("data-challenges", people.incoming.len().to_string()),
        (
            "data-problem",
            online
                .connection
                .problem
                .as_ref()
                .map_or(String::new(), |p| p.code.to_string()),
        ),
        (
            "data-offer",
            online.identity.offer.as_ref().map_or(String::new(), |o| {
                let kind = format!("{:?}", o.kind).to_lowercase();
                let owner = o.owner.as_ref().map_or("", |p| p.name.as_str());
                format!("{kind}:{owner}")
            }),
        ),
        (
            "data-previous",
            online
                .identity
                .previous
                .as_ref()
                .map_or(String::new(), |p| p.name.clone()),
        ),
    ]
}
