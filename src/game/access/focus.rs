//! Keyboard-only play through every screen: Tab and Shift+Tab walk the buttons of the screen
//! (or of the panel on top, which keeps the focus inside it), the arrow keys do the same where
//! they have no other job, Enter and Space press the button in focus, and a ring shows where the
//! focus is once the keyboard is used. A screen reader's "click" and "focus" requests (AccessKit's
//! action requests, and the web page's mirror) take the same way.
//!
//! The focus is always on something the screen reader knows (an entity with an accessibility
//! node): Bevy sends no tree while the focus is on anything else.

use bevy::a11y::{AccessibilityNode, ActionRequest};
use bevy::ecs::system::SystemParam;
use bevy::input_focus::{FocusCause, InputFocus, InputFocusVisible};
use bevy::prelude::*;
use bevy::ui::UiGlobalTransform;

use crate::game::state::{FocusOnControl, Overlay, Screen};
use crate::game::theme::scroll;
use crate::game::theme::widget::Modal;

/// Something the keyboard can reach besides the buttons: the board's pits and sowing buttons.
#[derive(Component, Default)]
pub struct Focusable;

/// Where the keyboard's walk begins among the screen's roots (lower first).
#[derive(Component, Default, Clone, Copy)]
pub struct FocusGroup(pub i32);

/// A control pressed from the keyboard or by a screen reader: buttons see it as a click; the
/// board's own controls read it.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Activated(pub Entity);

/// The button pressed from the keyboard last frame, let go this frame.
#[derive(Resource, Default)]
struct Pressing(Option<Entity>);

/// Where in the walk the focus was, so that a panel rebuilt under it (every setting rebuilds
/// the menu) gets it back at the same place.
#[derive(Resource, Default)]
struct FocusMemory {
    index: usize,
    /// The panel on top, and where the focus was under it when it opened.
    modal: Option<Entity>,
    under: Vec<usize>,
    /// The screen and panel the walk belonged to: on a change, the focus starts afresh.
    place: Option<(Screen, Overlay)>,
}

/// The colour of the focus ring.
pub use crate::game::theme::palette::RING;

pub(in crate::game) fn plugin(app: &mut App) {
    app.init_resource::<InputFocus>()
        .init_resource::<InputFocusVisible>()
        .init_resource::<Pressing>()
        .init_resource::<FocusMemory>()
        .init_resource::<FocusOnControl>()
        .add_message::<Activated>()
        .add_message::<ActionRequest>();
    app.add_systems(
        PreUpdate,
        (release, keys, requests)
            .chain()
            .after(bevy::input::InputSystems)
            .after(bevy::ui::UiSystems::Focus),
    );
    // After the frame's panels were built or rebuilt (their commands applied), before the tree
    // goes to the screen reader.
    app.add_systems(
        PostUpdate,
        (keep_focus, ring)
            .chain()
            .before(bevy::a11y::AccessibilitySystems::Update),
    );
    // Once laid out: the panel scrolls the focused control into sight.
    app.add_systems(
        PostUpdate,
        scroll_into_view.after(bevy::ui::UiSystems::Layout),
    );
}

/// The walk: every shown focusable entity, root by root (panels on top alone), depth first in
/// the order the screens build them.
#[derive(SystemParam)]
pub struct FocusOrder<'w, 's> {
    roots: Query<
        'w,
        's,
        (Entity, Option<&'static Modal>, Option<&'static FocusGroup>),
        (With<Node>, Without<ChildOf>),
    >,
    children: Query<'w, 's, &'static Children>,
    shown: Query<'w, 's, (Option<&'static Visibility>, Option<&'static Node>)>,
    focusable: Query<'w, 's, (), Or<(With<Focusable>, With<Button>)>>,
}

impl FocusOrder<'_, '_> {
    fn is_shown(&self, entity: Entity) -> bool {
        match self.shown.get(entity) {
            Ok((visibility, node)) => {
                visibility != Some(&Visibility::Hidden)
                    && node.is_none_or(|n| n.display != Display::None)
            }
            Err(_) => false,
        }
    }

    /// The focusable entities in the order Tab visits them.
    pub fn walk(&self) -> Vec<Entity> {
        self.walk_and_top().0
    }

    /// The walk, and the panel on top that keeps it (if one does).
    fn walk_and_top(&self) -> (Vec<Entity>, Option<Entity>) {
        let mut roots: Vec<(bool, i32, Entity)> = self
            .roots
            .iter()
            .filter(|(e, ..)| self.is_shown(*e))
            .map(|(e, modal, group)| (modal.is_some(), group.map_or(0, |g| g.0), e))
            .collect();
        roots.sort_by_key(|&(modal, group, e)| (modal, group, e.index()));
        // A panel on top keeps the keyboard to itself: the last opened.
        let top = match roots.last() {
            Some(&(true, _, top)) => {
                roots = vec![(true, 0, top)];
                Some(top)
            }
            _ => None,
        };
        let mut out = Vec::new();
        for (_, _, root) in roots {
            self.collect(root, &mut out);
        }
        (out, top)
    }

    fn collect(&self, entity: Entity, out: &mut Vec<Entity>) {
        if !self.is_shown(entity) {
            return;
        }
        if self.focusable.contains(entity) {
            out.push(entity);
        }
        if let Ok(children) = self.children.get(entity) {
            for &child in children {
                self.collect(child, out);
            }
        }
    }
}

/// The button pressed from the keyboard last frame is let go (a click's press and release).
fn release(mut pressing: ResMut<Pressing>, mut buttons: Query<&mut Interaction>) {
    if let Some(entity) = pressing.0.take()
        && let Ok(mut interaction) = buttons.get_mut(entity)
        && *interaction == Interaction::Pressed
    {
        *interaction = Interaction::None;
    }
}

/// Press `entity`: a button sees a click; anything else hears `Activated`.
fn activate(
    entity: Entity,
    buttons: &mut Query<&mut Interaction>,
    pressing: &mut Pressing,
    activated: &mut MessageWriter<Activated>,
) {
    if let Ok(mut interaction) = buttons.get_mut(entity) {
        *interaction = Interaction::Pressed;
        pressing.0 = Some(entity);
    }
    activated.write(Activated(entity));
}

/// A control of the board's own (a pit, a sowing button): Space there still skips a move.
#[derive(Component)]
pub struct BoardControl;

/// Tab, Shift+Tab, the arrows where nothing else uses them, Enter and Space.
fn keys(
    keys: Res<ButtonInput<KeyCode>>,
    order: FocusOrder,
    screen: Res<State<Screen>>,
    overlay: Res<State<Overlay>>,
    mut focus: ResMut<InputFocus>,
    mut visible: ResMut<InputFocusVisible>,
    mut on_control: ResMut<FocusOnControl>,
    mut memory: ResMut<FocusMemory>,
    mut buttons: Query<&mut Interaction>,
    mut pressing: ResMut<Pressing>,
    mut activated: MessageWriter<Activated>,
    board: Query<(), With<BoardControl>>,
) {
    // The walk is made only when a key that uses it is pressed (not every frame); Space's
    // meaning (`FocusOnControl`) is settled here before the board reads it.
    let used = [
        KeyCode::Tab,
        KeyCode::Enter,
        KeyCode::NumpadEnter,
        KeyCode::Space,
        KeyCode::ArrowDown,
        KeyCode::ArrowRight,
        KeyCode::ArrowUp,
        KeyCode::ArrowLeft,
    ];
    if !keys.any_just_pressed(used) {
        return;
    }
    let walk = order.walk();
    let here = focus.get().and_then(|f| walk.iter().position(|&e| e == f));
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    // On the board, in the review, the puzzles and the lesson the arrows have their own work.
    let arrows_free =
        *overlay.get() != Overlay::None || matches!(screen.get(), Screen::Title | Screen::Online);
    let forward = keys.just_pressed(KeyCode::Tab) && !shift
        || arrows_free && keys.any_just_pressed([KeyCode::ArrowDown, KeyCode::ArrowRight]);
    let back = keys.just_pressed(KeyCode::Tab) && shift
        || arrows_free && keys.any_just_pressed([KeyCode::ArrowUp, KeyCode::ArrowLeft]);
    if (forward || back) && !walk.is_empty() {
        let n = walk.len();
        let next = match (here, forward) {
            (None, true) => 0,
            (None, false) => n - 1,
            (Some(i), true) => (i + 1) % n,
            (Some(i), false) => (i + n - 1) % n,
        };
        focus.set(walk[next], FocusCause::Navigated);
        // Remembered at once: a panel rebuilt this frame gives the focus back here.
        memory.index = next;
        visible.0 = true;
    }
    let focused = focus.get().filter(|f| walk.contains(f));
    // Space still skips a move's animation when the focus is on the board or nowhere.
    on_control.set_if_neq(FocusOnControl(focused.is_some_and(|f| !board.contains(f))));
    let enter = keys.any_just_pressed([KeyCode::Enter, KeyCode::NumpadEnter]);
    let space = keys.just_pressed(KeyCode::Space) && on_control.0;
    if let Some(entity) = focused
        && (enter || space)
    {
        visible.0 = true;
        activate(entity, &mut buttons, &mut pressing, &mut activated);
    }
}

/// A screen reader's requests: a click presses, a focus moves the focus.
fn requests(
    mut requests: MessageReader<ActionRequest>,
    nodes: Query<(), With<AccessibilityNode>>,
    mut focus: ResMut<InputFocus>,
    mut buttons: Query<&mut Interaction>,
    mut pressing: ResMut<Pressing>,
    mut activated: MessageWriter<Activated>,
) {
    use accesskit::Action;
    for ActionRequest(request) in requests.read() {
        let entity = Entity::try_from_bits(request.target_node.0);
        let Some(entity) = entity.filter(|&e| nodes.contains(e)) else {
            continue;
        };
        match request.action {
            Action::Click => {
                focus.set(entity, FocusCause::Navigated);
                activate(entity, &mut buttons, &mut pressing, &mut activated);
            }
            Action::Focus => focus.set(entity, FocusCause::Navigated),
            _ => {}
        }
    }
}

/// The focus stays on something shown: on a new screen or panel it goes to its first control;
/// when its control goes (a panel rebuilt, a button hidden) to the one now in its place; with
/// nothing to focus, to the announcements (which the screen reader knows).
fn keep_focus(
    order: FocusOrder,
    screen: Res<State<Screen>>,
    overlay: Res<State<Overlay>>,
    mut focus: ResMut<InputFocus>,
    mut memory: ResMut<FocusMemory>,
    fallback: Query<Entity, With<crate::game::access::announce::LiveRegion>>,
) {
    let (walk, top) = order.walk_and_top();
    let place = Some((*screen.get(), *overlay.get()));
    let here = focus.get().and_then(|f| walk.iter().position(|&e| e == f));
    // A panel opening on the same screen (the end of a game, a question) takes the focus to
    // its first control; closing, it gives it back where it was.
    // (A panel rebuilt in place, one dialog for another, keeps the focus where it was.)
    if memory.modal.is_some() != top.is_some() && memory.place == place {
        let opened = top.is_some();
        memory.modal = top;
        if opened {
            let index = memory.index;
            memory.under.push(index);
            memory.index = 0;
        } else {
            memory.index = memory.under.pop().unwrap_or(0);
        }
        if let Some(&first) = walk.get(memory.index.min(walk.len().saturating_sub(1))) {
            focus.set(first, FocusCause::Navigated);
        }
        return;
    }
    if memory.place != place {
        memory.place = place;
        memory.modal = top;
        memory.under.clear();
        memory.index = 0;
        if let Some(&first) = walk.first() {
            focus.set(first, FocusCause::Navigated);
        } else if let Ok(live) = fallback.single() {
            focus.set(live, FocusCause::Navigated);
        }
        return;
    }
    let current = focus.get();
    let on_live = current.is_some_and(|f| fallback.contains(f));
    match here {
        Some(i) => memory.index = i,
        // Gone, hidden, or behind a panel that opened on top: the control now in its place.
        None if !walk.is_empty() => {
            let i = memory.index.min(walk.len() - 1);
            focus.set(walk[i], FocusCause::Navigated);
        }
        None => {
            if let Ok(live) = fallback.single()
                && !on_live
            {
                focus.set(live, FocusCause::Navigated);
            }
        }
    }
}

/// The ring round the focused control, while the keyboard is in use.
#[derive(Component)]
struct Ringed;

fn ring(
    mut commands: Commands,
    focus: Res<InputFocus>,
    mut visible: ResMut<InputFocusVisible>,
    mouse: Res<ButtonInput<MouseButton>>,
    ringed: Query<Entity, With<Ringed>>,
    nodes: Query<(), With<Node>>,
) {
    // A click puts the pointer back in charge: no ring until the keyboard is used again.
    if mouse.get_just_pressed().next().is_some() && visible.0 {
        visible.0 = false;
    }
    let target = focus.get().filter(|&f| visible.0 && nodes.contains(f));
    for entity in &ringed {
        if Some(entity) != target {
            commands.entity(entity).try_remove::<(Ringed, Outline)>();
        }
    }
    if let Some(entity) = target
        && !ringed.contains(entity)
    {
        commands.entity(entity).try_insert((
            Ringed,
            Outline {
                width: px(3),
                offset: px(3),
                color: RING,
            },
        ));
    }
}

/// A control the keyboard reaches in a panel taller than the window is scrolled into sight.
fn scroll_into_view(
    focus: Res<InputFocus>,
    parents: Query<&ChildOf>,
    nodes: Query<(&ComputedNode, &UiGlobalTransform)>,
    mut panels: Query<&mut ScrollPosition, With<scroll::Scrolls>>,
    mut last: Local<Option<Entity>>,
) {
    let Some(target) = focus.get() else {
        return;
    };
    // Each new focus once: the player may scroll away from it with the wheel.
    if *last == Some(target) {
        return;
    }
    let Ok((node, at)) = nodes.get(target) else {
        return;
    };
    if node.size.y <= 0.0 {
        // Not laid out yet: next frame.
        return;
    }
    *last = Some(target);
    let mut here = target;
    while let Ok(parent) = parents.get(here).map(ChildOf::parent) {
        here = parent;
        let (Ok(mut scroll), Ok((panel, panel_at))) = (panels.get_mut(here), nodes.get(here))
        else {
            continue;
        };
        // In physical pixels, centres; the scroll is in logical ones.
        let k = panel.inverse_scale_factor;
        let top =
            (at.translation.y - node.size.y / 2.0) - (panel_at.translation.y - panel.size.y / 2.0);
        let bottom = top + node.size.y;
        let margin = 12.0 / k.max(f32::EPSILON);
        if top < margin {
            scroll.y = (scroll.y + (top - margin) * k).max(0.0);
        } else if bottom > panel.size.y - margin {
            scroll.y += (bottom - panel.size.y + margin) * k;
        }
        break;
    }
}
