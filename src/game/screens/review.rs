//! The review of a finished game: the engine judges every move off the frame (a search a
//! move, in the thread pool or the web's thinking worker, with its progress shown), a graph of
//! the expected final margin after each move, the moves with their grades, and stepping through
//! the game on the board: forward animates the move as in play, back snaps, Play runs the game
//! at 0.5× to 4×, dragging along the graph scrubs, a click on a move jumps there, and the best
//! move can be lit and played out as a variation.

use bevy::prelude::*;
use bevy::ui::RelativeCursorPosition;
use web_time::Instant;

use crate::ai::Report;
use crate::ai::review::{self, MoveReview, Quality, Reviewer};
use crate::art::glyphs::Glyph;
use crate::game::board::art::{Art, PLAYER_COLOURS};
use crate::game::board::layout::Layout;
use crate::game::play::animation::Pace;
use crate::game::play::off_frame::{FRAME_SHARE, Job};
use crate::game::screens::hud::notation;
use crate::game::screens::ui::{self, bold, icon_button, small_button, text, text_in};
use crate::game::state::{
    AnalysedGame, Analysis, Game, Launch, Message, OpenReview, PanelRoom, Phase, PlayMove, Prefs,
    Screen, Settled, Skip, Wake, Working,
};
use crate::rules::Move;
use crate::session::{History, Lang};

/// The playback speeds, as multiples of the normal pace.
const SPEEDS: [f32; 4] = [0.5, 1.0, 2.0, 4.0];
/// The graph's scale: margins beyond this many points are drawn at the edge.
const GRAPH_POINTS: f64 = 30.0;
/// Moves the list shows around the current one.
const LIST_LINES: usize = 14;
/// Logical pixels kept clear under the board for the caption and the graph.
const PANEL_PX: f32 = 124.0;

/// A game's review: its moves, their judgements and where the board is in it.
#[derive(Resource, Default)]
pub struct Review {
    /// The whole game under review, as it was when the review opened.
    pub game: Option<History>,
    /// Moves of the game on the board now.
    pub at: usize,
    /// The engine's judgement of each move, as far as worked out.
    pub judged: Vec<MoveReview>,
    reviewer: Option<Reviewer>,
    /// The search judging the next move, off the frame.
    job: Option<Job<Report>>,
    /// The game is being played through, one move after another.
    pub playing: bool,
    /// Index in `SPEEDS`.
    pub speed: usize,
    /// The best move is lit on the board.
    pub show_best: bool,
    /// Moves played from `at` off the game's line (the engine's best).
    pub variation: Vec<Move>,
    /// The list of moves is shown.
    pub list_shown: bool,
}

impl Review {
    /// Moves in the game.
    fn len(&self) -> usize {
        self.game.as_ref().map_or(0, |g| g.entries().len())
    }

    /// Whether the engine is still at work.
    pub fn analysing(&self) -> bool {
        self.reviewer.is_some()
    }
}

/// A review button's meaning.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub enum ReviewAction {
    Back,
    Step(i8),
    Play,
    Speed(i8),
    Best,
    PlayBest,
    /// Jump to the position after this many moves.
    Jump(usize),
    /// Show or hide the list of moves.
    List,
}

#[derive(Component)]
struct Graph;
#[derive(Component)]
struct MoveList;
#[derive(Component)]
struct Caption;
#[derive(Component)]
struct ControlLabel(ReviewAction);
#[derive(Component, Clone)]
struct BestMark;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Review>();
    app.add_observer(open);
    app.add_systems(OnEnter(Screen::Review), spawn);
    app.add_systems(OnExit(Screen::Review), leave);
    app.add_systems(
        Update,
        (
            (press, keys, scrub)
                .run_if(in_state(Screen::Review))
                .in_set(crate::game::state::GameSet::Input),
            (analyse, autoplay)
                .run_if(in_state(Screen::Review))
                .in_set(crate::game::state::GameSet::Think),
            (
                rebuild,
                (draw_graph, draw_list, caption, label_controls, mark_best),
            )
                .chain()
                .run_if(in_state(Screen::Review))
                .run_if(
                    resource_changed::<Review>
                        .or_eager(resource_changed::<Phase>)
                        .or_eager(resource_changed::<Prefs>)
                        .or_eager(resource_changed::<Layout>),
                )
                .in_set(crate::game::state::GameSet::Show),
        ),
    );
}

fn open(
    _: On<OpenReview>,
    mut commands: Commands,
    game: Res<Game>,
    analysis: Res<Analysis>,
    mut review: ResMut<Review>,
    mut next_screen: ResMut<NextState<Screen>>,
) {
    if game.history.entries().is_empty() {
        return;
    }
    let history = game.history.clone();
    let moves: Vec<Move> = history.moves().collect();
    review.judged = analysis.of(&history).map(<[_]>::to_vec).unwrap_or_default();
    review.reviewer = if review.judged.len() == moves.len() {
        None
    } else {
        Reviewer::new(*history.start(), &moves, review::DEFAULT_DEPTH).ok()
    };
    review.job = None;
    review.at = moves.len();
    review.playing = false;
    review.show_best = false;
    review.variation.clear();
    review.speed = 1;
    review.game = Some(history);
    // A move still being shown ends now: the review starts from the board as it stands.
    commands.trigger(Skip);
    next_screen.set(Screen::Review);
}

/// Back to the game as it ended.
fn leave(
    mut commands: Commands,
    mut review: ResMut<Review>,
    mut game: ResMut<Game>,
    mut pace: ResMut<Pace>,
    mut message: ResMut<Message>,
    mut room: ResMut<PanelRoom>,
) {
    review.playing = false;
    review.reviewer = None;
    // Work still out is dropped: a pool task is cancelled, a worker stopped.
    review.job = None;
    pace.0 = 1.0;
    room.px = 0.0;
    if let Some(history) = review.game.take() {
        game.history = history;
        game.generation += 1;
        commands.trigger(Settled);
    }
    message.0.clear();
}

/// The engine judges the moves one search each, off the frame: in the thread pool, or on the
/// web in the thinking worker (in slices of the frame's share where there is none).
fn analyse(
    mut review: ResMut<Review>,
    mut analysis: ResMut<Analysis>,
    mut wake: ResMut<Wake>,
    mut working: ResMut<Working>,
    launch: Res<Launch>,
) {
    // The search's own progress is not news: the screen is redrawn only when a move is judged.
    let inner = review.bypass_change_detection();
    let Some(reviewer) = inner.reviewer.as_mut() else {
        working.set_if_neq(Working(false));
        return;
    };
    working.set_if_neq(Working(true));
    wake.busy();
    let started = Instant::now();
    let known = inner.judged.len().min(reviewer.reviewed().len());
    let mut place = "";
    // Quick searches finish several in a frame; the sliced ones share its time.
    loop {
        if inner.job.is_none() {
            inner.job = reviewer
                .next_search()
                .map(|search| Job::start(search, launch.sliced_ai));
        }
        let Some(job) = inner.job.as_mut() else { break };
        let left = FRAME_SHARE.saturating_sub(started.elapsed());
        let Some(report) = job.poll(left) else { break };
        place = job.place();
        inner.job = None;
        reviewer.judge(&report);
        if left.is_zero() {
            break;
        }
    }
    let done = reviewer.is_done();
    // Only the moves judged in this frame are copied (a frame judges a few).
    let judged_now = reviewer.reviewed().len() > known;
    inner
        .judged
        .extend_from_slice(&reviewer.reviewed()[known..]);
    if judged_now {
        show_progress(inner.judged.len(), reviewer.progress().1, place);
    }
    if done {
        inner.reviewer = None;
        if let Some(game) = &inner.game {
            analysis.0 = Some(AnalysedGame {
                start: *game.start(),
                moves: game.moves().collect(),
                judged: inner.judged.clone(),
            });
        }
    }
    if judged_now || done {
        review.set_changed();
    }
}

/// For the page and its tests: how far the analysis is, and where its last search ran
/// (`data-analysis="12 of 30 moves, worker"`).
fn show_progress(judged: usize, moves: usize, place: &str) {
    #[cfg(target_arch = "wasm32")]
    if let Some(canvas) = crate::game::platform::page::canvas() {
        let _ = canvas.set_attribute(
            "data-analysis",
            &format!("{judged} of {moves} moves, {place}"),
        );
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (judged, moves, place);
}

/// Put the board at `at` moves into the game, at once.
fn jump(commands: &mut Commands, review: &mut Review, game: &mut Game, at: usize) {
    let Some(full) = &review.game else { return };
    let at = at.min(full.entries().len());
    game.history = full.truncated(at);
    game.generation += 1;
    review.at = at;
    review.variation.clear();
    commands.trigger(Settled);
}

/// Show `mv` from the position on the board as in play. A move still being shown is put on
/// the board at once first (a snap, whose `Settled` runs before the move), so that the move is
/// always played on the position it belongs to.
fn show_move(
    commands: &mut Commands,
    review: &mut Review,
    game: &mut Game,
    phase: Phase,
    mv: Move,
) {
    if phase == Phase::Animating {
        let at = review.at;
        jump(commands, review, game, at);
    }
    commands.trigger(PlayMove(mv));
}

/// One move forward, shown as in play.
fn forward(commands: &mut Commands, review: &mut Review, game: &mut Game, phase: Phase) {
    if !review.variation.is_empty() {
        return;
    }
    let Some(mv) = review
        .game
        .as_ref()
        .and_then(|g| g.entries().get(review.at))
        .map(|e| e.mv)
    else {
        review.playing = false;
        return;
    };
    show_move(commands, review, game, phase, mv);
    review.at += 1;
}

fn act(
    commands: &mut Commands,
    action: ReviewAction,
    review: &mut Review,
    game: &mut Game,
    phase: Phase,
    pace: &mut Pace,
    next_screen: &mut NextState<Screen>,
) {
    match action {
        ReviewAction::Back => next_screen.set(Screen::Playing),
        ReviewAction::Step(1) => {
            review.playing = false;
            forward(commands, review, game, phase);
        }
        ReviewAction::Step(_) => {
            review.playing = false;
            let back = if review.variation.is_empty() {
                review.at.saturating_sub(1)
            } else {
                review.at
            };
            jump(commands, review, game, back);
        }
        ReviewAction::Play => {
            review.playing = !review.playing;
            if review.playing && review.at >= review.len() {
                jump(commands, review, game, 0);
            }
        }
        ReviewAction::Speed(step) => {
            let n = SPEEDS.len() as isize;
            review.speed = (review.speed as isize + isize::from(step)).clamp(0, n - 1) as usize;
            pace.0 = SPEEDS[review.speed];
        }
        ReviewAction::Best => review.show_best = !review.show_best,
        ReviewAction::PlayBest => {
            let best = review.judged.get(review.at).map(|m| m.best);
            if let Some(best) = best.filter(|_| review.variation.is_empty()) {
                review.playing = false;
                show_move(commands, review, game, phase, best);
                review.variation.push(best);
            }
        }
        ReviewAction::Jump(at) => {
            review.playing = false;
            jump(commands, review, game, at);
        }
        ReviewAction::List => review.list_shown = !review.list_shown,
    }
}

fn press(
    mut commands: Commands,
    buttons: Query<(&Interaction, &ReviewAction), Changed<Interaction>>,
    mut review: ResMut<Review>,
    mut game: ResMut<Game>,
    phase: Res<Phase>,
    mut pace: ResMut<Pace>,
    mut next_screen: ResMut<NextState<Screen>>,
) {
    for (interaction, action) in &buttons {
        if *interaction == Interaction::Pressed {
            commands.trigger(crate::game::play::sound::Sfx::Click);
            act(
                &mut commands,
                *action,
                &mut review,
                &mut game,
                *phase,
                &mut pace,
                &mut next_screen,
            );
        }
    }
}

/// ← and → step, space plays or pauses, B lights the best move, Esc goes back to the game.
fn keys(
    mut commands: Commands,
    input: Res<ButtonInput<KeyCode>>,
    mut review: ResMut<Review>,
    mut game: ResMut<Game>,
    phase: Res<Phase>,
    mut pace: ResMut<Pace>,
    mut next_screen: ResMut<NextState<Screen>>,
) {
    for (key, action) in [
        (KeyCode::ArrowRight, ReviewAction::Step(1)),
        (KeyCode::ArrowLeft, ReviewAction::Step(-1)),
        (KeyCode::Space, ReviewAction::Play),
        (KeyCode::KeyB, ReviewAction::Best),
        (KeyCode::Escape, ReviewAction::Back),
        (KeyCode::Home, ReviewAction::Jump(0)),
        (KeyCode::End, ReviewAction::Jump(usize::MAX)),
    ] {
        if input.just_pressed(key) {
            act(
                &mut commands,
                action,
                &mut review,
                &mut game,
                *phase,
                &mut pace,
                &mut next_screen,
            );
        }
    }
}

/// Pressing or dragging along the graph puts the board at the move under the pointer.
fn scrub(
    mut commands: Commands,
    graph: Query<(&Interaction, &RelativeCursorPosition), With<Graph>>,
    mut review: ResMut<Review>,
    mut game: ResMut<Game>,
) {
    let Ok((interaction, cursor)) = graph.single() else {
        return;
    };
    if *interaction != Interaction::Pressed {
        return;
    }
    let Some(at) = cursor.normalized else { return };
    let len = review.len();
    // Column k (from 0) stands for the position after k + 1 moves; left of the first, the start.
    let x = (at.x + 0.5).clamp(0.0, 1.0);
    let target = ((x * len as f32).floor() as usize + 1).min(len);
    let target = if x < 0.5 / len.max(1) as f32 {
        0
    } else {
        target
    };
    if target != review.at || !review.variation.is_empty() {
        review.playing = false;
        jump(&mut commands, &mut review, &mut game, target);
    }
}

/// Play on through the game while Play is on: the next move once the last has been shown.
fn autoplay(
    mut commands: Commands,
    mut review: ResMut<Review>,
    mut game: ResMut<Game>,
    phase: Res<Phase>,
    mut wake: ResMut<Wake>,
) {
    if !review.playing {
        return;
    }
    wake.busy();
    if *phase == Phase::Animating {
        return;
    }
    if review.at >= review.len() {
        review.playing = false;
        return;
    }
    forward(&mut commands, &mut review, &mut game, *phase);
}

/// Whether the screen was built for a window taller than wide (the transport row under the
/// board) or not (every control in the top bar).
#[derive(Resource, Default, Clone, Copy, PartialEq)]
struct BuiltTall(bool);

/// Every node of the screen, to build it again when the window turns.
#[derive(Component)]
struct ReviewUi;

fn spawn(
    mut commands: Commands,
    art: Res<Art>,
    prefs: Res<Prefs>,
    layout: Res<Layout>,
    mut review: ResMut<Review>,
    mut room: ResMut<PanelRoom>,
) {
    let tall = layout.tall_window();
    // On a phone held upright the list would cover the board: it waits for its button.
    review.list_shown = !tall;
    room.px = panel_px(tall);
    build(&mut commands, &art, prefs.lang(), tall);
    commands.insert_resource(BuiltTall(tall));
}

/// Logical pixels kept clear under the board: the caption and the graph, and on a tall window
/// the transport row too.
fn panel_px(tall: bool) -> f32 {
    if tall { PANEL_PX + 52.0 } else { PANEL_PX }
}

/// The window turned: the controls move between the top bar and the bottom panel.
fn rebuild(
    mut commands: Commands,
    art: Res<Art>,
    prefs: Res<Prefs>,
    layout: Res<Layout>,
    built: Option<Res<BuiltTall>>,
    mut room: ResMut<PanelRoom>,
    nodes: Query<Entity, With<ReviewUi>>,
) {
    let tall = layout.tall_window();
    if built.is_none_or(|b| b.0 == tall) {
        return;
    }
    for node in &nodes {
        commands.entity(node).despawn();
    }
    room.px = panel_px(tall);
    build(&mut commands, &art, prefs.lang(), tall);
    commands.insert_resource(BuiltTall(tall));
}

/// ‹ › Play, and the speed.
fn transport(bar: &mut ChildSpawnerCommands, art: &Art, lang: Lang) {
    bar.spawn(small_button(art, ReviewAction::Step(-1), "‹"));
    bar.spawn(small_button(art, ReviewAction::Step(1), "›"));
    bar.spawn((
        icon_button(art, ReviewAction::Play, Glyph::Play, lang.tr("review.play")),
        ControlLabel(ReviewAction::Play),
    ));
    bar.spawn(small_button(art, ReviewAction::Speed(-1), "-"));
    bar.spawn((text(art, "1×", 18.0), ControlLabel(ReviewAction::Speed(0))));
    bar.spawn(small_button(art, ReviewAction::Speed(1), "+"));
}

fn build(commands: &mut Commands, art: &Art, lang: Lang, tall: bool) {
    commands
        .spawn((ReviewUi, DespawnOnExit(Screen::Review), ui::top_bar()))
        .with_children(|bar| {
            bar.spawn(icon_button(
                art,
                ReviewAction::Back,
                Glyph::Back,
                lang.tr("review.back"),
            ));
            bar.spawn(icon_button(
                art,
                ReviewAction::List,
                Glyph::Moves,
                lang.tr("hud.moves"),
            ));
            if !tall {
                transport(bar, art, lang);
            }
            bar.spawn((
                icon_button(
                    art,
                    ReviewAction::Best,
                    Glyph::Target,
                    lang.tr("review.best"),
                ),
                ControlLabel(ReviewAction::Best),
            ));
            bar.spawn((
                icon_button(
                    art,
                    ReviewAction::PlayBest,
                    Glyph::PlayIt,
                    lang.tr("review.play_best"),
                ),
                ControlLabel(ReviewAction::PlayBest),
            ));
        });
    // Along the bottom: (the transport,) what the move was worth, then the graph.
    commands
        .spawn((
            ReviewUi,
            DespawnOnExit(Screen::Review),
            Node {
                position_type: PositionType::Absolute,
                left: px(8),
                right: px(8),
                bottom: px(8),
                flex_direction: FlexDirection::Column,
                row_gap: px(4),
                ..default()
            },
        ))
        .with_children(|b| {
            if tall {
                b.spawn(Node {
                    justify_content: JustifyContent::Center,
                    ..ui::row()
                })
                .with_children(|bar| transport(bar, art, lang));
            }
            b.spawn((
                Caption,
                text(art, "", 17.0),
                TextLayout::justify(Justify::Center),
            ));
            b.spawn((
                Graph,
                Button,
                ui::OwnColours,
                RelativeCursorPosition::default(),
                Node {
                    height: px(84),
                    width: percent(100),
                    flex_direction: FlexDirection::Row,
                    align_items: AlignItems::Stretch,
                    border_radius: BorderRadius::all(px(8)),
                    overflow: Overflow::clip(),
                    ..default()
                },
                BackgroundColor(Color::srgba(0.10, 0.06, 0.03, 0.85)),
            ));
        });
    commands.spawn((
        ReviewUi,
        MoveList,
        DespawnOnExit(Screen::Review),
        Node {
            position_type: PositionType::Absolute,
            left: px(8),
            top: px(if tall { 112 } else { 64 }),
            flex_direction: FlexDirection::Column,
            padding: UiRect::all(px(10)),
            row_gap: px(1),
            min_width: px(170),
            border_radius: BorderRadius::all(px(12)),
            ..default()
        },
        BackgroundColor(Color::srgba(0.10, 0.06, 0.03, 0.85)),
        GlobalZIndex(5),
    ));
}

/// The colour a grade is shown in.
fn quality_colour(quality: Quality) -> Color {
    match quality {
        Quality::Best | Quality::Good => Color::srgb(0.75, 0.90, 0.65),
        Quality::Inaccuracy => Color::srgb(0.98, 0.85, 0.45),
        Quality::Mistake => Color::srgb(0.98, 0.62, 0.30),
        Quality::Blunder => Color::srgb(0.98, 0.40, 0.35),
    }
}

/// The mark after a move in the list: nothing for a good move.
fn quality_mark(quality: Quality) -> &'static str {
    match quality {
        Quality::Best | Quality::Good => "",
        Quality::Inaccuracy => " ?!",
        Quality::Mistake => " ?",
        Quality::Blunder => " ??",
    }
}

fn quality_key(quality: Quality) -> &'static str {
    match quality {
        Quality::Best => "review.q.best",
        Quality::Good => "review.q.good",
        Quality::Inaccuracy => "review.q.inaccuracy",
        Quality::Mistake => "review.q.mistake",
        Quality::Blunder => "review.q.blunder",
    }
}

/// One column a move: up in the first player's colour while they are expected to win by that
/// much, down in the other's; the column of the position on the board is lit.
fn draw_graph(mut commands: Commands, review: Res<Review>, graph: Query<Entity, With<Graph>>) {
    let Ok(graph) = graph.single() else { return };
    commands.entity(graph).despawn_children();
    let len = review.len().max(1);
    let width = 100.0 / len as f32;
    let three = review
        .game
        .as_ref()
        .is_some_and(|g| g.position().players() > 2);
    commands.entity(graph).with_children(|g| {
        // The even line: above it the first player leads, below it the other.
        g.spawn((
            Node {
                position_type: PositionType::Absolute,
                left: px(0),
                right: px(0),
                top: percent(50),
                height: px(1),
                ..default()
            },
            BackgroundColor(Color::srgba(1.0, 1.0, 1.0, 0.35)),
        ));
        for k in 0..len {
            let judged = review.judged.get(k);
            // On the 3-player board, the mover's own margin over the others.
            let (value, colour) = match judged {
                Some(m) if three => (m.margin_for(m.player), PLAYER_COLOURS[m.seat]),
                Some(m) if m.margin_for(0) >= 0.0 => (m.margin_for(0), PLAYER_COLOURS[0]),
                Some(m) => (m.margin_for(0), PLAYER_COLOURS[1]),
                None => (0.0, Color::NONE),
            };
            let share = (value.abs() / GRAPH_POINTS).min(1.0) as f32 * 50.0;
            let current = k + 1 == review.at;
            let column = if current {
                Color::srgba(1.0, 1.0, 1.0, 0.18)
            } else {
                Color::NONE
            };
            let bar = colour.with_alpha(if current { 1.0 } else { 0.8 });
            let (top, bottom) = if value >= 0.0 {
                (50.0 - share, 50.0)
            } else {
                (50.0, 50.0 - share)
            };
            g.spawn((
                Node {
                    width: percent(width),
                    height: percent(100),
                    ..default()
                },
                BackgroundColor(column),
            ))
            .with_children(|c| {
                c.spawn((
                    Node {
                        position_type: PositionType::Absolute,
                        left: percent(8),
                        right: percent(8),
                        top: percent(top),
                        bottom: percent(bottom),
                        ..default()
                    },
                    BackgroundColor(bar),
                ));
                if let Some(m) = judged.filter(|m| m.quality >= Quality::Mistake) {
                    // A dot on the mistakes, in their grade's colour.
                    c.spawn((
                        Node {
                            position_type: PositionType::Absolute,
                            left: percent(20),
                            right: percent(20),
                            bottom: px(2),
                            height: px(5),
                            border_radius: BorderRadius::all(px(3)),
                            ..default()
                        },
                        BackgroundColor(quality_colour(m.quality)),
                    ));
                }
            });
        }
    });
}

/// The moves around the current one, each with its grade; a click jumps there.
fn draw_list(
    mut commands: Commands,
    review: Res<Review>,
    prefs: Res<Prefs>,
    layout: Res<Layout>,
    art: Res<Art>,
    list: Query<Entity, With<MoveList>>,
) {
    let Ok(list) = list.single() else { return };
    commands.entity(list).despawn_children();
    let shown = if review.list_shown {
        Display::Flex
    } else {
        Display::None
    };
    commands
        .entity(list)
        .entry::<Node>()
        .and_modify(move |mut node| {
            node.display = shown;
        });
    let Some(game) = &review.game else { return };
    let lang = prefs.lang();
    let entries = game.entries();
    let first = review
        .at
        .saturating_sub(LIST_LINES / 2)
        .min(entries.len().saturating_sub(LIST_LINES));
    let progress = if review.analysing() {
        lang.trf(
            "review.analysing",
            &[("done", &review.judged.len()), ("total", &entries.len())],
        )
    } else {
        lang.tr("review.title").to_owned()
    };
    commands.entity(list).with_children(|l| {
        l.spawn(bold(&art, progress, 16.0));
        let start = lang.tr("review.start");
        l.spawn((
            Button,
            ui::OwnColours,
            ReviewAction::Jump(0),
            Node {
                padding: UiRect::axes(px(4), px(1)),
                ..default()
            },
            BackgroundColor(if review.at == 0 {
                Color::srgba(1.0, 1.0, 1.0, 0.15)
            } else {
                Color::NONE
            }),
            children![text(&art, start, 14.0)],
        ));
        for (i, entry) in entries.iter().enumerate().skip(first).take(LIST_LINES) {
            let judged = review.judged.get(i);
            let mark = judged.map_or("", |m| quality_mark(m.quality));
            let line = format!("{}. {}{mark}", i + 1, move_name(&layout, entry.mv, lang));
            let colour = judged.map_or(PLAYER_COLOURS[entry.side].lighter(0.3), |m| {
                if m.quality >= Quality::Inaccuracy {
                    quality_colour(m.quality)
                } else {
                    PLAYER_COLOURS[entry.side].lighter(0.3)
                }
            });
            l.spawn((
                Button,
                ui::OwnColours,
                ReviewAction::Jump(i + 1),
                Node {
                    padding: UiRect::axes(px(4), px(1)),
                    border_radius: BorderRadius::all(px(4)),
                    ..default()
                },
                BackgroundColor(if review.at == i + 1 {
                    Color::srgba(1.0, 1.0, 1.0, 0.15)
                } else {
                    Color::NONE
                }),
                children![text_in(&art, line, 14.0, colour)],
            ));
        }
    });
}

/// A move as the list and the caption name it.
fn move_name(layout: &Layout, mv: Move, lang: Lang) -> String {
    match mv {
        Move::Swap => lang.tr("review.swap").to_owned(),
        Move::Sow { .. } => notation(layout, mv),
    }
}

/// Who was ahead after the move, and by how much.
fn margin_words(m: &MoveReview, game: &Game, lang: Lang) -> String {
    let margin = m.margin_for(m.player);
    let n = margin.abs().round();
    let who = crate::game::board::text::who(game, m.seat, lang);
    if n == 0.0 {
        lang.tr("margin.even").to_owned()
    } else if margin > 0.0 {
        lang.trf("review.ahead", &[("who", &who), ("n", &n)])
    } else {
        lang.trf("review.behind", &[("who", &who), ("n", &n)])
    }
}

/// The line above the graph: the move that led here, its grade and what was best.
fn caption(
    review: Res<Review>,
    game: Res<Game>,
    prefs: Res<Prefs>,
    layout: Res<Layout>,
    mut texts: Query<&mut Text, With<Caption>>,
) {
    let lang = prefs.lang();
    let said = if let Some(&mv) = review.variation.first() {
        lang.trf("review.variation", &[("mv", &move_name(&layout, mv, lang))])
    } else if review.at == 0 {
        lang.tr("review.at_start").to_owned()
    } else {
        let Some(full) = &review.game else { return };
        let entry = full.entries()[review.at - 1];
        let who = crate::game::board::text::who(&game, entry.side, lang);
        let played = move_name(&layout, entry.mv, lang);
        match review.judged.get(review.at - 1) {
            None => lang.trf(
                "review.move_waiting",
                &[("n", &review.at), ("who", &who), ("mv", &played)],
            ),
            Some(m) => {
                let mut line = lang.trf(
                    "review.move",
                    &[
                        ("n", &review.at),
                        ("who", &who),
                        ("mv", &played),
                        ("grade", &lang.tr(quality_key(m.quality))),
                    ],
                );
                if m.quality != Quality::Best {
                    line += &lang.trf(
                        "review.gave",
                        &[
                            ("n", &format!("{:.1}", m.loss())),
                            ("best", &move_name(&layout, m.best, lang)),
                        ],
                    );
                }
                line + " · " + &margin_words(m, &game, lang)
            }
        }
    };
    for mut text in &mut texts {
        if text.0 != said {
            text.0.clone_from(&said);
        }
    }
}

/// The buttons that change with the review: Play or Pause, the speed, and the best-move ones
/// dimmed where there is no judged move to show.
fn label_controls(
    review: Res<Review>,
    prefs: Res<Prefs>,
    art: Res<Art>,
    controls: Query<(Entity, &ControlLabel, Option<&Children>)>,
    mut backgrounds: Query<&mut BackgroundColor, With<ReviewAction>>,
    mut texts: Query<&mut Text>,
    mut pictures: Query<&mut ImageNode, With<ui::ButtonGlyph>>,
) {
    let lang = prefs.lang();
    let has_best = review.judged.get(review.at).is_some() && review.variation.is_empty();
    // Play's picture turns to Pause with its word (on a phone the picture is all there is).
    let play_picture = art.glyph(match review.playing {
        true => Glyph::Pause,
        false => Glyph::Play,
    });
    for (entity, label, children) in &controls {
        let word = match label.0 {
            ReviewAction::Play if review.playing => lang.tr("review.pause").to_owned(),
            ReviewAction::Play => lang.tr("review.play").to_owned(),
            ReviewAction::Speed(_) => format!("{}×", SPEEDS[review.speed]),
            ReviewAction::Best if review.show_best => lang.tr("review.hide_best").to_owned(),
            ReviewAction::Best => lang.tr("review.best").to_owned(),
            _ => lang.tr("review.play_best").to_owned(),
        };
        // The speed is a text of its own; the buttons hold theirs in a child.
        let targets: Vec<Entity> = children.map_or(vec![entity], |c| c.iter().collect());
        for target in targets {
            if let Ok(mut text) = texts.get_mut(target)
                && text.0 != word
            {
                text.0.clone_from(&word);
            }
            if label.0 == ReviewAction::Play
                && let Ok(mut image) = pictures.get_mut(target)
                && image.image != play_picture
            {
                image.image = play_picture.clone();
            }
        }
        if matches!(label.0, ReviewAction::Best | ReviewAction::PlayBest)
            && let Ok(mut colour) = backgrounds.get_mut(entity)
        {
            let shade = if has_best { ui::BUTTON } else { ui::BUTTON_OFF };
            colour.set_if_neq(BackgroundColor(shade));
        }
    }
}

/// Light the best move's pit and arrow while asked to, at rest on a judged position.
fn mark_best(
    mut commands: Commands,
    review: Res<Review>,
    phase: Res<Phase>,
    layout: Res<Layout>,
    art: Res<Art>,
    marks: Query<Entity, With<BestMark>>,
) {
    for mark in &marks {
        commands.entity(mark).despawn();
    }
    if !review.show_best || *phase == Phase::Animating || !review.variation.is_empty() {
        return;
    }
    if let Some(best) = review.judged.get(review.at).map(|m| m.best) {
        let tag = (BestMark, DespawnOnExit(Screen::Review));
        crate::game::play::ai_turn::mark_move(&mut commands, &art, &layout, best, 0.2, tag);
    }
}
