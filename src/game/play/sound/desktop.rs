//! Sound on desktops and phones: each synthesised sound becomes a small WAV that Bevy's audio
//! (rodio) plays. Without an audio device Bevy plays nothing and the game goes on.

use bevy::audio::{AudioPlugin, Volume};
use bevy::prelude::*;

use super::synth::RATE;

/// A sound ready to play.
pub type Voice = Handle<AudioSource>;

/// Whether sound can play: headless tests run without Bevy's audio.
pub fn available(app: &App) -> bool {
    app.is_plugin_added::<AudioPlugin>()
}

/// What the player needs to keep and play sounds.
pub type Player<'w> = ResMut<'w, Assets<AudioSource>>;

/// Keeps `samples` as a WAV to play.
pub fn keep(player: &mut Player, samples: Vec<f32>) -> Voice {
    player.add(AudioSource {
        bytes: wav(&samples).into(),
    })
}

/// Plays `voice` now at `volume` (0 to 1) and `speed` (1 as synthesised).
pub fn play(commands: &mut Commands, voice: &Voice, volume: f32, speed: f32) {
    commands.spawn((
        AudioPlayer::new(voice.clone()),
        PlaybackSettings::DESPAWN
            .with_volume(Volume::Linear(volume))
            .with_speed(speed),
    ));
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
    use super::super::synth;
    use super::*;

    #[test]
    fn sounds_are_valid_wav() {
        for samples in [synth::tock(1150.0, 0.01), synth::gong(196.0, 1.0)] {
            let bytes = wav(&samples);
            assert_eq!(&bytes[..4], b"RIFF");
            assert_eq!(bytes.len(), 44 + 2 * samples.len());
        }
    }
}
