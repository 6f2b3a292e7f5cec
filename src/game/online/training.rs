//! The player's practice and puzzle progress shared with their other devices through the
//! server (`session::training`) while the game is online. At each welcome the records written
//! since the last look come down, a page at a time, and are merged where they rank higher;
//! then whatever the server lacks goes up. A change made here while online goes up at once,
//! and another device's change comes down when the server says there is one.

use std::collections::HashMap;

use bevy::prelude::*;

use crate::game::online::link::{Link, LinkEvent};
use crate::game::screens::practice::PracticeStore;
use crate::game::screens::puzzles::Progress;
use crate::net::protocol::{ClientMessage, MAX_FRAME, MAX_TRAINING_PUT, Notice, ServerMessage};
use crate::session::training::{self, TrainingRecord};

/// Where this device stands with the server's copy of the player's records.
#[derive(Resource, Default, Debug)]
pub struct TrainingSync {
    /// The player the records are of: another one (a link code, a sign-in) starts again.
    player: Option<String>,
    /// The server's records are known up to this number.
    since: u64,
    /// Each record's rank as the server holds it, from what came down and what went up.
    server: HashMap<String, i64>,
    /// A page was asked for and has not come.
    pulling: bool,
    /// Everything the server had came down once for this player: only then does anything go
    /// up (what it has must be merged first).
    pulled: bool,
}

impl TrainingSync {
    /// Everything the server had came down, and no page is awaited.
    pub fn settled(&self) -> bool {
        self.pulled && !self.pulling
    }

    /// Records this device knows the server to hold.
    pub fn held(&self) -> usize {
        self.server.len()
    }

    /// Records the server holds ranked below this device's, or lacks.
    fn ahead(&self, records: Vec<TrainingRecord>) -> Vec<TrainingRecord> {
        records
            .into_iter()
            .filter(|r| {
                self.server
                    .get(&r.key())
                    .is_none_or(|&rank| r.rank() > rank)
            })
            .collect()
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TrainingSync>();
    app.add_systems(
        Update,
        (
            receive.after(super::link::pump),
            send_ahead.run_if(
                resource_changed::<PracticeStore>
                    .or_eager(resource_changed::<Progress>)
                    .or_eager(resource_changed::<TrainingSync>),
            ),
        )
            .chain()
            .in_set(crate::game::state::GameSet::Input),
    );
}

/// Ask for the records written after what this device has.
fn pull(sync: &mut TrainingSync, link: &mut Link) {
    sync.pulling = link.send(&ClientMessage::Training { since: sync.since });
}

/// The server's words about the records: the welcome starts a pull, a page is merged.
fn receive(
    mut events: MessageReader<LinkEvent>,
    mut sync: ResMut<TrainingSync>,
    mut link: ResMut<Link>,
    (mut practice, mut progress): (ResMut<PracticeStore>, ResMut<Progress>),
) {
    for event in events.read() {
        let notice = match event {
            LinkEvent::Message(msg) => match &**msg {
                ServerMessage::Notice(notice) => notice,
                _ => continue,
            },
            LinkEvent::Down(_) => {
                sync.pulling = false;
                continue;
            }
            LinkEvent::Up => continue,
        };
        match notice {
            Notice::Welcome { player, .. } => {
                if sync.player.as_ref() != Some(&player.id) {
                    *sync = TrainingSync {
                        player: Some(player.id.clone()),
                        ..default()
                    };
                }
                pull(&mut sync, &mut link);
            }
            Notice::Training {
                records,
                upto,
                more,
            } => {
                let mut changed = false;
                for record in records {
                    let rank = sync.server.entry(record.key()).or_insert(i64::MIN);
                    *rank = (*rank).max(record.rank());
                    changed |= training::apply(
                        &mut practice.bypass_change_detection().0,
                        &mut progress.bypass_change_detection().0,
                        record.clone(),
                    );
                }
                if changed {
                    practice.set_changed();
                    progress.set_changed();
                }
                sync.since = *upto;
                match more {
                    true => pull(&mut sync, &mut link),
                    false => {
                        sync.pulling = false;
                        sync.pulled = true;
                    }
                }
            }
            Notice::TrainingChanged { upto } if *upto > sync.since && !sync.pulling => {
                pull(&mut sync, &mut link)
            }
            _ => {}
        }
    }
}

/// What the server lacks goes up, in frames of at most `MAX_TRAINING_PUT` records and well
/// under a frame's bytes; each is taken as held (a refusal leaves it for the next run).
fn send_ahead(
    mut sync: ResMut<TrainingSync>,
    mut link: ResMut<Link>,
    (practice, progress): (Res<PracticeStore>, Res<Progress>),
) {
    if !sync.pulled || sync.pulling || !link.is_open() {
        return;
    }
    let ahead = sync.ahead(training::records(&practice, &progress));
    if ahead.is_empty() {
        return;
    }
    let sync = sync.bypass_change_detection();
    let mut frame: Vec<TrainingRecord> = Vec::new();
    let mut bytes = 0;
    for record in ahead {
        let size = serde_json::to_string(&record).map_or(MAX_FRAME, |json| json.len());
        if size > training::MAX_RECORD_BYTES || record.check().is_err() {
            // The server would refuse the whole frame for it.
            continue;
        }
        if frame.len() == MAX_TRAINING_PUT || bytes + size > MAX_FRAME * 3 / 4 {
            send(&mut link, std::mem::take(&mut frame));
            bytes = 0;
        }
        bytes += size;
        sync.server.insert(record.key(), record.rank());
        frame.push(record);
    }
    send(&mut link, frame);
}

fn send(link: &mut Link, records: Vec<TrainingRecord>) {
    if !records.is_empty() {
        link.send(&ClientMessage::KeepTraining { records });
    }
}
