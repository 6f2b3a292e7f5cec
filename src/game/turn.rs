//! The turn flow: a chosen move goes through the rules, its events go to the animation, and
//! when they have been shown the board is snapped to the rules state and the next turn begins.

use bevy::prelude::*;

use super::animation::Script;
use super::art::Art;
use super::pebbles::{self, Places};
use super::state::{Game, Message, MoveShown, NewGame, Phase, PlayMove, Settings, Speed};
use crate::rules::Event;

/// Stones each player swept from the row at the end, for the final count.
#[derive(Resource, Default, Debug, Clone, Copy)]
pub struct Swept(pub [u32; 3]);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Phase>()
        .init_resource::<Message>()
        .init_resource::<Swept>()
        .add_observer(new_game)
        .add_observer(play_move)
        .add_observer(move_shown)
        .add_systems(Startup, |mut commands: Commands| commands.trigger(NewGame));
}

fn new_game(
    _: On<NewGame>,
    mut commands: Commands,
    settings: Res<Settings>,
    mut game: ResMut<Game>,
    mut places: ResMut<Places>,
    mut phase: ResMut<Phase>,
    mut message: ResMut<Message>,
    mut script: ResMut<Script>,
    mut swept: ResMut<Swept>,
    art: Res<Art>,
) {
    *game = Game::new(&settings, game.generation + 1);
    script.events.clear();
    *swept = Swept::default();
    pebbles::sync(&mut commands, &mut places, &game.pos, &art);
    *phase = Phase::Waiting;
    message.0 = turn_message(&game);
}

fn play_move(
    event: On<PlayMove>,
    mut commands: Commands,
    mut game: ResMut<Game>,
    mut phase: ResMut<Phase>,
    mut script: ResMut<Script>,
    mut swept: ResMut<Swept>,
    mut message: ResMut<Message>,
    settings: Res<Settings>,
) {
    if *phase != Phase::Waiting {
        return;
    }
    let mover = game.pos.to_move();
    let Ok(outcome) = game.pos.play(event.0) else {
        // Input and the computer only offer legal moves; anything else is ignored.
        return;
    };
    for e in &outcome.events {
        if let Event::Sweep { player, stones, .. } = *e {
            swept.0[usize::from(player)] += u32::from(stones);
        }
    }
    message.0.clear();
    script.start(outcome.events, mover);
    *phase = Phase::Animating;
    if settings.speed == Speed::Off {
        commands.trigger(MoveShown);
    }
}

fn move_shown(
    _: On<MoveShown>,
    mut commands: Commands,
    game: Res<Game>,
    mut places: ResMut<Places>,
    mut phase: ResMut<Phase>,
    mut message: ResMut<Message>,
    mut script: ResMut<Script>,
    art: Res<Art>,
) {
    if *phase != Phase::Animating {
        return;
    }
    // Whatever the animation did, the board now shows exactly the rules state.
    script.events.clear();
    pebbles::sync(&mut commands, &mut places, &game.pos, &art);
    if game.pos.is_over() {
        *phase = Phase::Over;
    } else {
        *phase = Phase::Waiting;
        // Keep what the move did on the line, and say whose turn it is.
        let turn = turn_message(&game);
        message.0 = if message.0.is_empty() {
            turn
        } else {
            format!("{}  ·  {turn}", message.0)
        };
    }
}

fn turn_message(game: &Game) -> String {
    let seat = game.pos.to_move();
    let who = if game.computer[seat].is_some() {
        "the computer".to_owned()
    } else if game.computer.iter().any(Option::is_some) {
        "you".to_owned()
    } else {
        format!("player {}", seat + 1)
    };
    format!("To move: {who}")
}
