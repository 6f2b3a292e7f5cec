//! Images the game draws for itself at start-up (pebbles, mandarin stones, pits, the board) and
//! the font, loaded once into a resource before anything is shown.

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

use crate::art;
use crate::game::board::layout::{self, Layout};

/// Every handle the board needs.
#[derive(Resource, Clone)]
pub struct Art {
    pub pebble: Handle<Image>,
    pub mandarin: Handle<Image>,
    pub pit: Handle<Image>,
    pub mandarin_pit: Handle<Image>,
    /// The round mandarin pit of the 3-player board.
    pub round_pit: Handle<Image>,
    pub board: Handle<Image>,
    /// The 3-player board: a triangle with rounded corners.
    pub triangle_board: Handle<Image>,
    /// A triangle pointing right (flip it for left).
    pub arrow: Handle<Image>,
    pub font: Handle<Font>,
    pub bold: Handle<Font>,
}

/// Pebble shades: slate, sand, terracotta, moss, cream.
pub const PEBBLE_SHADES: [Color; 5] = [
    Color::srgb(0.47, 0.50, 0.53),
    Color::srgb(0.80, 0.71, 0.55),
    Color::srgb(0.72, 0.42, 0.30),
    Color::srgb(0.48, 0.55, 0.38),
    Color::srgb(0.90, 0.86, 0.76),
];
/// Player colours: amber, teal, plum.
pub const PLAYER_COLOURS: [Color; 3] = [
    Color::srgb(0.95, 0.66, 0.20),
    Color::srgb(0.22, 0.68, 0.70),
    Color::srgb(0.62, 0.36, 0.62),
];
pub const MAT: Color = Color::srgb(0.30, 0.19, 0.11);
pub const WOOD: Color = Color::srgb(0.78, 0.58, 0.35);
pub const INK: Color = Color::srgb(0.98, 0.95, 0.88);

pub(in crate::game) fn plugin(app: &mut App) {
    app.insert_resource(ClearColor(MAT));
    // Drawn while the app is built, so that every schedule, the first state transition
    // included, finds the art in place.
    let world = app.world_mut();
    let (font, bold) = {
        let assets = world.resource::<AssetServer>();
        (
            assets.load("fonts/NotoSans-Regular.ttf"),
            assets.load("fonts/NotoSans-Bold.ttf"),
        )
    };
    let art = load(&mut world.resource_mut::<Assets<Image>>(), font, bold);
    app.insert_resource(art);
}

fn load(images: &mut Assets<Image>, font: Handle<Font>, bold: Handle<Font>) -> Art {
    Art {
        pebble: images.add(stone(48, [1.0, 1.0, 1.0], 0.0)),
        mandarin: images.add(stone(112, [0.20, 0.55, 0.38], 0.16)),
        pit: images.add(pit(128, 128, 26.0)),
        mandarin_pit: images.add(pit(120, 256, 60.0)),
        round_pit: images.add(pit(128, 128, 64.0)),
        board: images.add(wood(256, 128)),
        triangle_board: images.add(triangle_wood()),
        arrow: images.add(arrow(96)),
        font,
        bold,
    }
}

/// A picture of the art generator as an image the GPU takes.
fn image(width: u32, height: u32, pixel: impl Fn(f32, f32) -> [f32; 4]) -> Image {
    Image::new(
        Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        art::paint(width, height, pixel),
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::MAIN_WORLD | RenderAssetUsages::RENDER_WORLD,
    )
}

fn stone(size: u32, base: [f32; 3], rim: f32) -> Image {
    image(size, size, |u, v| art::stone(size as f32, base, rim, u, v))
}

fn pit(width: u32, height: u32, radius: f32) -> Image {
    image(width, height, |u, v| {
        art::pit(width as f32, height as f32, radius, u, v)
    })
}

/// The arrow's sprite colour tints the triangle (and darkens the button a little); the button
/// keeps the arrow readable over stones and stores.
fn arrow(size: u32) -> Image {
    image(size, size, |u, v| art::arrow(size as f32, u, v))
}

/// Light wood around the 3-player board's triangle: every point within `WOOD_MARGIN` of the
/// triangle joining the mandarin pits, drawn at half the world's resolution.
fn triangle_wood() -> Image {
    let layout = Layout::new(3);
    let (size, centre) = layout.board_rect();
    let corners = layout.corners();
    let (width, height) = ((size.x / 2.0) as u32, (size.y / 2.0) as u32);
    image(width, height, |u, v| {
        let p = centre + Vec2::new((u - 0.5) * size.x, (0.5 - v) * size.y);
        let outside = distance_to_triangle(p, corners) - layout::WOOD_MARGIN;
        let alpha = (-outside / 2.0).clamp(0.0, 1.0);
        let grain = (v * 60.0 + (u * 6.0).sin() * 2.0).sin() * 0.05 + (v * 9.0).sin() * 0.03;
        let g = 1.0 + grain;
        [g, g, g, alpha]
    })
}

/// How far `p` is from the triangle `corners` (0 inside).
fn distance_to_triangle(p: Vec2, corners: [Vec2; 3]) -> f32 {
    let mut inside = true;
    let mut nearest = f32::INFINITY;
    for i in 0..3 {
        let (a, b) = (corners[i], corners[(i + 1) % 3]);
        let ab = b - a;
        let t = ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
        nearest = nearest.min(p.distance(a + ab * t));
        // Counter-clockwise corners: the inside is to the left of every edge.
        if ab.perp_dot(p - a) < 0.0 {
            inside = false;
        }
    }
    if inside { 0.0 } else { nearest }
}

/// Light wood with a soft grain; tinted by the sprite colour.
fn wood(width: u32, height: u32) -> Image {
    image(width, height, |u, v| {
        let g = art::grain(u, v);
        [g, g, g, 1.0]
    })
}
