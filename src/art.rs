//! The game's art generator, without Bevy: every picture the game shows is painted here, pixel
//! by pixel, from a few formulas (so it stays remakeable and small for the web). The board's
//! images (`game::board::art`) and the web app's icons (`oaq icons`) both come from it.
//!
//! ```
//! let icon = o_an_quan::art::icon(64, false);
//! assert_eq!(icon.len(), 64 * 64 * 4);
//! ```

/// Light from the top left: one formula for every picture.
type Pixel = [f32; 4];

/// RGBA bytes (sRGB, straight alpha) of a `width` × `height` picture, `pixel(u, v)` sampled at
/// each pixel's centre, `u` and `v` from 0 to 1 (top left to bottom right).
pub fn paint(width: u32, height: u32, pixel: impl Fn(f32, f32) -> Pixel) -> Vec<u8> {
    let mut data = Vec::with_capacity((width * height * 4) as usize);
    for y in 0..height {
        for x in 0..width {
            let u = (x as f32 + 0.5) / width as f32;
            let v = (y as f32 + 0.5) / height as f32;
            data.extend(pixel(u, v).map(|c| (c.clamp(0.0, 1.0) * 255.0).round() as u8));
        }
    }
    data
}

/// A smooth round stone lit from the top left, with a soft edge `size` pixels across. `rim`
/// draws a gold ring (the mandarin's).
pub fn stone(size: f32, base: [f32; 3], rim: f32, u: f32, v: f32) -> Pixel {
    let (dx, dy) = (u - 0.5, v - 0.5);
    let d = (dx * dx + dy * dy).sqrt() / 0.5;
    let alpha = ((1.0 - d) * size / 3.0).clamp(0.0, 1.0);
    let light = 1.0 + 0.35 * (-(dx + dy) * 1.4) - 0.25 * d * d;
    let highlight = (-(((dx + 0.18).powi(2) + (dy + 0.2).powi(2)) * 60.0)).exp() * 0.6;
    let gold = if rim > 0.0 && d > 1.0 - rim { 1.0 } else { 0.0 };
    let c = |i: usize, g: f32| (base[i] * light + highlight) * (1.0 - gold) + g * gold;
    [c(0, 0.90), c(1, 0.74), c(2, 0.30), alpha]
}

/// How far outside a `w` × `h` rectangle with corners of `radius` the point `(x, y)` is
/// (negative inside), all in pixels from the top left.
fn outside_rounded(x: f32, y: f32, w: f32, h: f32, radius: f32) -> f32 {
    let qx = (x - w / 2.0).abs() - (w / 2.0 - radius);
    let qy = (y - h / 2.0).abs() - (h / 2.0 - radius);
    (qx.max(0.0).powi(2) + qy.max(0.0).powi(2)).sqrt() + qx.max(qy).min(0.0) - radius
}

/// A dark inset hollow `w` × `h` pixels with rounded corners and a shadow along its top-left
/// edge.
pub fn pit(w: f32, h: f32, radius: f32, u: f32, v: f32) -> Pixel {
    let alpha = (-outside_rounded(u * w, v * h, w, h, radius)).clamp(0.0, 1.0);
    let shade = 0.55 + 0.45 * ((u + v) / 2.0);
    [0.36 * shade, 0.22 * shade, 0.12 * shade, alpha]
}

/// A round dark button `size` pixels across with a white triangle pointing right, soft-edged.
pub fn arrow(size: f32, u: f32, v: f32) -> Pixel {
    let (dx, dy) = (u - 0.5, v - 0.5);
    let disc = ((0.5 - (dx * dx + dy * dy).sqrt()) * size).clamp(0.0, 1.0);
    let (x, y) = (0.5 + (u - 0.45) * 1.9, v);
    let inside = (x - 0.28).min(1.0 - x - 2.0 * (y - 0.5).abs() * 0.85 - 0.08);
    let tip = (inside * size / 2.0).clamp(0.0, 1.0);
    let ring = (((dx * dx + dy * dy).sqrt() - 0.44) * size).clamp(0.0, 1.0) * 0.6;
    let shade = 0.16 * (1.0 - tip) + tip + ring * (1.0 - tip);
    [shade, shade, shade, disc.max(tip) * (0.88 + 0.12 * tip)]
}

/// The brightness of light wood with a soft grain (the sprite's colour tints it).
pub fn grain(u: f32, v: f32) -> f32 {
    1.0 + (v * 40.0 + (u * 6.0).sin() * 2.0).sin() * 0.05 + (v * 7.0).sin() * 0.03
}

/// The mat under the board, the wood and the mandarin's green, as the board draws them.
pub const MAT: [f32; 3] = [0.30, 0.19, 0.11];
pub const WOOD: [f32; 3] = [0.78, 0.58, 0.35];
pub const MANDARIN: [f32; 3] = [0.20, 0.55, 0.38];
/// Pebble shades: slate, sand, terracotta, moss, cream.
pub const PEBBLES: [[f32; 3]; 5] = [
    [0.47, 0.50, 0.53],
    [0.80, 0.71, 0.55],
    [0.72, 0.42, 0.30],
    [0.48, 0.55, 0.38],
    [0.90, 0.86, 0.76],
];

/// `top` over `under`, straight alpha.
fn over(under: Pixel, top: Pixel) -> Pixel {
    let a = top[3] + under[3] * (1.0 - top[3]);
    if a <= 0.0 {
        return [0.0; 4];
    }
    let mix = |i: usize| (top[i] * top[3] + under[i] * under[3] * (1.0 - top[3])) / a;
    [mix(0), mix(1), mix(2), a]
}

/// The app's icon, `size` pixels square: a mandarin stone and four pebbles in a carved pit of
/// a wooden tile, on the mat. `maskable` keeps everything inside the circle a launcher may cut
/// out (the middle 80 %) and fills the square to its edges.
pub fn icon(size: u32, maskable: bool) -> Vec<u8> {
    let s = size as f32;
    // The tile, and the pit in it, as fractions of the icon.
    let (tile, corner) = if maskable { (1.0, 0.0) } else { (0.9, 0.2) };
    let pit_size = if maskable { 0.58 } else { 0.66 };
    let stones: [(f32, f32, f32, [f32; 3], f32); 5] = [
        // centre x, centre y, diameter, colour, gold rim
        (0.44, 0.45, 0.30, MANDARIN, 0.16),
        (0.63, 0.60, 0.12, PEBBLES[4], 0.0),
        (0.58, 0.36, 0.11, PEBBLES[2], 0.0),
        (0.37, 0.65, 0.11, PEBBLES[1], 0.0),
        (0.65, 0.46, 0.10, PEBBLES[0], 0.0),
    ];
    paint(size, size, |u, v| {
        let mut px = [MAT[0], MAT[1], MAT[2], 1.0];
        // A woven mat: two crossing sets of strands.
        let weave = ((u * 18.0 * std::f32::consts::PI).sin()
            * (v * 18.0 * std::f32::consts::PI).sin())
        .signum()
            * 0.04;
        px = [px[0] + weave, px[1] + weave, px[2] + weave, 1.0];
        let margin = (1.0 - tile) / 2.0;
        let (tu, tv) = ((u - margin) / tile, (v - margin) / tile);
        let tile_px = s * tile;
        let edge = outside_rounded(
            tu * tile_px,
            tv * tile_px,
            tile_px,
            tile_px,
            corner * tile_px,
        );
        // A soft shadow under the tile, down and to the right.
        let shadow = outside_rounded(
            (tu - 0.02) * tile_px,
            (tv - 0.03) * tile_px,
            tile_px,
            tile_px,
            corner * tile_px,
        );
        let shade = (1.0 - (shadow / (0.04 * s)).clamp(0.0, 1.0)) * 0.45;
        px = over(px, [0.0, 0.0, 0.0, if edge > 0.0 { shade } else { 0.0 }]);
        let g = grain(tu, tv) * (1.08 - 0.16 * (tu + tv) / 2.0);
        px = over(
            px,
            [
                WOOD[0] * g,
                WOOD[1] * g,
                WOOD[2] * g,
                (-edge).clamp(0.0, 1.0),
            ],
        );
        let (pu, pv) = (
            (u - (1.0 - pit_size) / 2.0) / pit_size,
            (v - (1.0 - pit_size) / 2.0) / pit_size,
        );
        if (0.0..=1.0).contains(&pu) && (0.0..=1.0).contains(&pv) {
            let pit_px = s * pit_size;
            px = over(px, pit(pit_px, pit_px, pit_px / 2.0, pu, pv));
            for &(x, y, d, colour, rim) in &stones {
                let (su, sv) = ((pu - x) / d + 0.5, (pv - y) / d + 0.5);
                if (0.0..=1.0).contains(&su) && (0.0..=1.0).contains(&sv) {
                    // Its contact shadow first, then the stone.
                    let (cu, cv) = (su - 0.06, sv - 0.09);
                    let r = ((cu - 0.5).powi(2) + (cv - 0.5).powi(2)).sqrt();
                    px = over(px, [0.0, 0.0, 0.0, (0.5 - r).clamp(0.0, 0.1) * 4.0]);
                    px = over(px, stone(d * pit_px, colour, rim, su, sv));
                }
            }
        }
        px
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(image: &[u8], size: u32, x: u32, y: u32) -> [u8; 4] {
        let i = ((y * size + x) * 4) as usize;
        [image[i], image[i + 1], image[i + 2], image[i + 3]]
    }

    #[test]
    fn the_icon_is_opaque_mat_at_the_corner_and_mandarin_green_near_the_middle() {
        let icon = icon(128, false);
        assert!(icon.chunks(4).all(|p| p[3] == 255), "an opaque square");
        let corner = at(&icon, 128, 1, 1);
        assert!(
            corner[0] < 100 && corner[0] > corner[2],
            "mat brown: {corner:?}"
        );
        // The mandarin stone sits a little above and left of the middle.
        let (x, y) = ((0.17 + 0.44 * 0.66) * 128.0, (0.17 + 0.45 * 0.66) * 128.0);
        let green = at(&icon, 128, x as u32, y as u32);
        assert!(
            green[1] > green[0] && green[1] > green[2],
            "green: {green:?}"
        );
        // The maskable one reaches its edges with wood, not mat.
        let maskable = icon_maskable();
        let edge = at(&maskable, 128, 64, 1);
        assert!(edge[0] > 150, "wood at the edge: {edge:?}");
    }

    fn icon_maskable() -> Vec<u8> {
        icon(128, true)
    }

    #[test]
    fn stones_fade_out_at_their_edge_and_pits_are_clear_outside() {
        assert_eq!(stone(48.0, [1.0; 3], 0.0, 0.0, 0.0)[3], 0.0);
        assert_eq!(stone(48.0, [1.0; 3], 0.0, 0.5, 0.5)[3], 1.0);
        assert_eq!(pit(100.0, 100.0, 50.0, 0.0, 0.0)[3], 0.0);
        assert_eq!(pit(100.0, 100.0, 50.0, 0.5, 0.5)[3], 1.0);
    }
}
