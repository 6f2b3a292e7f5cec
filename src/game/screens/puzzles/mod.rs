//! The Puzzles screen: a position from a real game where one move is clearly best. The player
//! picks a pit and a direction as in play; the right move is shown with the engine's reply and
//! the puzzle goes on while its line has more; a wrong move is shown, what it gave away is said,
//! and it is taken back to try again. Progress (solved, streak, rating, the daily puzzles, the
//! best Streak and Storm) is kept like the settings.

mod caption;
mod dashboard;
#[cfg(target_arch = "wasm32")]
mod page;
pub mod runs;
pub mod set;

use bevy::prelude::*;

pub use dashboard::MenuOpen;
pub use runs::Run;

use crate::ai::puzzle::{Difficulty, Line, Puzzle};
use crate::ai::retry::{accepted, points_lost};
use crate::ai::theme::Theme;
use crate::art::glyphs::Glyph;
use crate::game::board::art::Art;
use crate::game::board::layout::Layout;
use crate::game::screens::practice::{PracticeStore, now_ms};
use crate::game::state::{
    Files, Game, Message, MovePlayed, Phase, PlayMove, Prefs, Screen, Settled, Skip, Working,
};
use crate::game::theme::bars;
use crate::game::theme::widget::{button, icon_button, small_button};
use crate::rules::{Move, presets};
use crate::session::puzzle_runs::{daily_index, day_of};
use crate::session::{History, PUZZLES, PuzzleProgress, Seat, seat_at};
use set::SetLoad;

/// The computer's seat in a puzzle: it never thinks there (its replies are the line's), but a
/// level names it "the computer" on the board.
const OPPONENT: Seat = Seat::Computer(7);

/// The puzzle on the board and how far the player is in it.
#[derive(Resource, Default)]
pub struct PuzzleBoard {
    /// Index in the set played.
    pub index: usize,
    /// The step of the puzzle's line the player is at.
    pub step: usize,
    /// A wrong move was tried on this puzzle.
    pub missed: bool,
    pub said: Said,
    /// What to do once the move being shown has been shown.
    pending: Pending,
    /// Only puzzles of this difficulty (`None`: all).
    pub difficulty: Option<Difficulty>,
    /// Only puzzles of this theme (`None`: all).
    pub theme: Option<Theme>,
    /// Browsing, the daily puzzle, a Streak or a Storm.
    pub run: Run,
    /// The shipped set, once loaded (`set::SetLoad`).
    shipped: Option<set::PuzzleSet>,
    /// Nothing is on the board yet: the first puzzle comes once the set is there.
    waiting: bool,
    /// The answer is lit on the board.
    pub show_answer: bool,
    /// The game on the board before the puzzles opened, put back after.
    stash: Option<History>,
    /// The player's own puzzles (mistakes to retry) in place of the shipped set, while
    /// practising them.
    pub own: Option<(Vec<Puzzle>, Vec<Line>)>,
}

impl PuzzleBoard {
    /// The puzzles played and their lines: the player's own, or the shipped set (none until
    /// it has loaded).
    pub fn set(&self) -> (&[Puzzle], &[Line]) {
        match (&self.own, &self.shipped) {
            (Some((puzzles, lines)), _) => (puzzles, lines),
            (None, Some(set)) => (&set.0.0.puzzles, &set.0.1),
            (None, None) => (&[], &[]),
        }
    }

    /// The puzzle on the board, if any.
    pub fn puzzle(&self) -> Option<&Puzzle> {
        self.set().0.get(self.index)
    }
}

/// How many of `puzzles` are solved: ids of an older set, kept in the progress, do not count.
pub fn solved_of(puzzles: &[Puzzle], progress: &PuzzleProgress) -> usize {
    puzzles
        .iter()
        .filter(|p| progress.solved.contains(&p.id))
        .count()
}

/// Practise the player's own puzzles: those given, or (with none given) those due now.
#[derive(Event, Clone, Debug, Default)]
pub struct Practise(pub Vec<Puzzle>);

/// What the caption says.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Said {
    #[default]
    Find,
    /// The right move; the line goes on.
    Right,
    /// A wrong move that gave away this many points.
    Wrong(f32),
    Solved,
    /// The set is on its way.
    Loading,
    /// The set could not be had (the reason is in `SetLoad`).
    NoSet,
    /// A Streak ended on a miss after this many were solved.
    StreakOver(u32),
    /// A Storm's time is up with this many solved.
    StormOver(u32),
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
enum Pending {
    #[default]
    Nothing,
    /// The answer is being shown; the engine replies with this next.
    Reply(Move),
    /// The reply is being shown.
    AfterReply,
    /// The answer ended the game.
    Done,
    /// A wrong move is being shown; then it is taken back.
    TakeBack,
    /// Solved in a Streak or a Storm: the next puzzle of the run, once shown.
    Next,
}

/// The player's progress, as kept on disk.
#[derive(Resource, Default, Debug, Clone, PartialEq, Deref, DerefMut)]
pub struct Progress(pub PuzzleProgress);

#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub enum PuzzleAction {
    Back,
    /// The previous or next puzzle (of the chosen difficulty, or day of the daily puzzle).
    Go(i8),
    Retry,
    Difficulty,
    Answer,
    /// The dashboard and the ways to play, opened or closed.
    Menu,
    /// Every puzzle, or those of a theme, by rating.
    Browse(Option<Theme>),
    Daily,
    Streak,
    Storm,
    /// The player's own mistakes due now.
    Practice,
}

/// The caption's two lines: `Caption(0)` the first.
#[derive(Component)]
struct Caption(usize);
#[derive(Component, Clone)]
struct AnswerMark;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PuzzleBoard>()
        .init_resource::<Progress>();
    app.add_plugins((
        set::plugin,
        runs::plugin,
        caption::plugin,
        dashboard::plugin,
    ));
    #[cfg(target_arch = "wasm32")]
    app.add_plugins(page::plugin);
    // Read at start too: the progress may be merged with another device's before Puzzles
    // opens (`online::training`), and what is merged is written back.
    app.add_systems(Startup, load_progress);
    app.add_systems(
        OnEnter(Screen::Puzzles),
        (load_progress, set::ask, enter, spawn).chain(),
    );
    app.add_systems(OnExit(Screen::Puzzles), leave);
    app.add_observer(judge);
    app.add_observer(practise);
    app.add_observer(press);
    app.add_systems(
        Update,
        (
            keys.run_if(in_state(Screen::Puzzles))
                .in_set(crate::game::state::GameSet::Input),
            (start_when_ready, follow_up)
                .chain()
                .run_if(in_state(Screen::Puzzles))
                .in_set(crate::game::state::GameSet::Think),
            available
                .run_if(in_state(Screen::Puzzles))
                .run_if(resource_changed::<PuzzleBoard>)
                .in_set(crate::game::state::GameSet::Show),
            mark_answer
                .run_if(in_state(Screen::Puzzles))
                .run_if(
                    resource_changed::<PuzzleBoard>
                        .or_eager(resource_changed::<Phase>)
                        .or_eager(resource_changed::<Layout>),
                )
                .in_set(crate::game::state::GameSet::Show),
            save_progress.run_if(resource_changed::<Progress>),
        ),
    );
}

fn load_progress(files: Option<Res<Files>>, mut progress: ResMut<Progress>) {
    let Some(files) = files else { return };
    // A file that does not read is set aside, and the count starts again.
    if let Some(kept) = crate::game::screens::kept::read(&files, PUZZLES, PuzzleProgress::from_ron)
    {
        progress.0 = kept;
    }
}

fn save_progress(progress: Res<Progress>, files: Option<Res<Files>>, message: ResMut<Message>) {
    if !progress.is_added() {
        crate::game::screens::kept::write(files, PUZZLES, &progress.to_ron(), message);
    }
}

/// The player's own puzzles put in place of the shipped set, and the screen opened on them.
fn practise(
    practise: On<Practise>,
    store: Res<PracticeStore>,
    mut board: ResMut<PuzzleBoard>,
    mut next_screen: ResMut<NextState<Screen>>,
) {
    let Some(own) = own_set(&practise.event().0, &store) else {
        return;
    };
    board.own = Some(own);
    board.difficulty = None;
    board.theme = None;
    board.run = Run::Browse;
    next_screen.set(Screen::Puzzles);
}

/// The player's own puzzles with their lines: those given, or (with none given) those due
/// now. `None` when there are none.
fn own_set(given: &[Puzzle], store: &PracticeStore) -> Option<(Vec<Puzzle>, Vec<Line>)> {
    let puzzles: Vec<Puzzle> = if given.is_empty() {
        store
            .due(now_ms())
            .into_iter()
            .map(|c| c.puzzle.clone())
            .collect()
    } else {
        given.to_vec()
    };
    // Each was checked against the rules as it was made; one that does not read is left out.
    let (puzzles, lines): (Vec<Puzzle>, Vec<Line>) = puzzles
        .into_iter()
        .filter_map(|p| p.line().ok().map(|line| (p, line)))
        .unzip();
    (!puzzles.is_empty()).then_some((puzzles, lines))
}

/// Keep the game that was on the board; the first puzzle comes once the set is there.
fn enter(mut board: ResMut<PuzzleBoard>, game: Res<Game>) {
    board.stash = Some(game.history.clone());
    board.waiting = true;
    board.said = Said::Loading;
}

/// Once the set is there (or at once for the player's own): the run's first puzzle on the
/// board. A set that cannot be had is said.
fn start_when_ready(
    mut here: Here,
    load: Res<SetLoad>,
    (mut working, mut wake): (ResMut<Working>, ResMut<crate::game::state::Wake>),
    start_with: Option<Res<StartWith>>,
) {
    if !here.board.waiting {
        return;
    }
    if here.board.own.is_none() {
        match &*load {
            SetLoad::Ready(set) if here.board.shipped.is_none() => {
                here.board.shipped = Some(set.clone());
            }
            SetLoad::Ready(_) => {}
            SetLoad::Failed(_) => {
                here.board.said = Said::NoSet;
                working.set_if_neq(Working(false));
                return;
            }
            SetLoad::NotAsked | SetLoad::Loading(_) => {
                // At work: what waits for the screen to settle (a screenshot) waits for this.
                working.set_if_neq(Working(true));
                // The set is read off the frame, and the game sleeps between inputs: it looks
                // again shortly, or the first puzzle would wait for the next touch.
                wake.bypass_change_detection()
                    .within(std::time::Duration::from_millis(100));
                return;
            }
        }
    }
    working.set_if_neq(Working(false));
    here.board.waiting = false;
    let list = runs::chosen(&here.board, &here.progress.rating);
    let first = runs::first(&here.board, &list, &here.progress).unwrap_or(0);
    here.put(first);
    // Asked to start with a way to play or the dashboard (the command line's `--panel`).
    if let Some(start) = start_with {
        here.commands.remove_resource::<StartWith>();
        act(start.0, &mut here);
    }
}

/// What the Puzzles screen does once its set is there, asked for before it opens (the command
/// line's `--panel puzzle-storm`): a way to play, or the dashboard.
#[derive(Resource, Clone, Copy, Debug)]
pub struct StartWith(pub PuzzleAction);

fn leave(mut commands: Commands, mut board: ResMut<PuzzleBoard>, mut game: ResMut<Game>) {
    board.own = None;
    board.difficulty = None;
    board.theme = None;
    board.run = Run::Browse;
    board.waiting = false;
    if let Some(history) = board.stash.take() {
        game.history = history;
        game.generation += 1;
        commands.trigger(Settled);
    }
}

/// Put puzzle `index` on the board, its solver's row nearest.
fn set_up(commands: &mut Commands, board: &mut PuzzleBoard, game: &mut Game, index: usize) {
    let (puzzles, lines) = board.set();
    let (Some(puzzle), Some(line)) = (puzzles.get(index), lines.get(index)) else {
        return;
    };
    let Some(preset) = presets::get(&puzzle.preset) else {
        return;
    };
    // The seat that moves at the puzzle's position is the player's; the other is the engine.
    let players = usize::from(preset.rules.players);
    // The moves were checked against the rules when the set was read.
    let history_of = |seats: Vec<Seat>| {
        let mut history = History::new(&preset.id, preset.rules, seats);
        for mv in puzzle
            .moves
            .split_whitespace()
            .filter_map(|m| m.parse().ok())
        {
            let _ = history.play(mv);
        }
        history
    };
    let solver = seat_at(&line.start, line.start.to_move());
    let seats = (0..players)
        .map(|s| if s == solver { Seat::Human } else { OPPONENT })
        .collect();
    game.history = history_of(seats);
    game.generation += 1;
    board.index = index;
    board.step = 0;
    board.missed = false;
    board.said = Said::Find;
    board.pending = Pending::Nothing;
    board.show_answer = false;
    commands.trigger(Settled);
}

/// A move was played on a puzzle: the answer, a wrong move, or the engine's reply.
fn judge(
    played: On<MovePlayed>,
    screen: Res<State<Screen>>,
    game: Res<Game>,
    mut board: ResMut<PuzzleBoard>,
    (mut progress, mut practice): (ResMut<Progress>, ResMut<PracticeStore>),
) {
    if *screen.get() != Screen::Puzzles {
        return;
    }
    let Some(step) = board
        .set()
        .1
        .get(board.index)
        .and_then(|l| l.steps.get(board.step))
        .cloned()
    else {
        return;
    };
    let Some(mv) = game.history.entries().last().map(|e| e.mv) else {
        return;
    };
    // The engine's reply (asked for by `follow_up`) is not the player's to judge.
    if board.pending != Pending::Nothing || played.mover != step.pos.to_move() {
        return;
    }
    board.show_answer = false;
    // A move worth as much as the answer is right too (the player's own puzzles have several).
    if accepted(&step, mv) {
        board.said = Said::Right;
        board.pending = step.reply.map_or(Pending::Done, Pending::Reply);
        return;
    }
    board.said = Said::Wrong(points_lost(&step, mv) as f32);
    board.pending = Pending::TakeBack;
    let first_miss = !board.missed;
    board.missed = true;
    progress.missed();
    if first_miss && board.own.is_none() {
        // A miss counts against the rating at once: leaving does not undo it. The puzzle
        // joins the player's own to practise, missed once: it comes back by its schedule.
        if let Some(puzzle) = board.puzzle().cloned() {
            let now = now_ms();
            progress.rating.record(&puzzle, false, now);
            let id = puzzle.id.clone();
            practice.add(vec![puzzle], now);
            practice.answer(&id, false, now);
        }
    }
    missed_in_run(&mut board, &mut progress);
}

/// A miss in a Streak ends it; in a Storm it costs seconds, and the next puzzle comes.
fn missed_in_run(board: &mut PuzzleBoard, progress: &mut Progress) {
    match &mut board.run {
        Run::Streak { list, over } if !*over => {
            *over = true;
            let solved = list.iter().position(|&i| i == board.index).unwrap_or(0) as u32;
            progress.streak_run_ended(solved);
            board.said = Said::StreakOver(solved);
        }
        Run::Storm { storm, over, .. } if !*over => storm.miss(),
        _ => {}
    }
}

/// Once a move has been shown: the engine's reply, the next step, the end, or taking back.
fn follow_up(
    mut commands: Commands,
    mut board: ResMut<PuzzleBoard>,
    mut game: ResMut<Game>,
    mut phase: ResMut<Phase>,
    (mut progress, mut practice): (ResMut<Progress>, ResMut<PracticeStore>),
    mut wake: ResMut<crate::game::state::Wake>,
) {
    if board.pending == Pending::Nothing {
        return;
    }
    // The game sleeps between inputs: what is still to follow (the engine's reply, the step
    // after it, a wrong move taken back) asks for its frame.
    wake.bypass_change_detection().busy();
    if *phase == Phase::Animating {
        return;
    }
    let steps = board.set().1.get(board.index).map_or(0, |l| l.steps.len());
    match board.pending {
        Pending::Reply(reply) => {
            board.pending = Pending::AfterReply;
            commands.trigger(PlayMove(reply));
        }
        Pending::AfterReply | Pending::Done => {
            board.pending = Pending::Nothing;
            board.step += 1;
            if board.step >= steps {
                solved(&mut board, &mut progress, &mut practice);
                // Solved: the board rests, no more moves.
                *phase = Phase::Over;
            } else {
                board.said = Said::Right;
            }
        }
        Pending::TakeBack => {
            board.pending = Pending::Nothing;
            if matches!(board.run, Run::Storm { over: false, .. }) {
                next_in_run(&mut commands, &mut board, &mut game);
                return;
            }
            let before = game.history.entries().len().saturating_sub(1);
            game.history = game.history.truncated(before);
            game.generation += 1;
            commands.trigger(Settled);
        }
        Pending::Next => next_in_run(&mut commands, &mut board, &mut game),
        Pending::Nothing => {}
    }
}

/// The puzzle on the board is solved: scheduled again (the player's own), counted, rated; in
/// a Streak or a Storm, the next one comes.
fn solved(board: &mut PuzzleBoard, progress: &mut Progress, practice: &mut PracticeStore) {
    board.said = Said::Solved;
    let Some(puzzle) = board.puzzle().cloned() else {
        return;
    };
    let clean = !board.missed;
    if board.own.is_some() {
        // Brought back by its schedule: later when solved at the first try.
        practice.answer(&puzzle.id, clean, now_ms());
        return;
    }
    progress.solved_one(&puzzle.id, clean);
    if clean {
        progress.rating.record(&puzzle, true, now_ms());
    }
    let count = board.set().0.len();
    let index = board.index;
    match &mut board.run {
        Run::Daily(day) if daily_index(*day, count) == Some(index) => progress.solved_daily(*day),
        Run::Streak { over: false, .. } => board.pending = Pending::Next,
        Run::Storm { storm, over, .. } if !*over => {
            storm.solve();
            board.pending = Pending::Next;
        }
        _ => {}
    }
}

/// The next puzzle of a Streak or a Storm; a Streak with none left ends, won.
fn next_in_run(commands: &mut Commands, board: &mut PuzzleBoard, game: &mut Game) {
    let (Run::Streak { list, .. } | Run::Storm { list, .. }) = &board.run else {
        return;
    };
    let here = list.iter().position(|&i| i == board.index);
    let next = here.and_then(|k| list.get(k + 1)).copied();
    match next {
        Some(index) => {
            commands.trigger(Skip);
            set_up(commands, board, game, index);
        }
        None => {
            let solved = list.len() as u32;
            board.said = match &board.run {
                Run::Storm { .. } => Said::StormOver(solved),
                _ => Said::StreakOver(solved),
            };
        }
    }
}

/// A button of the puzzles pressed: its action carried out.
fn press(
    activate: On<crate::game::theme::press::Activate>,
    actions: Query<&PuzzleAction>,
    mut here: Here,
) {
    if let Ok(action) = actions.get(activate.entity) {
        act(*action, &mut here);
    }
}

/// Esc closes the dashboard, or goes back to the title.
fn keys(keys: Res<ButtonInput<KeyCode>>, mut here: Here) {
    if keys.just_pressed(KeyCode::Escape) {
        let action = if here.menu.0 {
            PuzzleAction::Menu
        } else {
            PuzzleAction::Back
        };
        act(action, &mut here);
    }
}

/// What an action works on.
#[derive(bevy::ecs::system::SystemParam)]
struct Here<'w, 's> {
    commands: Commands<'w, 's>,
    board: ResMut<'w, PuzzleBoard>,
    game: ResMut<'w, Game>,
    progress: Res<'w, Progress>,
    menu: ResMut<'w, MenuOpen>,
    next_screen: ResMut<'w, NextState<Screen>>,
    practice: Res<'w, PracticeStore>,
}

impl Here<'_, '_> {
    /// Start a run (or browse anew) with the dashboard closed.
    fn start(&mut self, run: Run) {
        self.board.run = run;
        self.menu.0 = false;
        let list = runs::chosen(&self.board, &self.progress.rating);
        if let Some(first) = runs::first(&self.board, &list, &self.progress) {
            self.put(first);
        }
    }

    /// Puzzle `index` on the board, what was being shown cut short.
    fn put(&mut self, index: usize) {
        self.commands.trigger(Skip);
        set_up(&mut self.commands, &mut self.board, &mut self.game, index);
    }
}

fn act(action: PuzzleAction, here: &mut Here) {
    // Nothing to act on until the set is there, but leaving and the dashboard.
    if here.board.waiting && !matches!(action, PuzzleAction::Back | PuzzleAction::Menu) {
        return;
    }
    match action {
        PuzzleAction::Back => here.next_screen.set(Screen::Title),
        PuzzleAction::Go(step) => go(here, step),
        PuzzleAction::Retry => match here.board.run {
            // A Streak or a Storm that is over starts again.
            Run::Streak { over: true, .. } => here.start(runs::new_streak(&here.board)),
            Run::Storm { over: true, .. } => here.start(runs::new_storm(&here.board)),
            _ if here.board.run.is_timed_or_chained() => {}
            _ => {
                let index = here.board.index;
                here.put(index);
            }
        },
        PuzzleAction::Difficulty => {
            here.board.difficulty = match here.board.difficulty {
                None => Some(Difficulty::Easy),
                Some(Difficulty::Easy) => Some(Difficulty::Medium),
                Some(Difficulty::Medium) => Some(Difficulty::Hard),
                Some(Difficulty::Hard) => None,
            };
            here.start(Run::Browse);
        }
        PuzzleAction::Answer if !here.board.run.is_timed_or_chained() => {
            here.board.show_answer = !here.board.show_answer;
            // Looking at the answer is not solving it at the first try.
            here.board.missed = true;
        }
        PuzzleAction::Answer => {}
        PuzzleAction::Menu => here.menu.0 = !here.menu.0,
        PuzzleAction::Browse(theme) => {
            here.board.own = None;
            here.board.theme = theme;
            here.start(Run::Browse);
        }
        PuzzleAction::Daily => {
            here.board.own = None;
            here.start(Run::Daily(day_of(now_ms())));
        }
        PuzzleAction::Streak => {
            here.board.own = None;
            here.start(runs::new_streak(&here.board));
        }
        PuzzleAction::Storm => {
            here.board.own = None;
            here.start(runs::new_storm(&here.board));
        }
        PuzzleAction::Practice => {
            if let Some(own) = own_set(&[], &here.practice) {
                here.board.own = Some(own);
                here.board.theme = None;
                here.board.difficulty = None;
                here.start(Run::Browse);
            }
        }
    }
}

/// The previous or next puzzle: of the list browsed, or the daily puzzle of the day before or
/// after (within the archive). A Streak or a Storm goes on only by solving.
fn go(here: &mut Here, step: i8) {
    if here.board.run.is_timed_or_chained() {
        return;
    }
    if let Run::Daily(day) = here.board.run {
        let days = runs::archive_days();
        let day = (day + i64::from(step)).clamp(*days.start(), *days.end());
        here.board.run = Run::Daily(day);
        if let Some(index) = daily_index(day, here.board.set().0.len()) {
            here.put(index);
        }
        return;
    }
    let list = runs::chosen(&here.board, &here.progress.rating);
    if list.is_empty() {
        return;
    }
    let at = list
        .iter()
        .position(|&i| i == here.board.index)
        .unwrap_or(0);
    let next = (at as isize + isize::from(step)).rem_euclid(list.len() as isize);
    here.put(list[next as usize]);
}

fn spawn(mut commands: Commands, art: Res<Art>, prefs: Res<Prefs>) {
    let lang = prefs.lang();
    commands
        .spawn((DespawnOnExit(Screen::Puzzles), bars::top_bar()))
        .with_children(|bar| {
            bar.spawn(icon_button(
                &art,
                PuzzleAction::Back,
                Glyph::Back,
                lang.tr("puzzle.back"),
            ));
            bar.spawn(small_button(&art, PuzzleAction::Go(-1), "‹"));
            bar.spawn(small_button(&art, PuzzleAction::Go(1), "›"));
            bar.spawn(icon_button(
                &art,
                PuzzleAction::Retry,
                Glyph::Again,
                lang.tr("puzzle.retry"),
            ));
            bar.spawn(button(&art, PuzzleAction::Menu, lang.tr("puzzle.menu")));
            bar.spawn(icon_button(
                &art,
                PuzzleAction::Answer,
                Glyph::Hint,
                lang.tr("puzzle.answer"),
            ));
        });
    bars::bottom_caption(
        &mut commands,
        &art,
        DespawnOnExit(Screen::Puzzles),
        Caption(0),
        Caption(1),
    );
}

/// In a Streak or a Storm under way, moving on, trying again and the answer are not to be had:
/// their buttons are greyed (and said to be so).
fn available(
    mut commands: Commands,
    board: Res<PuzzleBoard>,
    buttons: Query<(Entity, &PuzzleAction, Has<bevy::ui::InteractionDisabled>)>,
) {
    let running = board.run.is_timed_or_chained() || board.waiting;
    for (button, action, disabled) in &buttons {
        let held = matches!(
            action,
            PuzzleAction::Go(_) | PuzzleAction::Retry | PuzzleAction::Answer
        );
        crate::game::theme::press::set_enabled(&mut commands, button, !(held && running), disabled);
    }
}

/// Light the answer's pit and arrow while asked to.
fn mark_answer(
    mut commands: Commands,
    board: Res<PuzzleBoard>,
    phase: Res<Phase>,
    layout: Res<Layout>,
    art: Res<Art>,
    marks: Query<Entity, With<AnswerMark>>,
) {
    for mark in &marks {
        commands.entity(mark).despawn();
    }
    if !board.show_answer || *phase != Phase::Waiting {
        return;
    }
    let answer = board
        .set()
        .1
        .get(board.index)
        .and_then(|l| l.steps.get(board.step))
        .map(|s| s.answer);
    if let Some(answer) = answer {
        let tag = (AnswerMark, DespawnOnExit(Screen::Puzzles));
        crate::game::play::ai_turn::mark_move(&mut commands, &art, &layout, answer, 0.2, tag);
    }
}
