//! Spawn helpers for the screens and panels: buttons, text and the dark panel they sit on, in
//! one look (the palette's); buttons grow to a finger's size on a phone.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::palette::{BUTTON, BUTTON_HOVER, BUTTON_OFF, INK, PANEL};
use crate::art::glyphs::Glyph;
use crate::game::board::art::Art;
use crate::game::state::BoardEdge;

/// The height of a button under a mouse pointer, and on a phone's screen (the window's shorter
/// side under 600 points): 44 points, the least touch target phone makers ask for.
const MOUSE_HEIGHT: f32 = 40.0;
const FINGER_HEIGHT: f32 = 44.0;
const PHONE_SIDE: f32 = 600.0;
/// With "large buttons" on: for hands that tremble or fingers that are wide.
const LARGE_HEIGHT: f32 = 64.0;

/// A button sized for the screen it is on: `square` ones as wide as tall.
#[derive(Component)]
pub struct TouchTarget {
    square: bool,
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            // A button's picture alone sizes differently: marked before the sizes follow.
            (collapse_to_glyphs, size_touch_targets).chain(),
            stand_bars,
            place_side_lists,
        )
            .in_set(crate::game::state::GameSet::Show),
    );
    app.add_observer(size_new_target);
    app.add_observer(lift_header);
    app.add_message::<bevy::input::mouse::MouseWheel>();
    app.add_systems(
        Update,
        (wheel_scroll, touch_scroll).in_set(crate::game::state::GameSet::Input),
    );
    app.init_resource::<FontsArrived>();
    app.add_systems(
        PostUpdate,
        hold_until_fonts
            .run_if(|arrived: Res<FontsArrived>| !arrived.0)
            .before(bevy::camera::visibility::VisibilitySystems::VisibilityPropagate),
    );
}

/// Whether the fonts have arrived (on the web they come over the network after the first
/// frames).
#[derive(Resource, Default)]
struct FontsArrived(bool);

/// A panel hidden until the fonts arrive, and how it was shown before.
#[derive(Component)]
struct AwaitingFonts(Visibility);

/// No button without its words: every panel and bar stays hidden until the fonts have arrived
/// (or failed to: then there is nothing to wait for), and shows as it was then.
fn hold_until_fonts(
    mut commands: Commands,
    mut arrived: ResMut<FontsArrived>,
    art: Res<Art>,
    assets: Res<AssetServer>,
    mut roots: Query<
        (Entity, &mut Visibility),
        (With<Node>, Without<ChildOf>, Without<AwaitingFonts>),
    >,
    mut held: Query<(Entity, &mut Visibility, &AwaitingFonts), With<AwaitingFonts>>,
) {
    use bevy::asset::LoadState;
    let done = art.fonts().iter().all(|font| {
        matches!(
            assets.load_state(*font),
            LoadState::Loaded | LoadState::Failed(_)
        )
    });
    if done {
        for (entity, mut visibility, AwaitingFonts(was)) in &mut held {
            *visibility = *was;
            commands.entity(entity).remove::<AwaitingFonts>();
        }
        arrived.0 = true;
        return;
    }
    for (entity, mut visibility) in &mut roots {
        commands.entity(entity).insert(AwaitingFonts(*visibility));
        *visibility = Visibility::Hidden;
    }
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
fn fit(target: &TouchTarget, node: &mut Node, height: Val, glyph_only: bool) {
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
struct GlyphOnly;

/// All buttons when the window changes. The window also changes whenever the
/// pointer moves, so a node is only touched when its height really differs (a touched node is
/// laid out again).
fn size_touch_targets(
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
fn target_height(window: Vec2, scale: f32, large: bool, glyph_only: bool) -> Val {
    let scale = scale.max(0.1);
    if glyph_only {
        px(button_height(window, large) / scale)
    } else {
        px(button_height(window / scale, large))
    }
}

/// Text in the regular face.
pub fn text(art: &Art, value: impl Into<String>, size: f32) -> impl Bundle {
    text_in(art, value, size, INK)
}

/// Text in the regular face and `colour`.
pub fn text_in(art: &Art, value: impl Into<String>, size: f32, colour: Color) -> impl Bundle {
    (
        Text::new(value),
        TextFont {
            font: art.font.clone().into(),
            font_size: FontSize::Px(size),
            ..default()
        },
        TextColor(colour),
    )
}

/// A heading in the display face.
pub fn title(art: &Art, value: impl Into<String>, size: f32) -> impl Bundle {
    (
        Text::new(value),
        TextFont {
            font: art.display.clone().into(),
            font_size: FontSize::Px(size),
            ..default()
        },
        TextColor(INK),
    )
}

/// Text in the bold face.
pub fn bold(art: &Art, value: impl Into<String>, size: f32) -> impl Bundle {
    (
        Text::new(value),
        TextFont {
            font: art.bold.clone().into(),
            font_size: FontSize::Px(size),
            ..default()
        },
        TextColor(INK),
    )
}

/// A button that does `action` (an `Action`, or another screen's own), labelled `label`. Tall
/// enough for a finger.
pub fn button(art: &Art, action: impl Component, label: impl Into<String>) -> impl Bundle {
    (
        Button,
        action,
        TouchTarget { square: false },
        Node {
            padding: UiRect::axes(px(14), px(9)),
            min_height: px(MOUSE_HEIGHT),
            align_items: AlignItems::Center,
            justify_content: JustifyContent::Center,
            border_radius: BorderRadius::all(px(10)),
            ..default()
        },
        BackgroundColor(BUTTON),
        children![(text(art, label, 18.0), TextLayout::justify(Justify::Center))],
    )
}

/// The words of a button that also has a picture: hidden on a narrow phone, where the bar
/// shows the pictures alone.
#[derive(Component)]
pub struct ButtonWords;

/// The picture of a button.
#[derive(Component)]
pub struct ButtonGlyph;

/// A button with a picture (`glyph`) and words, that does `action`.
pub fn icon_button(
    art: &Art,
    action: impl Component,
    glyph: Glyph,
    label: impl Into<String>,
) -> impl Bundle {
    (
        Button,
        action,
        TouchTarget { square: false },
        Node {
            padding: UiRect::axes(px(12), px(9)),
            min_height: px(MOUSE_HEIGHT),
            min_width: px(MOUSE_HEIGHT),
            column_gap: px(6),
            align_items: AlignItems::Center,
            justify_content: JustifyContent::Center,
            border_radius: BorderRadius::all(px(10)),
            ..default()
        },
        BackgroundColor(BUTTON),
        children![
            (
                ButtonGlyph,
                ImageNode::new(art.glyph(glyph)).with_color(INK),
                Node {
                    width: px(GLYPH),
                    height: px(GLYPH),
                    ..default()
                },
            ),
            (
                ButtonWords,
                text(art, label, 18.0),
                TextLayout::justify(Justify::Center)
            )
        ],
    )
}

/// Below this width (logical pixels), or on a window lower than a phone's short side, bars
/// show their buttons' pictures without words.
const NARROW: f32 = 700.0;

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
const GLYPH: f32 = 24.0;

/// On a window wider than high and lower than a phone's short side at the text's size (a phone
/// held sideways), the bars along the top stand as columns at the right edge: the board there
/// lacks height, not width. They lie back along the top when the window turns.
fn stand_bars(
    window: Single<&Window, With<PrimaryWindow>>,
    scale: Res<UiScale>,
    mut bars: Query<(&BoardEdge, &mut Node)>,
    added: Query<(), Added<BoardEdge>>,
    mut was_low: Local<Option<bool>>,
) {
    let size = window.size() / scale.0;
    let low = size.x > size.y && size.y < PHONE_SIDE;
    if *was_low == Some(low) && added.is_empty() {
        return;
    }
    *was_low = Some(low);
    for (edge, mut node) in &mut bars {
        if *edge != BoardEdge::Top {
            continue;
        }
        let standing = node.flex_direction == FlexDirection::Column;
        if standing == low {
            continue;
        }
        if low {
            node.flex_direction = FlexDirection::Column;
            node.left = Val::Auto;
            node.bottom = px(8);
            node.justify_content = JustifyContent::FlexStart;
        } else {
            node.flex_direction = FlexDirection::Row;
            node.left = px(8);
            node.bottom = Val::Auto;
            node.justify_content = JustifyContent::FlexEnd;
        }
    }
}

/// A list down the window's left side beside the board (the moves, `padding` inside, `gap`
/// between lines, at least `min_width` wide): under the top bar, above the bottom one, and
/// scrolling when longer than the room between them (`place_side_lists`).
pub fn side_list(min_width: f32, padding: f32, gap: f32) -> impl Bundle {
    (
        Node {
            position_type: PositionType::Absolute,
            left: px(8),
            top: px(8),
            flex_direction: FlexDirection::Column,
            padding: UiRect::all(px(padding)),
            row_gap: px(gap),
            min_width: px(min_width),
            border_radius: BorderRadius::all(px(12)),
            overflow: Overflow::scroll_y(),
            ..default()
        },
        BackgroundColor(super::palette::STRIP),
        GlobalZIndex(5),
        BoardEdge::Left,
        Scrolls,
        ScrollsUnderPointer,
    )
}

/// The lists at the side start under the top bar and end above the bottom one, and the bars
/// along the bottom end beside a top bar standing as a column, as measured.
fn place_side_lists(
    room: Res<crate::game::state::PanelRoom>,
    window: Single<&Window, With<PrimaryWindow>>,
    scale: Res<UiScale>,
    mut lists: Query<(&BoardEdge, &mut Node)>,
    added: Query<(), Added<BoardEdge>>,
) {
    if !room.is_changed() && added.is_empty() {
        return;
    }
    // The room is in the window's points, the nodes in the interface's (its scale).
    let scale = scale.0.max(0.1);
    let top = room.top / scale + 8.0;
    let tallest = (window.height() - room.top - room.bottom) / scale - 16.0;
    for (edge, mut node) in &mut lists {
        match edge {
            BoardEdge::Left => {
                node.top = px(top);
                node.max_height = px(tallest.max(0.0));
            }
            // The lists at the side end above it: only a column at the right stands beside it.
            BoardEdge::Bottom => node.right = px(room.right / scale + 8.0),
            BoardEdge::Top => {}
        }
    }
}

/// A small square button (‹, ›).
pub fn small_button(art: &Art, action: impl Component, label: &str) -> impl Bundle {
    (
        Button,
        action,
        TouchTarget { square: true },
        Node {
            width: px(MOUSE_HEIGHT),
            height: px(MOUSE_HEIGHT),
            align_items: AlignItems::Center,
            justify_content: JustifyContent::Center,
            border_radius: BorderRadius::all(px(10)),
            ..default()
        },
        BackgroundColor(BUTTON),
        children![text(art, label, 20.0)],
    )
}

/// A line of a settings panel: its label, then its controls. A control's spoken name starts
/// with the label ("Sound: On"), as its place on screen says.
#[derive(Component, Default)]
pub struct SettingRow;

/// The root of a panel over the screen (a dialog): while one shows, the keyboard's focus stays
/// inside the topmost.
#[derive(Component, Default)]
pub struct Modal;

/// A full-window layer that centres its one child and dims the board behind it. It is a
/// dialog: the keyboard stays inside it while it shows.
pub fn backdrop(dim: f32) -> impl Bundle {
    (
        Modal,
        Node {
            position_type: PositionType::Absolute,
            width: percent(100),
            height: percent(100),
            justify_content: JustifyContent::Center,
            align_items: AlignItems::Center,
            ..default()
        },
        BackgroundColor(Color::srgba(0.0, 0.0, 0.0, dim)),
        GlobalZIndex(10),
    )
}

/// A panel whose content may be taller than the window (large text, a phone): it scrolls, by
/// the wheel and to keep the keyboard's focus in sight.
#[derive(Component, Default)]
pub struct Scrolls;

/// A panel that scrolls only when the wheel turns or a finger drags over it (a caption beside
/// the board, where a drag elsewhere is a move); a page scrolls wherever it is.
#[derive(Component, Default)]
pub struct ScrollsUnderPointer;

/// The dark rounded panel of dialogs and menus, at most `width` wide; it scrolls when its
/// content is taller than the window.
pub fn panel(width: f32) -> impl Bundle {
    (
        Node {
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::Stretch,
            padding: UiRect::all(px(22)),
            row_gap: px(10),
            width: px(width),
            max_width: percent(96),
            max_height: percent(96),
            overflow: Overflow::scroll_y(),
            border_radius: BorderRadius::all(px(18)),
            ..default()
        },
        Scrolls,
        ScrollPosition::default(),
        BackgroundColor(PANEL),
    )
}

/// Whether a window of `size` logical pixels (of the interface's scale) is a phone's, upright
/// or held sideways: pages then take the whole window.
pub fn phone_sized(size: Vec2) -> bool {
    size.x < NARROW || size.y < PHONE_SIDE
}

/// A page's frame (see `page`).
#[derive(Component, Default)]
pub struct PageFrame;

/// A page's header: wherever it is spawned in the page, it is moved to the top of the frame,
/// above the body that scrolls, so that it stays in place (with its Back) however long the page.
#[derive(Component, Default)]
pub struct PageHeader;

/// A header spawned inside a page's body goes to the top of the page's frame.
fn lift_header(
    added: On<Add, PageHeader>,
    mut commands: Commands,
    parents: Query<&ChildOf>,
    frames: Query<(), With<PageFrame>>,
) {
    let header = added.entity;
    let Some(frame) = parents
        .iter_ancestors(header)
        .find(|&ancestor| frames.contains(ancestor))
    else {
        return;
    };
    if parents
        .get(header)
        .is_ok_and(|parent| parent.parent() != frame)
    {
        commands.entity(frame).insert_children(0, &[header]);
    }
}

/// A page over the screen (the online home, a list of people): the whole window on a phone,
/// a panel at most `width` wide elsewhere. Its first children (a header) stay in place while
/// its `page_body` scrolls.
pub fn page(width: f32, phone: bool) -> impl Bundle {
    let (width, height, margin, radius, padding) = if phone {
        (percent(100), percent(100), 100.0, 0.0, 12.0)
    } else {
        (px(width), Val::Auto, 96.0, 18.0, 22.0)
    };
    (
        Node {
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::Stretch,
            padding: UiRect::all(px(padding)),
            row_gap: px(10),
            width,
            height,
            max_width: percent(margin),
            max_height: percent(margin),
            border_radius: BorderRadius::all(px(radius)),
            ..default()
        },
        BackgroundColor(PANEL),
        PageFrame,
    )
}

/// The part of a `page` under its header: it scrolls (by the wheel, and to keep the keyboard's
/// focus in sight) when the page is taller than the window.
pub fn page_body() -> impl Bundle {
    (
        Node {
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::Stretch,
            row_gap: px(10),
            flex_grow: 1.0,
            flex_shrink: 1.0,
            min_height: px(0),
            overflow: Overflow::scroll_y(),
            ..default()
        },
        Scrolls,
        ScrollPosition::default(),
    )
}

/// A large button for a main choice (a time control of "Play now"): its words large and bold
/// with a line under them, at least as tall as a large button, sharing its row with the others.
pub fn tile(
    art: &Art,
    action: impl Component,
    label: impl Into<String>,
    under: impl Into<String>,
) -> impl Bundle {
    (
        Button,
        action,
        Node {
            flex_direction: FlexDirection::Column,
            min_height: px(LARGE_HEIGHT),
            min_width: px(96),
            flex_grow: 1.0,
            flex_basis: px(96),
            padding: UiRect::axes(px(10), px(8)),
            align_items: AlignItems::Center,
            justify_content: JustifyContent::Center,
            border_radius: BorderRadius::all(px(12)),
            ..default()
        },
        BackgroundColor(BUTTON),
        children![
            (bold(art, label, 24.0), TextLayout::justify(Justify::Center)),
            (text(art, under, 14.0), TextLayout::justify(Justify::Center)),
        ],
    )
}

/// How far one notch of a mouse wheel scrolls a panel, in points.
const WHEEL_LINE: f32 = 40.0;

/// The wheel scrolls every shown panel that scrolls (there is one at a time on top).
fn wheel_scroll(
    mut wheel: MessageReader<bevy::input::mouse::MouseWheel>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut panels: Query<ScrollPanel, With<Scrolls>>,
) {
    use bevy::input::mouse::MouseScrollUnit;
    let dy: f32 = wheel
        .read()
        .map(|w| match w.unit {
            MouseScrollUnit::Line => w.y * WHEEL_LINE,
            MouseScrollUnit::Pixel => w.y,
        })
        .sum();
    let at = window.physical_cursor_position();
    scroll_shown(&mut panels, dy, at);
}

/// A finger dragged up or down scrolls every shown panel that scrolls, as the wheel does (a
/// phone has no wheel: without this a long page's end was out of reach).
fn touch_scroll(
    touches: Res<Touches>,
    scale: Res<UiScale>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut panels: Query<ScrollPanel, With<Scrolls>>,
) {
    // The touches' points are the window's; the panels', the interface's (its scale).
    let dy: f32 = touches.iter().map(|t| t.delta().y).sum::<f32>() / scale.0.max(0.1);
    let at = touches
        .iter()
        .next()
        .map(|t| t.position() * window.scale_factor());
    scroll_shown(&mut panels, dy, at);
}

/// What scrolling needs of a panel: where it scrolls to, whether it shows, where it is and
/// whether only a pointer over it scrolls it.
type ScrollPanel = (
    &'static mut ScrollPosition,
    &'static Node,
    &'static ComputedNode,
    &'static bevy::ui::UiGlobalTransform,
    Has<ScrollsUnderPointer>,
);

/// Every shown panel that scrolls, moved by `dy` points (down the content for a negative one);
/// one that scrolls under the pointer only when `at` (the pointer, in physical pixels) is over
/// it.
fn scroll_shown(panels: &mut Query<ScrollPanel, With<Scrolls>>, dy: f32, at: Option<Vec2>) {
    if dy == 0.0 {
        return;
    }
    for (mut scroll, node, computed, place, under_pointer) in panels {
        let over = |p: Vec2| {
            let half = computed.size() / 2.0;
            (p - place.translation).abs().cmple(half).all()
        };
        if under_pointer && !at.is_some_and(over) {
            continue;
        }
        if node.display != Display::None {
            // The layout keeps it within the content.
            scroll.y = (scroll.y - dy).max(0.0);
        }
    }
}

/// A page's title at the left and its Back button (doing `back`) at the right; the row also
/// carries `with` (a `PageHeader`, or `()`).
pub fn title_and_back(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    title_words: String,
    back: impl Component,
    back_words: &str,
    with: impl Bundle,
) {
    p.spawn((
        with,
        Node {
            justify_content: JustifyContent::SpaceBetween,
            ..row()
        },
    ))
    .with_children(|r| {
        r.spawn(title(art, title_words, 24.0));
        r.spawn(button(art, back, back_words));
    });
}

/// The row of buttons along the top of a screen, at its right.
pub fn top_bar() -> impl Bundle {
    (
        Node {
            position_type: PositionType::Absolute,
            top: px(8),
            left: px(8),
            right: px(8),
            justify_content: JustifyContent::FlexEnd,
            ..row()
        },
        BoardEdge::Top,
    )
}

/// The most of the window's height a caption along the bottom takes, in per cent.
const CAPTION_SHARE: f32 = 20.0;

/// A dark box centred along the bottom of the window with two lines of text, a bold one tagged
/// `head` and an ordinary one tagged `body`; the whole tagged `scope` (the screen it belongs to).
pub fn bottom_caption(
    commands: &mut Commands,
    art: &Art,
    scope: impl Bundle,
    head: impl Component,
    body: impl Component,
) {
    commands
        .spawn((
            scope,
            Node {
                position_type: PositionType::Absolute,
                left: px(8),
                right: px(8),
                bottom: px(8),
                justify_content: JustifyContent::Center,
                ..default()
            },
            BoardEdge::Bottom,
        ))
        .with_children(|b| {
            b.spawn((
                Node {
                    flex_direction: FlexDirection::Column,
                    align_items: AlignItems::Center,
                    padding: UiRect::axes(px(16), px(8)),
                    row_gap: px(4),
                    max_width: px(900),
                    // At a large text size on a phone the words would leave the board no room:
                    // past a share of the window they scroll.
                    max_height: Val::Vh(CAPTION_SHARE),
                    overflow: Overflow::scroll_y(),
                    border_radius: BorderRadius::all(px(12)),
                    ..default()
                },
                Scrolls,
                ScrollsUnderPointer,
                BackgroundColor(Color::srgba(0.10, 0.06, 0.03, 0.85)),
            ))
            .with_children(|p| {
                p.spawn((
                    head,
                    bold(art, "", 19.0),
                    TextLayout::justify(Justify::Center),
                ));
                p.spawn((
                    body,
                    text(art, "", 16.0),
                    TextLayout::justify(Justify::Center),
                ));
            });
        });
}

/// A row of controls, spread out and wrapping on a narrow screen.
pub fn row() -> Node {
    Node {
        flex_direction: FlexDirection::Row,
        flex_wrap: FlexWrap::Wrap,
        align_items: AlignItems::Center,
        column_gap: px(10),
        row_gap: px(8),
        ..default()
    }
}

/// A pressable node that keeps its own colours (the review's graph and list): `hover` leaves
/// it alone.
#[derive(Component, Default)]
pub struct OwnColours;

/// Light the button under the pointer.
pub fn hover(
    mut buttons: Query<
        (&Interaction, &mut BackgroundColor),
        (Changed<Interaction>, With<Button>, Without<OwnColours>),
    >,
) {
    for (interaction, mut colour) in &mut buttons {
        if colour.0 == BUTTON_OFF {
            continue;
        }
        colour.0 = match interaction {
            Interaction::Hovered | Interaction::Pressed => BUTTON_HOVER,
            Interaction::None => BUTTON,
        };
    }
}
