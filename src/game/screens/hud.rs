//! Everything around the board during a game: the button bar (menu, hint, undo, redo, moves,
//! skip), the message line, the thinking indicator, the table flip button, the list of moves
//! and the game-over panel. Every text follows the language setting at once.

use bevy::prelude::*;

use crate::art::glyphs::Glyph;
use crate::game::board::art::{Art, INK, PLAYER_COLOURS};
use crate::game::board::layout::{Layout, Side};
use crate::game::board::text;
use crate::game::play::ai_turn::Thinking;
use crate::game::play::turn;
use crate::game::screens::actions::{Action, MovesShown};
use crate::game::screens::ui::{self, BUTTON, BUTTON_OFF, bold, button, panel, row};
use crate::game::state::{Game, Message, Note, Phase, Prefs, Screen};
use crate::rules::{Move, geometry};
use crate::session::Lang;

#[derive(Component)]
struct MessageLine;

#[derive(Component)]
struct ThinkingLabel;

#[derive(Component)]
struct GameOverRoot;

#[derive(Component)]
struct MoveListRoot;

/// The row of the button bar: an online game adds its own buttons at its end.
#[derive(Component)]
pub struct HudRow;

/// The round table-flip button beside the right mandarin pit's counter.
#[derive(Component)]
struct FlipButton;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_board_texts);
    app.add_systems(OnEnter(Screen::Playing), spawn_bar);
    // The message line speaks on the title screen too (a saved game that could not be read).
    app.add_systems(
        Update,
        place_message.in_set(crate::game::state::GameSet::Show),
    );
    app.add_systems(
        Update,
        show_message
            .run_if(
                resource_changed::<Message>
                    .or_eager(resource_changed::<Prefs>)
                    .or_eager(resource_changed::<Game>)
                    .or_eager(resource_changed::<Layout>)
                    .or_eager(state_changed::<Screen>),
            )
            .in_set(crate::game::state::GameSet::Show),
    );
    let game_or_phase = resource_changed::<Game>.or_eager(resource_changed::<Phase>);
    app.add_systems(
        Update,
        (
            label_bar.run_if(
                resource_changed::<Prefs>
                    .or_eager(game_or_phase.clone())
                    .or_eager(state_changed::<Screen>),
            ),
            show_thinking,
            place_flip_button,
            game_over.run_if(game_or_phase.clone().or_eager(resource_changed::<Prefs>)),
            move_list.run_if(
                game_or_phase
                    .or_eager(resource_changed::<Prefs>)
                    .or_eager(resource_changed::<MovesShown>),
            ),
        )
            .run_if(in_state(Screen::Playing))
            .in_set(crate::game::state::GameSet::Show),
    );
}

/// Font sizes of the message line and the thinking label, in world units on the landscape
/// board.
const MESSAGE_SIZE: f32 = 22.0;
const THINKING_SIZE: f32 = 20.0;

/// The message line and the thinking label live in the world, under and beside the board.
fn spawn_board_texts(mut commands: Commands, art: Res<Art>) {
    commands.spawn((
        MessageLine,
        crate::game::state::BoardLabel,
        Text2d::new(""),
        TextFont {
            font: art.font.clone().into(),
            font_size: FontSize::Px(MESSAGE_SIZE),
            ..default()
        },
        TextColor(INK),
        TextLayout::justify(Justify::Center),
        bevy::text::TextBounds::default(),
        // A long message wraps upward, away from the window's edge.
        bevy::sprite::Anchor::BOTTOM_CENTER,
        Transform::default(),
    ));
    commands.spawn((
        ThinkingLabel,
        crate::game::state::BoardLabel,
        Text2d::new(""),
        TextFont {
            font: art.font.clone().into(),
            font_size: FontSize::Px(THINKING_SIZE),
            ..default()
        },
        TextColor(PLAYER_COLOURS[1]),
        Transform::default(),
        Visibility::Hidden,
    ));
}

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
fn glyph_of(action: Action, sound: bool) -> Glyph {
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

fn spawn_bar(mut commands: Commands, art: Res<Art>, prefs: Res<Prefs>) {
    commands
        .spawn((HudRow, DespawnOnExit(Screen::Playing), ui::top_bar()))
        .with_children(|bar| {
            for action in BAR {
                // Labelled at once: `label_bar` runs on changes, and entering the board
                // need not change anything it watches.
                bar.spawn(ui::icon_button(
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
        BorderColor::all(Color::srgb(0.85, 0.68, 0.30)),
        BackgroundColor(BUTTON),
        Visibility::Hidden,
        children![(
            ui::text(&art, "", 17.0),
            TextLayout::justify(Justify::Center)
        )],
    ));
}

/// Whether the bar's `action` can do something now.
fn available(action: Action, game: &Game, phase: Phase) -> bool {
    let waiting = phase != Phase::Animating;
    match action {
        Action::Hint => phase == Phase::Waiting && game.human_to_move(),
        Action::Undo => waiting && !game.timed() && game.history.can_undo(),
        Action::Redo => waiting && !game.timed() && game.history.can_redo(),
        Action::Skip => phase == Phase::Animating,
        _ => true,
    }
}

fn bar_label(action: Action, lang: Lang) -> &'static str {
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

fn label_bar(
    art: Res<Art>,
    prefs: Res<Prefs>,
    game: Res<Game>,
    phase: Res<Phase>,
    mut buttons: Query<(
        &Action,
        &Children,
        &mut BackgroundColor,
        &Interaction,
        &mut Node,
    )>,
    mut texts: Query<&mut Text>,
    mut glyphs: Query<&mut ImageNode, With<ui::ButtonGlyph>>,
) {
    for (action, children, mut colour, interaction, mut node) in &mut buttons {
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
        let shown = if !available(*action, &game, *phase) {
            BUTTON_OFF
        } else if *interaction == Interaction::None {
            BUTTON
        } else {
            ui::BUTTON_HOVER
        };
        colour.set_if_neq(BackgroundColor(shown));
    }
}

fn show_message(
    message: Res<Message>,
    prefs: Res<Prefs>,
    game: Res<Game>,
    layout: Res<Layout>,
    screen: Res<State<Screen>>,
    mut line: Query<&mut Text2d, With<MessageLine>>,
) {
    // The title and online screens only pass on what was said about files, not the turn.
    let notes: Vec<Note> = match screen.get() {
        Screen::Title | Screen::Online => message
            .0
            .iter()
            .filter(|n| matches!(n, Note::Text { .. }))
            .cloned()
            .collect(),
        Screen::Playing => message.0.clone(),
        // The review and the puzzles say what a move did, but whose turn it is is theirs.
        Screen::Review | Screen::Puzzles | Screen::Lesson => message
            .0
            .iter()
            .filter(|n| !matches!(n, Note::Turn))
            .cloned()
            .collect(),
    };
    let shown = text::message(&notes, &game, &layout, prefs.lang());
    for mut text in &mut line {
        if text.0 != shown {
            text.0 = shown.clone();
        }
    }
}

/// The message line runs along the bottom of the window (below the world on a phone taller
/// than the world), wrapped to the world's width.
fn place_message(
    layout: Res<Layout>,
    text_scale: Res<crate::game::state::TextScale>,
    room: Res<crate::game::state::PanelRoom>,
    projection: Single<&Projection, With<Camera2d>>,
    mut line: Query<
        (&mut TextFont, &mut bevy::text::TextBounds, &mut Transform),
        With<MessageLine>,
    >,
) {
    // Above the room a screen's panel keeps under the board.
    let bottom = room.world
        + match *projection {
            Projection::Orthographic(ortho) => ortho.area.min.y,
            _ => -layout.world().y / 2.0,
        };
    let at = Vec3::new(0.0, bottom + 10.0, 10.0);
    let width = Some(layout.world().x - 40.0);
    let size = FontSize::Px(MESSAGE_SIZE * layout.text_scale() * text_scale.0);
    for (mut font, mut bounds, mut transform) in &mut line {
        if font.font_size != size {
            font.font_size = size;
        }
        if bounds.width != width {
            bounds.width = width;
        }
        if transform.translation != at {
            transform.translation = at;
        }
    }
}

fn show_thinking(
    thinking: Query<(), With<Thinking>>,
    text_scale: Res<crate::game::state::TextScale>,
    prefs: Res<Prefs>,
    game: Res<Game>,
    layout: Res<Layout>,
    mut label: Query<
        (
            &mut Visibility,
            &mut Text2d,
            &mut TextFont,
            &mut Transform,
            &mut TextColor,
        ),
        With<ThinkingLabel>,
    >,
) {
    let shown = if thinking.is_empty() {
        Visibility::Hidden
    } else {
        Visibility::Visible
    };
    let size = FontSize::Px(THINKING_SIZE * layout.text_scale() * text_scale.0);
    for (mut visibility, mut text, mut font, mut transform, mut colour) in &mut label {
        colour.set_if_neq(TextColor(PLAYER_COLOURS[game.pos().to_move()]));
        visibility.set_if_neq(shown);
        if font.font_size != size {
            font.font_size = size;
        }
        let thinker = game.pos().to_move();
        let at = layout.thinking_position(thinker).extend(10.0);
        if transform.translation != at {
            transform.translation = at;
        }
        let words = prefs.lang().tr("hud.thinking");
        if text.0 != words {
            text.0 = words.to_owned();
        }
    }
}

/// The flip button shows while the human to move may flip the table, beside the right
/// mandarin pit wherever the window puts it.
fn place_flip_button(
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

fn game_over(
    mut commands: Commands,
    phase: Res<Phase>,
    game: Res<Game>,
    prefs: Res<Prefs>,
    art: Res<Art>,
    roots: Query<Entity, With<GameOverRoot>>,
) {
    for root in &roots {
        commands.entity(root).despawn();
    }
    // An online game's end is the online controls' (its cause may be a clock or a resignation).
    if *phase != Phase::Over || game.online() {
        return;
    }
    let lang = prefs.lang();
    let pos = game.pos();
    let players = pos.players();
    // Out of time: that side comes last, the others by their points now.
    let flagged = game
        .history
        .flagged()
        .and_then(|seat| (0..players).find(|&side| game.history.seat_of(side) == seat));
    let Some(places) = flagged
        .map(|out| places_after_flag(pos, out))
        .or(pos.places())
    else {
        return;
    };
    let swept = turn::swept(&game);
    let winners: Vec<usize> = (0..players).filter(|&p| places[p] == 0).collect();
    let headline = if winners.len() > 1 {
        lang.tr("over.draw").to_owned()
    } else if game.mixed() && game.history.player_of(winners[0]).is_human() {
        lang.tr("over.you_win").to_owned()
    } else {
        lang.trf("over.wins", &[("who", &text::who(&game, winners[0], lang))])
    };
    let headline = match flagged {
        Some(out) => format!(
            "{}\n{headline}",
            lang.trf("over.time", &[("who", &text::who(&game, out, lang))])
        ),
        None => headline,
    };
    let mut order: Vec<usize> = (0..players).collect();
    order.sort_by_key(|&p| places[p]);
    commands
        .spawn((
            GameOverRoot,
            DespawnOnExit(Screen::Playing),
            ui::backdrop(0.45),
        ))
        .with_children(|b| {
            b.spawn(panel(640.0)).with_children(|p| {
                p.spawn((
                    ui::title(&art, headline, 30.0),
                    TextLayout::justify(Justify::Center),
                ));
                for side in order {
                    let line = format!(
                        "{}: {}",
                        text::who(&game, side, lang),
                        text::final_count(pos, side, swept[side], lang)
                    );
                    let colour = PLAYER_COLOURS[side].lighter(0.25);
                    p.spawn((
                        ui::text_in(&art, line, 19.0, colour),
                        TextLayout::justify(Justify::Center),
                    ));
                }
                p.spawn(Node {
                    justify_content: JustifyContent::Center,
                    ..row()
                })
                .with_children(|r| {
                    r.spawn(button(&art, Action::NewGame, lang.tr("over.play_again")));
                    r.spawn(button(&art, Action::Review, lang.tr("over.review")));
                    if !game.timed() {
                        r.spawn(button(&art, Action::Undo, lang.tr("hud.undo")));
                    }
                    r.spawn(button(&art, Action::OpenMenu, lang.tr("hud.menu")));
                });
            });
        });
}

/// The list of moves at the left: number, side, move and what it took.
/// Places (0 first) when side `out` ran out of time: last, the others by points, ties shared.
fn places_after_flag(pos: &crate::rules::Position, out: usize) -> [u8; geometry::MAX_PLAYERS] {
    let players = pos.players();
    let key = |side: usize| (side != out, pos.score(side));
    let mut places = [0; geometry::MAX_PLAYERS];
    for (side, place) in places.iter_mut().enumerate().take(players) {
        *place = (0..players).filter(|&other| key(other) > key(side)).count() as u8;
    }
    places
}

fn move_list(
    mut commands: Commands,
    shown: Res<MovesShown>,
    game: Res<Game>,
    prefs: Res<Prefs>,
    art: Res<Art>,
    layout: Res<Layout>,
    roots: Query<Entity, With<MoveListRoot>>,
) {
    for root in &roots {
        commands.entity(root).despawn();
    }
    if !shown.0 {
        return;
    }
    let lang = prefs.lang();
    let entries = game.history.entries();
    // The latest moves, as many as fit.
    let first = entries.len().saturating_sub(18);
    commands
        .spawn((
            MoveListRoot,
            DespawnOnExit(Screen::Playing),
            Node {
                position_type: PositionType::Absolute,
                left: px(8),
                top: px(64),
                flex_direction: FlexDirection::Column,
                padding: UiRect::all(px(12)),
                row_gap: px(2),
                min_width: px(200),
                border_radius: BorderRadius::all(px(12)),
                ..default()
            },
            BackgroundColor(Color::srgba(0.10, 0.06, 0.03, 0.85)),
            GlobalZIndex(5),
        ))
        .with_children(|list| {
            list.spawn(bold(&art, lang.tr("moves.title"), 18.0));
            if entries.is_empty() {
                list.spawn(ui::text(&art, lang.tr("moves.none"), 15.0));
            }
            for (i, entry) in entries.iter().enumerate().skip(first) {
                let mut line = format!("{}. {}", i + 1, notation(&layout, entry.mv));
                if entry.mv == Move::Swap {
                    line += lang.tr("moves.swap");
                } else if entry.captured > 0 {
                    line += &format!(", {}", lang.trf("moves.capture", &[("n", &entry.captured)]));
                }
                let colour = PLAYER_COLOURS[entry.side].lighter(0.3);
                list.spawn(ui::text_in(&art, line, 15.0, colour));
            }
        });
}

/// "3 »" for a move: the pit's number and the side of the screen the mover sowed toward.
pub(in crate::game) fn notation(layout: &Layout, mv: Move) -> String {
    match mv {
        Move::Sow { pit, dir } => {
            let pit = usize::from(pit);
            let arrow = match (layout.side_for(geometry::owner(pit), dir), layout.upright()) {
                (Side::Left, false) => "«",
                (Side::Right, false) => "»",
                (Side::Left, true) => "˅",
                (Side::Right, true) => "˄",
            };
            format!("{} {arrow}", geometry::pit_number(pit).unwrap_or(0))
        }
        Move::Swap => String::new(),
    }
}
