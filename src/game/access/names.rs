//! Roles and names for everything on the screens, in the current language: a button is named
//! by its words (a picture-only button keeps its words hidden, not removed), a stepping button
//! ("‹", "›", "-", "+") by the setting it steps, a line of text is a label, a panel over the
//! screen is a dialog named by its title, and a button that would do nothing now says so.
//! Bevy names a button once, when it is made; these follow every change of words.

use bevy::a11y::AccessibilityNode;
use bevy::prelude::*;

use crate::game::state::Prefs;
use crate::game::theme::widget::{Modal, SettingRow};

pub(in crate::game) fn plugin(app: &mut App) {
    app.add_systems(
        PostUpdate,
        (
            name_buttons,
            name_texts,
            name_dialogs,
            group_rows,
            hide_unshown.run_if(tree_or_display_changed),
        )
            .after(bevy::ui::UiSystems::PostLayout)
            .before(bevy::a11y::AccessibilitySystems::Update),
    );
}

/// The words under `entity`, depth first, joined by spaces.
fn words_under(entity: Entity, children: &Query<&Children>, texts: &Query<&Text>) -> String {
    let mut words = Vec::new();
    collect_words(entity, children, texts, &mut words);
    words.join(" ")
}

fn collect_words(
    entity: Entity,
    children: &Query<&Children>,
    texts: &Query<&Text>,
    words: &mut Vec<String>,
) {
    if let Ok(text) = texts.get(entity)
        && !text.0.trim().is_empty()
    {
        words.push(text.0.trim().to_owned());
    }
    if let Ok(kids) = children.get(entity) {
        for &kid in kids {
            collect_words(kid, children, texts, words);
        }
    }
}

/// What a stepping button does to its setting, by its sign.
fn step_key(sign: &str) -> Option<&'static str> {
    match sign {
        "‹" => Some("a11y.previous"),
        "›" => Some("a11y.next"),
        "-" | "−" => Some("a11y.less"),
        "+" => Some("a11y.more"),
        _ => None,
    }
}

/// The nearest words before `entity` among its siblings and its ancestors' (the setting a
/// control belongs to). A value between two stepping buttons ("‹ 100% ›") is the setting's
/// value, not its name: the second button looks past it.
fn words_before(
    entity: Entity,
    parents: &Query<&ChildOf>,
    children: &Query<&Children>,
    texts: &Query<&Text>,
    buttons: &Query<(), With<Button>>,
) -> Option<String> {
    let mut here = entity;
    for _ in 0..3 {
        let parent = parents.get(here).ok()?.parent();
        let siblings = children.get(parent).ok()?;
        let at = siblings.iter().position(|e| e == here)?;
        let before = &siblings[..at];
        let after_a_step = before
            .iter()
            .any(|&b| buttons.contains(b) && step_key(&words_under(b, children, texts)).is_some());
        if !after_a_step {
            for &before in before.iter().rev() {
                if buttons.contains(before) {
                    continue;
                }
                let words = words_under(before, children, texts);
                if !words.is_empty() {
                    return Some(words);
                }
            }
        }
        here = parent;
    }
    None
}

/// Whether `entity` lies in a settings line (within two levels).
fn in_setting_row(
    entity: Entity,
    parents: &Query<&ChildOf>,
    rows: &Query<(), With<SettingRow>>,
) -> bool {
    let mut here = entity;
    for _ in 0..2 {
        let Ok(parent) = parents.get(here).map(ChildOf::parent) else {
            return false;
        };
        if rows.contains(parent) {
            return true;
        }
        here = parent;
    }
    false
}

fn name_buttons(
    mut commands: Commands,
    prefs: Res<Prefs>,
    mut nodes: Query<
        (
            Entity,
            Option<&mut AccessibilityNode>,
            Has<bevy::ui::InteractionDisabled>,
        ),
        With<Button>,
    >,
    parents: Query<&ChildOf>,
    children: Query<&Children>,
    texts: Query<&Text>,
    buttons: Query<(), With<Button>>,
    rows: Query<(), With<SettingRow>>,
) {
    let lang = prefs.lang();
    for (entity, node, off) in &mut nodes {
        let words = words_under(entity, &children, &texts);
        let setting = || words_before(entity, &parents, &children, &texts, &buttons);
        let name = match step_key(&words) {
            Some(key) => match setting() {
                Some(what) => lang.trf(key, &[("what", &what)]),
                None => lang
                    .trf(key, &[("what", &"")])
                    .trim_start_matches(": ")
                    .to_owned(),
            },
            None if in_setting_row(entity, &parents, &rows) => match setting() {
                Some(what) => format!("{what}: {words}"),
                None => words,
            },
            None => words,
        };
        match node {
            Some(mut node) => {
                if node.role() != accesskit::Role::Button {
                    node.set_role(accesskit::Role::Button);
                }
                if node.label() != Some(name.as_str()) {
                    node.set_label(name);
                }
                if node.is_disabled() != off {
                    if off {
                        node.set_disabled();
                    } else {
                        node.clear_disabled();
                    }
                }
                if !node.supports_action(accesskit::Action::Click) {
                    node.add_action(accesskit::Action::Click);
                    node.add_action(accesskit::Action::Focus);
                }
            }
            None => {
                let mut node = accesskit::Node::new(accesskit::Role::Button);
                node.set_label(name);
                node.add_action(accesskit::Action::Click);
                node.add_action(accesskit::Action::Focus);
                if off {
                    node.set_disabled();
                }
                commands
                    .entity(entity)
                    .try_insert(AccessibilityNode::from(node));
            }
        }
    }
}

/// Whether `entity` is a button or inside one (its words are the button's name).
fn in_button(entity: Entity, parents: &Query<&ChildOf>, buttons: &Query<(), With<Button>>) -> bool {
    let mut here = Some(entity);
    while let Some(e) = here {
        if buttons.contains(e) {
            return true;
        }
        here = parents.get(e).ok().map(ChildOf::parent);
    }
    false
}

fn name_texts(
    mut commands: Commands,
    mut texts: Query<(Entity, Ref<Text>, Option<&mut AccessibilityNode>), With<Node>>,
    parents: Query<&ChildOf>,
    buttons: Query<(), With<Button>>,
) {
    for (entity, text, node) in &mut texts {
        let known = node.is_some();
        if known && !text.is_changed() {
            continue;
        }
        if in_button(entity, &parents, &buttons) {
            continue;
        }
        let value = text.0.trim().to_owned();
        match node {
            Some(mut node) => {
                if node.value() != Some(value.as_str()) {
                    node.set_value(value);
                }
            }
            None => {
                let mut node = accesskit::Node::new(accesskit::Role::Label);
                node.set_value(value);
                commands
                    .entity(entity)
                    .try_insert(AccessibilityNode::from(node));
            }
        }
    }
}

/// A panel over the screen is a dialog, named by its first words (its title or question).
fn name_dialogs(
    mut commands: Commands,
    mut dialogs: Query<(Entity, Option<&mut AccessibilityNode>), With<Modal>>,
    children: Query<&Children>,
    texts: Query<&Text>,
) {
    for (entity, node) in &mut dialogs {
        let mut words = Vec::new();
        collect_words(entity, &children, &texts, &mut words);
        let name = words.into_iter().next().unwrap_or_default();
        match node {
            Some(mut node) => {
                if node.label() != Some(name.as_str()) {
                    node.set_label(name);
                }
            }
            None => {
                let mut node = accesskit::Node::new(accesskit::Role::Dialog);
                node.set_modal();
                node.set_label(name);
                commands
                    .entity(entity)
                    .try_insert(AccessibilityNode::from(node));
            }
        }
    }
}

/// Whether anything `hide_unshown` reads has changed since it last looked: most frames (a move
/// being animated) change none of it, and its walk up every node's parents is not free.
fn tree_or_display_changed(
    changed: Query<
        (),
        Or<(
            Changed<Visibility>,
            Changed<Node>,
            Changed<ChildOf>,
            Changed<AccessibilityNode>,
        )>,
    >,
) -> bool {
    !changed.is_empty()
}

/// What is not on screen (a hidden button, a panel's closed part) is not in the screen
/// reader's tree either; nor is a button's picture, which says nothing its name does not.
fn hide_unshown(
    mut nodes: Query<
        (Entity, &mut AccessibilityNode, Has<ImageNode>),
        (With<Node>, Without<Button>),
    >,
    mut buttons_nodes: Query<(Entity, &mut AccessibilityNode), With<Button>>,
    parents: Query<&ChildOf>,
    shown: Query<(Option<&Visibility>, Option<&Node>)>,
    buttons: Query<(), With<Button>>,
) {
    let is_shown = |entity: Entity| {
        let mut here = Some(entity);
        while let Some(e) = here {
            if let Ok((visibility, node)) = shown.get(e)
                && (visibility == Some(&Visibility::Hidden)
                    || node.is_some_and(|n| n.display == Display::None))
            {
                return false;
            }
            here = parents.get(e).ok().map(ChildOf::parent);
        }
        true
    };
    let set = |node: &mut AccessibilityNode, hidden: bool| {
        if node.is_hidden() != hidden {
            if hidden {
                node.set_hidden();
            } else {
                node.clear_hidden();
            }
        }
    };
    for (entity, mut node, picture) in &mut nodes {
        let hidden = !is_shown(entity) || picture && in_button(entity, &parents, &buttons);
        set(&mut node, hidden);
    }
    for (entity, mut node) in &mut buttons_nodes {
        set(&mut node, !is_shown(entity));
    }
}

/// A row of buttons (the bar, a dialog's answers) is a group, so that a screen reader meets its
/// buttons in the order they are shown.
fn group_rows(
    mut commands: Commands,
    rows: Query<(Entity, &Children), (With<Node>, Without<AccessibilityNode>, Without<Button>)>,
    buttons: Query<(), With<Button>>,
) {
    for (entity, children) in &rows {
        if children.iter().filter(|&c| buttons.contains(c)).count() >= 2 {
            commands
                .entity(entity)
                .try_insert(AccessibilityNode::from(accesskit::Node::new(
                    accesskit::Role::Group,
                )));
        }
    }
}
