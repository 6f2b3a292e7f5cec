//! The board as a screen reader meets it: a grid of one row per player, each of its pits a
//! focusable cell named like "your pit 3, 5 stones", laid over the drawn pits (so that touch
//! exploration finds them where they are seen), and two buttons, "Sow to the left" and "Sow to
//! the right", beside the chosen pit. Moving the choice with the arrow keys moves the focus
//! with it; pressing a cell chooses it, pressing a sowing button plays the move.

use bevy::a11y::AccessibilityNode;
use bevy::input_focus::{FocusCause, InputFocus};
use bevy::prelude::*;

use crate::game::access::announce::Announce;
use crate::game::access::focus::{Activated, FocusGroup, Focusable};
use crate::game::access::speech;
use crate::game::board::layout::{Layout, Side};
use crate::game::board::text;
use crate::game::play::input::{Selection, move_toward, playable_pits, sow};
use crate::game::state::{Game, GameSet, PendingSow, Phase, Prefs, Screen};
use crate::rules::geometry;
use crate::session::Lang;

pub use super::focus::BoardControl;

/// The grid, for a board of this many players.
#[derive(Component)]
struct BoardGrid(usize);

/// The cell over ring index `0`.
#[derive(Component)]
pub struct PitCell(pub usize);

/// A button that sows the chosen pit toward that side of the screen.
#[derive(Component)]
pub struct SowButton(pub Side);

pub(in crate::game) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (build_grid, name_cells, place_cells, follow_selection)
            .chain()
            .in_set(GameSet::Show),
    );
    app.add_systems(Update, press_cells.in_set(GameSet::Input));
}

/// Whether the board can be played on this screen.
fn on_board(screen: Screen) -> bool {
    matches!(screen, Screen::Playing | Screen::Puzzles)
}

fn cell_node() -> Node {
    Node {
        position_type: PositionType::Absolute,
        // The focus ring follows the pits' rounded corners.
        border_radius: BorderRadius::all(px(16)),
        ..default()
    }
}

fn build_grid(
    mut commands: Commands,
    screen: Res<State<Screen>>,
    layout: Res<Layout>,
    game: Res<Game>,
    prefs: Res<Prefs>,
    grids: Query<(Entity, &BoardGrid)>,
) {
    let wanted = on_board(*screen.get()).then_some(layout.players());
    let current = grids.iter().next();
    if current.map(|(_, g)| g.0) == wanted {
        return;
    }
    if let Some((entity, _)) = current {
        commands.entity(entity).despawn();
    }
    let Some(players) = wanted else {
        return;
    };
    let lang = prefs.lang();
    let mut grid = accesskit::Node::new(accesskit::Role::Grid);
    grid.set_label(lang.tr("a11y.board"));
    // The player's own row first (where the keyboard starts), then the others; each left to
    // right as seen.
    let near = layout.near_side();
    let rows: Vec<usize> = std::iter::once(near)
        .chain((0..players).filter(|&p| p != near))
        .collect();
    commands
        .spawn((
            BoardGrid(players),
            FocusGroup(-1),
            AccessibilityNode::from(grid),
            Node {
                position_type: PositionType::Absolute,
                left: px(0),
                top: px(0),
                ..default()
            },
        ))
        .with_children(|g| {
            for (r, &player) in rows.iter().enumerate() {
                pit_row(g, r, player, &game, &layout, lang);
            }
            for side in [Side::Left, Side::Right] {
                let mut button = accesskit::Node::new(accesskit::Role::Button);
                button.add_action(accesskit::Action::Click);
                g.spawn((
                    SowButton(side),
                    BoardControl,
                    Focusable,
                    AccessibilityNode::from(button),
                    Node {
                        display: Display::None,
                        ..cell_node()
                    },
                ));
            }
        });
}

/// Player `player`'s row of the grid, `r`-th: their pits and mandarin pit, left to right as
/// seen, each a focusable cell.
fn pit_row(
    g: &mut ChildSpawnerCommands,
    r: usize,
    player: usize,
    game: &Game,
    layout: &Layout,
    lang: Lang,
) {
    let along = |pit: usize| layout.pit_center(pit).dot(layout.screen_axis());
    let mut row = accesskit::Node::new(accesskit::Role::Row);
    row.set_row_index(r);
    row.set_label(lang.trf("a11y.row", &[("who", &text::who(game, player, lang))]));
    let mut pits: Vec<usize> = geometry::row(player)
        .chain([geometry::mandarin_pit(player)])
        .collect();
    pits.sort_by(|&a, &b| along(a).total_cmp(&along(b)));
    g.spawn((AccessibilityNode::from(row), cell_node()))
        .with_children(|row| {
            for (c, pit) in pits.into_iter().enumerate() {
                let mut cell = accesskit::Node::new(accesskit::Role::GridCell);
                cell.set_column_index(c);
                cell.add_action(accesskit::Action::Click);
                cell.add_action(accesskit::Action::Focus);
                row.spawn((
                    PitCell(pit),
                    BoardControl,
                    Focusable,
                    AccessibilityNode::from(cell),
                    cell_node(),
                ));
            }
        });
}

/// Every cell's name follows the stones, the language and the choice.
fn name_cells(
    game: Res<Game>,
    layout: Res<Layout>,
    prefs: Res<Prefs>,
    selection: Res<Selection>,
    mut cells: Query<(&PitCell, &mut AccessibilityNode), Without<SowButton>>,
    mut buttons: Query<(&SowButton, &mut AccessibilityNode, &mut Node), Without<PitCell>>,
) {
    let lang = prefs.lang();
    for (PitCell(pit), mut node) in &mut cells {
        let label = speech::pit_label(&game, &layout, *pit, lang);
        if node.label() != Some(label.as_str()) {
            node.set_label(label);
        }
        let chosen = selection.0 == Some(*pit);
        if node.is_selected() != Some(chosen) {
            node.set_selected(chosen);
        }
    }
    for (SowButton(side), mut node, mut shape) in &mut buttons {
        let label = lang.tr(match side {
            Side::Left => "a11y.sow_left",
            Side::Right => "a11y.sow_right",
        });
        if node.label() != Some(label) {
            node.set_label(label);
        }
        let display = if selection.0.is_some() {
            Display::Flex
        } else {
            Display::None
        };
        if shape.display != display {
            shape.display = display;
        }
    }
}

/// The cells lie over the drawn pits, and the sowing buttons over the drawn arrows, wherever
/// the window puts the board.
fn place_cells(
    layout: Res<Layout>,
    selection: Res<Selection>,
    scale: Res<UiScale>,
    cameras: Query<(&Camera, &GlobalTransform)>,
    mut cells: Query<(&PitCell, &mut Node), Without<SowButton>>,
    mut buttons: Query<(&SowButton, &mut Node), Without<PitCell>>,
) {
    let Ok((camera, transform)) = cameras.single() else {
        return;
    };
    let to_screen = |at: Vec2| camera.world_to_viewport(transform, at.extend(0.0)).ok();
    let rect = |centre: Vec2, size: Vec2| -> Option<(Vec2, Vec2)> {
        let a = to_screen(centre - size / 2.0)?;
        let b = to_screen(centre + size / 2.0)?;
        // The window's points, in the interface's (larger with a larger text size).
        Some((a.min(b) / scale.0, (a - b).abs() / scale.0))
    };
    let set = |node: &mut Node, (at, size): (Vec2, Vec2)| {
        let (left, top, width, height) = (px(at.x), px(at.y), px(size.x), px(size.y));
        if node.left != left || node.top != top || node.width != width || node.height != height {
            node.left = left;
            node.top = top;
            node.width = width;
            node.height = height;
        }
    };
    for (PitCell(pit), mut node) in &mut cells {
        let size = layout.pit_size(*pit);
        // A pit turned a quarter (the upright board) is as wide as it was tall.
        let size = if layout.upright() { size.yx() } else { size };
        if let Some(r) = rect(layout.pit_center(*pit), size) {
            set(&mut node, r);
        }
    }
    if let Some(pit) = selection.0 {
        for (SowButton(side), mut node) in &mut buttons {
            let size = Vec2::splat(crate::game::board::layout::ARROW);
            if let Some(r) = rect(layout.arrow_position(pit, *side), size) {
                set(&mut node, r);
            }
        }
    }
}

/// The arrow keys move the choice among the pits: the focus follows it, so that the screen
/// reader reads the pit now chosen.
fn follow_selection(
    selection: Res<Selection>,
    cells: Query<(Entity, &PitCell)>,
    mut focus: ResMut<InputFocus>,
) {
    if !selection.is_changed() {
        return;
    }
    if let Some(pit) = selection.0
        && let Some((cell, _)) = cells.iter().find(|(_, c)| c.0 == pit)
        && focus.get() != Some(cell)
    {
        focus.set(cell, FocusCause::Navigated);
    }
}

/// A pressed cell chooses its pit (if it can be sown); a pressed sowing button sows.
fn press_cells(
    mut commands: Commands,
    mut activated: MessageReader<Activated>,
    cells: Query<&PitCell>,
    buttons: Query<&SowButton>,
    game: Res<Game>,
    phase: Res<Phase>,
    layout: Res<Layout>,
    prefs: Res<Prefs>,
    mut selection: ResMut<Selection>,
    mut pending: ResMut<PendingSow>,
) {
    let lang = prefs.lang();
    for Activated(entity) in activated.read() {
        if let Ok(PitCell(pit)) = cells.get(*entity) {
            let name = speech::pit_name(&game, &layout, *pit, lang);
            if *phase == Phase::Waiting && playable_pits(&game, &layout).contains(pit) {
                selection.0 = Some(*pit);
                commands.trigger(Announce(lang.trf("a11y.chosen", &[("pit", &name)])));
            } else {
                commands.trigger(Announce(lang.trf("a11y.not_playable", &[("pit", &name)])));
            }
        }
        if let Ok(SowButton(side)) = buttons.get(*entity)
            && let Some(pit) = selection.0
            && *phase == Phase::Waiting
        {
            sow(
                &mut commands,
                &prefs,
                &mut pending,
                move_toward(&layout, pit, *side),
            );
            selection.0 = None;
        }
    }
}
