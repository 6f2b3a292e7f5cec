//! The review's controls and panel, built for the window's shape and built again when it
//! turns: the top bar, the transport row, the caption, the graph and the list's places.

use bevy::prelude::*;
use bevy::ui::RelativeCursorPosition;

use super::{Caption, ControlLabel, Graph, MoveList, Review, ReviewAction};
use crate::art::glyphs::Glyph;
use crate::game::board::art::Art;
use crate::game::board::layout::Layout;
use crate::game::state::{BoardEdge, Prefs, Screen};
use crate::game::theme::palette;
use crate::game::theme::press::Surface;
use crate::game::theme::widget::{self, icon_button, small_button, text};
use crate::game::theme::{bars, scroll, target};
use crate::session::Lang;

/// Whether the screen was built for a window taller than wide (the transport row under the
/// board) or not (every control in the top bar).
#[derive(Resource, Default, Clone, Copy, PartialEq)]
pub(super) struct BuiltTall(bool);

/// Every node of the screen, to build it again when the window turns.
#[derive(Component)]
pub(super) struct ReviewUi;

pub(super) fn spawn(
    mut commands: Commands,
    art: Res<Art>,
    prefs: Res<Prefs>,
    layout: Res<Layout>,
    mut review: ResMut<Review>,
    window: Single<&Window, With<bevy::window::PrimaryWindow>>,
    scale: Res<UiScale>,
) {
    let tall = layout.tall_window();
    // On a phone the list would cover the board, or leave it too small beside it: it waits
    // for its button.
    review.list_shown = !tall && !target::phone_sized(window.size() / scale.0);
    build(&mut commands, &art, prefs.lang(), tall);
    commands.insert_resource(BuiltTall(tall));
}

/// The window turned: the controls move between the top bar and the bottom panel.
pub(super) fn rebuild(
    mut commands: Commands,
    art: Res<Art>,
    prefs: Res<Prefs>,
    layout: Res<Layout>,
    built: Option<Res<BuiltTall>>,
    nodes: Query<Entity, With<ReviewUi>>,
) {
    let tall = layout.tall_window();
    if built.is_none_or(|b| b.0 == tall) {
        return;
    }
    for node in &nodes {
        commands.entity(node).despawn();
    }
    build(&mut commands, &art, prefs.lang(), tall);
    commands.insert_resource(BuiltTall(tall));
}

/// ‹ › Play, and the speed.
pub(super) fn transport(bar: &mut ChildSpawnerCommands, art: &Art, lang: Lang) {
    bar.spawn(small_button(art, ReviewAction::Step(-1), "‹"));
    bar.spawn(small_button(art, ReviewAction::Step(1), "›"));
    bar.spawn((
        icon_button(art, ReviewAction::Play, Glyph::Play, lang.tr("review.play")),
        ControlLabel(ReviewAction::Play),
    ));
    bar.spawn(small_button(art, ReviewAction::Speed(-1), "-"));
    bar.spawn((text(art, "1×", 18.0), ControlLabel(ReviewAction::Speed(0))));
    bar.spawn(small_button(art, ReviewAction::Speed(1), "+"));
}

/// The most of the window's height the panel along the bottom takes, in per cent.
const PANEL_SHARE: f32 = 24.0;

pub(super) fn build(commands: &mut Commands, art: &Art, lang: Lang, tall: bool) {
    commands
        .spawn((ReviewUi, DespawnOnExit(Screen::Review), bars::top_bar()))
        .with_children(|bar| top_bar(bar, art, lang, tall));
    // Along the bottom: (the transport,) what the move was worth, then the graph.
    commands
        .spawn((
            ReviewUi,
            DespawnOnExit(Screen::Review),
            Node {
                position_type: PositionType::Absolute,
                left: px(8),
                right: px(8),
                bottom: px(8),
                flex_direction: FlexDirection::Column,
                row_gap: px(4),
                max_height: Val::Vh(PANEL_SHARE),
                ..default()
            },
            BoardEdge::Bottom,
        ))
        .with_children(|b| bottom_panel(b, art, lang, tall));
    commands.spawn((
        ReviewUi,
        MoveList,
        DespawnOnExit(Screen::Review),
        bars::side_list(170.0, 10.0, 1.0),
    ));
}

/// Back, the list of moves, (the transport,) the best move and playing it.
fn top_bar(bar: &mut ChildSpawnerCommands, art: &Art, lang: Lang, tall: bool) {
    bar.spawn(icon_button(
        art,
        ReviewAction::Back,
        Glyph::Back,
        lang.tr("review.back"),
    ));
    bar.spawn(icon_button(
        art,
        ReviewAction::List,
        Glyph::Moves,
        lang.tr("hud.moves"),
    ));
    if !tall {
        transport(bar, art, lang);
    }
    for (action, glyph, key) in [
        (ReviewAction::Best, Glyph::Target, "review.best"),
        (ReviewAction::PlayBest, Glyph::PlayIt, "review.play_best"),
        (ReviewAction::Retry, Glyph::Again, "review.retry"),
    ] {
        bar.spawn((
            icon_button(art, action, glyph, lang.tr(key)),
            ControlLabel(action),
        ));
    }
}

/// (The transport on a tall window,) the caption, then the graph.
fn bottom_panel(b: &mut ChildSpawnerCommands, art: &Art, lang: Lang, tall: bool) {
    if tall {
        b.spawn(Node {
            justify_content: JustifyContent::Center,
            flex_shrink: 0.0,
            ..widget::row()
        })
        .with_children(|bar| transport(bar, art, lang));
    }
    // Past the panel's share of the window the words scroll: a phone keeps its board.
    b.spawn((
        Node {
            // What the panel's share leaves after the graph (and the transport).
            min_height: px(0),
            overflow: Overflow::scroll_y(),
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::Center,
            ..default()
        },
        scroll::Scrolls,
        scroll::ScrollsUnderPointer,
    ))
    .with_child((
        Caption,
        text(art, "", 17.0),
        TextLayout::justify(Justify::Center),
    ));
    b.spawn(graph());
}

/// The graph of the margin, pressed and dragged along to move through the game.
fn graph() -> impl Bundle {
    (
        Graph,
        Name::new("the review's graph"),
        Button,
        Surface,
        widget::OwnColours,
        RelativeCursorPosition::default(),
        Node {
            height: px(84),
            // A share of a low window at most: a phone held sideways keeps its board.
            max_height: Val::Vh(12.0),
            // In the panel's share it gives way to the moves' buttons, down to a strip.
            min_height: px(20),
            width: percent(100),
            flex_direction: FlexDirection::Row,
            align_items: AlignItems::Stretch,
            border_radius: BorderRadius::all(px(8)),
            overflow: Overflow::clip(),
            ..default()
        },
        BackgroundColor(palette::STRIP),
    )
}
