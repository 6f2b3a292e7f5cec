//! Keeping things between runs: the settings whenever they change, the game in progress after
//! every move (so closing or killing the game loses at most the move being shown), the saved
//! game offered on the title screen, and replays exported to and imported from RON files.

use std::collections::VecDeque;
use std::path::Path;

use bevy::prelude::*;
use bevy::window::FileDragAndDrop;

use crate::game::state::{
    AnalysedGame, Analysis, Files, Game, Launch, LoadGame, Message, MovePlayed, NewGame, Note,
    Phase, PlayMove, Prefs, RanOutOfTime, Replay, Screen, Settled, TimeTravel,
};
use crate::rules::Move;
use crate::session::{History, Record, SAVED_GAME, SETTINGS, Settings, Storage};

/// The unfinished game found at start, offered on the title screen.
#[derive(Resource, Default)]
pub struct SavedGame(pub Option<History>);

/// Import a game from a RON record (an event of `state`, where the browser's file picker sends
/// it too).
pub use crate::game::state::Import;

/// Write the game so far to a new file in the exports folder.
#[derive(Event, Debug, Clone, Copy)]
pub struct Export;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SavedGame>().init_resource::<Replay>();
    // The window plugin registers dropped files; without a window (tests) none ever come.
    app.add_message::<FileDragAndDrop>();
    app.add_systems(PreStartup, find_saved_game);
    app.add_systems(PostStartup, resume_at_start);
    app.add_systems(
        Update,
        (
            save_settings.run_if(resource_changed::<Prefs>),
            dropped_files,
            play_replay.in_set(crate::game::state::GameSet::Think),
        ),
    );
    app.add_observer(save_after::<MovePlayed>)
        .add_observer(stop_replay::<NewGame>)
        .add_observer(stop_replay::<TimeTravel>)
        .add_observer(save_after::<Settled>)
        .add_observer(save_after::<RanOutOfTime>)
        .add_observer(import)
        .add_observer(export);
}

/// The settings from `storage`, or the first-start defaults. A file that cannot be read is
/// set aside, never overwritten, and the returned note says so.
pub fn load_settings(storage: &Storage) -> (Settings, Option<Note>) {
    let text = match storage.read(SETTINGS) {
        Ok(Some(text)) => text,
        Ok(None) => return (Settings::first_start(), None),
        Err(e) => return (Settings::first_start(), Some(storage_error(&e.to_string()))),
    };
    match Settings::from_ron(&text) {
        Ok(settings) => (settings, None),
        Err(e) => {
            let file = storage
                .set_aside(SETTINGS)
                .unwrap_or_else(|_| SETTINGS.to_owned());
            let why = e.to_string();
            let note = Note::text("error.settings", &[("why", &why), ("file", &file)]);
            (Settings::first_start(), Some(note))
        }
    }
}

/// A file that could not be read or written.
fn storage_error(why: &str) -> Note {
    Note::text("error.storage", &[("why", &why)])
}

fn save_settings(prefs: Res<Prefs>, files: Option<Res<Files>>, mut message: ResMut<Message>) {
    let Some(files) = files else { return };
    if let Err(e) = files.config.write(SETTINGS, &prefs.to_ron()) {
        message.set(storage_error(&e.to_string()));
    }
}

/// Read the saved game before anything can replace it.
fn find_saved_game(
    files: Option<Res<Files>>,
    mut saved: ResMut<SavedGame>,
    mut message: ResMut<Message>,
) {
    let Some(files) = files else { return };
    match files.data.read(SAVED_GAME) {
        Ok(Some(text)) => match Record::parse(&text) {
            Ok(history) if !history.is_over() => saved.0 = Some(history),
            Ok(_) => {}
            Err(e) => {
                // Keep the file for whoever wants to look at it, and start clean.
                let _ = files.data.set_aside(SAVED_GAME);
                let why = e.to_string();
                message.set(Note::text("error.save", &[("why", &why)]));
            }
        },
        Ok(None) => {}
        Err(e) => message.set(storage_error(&e.to_string())),
    }
}

/// `--resume`: straight back to the saved game, once the board is up.
fn resume_at_start(
    mut commands: Commands,
    launch: Res<Launch>,
    mut saved: ResMut<SavedGame>,
    mut screen: ResMut<NextState<Screen>>,
) {
    if launch.resume
        && let Some(history) = saved.0.take()
    {
        commands.trigger(LoadGame(history));
        screen.set(Screen::Playing);
    }
}

/// After every move and every jump (new game, undo, redo, load): the game in progress goes to
/// disk, a finished or empty one is removed. Nothing is written before the player leaves the
/// title screen, so that the saved game stays on offer there.
fn save_after<E: Event>(
    _: On<E>,
    game: Res<Game>,
    files: Option<Res<Files>>,
    screen: Option<Res<State<Screen>>>,
    mut message: ResMut<Message>,
) {
    let Some(files) = files else { return };
    // Before the first frame the screen has no state yet: that is the title's time too.
    if screen.is_none_or(|s| *s.get() != Screen::Playing) {
        return;
    }
    // An online game lives on the server; the saved game stays the last local one.
    if game.online() {
        return;
    }
    let result = if game.in_progress() {
        files
            .data
            .write(SAVED_GAME, &Record::of(&game.history).to_ron())
    } else {
        files.data.remove(SAVED_GAME)
    };
    if let Err(e) = result {
        message.0.push(storage_error(&e.to_string()));
    }
}

fn export(
    _: On<Export>,
    game: Res<Game>,
    analysis: Res<Analysis>,
    files: Option<Res<Files>>,
    mut message: ResMut<Message>,
) {
    let Some(files) = files else { return };
    let stamp = web_time::SystemTime::now()
        .duration_since(web_time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let name = format!("o-an-quan-{stamp}.ron");
    // The review goes with the game, when it has been worked out.
    let mut record = Record::of(&game.history);
    if let Some(judged) = analysis.of(&game.history) {
        record = record.with_review(judged);
    }
    let text = record.to_ron();
    message.set(match keep_export(&files, &name, &text) {
        Ok(note) => note,
        Err(e) => storage_error(&e),
    });
}

/// In the browser an exported game is a download, where the player keeps their files.
#[cfg(target_arch = "wasm32")]
fn keep_export(_: &Files, name: &str, text: &str) -> Result<Note, String> {
    crate::game::platform::web_files::download(name, text)?;
    Ok(Note::text("menu.downloaded", &[("file", &name)]))
}

/// On a computer or a phone an exported game is a file in the exports folder.
#[cfg(not(target_arch = "wasm32"))]
fn keep_export(files: &Files, name: &str, text: &str) -> Result<Note, String> {
    let exports = Storage::at(files.data.path("exports"));
    exports.write(name, text).map_err(|e| e.to_string())?;
    let file = exports.path(name).display().to_string();
    Ok(Note::text("menu.exported", &[("file", &file)]))
}

fn dropped_files(mut commands: Commands, mut drops: MessageReader<FileDragAndDrop>) {
    for drop in drops.read() {
        if let FileDragAndDrop::DroppedFile { path_buf, .. } = drop {
            commands.trigger(read_import(path_buf));
        }
    }
}

/// The import of a file on disk.
pub fn read_import(path: &Path) -> Import {
    Import(std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display())))
}

/// An imported game starts from its first position and replays its moves on the board.
fn import(
    import: On<Import>,
    mut commands: Commands,
    mut replay: ResMut<Replay>,
    mut message: ResMut<Message>,
    mut screen: ResMut<NextState<Screen>>,
    mut analysis: ResMut<Analysis>,
) {
    match import
        .0
        .as_deref()
        .map_err(|e| e.clone())
        // The game and, when the file keeps one, its review.
        .and_then(|text| Record::parse_reviewed(text).map_err(|e| e.to_string()))
    {
        Ok((history, judged)) => {
            if let Some(judged) = judged {
                analysis.0 = Some(AnalysedGame {
                    start: *history.start(),
                    moves: history.moves().collect(),
                    judged,
                });
            }
            let moves: VecDeque<Move> = history.moves().collect();
            let count = moves.len();
            let record = Record::of(&history);
            let start = History::new(&record.preset, record.rules, record.seats);
            commands.trigger(LoadGame(start));
            replay.0 = moves;
            screen.set(Screen::Playing);
            message.set(Note::text("menu.imported", &[("moves", &count)]));
        }
        Err(why) => message.set(Note::text("error.import", &[("why", &why)])),
    }
}

fn play_replay(mut commands: Commands, phase: Res<Phase>, mut replay: ResMut<Replay>) {
    if *phase == Phase::Waiting
        && let Some(mv) = replay.0.pop_front()
    {
        commands.trigger(PlayMove(mv));
    }
}

/// A new game or a jump through the history ends the replay of an imported game.
fn stop_replay<E: Event>(_: On<E>, mut replay: ResMut<Replay>) {
    replay.0.clear();
}
