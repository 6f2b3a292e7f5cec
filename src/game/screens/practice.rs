//! The player's own puzzles to practise (the mistakes of their reviewed games), kept like the
//! settings and brought back by their schedule (`session::Practice`).

use bevy::prelude::*;

use crate::game::state::{Files, Message};
use crate::session::{PRACTICE, Practice};

/// The puzzles to practise, as kept on disk.
#[derive(Resource, Default, Debug, Clone, PartialEq, Deref, DerefMut)]
pub struct PracticeStore(pub Practice);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PracticeStore>();
    app.add_systems(Startup, load);
    app.add_systems(
        Update,
        save.run_if(resource_changed::<PracticeStore>)
            .in_set(crate::game::state::GameSet::Show),
    );
}

/// Milliseconds since the Unix epoch by this device's clock: when a puzzle is due.
pub fn now_ms() -> i64 {
    web_time::SystemTime::now()
        .duration_since(web_time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Read at start; a file that does not read is set aside and practice starts again.
fn load(files: Option<Res<Files>>, mut store: ResMut<PracticeStore>) {
    let Some(files) = files else { return };
    if let Some(kept) = super::kept::read(&files, PRACTICE, Practice::from_ron) {
        store.bypass_change_detection().0 = kept;
    }
}

fn save(store: Res<PracticeStore>, files: Option<Res<Files>>, message: ResMut<Message>) {
    if !store.is_added() {
        super::kept::write(files, PRACTICE, &store.to_ron(), message);
    }
}
