//! This device's notifications. In the browser: the page's `oaqPush` (in `index.html`) asks the
//! browser's permission and subscribes its push manager with the server's key; the game waits
//! for the answer and gives the subscription (with the game's language, which the server
//! writes its messages in) to the server. The page's service worker shows what arrives. Outside
//! the browser, the game's window asks for attention when news comes while it is in the
//! background.

use bevy::prelude::*;

#[cfg(target_arch = "wasm32")]
use super::client::Ask;
use crate::game::state::Prefs;

/// Where this device stands.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub enum PushDevice {
    #[default]
    Idle,
    /// The browser is asking the player, or subscribing.
    Asking,
    Subscribed,
    Failed(String),
    /// No push here (no service worker or push manager, not a secure page, not a browser).
    Unsupported,
}

/// Ask the browser to notify this device, with the server's key.
#[derive(Event, Clone, Debug)]
pub struct Subscribe(pub String);

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(if supported() {
        PushDevice::Idle
    } else {
        PushDevice::Unsupported
    });
    app.add_observer(subscribe);
    app.add_systems(Update, (wait_for_browser, attention));
}

#[cfg(target_arch = "wasm32")]
fn push_object() -> Option<web_sys::wasm_bindgen::JsValue> {
    use web_sys::js_sys::Reflect;
    let window = web_sys::window()?;
    Reflect::get(&window, &"oaqPush".into())
        .ok()
        .filter(|v| v.is_object())
}

fn supported() -> bool {
    #[cfg(target_arch = "wasm32")]
    {
        use web_sys::js_sys::{Function, Reflect};
        use web_sys::wasm_bindgen::JsCast;
        let Some(push) = push_object() else {
            return false;
        };
        Reflect::get(&push, &"supported".into())
            .ok()
            .and_then(|f| f.dyn_into::<Function>().ok())
            .and_then(|f| f.call0(&push).ok())
            .is_some_and(|v| v.as_bool() == Some(true))
    }
    #[cfg(not(target_arch = "wasm32"))]
    false
}

fn subscribe(ask: On<Subscribe>, mut device: ResMut<PushDevice>) {
    #[cfg(target_arch = "wasm32")]
    {
        use web_sys::js_sys::{Function, Reflect};
        use web_sys::wasm_bindgen::JsCast;
        let called = push_object().and_then(|push| {
            let f = Reflect::get(&push, &"subscribe".into()).ok()?;
            let f = f.dyn_into::<Function>().ok()?;
            f.call1(&push, &ask.0.clone().into()).ok()
        });
        *device = match called {
            Some(_) => PushDevice::Asking,
            None => PushDevice::Unsupported,
        };
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = &ask;
        *device = PushDevice::Unsupported;
    }
}

/// While the browser is asked: its answer, once there, goes to the server.
fn wait_for_browser(
    mut commands: Commands,
    mut device: ResMut<PushDevice>,
    prefs: Res<Prefs>,
    mut wake: ResMut<crate::game::state::Wake>,
) {
    if *device != PushDevice::Asking {
        return;
    }
    wake.bypass_change_detection()
        .within(std::time::Duration::from_millis(200));
    #[cfg(target_arch = "wasm32")]
    {
        use web_sys::js_sys::Reflect;
        let Some(state) = push_object().and_then(|p| Reflect::get(&p, &"state".into()).ok()) else {
            return;
        };
        let field = |name: &str| {
            Reflect::get(&state, &name.into())
                .ok()
                .and_then(|v| v.as_string())
                .unwrap_or_default()
        };
        match field("status").as_str() {
            "ok" => {
                let subscription = crate::net::notify::PushSubscription {
                    endpoint: field("endpoint"),
                    p256dh: field("p256dh"),
                    auth: field("auth"),
                    lang: prefs.lang(),
                };
                commands.trigger(Ask::Say(
                    crate::net::protocol::ClientMessage::PushSubscribe { subscription },
                ));
                *device = PushDevice::Subscribed;
            }
            "error" => *device = PushDevice::Failed(field("error")),
            _ => {}
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = (&mut commands, &prefs);
        *device = PushDevice::Unsupported;
    }
}

/// News while the window is in the background (our move, a challenge): the window asks for
/// the player's attention (a blinking task bar entry, a bouncing dock icon).
fn attention(
    people: Res<super::social::People>,
    mut last: Local<Option<super::social::News>>,
    windows: Query<(Entity, &Window)>,
) {
    if !people.is_changed() || people.news == *last {
        return;
    }
    *last = people.news.clone();
    let worth = matches!(
        people.news,
        Some(super::social::News::YourTurn(_) | super::social::News::Challenged(_))
    );
    if !worth {
        return;
    }
    for (entity, window) in &windows {
        if !window.focused {
            request_attention(entity);
        }
    }
}

/// The platform's own request (winit's): a blink or a bounce, until the window is focused.
#[cfg(not(any(target_arch = "wasm32", target_os = "android", target_os = "ios")))]
fn request_attention(entity: Entity) {
    bevy::winit::WINIT_WINDOWS.with_borrow(|windows| {
        if let Some(window) = windows.get_window(entity) {
            window.request_user_attention(Some(winit::window::UserAttentionType::Informational));
        }
    });
}

/// A browser tab or a phone app is told by its push notifications instead.
#[cfg(any(target_arch = "wasm32", target_os = "android", target_os = "ios"))]
fn request_attention(_: Entity) {}
