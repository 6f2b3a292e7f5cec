//! The turn flow: a chosen move goes through the rules, its events go to the animation, and
//! when they have been shown the board is snapped to the rules state and the next turn begins.
//! New games, loaded games, undo and redo put a position on the board the same way.

use bevy::prelude::*;

use crate::game::board::art::Art;
use crate::game::board::layout::Layout;
use crate::game::board::pebbles::{self, Places};
use crate::game::board::text;
use crate::game::play::animation::Script;
use crate::game::state::{
    Game, Launch, LoadGame, Message, MovePlayed, MoveShown, NewGame, Note, Phase, PlayMove, Prefs,
    Settled, Skip, TimeTravel,
};
use crate::rules::Event;

/// Stones each player swept from their row at the end, for the final count: what the last
/// move of a finished game swept (nothing before the end).
pub fn swept(game: &Game) -> [u32; 3] {
    let mut swept = [0; 3];
    let Some(last) = game.history.entries().last() else {
        return swept;
    };
    if !game.pos().is_over() {
        return swept;
    }
    let mut pos = last.before;
    if let Ok(outcome) = pos.play(last.mv) {
        for e in outcome.events {
            if let Event::Sweep { player, stones, .. } = e {
                swept[usize::from(player)] += u32::from(stones);
            }
        }
    }
    swept
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Phase>()
        .init_resource::<Message>()
        .add_observer(new_game)
        .add_observer(load_game)
        .add_observer(time_travel)
        .add_observer(settle)
        .add_observer(play_move)
        .add_observer(move_shown);
    app.add_systems(
        Update,
        (
            face_the_player.run_if(resource_changed::<Phase>),
            follow_the_board.run_if(resource_changed::<Layout>),
        )
            .chain()
            .in_set(crate::game::state::GameSet::Input),
    );
}

/// After a table flip the person at this device plays the other side: once the flip has been
/// shown, the board turns so that their row is again the nearest.
fn face_the_player(game: Res<Game>, phase: Res<Phase>, mut layout: ResMut<Layout>) {
    if *phase != Phase::Animating {
        let facing = layout.nearest(game.viewer_side());
        layout.set_if_neq(facing);
    }
}

/// The board turned (the window changed shape) under the stones: a move being shown ends at
/// once, and every stone goes to its place on the turned board.
fn follow_the_board(
    mut commands: Commands,
    game: Res<Game>,
    phase: Res<Phase>,
    mut places: ResMut<Places>,
    layout: Res<Layout>,
    art: Res<Art>,
) {
    // Already in place on this board (the change came with a new position, synced then).
    if places.drawn_on == Some(*layout) {
        return;
    }
    if *phase == Phase::Animating {
        commands.trigger(Skip);
    } else {
        pebbles::sync(&mut commands, &mut places, game.pos(), &art, &layout);
    }
}

fn new_game(
    _: On<NewGame>,
    mut commands: Commands,
    prefs: Res<Prefs>,
    launch: Res<Launch>,
    mut game: ResMut<Game>,
) {
    let next = Game::new(&prefs, &launch, game.generation + 1);
    *game = next;
    commands.trigger(Settled);
}

fn load_game(loaded: On<LoadGame>, mut commands: Commands, mut game: ResMut<Game>) {
    game.history = loaded.0.clone();
    game.generation += 1;
    commands.trigger(Settled);
}

fn time_travel(
    travel: On<TimeTravel>,
    mut commands: Commands,
    phase: Res<Phase>,
    mut game: ResMut<Game>,
) {
    // Not in the middle of a move's animation: the board would jump under it. Not in a timed
    // game: the clocks would no longer belong to the position.
    if *phase == Phase::Animating || game.timed() {
        return;
    }
    let moved = match *travel {
        TimeTravel::Undo => game.history.undo(),
        TimeTravel::Redo => game.history.redo(),
    };
    if moved > 0 {
        game.generation += 1;
        commands.trigger(Settled);
    }
}

fn settle(
    _: On<Settled>,
    mut commands: Commands,
    game: Res<Game>,
    mut places: ResMut<Places>,
    mut phase: ResMut<Phase>,
    mut message: ResMut<Message>,
    mut script: ResMut<Script>,
    mut layout: ResMut<Layout>,
    art: Res<Art>,
) {
    script.events.clear();
    // The 3-player board when the game needs it; the board redraws itself on a change.
    let players = Layout::new(game.pos().players())
        .for_window(layout.tall_window())
        .nearest(game.viewer_side());
    layout.set_if_neq(players);
    pebbles::sync(&mut commands, &mut places, game.pos(), &art, &layout);
    *phase = if game.history.is_over() {
        Phase::Over
    } else {
        Phase::Waiting
    };
    // Keep what was said about files (errors, an import), and say whose turn it is.
    message.0.retain(|note| matches!(note, Note::Text { .. }));
    message.0.push(Note::Turn);
}

fn play_move(
    event: On<PlayMove>,
    mut commands: Commands,
    mut game: ResMut<Game>,
    mut phase: ResMut<Phase>,
    mut script: ResMut<Script>,
    mut message: ResMut<Message>,
    prefs: Res<Prefs>,
    motion: Res<crate::game::state::Motion>,
) {
    if *phase != Phase::Waiting {
        return;
    }
    let mover = game.pos().to_move();
    let Ok(outcome) = game.history.play(event.0) else {
        // Input and the computer only offer legal moves; anything else is ignored.
        return;
    };
    message.0.clear();
    let animated = motion.factor(prefs.speed) > 0.0;
    if !animated {
        // No animation to narrate the move: say what it last did worth saying.
        let last = outcome
            .events
            .iter()
            .rev()
            .find(|e| text::narrate(e, &game, prefs.lang()).is_some());
        message.0.extend(last.map(|e| Note::Event(*e)));
    }
    script.start(outcome.events.clone(), mover);
    *phase = Phase::Animating;
    commands.trigger(MovePlayed {
        events: outcome.events,
        mover,
    });
    if !animated {
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
    layout: Res<Layout>,
) {
    if *phase != Phase::Animating {
        return;
    }
    // Whatever the animation did, the board now shows exactly the rules state.
    script.events.clear();
    pebbles::sync(&mut commands, &mut places, game.pos(), &art, &layout);
    if game.history.is_over() {
        *phase = Phase::Over;
    } else {
        *phase = Phase::Waiting;
        // Keep what the move did on the line, and say whose turn it is.
        message.0.push(Note::Turn);
    }
}
