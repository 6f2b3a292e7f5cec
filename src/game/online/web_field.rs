//! In the browser, the online screen's text fields (every `TextField`: the form's and the
//! pages') are real text inputs: an invisible `<input>` lies over each field the game draws, so
//! that a tap opens the phone's own keyboard (with its Vietnamese input methods, a password
//! manager for the sign-in, digits for the answer), and a desktop browser's typing, pasting and
//! composing work as in any page. The game reads what is typed every frame, cleans it as its own
//! typing does, and draws it; Enter says so as the game's own Enter does.

use std::cell::Cell;
use std::rc::Rc;

use bevy::prelude::*;
use bevy::ui::UiGlobalTransform;
use bevy::window::PrimaryWindow;
use web_sys::HtmlInputElement;
use web_sys::js_sys::Reflect;
use web_sys::wasm_bindgen::JsCast;
use web_sys::wasm_bindgen::closure::Closure;

use super::field::Typing;
use super::field::{Entered, Field, TextField};
use super::typing::FieldTexts;
use crate::game::platform::idle::{Waker, waker};
use crate::game::platform::overlay;
use crate::game::state::Screen;

/// One field's input element, and whether Enter was pressed in it since the last frame.
struct Input {
    field: Field,
    element: HtmlInputElement,
    entered: Rc<Cell<bool>>,
    /// The style last written, to write it only when the field moves.
    style: String,
    /// The text last agreed between the input and the game: a change on one side is copied to
    /// the other.
    agreed: String,
}

/// The inputs of the fields on screen (the page's elements live on the main thread), how what
/// happens in them wakes the sleeping game (typing is no event the game's window sees), and the
/// field last agreed to have the focus.
struct Inputs {
    open: Vec<Input>,
    wake: Option<Waker>,
    focus: Option<Field>,
}

pub(super) fn plugin(app: &mut App) {
    let wake = waker(app);
    app.insert_non_send(Inputs {
        open: Vec::new(),
        wake,
        focus: None,
    });
    app.add_systems(
        Update,
        read_inputs
            .run_if(in_state(Screen::Online))
            .in_set(crate::game::state::GameSet::Input),
    );
    // Laid over the fields once they are laid out, in the frame they appear or move.
    app.add_systems(
        PostUpdate,
        (lay_inputs, follow_game_focus)
            .chain()
            .after(bevy::ui::UiSystems::Layout)
            .run_if(in_state(Screen::Online)),
    );
    app.add_systems(OnExit(Screen::Online), remove_all);
}

fn remove_all(mut inputs: NonSendMut<Inputs>) {
    for input in inputs.open.drain(..) {
        input.element.remove();
    }
    inputs.focus = None;
}

/// What happened in the inputs since the last frame: text typed (cleaned as the game's own
/// typing is), Enter, the focus moved in the page (a tap, Tab).
fn read_inputs(
    mut commands: Commands,
    mut inputs: NonSendMut<Inputs>,
    mut texts: FieldTexts,
    mut typing: ResMut<Typing>,
) {
    let Inputs { open, focus, .. } = &mut *inputs;
    for input in open.iter_mut() {
        // Read without marking the screens' state changed: they are drawn again when it is.
        let typed = agree(input, texts.read(input.field));
        if let Some(typed) = typed
            && let Some(text) = texts.text_mut(input.field)
        {
            *text = typed;
        }
        if input.entered.replace(false) {
            let _ = input.element.blur();
            typing.0 = None;
            *focus = None;
            commands.trigger(Entered(input.field));
        }
    }
    let in_page = focused(open);
    if in_page != *focus {
        typing.0 = in_page;
        *focus = in_page;
    }
}

/// The field whose input has the page's focus.
fn focused(open: &[Input]) -> Option<Field> {
    let active = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element())?;
    open.iter()
        .find(|input| AsRef::<web_sys::Element>::as_ref(&input.element) == &active)
        .map(|input| input.field)
}

/// Lay an input over each field shown, and remove the inputs of fields no longer shown.
fn lay_inputs(
    mut inputs: NonSendMut<Inputs>,
    mut texts: FieldTexts,
    window: Single<&Window, With<PrimaryWindow>>,
    fields: Query<(&TextField, &ComputedNode, &UiGlobalTransform)>,
) {
    let scale = window.resolution.scale_factor();
    let shown: Vec<(Field, (Vec2, Vec2))> = fields
        .iter()
        .map(|(TextField(field), node, at)| (*field, overlay::css_rect(node, at, scale)))
        .collect();
    let Inputs { open, wake, .. } = &mut *inputs;
    open.retain(|input| {
        let kept = shown.iter().any(|(field, ..)| *field == input.field);
        if !kept {
            input.element.remove();
        }
        kept
    });
    let lang = texts.lang();
    for &(field, (corner, size)) in &shown {
        if !open.iter().any(|input| input.field == field) {
            let ours = texts.read(field).to_owned();
            let label = lang.tr(field.label_key());
            open.extend(create(field, &ours, label, wake.clone()));
        }
        if let Some(input) = open.iter_mut().find(|input| input.field == field) {
            place(input, corner, size);
        }
    }
}

/// A field the game gave the focus (a press on it, a code too short to send) gets its input
/// focused, so that the phone's keyboard types into it; a field the game left is left in the
/// page too. Until the field's input is there, the next frame is asked for.
fn follow_game_focus(
    mut inputs: NonSendMut<Inputs>,
    typing: Res<Typing>,
    mut wake: ResMut<crate::game::state::Wake>,
) {
    if typing.0 == inputs.focus {
        return;
    }
    let Inputs { open, focus, .. } = &mut *inputs;
    match typing.0 {
        Some(field) => match open.iter().find(|input| input.field == field) {
            Some(input) => {
                let _ = input.element.focus();
                *focus = typing.0;
            }
            None => wake.bypass_change_detection().busy(),
        },
        None => {
            if let Some(input) = open.iter().find(|input| Some(input.field) == *focus) {
                let _ = input.element.blur();
            }
            *focus = None;
        }
    }
}

/// The input laid over its field.
fn place(input: &mut Input, corner: Vec2, size: Vec2) {
    let css = "box-sizing:border-box;padding:0 8px;font-size:16px;cursor:text";
    overlay::place(&input.element, &mut input.style, corner, size, css);
}

/// The input's text and the game's (`ours`) made the same: what was typed in the page is
/// cleaned as the game's own typing is, shown cleaned and given back to become the game's; a
/// change by the game (a code cleared, typing while the canvas had the focus) goes into the
/// input.
fn agree(input: &mut Input, ours: &str) -> Option<String> {
    let typed = input.element.value();
    if typed != input.agreed {
        let clean = input.field.take("", &typed);
        if clean != typed {
            input.element.set_value(&clean);
        }
        input.agreed.clone_from(&clean);
        return (ours != clean).then_some(clean);
    }
    if ours != input.agreed {
        input.element.set_value(ours);
        input.agreed = ours.to_owned();
    }
    None
}

/// An input for `field` holding `value`, named `label` for a screen reader, in the canvas's
/// parent (which the canvas fills): what is typed, the focus coming and going, and Enter each
/// `wake` the game for a frame.
fn create(field: Field, value: &str, label: &str, wake: Option<Waker>) -> Option<Input> {
    let document = web_sys::window()?.document()?;
    let parent = overlay::layer()?;
    let element: HtmlInputElement = document.create_element("input").ok()?.dyn_into().ok()?;
    let hints = field.hints();
    element.set_type(hints.kind);
    // Room for a code pasted with its dashes: the game's cleaning keeps the field's length.
    element.set_max_length((field.longest() * 2) as i32);
    element.set_value(value);
    for (attribute, value) in [
        ("aria-label", label),
        ("autocomplete", hints.autocomplete),
        ("autocapitalize", hints.capitals),
        ("autocorrect", "off"),
        ("spellcheck", "false"),
        ("enterkeyhint", hints.enter),
        ("inputmode", if hints.numeric { "numeric" } else { "text" }),
        ("data-field", &format!("{field:?}")),
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
        field,
        element,
        entered,
        style: String::new(),
        agreed: value.to_owned(),
    })
}
