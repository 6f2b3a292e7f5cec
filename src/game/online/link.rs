//! The connection to `oaq-server`: one WebSocket (a thread of ewebsock's on desktop, the
//! browser's own on the web), drained every frame so that nothing waits on the network, and
//! opened again with backoff whenever it drops. It only carries frames; what they mean is
//! `client`'s.

use bevy::platform::time::Instant;
use bevy::prelude::*;
use ewebsock::{WsEvent, WsMessage, WsSender};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use crate::net::protocol::{ClientMessage, MAX_FRAME, ServerMessage, parse_server};

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
}

/// The WebSocket, when there is one, and how a frame from it wakes the sleeping event loop.
#[derive(Default)]
pub struct Socket(Option<(WsSender, Receiver<WsEvent>)>, Option<Waker>);

/// Wakes the event loop from the socket's thread (or the browser's callback).
pub type Waker = std::sync::Arc<dyn Fn() + Send + Sync>;

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
        }
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
        let options = ewebsock::Options {
            // Four times the protocol's frame, as the server reads: a snapshot of a long game
            // is the largest thing it sends.
            max_incoming_frame_size: 4 * MAX_FRAME,
            // The socket's thread looks for frames to send between reads: 40 ms keeps sends
            // prompt and the thread nearly asleep (ewebsock's 10 ms costs a tenth of a core
            // here in a debug build).
            read_timeout: Some(Duration::from_millis(40)),
            ..ewebsock::Options::default()
        };
        let (tx, rx) = channel();
        let wake = self.1.clone();
        let on_event = Box::new(move |event: WsEvent| {
            // The connection's own pings and pongs need no frame; everything else does.
            let quiet = matches!(
                event,
                WsEvent::Message(WsMessage::Ping(_) | WsMessage::Pong(_))
            );
            let sent = tx.send(event);
            if !quiet && let Some(wake) = &wake {
                wake();
            }
            match sent {
                Ok(()) => std::ops::ControlFlow::Continue(()),
                Err(_) => std::ops::ControlFlow::Break(()),
            }
        });
        match ewebsock::ws_connect(link.url.clone(), options, on_event) {
            Ok(sender) => self.0 = Some((sender, rx)),
            Err(e) => link.failed(e),
        }
    }

    fn close(&mut self) {
        if let Some((mut sender, _)) = self.0.take() {
            sender.close();
        }
    }
}

/// Requests to close or open, and the frames queued: carried out on the socket.
fn carry_out(link: &mut ResMut<Link>, socket: &mut Socket) {
    // Only a change of state counts as a change of the link, for the screens.
    let quiet = link.bypass_change_detection();
    if std::mem::take(&mut quiet.close) {
        socket.close();
    }
    if std::mem::take(&mut quiet.connect) {
        quiet.opened_at = Instant::now();
        socket.open(quiet);
    }
    if let Some((sender, _)) = socket.0.as_mut() {
        for text in quiet.outbox.drain(..) {
            sender.send(WsMessage::Text(text));
        }
    }
}

/// The wait before attempt `failures + 1`: 300 ms doubling up to 5 s, with a fifth of jitter
/// so that clients dropped together do not all come back in the same instant.
pub fn backoff(failures: u32) -> Duration {
    let base = FIRST_RETRY.saturating_mul(1 << failures.min(5));
    let base = base.min(LONGEST_RETRY);
    let jitter = 0.8 + 0.2 * rand::random::<f32>();
    base.mul_f32(jitter)
}

/// A call that wakes the sleeping event loop for a frame, from any thread (none without a
/// window: headless apps run every frame anyway).
pub(super) fn waker(app: &App) -> Option<Waker> {
    let proxy = app
        .world()
        .get_resource::<bevy::winit::EventLoopProxyWrapper>()?;
    let proxy = (**proxy).clone();
    Some(std::sync::Arc::new(move || {
        let _ = proxy.send_event(bevy::winit::WinitUserEvent::WakeUp);
    }))
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<LinkEvent>();
    // In a window, a frame from the server wakes the event loop; headless apps run anyway.
    app.insert_non_send(Socket(None, waker(app)));
    app.add_systems(Update, pump.in_set(crate::game::state::GameSet::Input));
    // What this frame's systems asked to send goes out at its end, not a frame later.
    app.add_systems(PostUpdate, flush);
}

fn flush(link: Option<ResMut<Link>>, mut socket: NonSendMut<Socket>) {
    if let Some(mut link) = link {
        carry_out(&mut link, &mut socket);
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
    carry_out(&mut link, &mut socket);
    let now = Instant::now();
    // Frames for the next attempt and the open timeout; what arrives wakes the loop itself.
    let wake = wake.bypass_change_detection();
    match link.state {
        LinkState::Retrying { at, .. } => wake.within(at.saturating_duration_since(now)),
        LinkState::Connecting => wake.within(OPEN_TIMEOUT),
        _ => {}
    }
    if let LinkState::Retrying { at, .. } = link.state
        && now >= at
        && socket.0.is_none()
    {
        let quiet = link.bypass_change_detection();
        quiet.opened_at = now;
        socket.open(quiet);
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
            WsEvent::Opened => {
                link.state = LinkState::Open;
                link.failures = 0;
                events.write(LinkEvent::Up);
            }
            WsEvent::Message(WsMessage::Text(text)) => match parse_server(&text) {
                Ok(msg) => {
                    events.write(LinkEvent::Message(Box::new(msg)));
                }
                Err(e) => warn!(
                    "online: a frame from the server that is not the protocol ({e}): {}",
                    crate::excerpt::quoted(&text)
                ),
            },
            WsEvent::Message(_) => {}
            WsEvent::Error(why) => {
                link.failed(why.clone());
                socket.close();
                events.write(LinkEvent::Down(why));
            }
            WsEvent::Closed => {
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
