//! A profile's rating over time, drawn by the game into an image: a faint grid line each 100
//! points, the ratings after each rated game joined by a line two pixels thick, the last one
//! marked. The scale fits the ratings with a margin (at least 200 points tall), so a player's
//! first few games do not look like cliffs.

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

/// The graph's size in pixels (shown at this size in the profile).
pub const WIDTH: usize = 480;
pub const HEIGHT: usize = 150;

const PAPER: [u8; 4] = [250, 243, 228, 255];
const GRID: [u8; 4] = [224, 210, 186, 255];
const LINE: [u8; 4] = [150, 62, 30, 255];

/// The rating range the graph spans: the ratings' own with 10 % either side, at least 200
/// points, on hundreds.
pub fn range(ratings: &[f64]) -> (f64, f64) {
    let lo = ratings.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = ratings.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !lo.is_finite() || !hi.is_finite() {
        return (1400.0, 1600.0);
    }
    let margin = ((hi - lo) * 0.1).max(20.0);
    let (mut lo, mut hi) = (
        ((lo - margin) / 100.0).floor() * 100.0,
        ((hi + margin) / 100.0).ceil() * 100.0,
    );
    if hi - lo < 200.0 {
        let mid = ((lo + hi) / 200.0).round() * 100.0;
        (lo, hi) = (mid - 100.0, mid + 100.0);
    }
    (lo, hi)
}

/// The graph's pixels, RGBA row by row from the top.
pub fn pixels(ratings: &[f64]) -> Vec<u8> {
    let mut out: Vec<u8> = PAPER.repeat(WIDTH * HEIGHT);
    let mut put = |x: i64, y: i64, colour: [u8; 4]| {
        if (0..WIDTH as i64).contains(&x) && (0..HEIGHT as i64).contains(&y) {
            let at = (y as usize * WIDTH + x as usize) * 4;
            out[at..at + 4].copy_from_slice(&colour);
        }
    };
    let (lo, hi) = range(ratings);
    let y_of = |r: f64| ((hi - r) / (hi - lo) * (HEIGHT - 9) as f64).round() as i64 + 4;
    let mut level = lo;
    while level <= hi {
        let y = y_of(level);
        for x in 0..WIDTH as i64 {
            put(x, y, GRID);
        }
        level += 100.0;
    }
    let n = ratings.len();
    let x_of = |i: usize| {
        if n < 2 {
            (WIDTH / 2) as i64
        } else {
            4 + (i * (WIDTH - 9) / (n - 1)) as i64
        }
    };
    let points: Vec<(i64, i64)> = ratings
        .iter()
        .enumerate()
        .map(|(i, &r)| (x_of(i), y_of(r)))
        .collect();
    for pair in points.windows(2) {
        let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
        let steps = (x1 - x0).abs().max((y1 - y0).abs()).max(1);
        for s in 0..=steps {
            let x = x0 + (x1 - x0) * s / steps;
            let y = y0 + (y1 - y0) * s / steps;
            put(x, y, LINE);
            put(x, y + 1, LINE);
        }
    }
    if let Some(&(x, y)) = points.last() {
        for dy in -3..=3 {
            for dx in -3..=3 {
                if dx * dx + dy * dy <= 9 {
                    put(x + dx, y + dy, LINE);
                }
            }
        }
    }
    out
}

/// The graph as an image.
pub fn image(ratings: &[f64]) -> Image {
    Image::new(
        Extent3d {
            width: WIDTH as u32,
            height: HEIGHT as u32,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        pixels(ratings),
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(pixels: &[u8], x: usize, y: usize) -> [u8; 4] {
        let i = (y * WIDTH + x) * 4;
        [pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]]
    }

    #[test]
    fn the_scale_fits_the_ratings_on_hundreds() {
        assert_eq!(range(&[1500.0]), (1400.0, 1600.0));
        assert_eq!(range(&[]), (1400.0, 1600.0));
        assert_eq!(range(&[1480.0, 1720.0]), (1400.0, 1800.0));
        let (lo, hi) = range(&[1200.0, 1900.0, 1500.0]);
        assert!(lo <= 1130.0 && hi >= 1970.0);
    }

    #[test]
    fn a_rising_rating_is_a_line_from_low_left_to_high_right() {
        let p = pixels(&[1400.0, 1500.0, 1600.0]);
        assert_eq!(p.len(), WIDTH * HEIGHT * 4);
        let column = |x: usize| (0..HEIGHT).find(|&y| at(&p, x, y) == LINE);
        let left = column(6).expect("the line starts at the left");
        let middle = column(WIDTH / 2).expect("and crosses the middle");
        let right = column(WIDTH - 12).expect("to the right");
        assert!(left > middle && middle > right, "{left} {middle} {right}");
        // The last game is marked with a dot.
        assert!(column(WIDTH - 2).is_some(), "the last game's dot");
        assert!(column(WIDTH - 1).is_none());
        // Grid lines each hundred points, across the whole width.
        let grid_rows = (0..HEIGHT).filter(|&y| at(&p, 1, y) == GRID).count();
        assert!(grid_rows >= 3, "{grid_rows}");
    }
}
