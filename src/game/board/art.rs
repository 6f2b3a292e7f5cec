//! Images the game draws for itself at start-up (the mat, the board and its shadow, pits,
//! stores, pebbles, mandarin stones, glows, the buttons' glyphs) and the fonts, loaded once
//! into a resource before anything is shown.

use std::collections::HashMap;

use bevy::asset::RenderAssetUsages;
use bevy::image::{ImageAddressMode, ImageSampler, ImageSamplerDescriptor};
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

use crate::art;
use crate::art::Light;
use crate::art::glyphs::Glyph;
use crate::game::board::layout::{self, Layout};

/// Every handle the board needs (none loaded by default: for tests of widgets).
#[derive(Resource, Clone, Default)]
pub struct Art {
    pub pebble: Handle<Image>,
    pub mandarin: Handle<Image>,
    /// One tile of the woven mat, repeating.
    pub mat: Handle<Image>,
    /// A store's tray, on the 2-player board and beside the triangle (whose stores are
    /// shorter and taller).
    pub tray: Handle<Image>,
    pub tray3: Handle<Image>,
    /// Pictures lit from their top right, for those shown turned (the upright board) or
    /// mirrored (the left half-moon): the light still falls from the screen's top left.
    pub tray_right: Handle<Image>,
    pub pit_right: Handle<Image>,
    pub mandarin_pit_right: Handle<Image>,
    pub board_right: Handle<Image>,
    /// Glows (white, tinted by the sprite) round a citizen pit, a half-moon, a round mandarin
    /// pit, a row of pits and a store.
    pub pit_glow: Handle<Image>,
    pub mandarin_glow: Handle<Image>,
    pub round_glow: Handle<Image>,
    pub row_glow: Handle<Image>,
    pub store_glow: Handle<Image>,
    pub store_glow3: Handle<Image>,
    /// The buttons' pictures.
    pub glyphs: HashMap<Glyph, Handle<Image>>,
    pub pit: Handle<Image>,
    pub mandarin_pit: Handle<Image>,
    /// The round mandarin pit of the 3-player board.
    pub round_pit: Handle<Image>,
    pub board: Handle<Image>,
    /// The 3-player board: a triangle with rounded corners.
    pub triangle_board: Handle<Image>,
    /// A triangle pointing right (flip it for left).
    pub arrow: Handle<Image>,
    /// Noto Sans, for the words.
    pub font: Handle<Font>,
    pub bold: Handle<Font>,
    /// Be Vietnam Pro Bold, for titles and counts.
    pub display: Handle<Font>,
}

impl Art {
    /// Every font, for waiting until they have arrived.
    pub fn fonts(&self) -> [&Handle<Font>; 3] {
        [&self.font, &self.bold, &self.display]
    }

    pub fn glyph(&self, glyph: Glyph) -> Handle<Image> {
        self.glyphs[&glyph].clone()
    }
}

/// How far a glow reaches beyond its shape, in the world's units.
pub const GLOW_SPREAD: f32 = 14.0;
/// A stone's sprite for a stone `across` units across: the stone and its shadow round it.
pub fn stone_sprite_size(across: f32) -> Vec2 {
    Vec2::splat(across / art::STONE_SHARE)
}

/// Pebble shades: slate, sand, terracotta, moss, cream.
pub const PEBBLE_SHADES: [Color; 5] = [
    Color::srgb(0.47, 0.50, 0.53),
    Color::srgb(0.80, 0.71, 0.55),
    Color::srgb(0.72, 0.42, 0.30),
    Color::srgb(0.48, 0.55, 0.38),
    Color::srgb(0.90, 0.86, 0.76),
];
/// Player colours: amber, teal, violet. Apart for every colour vision (amber and teal differ in
/// blue, which red-green colour blindness keeps; violet is far from both in lightness or hue
/// for each of the three deficiencies): `access::vision` checks it.
pub const PLAYER_COLOURS: [Color; 3] = [
    Color::srgb(0.95, 0.66, 0.20),
    Color::srgb(0.22, 0.68, 0.70),
    Color::srgb(0.62, 0.40, 0.95),
];
pub const MAT: Color = Color::srgb(0.30, 0.19, 0.11);
pub const WOOD: Color = Color::srgb(0.78, 0.58, 0.35);
pub const INK: Color = Color::srgb(0.98, 0.95, 0.88);

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(ClearColor(MAT));
    // Drawn while the app is built, so that every schedule, the first state transition
    // included, finds the art in place.
    let world = app.world_mut();
    let fonts = {
        let assets = world.resource::<AssetServer>();
        [
            assets.load("fonts/NotoSans-Regular.ttf"),
            assets.load("fonts/NotoSans-Bold.ttf"),
            assets.load("fonts/BeVietnamPro-Bold.ttf"),
        ]
    };
    let mut later = Later::default();
    let art = load(
        &mut world.resource_mut::<Assets<Image>>(),
        fonts,
        &mut later,
    );
    crate::game::trace::mark("art-drawn");
    app.insert_resource(art).insert_resource(later);
    app.add_systems(Update, (mark_fonts_loaded, draw_later));
}

/// Pictures only the 3-player board shows, drawn once the first frames are out (one a frame)
/// instead of before the first: a phone's first visit waits for less. Until then their
/// handles hold a clear pixel.
#[derive(Resource, Default)]
struct Later(Vec<(Handle<Image>, fn() -> Image)>);

impl Later {
    /// A handle for the picture `draw` makes, drawn later.
    fn add(&mut self, images: &mut Assets<Image>, draw: fn() -> Image) -> Handle<Image> {
        let clear = Image::new_fill(
            Extent3d::default(),
            TextureDimension::D2,
            &[0, 0, 0, 0],
            TextureFormat::Rgba8UnormSrgb,
            RenderAssetUsages::RENDER_WORLD,
        );
        let handle = images.add(clear);
        self.0.push((handle.clone(), draw));
        handle
    }
}

/// Frames left alone before the later pictures: the first screen's.
const FRAMES_BEFORE_LATER: u32 = 3;

fn draw_later(mut later: ResMut<Later>, mut images: ResMut<Assets<Image>>, mut frames: Local<u32>) {
    if later.0.is_empty() {
        return;
    }
    *frames += 1;
    if *frames <= FRAMES_BEFORE_LATER {
        return;
    }
    let (handle, draw) = later.0.remove(0);
    // The handle is held by `Art` for good: it cannot have been dropped.
    let _ = images.insert(&handle, draw());
}

/// The fonts arrive from the network on the web: the text waits for them.
fn mark_fonts_loaded(art: Res<Art>, assets: Res<AssetServer>, mut marked: Local<bool>) {
    if !*marked
        && art
            .fonts()
            .iter()
            .all(|f| assets.is_loaded_with_dependencies(*f))
    {
        crate::game::trace::mark("fonts-loaded");
        *marked = true;
    }
}

fn load(
    images: &mut Assets<Image>,
    [font, bold, display]: [Handle<Font>; 3],
    later: &mut Later,
) -> Art {
    let (pit_size, half_moon) = (layout::PIT, layout::MANDARIN_PIT);
    let glow_of = |size: Vec2, radius: f32| glow(size, radius);
    Art {
        pebble: images.add(stone(56, [1.0, 1.0, 1.0], 0.0)),
        mandarin: images.add(stone(128, art::MANDARIN, 0.16)),
        mat: images.add(mat(96)),
        tray: images.add(tray(Layout::new(2).store_size(), Light::TOP_LEFT)),
        tray3: later.add(images, || {
            tray(Layout::new(3).store_size(), Light::TOP_LEFT)
        }),
        tray_right: images.add(tray(Layout::new(2).store_size(), Light::TOP_RIGHT)),
        pit_right: images.add(pit(
            128,
            128,
            128.0 * PIT_RADIUS / pit_size,
            Light::TOP_RIGHT,
        )),
        mandarin_pit_right: images.add(pit(120, 256, 60.0, Light::TOP_RIGHT)),
        board_right: images.add(wood(Light::TOP_RIGHT)),
        pit_glow: images.add(glow_of(Vec2::splat(pit_size), PIT_RADIUS)),
        mandarin_glow: images.add(glow_of(half_moon, half_moon.x / 2.0)),
        round_glow: later.add(images, || glow(Vec2::splat(116.0), 58.0)),
        row_glow: images.add(glow_of(layout::ROW_GLOW, 26.0)),
        store_glow: images.add(glow_of(Layout::new(2).store_size(), 20.0)),
        store_glow3: later.add(images, || glow(Layout::new(3).store_size(), 30.0)),
        glyphs: Glyph::ALL
            .into_iter()
            .map(|g| (g, images.add(glyph(g, 48))))
            .collect(),
        pit: images.add(pit(
            128,
            128,
            128.0 * PIT_RADIUS / pit_size,
            Light::TOP_LEFT,
        )),
        mandarin_pit: images.add(pit(120, 256, 60.0, Light::TOP_LEFT)),
        round_pit: later.add(images, || pit(128, 128, 64.0, Light::TOP_LEFT)),
        board: images.add(wood(Light::TOP_LEFT)),
        triangle_board: later.add(images, triangle_wood),
        arrow: images.add(arrow(96)),
        font,
        bold,
        display,
    }
}

/// A citizen pit's corner radius, in the world's units.
const PIT_RADIUS: f32 = 24.0;

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
    image(size, size, |u, v| {
        art::stone_on_wood(size as f32, base, rim, u, v)
    })
}

/// The mat's tile, sampled so that it repeats: one sprite covers any window with it.
fn mat(size: u32) -> Image {
    let mut tile = image(size, size, art::mat);
    tile.sampler = ImageSampler::Descriptor(ImageSamplerDescriptor {
        address_mode_u: ImageAddressMode::Repeat,
        address_mode_v: ImageAddressMode::Repeat,
        // Drawn at about its own size: the nearest pixel looks the same, for less work.
        ..ImageSamplerDescriptor::nearest()
    });
    tile
}

/// How soft the board's shadow is, and its corners, in the world's units.
pub const SHADOW_BLUR: f32 = 28.0;
pub const BOARD_RADIUS: f32 = 26.0;

/// A store's tray `size` world units, at the world's resolution.
fn tray(size: Vec2, light: Light) -> Image {
    image(size.x as u32, size.y as u32, |u, v| {
        art::tray(size.x, size.y, light, u, v)
    })
}

/// A glow round `size` (world units, drawn at half that), `GLOW_SPREAD` beyond it.
fn glow(size: Vec2, radius: f32) -> Image {
    let (w, h, r, s) = (size.x / 2.0, size.y / 2.0, radius / 2.0, GLOW_SPREAD / 2.0);
    image((w + 2.0 * s) as u32, (h + 2.0 * s) as u32, |u, v| {
        art::glow(w, h, r, s, u, v)
    })
}

fn glyph(glyph: Glyph, size: u32) -> Image {
    image(size, size, |u, v| {
        art::glyphs::glyph(glyph, size as f32, u, v)
    })
}

fn pit(width: u32, height: u32, radius: f32, light: Light) -> Image {
    image(width, height, |u, v| {
        art::pit(width as f32, height as f32, radius, light, u, v)
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

/// The 2-player board's wood and its shadow on the mat (`SHADOW_BLUR` round it), at half the
/// world's resolution.
fn wood(light: Light) -> Image {
    let (board, _) = Layout::new(2).board_rect();
    let (w, h, blur) = (board.x / 2.0, board.y / 2.0, SHADOW_BLUR / 2.0);
    image((w + 2.0 * blur) as u32, (h + 2.0 * blur) as u32, |u, v| {
        let radius = BOARD_RADIUS / 2.0;
        let outline = art::Outline { w, h, radius };
        art::board_on_mat(outline, (blur, SHADOW_DISTANCE / 2.0), light, u, v)
    })
}

/// How far from the board its shadow falls (away from the light), in the world's units.
const SHADOW_DISTANCE: f32 = 16.0;
