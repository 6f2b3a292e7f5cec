//! Starting the game on any platform: Bevy's plugins, the window, the player's settings and
//! where files are kept. The desktop binary fills this from its command line; phones start it
//! from `mobile_main` with the saved settings.

use bevy::asset::AssetMetaCheck;
use bevy::prelude::*;

use super::pipeline::Core2dPipeline;
use super::state::{Files, Launch, Message, Note, Prefs};
use crate::session::{Settings, Storage};

/// What a run of the game starts from.
pub struct Start {
    pub settings: Settings,
    pub launch: Launch,
    pub files: Option<Files>,
    /// Something to tell the player at once (a settings file that could not be read).
    pub warning: Option<Note>,
    pub window: Window,
    /// Where the `assets` folder is, for Bevy's asset server.
    pub asset_root: String,
}

impl Start {
    /// The platform's storage, the saved settings (or the first-start ones) and a default window.
    pub fn from_storage() -> Start {
        let files = Storage::config()
            .zip(Storage::data())
            .map(|(config, data)| Files { config, data });
        let (settings, warning) = match &files {
            Some(files) => super::platform::persist::load_settings(&files.config),
            None => (Settings::first_start(), None),
        };
        Start {
            settings,
            launch: Launch::default(),
            files,
            warning,
            window: Window {
                title: "Ô ăn quan".into(),
                // On the web: the page's canvas, following the page's size.
                canvas: Some("#game".into()),
                fit_canvas_to_parent: true,
                ..default()
            },
            asset_root: "assets".to_owned(),
        }
    }
}

/// The whole game as a Bevy app, ready to run.
pub fn app(start: Start) -> App {
    let mut app = App::new();
    let plugins = DefaultPlugins
        .set(WindowPlugin {
            primary_window: Some(start.window),
            ..default()
        })
        .set(AssetPlugin {
            file_path: start.asset_root,
            // Every asset would cost a 404 for its `.meta` file on the web.
            meta_check: AssetMetaCheck::Never,
            ..default()
        })
        // The core pipeline's 2D half: the game draws nothing in 3D (`pipeline.rs`).
        .add_after::<bevy::core_pipeline::CorePipelinePlugin>(Core2dPipeline)
        .disable::<bevy::core_pipeline::CorePipelinePlugin>();
    #[cfg(target_arch = "wasm32")]
    let plugins = {
        browser_console();
        plugins.disable::<bevy::log::LogPlugin>()
    };
    app.add_plugins(plugins);
    super::trace::mark("bevy-plugins-added");
    app.add_plugins(bevy_tweening::TweeningPlugin);
    app.insert_resource(Prefs(start.settings));
    app.insert_resource(start.launch);
    if let Some(files) = start.files {
        app.insert_resource(files);
    }
    app.add_plugins(super::plugin);
    if let Some(note) = start.warning {
        app.world_mut().resource_mut::<Message>().set(note);
    }
    app
}

/// The entry point of the Android and iOS builds.
#[cfg(any(target_os = "android", target_os = "ios"))]
#[bevy::prelude::bevy_main]
fn main() {
    let mut start = Start::from_storage();
    start.window.canvas = None;
    app(start).run();
}

/// The symbol the iOS app's Objective-C `main` calls.
#[cfg(target_os = "ios")]
#[unsafe(no_mangle)]
pub extern "C" fn main_rs() {
    main();
}

/// In the browser: warnings and errors (the web build compiles out the other levels) to the
/// page's console, from `tracing` and from `log` (wgpu), and panics with their message. Bevy's
/// log plugin would do the same through a filter-directive parser (a regular-expression
/// engine) that the page has no use for, and that the download would carry.
#[cfg(target_arch = "wasm32")]
fn browser_console() {
    console_error_panic_hook::set_once();
    let _ = tracing_wasm::try_set_as_global_default();
    let _ = tracing_log::LogTracer::init();
}
