//! The rules lesson: short examples on the board, each one move of a real game of the chosen
//! rule set shown by the same animation as play (a relay, a capture, a chain, the turn ending at
//! a mandarin pit or at two empty pits, a refill, the rule set's own rule), with a line that
//! says what happens. ‹ › go between examples; Replay shows the move again.

use std::time::Duration;

use bevy::prelude::*;

use crate::art::glyphs::Glyph;
use crate::game::board::art::Art;
use crate::game::state::{Game, Phase, PlayMove, Prefs, Screen, Settled, Skip, Wake};
use crate::game::theme::bars;
use crate::game::theme::widget::{icon_button, small_button};
use crate::rules::RuleSet;
use crate::session::lesson::{self, Example};
use crate::session::{History, Seat};

/// The pause before an example's move, so that the eye finds the board first.
const LEAD_IN: Duration = Duration::from_millis(900);

/// The screen to go back to from the lesson (it opens from the title and from the game).
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BackTo(pub Screen);

/// The examples and the one on the board.
#[derive(Resource, Default)]
pub struct Lesson {
    pub rules: Option<RuleSet>,
    pub preset: String,
    pub examples: Vec<Example>,
    pub index: usize,
    /// Counting down to the example's move.
    lead_in: Option<Timer>,
    /// The game on the board before the lesson, put back after.
    stash: Option<History>,
}

#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub enum LessonAction {
    Back,
    Go(i8),
    Replay,
}

/// The caption's two lines: `Caption(0)` the first.
#[derive(Component)]
struct Caption(usize);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Lesson>();
    app.add_systems(OnEnter(Screen::Lesson), (enter, spawn).chain());
    app.add_systems(OnExit(Screen::Lesson), leave);
    app.add_observer(press);
    app.add_systems(
        Update,
        (
            keys.in_set(crate::game::state::GameSet::Input),
            lead_in.in_set(crate::game::state::GameSet::Think),
            caption
                .run_if(resource_changed::<Lesson>.or_eager(resource_changed::<Prefs>))
                .in_set(crate::game::state::GameSet::Show),
        )
            .run_if(in_state(Screen::Lesson)),
    );
}

fn enter(
    mut commands: Commands,
    mut lesson: ResMut<Lesson>,
    mut game: ResMut<Game>,
    prefs: Res<Prefs>,
) {
    let rules = prefs.rules();
    if lesson.rules != Some(rules) {
        lesson.examples = lesson::examples(&rules);
        lesson.rules = Some(rules);
    }
    lesson.preset = prefs.preset().id.clone();
    lesson.stash = Some(game.history.clone());
    lesson.index = 0;
    show(&mut commands, &mut lesson, &mut game);
}

fn leave(mut commands: Commands, mut lesson: ResMut<Lesson>, mut game: ResMut<Game>) {
    lesson.lead_in = None;
    if let Some(history) = lesson.stash.take() {
        game.history = history;
        game.generation += 1;
        commands.trigger(Settled);
    }
}

/// The example's position on the board, its move to follow after the lead-in.
fn show(commands: &mut Commands, lesson: &mut Lesson, game: &mut Game) {
    let (Some(rules), Some(example)) = (lesson.rules, lesson.examples.get(lesson.index)) else {
        return;
    };
    let mut history = History::new(
        &lesson.preset,
        rules,
        vec![Seat::Human; usize::from(rules.players)],
    );
    for &mv in &example.moves {
        let _ = history.play(mv);
    }
    game.history = history;
    game.generation += 1;
    lesson.lead_in = Some(Timer::new(LEAD_IN, TimerMode::Once));
    commands.trigger(Skip);
    commands.trigger(Settled);
}

fn lead_in(
    mut commands: Commands,
    time: Res<Time>,
    mut lesson: ResMut<Lesson>,
    phase: Res<Phase>,
    mut wake: ResMut<Wake>,
) {
    let Some(timer) = lesson.lead_in.as_mut() else {
        return;
    };
    wake.busy();
    if *phase == Phase::Animating || !timer.tick(time.delta()).is_finished() {
        return;
    }
    lesson.lead_in = None;
    if let Some(example) = lesson.examples.get(lesson.index) {
        commands.trigger(PlayMove(example.mv));
    }
}

/// A button of the lesson pressed: its action carried out.
fn press(
    activate: On<crate::game::theme::press::Activate>,
    actions: Query<&LessonAction>,
    mut commands: Commands,
    mut lesson: ResMut<Lesson>,
    mut game: ResMut<Game>,
    back_to: Option<Res<BackTo>>,
    mut next_screen: ResMut<NextState<Screen>>,
) {
    if let Ok(action) = actions.get(activate.entity) {
        let back_to = back_to.map(|b| b.0);
        act(
            *action,
            &mut commands,
            &mut lesson,
            &mut game,
            back_to,
            &mut next_screen,
        );
    }
}

/// Esc goes back, ← and → step through the examples, space plays one again.
fn keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut commands: Commands,
    mut lesson: ResMut<Lesson>,
    mut game: ResMut<Game>,
    back_to: Option<Res<BackTo>>,
    mut next_screen: ResMut<NextState<Screen>>,
) {
    let back_to = back_to.map(|b| b.0);
    for (key, action) in [
        (KeyCode::Escape, LessonAction::Back),
        (KeyCode::ArrowLeft, LessonAction::Go(-1)),
        (KeyCode::ArrowRight, LessonAction::Go(1)),
        (KeyCode::Space, LessonAction::Replay),
    ] {
        if keys.just_pressed(key) {
            act(
                action,
                &mut commands,
                &mut lesson,
                &mut game,
                back_to,
                &mut next_screen,
            );
        }
    }
}

fn act(
    action: LessonAction,
    commands: &mut Commands,
    lesson: &mut Lesson,
    game: &mut Game,
    back_to: Option<Screen>,
    next_screen: &mut NextState<Screen>,
) {
    match action {
        LessonAction::Back => {
            next_screen.set(back_to.unwrap_or(Screen::Title));
        }
        LessonAction::Go(step) => {
            let n = lesson.examples.len().max(1) as isize;
            lesson.index = (lesson.index as isize + isize::from(step)).rem_euclid(n) as usize;
            show(commands, lesson, game);
        }
        LessonAction::Replay => show(commands, lesson, game),
    }
}

fn spawn(mut commands: Commands, art: Res<Art>, prefs: Res<Prefs>) {
    let lang = prefs.lang();
    commands
        .spawn((DespawnOnExit(Screen::Lesson), bars::top_bar()))
        .with_children(|bar| {
            bar.spawn(icon_button(
                &art,
                LessonAction::Back,
                Glyph::Back,
                lang.tr("lesson.back"),
            ));
            bar.spawn(small_button(&art, LessonAction::Go(-1), "‹"));
            bar.spawn(small_button(&art, LessonAction::Go(1), "›"));
            bar.spawn(icon_button(
                &art,
                LessonAction::Replay,
                Glyph::Again,
                lang.tr("lesson.replay"),
            ));
        });
    bars::bottom_caption(
        &mut commands,
        &art,
        DespawnOnExit(Screen::Lesson),
        Caption(0),
        Caption(1),
    );
}

fn caption(lesson: Res<Lesson>, prefs: Res<Prefs>, mut captions: Query<(&Caption, &mut Text)>) {
    let lang = prefs.lang();
    let Some(example) = lesson.examples.get(lesson.index) else {
        return;
    };
    let head = lang.trf(
        "lesson.title",
        &[("n", &(lesson.index + 1)), ("of", &lesson.examples.len())],
    );
    let body = match (example.topic, lesson.rules.and_then(|r| r.win_at)) {
        (lesson::Topic::WinningScore, Some(n)) => lang.trf(example.topic.key(), &[("n", &n)]),
        (topic, _) => lang.tr(topic.key()).to_owned(),
    };
    for (line, mut text) in &mut captions {
        let want = if line.0 == 0 { &head } else { &body };
        if text.0 != *want {
            text.0.clone_from(want);
        }
    }
}
