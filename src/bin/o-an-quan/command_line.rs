//! The game's command line (desktop): options that override the saved settings, screenshots,
//! and starting straight into online play.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::window::WindowResolution;
use clap::{Parser, ValueEnum};
use o_an_quan::ai::Level;
use o_an_quan::game::capture::{CapturePlan, Moment};
use o_an_quan::game::online::client::Ask;
use o_an_quan::game::persist::{self, Import};
use o_an_quan::game::start::Start;
use o_an_quan::game::{self, Launch, Overlay, Screen};
use o_an_quan::rules::presets;
use o_an_quan::session::{Lang, Mode, Settings, Speed, TimeControl};

/// Ô ăn quan, the Vietnamese game of mandarin square capturing. Every option below overrides
/// the saved settings (and is saved with them).
#[derive(Parser)]
#[command(version, about)]
struct Options {
    /// Rule set: a preset name (`oaq rules` lists them).
    #[arg(long)]
    rules: Option<String>,
    /// The computer's level: 1 to 10, or easy, medium, hard, master.
    #[arg(long)]
    level: Option<Level>,
    /// Who plays.
    #[arg(long, value_enum)]
    mode: Option<ModeArg>,
    /// The computer moves first.
    #[arg(long)]
    computer_first: bool,
    /// Animation.
    #[arg(long, value_enum)]
    speed: Option<SpeedArg>,
    /// Clock of games on this device: MINUTES+SECONDS a move (like 5+3), or `untimed`.
    #[arg(long, value_parser = parse_clock)]
    clock: Option<ClockArg>,
    /// Language of the game.
    #[arg(long, value_enum)]
    lang: Option<LangArg>,
    /// The computer plays every side (not saved).
    #[arg(long)]
    autoplay: bool,
    /// Go straight to the board, without the title screen.
    #[arg(long)]
    skip_title: bool,
    /// Go straight back to the saved game, if there is one.
    #[arg(long)]
    resume: bool,
    /// Import this game (a RON file exported from the menu) and replay it.
    #[arg(long)]
    import: Option<PathBuf>,
    /// Save a screenshot here after `--after` moves, then quit (with frame timings).
    #[arg(long)]
    screenshot: Option<PathBuf>,
    /// Moves to play before the screenshot.
    #[arg(long, default_value_t = 4)]
    after: u32,
    /// Open this panel just before the screenshot.
    #[arg(long, value_enum)]
    panel: Option<PanelArg>,
    /// The online server, ws://HOST:PORT/ws or wss://… (saved with the settings).
    #[arg(long)]
    server: Option<String>,
    /// Open the online screen.
    #[arg(long)]
    online: bool,
    /// Online: open a page of people (friends, your profile, your account and devices), Play
    /// now or My games.
    #[arg(long, value_enum)]
    people: Option<PeopleArg>,
    /// Online: open a room with the online screen's choices (its code is logged).
    #[arg(long)]
    create: bool,
    /// Online: open the sheet of a room's own choices (rules, time, first move, public).
    #[arg(long)]
    choose_rules: bool,
    /// Online: join the room with this code.
    #[arg(long, value_name = "CODE")]
    join: Option<String>,
    /// Online: watch the room with this code.
    #[arg(long, value_name = "CODE")]
    watch: Option<String>,
    /// Online: do what a link's address asks, as the web build does with its page's
    /// (`?room=CODE`, `?friend=CODE`, `?link=CODE`; the last two ask the player first).
    #[arg(long, value_name = "ADDRESS")]
    open_link: Option<String>,
    /// With --screenshot: shoot this many seconds after the start instead of after moves.
    #[arg(long, value_name = "SECS")]
    shot_after: Option<f32>,
    /// With `--panel review`: the review opens after this many moves, not at the end.
    #[arg(long, value_name = "MOVES")]
    review_at: Option<usize>,
    /// With --screenshot: shoot in the middle of the move after `--after` moves.
    #[arg(long, value_enum)]
    moment: Option<MomentArg>,
    /// Show the keyboard's focus ring from the start, as after a Tab.
    #[arg(long)]
    focus_ring: bool,
    /// Window size, WIDTHxHEIGHT.
    #[arg(long, default_value = "1280x720")]
    size: String,
}

#[derive(Clone, Copy, ValueEnum)]
enum ModeArg {
    Computer,
    TwoPlayers,
    ThreeWithComputers,
    ThreePlayers,
}

#[derive(Clone, Copy, ValueEnum)]
enum SpeedArg {
    Normal,
    Fast,
    Off,
}

#[derive(Clone, Copy, ValueEnum)]
enum MomentArg {
    /// Stones in the hand.
    MidMove,
    /// A captured pit glowing.
    Capture,
    /// The computer thinking.
    Thinking,
}

#[derive(Clone, Copy, ValueEnum)]
enum LangArg {
    En,
    Vi,
}

#[derive(Clone, Copy, ValueEnum)]
enum PeopleArg {
    Friends,
    Profile,
    Account,
    /// "Play now": quick pairing.
    PlayNow,
    /// "My games": the games by days.
    Games,
    /// What we are notified of.
    Notifications,
}

#[derive(Clone, Copy, ValueEnum)]
enum PanelArg {
    Menu,
    Help,
    Flip,
    /// The accessibility settings.
    Access,
    /// The review of the game played so far.
    Review,
    /// The puzzles screen.
    Puzzles,
    /// The puzzles' dashboard over the first puzzle.
    PuzzleDashboard,
    /// Today's daily puzzle.
    PuzzleDaily,
    /// A Streak, at its first puzzle.
    PuzzleStreak,
    /// A Storm, at its first puzzle.
    PuzzleStorm,
    /// The player's own mistakes due today, on the puzzles screen.
    Practice,
    /// The rules lesson, in the middle of its first example.
    Lesson,
}

pub fn run() -> AppExit {
    let started = web_time::Instant::now();
    let mut options = Options::parse();
    let Some((width, height)) = options
        .size
        .split_once('x')
        .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
    else {
        eprintln!("o-an-quan: --size wants WIDTHxHEIGHT, like 1280x720");
        return AppExit::from_code(2);
    };
    let mut start = Start::from_storage();
    if let Err(why) = apply_settings(&mut options, &mut start.settings) {
        eprintln!("o-an-quan: {why}");
        return AppExit::from_code(2);
    }
    let settings = &start.settings;
    start.launch = Launch {
        autoplay: options
            .autoplay
            .then(|| Level::get(settings.level).unwrap_or_else(Level::medium)),
        skip_title: options.skip_title || options.autoplay,
        resume: options.resume,
        ..Launch::default()
    };
    start.window.resolution = WindowResolution::new(width, height);
    start.asset_root = asset_root();
    let mut app = game::start::app(start);
    if options.focus_ring {
        app.insert_resource(bevy::input_focus::InputFocusVisible(true));
    }
    if let Some(at) = options.review_at {
        app.insert_resource(o_an_quan::game::review::ReviewAt(at));
    }
    if let Some(start) = options.panel.and_then(puzzle_start) {
        app.insert_resource(o_an_quan::game::puzzles::StartWith(start));
    }
    if let Some(plan) = capture_plan(&mut options, started) {
        app.insert_resource(plan);
    }
    start_online(&mut app, &mut options);
    if let Some(path) = options.import.take() {
        let import: Import = persist::read_import(&path);
        // After start-up's new game, which would otherwise end the replay before it begins.
        app.add_systems(PostStartup, move |mut commands: Commands| {
            commands.trigger(import.clone());
        });
    }
    app.run()
}

/// The settings the flags change (mode, rules, level, server, first move, clock, speed,
/// language), or why a flag's value cannot be used.
fn apply_settings(options: &mut Options, settings: &mut Settings) -> Result<(), String> {
    if let Some(mode) = options.mode {
        settings.set_mode(match mode {
            ModeArg::Computer => Mode::Computer,
            ModeArg::TwoPlayers => Mode::TwoPlayers,
            ModeArg::ThreeWithComputers => Mode::ThreeWithComputers,
            ModeArg::ThreePlayers => Mode::ThreePlayers,
        });
    }
    if let Some(id) = &options.rules {
        match presets::get(id) {
            Some(preset) if preset.rules.players == settings.mode.players() => {
                settings.preset = preset.id.clone();
            }
            _ => {
                return Err(format!(
                    "no {}-player rule set {id:?}; `oaq rules` lists them",
                    settings.mode.players()
                ));
            }
        }
    }
    if let Some(level) = options.level {
        settings.level = level.level;
    }
    if let Some(server) = options.server.take() {
        if !(server.starts_with("ws://") || server.starts_with("wss://")) {
            return Err(
                "--server wants a ws:// or wss:// address, like ws://127.0.0.1:8080/ws".to_owned(),
            );
        }
        settings.server = server;
    }
    if options.computer_first {
        settings.human_first = false;
    }
    if let Some(ClockArg(clock)) = options.clock {
        settings.clock = clock;
    }
    if let Some(speed) = options.speed {
        settings.speed = match speed {
            SpeedArg::Normal => Speed::Normal,
            SpeedArg::Fast => Speed::Fast,
            SpeedArg::Off => Speed::Off,
        };
    }
    if let Some(lang) = options.lang {
        settings.language = match lang {
            LangArg::En => Lang::En,
            LangArg::Vi => Lang::Vi,
        };
    }
    Ok(())
}

/// What the Puzzles screen starts with for a `--panel` of it: a way to play or the dashboard.
fn puzzle_start(panel: PanelArg) -> Option<o_an_quan::game::puzzles::PuzzleAction> {
    use o_an_quan::game::puzzles::PuzzleAction;
    match panel {
        PanelArg::PuzzleDashboard => Some(PuzzleAction::Menu),
        PanelArg::PuzzleDaily => Some(PuzzleAction::Daily),
        PanelArg::PuzzleStreak => Some(PuzzleAction::Streak),
        PanelArg::PuzzleStorm => Some(PuzzleAction::Storm),
        PanelArg::Practice => Some(PuzzleAction::Practice),
        _ => None,
    }
}

/// `--screenshot`'s plan: when to shoot, and what to open first.
fn capture_plan(options: &mut Options, started: web_time::Instant) -> Option<CapturePlan> {
    let path = options.screenshot.take()?;
    Some(CapturePlan {
        path,
        after_moves: options.after,
        after_secs: options.shot_after,
        moment: options.moment.map(|m| match m {
            MomentArg::MidMove => Moment::MidMove,
            MomentArg::Capture => Moment::Capture,
            MomentArg::Thinking => Moment::Thinking,
        }),
        panel: options.panel.and_then(|p| match p {
            PanelArg::Menu => Some(Overlay::Menu),
            PanelArg::Help => Some(Overlay::Help),
            PanelArg::Flip => Some(Overlay::Flip),
            PanelArg::Access => Some(Overlay::Access),
            _ => None,
        }),
        screen: options.panel.and_then(|p| match p {
            PanelArg::Review => Some(Screen::Review),
            PanelArg::Lesson => Some(Screen::Lesson),
            PanelArg::Puzzles | PanelArg::PuzzleDashboard | PanelArg::PuzzleDaily => {
                Some(Screen::Puzzles)
            }
            PanelArg::PuzzleStreak | PanelArg::PuzzleStorm | PanelArg::Practice => {
                Some(Screen::Puzzles)
            }
            _ => None,
        }),
        started,
    })
}

/// The online flags: the online screen, a room to create, join or watch, a page of people, a
/// link's address, done once the app has started.
fn start_online(app: &mut App, options: &mut Options) {
    let ask = if options.create {
        let form = o_an_quan::game::online::form::Form::default();
        Some(Ask::Create {
            preset: form.preset.clone(),
            majority: form.majority,
            clock: form.clock_spec(),
            first: form.first,
            public: form.public,
        })
    } else if let Some(code) = options.join.take() {
        Some(Ask::Join(code.to_uppercase()))
    } else {
        options
            .watch
            .take()
            .map(|code| Ask::Watch(code.to_uppercase()))
    };
    use o_an_quan::game::online::pages::{OnlinePage, PageAction};
    let page = options.people.map(|p| match p {
        PeopleArg::Friends => OnlinePage::Friends,
        PeopleArg::Profile => OnlinePage::Profile,
        PeopleArg::Account => OnlinePage::Account,
        PeopleArg::PlayNow => OnlinePage::PlayNow,
        PeopleArg::Games => OnlinePage::Games,
        PeopleArg::Notifications => OnlinePage::Notifications,
    });
    let address = options.open_link.take().map(|a| match a.split_once('?') {
        Some((_, query)) => query.to_owned(),
        None => a,
    });
    let sheet = options.choose_rules;
    if !(options.online || sheet || ask.is_some() || page.is_some() || address.is_some()) {
        return;
    }
    app.add_systems(
        PostStartup,
        move |mut commands: Commands,
              mut screen: ResMut<NextState<Screen>>,
              mut online_page: ResMut<NextState<OnlinePage>>| {
            screen.set(Screen::Online);
            if sheet {
                // Taken as the screen opens.
                online_page.set(OnlinePage::Sheet);
            }
            if let Some(address) = &address {
                o_an_quan::game::online::open_from_address(&mut commands, &mut screen, address);
            }
            if let Some(ask) = ask.clone() {
                commands.trigger(ask);
            }
            if let Some(page) = page {
                commands.trigger(o_an_quan::game::online::pages::Press(PageAction::Open(
                    page,
                )));
            }
        },
    );
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

/// `--clock`'s value: untimed, or a time control.
#[derive(Clone, Copy, Debug)]
struct ClockArg(Option<TimeControl>);

/// `--clock`: `untimed`, or a time control like `5+3`.
fn parse_clock(text: &str) -> Result<ClockArg, String> {
    if text == "untimed" {
        return Ok(ClockArg(None));
    }
    text.parse().map(|c| ClockArg(Some(c)))
}
