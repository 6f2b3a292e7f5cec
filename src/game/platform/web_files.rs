//! The browser's side of export and import: the game's file is offered as a download, and an
//! import opens the browser's file picker; the chosen file is read by the browser and handed to
//! the game on a later frame.

use std::cell::RefCell;

use bevy::prelude::*;
use bevy::winit::{EventLoopProxy, EventLoopProxyWrapper, WinitUserEvent};
use web_sys::js_sys::Array;
use web_sys::wasm_bindgen::closure::Closure;
use web_sys::wasm_bindgen::{JsCast, JsValue};
use web_sys::{Blob, BlobPropertyBag, Event, FileReader, HtmlAnchorElement, HtmlInputElement, Url};

use crate::game::state::Import;

thread_local! {
    /// A file the player picked, read and waiting for the next frame.
    static PICKED: RefCell<Option<Import>> = const { RefCell::new(None) };
    /// Wakes the sleeping game for it: the page's file reader is no event its window sees, and
    /// the game would otherwise sleep until the next touch (`idle.rs`: up to a minute).
    static WAKE: RefCell<Option<EventLoopProxy<WinitUserEvent>>> = const { RefCell::new(None) };
}

pub(super) fn plugin(app: &mut App) {
    if let Some(proxy) = app.world().get_resource::<EventLoopProxyWrapper>() {
        let proxy = (**proxy).clone();
        WAKE.with(|wake| *wake.borrow_mut() = Some(proxy));
    }
    app.add_systems(Update, hand_over_picked_file);
}

fn hand_over_picked_file(mut commands: Commands) {
    if let Some(import) = PICKED.with(|picked| picked.borrow_mut().take()) {
        commands.trigger(import);
    }
}

/// Offer `text` as a file named `name` for the browser to download.
pub fn download(name: &str, text: &str) -> Result<(), String> {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("the page has no document")?;
    let options = BlobPropertyBag::new();
    options.set_type("text/plain;charset=utf-8");
    let parts = Array::of1(&JsValue::from_str(text));
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options).map_err(describe)?;
    let url = Url::create_object_url_with_blob(&blob).map_err(describe)?;
    let link: HtmlAnchorElement = document
        .create_element("a")
        .map_err(describe)?
        .dyn_into()
        .map_err(|_| "not a link")?;
    link.set_href(&url);
    link.set_download(name);
    link.click();
    Url::revoke_object_url(&url).map_err(describe)
}

/// Open the browser's file picker for a game file; what is picked arrives as an `Import`.
pub fn pick_file() -> Result<(), String> {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("the page has no document")?;
    let input: HtmlInputElement = document
        .create_element("input")
        .map_err(describe)?
        .dyn_into()
        .map_err(|_| "not an input")?;
    input.set_type("file");
    input.set_accept(".ron,text/plain");
    // In the page (hidden) while it is open: some browsers only open pickers of the page's own.
    input.set_hidden(true);
    let body = document.body().ok_or("the page has no body")?;
    body.append_child(&input).map_err(describe)?;
    let picker = input.clone();
    let on_change = Closure::once_into_js(move |_: Event| {
        picker.remove();
        let Some(file) = picker.files().and_then(|files| files.get(0)) else {
            return;
        };
        let name = file.name();
        let reader = match FileReader::new() {
            Ok(reader) => reader,
            Err(e) => return deliver(Err(format!("{name}: {}", describe(e)))),
        };
        let done = reader.clone();
        let on_load = Closure::once_into_js(move |_: Event| {
            let text = done.result().ok().and_then(|r| r.as_string());
            deliver(text.ok_or_else(|| format!("{name}: not a text file")));
        });
        reader.set_onloadend(Some(on_load.unchecked_ref()));
        if let Err(e) = reader.read_as_text(&file) {
            deliver(Err(describe(e)));
        }
    });
    input.set_onchange(Some(on_change.unchecked_ref()));
    // A cancelled picker leaves nothing behind in the page.
    let cancelled = input.clone();
    let on_cancel = Closure::once_into_js(move |_: Event| cancelled.remove());
    input.set_oncancel(Some(on_cancel.unchecked_ref()));
    input.click();
    Ok(())
}

fn deliver(import: Result<String, String>) {
    PICKED.with(|picked| *picked.borrow_mut() = Some(Import(import)));
    WAKE.with(|wake| {
        if let Some(proxy) = &*wake.borrow() {
            let _ = proxy.send_event(WinitUserEvent::WakeUp);
        }
    });
}

fn describe(e: JsValue) -> String {
    e.as_string().unwrap_or_else(|| format!("{e:?}"))
}
