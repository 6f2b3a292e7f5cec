//! The socket outside the browser: ewebsock's, a thread that connects, reads and writes. What
//! is sent before the handshake ends waits in its queue and leaves first, so the greeting goes
//! out the moment the socket opens without waiting for one of the game's frames.

use std::ops::ControlFlow;
use std::sync::mpsc::Sender;
use std::time::Duration;

use ewebsock::{WsEvent, WsMessage, WsSender};

use super::{MAX_INCOMING, SocketEvent, Waker};

/// An open (or opening) connection; closed when dropped.
pub(super) struct Conn(WsSender);

impl Conn {
    /// Connect to `url`; `greeting` leaves first, what arrives goes to `events` and wakes the
    /// event loop.
    pub(super) fn open(
        url: &str,
        greeting: Vec<String>,
        events: Sender<SocketEvent>,
        wake: Option<Waker>,
    ) -> Result<Conn, String> {
        let options = ewebsock::Options {
            max_incoming_frame_size: MAX_INCOMING,
            // The socket's thread looks for frames to send between reads: 40 ms keeps sends
            // prompt and the thread nearly asleep (ewebsock's 10 ms costs a tenth of a core
            // here in a debug build).
            read_timeout: Some(Duration::from_millis(40)),
            ..ewebsock::Options::default()
        };
        let on_event = Box::new(move |event: WsEvent| {
            let event = match event {
                WsEvent::Opened => SocketEvent::Opened,
                WsEvent::Message(WsMessage::Text(text)) => SocketEvent::Text(text),
                // The connection's own pings and pongs need no frame; the protocol has no
                // binary frames.
                WsEvent::Message(_) => return ControlFlow::Continue(()),
                WsEvent::Error(why) => SocketEvent::Failed(why),
                WsEvent::Closed => SocketEvent::Closed,
            };
            let sent = events.send(event);
            if let Some(wake) = &wake {
                wake();
            }
            match sent {
                Ok(()) => ControlFlow::Continue(()),
                Err(_) => ControlFlow::Break(()),
            }
        });
        let mut sender = ewebsock::ws_connect(url.to_owned(), options, on_event)?;
        for text in greeting {
            sender.send(WsMessage::Text(text));
        }
        Ok(Conn(sender))
    }

    pub(super) fn send(&mut self, text: String) {
        self.0.send(WsMessage::Text(text));
    }
}

impl Drop for Conn {
    fn drop(&mut self) {
        self.0.close();
    }
}
