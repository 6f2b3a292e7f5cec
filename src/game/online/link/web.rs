//! The socket in the browser: the page's own WebSocket. It sends the greeting itself, from its
//! `open` callback (on a phone's CPU the game's frames at start-up are up to a second and a
//! half apart: a hello left for the next frame costs that frame, and the answer another), or
//! at once when it takes the socket a room link's page opened while the game downloaded
//! (`web/index.html`).

use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{CloseEvent, Event, MessageEvent, WebSocket};

use super::{MAX_INCOMING, SocketEvent, Waker};
use crate::game::trace::mark;

/// Whether a connection has been made yet: the first one's steps go on the page's timeline (a
/// first visit's trace).
static TRACED: AtomicBool = AtomicBool::new(false);

/// Where the page leaves the socket it opened early.
const EARLY: &str = "oaqEarlySocket";

/// An open (or opening) connection and the callbacks it calls; closed when dropped.
pub(super) struct Conn {
    socket: WebSocket,
    on_open: Closure<dyn FnMut(Event)>,
    on_message: Closure<dyn FnMut(MessageEvent)>,
    on_error: Closure<dyn FnMut(Event)>,
    on_close: Closure<dyn FnMut(CloseEvent)>,
}

/// What arrives, for `link`, waking the event loop.
type Report = Rc<dyn Fn(SocketEvent)>;

impl Conn {
    /// Connect to `url` (or take the page's early socket to it); `greeting` leaves as the
    /// socket opens, what arrives goes to `events` and wakes the event loop.
    pub(super) fn open(
        url: &str,
        greeting: Vec<String>,
        events: Sender<SocketEvent>,
        wake: Option<Waker>,
    ) -> Result<Conn, String> {
        let traced = !TRACED.swap(true, Ordering::Relaxed);
        let socket = match take_early_socket(Some(url)) {
            Some(socket) => socket,
            None => {
                if traced {
                    mark("socket-asked");
                }
                WebSocket::new(url).map_err(|e| describe(&e))?
            }
        };
        let report: Report = {
            let events = events.clone();
            Rc::new(move |event| {
                let _ = events.send(event);
                if let Some(wake) = &wake {
                    wake();
                }
            })
        };
        let greet = {
            let socket = socket.clone();
            move |report: &dyn Fn(SocketEvent)| {
                for text in &greeting {
                    if let Err(e) = socket.send_with_str(text) {
                        report(SocketEvent::Failed(describe(&e)));
                        return;
                    }
                }
                if traced {
                    mark("greeting-sent");
                }
                report(SocketEvent::Opened);
            }
        };
        let open_now = socket.ready_state() == WebSocket::OPEN;
        if open_now {
            // Said while the app is being built: the event loop is not running yet, and a
            // wake-up sent to it now would keep it polling through the renderer's start.
            greet(&|event| drop(events.send(event)));
        }
        let mut greet = Some(greet);
        let on_open = {
            let report = report.clone();
            Closure::<dyn FnMut(Event)>::new(move |_: Event| {
                if traced {
                    mark("socket-opened");
                }
                if let Some(greet) = greet.take() {
                    greet(&*report);
                }
            })
        };
        let on_close = {
            let report = report.clone();
            Closure::<dyn FnMut(CloseEvent)>::new(move |_: CloseEvent| report(SocketEvent::Closed))
        };
        Ok(Conn {
            on_open,
            on_message: on_message(report.clone(), traced),
            on_error: Closure::new(move |_: Event| {
                report(SocketEvent::Failed("the connection failed".to_owned()))
            }),
            on_close,
            socket,
        }
        .listening(open_now))
    }

    /// The callbacks set on the socket (all but `open` when it is open already).
    fn listening(self, open: bool) -> Conn {
        let socket = &self.socket;
        if !open {
            socket.set_onopen(Some(self.on_open.as_ref().unchecked_ref()));
        }
        socket.set_onmessage(Some(self.on_message.as_ref().unchecked_ref()));
        socket.set_onerror(Some(self.on_error.as_ref().unchecked_ref()));
        socket.set_onclose(Some(self.on_close.as_ref().unchecked_ref()));
        self
    }

    pub(super) fn send(&mut self, text: String) {
        if let Err(e) = self.socket.send_with_str(&text) {
            bevy::log::warn!("online: a frame not sent ({})", describe(&e));
        }
    }
}

/// Each text frame from the server (the protocol has no binary ones; the browser answers pings
/// itself), refused when it is larger than the protocol allows.
fn on_message(report: Report, traced: bool) -> Closure<dyn FnMut(MessageEvent)> {
    let mut first = traced;
    Closure::new(move |e: MessageEvent| {
        if std::mem::take(&mut first) {
            mark("socket-first-frame");
        }
        let Some(text) = e.data().as_string() else {
            return;
        };
        report(if text.len() > MAX_INCOMING {
            SocketEvent::Failed(format!("a frame of {} bytes", text.len()))
        } else {
            SocketEvent::Text(text)
        });
    })
}

/// The socket a room link's page opened while the game downloaded, taken off the page (only
/// the first connection may use it): kept when it goes to `url` and is not closing, else
/// closed. `None` closes it whatever it is (the game will not connect yet).
pub(super) fn take_early_socket(url: Option<&str>) -> Option<WebSocket> {
    let window = web_sys::window()?;
    let key = JsValue::from_str(EARLY);
    let early = js_sys::Reflect::get(&window, &key).ok()?;
    let _ = js_sys::Reflect::delete_property(&window, &key);
    let socket = early.dyn_into::<WebSocket>().ok()?;
    let usable = socket.ready_state() <= WebSocket::OPEN && url.is_some_and(|u| socket.url() == u);
    if usable {
        return Some(socket);
    }
    let _ = socket.close();
    None
}

impl Drop for Conn {
    /// The callbacks are taken off before theirs are freed: the browser may still deliver an
    /// event for a socket being closed.
    fn drop(&mut self) {
        self.socket.set_onopen(None);
        self.socket.set_onmessage(None);
        self.socket.set_onerror(None);
        self.socket.set_onclose(None);
        let _ = self.socket.close();
    }
}

/// A JavaScript error in words.
fn describe(error: &JsValue) -> String {
    error.as_string().unwrap_or_else(|| format!("{error:?}"))
}
