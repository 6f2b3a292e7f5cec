//! The game's sounds, synthesised: samples at [`RATE`] for a pebble's knock, stones scooped up,
//! bells, a gong and a whoosh. No files to ship or load.

use std::f32::consts::TAU;

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

/// Samples a second.
pub const RATE: u32 = 22_050;

/// A pebble knocking on wood: a short, fast-decaying partial pair with a noisy attack.
pub fn tock(pitch: f32, onset: f32) -> Vec<f32> {
    let mut noise = SmallRng::seed_from_u64(pitch as u64);
    let silent = (onset * RATE as f32) as usize;
    let length = (0.07 * RATE as f32) as usize;
    let mut samples = vec![0.0; silent];
    samples.extend((0..length).map(|i| {
        let t = i as f32 / RATE as f32;
        let body = (TAU * pitch * t).sin() + 0.5 * (TAU * pitch * 2.7 * t).sin();
        let click = noise.random_range(-1.0..1.0) * (-t * 900.0).exp();
        0.5 * (body * (-t * 70.0).exp() + click)
    }));
    samples
}

/// `count` small knocks spread over `seconds`: stones scooped up or put back.
pub fn rattle(count: usize, seconds: f32) -> Vec<f32> {
    let mut samples = vec![0.0; (seconds * RATE as f32) as usize + RATE as usize / 10];
    for k in 0..count {
        let start = (k as f32 / count as f32 * seconds * RATE as f32) as usize;
        let knock = tock(1400.0 + 170.0 * k as f32, 0.0);
        for (i, s) in knock.into_iter().enumerate() {
            if let Some(out) = samples.get_mut(start + i) {
                *out += 0.6 * s;
            }
        }
    }
    samples
}

/// Bell-like notes one after another, each ringing on.
pub fn chime(notes: &[f32], step: f32, ring: f32) -> Vec<f32> {
    let total = step * notes.len() as f32 + ring;
    let length = (total * RATE as f32) as usize;
    (0..length)
        .map(|i| {
            let t = i as f32 / RATE as f32;
            let mut v = 0.0;
            for (k, &f) in notes.iter().enumerate() {
                let local = t - k as f32 * step;
                if local >= 0.0 {
                    let env = (-local * 6.0).exp() * (local * 400.0).min(1.0);
                    v += env * ((TAU * f * local).sin() + 0.3 * (TAU * 2.0 * f * local).sin());
                }
            }
            0.3 * v
        })
        .collect()
}

/// A low, slowly fading gong with inharmonic partials: the mandarin taken.
pub fn gong(base: f32, seconds: f32) -> Vec<f32> {
    let length = (seconds * RATE as f32) as usize;
    (0..length)
        .map(|i| {
            let t = i as f32 / RATE as f32;
            let partials = [(1.0, 1.0), (2.76, 0.5), (5.4, 0.25), (8.9, 0.12)];
            let v: f32 = partials
                .iter()
                .map(|&(ratio, gain)| {
                    gain * (TAU * base * ratio * t).sin() * (-t * 2.5 * ratio).exp()
                })
                .sum();
            0.45 * v * (t * 300.0).min(1.0)
        })
        .collect()
}

/// Filtered noise that swells and fades: the board turned round.
pub fn whoosh(seconds: f32) -> Vec<f32> {
    let mut noise = SmallRng::seed_from_u64(3);
    let length = (seconds * RATE as f32) as usize;
    let mut low = 0.0;
    (0..length)
        .map(|i| {
            let x = i as f32 / length as f32;
            // A one-pole low-pass whose opening follows the swell.
            let open = 0.05 + 0.25 * (std::f32::consts::PI * x).sin();
            low += open * (noise.random_range(-1.0..1.0) - low);
            0.8 * low * (std::f32::consts::PI * x).sin()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sounds_are_neither_clipped_nor_silent() {
        for samples in [
            tock(1150.0, 0.01),
            rattle(5, 0.14),
            chime(&[523.3, 659.3], 0.1, 0.4),
            gong(196.0, 1.0),
            whoosh(0.4),
        ] {
            let peak = samples.iter().fold(0.0f32, |m, s| m.max(s.abs()));
            assert!(peak > 0.05 && peak <= 1.0, "peak {peak}");
        }
    }
}
