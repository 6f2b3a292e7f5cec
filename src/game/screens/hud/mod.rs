//! Everything around the board during a game: the button bar (menu, hint, undo, redo, moves,
//! skip), the message line, the thinking indicator, the table flip button, the list of moves
//! and the game-over panel. Every text follows the language setting at once.

mod bar;
mod game_over;
mod message;
mod moves;

use bevy::prelude::*;

use bar::{label_bar, place_flip_button, spawn_bar};
use game_over::game_over;
use message::{place_message, show_message, show_thinking, spawn_board_texts};
use moves::move_list;
pub(in crate::game) use moves::notation;

use crate::game::board::layout::Layout;
use crate::game::screens::actions::MovesShown;
use crate::game::state::{Game, Message, Phase, Prefs, Screen};

/// The row of the button bar: an online game adds its own buttons at its end.
#[derive(Component)]
pub struct HudRow;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_board_texts);
    app.add_systems(OnEnter(Screen::Playing), spawn_bar);
    // The message line speaks on the title screen too (a saved game that could not be read).
    app.add_systems(
        Update,
        place_message.in_set(crate::game::state::GameSet::Show),
    );
    app.add_systems(
        Update,
        show_message
            .run_if(
                resource_changed::<Message>
                    .or_eager(resource_changed::<Prefs>)
                    .or_eager(resource_changed::<Game>)
                    .or_eager(resource_changed::<Layout>)
                    .or_eager(state_changed::<Screen>),
            )
            .in_set(crate::game::state::GameSet::Show),
    );
    let game_or_phase = resource_changed::<Game>.or_eager(resource_changed::<Phase>);
    app.add_systems(
        Update,
        (
            label_bar.run_if(
                resource_changed::<Prefs>
                    .or_eager(game_or_phase.clone())
                    .or_eager(state_changed::<Screen>),
            ),
            show_thinking,
            place_flip_button,
            game_over.run_if(game_or_phase.clone().or_eager(resource_changed::<Prefs>)),
            move_list.run_if(
                game_or_phase
                    .or_eager(resource_changed::<Prefs>)
                    .or_eager(resource_changed::<MovesShown>),
            ),
        )
            .run_if(in_state(Screen::Playing))
            .in_set(crate::game::state::GameSet::Show),
    );
}
