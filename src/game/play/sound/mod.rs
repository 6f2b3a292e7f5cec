//! Sound: every effect is synthesised at start-up (`synth`, no files to ship or load) and played
//! at the menu's volume, by Bevy's audio on desktops and phones (`desktop`) and by the page's Web
//! Audio in the browser (`web`). A drop picks one of several pebble "tocks" at a slightly
//! different pitch and onset, so that a long sowing sounds like a hand, not a metronome.

#[cfg(not(target_arch = "wasm32"))]
mod desktop;
mod synth;
#[cfg(target_arch = "wasm32")]
mod web;

#[cfg(not(target_arch = "wasm32"))]
use desktop as output;
#[cfg(target_arch = "wasm32")]
use web as output;

use bevy::prelude::*;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use output::Voice;
use synth::{chime, gong, rattle, tock, whoosh};

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
    drops: Vec<Voice>,
    relay: Voice,
    capture: Voice,
    mandarin: Voice,
    refill: Voice,
    swap: Voice,
    win: Voice,
    lose: Voice,
    click: Voice,
    tick: Voice,
}

/// Randomness for the drops' variation (not the game's: sound never changes a move).
#[derive(Resource)]
struct Variation(SmallRng);

pub(super) fn plugin(app: &mut App) {
    // Headless tests run without Bevy's audio: then there is nothing to play.
    if !output::available(app) {
        return;
    }
    app.insert_resource(Variation(SmallRng::seed_from_u64(7)));
    app.add_systems(Startup, synthesise);
    app.add_observer(play);
    app.add_observer(game_over);
    // Every button clicks as it is pressed, whatever it does.
    app.add_observer(
        |_: On<crate::game::theme::press::Activate>, mut commands: Commands| {
            commands.trigger(Sfx::Click);
        },
    );
}

fn synthesise(mut commands: Commands, mut player: output::Player) {
    let mut add = |samples: Vec<f32>| output::keep(&mut player, samples);
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
    output::play(&mut commands, source, prefs.volume, speed);
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
