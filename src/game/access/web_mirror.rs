//! The accessibility tree in the browser: AccessKit has no web adapter, so the same nodes Bevy
//! would hand a desktop screen reader are copied into the page's DOM as the canvas's fallback
//! content (never drawn, but exposed to assistive technology and focusable): a `<button>` per
//! button, a grid of focusable cells for the board, a dialog per panel, text as text, and a
//! polite `aria-live` region for the announcements. A click or a focus there comes back to the
//! game as AccessKit's own action requests; the game's focus moves the page's. Being inside
//! the canvas, the focused element's keys still reach the game (they bubble to the canvas);
//! Enter, Space and Tab do only what the game makes of them.

use std::cell::RefCell;
use std::collections::HashMap;

use bevy::a11y::{AccessibilityNode, ActionRequest};
use bevy::input_focus::InputFocus;
use bevy::prelude::*;
use web_sys::wasm_bindgen::JsCast;
use web_sys::wasm_bindgen::closure::Closure;
use web_sys::{Document, Element, HtmlElement};

/// The container's id in the page.
const ROOT_ID: &str = "oaq-a11y";

thread_local! {
    /// Requests from the page (a click, a focus) for the next frame.
    static FROM_PAGE: RefCell<Vec<accesskit::ActionRequest>> = const { RefCell::new(Vec::new()) };
}

/// The page's element for each mirrored entity, and what it last showed.
#[derive(Default)]
struct Mirror {
    elements: HashMap<Entity, (Element, String)>,
    focused: Option<Entity>,
}

pub(in crate::game) fn plugin(app: &mut App) {
    app.insert_non_send(Mirror::default());
    app.add_systems(PreUpdate, from_page);
    app.add_systems(Last, to_page);
}

fn document() -> Option<Document> {
    web_sys::window()?.document()
}

/// The container, made on first use inside the canvas: visually hidden.
fn root(document: &Document) -> Option<Element> {
    if let Some(root) = document.get_element_by_id(ROOT_ID) {
        return Some(root);
    }
    let canvas = document.get_element_by_id("game")?;
    let root = document.create_element("div").ok()?;
    root.set_id(ROOT_ID);
    root.set_attribute(
        "style",
        "position:absolute;left:0;top:0;width:1px;height:1px;overflow:hidden;\
         clip-path:inset(50%);white-space:nowrap",
    )
    .ok()?;
    // One listener for every element: which entity is in its `data-entity`.
    let on_event = Closure::<dyn FnMut(web_sys::Event)>::new(|event: web_sys::Event| {
        let Some(target) = event
            .target()
            .and_then(|t| t.dyn_into::<Element>().ok())
            .and_then(|e| e.closest("[data-entity]").ok().flatten())
        else {
            return;
        };
        let Some(bits) = target
            .get_attribute("data-entity")
            .and_then(|b| b.parse::<u64>().ok())
        else {
            return;
        };
        let action = match event.type_().as_str() {
            "click" => accesskit::Action::Click,
            _ => accesskit::Action::Focus,
        };
        FROM_PAGE.with_borrow_mut(|queue| {
            // A page's burst (key repeat) is bounded: the game reads a few a frame.
            if queue.len() < 64 {
                queue.push(accesskit::ActionRequest {
                    action,
                    target_tree: accesskit::TreeId::ROOT,
                    target_node: accesskit::NodeId(bits),
                    data: None,
                });
            }
        });
    });
    for kind in ["click", "focusin"] {
        root.add_event_listener_with_callback(kind, on_event.as_ref().unchecked_ref())
            .ok()?;
    }
    on_event.forget();
    // The game presses, tabs and moves the focus itself: the page's own reaction to these keys
    // (a button's click, the next element's focus) would do it twice.
    let on_key =
        Closure::<dyn FnMut(web_sys::KeyboardEvent)>::new(|event: web_sys::KeyboardEvent| {
            if matches!(event.key().as_str(), "Enter" | " " | "Tab") {
                event.prevent_default();
            }
        });
    root.add_event_listener_with_callback("keydown", on_key.as_ref().unchecked_ref())
        .ok()?;
    on_key.forget();
    canvas.append_child(&root).ok()?;
    Some(root)
}

/// The page's requests, as AccessKit's.
fn from_page(mut requests: MessageWriter<ActionRequest>) {
    FROM_PAGE.with_borrow_mut(|queue| {
        for request in queue.drain(..) {
            requests.write(ActionRequest(request));
        }
    });
}

/// The element a node becomes, its ARIA role and whether it takes the focus.
fn shape(role: accesskit::Role) -> (&'static str, Option<&'static str>, bool) {
    use accesskit::Role;
    match role {
        Role::Button => ("button", None, true),
        Role::Grid => ("div", Some("grid"), false),
        Role::Row => ("div", Some("row"), false),
        Role::GridCell => ("div", Some("gridcell"), true),
        Role::Dialog => ("div", Some("dialog"), false),
        Role::Status => ("div", Some("status"), false),
        Role::Label => ("span", None, false),
        _ => ("div", None, false),
    }
}

/// Nodes the page leaves out: hidden ones, and unnamed pictures (a button's glyph).
fn skipped(node: &accesskit::Node) -> bool {
    node.is_hidden() || node.role() == accesskit::Role::Image && node.label().is_none()
}

/// What an element shows, written only when it changed.
fn describe(node: &accesskit::Node) -> String {
    format!(
        "{:?}|{}|{}|{}|{:?}|{:?}",
        node.role(),
        node.label().unwrap_or(""),
        node.value().unwrap_or(""),
        node.is_disabled(),
        node.is_selected(),
        node.live()
    )
}

fn make(document: &Document, entity: Entity, node: &accesskit::Node) -> Option<Element> {
    let (tag, role, focusable) = shape(node.role());
    let element = document.create_element(tag).ok()?;
    element
        .set_attribute("data-entity", &entity.to_bits().to_string())
        .ok()?;
    if let Some(role) = role {
        element.set_attribute("role", role).ok()?;
    }
    if focusable && tag != "button" {
        element.set_attribute("tabindex", "-1").ok()?;
    }
    Some(element)
}

fn fill(element: &Element, node: &accesskit::Node) {
    let label = node.label().unwrap_or("");
    let _ = match node.role() {
        // Buttons and text say their words; a live region its announcement.
        accesskit::Role::Button | accesskit::Role::Status => {
            element.set_text_content(Some(label));
            Ok(())
        }
        accesskit::Role::Label => {
            element.set_text_content(Some(node.value().unwrap_or(label)));
            Ok(())
        }
        _ if label.is_empty() => element.remove_attribute("aria-label"),
        _ => element.set_attribute("aria-label", label),
    };
    if node.role() == accesskit::Role::Status {
        let _ = element.set_attribute("aria-live", "polite");
    }
    if node.role() == accesskit::Role::Dialog && node.is_modal() {
        let _ = element.set_attribute("aria-modal", "true");
    }
    if node.is_disabled() {
        let _ = element.set_attribute("aria-disabled", "true");
    } else {
        let _ = element.remove_attribute("aria-disabled");
    }
    match node.is_selected() {
        Some(selected) => {
            let _ = element.set_attribute("aria-selected", if selected { "true" } else { "false" });
        }
        None => {
            let _ = element.remove_attribute("aria-selected");
        }
    }
    if node.role() == accesskit::Role::GridCell {
        element.set_text_content(Some(label));
    }
}

/// The tree into the page: new elements made, changed ones rewritten, gone ones removed, each
/// in its parent's order; then the focus.
fn to_page(
    mut mirror: NonSendMut<Mirror>,
    nodes: MirroredNodes,
    changed: Query<(), Changed<AccessibilityNode>>,
    mut removed: RemovedComponents<AccessibilityNode>,
    focus: Res<InputFocus>,
) {
    let gone: Vec<Entity> = removed.read().collect();
    // The page's focus fell to its body (its element was removed): the game's focus again.
    let dropped = document()
        .and_then(|d| d.active_element().zip(d.body()))
        .is_some_and(|(active, body)| active.is_same_node(Some(body.as_ref())));
    if dropped {
        mirror.focused = None;
    }
    let focus_moved = mirror.focused != focus.get();
    if changed.is_empty() && gone.is_empty() && !focus_moved && !mirror.elements.is_empty() {
        return;
    }
    let Some(document) = document() else {
        return;
    };
    let Some(root) = root(&document) else {
        return;
    };
    for entity in gone {
        if let Some((element, _)) = mirror.elements.remove(&entity) {
            element.remove();
        }
    }
    make_and_fill(&mut mirror, &document, &nodes);
    place(&mirror, &root, &nodes);
    follow_focus(&mut mirror, &document, focus_moved, focus.get());
}

/// What the page's elements are drawn from: each accessible node, its children and parent.
type MirroredNodes<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static AccessibilityNode,
        Option<&'static Children>,
        Option<&'static ChildOf>,
    ),
>;

/// An element made for each new node and filled where what it says changed.
fn make_and_fill(mirror: &mut Mirror, document: &Document, nodes: &MirroredNodes) {
    // Make and fill. A picture inside a button, or anything hidden, is left out.
    for (entity, node, _, _) in nodes {
        if skipped(node) {
            // Hidden now: out of the page too.
            if let Some((element, _)) = mirror.elements.remove(&entity) {
                element.remove();
            }
            continue;
        }
        let said = describe(node);
        let fresh = !mirror.elements.contains_key(&entity);
        if fresh {
            let Some(element) = make(document, entity, node) else {
                continue;
            };
            mirror.elements.insert(entity, (element, String::new()));
        }
        if let Some((element, shown)) = mirror.elements.get_mut(&entity)
            && *shown != said
        {
            fill(element, node);
            *shown = said;
        }
    }
}

/// Each element under its accessible parent's (or the container), in the parent's order.
fn place(mirror: &Mirror, root: &Element, nodes: &MirroredNodes) {
    let mut top = Vec::new();
    for (entity, _, children, child_of) in nodes {
        let parent = child_of.map(ChildOf::parent).filter(|p| nodes.contains(*p));
        if parent.is_none() {
            top.push(entity);
        }
        let Some(children) = children else {
            continue;
        };
        let Some((element, _)) = mirror.elements.get(&entity) else {
            continue;
        };
        let kids: Vec<Element> = children
            .iter()
            .filter_map(|c| mirror.elements.get(&c).map(|(e, _)| e.clone()))
            .collect();
        arrange(element, &kids);
    }
    top.sort_by_key(|e| e.index());
    let tops: Vec<Element> = top
        .iter()
        .filter_map(|e| mirror.elements.get(e).map(|(e, _)| e.clone()))
        .collect();
    arrange(root, &tops);
}

/// The game's focus, `focused`, made the page's when it moved.
fn follow_focus(
    mirror: &mut Mirror,
    document: &Document,
    focus_moved: bool,
    focused: Option<Entity>,
) {
    // The game's focus is the page's (without scrolling the page), unless the player is in one
    // of the page's own fields (a name, a room's code): the focus stays there.
    let in_field = document.active_element().is_some_and(|active| {
        let body = document.body();
        let ours = active.id() == "game"
            || active.closest("#oaq-a11y").ok().flatten().is_some()
            || body.is_some_and(|b| active.is_same_node(Some(b.as_ref())));
        !ours
    });
    if focus_moved && in_field {
        mirror.focused = focused;
    }
    if focus_moved && !in_field {
        mirror.focused = focused;
        if let Some((element, _)) = focused.and_then(|f| mirror.elements.get(&f))
            && let Ok(element) = element.clone().dyn_into::<HtmlElement>()
        {
            let options = web_sys::FocusOptions::new();
            options.set_prevent_scroll(true);
            let _ = element.focus_with_options(&options);
        }
    }
}

/// Make `kids` the element children of `parent`, in order, moving as little as possible: an
/// element moved in the page loses the focus, so the ones already in place stay untouched (a
/// new one is inserted where it belongs, one gone is removed).
fn arrange(parent: &Element, kids: &[Element]) {
    let current = parent.children();
    for (i, kid) in kids.iter().enumerate() {
        match current.item(i as u32) {
            Some(here) if here.is_same_node(Some(kid)) => {}
            here => {
                let _ = parent.insert_before(kid, here.as_ref().map(|h| h.as_ref()));
            }
        }
    }
    while current.length() as usize > kids.len() {
        if let Some(extra) = current.item(kids.len() as u32) {
            extra.remove();
        }
    }
}
