//! The buttons' pictures (menu, hint, undo, redo, moves, skip, sound, and those of the review,
//! puzzles, lesson and online bars), drawn as white shapes with soft edges so that the button's
//! text colour tints them, as a font's glyphs would be.

use super::Pixel;

/// A picture on a button.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Glyph {
    /// Three bars.
    Menu,
    /// A light bulb.
    Hint,
    /// An arrow curving back to the left.
    Undo,
    /// The same, to the right.
    Redo,
    /// A list: three dots and lines.
    Moves,
    /// Two triangles pointing right, and a bar.
    Skip,
    /// A speaker with two waves.
    SoundOn,
    /// A speaker with a cross.
    SoundOff,
    /// An arrow pointing left: back to where the player came from.
    Back,
    /// A triangle pointing right.
    Play,
    /// Two bars.
    Pause,
    /// A ring round a dot: the best move.
    Target,
    /// A dot, then a triangle pointing right: play the best move.
    PlayIt,
    /// A circle of arrow: again (retry, replay, rematch).
    Again,
    /// A flag on its pole: resign.
    Flag,
    /// Two equal bars: a draw.
    Draw,
    /// A door frame with an arrow going out: leave.
    Leave,
    /// A speech bubble: the chat's phrases.
    Chat,
    /// The sides' own shapes, so that no side is told by its colour alone: a disc (the first
    /// side), a triangle (the second), a diamond (the third).
    SideDisc,
    SideTriangle,
    SideDiamond,
}

impl Glyph {
    pub const ALL: [Glyph; 21] = [
        Glyph::Menu,
        Glyph::Hint,
        Glyph::Undo,
        Glyph::Redo,
        Glyph::Moves,
        Glyph::Skip,
        Glyph::SoundOn,
        Glyph::SoundOff,
        Glyph::Back,
        Glyph::Play,
        Glyph::Pause,
        Glyph::Target,
        Glyph::PlayIt,
        Glyph::Again,
        Glyph::Flag,
        Glyph::Draw,
        Glyph::Leave,
        Glyph::Chat,
        Glyph::SideDisc,
        Glyph::SideTriangle,
        Glyph::SideDiamond,
    ];

    /// The shape of side `side` (0, 1 or 2).
    pub fn side(side: usize) -> Glyph {
        [Glyph::SideDisc, Glyph::SideTriangle, Glyph::SideDiamond][side % 3]
    }
}

/// Distance from `p` to the segment `a`–`b`.
fn segment(p: (f32, f32), a: (f32, f32), b: (f32, f32)) -> f32 {
    let (px, py) = (p.0 - a.0, p.1 - a.1);
    let (bx, by) = (b.0 - a.0, b.1 - a.1);
    let t = ((px * bx + py * by) / (bx * bx + by * by)).clamp(0.0, 1.0);
    ((px - bx * t).powi(2) + (py - by * t).powi(2)).sqrt()
}

/// Distance from `p` to the triangle `a b c` (negative inside).
fn triangle(p: (f32, f32), a: (f32, f32), b: (f32, f32), c: (f32, f32)) -> f32 {
    let edges = [(a, b), (b, c), (c, a)];
    let d = edges
        .iter()
        .map(|&(s, e)| segment(p, s, e))
        .fold(f32::INFINITY, f32::min);
    let side = |s: (f32, f32), e: (f32, f32)| (e.0 - s.0) * (p.1 - s.1) - (e.1 - s.1) * (p.0 - s.0);
    let signs = edges.map(|(s, e)| side(s, e));
    let inside = signs.iter().all(|&x| x >= 0.0) || signs.iter().all(|&x| x <= 0.0);
    if inside { -d } else { d }
}

/// Distance from `p` to a circle's ring of `radius` about `c`, only where the ring's angle
/// (screen angle, y down) lies between `from` and `to` radians; elsewhere far away.
fn arc(p: (f32, f32), c: (f32, f32), radius: f32, from: f32, to: f32) -> f32 {
    let (dx, dy) = (p.0 - c.0, p.1 - c.1);
    let angle = dy.atan2(dx);
    if angle >= from && angle <= to {
        ((dx * dx + dy * dy).sqrt() - radius).abs()
    } else {
        let end = |a: f32| (c.0 + radius * a.cos(), c.1 + radius * a.sin());
        let (e1, e2) = (end(from), end(to));
        segment(p, e1, e1).min(segment(p, e2, e2))
    }
}

/// The glyph's shape as a distance (negative inside), in units of the picture's side.
fn distance(glyph: Glyph, p: (f32, f32)) -> f32 {
    match glyph {
        Glyph::Menu
        | Glyph::Hint
        | Glyph::Undo
        | Glyph::Redo
        | Glyph::Moves
        | Glyph::Skip
        | Glyph::SoundOn
        | Glyph::SoundOff => bar_distance(glyph, p),
        Glyph::SideDisc | Glyph::SideTriangle | Glyph::SideDiamond | Glyph::Chat => {
            mark_distance(glyph, p)
        }
        _ => control_distance(glyph, p),
    }
}

/// The width of a glyph's strokes, as a share of its picture.
const STROKE: f32 = 0.045;

/// The game bar's glyphs.
fn bar_distance(glyph: Glyph, p: (f32, f32)) -> f32 {
    let line = |a, b| segment(p, a, b) - STROKE;
    match glyph {
        Glyph::Menu => [0.3, 0.5, 0.7]
            .map(|y| line((0.22, y), (0.78, y)))
            .into_iter()
            .fold(f32::INFINITY, f32::min),
        Glyph::Hint => {
            let bulb = ((p.0 - 0.5).powi(2) + (p.1 - 0.40).powi(2)).sqrt() - 0.21;
            let neck = triangle(p, (0.38, 0.50), (0.62, 0.50), (0.5, 0.68)).max(p.1 - 0.66);
            let base = line((0.42, 0.72), (0.58, 0.72)).min(line((0.45, 0.82), (0.55, 0.82)));
            bulb.min(neck).min(base)
        }
        Glyph::Undo | Glyph::Redo => {
            let p = if glyph == Glyph::Redo {
                (1.0 - p.0, p.1)
            } else {
                p
            };
            // A hook: an arc over the top, ending in an arrowhead at the left.
            let hook = arc(p, (0.52, 0.56), 0.24, -std::f32::consts::PI, 1.2) - STROKE;
            let head = triangle(p, (0.14, 0.56), (0.40, 0.56), (0.27, 0.72));
            hook.min(head)
        }
        Glyph::Moves => {
            let mut d = f32::INFINITY;
            for y in [0.3, 0.5, 0.7] {
                let dot = ((p.0 - 0.25).powi(2) + (p.1 - y).powi(2)).sqrt() - 0.06;
                d = d.min(dot).min(line((0.40, y), (0.80, y)));
            }
            d
        }
        Glyph::Skip => {
            let a = triangle(p, (0.16, 0.28), (0.16, 0.72), (0.46, 0.5));
            let b = triangle(p, (0.44, 0.28), (0.44, 0.72), (0.74, 0.5));
            a.min(b).min(line((0.80, 0.28), (0.80, 0.72)))
        }
        Glyph::SoundOn | Glyph::SoundOff => {
            let box_ = line((0.18, 0.42), (0.18, 0.58)).min(line((0.18, 0.5), (0.28, 0.5))) - 0.06;
            let cone = triangle(p, (0.22, 0.5), (0.50, 0.22), (0.50, 0.78));
            let speaker = box_.min(cone);
            if glyph == Glyph::SoundOn {
                let w1 = arc(p, (0.50, 0.5), 0.14, -0.9, 0.9) - STROKE * 0.8;
                let w2 = arc(p, (0.50, 0.5), 0.28, -0.9, 0.9) - STROKE * 0.8;
                speaker.min(w1).min(w2)
            } else {
                let x1 = line((0.62, 0.38), (0.84, 0.62));
                let x2 = line((0.62, 0.62), (0.84, 0.38));
                speaker.min(x1).min(x2)
            }
        }
        _ => f32::INFINITY,
    }
}

/// The review's, the online game's and the screens' controls.
fn control_distance(glyph: Glyph, p: (f32, f32)) -> f32 {
    let line = |a, b| segment(p, a, b) - STROKE;
    match glyph {
        Glyph::Back => {
            let shaft = line((0.34, 0.5), (0.80, 0.5));
            shaft.min(triangle(p, (0.16, 0.5), (0.42, 0.28), (0.42, 0.72)))
        }
        Glyph::Play => triangle(p, (0.30, 0.22), (0.30, 0.78), (0.78, 0.5)),
        Glyph::Pause => {
            (line((0.38, 0.26), (0.38, 0.74)) - 0.04).min(line((0.62, 0.26), (0.62, 0.74)) - 0.04)
        }
        Glyph::Target => {
            let r = ((p.0 - 0.5).powi(2) + (p.1 - 0.5).powi(2)).sqrt();
            ((r - 0.28).abs() - STROKE).min(r - 0.09)
        }
        Glyph::PlayIt => {
            let dot = ((p.0 - 0.22).powi(2) + (p.1 - 0.5).powi(2)).sqrt() - 0.08;
            dot.min(triangle(p, (0.42, 0.24), (0.42, 0.76), (0.84, 0.5)))
        }
        Glyph::Again => {
            // Round from the top left, clockwise, to an arrowhead back at the top left.
            let ring = arc(p, (0.5, 0.52), 0.27, -2.0, 2.9) - STROKE;
            ring.min(triangle(p, (0.12, 0.40), (0.40, 0.40), (0.26, 0.20)))
        }
        Glyph::Flag => {
            let pole = line((0.28, 0.16), (0.28, 0.86));
            pole.min(triangle(p, (0.30, 0.18), (0.30, 0.54), (0.80, 0.36)))
        }
        Glyph::Draw => line((0.24, 0.40), (0.76, 0.40)).min(line((0.24, 0.62), (0.76, 0.62))),
        Glyph::Leave => {
            let door = line((0.56, 0.20), (0.22, 0.20))
                .min(line((0.22, 0.20), (0.22, 0.80)))
                .min(line((0.22, 0.80), (0.56, 0.80)));
            let shaft = line((0.40, 0.5), (0.72, 0.5));
            door.min(shaft)
                .min(triangle(p, (0.88, 0.5), (0.66, 0.32), (0.66, 0.68)))
        }
        _ => f32::INFINITY,
    }
}

/// The sides' marks and the chat's bubble.
fn mark_distance(glyph: Glyph, p: (f32, f32)) -> f32 {
    match glyph {
        Glyph::SideDisc => ((p.0 - 0.5).powi(2) + (p.1 - 0.5).powi(2)).sqrt() - 0.30,
        Glyph::SideTriangle => triangle(p, (0.5, 0.14), (0.86, 0.80), (0.14, 0.80)),
        Glyph::SideDiamond => (p.0 - 0.5).abs() + (p.1 - 0.5).abs() - 0.36,
        Glyph::Chat => {
            // A rounded box's outline, and its tail below at the left.
            let (qx, qy) = ((p.0 - 0.5).abs() - 0.22, (p.1 - 0.42).abs() - 0.12);
            let outside = (qx.max(0.0).powi(2) + qy.max(0.0).powi(2)).sqrt();
            let rounded = outside + qx.max(qy).min(0.0) - 0.08;
            let tail = triangle(p, (0.30, 0.58), (0.46, 0.58), (0.28, 0.78));
            (rounded.abs() - STROKE).min(tail)
        }
        _ => f32::INFINITY,
    }
}

/// The glyph, white with a soft edge, in a square picture `size` pixels across.
pub fn glyph(glyph: Glyph, size: f32, u: f32, v: f32) -> Pixel {
    let d = distance(glyph, (u, v)) * size;
    [1.0, 1.0, 1.0, (0.5 - d).clamp(0.0, 1.0)]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn coverage(g: Glyph) -> f32 {
        let n = 48;
        let mut sum = 0.0;
        for y in 0..n {
            for x in 0..n {
                let (u, v) = ((x as f32 + 0.5) / n as f32, (y as f32 + 0.5) / n as f32);
                sum += glyph(g, n as f32, u, v)[3];
            }
        }
        sum / (n * n) as f32
    }

    #[test]
    fn every_glyph_draws_something_and_leaves_its_corners_clear() {
        for g in Glyph::ALL {
            let c = coverage(g);
            assert!((0.04..0.5).contains(&c), "{g:?} covers {c}");
            assert_eq!(glyph(g, 48.0, 0.01, 0.01)[3], 0.0, "{g:?} corner");
        }
    }

    #[test]
    fn undo_and_redo_are_mirror_images() {
        for (u, v) in [(0.2, 0.56), (0.7, 0.4), (0.3, 0.7)] {
            assert_eq!(
                glyph(Glyph::Undo, 48.0, u, v),
                glyph(Glyph::Redo, 48.0, 1.0 - u, v)
            );
        }
    }
}
