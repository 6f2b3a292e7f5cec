//! The players' clocks on the board. A timed game on this device is counted down here: the
//! side to move's time runs while the board waits for its move (not while a move is shown, nor
//! behind a panel), and running out ends the game. The faces beside each store show whatever
//! `ClockView` holds, this device's clock or an online room's: m:ss, tenths under ten seconds,
//! the running one lit, a tick each second under ten when a player here is thinking.

use bevy::prelude::*;

use crate::game::board::art::{Art, INK, PLAYER_COLOURS};
use crate::game::board::layout::Layout;
use crate::game::board::text;
use crate::game::play::ai_turn::Chosen;
use crate::game::play::sound::Sfx;
use crate::game::state::{Game, Message, Note, Overlay, Phase, RanOutOfTime, Screen, Wake};
use crate::session::Lang;

/// What the clock faces show, written every frame by the clock's owner: this module for a game
/// on this device, the online table for a room's.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct ClockView {
    /// Milliseconds left for each side of the board (empty: the game is untimed).
    pub left: Vec<i64>,
    /// The side whose clock runs.
    pub running: Option<usize>,
    /// The running clock ticks each second under ten: a player at this device is thinking.
    pub tick: bool,
}

/// The face of the clock of side `0` of the board.
#[derive(Component)]
struct ClockFace(usize);

/// The last whole second the low clock ticked at.
#[derive(Resource, Default)]
struct LastTick(Option<i64>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ClockView>().init_resource::<LastTick>();
    app.add_systems(Startup, spawn);
    app.add_systems(
        Update,
        run_local_clock
            .run_if(in_state(Screen::Playing))
            .in_set(crate::game::state::GameSet::Think),
    );
    app.add_systems(
        Update,
        show.run_if(in_state(Screen::Playing))
            .in_set(crate::game::state::GameSet::Show),
    );
    app.add_systems(OnExit(Screen::Playing), hide);
}

/// The time of the side to move runs down; running out ends the game (a clock's end, which
/// the rules never hear of). Real time, not the virtual clock: that one pauses behind panels
/// too, but caps each frame's step, and a game asleep between moves takes long steps.
fn run_local_clock(
    mut commands: Commands,
    time: Res<Time<Real>>,
    overlay: Res<State<Overlay>>,
    chosen: Res<Chosen>,
    mut game: ResMut<Game>,
    mut phase: ResMut<Phase>,
    mut message: ResMut<Message>,
    mut view: ResMut<ClockView>,
) {
    // An online room's clock is the server's, shown by the online table.
    if game.online() {
        return;
    }
    if game.history.clock.is_none() {
        view.set_if_neq(ClockView::default());
        return;
    }
    let side = game.pos().to_move();
    let seat = game.history.seat_of(side);
    // The moment the computer's chosen move is shown before it is played is the board's, not
    // the computer's.
    let thinking = *phase == Phase::Waiting
        && *overlay.get() == Overlay::None
        && chosen.mv.is_none()
        && !game.history.is_over();
    if thinking {
        let spent = time.delta().as_millis() as i64;
        // Counting down is no change a screen needs to redraw for; running out is.
        let game_quietly = game.bypass_change_detection();
        if let Some(clock) = game_quietly.history.clock.as_mut()
            && clock.spend(seat, spent)
        {
            game.set_changed();
            message.set(out_of_time(&game, side));
            commands.trigger(RanOutOfTime { side });
        }
    }
    // Over by time, whatever resettled the board since.
    if game.history.flagged().is_some() && *phase == Phase::Waiting {
        *phase = Phase::Over;
    }
    let Some(clock) = &game.history.clock else {
        return;
    };
    let running = (!game.history.is_over()).then_some(side);
    let shown = ClockView {
        left: (0..game.pos().players())
            .map(|s| clock.remaining(game.history.seat_of(s)))
            .collect(),
        running,
        tick: running.is_some() && game.history.player_of(side).is_human(),
    };
    view.set_if_neq(shown);
}

/// "The computer ran out of time", in both languages.
pub fn out_of_time(game: &Game, side: usize) -> Note {
    let say = |lang: Lang| lang.trf("over.time", &[("who", &text::who(game, side, lang))]);
    Note::Text {
        en: say(Lang::En),
        vi: say(Lang::Vi),
    }
}

fn spawn(mut commands: Commands, art: Res<Art>) {
    for side in 0..3 {
        commands.spawn((
            ClockFace(side),
            crate::game::state::BoardLabel,
            Text2d::new(""),
            TextFont {
                font: art.bold.clone().into(),
                font_size: FontSize::Px(30.0),
                ..default()
            },
            TextColor(INK),
            Transform::default(),
            Visibility::Hidden,
        ));
    }
}

fn hide(mut faces: Query<&mut Visibility, With<ClockFace>>) {
    for mut v in &mut faces {
        *v = Visibility::Hidden;
    }
}

/// `ms` as a clock shows it: days and hours for a game by days (`2d 03h`), `h:mm:ss`, `m:ss`,
/// or `s.t` tenths under ten seconds.
pub fn clock_text(ms: i64) -> String {
    let ms = ms.max(0);
    if ms >= 86_400_000 {
        let h = ms / 3_600_000;
        return format!("{}d {:02}h", h / 24, h % 24);
    }
    if ms < 10_000 {
        return format!("0:{:02}.{}", ms / 1000, (ms % 1000) / 100);
    }
    let s = ms / 1000;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

fn show(
    mut commands: Commands,
    view: Res<ClockView>,
    layout: Res<Layout>,
    text_scale: Res<crate::game::state::TextScale>,
    mut last_tick: ResMut<LastTick>,
    mut wake: ResMut<Wake>,
    mut faces: Query<(
        &ClockFace,
        &mut Text2d,
        &mut TextColor,
        &mut Transform,
        &mut Visibility,
        &mut TextFont,
    )>,
) {
    for (face, mut text, mut colour, mut transform, mut visibility, mut font) in &mut faces {
        let Some(&left) = view.left.get(face.0) else {
            visibility.set_if_neq(Visibility::Hidden);
            continue;
        };
        let running = view.running == Some(face.0);
        let shown = clock_text(left);
        if text.0 != shown {
            text.0 = shown;
        }
        let lit = if running {
            PLAYER_COLOURS[face.0].lighter(0.25)
        } else {
            INK.with_alpha(0.45)
        };
        colour.set_if_neq(TextColor(lit));
        let at = layout.clock_position(face.0).extend(6.0);
        if transform.translation != at {
            transform.translation = at;
        }
        let size = FontSize::Px(30.0 * layout.text_scale() * text_scale.0);
        if font.font_size != size {
            font.font_size = size;
        }
        visibility.set_if_neq(Visibility::Inherited);
        if running && left > 0 {
            // The next frame comes when the figure shown changes: a tenth under ten seconds,
            // else a second.
            let step = if left <= 10_000 { 100 } else { 1000 };
            let until = (left - 1).rem_euclid(step) + 1;
            wake.bypass_change_detection()
                .within(std::time::Duration::from_millis(until as u64));
        }
        if running && view.tick && left < 10_000 && left > 0 {
            let second = left / 1000;
            if last_tick.0 != Some(second) {
                last_tick.0 = Some(second);
                commands.trigger(Sfx::Tick);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::clock_text;

    #[test]
    fn clocks_read_as_minutes_and_seconds_and_tenths_at_the_end() {
        assert_eq!(clock_text(300_000), "5:00");
        assert_eq!(clock_text(61_999), "1:01");
        assert_eq!(clock_text(10_000), "0:10");
        assert_eq!(clock_text(9_999), "0:09.9");
        assert_eq!(clock_text(450), "0:00.4");
        assert_eq!(clock_text(-20), "0:00.0", "never below zero");
        assert_eq!(clock_text(3_723_000), "1:02:03");
        assert_eq!(clock_text(3 * 86_400_000 - 1), "2d 23h");
    }
}
