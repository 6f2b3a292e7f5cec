//! Sound in the browser, through the page's own Web Audio: each synthesised sound is kept as
//! its samples and becomes an `AudioBuffer` the first time it plays, in one `AudioContext` made
//! then (browsers let a page make sound once the player has touched it, which every sound here
//! follows). Bevy's audio (rodio, cpal and the WAV decoder) stays out of the download. A
//! browser that refuses any of it plays nothing and the game goes on.

use std::cell::RefCell;

use bevy::prelude::*;
use web_sys::{AudioBuffer, AudioContext, AudioContextState};

use super::synth::RATE;

/// A sound ready to play: its place among the kept ones.
pub type Voice = usize;

/// Sound can always be tried in a browser.
pub fn available(_: &App) -> bool {
    true
}

/// Nothing to hold in the world: the page's audio lives in [`AUDIO`].
pub type Player<'w> = Local<'w, ()>;

/// The page's audio: the context once made, and every sound's samples and buffer.
#[derive(Default)]
struct Audio {
    context: Option<AudioContext>,
    sounds: Vec<(Vec<f32>, Option<AudioBuffer>)>,
    warned: bool,
    /// Sounds started.
    played: u64,
}

thread_local! {
    // The browser's objects belong to the page's one thread.
    static AUDIO: RefCell<Audio> = RefCell::default();
}

/// Keeps `samples` as a sound to play.
pub fn keep(_: &mut Player, samples: Vec<f32>) -> Voice {
    AUDIO.with_borrow_mut(|audio| {
        audio.sounds.push((samples, None));
        audio.sounds.len() - 1
    })
}

/// Plays `voice` now at `volume` (0 to 1) and `speed` (1 as synthesised).
pub fn play(_: &mut Commands, voice: &Voice, volume: f32, speed: f32) {
    AUDIO.with_borrow_mut(|audio| {
        if let Err(e) = audio.play(*voice, volume, speed)
            && !audio.warned
        {
            // Once is enough to know why: a page without sound goes on.
            warn!("no sound: {e:?}");
            audio.warned = true;
        }
    });
}

impl Audio {
    fn play(&mut self, voice: Voice, volume: f32, speed: f32) -> Result<(), wasm_bindgen::JsValue> {
        let context = match self.context.take() {
            Some(context) => context,
            None => AudioContext::new()?,
        };
        let context = self.context.insert(context);
        // Made suspended when the page has not been touched yet; a later sound wakes it.
        let _ = context.resume();
        let Some((samples, buffer)) = self.sounds.get_mut(voice) else {
            return Ok(());
        };
        if buffer.is_none() {
            let made = context.create_buffer(1, samples.len().max(1) as u32, RATE as f32)?;
            made.copy_to_channel(samples, 0)?;
            *buffer = Some(made);
        }
        let source = context.create_buffer_source()?;
        source.set_buffer(buffer.as_ref());
        source.playback_rate().set_value(speed);
        let gain = context.create_gain()?;
        gain.gain().set_value(volume);
        source.connect_with_audio_node(&gain)?;
        gain.connect_with_audio_node(&context.destination())?;
        source.start()?;
        self.played += 1;
        publish(context, self.played);
        Ok(())
    }
}

/// `data-sound` on the game's canvas: the page's audio (`running`, or `suspended` until the
/// player touches the page) and how many sounds it has started, for the browser tests.
fn publish(context: &AudioContext, played: u64) {
    let state = match context.state() {
        AudioContextState::Running => "running",
        AudioContextState::Suspended => "suspended",
        _ => "closed",
    };
    let canvas = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("game"));
    if let Some(canvas) = canvas {
        let _ = canvas.set_attribute("data-sound", &format!("{state}:{played}"));
    }
}
