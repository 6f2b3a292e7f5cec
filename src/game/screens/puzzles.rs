//! The Puzzles screen: a position from a real game where one move is clearly best. The player
//! picks a pit and a direction as in play; the right move is shown with the engine's reply and
//! the puzzle goes on while its line has more; a wrong move is shown, what it gave away is said,
//! and it is taken back to try again. Progress (solved, streak) is kept like the settings.

use bevy::prelude::*;

use crate::ai::puzzle::{Difficulty, Line, Puzzle, PuzzleFile};
use crate::ai::retry::{accepted, points_lost};
use crate::art::glyphs::Glyph;
use crate::game::board::art::Art;
use crate::game::board::layout::Layout;
use crate::game::screens::practice::{PracticeStore, now_ms};
use crate::game::state::{
    Files, Game, Message, MovePlayed, Phase, PlayMove, Prefs, Screen, Settled, Skip,
};
use crate::game::theme::bars;
use crate::game::theme::widget::{button, icon_button, small_button};
use crate::rules::{Move, presets};
use crate::session::{History, PUZZLES, PuzzleProgress, Seat, seat_at};

/// The computer's seat in a puzzle: it never thinks there (its replies are the line's), but a
/// level names it "the computer" on the board.
const OPPONENT: Seat = Seat::Computer(7);

/// The puzzle on the board and how far the player is in it.
#[derive(Resource, Default)]
pub struct PuzzleBoard {
    /// Index in the shipped set.
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
    /// The answer is lit on the board.
    pub show_answer: bool,
    /// The game on the board before the puzzles opened, put back after.
    stash: Option<History>,
    /// The player's own puzzles (mistakes to retry) in place of the shipped set, while
    /// practising them.
    pub own: Option<(Vec<Puzzle>, Vec<Line>)>,
}

impl PuzzleBoard {
    /// The puzzles played and their lines: the player's own, or the shipped set.
    fn set(&self) -> (&[Puzzle], &[Line]) {
        match &self.own {
            Some((puzzles, lines)) => (puzzles, lines),
            None => {
                let (file, lines) = PuzzleFile::shipped();
                (&file.puzzles, lines)
            }
        }
    }
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
}

/// The player's progress, as kept on disk.
#[derive(Resource, Default, Debug, Clone, PartialEq, Deref, DerefMut)]
pub struct Progress(pub PuzzleProgress);

#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub enum PuzzleAction {
    Back,
    /// The previous or next puzzle (of the chosen difficulty).
    Go(i8),
    Retry,
    Difficulty,
    Answer,
}

/// The caption's two lines: `Caption(0)` the first.
#[derive(Component)]
struct Caption(usize);
#[derive(Component, Clone)]
struct AnswerMark;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PuzzleBoard>()
        .init_resource::<Progress>();
    app.add_systems(
        OnEnter(Screen::Puzzles),
        (load_progress, enter, spawn).chain(),
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
            follow_up
                .run_if(in_state(Screen::Puzzles))
                .in_set(crate::game::state::GameSet::Think),
            (caption, mark_answer)
                .run_if(in_state(Screen::Puzzles))
                .run_if(
                    resource_changed::<PuzzleBoard>
                        .or_eager(resource_changed::<Prefs>)
                        .or_eager(resource_changed::<Phase>)
                        .or_eager(resource_changed::<Layout>),
                )
                .in_set(crate::game::state::GameSet::Show),
            save_progress.run_if(resource_changed::<Progress>),
        ),
    );
}

/// The puzzles of the chosen difficulty, by index in the set.
fn chosen(board: &PuzzleBoard) -> Vec<usize> {
    let (puzzles, _) = board.set();
    (0..puzzles.len())
        .filter(|&i| board.difficulty.is_none_or(|d| puzzles[i].difficulty == d))
        .collect()
}

fn load_progress(files: Option<Res<Files>>, mut progress: ResMut<Progress>) {
    let Some(files) = files else { return };
    // A file that does not read is set aside, and the count starts again.
    if let Ok(Some(text)) = files.config.read(PUZZLES) {
        match PuzzleProgress::from_ron(&text) {
            Ok(kept) => progress.0 = kept,
            Err(_) => {
                let _ = files.config.set_aside(PUZZLES);
            }
        }
    }
}

fn save_progress(progress: Res<Progress>, files: Option<Res<Files>>, mut message: ResMut<Message>) {
    let Some(files) = files else { return };
    if progress.is_added() {
        return;
    }
    if let Err(e) = files.config.write(PUZZLES, &progress.to_ron()) {
        message.set(crate::game::state::Note::text(
            "error.storage",
            &[("why", &e.to_string())],
        ));
    }
}

/// The player's own puzzles put in place of the shipped set, and the screen opened on them.
fn practise(
    practise: On<Practise>,
    store: Res<PracticeStore>,
    mut board: ResMut<PuzzleBoard>,
    mut next_screen: ResMut<NextState<Screen>>,
) {
    let given = &practise.event().0;
    let puzzles: Vec<Puzzle> = if given.is_empty() {
        store
            .due(now_ms())
            .into_iter()
            .map(|c| c.puzzle.clone())
            .collect()
    } else {
        given.clone()
    };
    // Each was checked against the rules as it was made; one that does not read is left out.
    let (puzzles, lines): (Vec<Puzzle>, Vec<Line>) = puzzles
        .into_iter()
        .filter_map(|p| p.line().ok().map(|line| (p, line)))
        .unzip();
    if puzzles.is_empty() {
        return;
    }
    board.own = Some((puzzles, lines));
    board.difficulty = None;
    next_screen.set(Screen::Puzzles);
}

/// Keep the game that was on the board, and put up the first puzzle not solved yet.
fn enter(
    mut commands: Commands,
    mut board: ResMut<PuzzleBoard>,
    mut game: ResMut<Game>,
    progress: Res<Progress>,
) {
    board.stash = Some(game.history.clone());
    let list = chosen(&board);
    let (puzzles, _) = board.set();
    // The player's own come in their order; of the shipped set, the first not solved.
    let first = list
        .iter()
        .copied()
        .find(|&i| board.own.is_some() || !progress.solved.contains(&puzzles[i].id))
        .or(list.first().copied())
        .unwrap_or(0);
    set_up(&mut commands, &mut board, &mut game, first);
}

fn leave(mut commands: Commands, mut board: ResMut<PuzzleBoard>, mut game: ResMut<Game>) {
    board.own = None;
    board.difficulty = None;
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
    mut progress: ResMut<Progress>,
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
    } else {
        board.said = Said::Wrong(points_lost(&step, mv) as f32);
        board.pending = Pending::TakeBack;
        board.missed = true;
        progress.missed();
    }
}

/// Once a move has been shown: the engine's reply, the next step, the end, or taking back.
fn follow_up(
    mut commands: Commands,
    mut board: ResMut<PuzzleBoard>,
    mut game: ResMut<Game>,
    mut phase: ResMut<Phase>,
    (mut progress, mut practice): (ResMut<Progress>, ResMut<PracticeStore>),
) {
    if *phase == Phase::Animating || board.pending == Pending::Nothing {
        return;
    }
    let (puzzles, lines) = board.set();
    let steps = lines.get(board.index).map_or(0, |l| l.steps.len());
    let id = puzzles.get(board.index).map(|p| p.id.clone());
    match board.pending {
        Pending::Reply(reply) => {
            board.pending = Pending::AfterReply;
            commands.trigger(PlayMove(reply));
        }
        Pending::AfterReply | Pending::Done => {
            board.pending = Pending::Nothing;
            board.step += 1;
            if board.step >= steps {
                board.said = Said::Solved;
                let (id, clean) = (id.unwrap_or_default(), !board.missed);
                if board.own.is_some() {
                    // Brought back by its schedule: later when solved at the first try.
                    practice.answer(&id, clean, now_ms());
                } else {
                    progress.solved_one(&id, clean);
                }
                // Solved: the board rests, no more moves.
                *phase = Phase::Over;
            } else {
                board.said = Said::Right;
            }
        }
        Pending::TakeBack => {
            board.pending = Pending::Nothing;
            let before = game.history.entries().len().saturating_sub(1);
            game.history = game.history.truncated(before);
            game.generation += 1;
            commands.trigger(Settled);
        }
        Pending::Nothing => {}
    }
}

/// A button of the puzzles pressed: its action carried out.
fn press(
    activate: On<crate::game::theme::press::Activate>,
    actions: Query<&PuzzleAction>,
    mut commands: Commands,
    mut board: ResMut<PuzzleBoard>,
    mut game: ResMut<Game>,
    mut next_screen: ResMut<NextState<Screen>>,
) {
    if let Ok(action) = actions.get(activate.entity) {
        act(
            *action,
            &mut commands,
            &mut board,
            &mut game,
            &mut next_screen,
        );
    }
}

/// Esc goes back to the title.
fn keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut commands: Commands,
    mut board: ResMut<PuzzleBoard>,
    mut game: ResMut<Game>,
    mut next_screen: ResMut<NextState<Screen>>,
) {
    if keys.just_pressed(KeyCode::Escape) {
        act(
            PuzzleAction::Back,
            &mut commands,
            &mut board,
            &mut game,
            &mut next_screen,
        );
    }
}

fn act(
    action: PuzzleAction,
    commands: &mut Commands,
    board: &mut PuzzleBoard,
    game: &mut Game,
    next_screen: &mut NextState<Screen>,
) {
    match action {
        PuzzleAction::Back => next_screen.set(Screen::Title),
        PuzzleAction::Go(step) => {
            let list = chosen(board);
            if list.is_empty() {
                return;
            }
            let here = list.iter().position(|&i| i == board.index).unwrap_or(0);
            let next = (here as isize + isize::from(step)).rem_euclid(list.len() as isize);
            commands.trigger(Skip);
            set_up(commands, board, game, list[next as usize]);
        }
        PuzzleAction::Retry => {
            let index = board.index;
            commands.trigger(Skip);
            set_up(commands, board, game, index);
        }
        PuzzleAction::Difficulty => {
            board.difficulty = match board.difficulty {
                None => Some(Difficulty::Easy),
                Some(Difficulty::Easy) => Some(Difficulty::Medium),
                Some(Difficulty::Medium) => Some(Difficulty::Hard),
                Some(Difficulty::Hard) => None,
            };
            let list = chosen(board);
            if let Some(&first) = list.first() {
                commands.trigger(Skip);
                set_up(commands, board, game, first);
            }
        }
        PuzzleAction::Answer => {
            board.show_answer = !board.show_answer;
            // Looking at the answer is not solving it at the first try.
            board.missed = true;
        }
    }
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
            bar.spawn(button(&art, PuzzleAction::Difficulty, ""));
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

/// The two lines of the caption: the puzzle and what to do or what happened; the progress.
fn caption(
    board: Res<PuzzleBoard>,
    (progress, practice): (Res<Progress>, Res<PracticeStore>),
    game: Res<Game>,
    prefs: Res<Prefs>,
    mut captions: Query<(&Caption, &mut Text)>,
    actions: Query<(&PuzzleAction, &Children)>,
    mut texts: Query<&mut Text, Without<Caption>>,
) {
    let lang = prefs.lang();
    let (puzzles, lines) = board.set();
    let Some(puzzle) = puzzles.get(board.index) else {
        return;
    };
    let steps = lines.get(board.index).map_or(1, |l| l.steps.len());
    let rules = presets::get(&puzzle.preset)
        .map_or(puzzle.preset.clone(), |p| lang.pick(&p.name).to_owned());
    let list = chosen(&board);
    let number = list
        .iter()
        .position(|&i| i == board.index)
        .map_or(0, |n| n + 1);
    let who = crate::game::board::text::who(&game, game.pos().to_move(), lang);
    let doing = match board.said {
        Said::Find if steps > 1 => lang.trf("puzzle.find_line", &[("n", &steps)]),
        Said::Find => lang.tr("puzzle.find").to_owned(),
        Said::Right => lang.trf("puzzle.right", &[("n", &(board.step + 1)), ("of", &steps)]),
        Said::Wrong(lost) => lang.trf("puzzle.wrong", &[("n", &format!("{lost:.0}"))]),
        Said::Solved if board.missed => lang.tr("puzzle.solved_late").to_owned(),
        Said::Solved => lang.tr("puzzle.solved").to_owned(),
    };
    let title = match board.own {
        Some(_) => lang.tr("practice.title"),
        None => lang.tr("puzzle.title"),
    };
    let head = format!(
        "{title} {number}/{} · {} · {rules}\n{doing}",
        list.len(),
        lang.tr(puzzle.difficulty.key()),
    );
    let (key, total) = match board.own {
        Some(_) => ("practice.progress", practice.due(now_ms()).len()),
        None => ("puzzle.progress", puzzles.len()),
    };
    let tail = lang.trf(
        key,
        &[
            ("solved", &progress.solved.len()),
            ("total", &total),
            ("streak", &progress.streak),
            ("best", &progress.best_streak),
            ("who", &who),
        ],
    );
    for (line, mut text) in &mut captions {
        let want = if line.0 == 0 { &head } else { &tail };
        if text.0 != *want {
            text.0.clone_from(want);
        }
    }
    let filter = match board.difficulty {
        None => lang.tr("puzzle.all"),
        Some(d) => lang.tr(d.key()),
    };
    for (action, children) in &actions {
        if *action != PuzzleAction::Difficulty {
            continue;
        }
        for &child in children {
            if let Ok(mut text) = texts.get_mut(child)
                && text.0 != filter
            {
                text.0 = filter.to_owned();
            }
        }
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
