//! The socket in the browser: the page's own WebSocket. Its `open` callback sends the greeting
//! itself: on a phone's CPU the game's frames at start-up are up to a second and a half apart,
//! and a hello left for the next frame would cost that frame and the server's answer another.

use std::rc::Rc;
use std::sync::mpsc::Sender;

use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{CloseEvent, Event, MessageEvent, WebSocket};

use super::{MAX_INCOMING, SocketEvent, Waker};

/// An open (or opening) connection and the callbacks it calls; closed when dropped.
pub(super) struct Conn {
    socket: WebSocket,
    _on_open: Closure<dyn FnMut(Event)>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(Event)>,
    _on_close: Closure<dyn FnMut(CloseEvent)>,
}

impl Conn {
    /// Connect to `url`; `greeting` leaves as the socket opens, what arrives goes to `events`
    /// and wakes the event loop.
    pub(super) fn open(
        url: &str,
        greeting: Vec<String>,
        events: Sender<SocketEvent>,
        wake: Option<Waker>,
    ) -> Result<Conn, String> {
        let socket = WebSocket::new(url).map_err(|e| describe(&e))?;
        let report: Rc<dyn Fn(SocketEvent)> = Rc::new(move |event| {
            let _ = events.send(event);
            if let Some(wake) = &wake {
                wake();
            }
        });
        let on_open = {
            let (socket, report) = (socket.clone(), report.clone());
            Closure::<dyn FnMut(Event)>::new(move |_: Event| {
                for text in &greeting {
                    if let Err(e) = socket.send_with_str(text) {
                        report(SocketEvent::Failed(describe(&e)));
                        return;
                    }
                }
                report(SocketEvent::Opened);
            })
        };
        let on_message = {
            let report = report.clone();
            Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
                // The protocol's frames are text; the browser answers pings itself.
                let Some(text) = e.data().as_string() else {
                    return;
                };
                report(if text.len() > MAX_INCOMING {
                    SocketEvent::Failed(format!("a frame of {} bytes", text.len()))
                } else {
                    SocketEvent::Text(text)
                });
            })
        };
        let on_error = {
            let report = report.clone();
            Closure::<dyn FnMut(Event)>::new(move |_: Event| {
                report(SocketEvent::Failed("the connection failed".to_owned()));
            })
        };
        let on_close =
            Closure::<dyn FnMut(CloseEvent)>::new(move |_: CloseEvent| report(SocketEvent::Closed));
        socket.set_onopen(Some(on_open.as_ref().unchecked_ref()));
        socket.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        socket.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        socket.set_onclose(Some(on_close.as_ref().unchecked_ref()));
        Ok(Conn {
            socket,
            _on_open: on_open,
            _on_message: on_message,
            _on_error: on_error,
            _on_close: on_close,
        })
    }

    pub(super) fn send(&mut self, text: String) {
        if let Err(e) = self.socket.send_with_str(&text) {
            bevy::log::warn!("online: a frame not sent ({})", describe(&e));
        }
    }
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
fn describe(error: &wasm_bindgen::JsValue) -> String {
    error.as_string().unwrap_or_else(|| format!("{error:?}"))
}
