//! Ô ăn quan: the game.

use std::path::PathBuf;

use bevy::asset::AssetMetaCheck;
use bevy::prelude::*;
use bevy::window::WindowResolution;
use clap::Parser;
use o_an_quan::ai::Level;
use o_an_quan::game::capture::CapturePlan;
use o_an_quan::game::{self, Opponent, Settings, Speed};
use o_an_quan::rules::presets;

/// Ô ăn quan, the Vietnamese game of mandarin square capturing.
#[derive(Parser)]
#[command(version, about)]
struct Options {
    /// Rule set: a preset name (2-player presets).
    #[arg(long, default_value = "standard")]
    rules: String,
    /// The computer's level: 1 to 10, or easy, medium, hard, master.
    #[arg(long, default_value = "medium")]
    level: Level,
    /// Two players on one device instead of playing the computer.
    #[arg(long)]
    two_players: bool,
    /// The computer moves first.
    #[arg(long)]
    computer_first: bool,
    /// Animation: normal, fast or off.
    #[arg(long, default_value = "normal", value_parser = ["normal", "fast", "off"])]
    speed: String,
    /// The computer plays both sides.
    #[arg(long)]
    autoplay: bool,
    /// Save a screenshot here after `--after` moves, then quit (with frame timings).
    #[arg(long)]
    screenshot: Option<PathBuf>,
    /// Moves to play before the screenshot.
    #[arg(long, default_value_t = 4)]
    after: u32,
    /// Window size, WIDTHxHEIGHT.
    #[arg(long, default_value = "1280x720")]
    size: String,
}

fn main() -> AppExit {
    let started = web_time::Instant::now();
    let options = Options::parse();
    let Some(preset) = presets::get(&options.rules).filter(|p| p.rules.players == 2) else {
        eprintln!(
            "o-an-quan: no 2-player preset {:?}; `oaq rules` lists them",
            options.rules
        );
        return AppExit::from_code(2);
    };
    let Some((width, height)) = options
        .size
        .split_once('x')
        .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
    else {
        eprintln!("o-an-quan: --size wants WIDTHxHEIGHT, like 1280x720");
        return AppExit::from_code(2);
    };
    let settings = Settings {
        rules: preset.rules,
        opponent: if options.two_players {
            Opponent::Human
        } else {
            Opponent::Computer(options.level)
        },
        human_first: !options.computer_first,
        speed: match options.speed.as_str() {
            "fast" => Speed::Fast,
            "off" => Speed::Off,
            _ => Speed::Normal,
        },
        autoplay: options.autoplay,
        autoplay_level: options.level,
        ..Settings::default()
    };
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: "Ô ăn quan".into(),
                    resolution: WindowResolution::new(width, height),
                    ..default()
                }),
                ..default()
            })
            .set(AssetPlugin {
                file_path: asset_root(),
                meta_check: AssetMetaCheck::Never,
                ..default()
            }),
    );
    app.add_plugins(bevy_tweening::TweeningPlugin);
    app.insert_resource(settings);
    if let Some(path) = options.screenshot {
        app.insert_resource(CapturePlan {
            path,
            after_moves: options.after,
            started,
        });
    }
    app.add_plugins(game::plugin);
    app.run()
}

/// `assets/` beside the sources when run by cargo, else beside the executable.
fn asset_root() -> String {
    if let Ok(root) = std::env::var("BEVY_ASSET_ROOT") {
        return format!("{root}/assets");
    }
    let from_cargo = concat!(env!("CARGO_MANIFEST_DIR"), "/assets");
    if std::path::Path::new(from_cargo).exists() {
        return from_cargo.to_owned();
    }
    "assets".to_owned()
}
