//! The room's link as a QR code, drawn by the game into an image: dark modules on white with
//! the four-module quiet zone readers need, one pixel a module, scaled up without smoothing.

use bevy::asset::RenderAssetUsages;
use bevy::image::ImageSampler;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

/// Modules of white around the code.
const QUIET: usize = 4;

/// The modules of `text`'s QR code, row by row (`true`: dark), and the code's side, quiet zone
/// included; `None` for text too long for a QR code.
pub fn modules(text: &str) -> Option<(Vec<bool>, usize)> {
    let code = qrcode::QrCode::with_error_correction_level(text, qrcode::EcLevel::M).ok()?;
    let width = code.width();
    let dark: Vec<bool> = code
        .to_colors()
        .into_iter()
        .map(|c| c == qrcode::Color::Dark)
        .collect();
    let side = width + 2 * QUIET;
    let mut out = vec![false; side * side];
    for y in 0..width {
        for x in 0..width {
            out[(y + QUIET) * side + x + QUIET] = dark[y * width + x];
        }
    }
    Some((out, side))
}

/// `text`'s QR code as an image.
pub fn image(text: &str) -> Option<Image> {
    let (dark, side) = modules(text)?;
    let pixels: Vec<u8> = dark
        .iter()
        .flat_map(|&d| {
            if d {
                [20, 14, 8, 255]
            } else {
                [255, 255, 255, 255]
            }
        })
        .collect();
    let mut image = Image::new(
        Extent3d {
            width: side as u32,
            height: side as u32,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        pixels,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD,
    );
    image.sampler = ImageSampler::nearest();
    Some(image)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_room_link_makes_a_square_code_with_its_finder_patterns_and_quiet_zone() {
        let (dark, side) = modules("https://example.org/?room=K7Q2MX").unwrap();
        assert_eq!(dark.len(), side * side);
        let at = |x: usize, y: usize| dark[y * side + x];
        // The quiet zone is white all round.
        for i in 0..side {
            for q in 0..QUIET {
                assert!(!at(i, q) && !at(q, i) && !at(i, side - 1 - q) && !at(side - 1 - q, i));
            }
        }
        // A finder pattern in three corners: a dark ring, a white ring, a dark 3×3 core.
        for (cx, cy) in [
            (QUIET, QUIET),
            (side - QUIET - 7, QUIET),
            (QUIET, side - QUIET - 7),
        ] {
            for i in 0..7 {
                assert!(
                    at(cx + i, cy) && at(cx + i, cy + 6) && at(cx, cy + i) && at(cx + 6, cy + i)
                );
            }
            assert!(!at(cx + 1, cy + 1) && at(cx + 3, cy + 3));
        }
        assert!(
            modules(&"x".repeat(5000)).is_none(),
            "too long for any version"
        );
    }
}
