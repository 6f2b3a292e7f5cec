//! What the client says the moment a socket opens: the hello and, right behind it, the room it
//! goes back to (a link's, or the one we were in). The link sends it from the socket's own
//! open, so no frame of the game is spent waiting to say it; the server takes a connection's
//! frames in order, so the hello's player is the one seated.

use bevy::prelude::*;

use super::identity::{device_label, display_name};
use super::state::{Connection, InRoom, Room};
use crate::game::online::link::Link;
use crate::game::state::Prefs;
use crate::net::protocol::{ClientMessage, PROTOCOL};

/// The hello as the settings and the kept token say it, and the room to go back to.
pub fn greeting(connection: &Connection, in_room: &InRoom, prefs: &Prefs) -> Vec<ClientMessage> {
    let room = in_room.room.as_ref().map(Room::enter);
    let hello = ClientMessage::Hello {
        protocol: PROTOCOL,
        name: display_name(&prefs.name, prefs.lang()),
        token: connection.token.clone(),
        device: Some(device_label()),
        child: prefs.child == Some(true),
        // What the server says comes in as few frames as it can: a browser hands the game
        // one frame per task, between its animation frames.
        batches: true,
        // The room follows the hello: the welcome and the room's answer come in one frame.
        then: u8::from(room.is_some()),
    };
    let mut frames = vec![hello];
    frames.extend(room);
    frames
}

/// The link's greeting kept up to date while it is not open (what it holds changes rarely:
/// the system runs when it may have).
pub(super) fn greet(
    mut link: ResMut<Link>,
    (connection, in_room): (Res<Connection>, Res<InRoom>),
    prefs: Res<Prefs>,
) {
    if !link.is_open() {
        link.bypass_change_detection()
            .set_greeting(greeting(&connection, &in_room, &prefs));
    }
}

/// Whether `greeted` took us into `room` as it is now (its code, playing or watching).
pub(super) fn entered(greeted: &[ClientMessage], room: &Room) -> bool {
    greeted.iter().any(|msg| match msg {
        ClientMessage::Join { code, .. } => !room.watching && *code == room.code,
        ClientMessage::Watch { code, .. } => room.watching && *code == room.code,
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_greeting_is_the_hello_then_the_room_with_its_last_event() {
        let connection = Connection::with_token(Some("kept".to_owned()));
        let mut in_room = InRoom::default();
        let prefs = Prefs::default();
        let alone = greeting(&connection, &in_room, &prefs);
        assert!(
            matches!(&alone[..], [ClientMessage::Hello { token: Some(t), child: false, batches: true, then: 0, .. }] if t == "kept")
        );
        let mut room = Room::new("ABCDEF".to_owned(), false);
        room.seq = Some(7);
        in_room.room = Some(room.clone());
        let back = greeting(&connection, &in_room, &prefs);
        assert!(
            matches!(back[0], ClientMessage::Hello { then: 1, .. }),
            "the hello says the room follows it"
        );
        assert_eq!(
            back[1],
            ClientMessage::Join {
                code: "ABCDEF".to_owned(),
                since: Some(7)
            }
        );
        assert!(entered(&back, &room));
        let watching = Room::new("ABCDEF".to_owned(), true);
        assert!(!entered(&back, &watching), "joined, not watching");
        assert!(!entered(&alone, &room));
        assert!(!entered(&back, &Room::new("GHJKMN".to_owned(), false)));
    }
}
