//! How the board's colours look to eyes that see colour differently: the sides and their glows
//! stay apart under simulated protanopia, deuteranopia and tritanopia, and every text keeps a
//! contrast of at least 4.5:1 (WCAG's AA) against what it stands on.

use bevy::prelude::*;

use crate::game::board::art::{INK, MAT, PLAYER_COLOURS, WOOD};
use crate::game::theme::palette::{BUTTON, PANEL};

/// A colour vision as Machado, Oliveira and Fernandes (2009) simulate it at full severity, a
/// matrix on linear RGB; `None` for typical vision.
#[derive(Debug, Clone, Copy)]
enum Vision {
    Typical,
    Protanopia,
    Deuteranopia,
    Tritanopia,
}

impl Vision {
    const ALL: [Vision; 4] = [
        Vision::Typical,
        Vision::Protanopia,
        Vision::Deuteranopia,
        Vision::Tritanopia,
    ];

    fn matrix(self) -> [[f32; 3]; 3] {
        match self {
            Vision::Typical => [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
            Vision::Protanopia => [
                [0.152_286, 1.052_583, -0.204_868],
                [0.114_503, 0.786_281, 0.099_216],
                [-0.003_882, -0.048_116, 1.051_998],
            ],
            Vision::Deuteranopia => [
                [0.367_322, 0.860_646, -0.227_968],
                [0.280_085, 0.672_501, 0.047_413],
                [-0.011_820, 0.042_940, 0.968_881],
            ],
            Vision::Tritanopia => [
                [1.255_528, -0.076_749, -0.178_779],
                [-0.078_411, 0.930_809, 0.147_602],
                [0.004_733, 0.691_367, 0.303_900],
            ],
        }
    }

    /// `colour` as this vision sees it (linear RGB, clamped to what a screen shows).
    fn see(self, colour: [f32; 3]) -> [f32; 3] {
        let m = self.matrix();
        [0, 1, 2].map(|r| {
            (m[r][0] * colour[0] + m[r][1] * colour[1] + m[r][2] * colour[2]).clamp(0.0, 1.0)
        })
    }
}

fn linear(colour: Color) -> [f32; 3] {
    let c = colour.to_linear();
    [c.red, c.green, c.blue]
}

/// `top` with its alpha over the opaque `under` (the renderer blends in linear light).
fn over(top: Color, under: [f32; 3]) -> [f32; 3] {
    let a = top.alpha();
    let t = linear(top);
    [0, 1, 2].map(|i| t[i] * a + under[i] * (1.0 - a))
}

/// CIELAB (D65) of a linear RGB colour.
fn lab(c: [f32; 3]) -> [f32; 3] {
    let x = 0.412_456 * c[0] + 0.357_576 * c[1] + 0.180_438 * c[2];
    let y = 0.212_673 * c[0] + 0.715_152 * c[1] + 0.072_175 * c[2];
    let z = 0.019_334 * c[0] + 0.119_192 * c[1] + 0.950_304 * c[2];
    let f = |t: f32| {
        if t > 216.0 / 24389.0 {
            t.cbrt()
        } else {
            (24389.0 / 27.0 * t + 16.0) / 116.0
        }
    };
    let (fx, fy, fz) = (f(x / 0.950_47), f(y), f(z / 1.088_83));
    [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
}

/// The CIE76 colour difference: about 2.3 is just noticeable, above 20 two clearly different
/// colours.
fn delta_e(a: [f32; 3], b: [f32; 3]) -> f32 {
    let (a, b) = (lab(a), lab(b));
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

/// WCAG's contrast ratio of two linear RGB colours.
fn contrast(a: [f32; 3], b: [f32; 3]) -> f32 {
    let luminance = |c: [f32; 3]| 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// How far apart the sides must stay, in every vision.
const SIDES_APART: f32 = 20.0;

#[test]
fn the_sides_stay_apart_in_every_colour_vision() {
    for vision in Vision::ALL {
        for (a, &first) in PLAYER_COLOURS.iter().enumerate() {
            for (b, &second) in PLAYER_COLOURS.iter().enumerate().skip(a + 1) {
                let (ca, cb) = (vision.see(linear(first)), vision.see(linear(second)));
                let d = delta_e(ca, cb);
                assert!(
                    d >= SIDES_APART,
                    "{vision:?}: sides {a} and {b} are only {d:.1} apart"
                );
            }
        }
    }
}

#[test]
fn the_glows_stand_out_from_the_wood_and_from_each_other_in_every_colour_vision() {
    // A lit row at its strength on the landscape board, over the wood.
    let wood = linear(WOOD);
    for vision in Vision::ALL {
        let lit: Vec<[f32; 3]> = PLAYER_COLOURS
            .iter()
            .map(|c| vision.see(over(c.with_alpha(0.7), wood)))
            .collect();
        let bare = vision.see(wood);
        for (side, glow) in lit.iter().enumerate() {
            let d = delta_e(*glow, bare);
            assert!(
                d >= 10.0,
                "{vision:?}: side {side}'s glow is {d:.1} from the wood"
            );
        }
        for a in 0..lit.len() {
            for b in a + 1..lit.len() {
                let d = delta_e(lit[a], lit[b]);
                assert!(d >= 12.0, "{vision:?}: glows {a} and {b} are {d:.1} apart");
            }
        }
    }
}

#[test]
fn every_text_has_a_contrast_of_at_least_4_5() {
    let mat = linear(MAT);
    let panel = over(PANEL, mat);
    let button = over(BUTTON, mat);
    let ink = linear(INK);
    let mut cases = vec![
        ("ink on the mat (message line, labels)", ink, mat),
        ("ink on a panel", ink, panel),
        ("ink on a button", ink, button),
        ("high contrast: white on black", [1.0; 3], [0.0; 3]),
    ];
    // The move list and the final count write each side in its colour, lightened, on a panel.
    for (side, colour) in PLAYER_COLOURS.iter().enumerate() {
        let name: &'static str = [
            "side 0 on a panel",
            "side 1 on a panel",
            "side 2 on a panel",
        ][side];
        cases.push((name, linear(colour.lighter(0.25)), panel));
    }
    for (what, text, under) in cases {
        let ratio = contrast(text, under);
        assert!(ratio >= 4.5, "{what}: {ratio:.2}:1");
    }
}

#[test]
fn the_simulation_is_the_published_one() {
    // Pure red loses its redness to a protanope and keeps little of its lightness; white
    // stays white for everyone (each row of the matrices sums to one).
    let red = Vision::Protanopia.see([1.0, 0.0, 0.0]);
    assert!(red[0] < 0.2 && red[1] > 0.1, "{red:?}");
    for vision in Vision::ALL {
        let white = vision.see([1.0; 3]);
        assert!(
            white.iter().all(|&c| (c - 1.0).abs() < 0.01),
            "{vision:?}: {white:?}"
        );
    }
    assert!(delta_e([1.0; 3], [0.0; 3]) > 99.0);
    assert!((contrast([1.0; 3], [0.0; 3]) - 21.0).abs() < 0.01);
}
