//! Telling players what happened while they were away: Web Push to the devices they subscribed
//! ([`push`]) and a daily e-mail of the games waiting for their move ([`mail`]). Each is sent
//! only when the player wants it and is not connected (a connected player hears it in the
//! game), off the task that caused it, with every wait bounded: a push service or mail server
//! that is slow or down costs a log line, never a room's time.

pub mod mail;
pub mod push;

use std::sync::Arc;

use crate::net::notify::Event;
use crate::server::shared::Server;

/// Tell `player` of `event` by push, if they want it and are not connected anywhere. Returns at
/// once; the sending goes on in its own task.
pub async fn tell_away(server: &Arc<Server>, player: &str, event: Event) {
    let Some(push) = server.push.clone() else {
        return;
    };
    if server.online(&[player.to_owned()]).await.first() == Some(&true) {
        return;
    }
    let server = server.clone();
    let player = player.to_owned();
    tokio::spawn(async move {
        push.send_to(&server, &player, &event).await;
    });
}
