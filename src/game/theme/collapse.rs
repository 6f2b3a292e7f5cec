//! On a narrow or low window (a phone), the buttons of the bars show their pictures without
//! their words, so that a bar fits on one line and leaves the board clear.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::target::{GlyphOnly, TouchTarget, fit, phone_sized, size_touch_targets, target_height};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        // A button's picture alone sizes differently: marked before the sizes follow.
        collapse_to_glyphs
            .before(size_touch_targets)
            .in_set(crate::game::state::GameSet::Show),
    );
}

/// The words of a button that also has a picture: hidden on a narrow phone, where the bar
/// shows the pictures alone.
#[derive(Component)]
pub struct ButtonWords;

/// The picture of a button.
#[derive(Component)]
pub struct ButtonGlyph;

/// On a narrow window, or a low one (a phone held sideways), the buttons with pictures drop
/// their words (and their padding), so that a bar fits on one line and leaves the board clear.
fn collapse_to_glyphs(
    mut commands: Commands,
    window: Single<&Window, With<PrimaryWindow>>,
    scale: Res<UiScale>,
    prefs: Res<crate::game::state::Prefs>,
    mut parts: Query<
        (&mut Node, Has<ButtonWords>),
        (Without<Button>, Or<(With<ButtonWords>, With<ButtonGlyph>)>),
    >,
    mut buttons: Query<(Entity, Ref<TouchTarget>, &mut Node, &Children), With<Button>>,
    mut was: Local<Option<(bool, f32, bool)>>,
) {
    // In the interface's own pixels: a larger text size narrows the window for it.
    let narrow = phone_sized(window.size() / scale.0);
    let now = (narrow, scale.0, prefs.large_targets);
    // Every button when the window or the settings change; otherwise only those just spawned
    // (a page rebuilt as a key is typed).
    let all = *was != Some(now);
    *was = Some(now);
    let height = target_height(window.size(), scale.0, prefs.large_targets, narrow);
    // The picture keeps its size on the screen when the words go, as the button does.
    let glyph = if narrow {
        GLYPH / scale.0.max(0.1)
    } else {
        GLYPH
    };
    for (entity, target, mut node, children) in &mut buttons {
        if !all && !target.is_added() {
            continue;
        }
        // A picture and words, or a square's sign (‹ › - +): both keep a finger's size.
        let has_words = children.iter().any(|c| parts.get(c).is_ok_and(|(_, w)| w));
        if target.square {
            if narrow {
                commands.entity(entity).insert(GlyphOnly);
            } else {
                commands.entity(entity).remove::<GlyphOnly>();
            }
            fit(&target, &mut node, height, narrow);
            continue;
        }
        if !has_words {
            continue;
        }
        for child in children.iter() {
            if let Ok((mut part, is_words)) = parts.get_mut(child) {
                if is_words {
                    part.display = if narrow { Display::None } else { Display::Flex };
                } else {
                    part.width = px(glyph);
                    part.height = px(glyph);
                }
            }
        }
        node.padding = if narrow {
            UiRect::all(px(0))
        } else {
            UiRect::axes(px(12), px(9))
        };
        if narrow {
            commands.entity(entity).insert(GlyphOnly);
        } else {
            commands.entity(entity).remove::<GlyphOnly>();
        }
        fit(&target, &mut node, height, narrow);
    }
}

/// The side of a button's picture, in the interface's units.
pub(super) const GLYPH: f32 = 24.0;
