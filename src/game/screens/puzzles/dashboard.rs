//! The puzzles' dashboard, a panel over the board: the player's rating and its graph, the ways
//! to play (the daily puzzle, Streak, Storm, every puzzle, the player's own mistakes due, a
//! difficulty) and every theme with
//! what was solved of it, the weakest marked.

use bevy::prelude::*;

use super::set::SetLoad;
use super::{Progress, PuzzleAction, PuzzleBoard};
use crate::ai::theme::Theme;
use crate::game::board::art::Art;
use crate::game::screens::practice::{PracticeStore, now_ms};
use crate::game::state::{Prefs, Screen};
use crate::game::theme::widget::{self, button, row};
use crate::session::puzzle_runs::day_of;
use crate::session::{Lang, PuzzleRating};

/// Days the graph shows.
const GRAPH_DAYS: usize = 30;
/// Tries of a theme before it may be called weak.
const WEAK_AFTER: u32 = 3;

/// The dashboard shows.
#[derive(Resource, Default, Debug, PartialEq)]
pub struct MenuOpen(pub bool);

#[derive(Component)]
struct DashboardRoot;

/// A bar of the rating's graph.
#[derive(Component)]
pub struct RatingBar;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MenuOpen>();
    app.add_systems(OnExit(Screen::Puzzles), |mut open: ResMut<MenuOpen>| {
        open.0 = false
    });
    app.add_systems(
        Update,
        show.run_if(in_state(Screen::Puzzles))
            .run_if(
                resource_changed::<MenuOpen>
                    .or_eager(resource_changed::<Progress>)
                    .or_eager(resource_changed::<Prefs>)
                    .or_eager(resource_changed::<SetLoad>),
            )
            .in_set(crate::game::state::GameSet::Show),
    );
}

fn show(
    mut commands: Commands,
    open: Res<MenuOpen>,
    (progress, board, load): (Res<Progress>, Res<PuzzleBoard>, Res<SetLoad>),
    (prefs, practice): (Res<Prefs>, Res<PracticeStore>),
    art: Res<Art>,
    roots: Query<Entity, With<DashboardRoot>>,
) {
    for root in &roots {
        commands.entity(root).despawn();
    }
    if !open.0 {
        return;
    }
    let lang = prefs.lang();
    let due = practice.due(now_ms()).len();
    commands
        .spawn((
            DashboardRoot,
            DespawnOnExit(Screen::Puzzles),
            widget::backdrop(0.55),
        ))
        .with_children(|b| {
            b.spawn(widget::panel(620.0)).with_children(|p| {
                p.spawn(widget::title(&art, lang.tr("puzzle.menu"), 26.0));
                let shipped = load.ready().map_or(&[][..], |set| &set.0.0.puzzles[..]);
                let counts = (super::solved_of(shipped, &progress), shipped.len());
                rating(p, &art, &progress, counts, lang);
                graph(p, &progress.rating);
                ways(p, &art, (&progress, &board, due), lang);
                themes(p, &art, &progress.rating, lang);
                p.spawn(button(&art, PuzzleAction::Menu, lang.tr("puzzle.close")));
            });
        });
}

/// The rating, how sure it is, and what was solved.
fn rating(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    progress: &Progress,
    (solved, total): (usize, usize),
    lang: Lang,
) {
    let rated = &progress.rating;
    let line = lang.trf(
        "puzzle.rating_line",
        &[
            ("rating", &rated.rating()),
            ("sure", &(rated.player.deviation.round() as i32)),
            ("solved", &solved),
            ("total", &total),
        ],
    );
    p.spawn(widget::text(art, line, 18.0));
    if let (Some(first), Some(last)) = (rated.history.first(), rated.history.last()) {
        let over = lang.trf(
            "puzzle.rating_over",
            &[
                ("days", &rated.history.len()),
                ("from", &first.1),
                ("to", &last.1),
            ],
        );
        p.spawn(widget::text(art, over, 15.0));
    }
}

/// The rating of the last days played as bars, the lowest a tenth of the highest's height.
fn graph(p: &mut ChildSpawnerCommands, rated: &PuzzleRating) {
    let days = &rated.history[rated.history.len().saturating_sub(GRAPH_DAYS)..];
    if days.len() < 2 {
        return;
    }
    let low = days.iter().map(|d| d.1).min().unwrap_or(0);
    let high = days.iter().map(|d| d.1).max().unwrap_or(0).max(low + 1);
    p.spawn(Node {
        flex_direction: FlexDirection::Row,
        align_items: AlignItems::FlexEnd,
        column_gap: px(3),
        height: px(64),
        ..default()
    })
    .with_children(|g| {
        for &(_, value) in days {
            let share = 0.1 + 0.9 * f64::from(value - low) / f64::from(high - low);
            g.spawn((
                RatingBar,
                Node {
                    width: px(10),
                    height: percent((share * 100.0) as f32),
                    border_radius: BorderRadius::all(px(3)),
                    ..default()
                },
                BackgroundColor(crate::game::theme::palette::RIM),
            ));
        }
    });
}

/// The ways to play: the daily puzzle, Streak, Storm, every puzzle, a difficulty.
fn ways(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    (progress, board, due): (&Progress, &PuzzleBoard, usize),
    lang: Lang,
) {
    let today = day_of(now_ms());
    let daily = if progress.daily.contains(&today) {
        lang.tr("puzzle.daily_done")
    } else {
        lang.tr("puzzle.daily")
    };
    let level = board
        .difficulty
        .map_or(lang.tr("puzzle.all"), |d| lang.tr(d.key()));
    let difficulty = lang.trf("puzzle.level", &[("level", &level)]);
    p.spawn(row()).with_children(|r| {
        r.spawn(button(art, PuzzleAction::Daily, daily));
        r.spawn(button(
            art,
            PuzzleAction::Streak,
            lang.trf("puzzle.streak", &[("best", &progress.best_streak_run)]),
        ));
        r.spawn(button(
            art,
            PuzzleAction::Storm,
            lang.trf("puzzle.storm", &[("best", &progress.best_storm)]),
        ));
        r.spawn(button(
            art,
            PuzzleAction::Browse(None),
            lang.tr("puzzle.every"),
        ));
        if due > 0 {
            r.spawn(button(
                art,
                PuzzleAction::Practice,
                lang.trf("title.practice", &[("n", &due)]),
            ));
        }
        r.spawn(button(art, PuzzleAction::Difficulty, difficulty));
    });
}

/// Every theme: what was solved of it at the first try, the weakest two marked; pressing one
/// plays its puzzles.
fn themes(p: &mut ChildSpawnerCommands, art: &Art, rated: &PuzzleRating, lang: Lang) {
    p.spawn(widget::bold(art, lang.tr("puzzle.by_theme"), 18.0));
    let weakest: Vec<Theme> = rated
        .weakest(WEAK_AFTER)
        .into_iter()
        .filter(|(_, c)| c.solved < c.tried)
        .take(2)
        .map(|(t, _)| t)
        .collect();
    p.spawn(row()).with_children(|r| {
        for theme in Theme::ALL {
            let count = rated.themes.get(&theme).copied().unwrap_or_default();
            let mut label = lang.trf(
                "puzzle.theme_count",
                &[
                    ("theme", &lang.tr(theme.key())),
                    ("solved", &count.solved),
                    ("tried", &count.tried),
                ],
            );
            if weakest.contains(&theme) {
                label = format!("{label} · {}", lang.tr("puzzle.weakest"));
            }
            r.spawn(button(art, PuzzleAction::Browse(Some(theme)), label));
        }
    });
}
