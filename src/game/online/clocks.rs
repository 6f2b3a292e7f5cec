//! The clocks of a timed online game, beside each store: the server's figures counted down
//! between its messages (by the server's time, estimated from the clock probe), the running one
//! lit, tenths under ten seconds, and a short tick each second under ten on our own clock.

use bevy::prelude::*;

use super::client::Online;
use super::table::OnBoard;
use crate::game::board::art::{Art, INK, PLAYER_COLOURS};
use crate::game::board::layout::Layout;
use crate::game::play::sound::Sfx;
use crate::game::state::{Screen, Wake};

/// The clock of the side `0` of the board.
#[derive(Component)]
struct ClockFace(usize);

/// The last whole second our low clock ticked at.
#[derive(Resource, Default)]
struct LastTick(Option<i64>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LastTick>();
    app.add_systems(Startup, spawn);
    app.add_systems(
        Update,
        show.run_if(in_state(Screen::Playing))
            .in_set(crate::game::state::GameSet::Show),
    );
    app.add_systems(OnExit(Screen::Playing), hide);
}

fn spawn(mut commands: Commands, art: Res<Art>) {
    for side in 0..3 {
        commands.spawn((
            ClockFace(side),
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

/// `ms` as a clock shows it: `h:mm:ss`, `m:ss`, or `s.t` tenths under ten seconds.
pub fn clock_text(ms: i64) -> String {
    let ms = ms.max(0);
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
    online: Res<Online>,
    on_board: Res<OnBoard>,
    layout: Res<Layout>,
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
    let room = online
        .room
        .as_ref()
        .filter(|r| on_board.code.as_deref() == Some(r.code.as_str()));
    let clock = room.and_then(|r| Some((r, r.state.as_ref()?, r.state.as_ref()?.clock.as_ref()?)));
    let Some((room, state, clock)) = clock else {
        for (.., mut visibility, _) in &mut faces {
            visibility.set_if_neq(Visibility::Hidden);
        }
        return;
    };
    let now = online.server_now();
    for (face, mut text, mut colour, mut transform, mut visibility, mut font) in &mut faces {
        if face.0 >= state.players() {
            visibility.set_if_neq(Visibility::Hidden);
            continue;
        }
        let seat = state.seat_of_side(face.0);
        let left = clock.remaining(seat, now);
        let running = clock.running() == Some(seat);
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
        let size = FontSize::Px(30.0 * layout.text_scale());
        if font.font_size != size {
            font.font_size = size;
        }
        visibility.set_if_neq(Visibility::Inherited);
        if running {
            // The next frame comes when the figure shown changes: a tenth under ten seconds,
            // else a second.
            let step = if left <= 10_000 { 100 } else { 1000 };
            let until = (left - 1).rem_euclid(step) + 1;
            wake.bypass_change_detection()
                .within(std::time::Duration::from_millis(until as u64));
        }
        // Our own clock, running low: a tick each second.
        if running && Some(seat) == room.you && left < 10_000 && left > 0 {
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
    }
}
