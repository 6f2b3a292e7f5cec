//! The game's art generator, without Bevy: every picture the game shows is painted here, pixel
//! by pixel, from a few formulas (so it stays remakeable and small for the web). The board's
//! images (`game::board::art`) and the web app's icons (`oaq icons`) both come from it.
//!
//! ```
//! let icon = o_an_quan::art::icon(64, false);
//! assert_eq!(icon.len(), 64 * 64 * 4);
//! ```

pub mod glyphs;

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
    // Lit from the top left, darker toward the far edge, a little light bounced back from the
    // wood at the bottom right.
    let light = 1.0 + 0.35 * (-(dx + dy) * 1.4) - 0.25 * d * d
        + 0.12 * ((dx + dy) * 2.0 - 0.6).max(0.0) * d;
    let highlight = (-(((dx + 0.18).powi(2) + (dy + 0.2).powi(2)) * 60.0)).exp() * 0.6
        + (-(((dx + 0.1).powi(2) + (dy + 0.12).powi(2)) * 14.0)).exp() * 0.08;
    let gold = if rim > 0.0 {
        // A ring with its own light: brighter on its top-left half.
        let band = ((d - (1.0 - rim)) * size / 2.0).clamp(0.0, 1.0);
        band * (0.85 + 0.3 * (-(dx + dy)).clamp(-0.5, 0.5))
    } else {
        0.0
    };
    let c = |i: usize, g: f32| (base[i] * light + highlight) * (1.0 - gold.min(1.0)) + g * gold;
    [c(0, 0.92), c(1, 0.74), c(2, 0.28), alpha]
}

/// A stone as the board draws it: `stone` in the middle `STONE_SHARE` of the picture, over its
/// soft contact shadow down and to the right (the light is at the top left).
pub fn stone_on_wood(size: f32, base: [f32; 3], rim: f32, u: f32, v: f32) -> Pixel {
    let k = STONE_SHARE;
    let (su, sv) = ((u - 0.5) / k + 0.5, (v - 0.5) / k + 0.5);
    let (cu, cv) = (su - 0.07, sv - 0.10);
    let r = ((cu - 0.5).powi(2) + (cv - 0.5).powi(2)).sqrt();
    let shadow = [0.05, 0.03, 0.01, (0.56 - r).clamp(0.0, 0.16) / 0.16 * 0.45];
    if !(0.0..=1.0).contains(&su) || !(0.0..=1.0).contains(&sv) {
        return shadow;
    }
    over(shadow, stone(size * k, base, rim, su, sv))
}

/// How much of a stone's picture the stone fills (the rest is its shadow).
pub const STONE_SHARE: f32 = 0.8;

/// Where the light comes from in a picture's own axes (x to the right, y down), so that it falls
/// from the top left of the screen however the picture is shown: a picture turned a quarter
/// counter-clockwise (the upright board) or mirrored (the left half-moon) is painted lit from
/// its top right.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Light {
    x: f32,
    y: f32,
}

impl Light {
    pub const TOP_LEFT: Light = Light {
        x: -std::f32::consts::FRAC_1_SQRT_2,
        y: -std::f32::consts::FRAC_1_SQRT_2,
    };
    pub const TOP_RIGHT: Light = Light {
        x: std::f32::consts::FRAC_1_SQRT_2,
        y: -std::f32::consts::FRAC_1_SQRT_2,
    };

    /// The light for a picture shown turned a quarter counter-clockwise or not, mirrored or
    /// not (both together cancel out).
    pub fn for_picture(turned: bool, mirrored: bool) -> Light {
        if turned == mirrored {
            Light::TOP_LEFT
        } else {
            Light::TOP_RIGHT
        }
    }

    /// How far toward the light the point `(u, v)` of a picture is: 1 at the lit corner, -1 at
    /// the far one.
    fn toward(self, u: f32, v: f32) -> f32 {
        (self.x * (u - 0.5) + self.y * (v - 0.5)) * std::f32::consts::SQRT_2
    }

    /// `(x, y)` moved `distance` pixels away from the light (where shadows fall).
    fn away(self, x: f32, y: f32, distance: f32) -> (f32, f32) {
        (x - self.x * distance, y - self.y * distance)
    }
}

/// How far outside a `w` × `h` rectangle with corners of `radius` the point `(x, y)` is
/// (negative inside), all in pixels from the top left.
fn outside_rounded(x: f32, y: f32, w: f32, h: f32, radius: f32) -> f32 {
    let qx = (x - w / 2.0).abs() - (w / 2.0 - radius);
    let qy = (y - h / 2.0).abs() - (h / 2.0 - radius);
    (qx.max(0.0).powi(2) + qy.max(0.0).powi(2)).sqrt() + qx.max(qy).min(0.0) - radius
}

/// A hollow carved into the wood, `w` × `h` pixels with rounded corners: dark and inset, its
/// top-left wall casting a shadow into it, its bottom-right lip catching the light.
pub fn pit(w: f32, h: f32, radius: f32, light: Light, u: f32, v: f32) -> Pixel {
    let (x, y) = (u * w, v * h);
    let edge = outside_rounded(x, y, w, h, radius);
    let alpha = (-edge).clamp(0.0, 1.0);
    let depth = 0.10 * w.min(h);
    // Inside the pit but outside the pit moved away from the light: the wall's shadow.
    let (sx, sy) = light.away(x, y, depth);
    let shadowed = outside_rounded(sx, sy, w, h, radius);
    let shadow = (shadowed / depth + 0.6).clamp(0.0, 1.0);
    // The lit lip: a thin band along the edge that faces the light.
    let (lx, ly) = light.away(x, y, -4.24);
    let lip_side = outside_rounded(lx, ly, w, h, radius);
    let lip = ((lip_side + 1.0) / 3.0).clamp(0.0, 1.0) * (1.0 - (-edge / 4.0).clamp(0.0, 1.0));
    // The floor: a little lighter on the far side, where the light falls.
    let floor = 0.62 + 0.38 * (1.0 - light.toward(u, v)) / 2.0;
    let shade = floor * (1.0 - 0.45 * shadow);
    let base = [0.38, 0.235, 0.125];
    let c = |i: usize| base[i] * shade * (1.0 - lip) + [0.93, 0.74, 0.50][i] * lip;
    [c(0), c(1), c(2), alpha]
}

/// The board's wood, `w` × `h` pixels with corners of `radius`: grain along its length, light
/// to mid wood from the lit side, a bevelled edge (lit toward the light, dark away from it)
/// and a dark line where it meets the mat.
pub fn board(w: f32, h: f32, radius: f32, light: Light, u: f32, v: f32) -> Pixel {
    let (x, y) = (u * w, v * h);
    let edge = outside_rounded(x, y, w, h, radius);
    let alpha = (-edge).clamp(0.0, 1.0);
    let pale = [0.784, 0.584, 0.353];
    let dark = [0.541, 0.353, 0.169];
    // Grain: long wavy streaks with a few darker lines, in the picture's own pixels so that it
    // keeps its scale whatever the board's size.
    let wave = (y * 0.11 + (x * 0.013).sin() * 3.0 + (x * 0.0041 + y * 0.02).sin() * 5.0).sin();
    let streak = (y * 0.5 + (x * 0.02).sin() * 4.0).sin().powi(8);
    let grain = 0.5 + 0.22 * wave - 0.18 * streak + 0.1 * ((x * 0.003 + y * 0.05).sin());
    let lit = 0.75 + 0.25 * light.toward(u, v);
    let t = (0.35 * grain + 0.65 * lit).clamp(0.0, 1.0);
    let mut c = [0, 1, 2].map(|i| dark[i] + (pale[i] - dark[i]) * t);
    // The bevel: the outer 6 pixels lean toward or away from the light.
    let bevel = ((edge + 7.0) / 7.0).clamp(0.0, 1.0);
    if bevel > 0.0 {
        // On the lit side, a step toward the light leaves the board.
        let (ax, ay) = light.away(x, y, -5.66);
        let toward = outside_rounded(ax, ay, w, h, radius) > edge;
        let k = if toward {
            1.0 + 0.28 * bevel
        } else {
            1.0 - 0.32 * bevel
        };
        c = c.map(|v| v * k);
    }
    let line = ((edge + 1.5) / 1.5).clamp(0.0, 1.0) * 0.6;
    let c = c.map(|v| v * (1.0 - line));
    [c[0], c[1], c[2], alpha]
}

/// The board's outline: `w` × `h`, its corners rounded by `radius`.
#[derive(Clone, Copy, Debug)]
pub struct Outline {
    pub w: f32,
    pub h: f32,
    pub radius: f32,
}

/// The board (`outline`) over its soft shadow on the mat, `blur` pixels wide and moved
/// `distance` away from the light, in a picture `blur` larger on every side, at `(u, v)`: one
/// picture, so that the shadow costs no drawing of its own.
pub fn board_on_mat(
    outline: Outline,
    (blur, distance): (f32, f32),
    light: Light,
    u: f32,
    v: f32,
) -> Pixel {
    let Outline { w, h, radius } = outline;
    let (pw, ph) = (w + 2.0 * blur, h + 2.0 * blur);
    let (x, y) = (u * pw - blur, v * ph - blur);
    let (sx, sy) = light.away(x, y, distance);
    let d = outside_rounded(sx, sy, w, h, radius);
    let shade = [
        0.0,
        0.0,
        0.0,
        0.75 * (1.0 - smooth((d + blur * 0.3) / blur)),
    ];
    if !(0.0..w).contains(&x) || !(0.0..h).contains(&y) {
        return shade;
    }
    over(shade, board(w, h, radius, light, x / w, y / h))
}

/// A store: a small wooden tray (`board`) with a long shallow hollow carved into it.
pub fn tray(w: f32, h: f32, light: Light, u: f32, v: f32) -> Pixel {
    let wood = board(w, h, (h * 0.28).min(18.0), light, u, v);
    let inset = (0.16 * h).min(11.0);
    let (iw, ih) = (w - 2.0 * inset, h - 2.0 * inset);
    let (iu, iv) = ((u * w - inset) / iw, (v * h - inset) / ih);
    if !(0.0..=1.0).contains(&iu) || !(0.0..=1.0).contains(&iv) {
        return wood;
    }
    let hollow = pit(iw, ih, (ih * 0.4).min(24.0), light, iu, iv);
    // Shallower than a pit: lighter.
    let hollow = [
        hollow[0] * 1.25,
        hollow[1] * 1.25,
        hollow[2] * 1.25,
        hollow[3],
    ];
    over(wood, hollow)
}

/// A glow round a `w` × `h` rectangle with corners of `radius` in a picture `spread` larger on
/// every side: brightest on the rectangle's edge, fading out both ways (white: the sprite's
/// colour tints it).
pub fn glow(w: f32, h: f32, radius: f32, spread: f32, u: f32, v: f32) -> Pixel {
    let (pw, ph) = (w + 2.0 * spread, h + 2.0 * spread);
    let d = outside_rounded(u * pw - spread, v * ph - spread, w, h, radius);
    let a = if d > 0.0 {
        (1.0 - d / spread).clamp(0.0, 1.0).powi(2)
    } else {
        0.55 * (1.0 + d / (spread * 0.8)).clamp(0.0, 1.0).powi(2)
    };
    [1.0, 1.0, 1.0, a]
}

/// Smoothstep from 0 (at 0) to 1 (at 1).
fn smooth(t: f32) -> f32 {
    let t = t.clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// One tile of the woven mat under the board (it repeats seamlessly): strands of sedge under
/// and over each other in a basket weave, deep warm brown to ochre, in low contrast.
pub fn mat(u: f32, v: f32) -> Pixel {
    const CELLS: f32 = 4.0;
    let (cx, cy) = (u * CELLS, v * CELLS);
    let (ix, iy) = (cx.floor() as i32, cy.floor() as i32);
    let (fx, fy) = (cx.fract(), cy.fract());
    // Each cell holds three strands, running across or down by turns.
    let across = (ix + iy) % 2 == 0;
    let (along, width) = if across { (fx, fy) } else { (fy, fx) };
    let strand = (width * 3.0).fract();
    // A strand is round: light on its middle, dark at its sides and where it dives under.
    let round = 1.0 - (strand - 0.5).abs() * 2.0;
    let dive = (along * std::f32::consts::PI).sin();
    let fibre = ((along * 40.0 + (ix * 7 + iy * 3) as f32).sin() * 0.5 + 0.5) * 0.04;
    let k = 0.84 + 0.16 * round.sqrt() * (0.75 + 0.25 * dive) + fibre;
    let tone = if across { 1.0 } else { 0.97 };
    let c = [0, 1, 2].map(|i| MAT[i] * k * tone * 1.12);
    [c[0], c[1], c[2], 1.0]
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
            px = over(
                px,
                pit(pit_px, pit_px, pit_px / 2.0, Light::TOP_LEFT, pu, pv),
            );
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
        let light = Light::TOP_LEFT;
        assert_eq!(pit(100.0, 100.0, 50.0, light, 0.0, 0.0)[3], 0.0);
        assert_eq!(pit(100.0, 100.0, 50.0, light, 0.5, 0.5)[3], 1.0);
    }

    #[test]
    fn a_picture_lit_from_its_top_right_is_the_mirror_of_one_lit_from_its_top_left() {
        let (left, right) = (Light::TOP_LEFT, Light::TOP_RIGHT);
        for (u, v) in [(0.1, 0.2), (0.5, 0.05), (0.93, 0.7), (0.3, 0.96)] {
            let a = pit(120.0, 80.0, 20.0, left, u, v);
            let b = pit(120.0, 80.0, 20.0, right, 1.0 - u, v);
            for i in 0..4 {
                assert!((a[i] - b[i]).abs() < 1e-4, "pit at {u},{v}: {a:?} {b:?}");
            }
        }
        // The lit corner of the board's bevel is brighter than the far one.
        let lit = board(200.0, 100.0, 20.0, left, 0.02, 0.5)[0];
        let far = board(200.0, 100.0, 20.0, left, 0.98, 0.5)[0];
        assert!(lit > far, "{lit} > {far}");
        assert_eq!(Light::for_picture(true, true), Light::TOP_LEFT);
        assert_eq!(Light::for_picture(true, false), Light::TOP_RIGHT);
    }
}
