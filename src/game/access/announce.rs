//! The game's voice for screen readers: a polite live region that says each move as it starts
//! to be shown (the player's, the computer's, the opponent's), the turn, the end and its count,
//! and answers single keys: C the scores, T the clocks, L the last move, M the moves the player
//! can make, A the last announcement again.

use bevy::a11y::AccessibilityNode;
use bevy::prelude::*;

use crate::game::access::speech;
use crate::game::board::layout::Layout;
use crate::game::play::clock::ClockView;
use crate::game::state::{Game, GameSet, MovePlayed, Overlay, Prefs, Screen};

/// The node a screen reader listens to: each new text is read out once.
#[derive(Component)]
pub struct LiveRegion;

/// Say something now (it replaces what was being said).
#[derive(Event, Debug, Clone, PartialEq)]
pub struct Announce(pub String);

/// What was said last, how many times anything was said, and the last few announcements
/// (a test reads them).
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct Announcer {
    pub said: String,
    pub count: u64,
    pub recent: std::collections::VecDeque<String>,
    /// Said this frame, not yet in the live region: several in one frame (a move and the
    /// computer's answer at once) are read as one, none lost.
    waiting: Vec<String>,
}

/// How many announcements `Announcer::recent` keeps.
const RECENT: usize = 16;

/// The keys that read the board, and what each reads.
pub const READING_KEYS: [(KeyCode, Reading); 5] = [
    (KeyCode::KeyC, Reading::Scores),
    (KeyCode::KeyT, Reading::Clocks),
    (KeyCode::KeyL, Reading::LastMove),
    (KeyCode::KeyM, Reading::Moves),
    (KeyCode::KeyA, Reading::Again),
];

/// What a reading key asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    Scores,
    Clocks,
    LastMove,
    Moves,
    Again,
}

pub(in crate::game) fn plugin(app: &mut App) {
    app.init_resource::<Announcer>();
    app.add_systems(Startup, spawn_live_region);
    app.add_observer(say);
    app.add_observer(move_played);
    app.add_systems(
        PostUpdate,
        speak.before(bevy::a11y::AccessibilitySystems::Update),
    );
    app.add_systems(
        Update,
        reading_keys
            .run_if(
                in_state(Screen::Playing)
                    .or_eager(in_state(Screen::Puzzles))
                    .and_eager(in_state(Overlay::None)),
            )
            .in_set(GameSet::Input),
    );
}

/// Out of sight, but in the accessibility tree.
fn spawn_live_region(mut commands: Commands, prefs: Res<Prefs>) {
    let mut node = accesskit::Node::new(accesskit::Role::Status);
    node.set_live(accesskit::Live::Polite);
    node.set_description(prefs.lang().tr("a11y.announcements"));
    commands.spawn((
        LiveRegion,
        AccessibilityNode::from(node),
        Node {
            position_type: PositionType::Absolute,
            width: px(1),
            height: px(1),
            overflow: Overflow::clip(),
            ..default()
        },
    ));
}

/// Queue words for the live region.
fn say(announce: On<Announce>, mut announcer: ResMut<Announcer>) {
    let text = announce.0.trim();
    if !text.is_empty() {
        announcer.waiting.push(text.to_owned());
    }
}

/// The live region speaks when its name changes: the frame's words, once; the same words again
/// get an invisible mark (a no-break space) so that they are read again.
fn speak(
    mut announcer: ResMut<Announcer>,
    mut regions: Query<&mut AccessibilityNode, With<LiveRegion>>,
) {
    if announcer.waiting.is_empty() {
        return;
    }
    let text = std::mem::take(&mut announcer.waiting).join(" ");
    announcer.count += 1;
    let spoken = if announcer.count.is_multiple_of(2) {
        format!("{text}\u{a0}")
    } else {
        text.clone()
    };
    if announcer.recent.len() == RECENT {
        announcer.recent.pop_front();
    }
    announcer.recent.push_back(text.clone());
    announcer.said = text;
    for mut node in &mut regions {
        node.set_label(spoken.clone());
    }
}

/// Each move, whoever played it, as soon as it is played.
fn move_played(
    played: On<MovePlayed>,
    mut commands: Commands,
    game: Res<Game>,
    layout: Res<Layout>,
    prefs: Res<Prefs>,
) {
    let said = speech::move_summary(&game, &layout, &played.events, prefs.lang());
    commands.trigger(Announce(said));
}

fn reading_keys(
    mut commands: Commands,
    keys: Res<ButtonInput<KeyCode>>,
    game: Res<Game>,
    layout: Res<Layout>,
    prefs: Res<Prefs>,
    clocks: Res<ClockView>,
    announcer: Res<Announcer>,
) {
    let lang = prefs.lang();
    for (key, reading) in READING_KEYS {
        if !keys.just_pressed(key) {
            continue;
        }
        let said = match reading {
            Reading::Scores => speech::scores(&game, lang),
            Reading::Clocks => speech::clocks(&game, &clocks.left, lang),
            Reading::LastMove => speech::last_move(&game, &layout, lang),
            Reading::Moves => speech::legal_moves(&game, &layout, lang),
            Reading::Again => announcer.said.clone(),
        };
        commands.trigger(Announce(said));
    }
}
