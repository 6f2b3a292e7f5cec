//! Shows a move one event at a time: the hand lifts a pit's stones, drops them one by one along
//! an arc, lifts the next pit on a relay, and captured stones fly to the store. Every movement is
//! a bevy_tweening tween; `Places` follows the events so that the next step moves the right
//! stones, and the end of the script snaps everything to the rules state.

use std::collections::VecDeque;
use std::time::Duration;

use bevy::prelude::*;
use bevy_tweening::lens::TransformPositionLens;
use bevy_tweening::{Delay, Tween, TweenAnim};

use crate::game::board::art::Art;
use crate::game::board::layout::Layout;
use crate::game::board::pebbles::{self, Places};
use crate::game::board::text;
use crate::game::play::sound::Sfx;
use crate::game::state::{Game, Message, MoveShown, Note, Phase, Prefs, Replay, Skip};
use crate::rules::{Event, Loan, geometry};

/// A pit is about to be captured by `player`: it flashes in their colour for `FLASH`.
#[derive(Event, Debug, Clone, Copy)]
pub struct PitCaptured {
    pub pit: usize,
    pub player: usize,
    /// How long it glows (`FLASH` at normal speed).
    pub lasts: Duration,
}

/// How long a captured pit glows (its stones leave halfway through).
pub const FLASH: Duration = Duration::from_millis(480);

/// The events of the move being shown, and when the next one starts.
#[derive(Resource, Default)]
pub struct Script {
    pub events: VecDeque<Event>,
    /// The seat that made the move (captures go to its store).
    pub mover: usize,
    wait: Timer,
}

impl Script {
    pub fn start(&mut self, events: Vec<Event>, mover: usize) {
        self.events = events.into();
        self.mover = mover;
        self.wait = Timer::new(Duration::ZERO, TimerMode::Once);
    }
}

/// How fast moves are shown, as a multiple of the settings' speed (a review plays at 0.5×–4×).
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct Pace(pub f32);

impl Default for Pace {
    fn default() -> Pace {
        Pace(1.0)
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Script>().init_resource::<Pace>();
    app.add_systems(
        Update,
        play_script.in_set(crate::game::state::GameSet::Animate),
    );
    app.add_observer(skip);
}

fn play_script(
    mut commands: Commands,
    time: Res<Time>,
    mut script: ResMut<Script>,
    mut places: ResMut<Places>,
    mut message: ResMut<Message>,
    phase: Res<Phase>,
    prefs: Res<Prefs>,
    motion: Res<crate::game::state::Motion>,
    pace: Res<Pace>,
    replay: Res<Replay>,
    game: Res<Game>,
    art: Res<Art>,
    layout: Res<Layout>,
    transforms: Query<&Transform>,
) {
    if *phase != Phase::Animating {
        return;
    }
    script.wait.tick(time.delta());
    while script.wait.is_finished() {
        let Some(event) = script.events.pop_front() else {
            finish(&mut commands, &mut script);
            return;
        };
        let mover = script.mover;
        let speed = motion.factor(prefs.speed) / pace.0.max(0.01) / replay.pace();
        let current = |e: Entity| transforms.get(e).map_or(Vec3::ZERO, |t| t.translation);
        let mut show = Show {
            commands: &mut commands,
            art: &art,
            layout: &layout,
            places: &mut places,
            current: &current,
            speed,
        };
        let millis = show.event(event, mover);
        if let Some(sfx) = Sfx::of(&event) {
            commands.trigger(sfx);
        }
        if text::narrate(&event, &game, prefs.lang()).is_some() {
            message.set(Note::Event(event));
        }
        script.wait = Timer::new(
            Duration::from_secs_f32(millis * speed / 1000.0),
            TimerMode::Once,
        );
    }
}

fn finish(commands: &mut Commands, script: &mut Script) {
    script.events.clear();
    commands.trigger(MoveShown);
}

/// Skip: drop what is left of the script; the end of the move snaps the board.
fn skip(_: On<Skip>, mut commands: Commands, mut script: ResMut<Script>, phase: Res<Phase>) {
    if *phase == Phase::Animating {
        finish(&mut commands, &mut script);
    }
}

struct Show<'a, 'w, 's> {
    commands: &'a mut Commands<'w, 's>,
    art: &'a Art,
    layout: &'a Layout,
    places: &'a mut Places,
    /// Where an entity is now.
    current: &'a dyn Fn(Entity) -> Vec3,
    speed: f32,
}

impl Show<'_, '_, '_> {
    /// Start showing `event`; returns how long (at normal speed, in ms) before the next one.
    fn event(&mut self, event: Event, mover: usize) -> f32 {
        match event {
            Event::PickUp { pit, .. } => self.lift(usize::from(pit), 150.0),
            Event::Relay { pit, .. } => self.lift(usize::from(pit), 270.0),
            Event::Drop { pit } => self.drop_one(usize::from(pit)),
            Event::Capture { pit, mandarin, .. } => self.capture(usize::from(pit), mandarin, mover),
            Event::Refill {
                player,
                paid,
                exchanged,
                loan,
            } => self.refill(usize::from(player), paid, exchanged, loan),
            Event::Sweep { pit, player, .. } => {
                let (pit, player) = (usize::from(pit), usize::from(player));
                for e in std::mem::take(&mut self.places.pits[pit]) {
                    let slot = self.places.stores[player].len();
                    self.glide(e, pebbles::store_spot(self.layout, player, slot), 300.0);
                    self.places.stores[player].push(e);
                }
                150.0
            }
            Event::Discard { pit, .. } => {
                let pit = usize::from(pit);
                for e in std::mem::take(&mut self.places.pits[pit]) {
                    self.commands.entity(e).despawn();
                }
                if let Some(e) = self.places.pieces[geometry::owner(pit)].take() {
                    self.commands.entity(e).despawn();
                }
                200.0
            }
            Event::TurnEnd { .. } | Event::Swap => 300.0,
            // The final count is on the panel; nothing moves.
            Event::GameOver { .. } => 0.0,
        }
    }

    /// A stone from the hand into `pit`; the rest of the hand moves along.
    fn drop_one(&mut self, pit: usize) -> f32 {
        if let Some(e) = self.places.hand.pop() {
            let slot = self.places.pits[pit].len();
            self.arc(e, pebbles::pit_spot(self.layout, e, pit, slot), 125.0);
            self.places.pits[pit].push(e);
        }
        let hand: Vec<Entity> = self.places.hand.clone();
        for (i, e) in hand.into_iter().enumerate() {
            self.glide(e, hand_spot(self.layout, pit, i), 110.0);
        }
        120.0
    }

    /// `pit` taken by `mover`: the pit flashes first; its stones leave halfway through the
    /// flash, in a stream, the mandarin last.
    fn capture(&mut self, pit: usize, mandarin: bool, mover: usize) -> f32 {
        self.commands.trigger(PitCaptured {
            pit,
            player: mover,
            lasts: FLASH.mul_f32(self.speed),
        });
        let wait = FLASH.as_secs_f32() * 1000.0 / 2.0;
        let stones = std::mem::take(&mut self.places.pits[pit]);
        let count = stones.len();
        for (i, e) in stones.into_iter().enumerate() {
            let slot = self.places.stores[mover].len();
            self.glide_after(
                e,
                pebbles::store_spot(self.layout, mover, slot),
                wait + 30.0 * i as f32,
                320.0,
            );
            self.places.stores[mover].push(e);
        }
        if mandarin && let Some(e) = self.places.pieces[geometry::owner(pit)].take() {
            let slot = self.places.store_pieces[mover].len();
            self.glide_after(
                e,
                pebbles::store_piece_spot(self.layout, mover, slot),
                wait + 30.0 * count as f32,
                450.0,
            );
            self.places.store_pieces[mover].push(e);
        }
        wait + 30.0 * count as f32 + 480.0
    }

    /// `player`'s empty row refilled: `paid` stones from their store, a loan's from the
    /// lender's, mandarins exchanged for stones first where that was needed.
    fn refill(&mut self, player: usize, paid: u8, exchanged: bool, loan: Option<Loan>) -> f32 {
        let mut givers = vec![player; usize::from(paid)];
        if let Some(loan) = loan {
            givers.extend(std::iter::repeat_n(
                usize::from(loan.lender),
                usize::from(loan.stones),
            ));
            if loan.exchanged {
                self.exchange(usize::from(loan.lender));
            }
        }
        if exchanged {
            self.exchange(player);
        }
        for (k, giver) in givers.into_iter().enumerate() {
            let pit = geometry::row(player).start + k;
            if let Some(e) = self.places.stores[giver].pop() {
                self.arc(
                    e,
                    pebbles::pit_spot(self.layout, e, pit, 0),
                    200.0 + 80.0 * k as f32,
                );
                self.places.pits[pit].push(e);
            }
        }
        650.0
    }

    fn lift(&mut self, pit: usize, millis: f32) -> f32 {
        let stones = std::mem::take(&mut self.places.pits[pit]);
        for (i, &e) in stones.iter().enumerate() {
            self.glide(e, hand_spot(self.layout, pit, i), 150.0);
        }
        self.places.hand = stones;
        millis
    }

    /// A captured mandarin becomes ten stones in the store, for a refill.
    fn exchange(&mut self, player: usize) {
        if let Some(e) = self.places.store_pieces[player].pop() {
            self.commands.entity(e).despawn();
        }
        for _ in 0..10 {
            let e = self
                .commands
                .spawn(pebbles::pebble(self.art, pebbles::next_look()))
                .id();
            let slot = self.places.stores[player].len();
            self.commands
                .entity(e)
                .insert(Transform::from_translation(pebbles::store_spot(
                    self.layout,
                    player,
                    slot,
                )));
            self.places.stores[player].push(e);
        }
    }

    fn glide(&mut self, e: Entity, to: Vec3, millis: f32) {
        let tween = self.glide_tween(e, to, millis);
        self.commands.entity(e).insert(TweenAnim::new(tween));
    }

    /// A glide that starts `wait` ms from now (the stone stays put until then).
    fn glide_after(&mut self, e: Entity, to: Vec3, wait: f32, millis: f32) {
        let tween = self.glide_tween(e, to, millis);
        let wait = Delay::new(Duration::from_secs_f32(
            (wait * self.speed / 1000.0).max(0.001),
        ));
        self.commands
            .entity(e)
            .insert(TweenAnim::new(wait.then(tween)));
    }

    fn glide_tween(&self, e: Entity, to: Vec3, millis: f32) -> Tween {
        let from = (self.current)(e);
        let duration = Duration::from_secs_f32((millis * self.speed / 1000.0).max(0.001));
        Tween::new(
            EaseFunction::QuadraticInOut,
            duration,
            TransformPositionLens {
                start: from,
                end: to,
            },
        )
    }

    fn arc(&mut self, e: Entity, to: Vec3, millis: f32) {
        let from = (self.current)(e);
        let top = (from + to) / 2.0 + Vec3::new(0.0, 36.0, 1.0);
        let half = Duration::from_secs_f32((millis * self.speed / 2000.0).max(0.001));
        let up = Tween::new(
            EaseFunction::QuadraticOut,
            half,
            TransformPositionLens {
                start: from,
                end: top,
            },
        );
        let down = Tween::new(
            EaseFunction::QuadraticIn,
            half,
            TransformPositionLens {
                start: top,
                end: to,
            },
        );
        self.commands
            .entity(e)
            .insert(TweenAnim::new(up.then(down)));
    }
}

/// Where the `i`-th stone of the hand floats above `pit`.
fn hand_spot(layout: &Layout, pit: usize, i: usize) -> Vec3 {
    let offset = Vec2::new((i % 8) as f32 * 7.0 - 24.0, (i / 8) as f32 * 7.0);
    (layout.hand_position(pit) + offset).extend(20.0 + i as f32 * 0.01)
}
