//! The camera over the board: the layout's world as large as the window allows, the board
//! turned upright in a window taller than wide, and the board kept clear of the bars a screen
//! lays along the window's top and bottom, whatever their size at the player's text scale.

use bevy::camera::ScalingMode;
use bevy::prelude::*;
use bevy::ui::{UiGlobalTransform, UiSystems};
use bevy::window::RequestRedraw;

use crate::game::board::layout::{Layout, camera_fit};
use crate::game::board::safe_area::SafeArea;
use crate::game::state::{BarSpace, BoardEdge, GameSet};

pub(super) fn plugin(app: &mut App) {
    app.add_message::<RequestRedraw>();
    app.add_systems(Startup, spawn_camera);
    app.add_systems(
        Update,
        (follow_window_shape, fit_camera)
            .chain()
            .in_set(GameSet::Input),
    );
    // The bars' sizes are known once the interface is laid out; the camera follows them in the
    // next frame.
    app.add_systems(PostUpdate, measure_bars.after(UiSystems::Layout));
}

fn spawn_camera(mut commands: Commands) {
    commands.spawn((
        Camera2d,
        // Every picture is drawn with its own soft edges, and every sprite is a rectangle:
        // multisampling would smooth nothing, at four times the work per pixel (which the
        // software renderer pays in full).
        Msaa::Off,
        Projection::Orthographic(OrthographicProjection {
            scaling_mode: ScalingMode::WindowSize,
            ..OrthographicProjection::default_2d()
        }),
    ));
}

/// A window taller than wide stands the 2-player board upright (a phone held upright, a
/// browser window made narrow); the board turns back when the window does. What counts is the
/// part of the window clear of the notch and system bars.
fn follow_window_shape(windows: Query<&Window>, safe: Res<SafeArea>, mut layout: ResMut<Layout>) {
    let Ok(window) = windows.single() else {
        return;
    };
    let size = safe.inner_size(window.size());
    let tall = size.y > size.x;
    layout.set_if_neq(layout.for_window(tall));
}

/// The room the shown bars take along the window's edges, in logical pixels: from the window's
/// top to the lowest edge of a top bar (or from the left edge of a top bar standing as a column
/// to the window's right), from the highest edge of a bottom bar to the window's bottom, from
/// the window's left to the right edge of a list at the side. A change wakes the next frame,
/// which fits the camera to it.
fn measure_bars(
    bars: Query<(
        &BoardEdge,
        &Node,
        &ComputedNode,
        &UiGlobalTransform,
        &InheritedVisibility,
    )>,
    windows: Query<&Window>,
    safe: Res<SafeArea>,
    mut room: ResMut<BarSpace>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let Ok(window) = windows.single() else {
        return;
    };
    let size = safe.inner_size(window.size());
    // Nodes are laid out in the camera's physical pixels; the window's logical ones are what the
    // camera fits (the interface's own scale, the text size, is in the nodes' sizes already).
    let scale = 1.0 / window.scale_factor();
    let (mut top, mut bottom, mut right, mut left) = (0.0f32, 0.0f32, 0.0f32, 0.0f32);
    for (edge, style, node, at, visible) in &bars {
        if !visible.get() || node.size().y <= 0.0 {
            continue;
        }
        let low = (at.translation + node.size() / 2.0) * scale;
        let high = (at.translation - node.size() / 2.0) * scale;
        match edge {
            BoardEdge::Top if style.flex_direction == FlexDirection::Column => {
                right = right.max(size.x - high.x);
            }
            BoardEdge::Top => top = top.max(low.y),
            BoardEdge::Bottom => bottom = bottom.max(size.y - high.y),
            // In a window taller than wide a list at the side lies over the board while it is
            // asked for: beside it, the board would be too narrow to play.
            BoardEdge::Left if size.x > size.y => left = left.max(low.x),
            BoardEdge::Left => {}
        }
    }
    let measured = BarSpace {
        top: top.ceil(),
        bottom: bottom.ceil(),
        right: right.ceil(),
        left: left.ceil(),
        world: room.world,
    };
    if *room != measured {
        *room = measured;
        redraw.write(RequestRedraw);
    }
}

/// The camera shows the layout's world with the bars' room round it (`camera_fit`), when the
/// window, the layout or the bars change; `BarSpace::world` says how much of the world's units
/// the bottom bar takes, for what is written just above it.
fn fit_camera(
    layout: Res<Layout>,
    windows: Query<Ref<Window>>,
    safe: Res<SafeArea>,
    mut room: ResMut<BarSpace>,
    mut projections: Query<&mut Projection, With<Camera2d>>,
) {
    let resized = windows.iter().any(|w| w.is_changed());
    if !(resized || layout.is_changed() || room.is_changed() || safe.is_changed()) {
        return;
    }
    let world = layout.world();
    let window = windows
        .single()
        .map(|w| safe.inner_size(w.size()))
        .unwrap_or(world);
    let (scale, origin) = camera_fit(world, layout.content_top(), window, &room);
    let below = room.bottom / scale;
    if room.world != below {
        room.world = below;
    }
    for mut projection in &mut projections {
        let Projection::Orthographic(ortho) = projection.as_ref() else {
            continue;
        };
        let fits = matches!(ortho.scaling_mode, ScalingMode::WindowSize)
            && ortho.scale == 1.0 / scale
            && ortho.viewport_origin == origin;
        if fits {
            continue;
        }
        if let Projection::Orthographic(ortho) = projection.as_mut() {
            ortho.scaling_mode = ScalingMode::WindowSize;
            ortho.scale = 1.0 / scale;
            ortho.viewport_origin = origin;
        }
    }
}
