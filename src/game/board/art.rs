//! Images the game draws for itself at start-up (pebbles, mandarin stones, pits, the board) and
//! the font, loaded once into a resource before anything is shown.

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

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

fn image(width: u32, height: u32, pixel: impl Fn(f32, f32) -> [f32; 4]) -> Image {
    let mut data = Vec::with_capacity((width * height * 4) as usize);
    for y in 0..height {
        for x in 0..width {
            let u = (x as f32 + 0.5) / width as f32;
            let v = (y as f32 + 0.5) / height as f32;
            data.extend(pixel(u, v).map(|c| (c.clamp(0.0, 1.0) * 255.0).round() as u8));
        }
    }
    Image::new(
        Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::MAIN_WORLD | RenderAssetUsages::RENDER_WORLD,
    )
}

/// A smooth round stone lit from the top left, with a soft edge. `rim` draws a gold ring.
fn stone(size: u32, base: [f32; 3], rim: f32) -> Image {
    image(size, size, |u, v| {
        let (dx, dy) = (u - 0.5, v - 0.5);
        let d = (dx * dx + dy * dy).sqrt() / 0.5;
        let alpha = ((1.0 - d) * size as f32 / 3.0).clamp(0.0, 1.0);
        let light = 1.0 + 0.35 * (-(dx + dy) * 1.4) - 0.25 * d * d;
        let highlight = (-(((dx + 0.18).powi(2) + (dy + 0.2).powi(2)) * 60.0)).exp() * 0.6;
        let gold = if rim > 0.0 && d > 1.0 - rim { 1.0 } else { 0.0 };
        let c = |i: usize, g: f32| (base[i] * light + highlight) * (1.0 - gold) + g * gold;
        [c(0, 0.90), c(1, 0.74), c(2, 0.30), alpha]
    })
}

/// A dark inset hollow with rounded corners and a shadow along its top-left edge.
fn pit(width: u32, height: u32, radius: f32) -> Image {
    let (w, h) = (width as f32, height as f32);
    image(width, height, |u, v| {
        let (x, y) = (u * w, v * h);
        let qx = (x - w / 2.0).abs() - (w / 2.0 - radius);
        let qy = (y - h / 2.0).abs() - (h / 2.0 - radius);
        let outside =
            (qx.max(0.0).powi(2) + qy.max(0.0).powi(2)).sqrt() + qx.max(qy).min(0.0) - radius;
        let alpha = (-outside).clamp(0.0, 1.0);
        let shade = 0.55 + 0.45 * ((u + v) / 2.0);
        [0.36 * shade, 0.22 * shade, 0.12 * shade, alpha]
    })
}

/// A round dark button with a white triangle pointing right, soft-edged; the sprite colour
/// tints the triangle (and darkens the button a little). The button keeps the arrow readable
/// over stones and stores.
fn arrow(size: u32) -> Image {
    let s = size as f32;
    image(size, size, |u, v| {
        let (dx, dy) = (u - 0.5, v - 0.5);
        let disc = ((0.5 - (dx * dx + dy * dy).sqrt()) * s).clamp(0.0, 1.0);
        let (x, y) = (0.5 + (u - 0.45) * 1.9, v);
        let inside = (x - 0.28).min(1.0 - x - 2.0 * (y - 0.5).abs() * 0.85 - 0.08);
        let tip = (inside * s / 2.0).clamp(0.0, 1.0);
        let ring = (((dx * dx + dy * dy).sqrt() - 0.44) * s).clamp(0.0, 1.0) * 0.6;
        let shade = 0.16 * (1.0 - tip) + tip + ring * (1.0 - tip);
        [shade, shade, shade, disc.max(tip) * (0.88 + 0.12 * tip)]
    })
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
        let grain = (v * 40.0 + (u * 6.0).sin() * 2.0).sin() * 0.05 + (v * 7.0).sin() * 0.03;
        let g = 1.0 + grain;
        [g, g, g, 1.0]
    })
}
