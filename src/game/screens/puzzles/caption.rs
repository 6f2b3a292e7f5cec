//! The Puzzles screen's caption: which puzzle (its run, number, difficulty, theme, rules), what
//! to do or what happened, and the player's progress and rating; a Storm's clock.

use bevy::prelude::*;

use super::{Caption, Progress, PuzzleBoard, Run, Said, set::SetLoad};
use crate::game::board::layout::Layout;
use crate::game::screens::practice::{PracticeStore, now_ms};
use crate::game::state::{Game, Phase, Prefs, Screen};
use crate::rules::presets;
use crate::session::Lang;
use crate::session::puzzle_runs::date;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        caption
            .run_if(in_state(Screen::Puzzles))
            .run_if(
                resource_changed::<PuzzleBoard>
                    .or_eager(resource_changed::<Prefs>)
                    .or_eager(resource_changed::<Phase>)
                    .or_eager(resource_changed::<Layout>)
                    .or_eager(resource_changed::<SetLoad>)
                    // A Storm's clock is said each second.
                    .or_eager(|board: Res<PuzzleBoard>| board.run.is_storm_running()),
            )
            .in_set(crate::game::state::GameSet::Show),
    );
}

/// The two lines of the caption.
fn caption(
    board: Res<PuzzleBoard>,
    (progress, practice, load): (Res<Progress>, Res<PracticeStore>, Res<SetLoad>),
    game: Res<Game>,
    prefs: Res<Prefs>,
    mut captions: Query<(&Caption, &mut Text)>,
) {
    let lang = prefs.lang();
    let (head, tail) = match board.said {
        Said::Loading => (lang.tr("puzzle.loading").to_owned(), String::new()),
        Said::NoSet => {
            let why = match &*load {
                SetLoad::Failed(why) => why.as_str(),
                _ => "",
            };
            let text = lang.trf("puzzle.load_failed", &[("why", &why)]);
            (text, String::new())
        }
        _ => (
            head(&board, &progress, lang),
            tail(&board, &progress, &practice, &game, lang),
        ),
    };
    for (line, mut text) in &mut captions {
        let want = if line.0 == 0 { &head } else { &tail };
        if text.0 != *want {
            text.0.clone_from(want);
        }
    }
}

/// The first line: the puzzle and what to do or what happened.
fn head(board: &PuzzleBoard, progress: &Progress, lang: Lang) -> String {
    let (puzzles, lines) = board.set();
    let Some(puzzle) = puzzles.get(board.index) else {
        return String::new();
    };
    let steps = lines.get(board.index).map_or(1, |l| l.steps.len());
    let rules = presets::get(&puzzle.preset)
        .map_or(puzzle.preset.clone(), |p| lang.pick(&p.name).to_owned());
    let doing = match board.said {
        Said::Find if steps > 1 => lang.trf("puzzle.find_line", &[("n", &steps)]),
        Said::Find => lang.tr("puzzle.find").to_owned(),
        Said::Right => lang.trf("puzzle.right", &[("n", &(board.step + 1)), ("of", &steps)]),
        Said::Wrong(lost) => lang.trf("puzzle.wrong", &[("n", &format!("{lost:.0}"))]),
        Said::Solved if board.missed => lang.tr("puzzle.solved_late").to_owned(),
        Said::Solved => lang.tr("puzzle.solved").to_owned(),
        Said::StreakOver(n) => lang.trf("puzzle.streak_over", &[("n", &n)]),
        Said::StormOver(n) => lang.trf("puzzle.storm_over", &[("n", &n)]),
        Said::Loading | Said::NoSet => String::new(),
    };
    // What the puzzle is: its level, its main theme, its rating (the shipped ones: the
    // player's own are not rated), its rules.
    let mut what = vec![lang.tr(puzzle.difficulty.key()).to_owned()];
    what.extend(puzzle.theme().map(|t| lang.tr(t.key()).to_owned()));
    if board.own.is_none() {
        let rating = progress.rating.of(puzzle).rating.round() as i32;
        what.push(lang.trf("puzzle.rated", &[("n", &rating)]));
    }
    what.push(rules);
    let what = what.join(" · ");
    let run = match &board.run {
        _ if board.own.is_some() => {
            let list = super::runs::chosen(board, &progress.rating);
            let n = list
                .iter()
                .position(|&i| i == board.index)
                .map_or(0, |n| n + 1);
            format!("{} {n}/{}", lang.tr("practice.title"), list.len())
        }
        Run::Browse => {
            let list = super::runs::chosen(board, &progress.rating);
            let n = list
                .iter()
                .position(|&i| i == board.index)
                .map_or(0, |n| n + 1);
            let title = board
                .theme
                .map_or(lang.tr("puzzle.title"), |t| lang.tr(t.key()));
            format!("{title} {n}/{}", list.len())
        }
        Run::Daily(day) => lang.trf("puzzle.daily_of", &[("date", &date(*day))]),
        Run::Streak { list, .. } => {
            let n = list.iter().position(|&i| i == board.index).unwrap_or(0);
            lang.trf("puzzle.streak_head", &[("n", &n)])
        }
        Run::Storm { storm, .. } => {
            let left = storm.left_ms(now_ms()) / 1000;
            let clock = format!("{}:{:02}", left / 60, left % 60);
            lang.trf(
                "puzzle.storm_head",
                &[("clock", &clock), ("n", &storm.solved)],
            )
        }
    };
    format!("{run} · {what}\n{doing}")
}

/// The second line: whose move, and the progress of the run or of the set.
fn tail(
    board: &PuzzleBoard,
    progress: &Progress,
    practice: &PracticeStore,
    game: &Game,
    lang: Lang,
) -> String {
    let who = crate::game::board::text::who(game, game.pos().to_move(), lang);
    if board.own.is_some() {
        let total = practice.due(now_ms()).len();
        return lang.trf("practice.progress", &[("who", &who), ("total", &total)]);
    }
    let rating = progress.rating.rating();
    match &board.run {
        Run::Streak { .. } => lang.trf(
            "puzzle.streak_tail",
            &[
                ("who", &who),
                ("best", &progress.best_streak_run),
                ("rating", &rating),
            ],
        ),
        Run::Storm { .. } => lang.trf(
            "puzzle.storm_tail",
            &[
                ("who", &who),
                ("best", &progress.best_storm),
                ("rating", &rating),
            ],
        ),
        _ => lang.trf(
            "puzzle.progress",
            &[
                ("solved", &super::solved_of(board.set().0, progress)),
                ("total", &board.set().0.len()),
                ("streak", &progress.streak),
                ("best", &progress.best_streak),
                ("who", &who),
                ("rating", &rating),
            ],
        ),
    }
}
