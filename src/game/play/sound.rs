//! Sound: every effect is synthesised at start-up into a small WAV (no files to ship or load),
//! and played at the menu's volume. A drop picks one of several pebble "tocks" at a slightly
//! different pitch and onset, so that a long sowing sounds like a hand, not a metronome. Without
//! an audio device Bevy plays nothing and the game goes on.

use std::f32::consts::TAU;

use bevy::audio::{AudioPlugin, Volume};
use bevy::prelude::*;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use crate::game::state::{Game, MovePlayed, Prefs};
use crate::rules::Event;

/// A sound to play now.
#[derive(Event, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sfx {
    Drop,
    Relay,
    Capture,
    Mandarin,
    Refill,
    Swap,
    Win,
    Lose,
    Click,
    /// A second gone from a clock under ten seconds.
    Tick,
}

impl Sfx {
    /// The sound of a move's event, if it has one.
    pub fn of(event: &Event) -> Option<Sfx> {
        Some(match event {
            Event::Drop { .. } => Sfx::Drop,
            Event::PickUp { .. } | Event::Relay { .. } => Sfx::Relay,
            Event::Capture { mandarin: true, .. } => Sfx::Mandarin,
            Event::Capture { .. } => Sfx::Capture,
            Event::Refill { .. } => Sfx::Refill,
            Event::Swap => Sfx::Swap,
            _ => return None,
        })
    }
}

/// The synthesised sounds.
#[derive(Resource)]
struct Sounds {
    drops: Vec<Handle<AudioSource>>,
    relay: Handle<AudioSource>,
    capture: Handle<AudioSource>,
    mandarin: Handle<AudioSource>,
    refill: Handle<AudioSource>,
    swap: Handle<AudioSource>,
    win: Handle<AudioSource>,
    lose: Handle<AudioSource>,
    click: Handle<AudioSource>,
    tick: Handle<AudioSource>,
}

/// Randomness for the drops' variation (not the game's: sound never changes a move).
#[derive(Resource)]
struct Variation(SmallRng);

const RATE: u32 = 22_050;

pub(super) fn plugin(app: &mut App) {
    // Headless tests run without Bevy's audio: then there is nothing to play.
    if !app.is_plugin_added::<AudioPlugin>() {
        return;
    }
    app.insert_resource(Variation(SmallRng::seed_from_u64(7)));
    app.add_systems(Startup, synthesise);
    app.add_observer(play);
    app.add_observer(game_over);
}

fn synthesise(mut commands: Commands, mut sources: ResMut<Assets<AudioSource>>) {
    let mut add = |samples: Vec<f32>| {
        sources.add(AudioSource {
            bytes: wav(&samples).into(),
        })
    };
    let drops = [
        (1150.0, 0.0),
        (980.0, 0.008),
        (1320.0, 0.004),
        (1060.0, 0.014),
    ]
    .into_iter()
    .map(|(pitch, onset)| add(tock(pitch, onset)))
    .collect();
    commands.insert_resource(Sounds {
        drops,
        relay: add(rattle(5, 0.14)),
        capture: add(chime(&[1318.5, 1975.5], 0.09, 0.35)),
        mandarin: add(gong(196.0, 1.1)),
        refill: add(rattle(5, 0.3)),
        swap: add(whoosh(0.45)),
        win: add(chime(&[523.3, 659.3, 784.0, 1046.5], 0.11, 0.5)),
        lose: add(chime(&[392.0, 311.1, 261.6], 0.16, 0.5)),
        click: add(tock(2200.0, 0.0)),
        tick: add(tock(3100.0, 0.0)),
    });
}

fn play(
    sfx: On<Sfx>,
    mut commands: Commands,
    prefs: Res<Prefs>,
    sounds: Option<Res<Sounds>>,
    mut variation: ResMut<Variation>,
) {
    let Some(sounds) = sounds else { return };
    if !prefs.sound || prefs.volume <= 0.0 {
        return;
    }
    let (source, speed) = match *sfx {
        Sfx::Drop => {
            let i = variation.0.random_range(0..sounds.drops.len());
            (&sounds.drops[i], variation.0.random_range(0.92..1.08))
        }
        Sfx::Relay => (&sounds.relay, variation.0.random_range(0.95..1.05)),
        Sfx::Capture => (&sounds.capture, 1.0),
        Sfx::Mandarin => (&sounds.mandarin, 1.0),
        Sfx::Refill => (&sounds.refill, 1.0),
        Sfx::Swap => (&sounds.swap, 1.0),
        Sfx::Win => (&sounds.win, 1.0),
        Sfx::Lose => (&sounds.lose, 1.0),
        Sfx::Click => (&sounds.click, 1.0),
        Sfx::Tick => (&sounds.tick, 1.0),
    };
    commands.spawn((
        AudioPlayer::new(source.clone()),
        PlaybackSettings::DESPAWN
            .with_volume(Volume::Linear(prefs.volume))
            .with_speed(speed),
    ));
}

/// Win or lose, when a human plays against the computer and the game ends.
fn game_over(played: On<MovePlayed>, mut commands: Commands, game: Res<Game>) {
    if !played
        .events
        .iter()
        .any(|e| matches!(e, Event::GameOver { .. }))
        || !game.mixed()
    {
        return;
    }
    let Some(places) = game.pos().places() else {
        return;
    };
    let best_human = (0..game.pos().players())
        .filter(|&p| game.history.player_of(p).is_human())
        .map(|p| places[p])
        .min();
    // Place 0 is first.
    commands.trigger(if best_human == Some(0) {
        Sfx::Win
    } else {
        Sfx::Lose
    });
}

/// A pebble knocking on wood: a short, fast-decaying partial pair with a noisy attack.
fn tock(pitch: f32, onset: f32) -> Vec<f32> {
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
fn rattle(count: usize, seconds: f32) -> Vec<f32> {
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
fn chime(notes: &[f32], step: f32, ring: f32) -> Vec<f32> {
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
fn gong(base: f32, seconds: f32) -> Vec<f32> {
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
fn whoosh(seconds: f32) -> Vec<f32> {
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

/// 16-bit mono PCM in a WAV container.
fn wav(samples: &[f32]) -> Vec<u8> {
    let data_len = (samples.len() * 2) as u32;
    let mut out = Vec::with_capacity(44 + data_len as usize);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1u16.to_le_bytes()); // mono
    out.extend_from_slice(&RATE.to_le_bytes());
    out.extend_from_slice(&(RATE * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    for &s in samples {
        out.extend_from_slice(&((s.clamp(-1.0, 1.0) * 32_000.0) as i16).to_le_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sounds_are_valid_wav_without_clipping_or_silence() {
        for samples in [
            tock(1150.0, 0.01),
            rattle(5, 0.14),
            chime(&[523.3, 659.3], 0.1, 0.4),
            gong(196.0, 1.0),
            whoosh(0.4),
        ] {
            let peak = samples.iter().fold(0.0f32, |m, s| m.max(s.abs()));
            assert!(peak > 0.05 && peak <= 1.0, "peak {peak}");
            let bytes = wav(&samples);
            assert_eq!(&bytes[..4], b"RIFF");
            assert_eq!(bytes.len(), 44 + 2 * samples.len());
        }
    }
}
