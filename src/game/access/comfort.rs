//! Settings for eyes and hands: the text size (the whole interface scaled, up to 200 %), high
//! contrast for the words on the board, reduced motion (asked of the operating system or the
//! browser at start-up, changeable in the menu) and large buttons.

use bevy::prelude::*;

use crate::game::state::{BoardLabel, GameSet, Motion, Prefs, TextScale};

pub(in crate::game) fn plugin(app: &mut App) {
    let system_reduced = system_asks_for_reduced_motion();
    let reduced = app
        .world()
        .get_resource::<Prefs>()
        .and_then(|p| p.reduce_motion)
        .unwrap_or(system_reduced);
    app.init_resource::<UiScale>().init_resource::<TextScale>();
    app.insert_resource(Motion {
        system_reduced,
        reduced,
    });
    app.add_systems(
        Update,
        (follow_settings, contrast_labels).in_set(GameSet::Show),
    );
}

/// The text size, the motion and the contrast as the settings now say.
fn follow_settings(
    prefs: Res<Prefs>,
    mut motion: ResMut<Motion>,
    mut ui_scale: ResMut<UiScale>,
    mut text_scale: ResMut<TextScale>,
) {
    if !prefs.is_changed() {
        return;
    }
    let reduced = prefs.reduce_motion.unwrap_or(motion.system_reduced);
    if motion.reduced != reduced {
        motion.reduced = reduced;
    }
    let scale = f32::from(prefs.text_size) / 100.0;
    if ui_scale.0 != scale {
        ui_scale.0 = scale;
    }
    text_scale.set_if_neq(TextScale(scale));
}

/// With high contrast every word on the board stands on black.
fn contrast_labels(
    mut commands: Commands,
    prefs: Res<Prefs>,
    labels: Query<(Entity, Has<TextBackgroundColor>), With<BoardLabel>>,
    added: Query<(), Added<BoardLabel>>,
) {
    if !prefs.is_changed() && added.is_empty() {
        return;
    }
    for (entity, backed) in &labels {
        match (prefs.high_contrast, backed) {
            (true, false) => {
                commands.entity(entity).try_insert(TextBackgroundColor(
                    crate::game::theme::palette::TEXT_BACKING,
                ));
            }
            (false, true) => {
                commands.entity(entity).try_remove::<TextBackgroundColor>();
            }
            _ => {}
        }
    }
}

/// Whether the system asks for less motion: the browser's `prefers-reduced-motion`; on a
/// desktop, GNOME's "enable animations" switch (Linux) or the "reduce motion" setting (macOS).
fn system_asks_for_reduced_motion() -> bool {
    #[cfg(target_arch = "wasm32")]
    {
        web_sys::window()
            .and_then(|w| {
                w.match_media("(prefers-reduced-motion: reduce)")
                    .ok()
                    .flatten()
            })
            .is_some_and(|query| query.matches())
    }
    #[cfg(all(target_os = "linux", not(target_arch = "wasm32")))]
    {
        // A test or a headless run must not wait on a desktop that is not there.
        if std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_none() {
            return false;
        }
        read_setting(
            "gsettings",
            &["get", "org.gnome.desktop.interface", "enable-animations"],
        )
        .is_some_and(|answer| answer.trim() == "false")
    }
    #[cfg(target_os = "macos")]
    {
        read_setting(
            "defaults",
            &["read", "com.apple.universalaccess", "reduceMotion"],
        )
        .is_some_and(|answer| answer.trim() == "1")
    }
    #[cfg(not(any(target_arch = "wasm32", target_os = "linux", target_os = "macos")))]
    {
        false
    }
}

/// A settings tool's answer, if it runs and answers.
#[cfg(all(
    not(target_arch = "wasm32"),
    any(target_os = "linux", target_os = "macos")
))]
fn read_setting(tool: &str, args: &[&str]) -> Option<String> {
    let out = std::process::Command::new(tool)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}
