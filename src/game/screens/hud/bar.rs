//! The button bar over the board (menu, hint, undo, redo, moves, skip, sound) with its labels
//! in the current language, and the table flip button beside the row that may swap.

use bevy::prelude::*;

use super::HudRow;
use crate::art::glyphs::Glyph;
use crate::game::board::art::Art;
use crate::game::board::layout::Layout;
use crate::game::screens::actions::Action;
use crate::game::state::{Game, Phase, Prefs, Screen};
use bevy::ui::InteractionDisabled;

use crate::game::theme::palette::{BUTTON, RIM};
use crate::game::theme::widget;
use crate::game::theme::{bars, collapse, press};
use crate::session::Lang;

/// The round table-flip button beside the right mandarin pit's counter.
#[derive(Component)]
pub(super) struct FlipButton;

const BAR: [Action; 7] = [
    Action::OpenMenu,
    Action::Hint,
    Action::Undo,
    Action::Redo,
    Action::ToggleMoves,
    Action::Skip,
    Action::Sound,
];

/// The picture on a bar button.
pub(super) fn glyph_of(action: Action, sound: bool) -> Glyph {
    match action {
        Action::OpenMenu => Glyph::Menu,
        Action::Hint => Glyph::Hint,
        Action::Undo => Glyph::Undo,
        Action::Redo => Glyph::Redo,
        Action::ToggleMoves => Glyph::Moves,
        Action::Skip => Glyph::Skip,
        _ if sound => Glyph::SoundOn,
        _ => Glyph::SoundOff,
    }
}

pub(super) fn spawn_bar(mut commands: Commands, art: Res<Art>, prefs: Res<Prefs>) {
    commands
        .spawn((HudRow, DespawnOnExit(Screen::Playing), bars::top_bar()))
        .with_children(|bar| {
            for action in BAR {
                // Labelled at once: `label_bar` runs on changes, and entering the board
                // need not change anything it watches.
                bar.spawn(widget::icon_button(
                    &art,
                    action,
                    glyph_of(action, prefs.sound),
                    bar_label(action, prefs.lang()),
                ));
            }
        });
    commands.spawn((
        FlipButton,
        DespawnOnExit(Screen::Playing),
        Button,
        Action::Flip,
        Node {
            position_type: PositionType::Absolute,
            width: px(84),
            height: px(84),
            align_items: AlignItems::Center,
            justify_content: JustifyContent::Center,
            border: UiRect::all(px(3)),
            border_radius: BorderRadius::all(px(42)),
            ..default()
        },
        BorderColor::all(RIM),
        BackgroundColor(BUTTON),
        Visibility::Hidden,
        children![(
            widget::text(&art, "", 17.0),
            TextLayout::justify(Justify::Center)
        )],
    ));
}

/// Whether the bar's `action` can do something now.
pub(super) fn available(action: Action, game: &Game, phase: Phase) -> bool {
    let waiting = phase != Phase::Animating;
    match action {
        Action::Hint => phase == Phase::Waiting && game.human_to_move(),
        Action::Undo => waiting && !game.timed() && game.history.can_undo(),
        Action::Redo => waiting && !game.timed() && game.history.can_redo(),
        Action::Skip => phase == Phase::Animating,
        _ => true,
    }
}

pub(super) fn bar_label(action: Action, lang: Lang) -> &'static str {
    lang.tr(match action {
        Action::OpenMenu => "hud.menu",
        Action::Hint => "hud.hint",
        Action::Undo => "hud.undo",
        Action::Redo => "hud.redo",
        Action::ToggleMoves => "hud.moves",
        Action::Flip => "swap.button",
        Action::Sound => "menu.sound",
        _ => "hud.skip",
    })
}

pub(super) fn label_bar(
    mut commands: Commands,
    (art, prefs, game, phase): (Res<Art>, Res<Prefs>, Res<Game>, Res<Phase>),
    mut buttons: Query<(
        Entity,
        &Action,
        &Children,
        Has<InteractionDisabled>,
        &mut Node,
    )>,
    mut texts: Query<&mut Text>,
    mut glyphs: Query<&mut ImageNode, With<collapse::ButtonGlyph>>,
) {
    for (entity, action, children, disabled, mut node) in &mut buttons {
        if !BAR.contains(action) && *action != Action::Flip {
            continue;
        }
        // Against people there is no hint and no undo (the keys still say why): their room
        // goes to the game's own buttons, on one line with the rest on a phone.
        let away = game.online() && matches!(action, Action::Hint | Action::Undo | Action::Redo);
        let display = if away { Display::None } else { Display::Flex };
        if node.display != display {
            node.display = display;
        }
        let label = bar_label(*action, prefs.lang());
        for &child in children {
            if let Ok(mut text) = texts.get_mut(child)
                && text.0 != label
            {
                text.0 = label.to_owned();
            }
            if let Ok(mut image) = glyphs.get_mut(child) {
                let wanted = art.glyph(glyph_of(*action, prefs.sound));
                if image.image != wanted {
                    image.image = wanted;
                }
            }
        }
        let enabled = available(*action, &game, *phase);
        press::set_enabled(&mut commands, entity, enabled, disabled);
    }
}

/// The flip button shows while the human to move may flip the table, beside the right
/// mandarin pit wherever the window puts it.
pub(super) fn place_flip_button(
    game: Res<Game>,
    phase: Res<Phase>,
    layout: Res<Layout>,
    camera: Single<(&Camera, &GlobalTransform)>,
    mut button: Single<(&mut Node, &mut Visibility), With<FlipButton>>,
) {
    let offer = *phase == Phase::Waiting && game.human_to_move() && game.pos().can_swap();
    let (node, visibility) = &mut *button;
    visibility.set_if_neq(if offer {
        Visibility::Inherited
    } else {
        Visibility::Hidden
    });
    if !offer {
        return;
    }
    let (camera, transform) = *camera;
    let anchor = layout.flip_button_position();
    if let Ok(at) = camera.world_to_viewport(transform, anchor.extend(0.0)) {
        let (left, top) = (px(at.x - 42.0), px(at.y - 42.0));
        if node.left != left || node.top != top {
            node.left = left;
            node.top = top;
        }
    }
}
