//! In the browser: the puzzle on the board as attributes of the game's canvas, for the page
//! and for browser tests to read: `data-puzzle` (`own` or `set`, the puzzle's place and count,
//! the step of its line, and what the caption says: `own 2/5 step-1 find`) and `data-answer`,
//! the answer's move while it is lit on the board (as the player sees it).

use bevy::prelude::*;

use super::{PuzzleBoard, Said};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Last, publish.run_if(resource_changed::<PuzzleBoard>));
}

fn publish(board: Res<PuzzleBoard>) {
    let Some(canvas) = crate::game::platform::page::canvas() else {
        return;
    };
    let said = match board.said {
        Said::Find => "find",
        Said::Right => "right",
        Said::Wrong(_) => "wrong",
        Said::Solved => "solved",
        Said::Loading => "loading",
        Said::NoSet => "no-set",
        Said::StreakOver(_) | Said::StormOver(_) => "over",
    };
    let (puzzles, lines) = board.set();
    let kind = if board.own.is_some() { "own" } else { "set" };
    let place = format!(
        "{kind} {}/{} step-{} {said}",
        board.index + 1,
        puzzles.len(),
        board.step + 1
    );
    let answer = lines
        .get(board.index)
        .and_then(|l| l.steps.get(board.step))
        .filter(|_| board.show_answer)
        .map_or_else(String::new, |s| s.answer.to_string());
    // A page without the attributes loses nothing but the tests' view.
    let _ = canvas.set_attribute("data-puzzle", &place);
    let _ = canvas.set_attribute("data-answer", &answer);
}
