//! Who this device is on the server: its token, kept like the settings, the player it was
//! before another, its name and its label among the player's devices.

use bevy::prelude::*;

use super::state::{Identity, OnlineWrite};
use crate::game::online::follow::{GoBack, Previous};
use crate::game::online::link::Link;
use crate::game::state::Files;
use crate::net::protocol::PlayerInfo;
use crate::session::ONLINE_TOKEN;

/// What this device is called in the player's list of devices.
pub fn device_label() -> String {
    #[cfg(target_arch = "wasm32")]
    {
        let agent = web_sys::window()
            .and_then(|w| w.navigator().user_agent().ok())
            .unwrap_or_default();
        let browser = ["Edg", "Firefox", "Chrome", "Safari"]
            .into_iter()
            .find(|b| agent.contains(b))
            .map_or("Browser", |b| if b == "Edg" { "Edge" } else { b });
        let system = ["Android", "iPhone", "iPad", "Windows", "Mac OS", "Linux"]
            .into_iter()
            .find(|s| agent.contains(s))
            .unwrap_or("web");
        format!("{browser} ({system})")
    }
    #[cfg(not(target_arch = "wasm32"))]
    format!("Ô ăn quan ({})", std::env::consts::OS)
}

/// The name sent to the server: the settings' one, or "Player" (in the game's language) until
/// one is chosen.
pub fn display_name(name: &str, lang: crate::session::Lang) -> String {
    let name = name.trim();
    if name.is_empty() {
        lang.tr("online.default_name").to_owned()
    } else {
        name.chars().take(crate::net::protocol::MAX_NAME).collect()
    }
}

/// We became another player on a live connection: the one we were is kept, to go back to.
pub(super) fn keep_previous(
    identity: &mut Identity,
    token: Option<&str>,
    files: Option<&Files>,
    now: &PlayerInfo,
) {
    let (Some(was), Some(token)) = (identity.me.as_ref(), token) else {
        return;
    };
    if was.id == now.id {
        return;
    }
    let previous = Previous {
        token: token.to_owned(),
        name: was.name.clone(),
    };
    previous.keep(files);
    identity.previous = Some(previous);
}

/// Back to the player this device was: their token, and a new connection with it.
pub(super) fn go_back(
    _: On<GoBack>,
    mut online: OnlineWrite,
    mut link: ResMut<Link>,
    files: Option<Res<Files>>,
) {
    let Some(previous) = online.identity.previous.take() else {
        return;
    };
    Previous::forget(files.as_deref());
    keep_token(files.as_deref(), &previous.token);
    online.connection.token = Some(previous.token);
    // Not welcomed until the server says who we are: that welcome is not a switch to keep.
    online.identity.me = None;
    online.in_room.room = None;
    link.retry_now();
}

/// The token where the settings are kept.
pub(super) fn keep_token(files: Option<&Files>, token: &str) {
    if let Some(files) = files
        && let Err(e) = files.config.write(ONLINE_TOKEN, token)
    {
        warn!("online: the identity could not be kept ({e}): the next start is a new player");
    }
}

/// The token kept by an earlier run.
pub fn kept_token(files: Option<&Files>) -> Option<String> {
    let text = files?.config.read(ONLINE_TOKEN).ok()??;
    let token = text.trim();
    (!token.is_empty() && token.len() <= 128).then(|| token.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::online::follow::tests::player;

    #[test]
    fn a_switch_keeps_who_we_were_and_a_welcome_back_does_not() {
        let mut identity = Identity {
            me: Some(player("a")),
            ..Identity::default()
        };
        keep_previous(&mut identity, Some("old-token"), None, &player("a"));
        assert_eq!(identity.previous, None, "the same player");
        keep_previous(&mut identity, Some("old-token"), None, &player("b"));
        assert_eq!(
            identity.previous,
            Some(Previous {
                token: "old-token".into(),
                name: "An".into()
            })
        );
    }
}
