//! The browser's side of export and import: the game's file is offered as a download, and an
//! import opens the browser's file picker; the chosen file is read by the browser and handed to
//! the game on a later frame.
//!
//! A browser opens a picker only from the player's own gesture, within its few seconds of "user
//! activation" (Safari's rules are stricter than Chromium's). So while a button that opens the
//! picker is on screen (`OpensFilePicker`), a real, invisible file input lies over it: a click
//! or a tap there opens the picker from the gesture itself, whatever the game's frames are
//! doing, and the button is pressed in the game as if the canvas had taken the click. Keys and
//! the page's accessibility mirror press the game's button, which opens a picker of its own.

use std::cell::{Cell, RefCell};

use bevy::prelude::*;
use bevy::ui::UiGlobalTransform;
use bevy::window::PrimaryWindow;
use web_sys::js_sys::Array;
use web_sys::wasm_bindgen::closure::Closure;
use web_sys::wasm_bindgen::{JsCast, JsValue};
use web_sys::{Blob, BlobPropertyBag, Event, FileReader, HtmlAnchorElement, HtmlInputElement, Url};

use super::OpensFilePicker;
use super::idle::{Waker, waker};
use super::overlay;
use crate::game::state::Import;

thread_local! {
    /// A file the player picked, read and waiting for the next frame.
    static PICKED: RefCell<Option<Import>> = const { RefCell::new(None) };
    /// Wakes the sleeping game for it: the page's file reader is no event its window sees, and
    /// the game would otherwise sleep until the next touch (`idle.rs`: up to a minute).
    static WAKE: RefCell<Option<Waker>> = const { RefCell::new(None) };
    /// The input laid over the button on screen, and the style last written to it.
    static LAID: RefCell<Option<(HtmlInputElement, String)>> = const { RefCell::new(None) };
    /// The laid input was clicked: its picker is open, and the game's button is to be pressed.
    static CLICKED: Cell<bool> = const { Cell::new(false) };
    /// The pointer is over the laid input (so not over the canvas): the button shows it.
    static HOVERED: Cell<bool> = const { Cell::new(false) };
    /// The clicked input, to be hidden once its click is over (hidden during the click, it
    /// would open nothing).
    static OPENED: RefCell<Option<HtmlInputElement>> = const { RefCell::new(None) };
}

pub(super) fn plugin(app: &mut App) {
    let wake = waker(app);
    WAKE.with(|cell| *cell.borrow_mut() = wake);
    app.add_systems(Update, hand_over_picked_file);
    // The press and the hover go in after Bevy has worked out the buttons' interactions from
    // the pointer, which never reached the canvas.
    app.add_systems(
        PreUpdate,
        pass_the_pointer_on.after(bevy::ui::UiSystems::Focus),
    );
    app.add_systems(
        PostUpdate,
        lay_the_picker.after(bevy::ui::UiSystems::Layout),
    );
}

fn hand_over_picked_file(mut commands: Commands) {
    if let Some(import) = PICKED.with(|picked| picked.borrow_mut().take()) {
        commands.trigger(import);
    }
}

/// A click on the laid input presses the button under it, for the game's own reply (a sound,
/// the menu closed; the picker it opens is already open), and the pointer over it lights the
/// button as the canvas's pointer would.
fn pass_the_pointer_on(mut buttons: Query<&mut Interaction, With<OpensFilePicker>>) {
    let Some(mut interaction) = buttons.iter_mut().next() else {
        CLICKED.set(false);
        return;
    };
    if CLICKED.get() {
        *interaction = Interaction::Pressed;
    } else if HOVERED.get() {
        interaction.set_if_neq(Interaction::Hovered);
    }
}

/// Keep an input over the button that opens the picker while one is shown; remove it when none
/// is.
fn lay_the_picker(
    window: Single<&Window, With<PrimaryWindow>>,
    buttons: Query<(&ComputedNode, &UiGlobalTransform), With<OpensFilePicker>>,
) {
    if let Some(opened) = OPENED.take() {
        let _ = opened.set_attribute("style", "display:none");
    }
    let scale = window.resolution.scale_factor();
    let shown = buttons
        .iter()
        .next()
        .map(|(node, at)| overlay::css_rect(node, at, scale));
    LAID.with(|laid| {
        let mut laid = laid.borrow_mut();
        let Some((corner, size)) = shown else {
            if let Some((input, _)) = laid.take() {
                input.remove();
            }
            HOVERED.set(false);
            return;
        };
        if laid.is_none() {
            *laid = laid_input().map(|input| (input, String::new()));
        }
        if let Some((input, written)) = laid.as_mut() {
            overlay::place(input, written, corner, size, "padding:0;cursor:pointer");
        }
    });
}

/// A file input for the laid picker, in the canvas's parent (which the canvas fills). Once
/// clicked it is the open picker's: it leaves the button (a new one is laid if the button
/// stays) and removes itself once a file is picked or the picker cancelled.
fn laid_input() -> Option<HtmlInputElement> {
    let parent = overlay::layer()?;
    let input = file_input().ok()?;
    // The page's mirror offers the button to screen readers and keys; this is for pointers.
    let _ = input.set_attribute("aria-hidden", "true");
    let _ = input.set_attribute("tabindex", "-1");
    let _ = input.set_attribute("data-picker", "laid");
    let opened = input.clone();
    let on_click = Closure::<dyn FnMut(Event)>::new(move |_: Event| {
        let _ = opened.set_attribute("data-picker", "open");
        LAID.with(|laid| laid.borrow_mut().take());
        OPENED.set(Some(opened.clone()));
        CLICKED.set(true);
        HOVERED.set(false);
        wake();
    });
    let on_hover = |over: bool| {
        Closure::<dyn FnMut(Event)>::new(move |_: Event| {
            HOVERED.set(over);
            wake();
        })
    };
    // The listeners live as long as the element; the page drops them when it is removed.
    for (name, listener) in [
        ("click", on_click),
        ("pointerenter", on_hover(true)),
        ("pointerleave", on_hover(false)),
    ] {
        let _ = input.add_event_listener_with_callback(name, listener.as_ref().unchecked_ref());
        listener.forget();
    }
    parent.append_child(&input).ok()?;
    Some(input)
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

/// Open the browser's file picker for a game file (what is picked arrives as an `Import`),
/// unless the laid input's click has just opened it.
pub fn pick_file() -> Result<(), String> {
    if CLICKED.replace(false) {
        return Ok(());
    }
    let input = file_input()?;
    // In the page (hidden) while it is open: some browsers only open pickers of the page's own.
    input.set_hidden(true);
    let _ = input.set_attribute("data-picker", "open");
    let body = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
        .ok_or("the page has no body")?;
    body.append_child(&input).map_err(describe)?;
    input.click();
    Ok(())
}

/// A file input for a game file that reads what is picked, hands it to the game and removes
/// itself, as it does when the picker is cancelled.
fn file_input() -> Result<HtmlInputElement, String> {
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
    let picker = input.clone();
    let on_change = Closure::once_into_js(move |_: Event| {
        picker.remove();
        if let Some(file) = picker.files().and_then(|files| files.get(0)) {
            read(file);
        }
    });
    input.set_onchange(Some(on_change.unchecked_ref()));
    // A cancelled picker leaves nothing behind in the page.
    let cancelled = input.clone();
    let on_cancel = Closure::once_into_js(move |_: Event| cancelled.remove());
    input.set_oncancel(Some(on_cancel.unchecked_ref()));
    Ok(input)
}

/// Read the picked `file` as text and hand it to the game.
fn read(file: web_sys::File) {
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
}

fn deliver(import: Result<String, String>) {
    PICKED.with(|picked| *picked.borrow_mut() = Some(Import(import)));
    wake();
}

fn wake() {
    WAKE.with(|wake| {
        if let Some(wake) = &*wake.borrow() {
            wake();
        }
    });
}

fn describe(e: JsValue) -> String {
    e.as_string().unwrap_or_else(|| format!("{e:?}"))
}
