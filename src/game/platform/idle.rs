//! Idle costs nothing: between moves nothing on the board moves, so the game runs a frame only
//! when something asks for one (input, a server message through the socket's wake-up, a running
//! animation or search, a clock about to change what it shows) and otherwise sleeps, in Bevy's
//! reactive update mode. Each frame gathers `Wake`: busy asks for the next frame at once, a
//! moment sets an alarm that wakes the event loop then. (The update mode itself stays put:
//! Bevy runs a frame at once whenever it changes.)

use std::time::Duration;

use bevy::platform::time::Instant;
use bevy::prelude::*;
use bevy::window::RequestRedraw;
use bevy::winit::{UpdateMode, WinitSettings};
use bevy_tweening::TweenAnim;

use crate::game::board::art::Art;
use crate::game::play::ai_turn::{Chosen, Thinking};
use crate::game::state::{Overlay, Phase, Replay, Screen, Wake};

/// With nothing to wait for, the loop still looks round this often (a safety net, not a need:
/// every timer asks for its own frame). Long, because a frame is dear where the browser draws
/// WebGL on the CPU: one every 5 s kept a phone's page at a fifth of a core.
const IDLE_WAIT: Duration = Duration::from_secs(60);
/// Frames run after the last busy one: a change often shows a frame later (a new state, a
/// rebuilt panel laid out).
const LINGER_FRAMES: u8 = 3;

/// Frames still to run after the last busy one.
#[derive(Resource, Default)]
struct Linger(u8);

/// A call that wakes the sleeping event loop for a frame, from any thread or any of the page's
/// callbacks: what arrives outside the window's own events (a server's frame, typing in the
/// page's inputs, a file read, an alarm) asks for the frame that shows it.
pub type Waker = std::sync::Arc<dyn Fn() + Send + Sync>;

/// The app's waker; none without a window (headless apps run every frame anyway).
pub fn waker(app: &App) -> Option<Waker> {
    let proxy = app
        .world()
        .get_resource::<bevy::winit::EventLoopProxyWrapper>()?;
    let proxy = (**proxy).clone();
    Some(std::sync::Arc::new(move || {
        let _ = proxy.send_event(bevy::winit::WinitUserEvent::WakeUp);
    }))
}

/// Wakes the event loop at a moment: a thread waiting on a condition variable on desktop and
/// phones, the page's `setTimeout` in the browser. Without a window (tests) it does nothing.
struct Alarm {
    wake: Option<Waker>,
    #[cfg(not(target_arch = "wasm32"))]
    next: std::sync::Arc<(std::sync::Mutex<Option<Instant>>, std::sync::Condvar)>,
    #[cfg(target_arch = "wasm32")]
    next: Option<Instant>,
}

impl Alarm {
    fn new(wake: Option<Waker>) -> Alarm {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let next =
                std::sync::Arc::new((std::sync::Mutex::new(None), std::sync::Condvar::new()));
            if let Some(wake) = wake.clone() {
                let shared = next.clone();
                let _ = std::thread::Builder::new()
                    .name("wake-alarm".into())
                    .spawn(move || ring_at_each_moment(&shared, &*wake));
            }
            Alarm { wake, next }
        }
        #[cfg(target_arch = "wasm32")]
        Alarm { wake, next: None }
    }

    /// Wake the loop by `at` (an earlier alarm already set stands).
    fn set(&mut self, at: Instant) {
        if self.wake.is_none() {
            return;
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            let (lock, ring) = &*self.next;
            let Ok(mut next) = lock.lock() else { return };
            if next.is_none_or(|n| at < n) {
                *next = Some(at);
                ring.notify_one();
            }
        }
        #[cfg(target_arch = "wasm32")]
        {
            let now = Instant::now();
            if self.next.is_some_and(|n| n > now && n <= at) {
                return;
            }
            self.next = Some(at);
            let Some(wake) = self.wake.clone() else {
                return;
            };
            let ring = web_sys::wasm_bindgen::closure::Closure::once_into_js(move || wake());
            let ms = at.saturating_duration_since(now).as_millis() as i32;
            if let Some(window) = web_sys::window() {
                let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
                    web_sys::wasm_bindgen::JsCast::unchecked_ref(&ring),
                    ms,
                );
            }
        }
    }
}

/// The alarm's thread: sleep until the moment set, wake the loop, wait for the next.
#[cfg(not(target_arch = "wasm32"))]
fn ring_at_each_moment(
    shared: &(std::sync::Mutex<Option<Instant>>, std::sync::Condvar),
    wake: &(dyn Fn() + Send + Sync),
) {
    let (lock, ring) = shared;
    let Ok(mut next) = lock.lock() else { return };
    loop {
        match *next {
            None => match ring.wait(next) {
                Ok(guard) => next = guard,
                Err(_) => return,
            },
            Some(at) => {
                let now = Instant::now();
                if now >= at {
                    *next = None;
                    wake();
                } else {
                    match ring.wait_timeout(next, at - now) {
                        Ok((guard, _)) => next = guard,
                        Err(_) => return,
                    }
                }
            }
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Wake>().init_resource::<Linger>();
    let alarm = Alarm::new(waker(app));
    app.insert_non_send(alarm);
    // Asleep until something happens: the safety net's wait, never changed (a change of the
    // update mode makes Bevy run a frame at once).
    if let Some(mut settings) = app.world_mut().get_resource_mut::<WinitSettings>() {
        settings.focused_mode = UpdateMode::reactive(IDLE_WAIT);
        settings.unfocused_mode = UpdateMode::reactive_low_power(IDLE_WAIT);
    }
    // The window plugin registers redraw requests; without a window (tests) nobody reads them.
    app.add_message::<RequestRedraw>();
    app.add_systems(First, |mut wake: ResMut<Wake>| {
        *wake.bypass_change_detection() = Wake::default();
    });
    app.add_systems(Last, (what_the_game_needs, sleep_or_run).chain());
}

/// The board's own needs: a move shown, the computer's or the hint's search, an imported game
/// replaying, a screen or panel about to change, the art still loading.
fn what_the_game_needs(
    mut wake: ResMut<Wake>,
    phase: Res<Phase>,
    tweens: Query<(), With<TweenAnim>>,
    thinking: Query<(), With<Thinking>>,
    chosen: Res<Chosen>,
    replay: Res<Replay>,
    next_screen: Res<NextState<Screen>>,
    next_overlay: Res<NextState<Overlay>>,
    art: Res<Art>,
    assets: Res<AssetServer>,
    searches: Query<(), With<crate::game::play::hint::HintTask>>,
    capture: Option<Res<crate::game::play::capture::CapturePlan>>,
) {
    let wake = wake.bypass_change_detection();
    let loading = !assets.is_loaded_with_dependencies(&art.font)
        || !assets.is_loaded_with_dependencies(&art.bold);
    if *phase == Phase::Animating
        || !tweens.is_empty()
        || !thinking.is_empty()
        || !searches.is_empty()
        || chosen.mv.is_some()
        || !replay.0.is_empty()
        || !matches!(*next_screen, NextState::Unchanged)
        || !matches!(*next_overlay, NextState::Unchanged)
        || loading
        // Screenshots and frame timings want every frame.
        || capture.is_some()
    {
        wake.busy();
    }
}

fn sleep_or_run(
    wake: Res<Wake>,
    mut linger: ResMut<Linger>,
    mut alarm: NonSendMut<Alarm>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    if wake.busy {
        linger.0 = LINGER_FRAMES;
    }
    debug!(
        "wake: busy {} within {:?} linger {}",
        wake.busy, wake.within, linger.0
    );
    if linger.0 > 0 {
        linger.0 -= 1;
        redraw.write(RequestRedraw);
    } else if let Some(within) = wake.within {
        alarm.set(Instant::now() + within);
    }
}
