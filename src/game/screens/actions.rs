//! What every button does: one enum for the HUD, the title screen, the menu and the dialogs,
//! and the one system that carries a press out.

use bevy::prelude::*;

use crate::ai::Level;
use crate::game::platform::persist::{Export, SavedGame};
use crate::game::play::hint::AskHint;
use crate::game::state::{
    Game, LoadGame, Message, NewGame, Note, Overlay, PendingSow, Phase, PlayMove, Prefs, Screen,
    Skip, TimeTravel,
};
use crate::game::theme::press::Activate;
use crate::rules::Move;
use crate::session::{Lang, Mode, ScoreView, Speed, TimeControl};

/// A button's meaning.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub enum Action {
    OpenMenu,
    OpenHelp,
    Hint,
    Undo,
    Redo,
    ToggleMoves,
    Skip,
    /// From the title screen: resume the saved game.
    Resume,
    /// From the title screen or the menu: a new game (asks first if one is in progress).
    NewGame,
    /// From the title screen: the online screen.
    PlayOnline,
    /// Step the mode, the level, the rule set or the volume by -1 or +1.
    Mode(i8),
    Level(i8),
    Preset(i8),
    Volume(i8),
    /// Step the clock of games on this device: untimed, then the offered controls.
    Clock(i8),
    First,
    Young,
    Majority,
    Speed,
    Score,
    Sound,
    Language(Lang),
    Export,
    ImportHow,
    /// Close the panel on top.
    Back,
    /// The answers of "leave the game in progress?".
    Leave,
    Stay,
    /// The table flip button, and the dialog's answer.
    Flip,
    FlipYes,
    /// From the end of a game: look back at it with the engine.
    Review,
    /// From the end of a game: its review, then the players' own mistakes as puzzles.
    RetryMistakes,
    /// From the title screen: the puzzles.
    Puzzles,
    /// The player's own puzzles due now (mistakes of their games to retry).
    Practice,
    /// From the rules: the examples on the board.
    Lesson,
    /// From the title: how to play in three pictures.
    Intro,
    /// From the menu: the accessibility settings.
    OpenAccess,
    /// Step the text size by -1 or +1 (100 % to 200 %).
    TextSize(i8),
    Contrast,
    /// Motion: as the system asks, full, reduced.
    Motion,
    ConfirmMoves,
    LargeTargets,
    /// The move held for confirmation: play it, or choose again.
    ConfirmSow,
    CancelSow,
}

/// Whether the list of moves is shown.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct MovesShown(pub bool);

/// The match settings (mode, rule set, switch, who starts) when the menu opened: a change to
/// them starts a new game when the menu closes.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct MatchChoice(pub Option<Choice>);

/// What of the settings belongs to the match: mode, rule set, young mandarin, who starts, clock,
/// the winning score.
type Choice = (Mode, String, bool, bool, Option<TimeControl>, bool);

impl MatchChoice {
    fn of(prefs: &Prefs) -> Choice {
        (
            prefs.mode,
            prefs.preset.clone(),
            prefs.young_mandarin,
            prefs.human_first,
            prefs.clock,
            prefs.majority_wins,
        )
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MovesShown>()
        .init_resource::<MatchChoice>();
    app.add_observer(press);
    app.add_observer(refused);
    app.add_systems(
        Update,
        (crate::game::theme::widget::hover, shortcuts).in_set(crate::game::state::GameSet::Input),
    );
}

/// A button of the game's screens pressed: its action carried out.
fn press(activate: On<Activate>, actions: Query<&Action>, mut commands: Commands, mut ctx: Ctx) {
    if let Ok(action) = actions.get(activate.entity) {
        ctx.act(&mut commands, *action);
    }
}

/// A greyed button of the bar pressed: Undo and Redo say why they are not there in a timed
/// game (the rest are greyed only for a moment: during a move, on the other's turn).
fn refused(
    refused: On<crate::game::theme::press::Refused>,
    actions: Query<&Action>,
    mut commands: Commands,
    mut ctx: Ctx,
) {
    if let Ok(&action) = actions.get(refused.entity)
        && matches!(action, Action::Undo | Action::Redo)
        && ctx.game.timed()
    {
        ctx.act(&mut commands, action);
    }
}

/// Esc lets go of the selected pit, closes the panel on top, or opens the menu; F offers the
/// table flip, H asks for a hint, U and R undo and redo.
fn shortcuts(mut commands: Commands, keys: Res<ButtonInput<KeyCode>>, mut ctx: Ctx) {
    let overlay = *ctx.overlay.get();
    if keys.just_pressed(KeyCode::Escape) {
        match overlay {
            Overlay::None if ctx.pending.0.is_some() => ctx.act(&mut commands, Action::CancelSow),
            Overlay::None if ctx.selection.0.is_some() => ctx.selection.0 = None,
            Overlay::None if *ctx.screen.get() == Screen::Playing => {
                ctx.act(&mut commands, Action::OpenMenu);
            }
            Overlay::None => {}
            Overlay::ConfirmNewGame => ctx.act(&mut commands, Action::Stay),
            _ => ctx.act(&mut commands, Action::Back),
        }
    }
    if overlay != Overlay::None || *ctx.screen.get() != Screen::Playing {
        return;
    }
    for (key, action) in [
        (KeyCode::KeyF, Action::Flip),
        (KeyCode::KeyH, Action::Hint),
        (KeyCode::KeyU, Action::Undo),
        (KeyCode::KeyR, Action::Redo),
    ] {
        if keys.just_pressed(key) {
            ctx.act(&mut commands, action);
        }
    }
}

/// What a button press may touch.
#[derive(bevy::ecs::system::SystemParam)]
struct Ctx<'w> {
    prefs: ResMut<'w, Prefs>,
    game: ResMut<'w, Game>,
    phase: Res<'w, Phase>,
    screen: Res<'w, State<Screen>>,
    next_screen: ResMut<'w, NextState<Screen>>,
    overlay: Res<'w, State<Overlay>>,
    next_overlay: ResMut<'w, NextState<Overlay>>,
    saved: ResMut<'w, SavedGame>,
    moves_shown: ResMut<'w, MovesShown>,
    choice: ResMut<'w, MatchChoice>,
    selection: ResMut<'w, crate::game::play::input::Selection>,
    message: ResMut<'w, Message>,
    pending: ResMut<'w, PendingSow>,
}

impl Ctx<'_> {
    fn act(&mut self, commands: &mut Commands, action: Action) {
        if step_setting(&mut self.prefs, action) {
            return;
        }
        match action {
            Action::Hint
            | Action::Undo
            | Action::Redo
            | Action::ToggleMoves
            | Action::Skip
            | Action::Flip
            | Action::FlipYes
            | Action::ConfirmSow
            | Action::CancelSow => self.on_board(commands, action),
            Action::Resume | Action::NewGame | Action::Leave | Action::Stay | Action::Level(_) => {
                self.the_match(commands, action)
            }
            _ => self.elsewhere(commands, action),
        }
    }

    /// What is done on the board: help, the moves' list, a sowing confirmed, the table flipped.
    fn on_board(&mut self, commands: &mut Commands, action: Action) {
        match action {
            Action::Hint | Action::Undo | Action::Redo if self.game.online() => {
                self.message.set(Note::text("online.no_help", &[]));
            }
            Action::Undo | Action::Redo if self.game.timed() => {
                self.message.set(Note::text("clock.no_undo", &[]));
            }
            Action::Hint => commands.trigger(AskHint),
            Action::Undo => commands.trigger(TimeTravel::Undo),
            Action::Redo => commands.trigger(TimeTravel::Redo),
            Action::ToggleMoves => self.moves_shown.0 = !self.moves_shown.0,
            Action::Skip => commands.trigger(Skip),
            Action::Flip
                if *self.phase == Phase::Waiting
                    && self.game.human_to_move()
                    && self.game.pos().can_swap() =>
            {
                self.next_overlay.set(Overlay::Flip);
            }
            Action::ConfirmSow => {
                if let Some(mv) = self.pending.0.take()
                    && *self.phase == Phase::Waiting
                {
                    commands.trigger(PlayMove(mv));
                }
            }
            Action::CancelSow => self.pending.0 = None,
            Action::FlipYes => {
                self.next_overlay.set(Overlay::None);
                commands.trigger(PlayMove(Move::Swap));
            }
            _ => {}
        }
    }

    /// The match: resumed, started anew, left or kept, the computer's level.
    fn the_match(&mut self, commands: &mut Commands, action: Action) {
        let prefs = &mut self.prefs;
        match action {
            Action::Resume => {
                if let Some(history) = self.saved.0.take() {
                    commands.trigger(LoadGame(history));
                }
                self.start_playing();
            }
            Action::NewGame => {
                if *self.screen.get() == Screen::Playing && self.game.in_progress() {
                    self.next_overlay.set(Overlay::ConfirmNewGame);
                } else {
                    self.new_game(commands);
                }
            }
            Action::Level(step) => {
                let level = (i16::from(prefs.level) + i16::from(step)).clamp(1, 10) as u8;
                prefs.level = level;
                // From the computer's next move on.
                self.game.history.set_computer_level(level);
            }
            Action::Leave => self.new_game(commands),
            Action::Stay => {
                // Keep playing: the match settings go back to the game's.
                if let Some((mode, preset, young, first, clock, majority)) = self.choice.0.take() {
                    prefs.mode = mode;
                    prefs.preset = preset;
                    prefs.young_mandarin = young;
                    prefs.human_first = first;
                    prefs.clock = clock;
                    prefs.majority_wins = majority;
                }
                self.next_overlay.set(Overlay::None);
            }
            _ => {}
        }
    }

    /// Panels opened and closed, other screens, the game exported or imported.
    fn elsewhere(&mut self, commands: &mut Commands, action: Action) {
        match action {
            Action::OpenMenu => {
                self.choice.0 = Some(MatchChoice::of(&self.prefs));
                self.next_overlay.set(Overlay::Menu);
            }
            Action::OpenHelp => self.next_overlay.set(Overlay::Help),
            Action::Intro => self.next_overlay.set(Overlay::Intro),
            Action::Review => commands.trigger(crate::game::state::OpenReview),
            Action::RetryMistakes => {
                commands.insert_resource(crate::game::state::RetryWhenReady);
                commands.trigger(crate::game::state::OpenReview);
            }
            Action::Lesson => {
                commands.insert_resource(crate::game::screens::lesson::BackTo(*self.screen.get()));
                self.next_overlay.set(Overlay::None);
                self.next_screen.set(Screen::Lesson);
            }
            Action::Puzzles => {
                self.next_overlay.set(Overlay::None);
                self.next_screen.set(Screen::Puzzles);
            }
            Action::Practice => {
                self.next_overlay.set(Overlay::None);
                commands.trigger(crate::game::screens::puzzles::Practise::default());
            }
            Action::PlayOnline => {
                self.next_overlay.set(Overlay::None);
                self.next_screen.set(Screen::Online);
            }
            Action::Export => {
                commands.trigger(Export);
                self.close_panel(commands);
            }
            Action::ImportHow => {
                // The browser has a file picker; a desktop window takes a dropped file.
                #[cfg(target_arch = "wasm32")]
                if let Err(e) = crate::game::platform::web_files::pick_file() {
                    self.message.set(Note::text("error.import", &[("why", &e)]));
                }
                #[cfg(not(target_arch = "wasm32"))]
                self.message.set(Note::text("menu.import.how", &[]));
                self.close_panel(commands);
            }
            Action::Back => self.close_panel(commands),
            Action::OpenAccess => self.next_overlay.set(Overlay::Access),
            _ => {}
        }
    }

    /// Back from a panel. Leaving the menu with another mode, rule set or first player starts a
    /// new game, after asking if one is in progress.
    fn close_panel(&mut self, commands: &mut Commands) {
        let overlay = *self.overlay.get();
        let changed = overlay == Overlay::Menu
            && self
                .choice
                .0
                .as_ref()
                .is_some_and(|c| *c != MatchChoice::of(&self.prefs));
        let playing = *self.screen.get() == Screen::Playing;
        // The accessibility panel opens from the menu, and goes back to it.
        if overlay == Overlay::Access {
            self.next_overlay.set(Overlay::Menu);
            return;
        }
        if changed && playing && self.game.in_progress() {
            self.next_overlay.set(Overlay::ConfirmNewGame);
        } else if changed && playing {
            self.new_game(commands);
        } else {
            self.choice.0 = None;
            self.next_overlay.set(Overlay::None);
        }
    }

    fn new_game(&mut self, commands: &mut Commands) {
        self.choice.0 = None;
        commands.trigger(NewGame);
        self.start_playing();
    }

    fn start_playing(&mut self) {
        self.next_overlay.set(Overlay::None);
        self.next_screen.set(Screen::Playing);
    }
}

/// A setting stepped or switched by its button (the mode, the rule set, the clock, the sound,
/// the text size…); whether `action` was one.
fn step_setting(prefs: &mut Prefs, action: Action) -> bool {
    match action {
        Action::Mode(step) => {
            let i = Mode::ALL.iter().position(|&m| m == prefs.mode).unwrap_or(0);
            prefs.set_mode(Mode::ALL[wrap(i, step, Mode::ALL.len())]);
        }
        Action::Preset(step) => {
            let presets = prefs.presets();
            let i = presets
                .iter()
                .position(|p| p.id == prefs.preset)
                .unwrap_or(0);
            prefs.preset = presets[wrap(i, step, presets.len())].id.clone();
        }
        Action::Volume(step) => {
            let volume = (prefs.volume + 0.1 * f32::from(step)).clamp(0.0, 1.0);
            prefs.volume = (volume * 10.0).round() / 10.0;
        }
        Action::Clock(step) => {
            // Untimed first, then the offered controls.
            let offered = TimeControl::OFFERED;
            let i = prefs
                .clock
                .and_then(|c| offered.iter().position(|&o| o == c))
                .map_or(0, |i| i + 1);
            let next = wrap(i, step, offered.len() + 1);
            prefs.clock = next.checked_sub(1).map(|i| offered[i]);
        }
        Action::First => prefs.human_first = !prefs.human_first,
        Action::Young => prefs.young_mandarin = !prefs.young_mandarin,
        Action::Majority => prefs.majority_wins = !prefs.majority_wins,
        Action::Speed => {
            let i = Speed::ALL
                .iter()
                .position(|&s| s == prefs.speed)
                .unwrap_or(0);
            prefs.speed = Speed::ALL[wrap(i, 1, Speed::ALL.len())];
        }
        Action::Score => {
            prefs.score_view = match prefs.score_view {
                ScoreView::Points => ScoreView::Difference,
                ScoreView::Difference => ScoreView::Points,
            }
        }
        Action::Sound => prefs.sound = !prefs.sound,
        Action::Language(lang) => prefs.language = lang,
        Action::TextSize(step) => {
            let sizes = crate::session::TEXT_SIZES;
            let i = sizes
                .iter()
                .position(|&s| s == prefs.text_size)
                .unwrap_or(0);
            let i = (i as isize + isize::from(step)).clamp(0, sizes.len() as isize - 1);
            prefs.text_size = sizes[i as usize];
        }
        Action::Contrast => prefs.high_contrast = !prefs.high_contrast,
        Action::Motion => {
            prefs.reduce_motion = match prefs.reduce_motion {
                None => Some(false),
                Some(false) => Some(true),
                Some(true) => None,
            }
        }
        Action::ConfirmMoves => prefs.confirm_sow = !prefs.confirm_sow,
        Action::LargeTargets => prefs.large_targets = !prefs.large_targets,
        _ => return false,
    }
    true
}

/// `i` stepped by `step` around `len` items.
fn wrap(i: usize, step: i8, len: usize) -> usize {
    (i as isize + isize::from(step)).rem_euclid(len as isize) as usize
}

/// The clock as the menu says it: "Untimed", "5 min + 3 s".
pub fn clock_label(clock: Option<TimeControl>, lang: Lang) -> String {
    match clock {
        None => lang.tr("clock.untimed").to_owned(),
        Some(c) => lang.trf(
            "clock.control",
            &[("minutes", &c.minutes), ("seconds", &c.increment_s)],
        ),
    }
}

/// The level's name in the menu, with its rating: "Medium (4) · about 1200", or "Level 6 ·
/// about 1400".
pub fn level_label(level: u8, lang: Lang) -> String {
    let named = Level::get(level).and_then(|l| l.name());
    let label = match named {
        Some(name) => format!("{} ({level})", lang.tr(level_key(name))),
        None => lang.trf("level.number", &[("n", &level)]),
    };
    match Level::get(level).and_then(|l| l.rating()) {
        Some(rating) => lang.trf("level.rated", &[("level", &label), ("rating", &rating)]),
        None => label,
    }
}

fn level_key(name: &str) -> &'static str {
    match name {
        "easy" => "level.easy",
        "medium" => "level.medium",
        "hard" => "level.hard",
        _ => "level.master",
    }
}
