//! The part of a phone's screen free of the notch, rounded corners and system bars: the camera
//! draws the board, its labels and the bar only there (the rest shows the background colour).
//! On Android and iOS the insets come from the window system; in a browser the page's CSS
//! (`env(safe-area-inset-*)`) already keeps the canvas clear of them, and desktops have none.

use bevy::camera::Viewport;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

/// How far the safe area stands in from each edge of the window, in logical pixels.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct SafeArea {
    pub top: f32,
    pub right: f32,
    pub bottom: f32,
    pub left: f32,
}

impl SafeArea {
    /// The insets of `safe`, a rectangle inside a window of `window` physical pixels (both in
    /// physical pixels, from the window's top-left), at `scale` physical pixels per logical one.
    /// Parts of `safe` outside the window count as no inset.
    pub fn between(window: UVec2, safe: IRect, scale: f32) -> Self {
        let size = window.as_ivec2();
        let inset = |pixels: i32, across: i32| pixels.clamp(0, across) as f32 / scale;
        Self {
            top: inset(safe.min.y, size.y),
            right: inset(size.x - safe.max.x, size.x),
            bottom: inset(size.y - safe.max.y, size.y),
            left: inset(safe.min.x, size.x),
        }
    }

    /// The size left for the game in a window of `size` logical pixels.
    pub fn inner_size(&self, size: Vec2) -> Vec2 {
        (size - Vec2::new(self.left + self.right, self.top + self.bottom)).max(Vec2::ZERO)
    }

    /// The camera's viewport for a window (`None`: all of it). A safe area too small to play in
    /// (a split screen, a window being resized) gives the whole window rather than nothing.
    pub fn viewport(&self, window: &Window) -> Option<Viewport> {
        if *self == Self::default() {
            return None;
        }
        let scale = window.scale_factor();
        let full = UVec2::new(window.physical_width(), window.physical_height());
        let min = (Vec2::new(self.left, self.top) * scale).round().as_uvec2();
        let max = (Vec2::new(self.right, self.bottom) * scale)
            .round()
            .as_uvec2();
        let size = full.saturating_sub(min).saturating_sub(max);
        (size.x >= full.x / 2 && size.y >= full.y / 2).then_some(Viewport {
            physical_position: min,
            physical_size: size,
            ..default()
        })
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SafeArea>();
    #[cfg(any(target_os = "android", target_os = "ios"))]
    app.add_systems(
        PreUpdate,
        read_native.in_set(crate::game::state::GameSet::Input),
    );
    app.add_systems(
        Update,
        fit_viewport.in_set(crate::game::state::GameSet::Input),
    );
}

/// The camera draws inside the safe area; `bevy_ui` lays the bar out in the camera's viewport
/// and pointer positions are read through it, so nothing else needs to know.
fn fit_viewport(
    safe: Res<SafeArea>,
    window: Single<Ref<Window>, With<PrimaryWindow>>,
    mut cameras: Query<&mut Camera, With<Camera2d>>,
) {
    if !safe.is_changed() && !window.is_changed() {
        return;
    }
    let viewport = safe.viewport(&window);
    let place = |v: &Option<Viewport>| v.as_ref().map(|v| (v.physical_position, v.physical_size));
    for mut camera in &mut cameras {
        if place(&camera.viewport) != place(&viewport) {
            camera.viewport = viewport.clone();
        }
    }
}

/// The safe rectangle the window system reports, read every frame: it moves when the phone
/// turns.
#[cfg(any(target_os = "android", target_os = "ios"))]
fn read_native(
    _main_thread: bevy::ecs::system::NonSendMarker,
    window: Single<(Entity, &Window), With<PrimaryWindow>>,
    mut safe: ResMut<SafeArea>,
) {
    let (entity, window) = *window;
    let rect =
        bevy::winit::WINIT_WINDOWS.with_borrow(|windows| safe_rect(windows.get_window(entity)?));
    if let Some(rect) = rect.filter(|rect| !rect.is_empty()) {
        let size = UVec2::new(window.physical_width(), window.physical_height());
        safe.set_if_neq(SafeArea::between(size, rect, window.scale_factor()));
    }
}

/// Android: the window's content rectangle, the part not under the status and navigation bars.
#[cfg(target_os = "android")]
fn safe_rect(window: &winit::window::Window) -> Option<IRect> {
    use winit::platform::android::WindowExtAndroid;
    let rect = window.content_rect();
    Some(IRect::new(rect.left, rect.top, rect.right, rect.bottom))
}

/// iOS: winit gives the view's safe area as the window's inner rectangle, inside the outer one.
#[cfg(target_os = "ios")]
fn safe_rect(window: &winit::window::Window) -> Option<IRect> {
    let outer = window.outer_position().ok()?;
    let inner = window.inner_position().ok()?;
    let size = window.inner_size();
    let min = IVec2::new(inner.x - outer.x, inner.y - outer.y);
    Some(IRect::from_corners(
        min,
        min + UVec2::new(size.width, size.height).as_ivec2(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn phone(width: u32, height: u32) -> Window {
        let mut window = Window::default();
        window.resolution.set_physical_resolution(width, height);
        window.resolution.set_scale_factor(3.0);
        window
    }

    #[test]
    fn insets_are_the_distances_from_each_edge_in_logical_pixels() {
        // An upright 390×844-point phone at 3×: a 47-point notch, a 34-point home bar.
        let safe = SafeArea::between(UVec2::new(1170, 2532), IRect::new(0, 141, 1170, 2430), 3.0);
        assert_eq!(
            safe,
            SafeArea {
                top: 47.0,
                right: 0.0,
                bottom: 34.0,
                left: 0.0
            }
        );
        assert_eq!(
            safe.inner_size(Vec2::new(390.0, 844.0)),
            Vec2::new(390.0, 763.0)
        );
    }

    #[test]
    fn a_safe_rectangle_beyond_the_window_counts_as_no_inset() {
        let safe = SafeArea::between(UVec2::new(100, 100), IRect::new(-5, -5, 120, 90), 1.0);
        assert_eq!(
            safe,
            SafeArea {
                bottom: 10.0,
                ..default()
            }
        );
    }

    #[test]
    fn the_viewport_is_the_safe_area_in_physical_pixels() {
        // Held sideways: the notch on the left, the home bar at the bottom.
        let safe = SafeArea {
            left: 47.0,
            right: 47.0,
            bottom: 21.0,
            top: 0.0,
        };
        let viewport = safe.viewport(&phone(2532, 1170)).unwrap();
        assert_eq!(viewport.physical_position, UVec2::new(141, 0));
        assert_eq!(viewport.physical_size, UVec2::new(2532 - 282, 1170 - 63));
    }

    #[test]
    fn no_insets_or_a_sliver_of_a_safe_area_draw_on_the_whole_window() {
        assert!(SafeArea::default().viewport(&phone(1170, 2532)).is_none());
        let sliver = SafeArea {
            top: 600.0,
            ..default()
        };
        assert!(sliver.viewport(&phone(1170, 2532)).is_none());
    }
}
