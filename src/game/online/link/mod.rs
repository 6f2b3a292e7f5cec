//! The connection to `oaq-server`: one WebSocket (a thread of ewebsock's on desktop, the
//! browser's own on the web), drained every frame so that nothing waits on the network, and
//! opened again with backoff whenever it drops. It only carries frames; what they mean is
//! `client`'s, which also gives the greeting the socket sends the moment it opens.

use bevy::platform::time::Instant;
use bevy::prelude::*;
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use crate::game::platform::idle::{Waker, waker};
use crate::net::protocol::{ClientMessage, MAX_SERVER_FRAME, ServerMessage, parse_server_frame};

#[cfg(not(target_arch = "wasm32"))]
mod native;
#[cfg(target_arch = "wasm32")]
mod web;
#[cfg(not(target_arch = "wasm32"))]
use native::Conn;
#[cfg(target_arch = "wasm32")]
use web::Conn;

/// The largest frame taken from the server (a snapshot of a long game, or a batch).
const MAX_INCOMING: usize = MAX_SERVER_FRAME;

/// What a socket reports, on either platform.
enum SocketEvent {
    /// Open, the greeting sent.
    Opened,
    Text(String),
    Failed(String),
    Closed,
}

/// First wait before connecting again, and the longest.
const FIRST_RETRY: Duration = Duration::from_millis(300);
const LONGEST_RETRY: Duration = Duration::from_secs(5);
/// A connection that has not opened by then is given up and tried again.
const OPEN_TIMEOUT: Duration = Duration::from_secs(8);

/// Where the connection stands, as the screens word it.
#[derive(Clone, Debug, PartialEq)]
pub enum LinkState {
    /// Not connected, and not trying (before "Play online", after leaving it).
    Off,
    /// The first attempt is under way.
    Connecting,
    Open,
    /// It dropped (or never opened): attempt `attempt` comes at `at`.
    Retrying {
        attempt: u32,
        at: Instant,
        why: String,
    },
}

/// What the connection did this frame, for `client`.
#[derive(Message, Debug, Clone)]
pub enum LinkEvent {
    /// Open: say hello.
    Up,
    /// Boxed: the largest messages (a profile, a challenge) are much larger than the rest.
    Message(Box<ServerMessage>),
    /// Dropped; a new attempt is scheduled.
    Down(String),
}

/// The connection's state, and what is to be sent: a resource every system may read. The
/// socket itself lives in `Socket`, on the main thread (the browser's WebSocket cannot leave
/// it); `pump` and `flush` carry the queued frames and requests over.
#[derive(Resource)]
pub struct Link {
    url: String,
    state: LinkState,
    /// Failed attempts in a row, for the backoff.
    failures: u32,
    opened_at: Instant,
    outbox: Vec<String>,
    /// Close the socket before anything else (a retry, a new server, leaving).
    close: bool,
    /// Open a socket.
    connect: bool,
    /// What the next socket says as it opens, before any frame of the game runs.
    greeting: Vec<ClientMessage>,
    /// What the current socket said as it opened.
    greeted: Vec<ClientMessage>,
}

/// The WebSocket, when there is one, and how a frame from it wakes the sleeping event loop.
#[derive(Default)]
pub struct Socket(Option<(Conn, Receiver<SocketEvent>)>, Option<Waker>);

impl Link {
    /// Not connected to `url` yet.
    pub fn new(url: impl Into<String>) -> Link {
        Link {
            url: url.into(),
            state: LinkState::Off,
            failures: 0,
            opened_at: Instant::now(),
            outbox: Vec::new(),
            close: false,
            connect: false,
            greeting: Vec::new(),
            greeted: Vec::new(),
        }
    }

    /// What a socket opened from now on says the instant it opens (the hello, the room we go
    /// back to), in order, before the game's next frame: `client` keeps it up to date while
    /// the link is not open.
    pub fn set_greeting(&mut self, greeting: Vec<ClientMessage>) {
        self.greeting = greeting;
    }

    /// What the open socket said as it opened (empty when no greeting was set).
    pub fn greeted(&self) -> &[ClientMessage] {
        &self.greeted
    }

    pub fn url(&self) -> &str {
        &self.url
    }

    pub fn state(&self) -> &LinkState {
        &self.state
    }

    pub fn is_open(&self) -> bool {
        self.state == LinkState::Open
    }

    /// Connect, unless connected or trying already. `url` may differ from before (the
    /// settings' server changed): then the old connection is dropped.
    pub fn start(&mut self, url: &str) {
        if url != self.url {
            self.stop();
            self.url = url.to_owned();
        }
        if self.state == LinkState::Off {
            self.failures = 0;
            self.state = LinkState::Connecting;
            self.opened_at = Instant::now();
            self.connect = true;
        }
    }

    /// Connect again now, after a failure the player chose to retry.
    pub fn retry_now(&mut self) {
        self.stop();
        let url = self.url.clone();
        self.start(&url);
    }

    /// Close the connection and stop trying.
    pub fn stop(&mut self) {
        self.close = true;
        self.connect = false;
        self.outbox.clear();
        self.state = LinkState::Off;
    }

    /// Close and connect again after `after` (the server is stopping and said so).
    pub fn reconnect_after(&mut self, after: Duration) {
        self.close = true;
        self.outbox.clear();
        self.state = LinkState::Retrying {
            attempt: 1,
            at: Instant::now() + after,
            why: String::new(),
        };
    }

    /// Send `msg` if the connection is open (this frame, in order); `false` if it is not (the
    /// caller says again what it still needs after the next `Up`).
    pub fn send(&mut self, msg: &ClientMessage) -> bool {
        if !self.is_open() {
            return false;
        }
        match serde_json::to_string(msg) {
            Ok(text) => {
                self.outbox.push(text);
                true
            }
            Err(e) => {
                error!("online: a message that does not serialise: {e}");
                false
            }
        }
    }

    /// The connection failed or dropped: wait, longer each time in a row, then try again.
    fn failed(&mut self, why: String) {
        self.close = true;
        self.outbox.clear();
        let wait = backoff(self.failures);
        self.failures = self.failures.saturating_add(1);
        self.state = LinkState::Retrying {
            attempt: self.failures,
            at: Instant::now() + wait,
            why,
        };
    }
}

impl Socket {
    fn open(&mut self, link: &mut Link) {
        let mut frames = Vec::with_capacity(link.greeting.len());
        for msg in &link.greeting {
            match serde_json::to_string(msg) {
                Ok(text) => frames.push(text),
                Err(e) => error!("online: a greeting that does not serialise: {e}"),
            }
        }
        let (tx, rx) = channel();
        match Conn::open(&link.url, frames, tx, self.1.clone()) {
            Ok(conn) => {
                self.0 = Some((conn, rx));
                link.greeted = link.greeting.clone();
            }
            Err(e) => link.failed(e),
        }
    }

    fn close(&mut self) {
        self.0 = None;
    }
}

/// Requests to close or open, and the frames queued: carried out on the socket. A socket opens
/// only where `open` says: at the frame's end, once `client` has made the greeting it says.
/// (Only a change of state counts as a change of the link, for the screens: callers pass it
/// past change detection.)
fn carry_out(quiet: &mut Link, socket: &mut Socket, open: bool) {
    if std::mem::take(&mut quiet.close) {
        socket.close();
    }
    if open && std::mem::take(&mut quiet.connect) {
        quiet.opened_at = Instant::now();
        socket.open(quiet);
    }
    if let Some((conn, _)) = socket.0.as_mut() {
        for text in quiet.outbox.drain(..) {
            conn.send(text);
        }
    }
}

/// The socket a room link's page opened while the game downloaded, closed: the game does not
/// connect yet (the first visit's question waits for an answer).
#[cfg(target_arch = "wasm32")]
pub(super) fn close_early_socket() {
    web::take_early_socket(None);
}

/// Carry out the link's requests now, outside any system: a room link's page connects while
/// the app is still being built (see `online::plugin`).
#[cfg(target_arch = "wasm32")]
pub(super) fn carry_out_now(world: &mut World) {
    world.resource_scope(|world, mut link: Mut<Link>| {
        if let Some(mut socket) = world.get_non_send_mut::<Socket>() {
            carry_out(link.bypass_change_detection(), &mut socket, true);
        }
    });
}

/// The wait before attempt `failures + 1`: 300 ms doubling up to 5 s, with a fifth of jitter
/// so that clients dropped together do not all come back in the same instant.
pub fn backoff(failures: u32) -> Duration {
    let base = FIRST_RETRY.saturating_mul(1 << failures.min(5));
    let base = base.min(LONGEST_RETRY);
    let jitter = 0.8 + 0.2 * rand::random::<f32>();
    base.mul_f32(jitter)
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<LinkEvent>();
    // In a window, a frame from the server wakes the event loop; headless apps run anyway.
    app.insert_non_send(Socket(None, waker(app)));
    app.add_systems(Update, pump.in_set(crate::game::state::GameSet::Input));
    // What this frame's systems asked to send goes out at its end, not a frame later.
    app.add_systems(PostUpdate, flush);
}

pub(super) fn flush(link: Option<ResMut<Link>>, mut socket: NonSendMut<Socket>) {
    if let Some(mut link) = link {
        carry_out(link.bypass_change_detection(), &mut socket, true);
    }
}

/// Everything that arrived since the last frame, and the attempts that are due.
pub(super) fn pump(
    link: Option<ResMut<Link>>,
    mut socket: NonSendMut<Socket>,
    mut events: MessageWriter<LinkEvent>,
    mut wake: ResMut<crate::game::state::Wake>,
) {
    let Some(mut link) = link else { return };
    carry_out(link.bypass_change_detection(), &mut socket, false);
    let now = Instant::now();
    // Frames for the next attempt and the open timeout; what arrives wakes the loop itself.
    let wake = wake.bypass_change_detection();
    match link.state {
        LinkState::Retrying { at, .. } => wake.within(at.saturating_duration_since(now)),
        LinkState::Connecting => wake.within(OPEN_TIMEOUT),
        _ => {}
    }
    // An attempt that is due opens at this frame's end (`flush`), with the greeting made then.
    if let LinkState::Retrying { at, .. } = link.state
        && now >= at
        && socket.0.is_none()
    {
        link.bypass_change_detection().connect = true;
    }
    let opening =
        link.state == LinkState::Connecting || matches!(link.state, LinkState::Retrying { .. });
    if opening && socket.0.is_some() && now.duration_since(link.opened_at) > OPEN_TIMEOUT {
        link.failed("no answer".to_owned());
        socket.close();
        events.write(LinkEvent::Down("no answer".to_owned()));
    }
    loop {
        let Some((_, receiver)) = socket.0.as_ref() else {
            return;
        };
        let Ok(event) = receiver.try_recv() else {
            return;
        };
        match event {
            SocketEvent::Opened => {
                link.state = LinkState::Open;
                link.failures = 0;
                events.write(LinkEvent::Up);
            }
            // A batch's messages are this frame's, in order.
            SocketEvent::Text(text) => match parse_server_frame(&text) {
                Ok(messages) => {
                    events.write_batch(
                        messages
                            .into_iter()
                            .map(|m| LinkEvent::Message(Box::new(m))),
                    );
                }
                Err(e) => warn!(
                    "online: a frame from the server that is not the protocol ({e}): {}",
                    crate::excerpt::quoted(&text)
                ),
            },
            SocketEvent::Failed(why) => {
                link.failed(why.clone());
                socket.close();
                events.write(LinkEvent::Down(why));
            }
            SocketEvent::Closed => {
                link.failed("closed".to_owned());
                socket.close();
                events.write(LinkEvent::Down("closed".to_owned()));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backoff_starts_short_and_stops_growing_at_five_seconds() {
        for _ in 0..50 {
            let first = backoff(0);
            assert!(first >= Duration::from_millis(240) && first <= FIRST_RETRY);
            assert!(backoff(1) > first.mul_f32(1.2), "it grows");
            for failures in [6, 20, u32::MAX] {
                let wait = backoff(failures);
                assert!(wait <= LONGEST_RETRY && wait >= LONGEST_RETRY.mul_f32(0.8));
            }
        }
    }
}
