//! In the browser, the online screen's text fields are real text inputs: an invisible `<input>`
//! lies over each field the game draws, so that a tap opens the phone's own keyboard (with its
//! Vietnamese input methods), and a desktop browser's typing, pasting and composing work as in
//! any page. The game reads what is typed every frame, cleans it as its own typing does, and
//! draws it; Enter in the code field joins.

use std::cell::Cell;
use std::rc::Rc;

use bevy::prelude::*;
use bevy::ui::UiGlobalTransform;
use bevy::window::PrimaryWindow;
use web_sys::HtmlInputElement;
use web_sys::js_sys::Reflect;
use web_sys::wasm_bindgen::JsCast;
use web_sys::wasm_bindgen::closure::Closure;

use super::client::Ask;
use super::form::{Field, Form};
use super::link::Waker;
use super::lobby::{OnlineAction, clean_code, clean_name};
use crate::game::state::{Prefs, Screen};
use crate::net::protocol::{CODE_LEN, MAX_NAME, is_room_code};

/// One field's input element, and whether Enter was pressed in it since the last frame.
struct Input {
    element: HtmlInputElement,
    entered: Rc<Cell<bool>>,
    /// The style last written, to write it only when the field moves.
    style: String,
    /// The text last agreed between the input and the game: a change on one side is copied to
    /// the other.
    agreed: String,
}

/// The inputs of the fields on screen (the page's elements live on the main thread), and how
/// what happens in them wakes the sleeping game: typing is no event the game's window sees.
struct Inputs {
    name: Option<Input>,
    code: Option<Input>,
    wake: Option<Waker>,
}

pub(super) fn plugin(app: &mut App) {
    let wake = super::link::waker(app);
    app.insert_non_send(Inputs {
        name: None,
        code: None,
        wake,
    });
    app.add_systems(
        Update,
        follow_fields
            .run_if(in_state(Screen::Online))
            .in_set(crate::game::state::GameSet::Input),
    );
    app.add_systems(OnExit(Screen::Online), remove_all);
}

fn remove_all(mut inputs: NonSendMut<Inputs>) {
    for input in [inputs.name.take(), inputs.code.take()]
        .into_iter()
        .flatten()
    {
        input.element.remove();
    }
}

/// Lay an input over each field shown, take what was typed into it, and remove the inputs of
/// fields no longer shown (the waiting room, the leaderboard).
fn follow_fields(
    mut commands: Commands,
    mut inputs: NonSendMut<Inputs>,
    mut form: ResMut<Form>,
    mut prefs: ResMut<Prefs>,
    window: Single<&Window, With<PrimaryWindow>>,
    fields: Query<(&OnlineAction, &ComputedNode, &UiGlobalTransform)>,
) {
    let scale = window.resolution.scale_factor();
    let mut shown = [None, None];
    for (action, node, at) in &fields {
        let slot = match action {
            OnlineAction::EditName => 0,
            OnlineAction::EditCode => 1,
            _ => continue,
        };
        // The node's centre and size in physical pixels; the page wants CSS pixels.
        let size = node.size() / scale;
        let centre = at.translation / scale;
        shown[slot] = Some((centre - size / 2.0, size));
    }
    let Inputs { name, code, wake } = &mut *inputs;
    for (slot, input, field) in [(0, name, Field::Name), (1, code, Field::Code)] {
        let Some((corner, size)) = shown[slot] else {
            if let Some(gone) = input.take() {
                gone.element.remove();
            }
            continue;
        };
        let ours = match field {
            Field::Name => prefs.name.clone(),
            _ => form.code.clone(),
        };
        if input.is_none() {
            *input = create(field, &ours, wake.clone());
        }
        let Some(input) = input else { continue };
        let style = format!(
            "position:absolute;left:{:.0}px;top:{:.0}px;width:{:.0}px;height:{:.0}px;\
             box-sizing:border-box;margin:0;border:0;padding:0 8px;opacity:0;\
             font-size:16px;z-index:2;cursor:text",
            corner.x, corner.y, size.x, size.y
        );
        if input.style != style {
            let _ = input.element.set_attribute("style", &style);
            input.style = style;
        }
        let typed = input.element.value();
        if typed != input.agreed {
            // Typed in the page: cleaned as the game's own typing is, and shown cleaned.
            let clean = match field {
                Field::Name => clean_name("", &typed),
                _ => clean_code("", &typed),
            };
            if clean != typed {
                input.element.set_value(&clean);
            }
            match field {
                Field::Name if prefs.name != clean => prefs.name = clean.clone(),
                Field::Code if form.code != clean => form.code = clean.clone(),
                _ => {}
            }
            input.agreed = clean;
        } else if ours != input.agreed {
            // Changed by the game (a code cleared, typing while the canvas had the focus).
            input.element.set_value(&ours);
            input.agreed = ours;
        }
        // The game draws the caret while the input has the focus.
        let focused = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.active_element())
            .is_some_and(|e| &e == AsRef::<web_sys::Element>::as_ref(&input.element));
        if focused && form.editing != field {
            form.editing = field;
        } else if !focused && form.editing == field {
            form.editing = Field::None;
        }
        if input.entered.replace(false) {
            let _ = input.element.blur();
            form.editing = Field::None;
            if field == Field::Code && is_room_code(&form.code) {
                commands.trigger(Ask::Join(form.code.clone()));
            }
        }
    }
}

/// An input for `field` holding `value`, in the canvas's parent (which the canvas fills): what
/// is typed, the focus coming and going, and Enter each `wake` the game for a frame.
fn create(field: Field, value: &str, wake: Option<Waker>) -> Option<Input> {
    let document = web_sys::window()?.document()?;
    let canvas = document.get_element_by_id("game")?;
    let parent = canvas.parent_element()?;
    let element: HtmlInputElement = document.create_element("input").ok()?.dyn_into().ok()?;
    element.set_type("text");
    let (max, label, capitals) = match field {
        Field::Name => (MAX_NAME, "name", "words"),
        _ => (CODE_LEN, "room code", "characters"),
    };
    element.set_max_length(max as i32);
    element.set_value(value);
    for (attribute, value) in [
        ("aria-label", label),
        ("autocomplete", "off"),
        ("autocapitalize", capitals),
        ("spellcheck", "false"),
        (
            "enterkeyhint",
            if field == Field::Code { "go" } else { "done" },
        ),
        ("data-field", label),
    ] {
        let _ = element.set_attribute(attribute, value);
    }
    let entered = Rc::new(Cell::new(false));
    let flag = entered.clone();
    let on_event = Closure::<dyn FnMut(web_sys::Event)>::new(move |event: web_sys::Event| {
        let key = Reflect::get(&event, &"key".into()).ok();
        if key.and_then(|k| k.as_string()).as_deref() == Some("Enter") {
            flag.set(true);
        }
        if let Some(wake) = &wake {
            wake();
        }
    });
    for name in ["keydown", "input", "focus", "blur"] {
        let _ = element.add_event_listener_with_callback(name, on_event.as_ref().unchecked_ref());
    }
    // The listener lives as long as the element; the page drops both when it is removed.
    on_event.forget();
    parent.append_child(&element).ok()?;
    Some(Input {
        element,
        entered,
        style: String::new(),
        agreed: value.to_owned(),
    })
}
