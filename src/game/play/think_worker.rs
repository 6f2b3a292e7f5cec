//! The browser's thinking worker: a Web Worker (`web/think-worker.js`, running `oaq-think`)
//! that searches on a core of its own while the page draws. Started on the first request, from
//! the script the page names (`window.oaqThinkWorker`, which only the built site sets); a
//! request whose work is dropped unanswered stops it, and the next request starts another.
//! Where there is no worker, or it fails, requests are refused or answered as failed and the
//! work goes on in slices on the page.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use web_sys::js_sys::{Object, Reflect};
use web_sys::wasm_bindgen::closure::Closure;
use web_sys::wasm_bindgen::{JsCast, JsValue};
use web_sys::{MessageEvent, Worker};

use crate::ai::remote::Request;

/// What came back for one request.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    Answer(String),
    /// The worker could not answer: the work goes on on the page.
    Failed,
}

type Replies = Arc<Mutex<HashMap<u32, Reply>>>;

/// The worker and what it has answered, kept on the page's thread (a `Worker` is not `Send`).
struct Link {
    worker: Worker,
    replies: Replies,
    /// Requests posted and not yet answered.
    waiting: Arc<Mutex<Vec<u32>>>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
}

thread_local! {
    static LINK: RefCell<Option<Link>> = const { RefCell::new(None) };
    /// Set once a worker failed to start or to load its module: this page thinks in slices
    /// from then on.
    static BROKEN: RefCell<bool> = const { RefCell::new(false) };
    static NEXT_ID: RefCell<u32> = const { RefCell::new(1) };
}

/// A request posted to the worker.
pub struct Pending {
    id: u32,
    replies: Replies,
}

impl Pending {
    /// The reply, once there is one.
    pub fn poll(&self) -> Option<Reply> {
        self.replies.lock().ok()?.remove(&self.id)
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        let answered = self
            .replies
            .lock()
            .map(|mut r| r.remove(&self.id).is_some())
            .unwrap_or(true);
        let still_waiting = LINK.with(|link| {
            link.borrow()
                .as_ref()
                .is_some_and(|l| l.waiting.lock().is_ok_and(|w| w.contains(&self.id)))
        });
        // Work dropped unanswered (a new game, a move taken back): stop the search, which
        // would hold the worker for its whole time; the next request starts a fresh one.
        if !answered && still_waiting {
            stop(self.id);
        }
    }
}

/// Post `request`; `None` where there is no worker to post it to.
pub fn post(request: &Request) -> Option<Pending> {
    if BROKEN.with(|b| *b.borrow()) {
        return None;
    }
    LINK.with(|link| {
        let mut link = link.borrow_mut();
        if link.is_none() {
            *link = start();
            if link.is_none() {
                BROKEN.with(|b| *b.borrow_mut() = true);
            }
        }
        let link = link.as_ref()?;
        let id = NEXT_ID.with(|n| {
            let mut n = n.borrow_mut();
            *n = n.wrapping_add(1).max(1);
            *n
        });
        let message = Object::new();
        Reflect::set(&message, &"id".into(), &JsValue::from(id)).ok()?;
        Reflect::set(&message, &"request".into(), &request.to_json().into()).ok()?;
        link.worker.post_message(&message).ok()?;
        link.waiting.lock().ok()?.push(id);
        Some(Pending {
            id,
            replies: link.replies.clone(),
        })
    })
}

/// Stop the worker and forget it, for the work of request `dropped`. Any other request still
/// waiting fails, so that its work goes on on the page rather than wait for ever.
fn stop(dropped: u32) {
    LINK.with(|link| {
        if let Some(link) = link.borrow_mut().take() {
            link.worker.terminate();
            let others: Vec<u32> = link
                .waiting
                .lock()
                .map(|mut w| w.drain(..).filter(|&id| id != dropped).collect())
                .unwrap_or_default();
            if let Ok(mut replies) = link.replies.lock() {
                for id in others {
                    replies.insert(id, Reply::Failed);
                }
            }
        }
    });
}

/// The worker the page names, with its listeners; `None` where there is none.
fn start() -> Option<Link> {
    let window = web_sys::window()?;
    let url = Reflect::get(&window, &"oaqThinkWorker".into())
        .ok()?
        .as_string()?;
    let worker = Worker::new(&url).ok()?;
    let replies: Replies = Arc::default();
    let waiting: Arc<Mutex<Vec<u32>>> = Arc::default();
    let on_message = {
        let (replies, waiting) = (replies.clone(), waiting.clone());
        Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let data = event.data();
            let Some(id) = Reflect::get(&data, &"id".into())
                .ok()
                .and_then(|v| v.as_f64())
                .map(|v| v as u32)
            else {
                return;
            };
            let answer = Reflect::get(&data, &"answer".into())
                .ok()
                .and_then(|v| v.as_string());
            // An answer that is an error object is a failure too: the request was ours, so
            // the worker and the page disagree (an old worker from the cache, say).
            let reply = match answer {
                Some(text) if !text.starts_with("{\"error\"") => Reply::Answer(text),
                _ => Reply::Failed,
            };
            if let Ok(mut w) = waiting.lock() {
                w.retain(|&x| x != id);
            }
            if let Ok(mut r) = replies.lock() {
                r.insert(id, reply);
            }
        })
    };
    let on_error = {
        let (replies, waiting) = (replies.clone(), waiting.clone());
        Closure::<dyn FnMut(web_sys::Event)>::new(move |_: web_sys::Event| {
            // The script or its module did not load: everything waiting fails, and the page
            // thinks for itself from now on.
            BROKEN.with(|b| *b.borrow_mut() = true);
            let ids: Vec<u32> = waiting
                .lock()
                .map(|mut w| w.drain(..).collect())
                .unwrap_or_default();
            if let Ok(mut r) = replies.lock() {
                for id in ids {
                    r.insert(id, Reply::Failed);
                }
            }
        })
    };
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    Some(Link {
        worker,
        replies,
        waiting,
        _on_message: on_message,
        _on_error: on_error,
    })
}
