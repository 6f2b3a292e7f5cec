//! Buttons sized for what presses them: a finger's 44 points on a phone, a mouse's 40
//! elsewhere, 64 with "large buttons" on, whatever the text size.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        size_touch_targets.in_set(crate::game::state::GameSet::Show),
    );
    app.add_observer(size_new_target);
}

/// The height of a button under a mouse pointer, and on a phone's screen (the window's shorter
/// side under 600 points): 44 points, the least touch target phone makers ask for.
pub(super) const MOUSE_HEIGHT: f32 = 40.0;
const FINGER_HEIGHT: f32 = 44.0;
pub(super) const PHONE_SIDE: f32 = 600.0;
/// With "large buttons" on: for hands that tremble or fingers that are wide.
pub(super) const LARGE_HEIGHT: f32 = 64.0;

/// A button sized for the screen it is on: `square` ones as wide as tall.
#[derive(Component)]
pub struct TouchTarget {
    pub(super) square: bool,
}

/// How tall a button is in a window of `size` logical pixels (of the interface's scale).
fn button_height(size: Vec2, large: bool) -> f32 {
    if large {
        LARGE_HEIGHT
    } else if size.min_element() < PHONE_SIDE {
        FINGER_HEIGHT
    } else {
        MOUSE_HEIGHT
    }
}

/// A button takes its size as it is spawned: a panel rebuilt in the frame would otherwise show
/// its buttons at the mouse's height until the next frame, which an idle game may not draw for a
/// while (the online screen's on a phone stayed 40 points tall).
fn size_new_target(
    added: On<Add, TouchTarget>,
    window: Single<&Window, With<PrimaryWindow>>,
    prefs: Res<crate::game::state::Prefs>,
    scale: Res<UiScale>,
    mut targets: Query<(&TouchTarget, &mut Node)>,
) {
    let height = target_height(window.size(), scale.0, prefs.large_targets, false);
    if let Ok((target, mut node)) = targets.get_mut(added.entity)
        && node.min_height != height
    {
        fit(target, &mut node, height, false);
    }
}

/// A button at `height`, as wide for a square one or one showing its picture alone.
pub(super) fn fit(target: &TouchTarget, node: &mut Node, height: Val, glyph_only: bool) {
    node.min_height = height;
    if target.square {
        node.width = height;
        node.height = height;
    }
    node.min_width = if glyph_only || target.square {
        height
    } else {
        px(MOUSE_HEIGHT)
    };
}

/// A button showing its picture without its words (`collapse_to_glyphs`).
#[derive(Component)]
pub(super) struct GlyphOnly;

/// All buttons when the window changes. The window also changes whenever the
/// pointer moves, so a node is only touched when its height really differs (a touched node is
/// laid out again).
pub(super) fn size_touch_targets(
    window: Single<Ref<Window>, With<PrimaryWindow>>,
    prefs: Res<crate::game::state::Prefs>,
    scale: Res<UiScale>,
    mut targets: Query<(Ref<TouchTarget>, &mut Node, Has<GlyphOnly>)>,
) {
    let large = prefs.large_targets;
    let changed = window.is_changed() || prefs.is_changed() || scale.is_changed();
    for (target, mut node, glyph_only) in &mut targets {
        let height = target_height(window.size(), scale.0, large, glyph_only);
        // Read before written: a node borrowed mutably is marked changed.
        if (changed || target.is_added()) && node.min_height != height {
            fit(&target, &mut node, height, glyph_only);
        }
    }
}

/// A button's height in the interface's units in a window of `window` logical pixels at the
/// interface's `scale` (the text size): a finger's or a mouse's at the text's size, or at the
/// window's own for a button showing its picture alone, which a larger text does not enlarge
/// (as a phone's toolbar icons: the text size is for words).
pub(super) fn target_height(window: Vec2, scale: f32, large: bool, glyph_only: bool) -> Val {
    let scale = scale.max(0.1);
    if glyph_only {
        px(button_height(window, large) / scale)
    } else {
        px(button_height(window / scale, large))
    }
}

/// Below this width (logical pixels), or on a window lower than a phone's short side, bars
/// show their buttons' pictures without words.
pub(super) const NARROW: f32 = 700.0;

/// Whether a window of `size` logical pixels (of the interface's scale) is a phone's, upright
/// or held sideways: pages then take the whole window.
pub fn phone_sized(size: Vec2) -> bool {
    size.x < NARROW || size.y < PHONE_SIDE
}
